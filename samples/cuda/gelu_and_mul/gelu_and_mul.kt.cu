// gelu_and_mul.cu - the gated activation of a GeGLU MLP (Gemma) on bf16:
// out[t, i] = gelu(x[t, i]) * x[t, d + i], x being [tokens, 2 * d] (the gate
// and up halves of the fused projection), gelu with erf. Written in the
// style of SGLang's AOT activation kernel: one block per token, 16-byte
// vectors (8 bf16), at most 1024 threads per block, the column loop rolled.
// hand: this is the template gelu_and_mul.kt.cu: `ktc annotate` of the
// hand: original (UNROLL, BLOCK_SIZE), completed by hand; each parameter defaults to
// hand: the literal it replaced, and at the defaults nvcc emits the
// hand: original's PTX:
// hand:   UNROLL unroll of the column loop (1: "#pragma unroll 1")
// hand:   VEC    bf16 per vector access (8: 16 bytes)
// hand:   BLOCK_SIZE  the cap on threads per block (1024)
// hand:   ITEMS  vectors of each half a thread loads before it computes (1)
// hand:   SPLIT  blocks per token, each taking a slice of the row (1); 0:
// hand:          as many as the row needs for one pass of BLOCK_SIZE * ITEMS
// hand:          vectors (every thread loads once, the row spread over SMs:
// hand:          decode sizes leave most SMs idle with one block per token)
// hand:   EARLY  1: gelu(x) * y computed as h + h * erf(x / sqrt(2)), h =
// hand:          x * y / 2, so y is needed before the erf and ptxas issues
// hand:          its load with x's (0: as written, ptxas sinks y's load
// hand:          below the erfs: a second DRAM round trip per vector)
#include <cuda_bf16.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 1024
#endif
#ifndef UNROLL
#define UNROLL 1
#endif
constexpr int kt_unroll_UNROLL = UNROLL;
// hand: parameters annotate keeps as literals (the 16-byte word, the
// block per token) or that are not literals (ITEMS, EARLY)
#ifndef VEC
#define VEC 8
#endif
#ifndef ITEMS
#define ITEMS 1
#endif
#ifndef SPLIT
#define SPLIT 1
#endif
#ifndef EARLY
#define EARLY 0
#endif

// hand: a vector of VEC bf16 is one access of 2 * VEC bytes (annotate's
// vectorize refactor does not apply: the original already loads uint4)
template <int BYTES> struct kt_word;
template <> struct kt_word<4> { typedef unsigned int type; };
template <> struct kt_word<8> { typedef uint2 type; };
template <> struct kt_word<16> { typedef uint4 type; };
typedef kt_word<2 * VEC>::type gelu_word;

__device__ __forceinline__ float gelu(float x)
{
	// the exact (erf) form, as GELU in PyTorch's default
	return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f));
}

// hand: the loop body as a function: both layouts below use it
__device__ __forceinline__ gelu_word gelu_and_mul_vec(gelu_word xv, gelu_word yv)
{
	gelu_word ov;
	const __nv_bfloat162 *xp = reinterpret_cast<const __nv_bfloat162 *>(&xv);
	const __nv_bfloat162 *yp = reinterpret_cast<const __nv_bfloat162 *>(&yv);
	__nv_bfloat162 *op = reinterpret_cast<__nv_bfloat162 *>(&ov);
#pragma unroll
	for (int k = 0; k < VEC / 2; k++) {
		float2 a = __bfloat1622float2(xp[k]);
		float2 b = __bfloat1622float2(yp[k]);
#if EARLY // hand: gelu(a) * b as h + h * erf(a / sqrt(2)), h = a * b / 2
		const float hx = 0.5f * a.x * b.x, hy = 0.5f * a.y * b.y;
		op[k] = __floats2bfloat162_rn(hx + hx * erff(a.x * 0.70710678118654752f),
					      hy + hy * erff(a.y * 0.70710678118654752f));
#else
		op[k] = __floats2bfloat162_rn(gelu(a.x) * b.x, gelu(a.y) * b.y);
#endif
	}
	return ov;
}

