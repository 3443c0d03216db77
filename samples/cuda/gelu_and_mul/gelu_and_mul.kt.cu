// gelu_and_mul.kt.cu - the template of gelu_and_mul.cu (see there for what
// it computes). Parameters, each defaulting to the literal it replaced:
//   VEC    bf16 per vector access (8: 16 bytes)
//   BLOCK  the cap on threads per block (1024)
//   ITEMS  vectors a thread loads before it computes (1)
//   SPLIT  blocks per token, each taking a slice of the row (1); decode
//          sizes leave most SMs idle with one block per token
//   UNROLL unroll of the column loop (1: "#pragma unroll 1")
// Written by hand (ktc annotate was not there yet) following its
// conventions; lines that go beyond replacing a literal say "hand:".
#include <cuda_bf16.h>

#ifndef VEC
#define VEC 8
#endif
#ifndef BLOCK
#define BLOCK 1024
#endif
#ifndef ITEMS
#define ITEMS 1
#endif
#ifndef SPLIT
#define SPLIT 1
#endif
#ifndef UNROLL
#define UNROLL 1
#endif

// hand: a vector of VEC bf16 is one access of 2 * VEC bytes (an integer
// word: a struct of bf16 pairs would be copied 4 bytes at a time)
template <int BYTES> struct kt_word;
template <> struct kt_word<4> { typedef unsigned int type; };
template <> struct kt_word<8> { typedef uint2 type; };
template <> struct kt_word<16> { typedef uint4 type; };
typedef kt_word<2 * VEC>::type gelu_word;
union gelu_vec {
	gelu_word w;
	__nv_bfloat162 h[VEC / 2];
};

__device__ __forceinline__ float gelu(float x)
{
	// the exact (erf) form, as GELU in PyTorch's default
	return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f));
}

#pragma kt param VEC values(2, 4, 8) default(8)
#pragma kt param BLOCK values(128, 256, 512, 1024) default(1024)
#pragma kt param ITEMS values(1, 2, 4) default(1)
#pragma kt param SPLIT values(1, 2, 4, 8, 16) default(1)
#pragma kt param UNROLL values(1, 2) default(1)
#pragma kt problem T values(1, 64, 4096, 16384) default(4096)
#pragma kt problem D values(14336, 18432) default(14336)
#pragma kt constraint D % VEC == 0
#pragma kt launch grid(T, SPLIT) block(min(div_ceil(div_ceil(D / VEC, SPLIT), ITEMS), BLOCK))
#pragma kt arg out bf16[T * D] out
#pragma kt arg in bf16[T * 2 * D] in init(random(-4, 4))
#pragma kt arg d int = D
#pragma kt verify rtol(0.02) atol(0.001)
#pragma kt objective bandwidth(3 * T * D * 2)
extern "C" __global__ void __launch_bounds__(BLOCK)
gelu_and_mul_kernel(__nv_bfloat16 *__restrict__ out,
		    const __nv_bfloat16 *__restrict__ in, int d)
{
	constexpr int kt_unroll_cols = UNROLL;
	const long t = blockIdx.x;
	const gelu_word *x = reinterpret_cast<const gelu_word *>(in + t * 2 * d);
	const gelu_word *y = reinterpret_cast<const gelu_word *>(in + t * 2 * d + d);
	gelu_word *o = reinterpret_cast<gelu_word *>(out + t * d);
	const int per = (d / VEC + SPLIT - 1) / SPLIT; // hand: slice of a block
	const int lo = blockIdx.y * per;               // hand:
	const int hi = min(d / VEC, lo + per);         // hand:
#pragma unroll kt_unroll_cols
	for (int i = lo + threadIdx.x; i < hi; i += blockDim.x * ITEMS) {
		gelu_vec xv[ITEMS], yv[ITEMS]; // hand: loads first, then math
#pragma unroll
		for (int k = 0; k < ITEMS; k++) {
			const int j = i + k * blockDim.x;
			if (j < hi) {
				xv[k].w = x[j];
				yv[k].w = y[j];
			}
		}
#pragma unroll
		for (int k = 0; k < ITEMS; k++) {
			const int j = i + k * blockDim.x;
			if (j >= hi)
				break;
			gelu_vec ov;
#pragma unroll
			for (int h = 0; h < VEC / 2; h++) {
				float2 a = __bfloat1622float2(xv[k].h[h]);
				float2 b = __bfloat1622float2(yv[k].h[h]);
				ov.h[h] = __floats2bfloat162_rn(gelu(a.x) * b.x,
								gelu(a.y) * b.y);
			}
			o[j] = ov.w;
		}
	}
}

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>

// d must be a multiple of VEC (whole vectors, aligned rows).
static cudaError_t gelu_and_mul(__nv_bfloat16 *out, const __nv_bfloat16 *in,
				int tokens, int d, cudaStream_t stream)
{
	if (d % VEC || tokens <= 0)
		return cudaErrorInvalidValue;
	const int per = (d / VEC + SPLIT - 1) / SPLIT; // hand:
	const int threads = (per + ITEMS - 1) / ITEMS; // hand:
	dim3 grid(tokens, SPLIT);
	dim3 block(threads < BLOCK ? threads : BLOCK);
	gelu_and_mul_kernel<<<grid, block, 0, stream>>>(out, in, d);
	return cudaGetLastError();
}
#endif