#pragma kt param UNROLL values(1, 2) default(1) // hand: 4 to 16 add nothing: ptxas does not hoist the next iteration's loads above this one's store (ITEMS does that)
#pragma kt param VEC values(2, 4, 8) default(8) // hand: VEC to EARLY: see the top
#pragma kt param BLOCK_SIZE values(32, 64, 128, 256, 512, 1024) default(1024) // hand: annotate's cap, powers of two only
#pragma kt param ITEMS values(1, 2, 4) default(1)
#pragma kt param SPLIT values(0, 1, 4, 16, 64) default(1)
#pragma kt param EARLY values(0, 1) default(0)
#pragma kt problem T values(1, 64, 4096, 16384) default(4096) // hand: sizes from the models (annotate cannot know them)
#pragma kt problem D values(14336, 18432) default(14336) // hand:
#pragma kt set VECS = D / VEC // hand: vectors per half row
#pragma kt set THREADS = div_ceil(SPLIT > 0 ? div_ceil(VECS, SPLIT) : VECS, ITEMS) // hand: threads a slice needs
#pragma kt set THREADS_USED = min(THREADS, BLOCK_SIZE) // hand:
#pragma kt constraint D % VEC == 0 // hand: the host code's precondition
#pragma kt constraint BLOCK_SIZE == 1024 || BLOCK_SIZE < THREADS // hand: a cap that does not bind repeats the configuration of cap 1024
#pragma kt constraint UNROLL == 1 || (SPLIT == 1 && ITEMS == 1) // hand: unroll only where a thread loops, not with ITEMS as well
#pragma kt constraint SPLIT <= 1 || THREADS_USED >= 32 // hand: a slice fills at least a warp
#pragma kt launch grid(T, SPLIT > 0 ? SPLIT : div_ceil(VECS, THREADS_USED * ITEMS)) block(THREADS_USED) // hand: grid(tokens) block((d / 8 < 1024 ? d / 8 : 1024)) from annotate, generalised
#pragma kt arg out bf16[T * D] out // hand: the derived lengths, over the names used here
#pragma kt arg in bf16[T * 2 * D] in init(random(-4, 4)) // hand:
#pragma kt arg d int = D // hand: the problem variable D for d
#pragma kt verify rtol(0.02) atol(0.001) // hand: bf16 output
#pragma kt objective bandwidth(3 * T * D * 2) // hand: bytes moved
// hand: a thread of ITEMS > 1 vectors gets the registers to hold their loads
// (without a bound ptxas sinks the later loads below the first store, to
// save registers: a second DRAM round trip)
#if ITEMS > 1
#define KT_BOUNDS __launch_bounds__(BLOCK_SIZE, 1)
#else
#define KT_BOUNDS
#endif
extern "C" __global__ void KT_BOUNDS gelu_and_mul_kernel(__nv_bfloat16 *__restrict__ out,
					       const __nv_bfloat16 *__restrict__ in,
					       int d)
{
	const long t = blockIdx.x;
	// hand: gelu_word (VEC bf16) for uint4 in the next three lines
	const gelu_word *x = reinterpret_cast<const gelu_word *>(in + t * 2 * d);
	const gelu_word *y = reinterpret_cast<const gelu_word *>(in + t * 2 * d + d);
	gelu_word *o = reinterpret_cast<gelu_word *>(out + t * d);
#if SPLIT == 1 && ITEMS == 1 // hand: the original's loop (with VEC, UNROLL)
#pragma unroll kt_unroll_UNROLL
	for (int i = threadIdx.x; i < d / VEC; i += blockDim.x)
		o[i] = gelu_and_mul_vec(x[i], y[i]);
#else // hand: a slice of the row per block, ITEMS loads of each half first
	const int stride = blockDim.x * ITEMS;
	const int per = SPLIT > 0 ? (d / VEC + SPLIT - 1) / SPLIT : stride;
	const int lo = blockIdx.y * per, hi = min(d / VEC, lo + per);
#pragma unroll kt_unroll_UNROLL
	for (int i = lo + threadIdx.x; i < hi; i += stride) {
		gelu_word xv[ITEMS], yv[ITEMS];
#pragma unroll
		for (int k = 0; k < ITEMS; k++) {
			const int j = i + k * blockDim.x;
			if (j < hi) {
				xv[k] = x[j];
				yv[k] = y[j];
			}
		}
#pragma unroll
		for (int k = 0; k < ITEMS; k++) {
			const int j = i + k * blockDim.x;
			if (j < hi)
				o[j] = gelu_and_mul_vec(xv[k], yv[k]);
		}
		if (SPLIT == 0)
			break; // one pass: the grid covers the row
	}
#endif
}

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>

// d must be a multiple of 8 (whole 16-byte vectors, aligned rows).
#ifndef __CUDACC_RTC__
static cudaError_t gelu_and_mul(__nv_bfloat16 *out, const __nv_bfloat16 *in,
				int tokens, int d, cudaStream_t stream)
{
	if (d % VEC || d <= 0 || tokens <= 0) // hand: VEC for 8; d 0 would divide by 0 below
		return cudaErrorInvalidValue;
	// hand: the launch of the #pragma kt launch line
	const int vecs = d / VEC;
	const int threads = ((SPLIT > 0 ? (vecs + SPLIT - 1) / SPLIT : vecs) + ITEMS - 1) / ITEMS;
	const int used = threads < BLOCK_SIZE ? threads : BLOCK_SIZE;
	dim3 grid(tokens, SPLIT > 0 ? SPLIT : (vecs + used * ITEMS - 1) / (used * ITEMS));
	dim3 block(used);
	gelu_and_mul_kernel<<<grid, block, 0, stream>>>(out, in, d);
	return cudaGetLastError();
}
#endif
#endif
