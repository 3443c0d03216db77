// fused_add_rmsnorm.kt.cu - the template of fused_add_rmsnorm.cu (see there
// for what it computes). Parameters, each defaulting to the literal it
// replaced:
//   VEC    bf16 per vector access (8: 16 bytes)
//   BLOCK  the cap on threads per row when x waits in shared memory (1024)
//   ITEMS  0: x waits in shared memory between the passes (the original);
//          k > 0: each thread keeps its k vectors of x in registers, with
//          div_ceil(d / VEC, k) threads per row
//   ROWS   tokens per block (1: one block per token)
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
#define ITEMS 0
#endif
#ifndef ROWS
#define ROWS 1
#endif

// hand: a vector of VEC bf16 is one access of 2 * VEC bytes (an integer
// word: a struct of bf16 pairs would be copied 4 bytes at a time)
template <int BYTES> struct kt_word;
template <> struct kt_word<4> { typedef unsigned int type; };
template <> struct kt_word<8> { typedef uint2 type; };
template <> struct kt_word<16> { typedef uint4 type; };
typedef kt_word<2 * VEC>::type far_word;
union far_vec {
	far_word w;
	__nv_bfloat162 h[VEC / 2];
};
// hand: its float twin
struct far_fvec {
	float2 f[VEC / 2];
};

// x = a + b in float; b becomes x in bf16; the sum of squares grows
__device__ __forceinline__ far_fvec far_add(far_word aw, far_word &bw, float &ss)
{
	far_vec a, b;
	a.w = aw;
	b.w = bw;
	far_fvec x;
#pragma unroll
	for (int k = 0; k < VEC / 2; k++) {
		float2 f = __bfloat1622float2(a.h[k]), g = __bfloat1622float2(b.h[k]);
		x.f[k] = make_float2(f.x + g.x, f.y + g.y);
		ss += x.f[k].x * x.f[k].x + x.f[k].y * x.f[k].y;
		b.h[k] = __floats2bfloat162_rn(x.f[k].x, x.f[k].y);
	}
	bw = b.w;
	return x;
}

__device__ __forceinline__ far_word far_scale(const far_fvec &x, far_word gw,
					      float r)
{
	far_vec g, o;
	g.w = gw;
#pragma unroll
	for (int k = 0; k < VEC / 2; k++) {
		float2 s = __bfloat1622float2(g.h[k]);
		o.h[k] = __floats2bfloat162_rn(x.f[k].x * r * s.x, x.f[k].y * r * s.y);
	}
	return o.w;
}

#pragma kt param VEC values(2, 4, 8) default(8)
#pragma kt param BLOCK values(64, 128, 256, 512, 1024) default(1024)
#pragma kt param ITEMS values(0, 1, 2, 4) default(0)
#pragma kt param ROWS values(1, 2, 4, 8) default(1)
#pragma kt problem T values(1, 64, 4096, 16384) default(4096)
#pragma kt problem D values(4096, 7168, 8192) default(7168)
#pragma kt set TPR = div_ceil(ITEMS > 0 ? div_ceil(D / VEC, ITEMS) : min(D / VEC, BLOCK), 32) * 32
#pragma kt set SMEM = ITEMS > 0 ? ROWS * 32 * 4 : ROWS * (32 + D) * 4
#pragma kt constraint D % VEC == 0
#pragma kt constraint ITEMS == 0 || BLOCK == 1024
#pragma kt constraint TPR * ROWS <= 1024
#pragma kt constraint SMEM <= DEVICE_SMEM_PER_BLOCK_OPTIN
#pragma kt launch grid(div_ceil(T, ROWS)) block(TPR, ROWS) smem(SMEM)
#pragma kt arg in bf16[T * D] inout
#pragma kt arg residual bf16[T * D] inout
#pragma kt arg w bf16[D] in
#pragma kt arg tokens int = T
#pragma kt arg d int = D
#pragma kt arg eps float = 1e-6
#pragma kt verify rtol(0.02) atol(0.001)
#pragma kt objective bandwidth(4 * T * D * 2 + D * 2)
extern "C" __global__ void fused_add_rmsnorm_kernel(__nv_bfloat16 *__restrict__ in,
						    __nv_bfloat16 *__restrict__ residual,
						    const __nv_bfloat16 *__restrict__ w,
						    int tokens, int d, float eps)
{
	extern __shared__ float smem[];
	float *partial = smem + threadIdx.y * 32; // hand: ROWS rows per block
	const long t = (long)blockIdx.x * ROWS + threadIdx.y; // hand:
	const bool live = t < tokens;                          // hand:
	far_word *x = reinterpret_cast<far_word *>(in + t * d);
	far_word *res = reinterpret_cast<far_word *>(residual + t * d);
	const far_word *wv = reinterpret_cast<const far_word *>(w);
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

	float ss = 0.f;
#if ITEMS > 0
	far_fvec keep[ITEMS]; // hand: x stays in registers
#pragma unroll
	for (int k = 0; k < ITEMS; k++) {
		const int i = threadIdx.x + k * blockDim.x;
		if (live && i < d / VEC) {
			far_word a = x[i], b = res[i];
			keep[k] = far_add(a, b, ss);
			res[i] = b;
		}
	}
#else
	far_fvec *xs = reinterpret_cast<far_fvec *>(smem + ROWS * 32) +
		       threadIdx.y * (d / VEC);
	if (live)
		for (int i = threadIdx.x; i < d / VEC; i += blockDim.x) {
			far_word a = x[i], b = res[i];
			xs[i] = far_add(a, b, ss);
			res[i] = b;
		}
#endif
#pragma unroll
	for (int off = 16; off > 0; off /= 2)
		ss += __shfl_xor_sync(0xffffffff, ss, off);
	if (lane == 0)
		partial[warp] = ss;
	__syncthreads();
	if (warp == 0) {
		ss = lane < blockDim.x / 32 ? partial[lane] : 0.f;
#pragma unroll
		for (int off = 16; off > 0; off /= 2)
			ss += __shfl_xor_sync(0xffffffff, ss, off);
		if (lane == 0)
			partial[0] = rsqrtf(ss / d + eps);
	}
	__syncthreads();
	const float r = partial[0];

#if ITEMS > 0
#pragma unroll
	for (int k = 0; k < ITEMS; k++) {
		const int i = threadIdx.x + k * blockDim.x;
		if (live && i < d / VEC)
			x[i] = far_scale(keep[k], wv[i], r);
	}
#else
	if (live)
		for (int i = threadIdx.x; i < d / VEC; i += blockDim.x)
			x[i] = far_scale(xs[i], wv[i], r);
#endif
}

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>

// d must be a multiple of VEC; the row must fit the block (or the
// shared memory).
static cudaError_t fused_add_rmsnorm(__nv_bfloat16 *in, __nv_bfloat16 *residual,
				     const __nv_bfloat16 *w, int tokens, int d,
				     float eps, cudaStream_t stream)
{
	if (d % VEC || tokens <= 0)
		return cudaErrorInvalidValue;
	int threads = d / VEC < BLOCK ? d / VEC : BLOCK;
	if (ITEMS > 0) // hand: enough threads to hold the row
		threads = (d / VEC + ITEMS - 1) / (ITEMS > 0 ? ITEMS : 1);
	threads = (threads + 31) / 32 * 32;
	size_t smem = ITEMS > 0 ? ROWS * 32 * sizeof(float)
				: ROWS * (32 + d) * sizeof(float);
	int dev = 0, optin = 0;
	cudaGetDevice(&dev);
	cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
	if (threads * ROWS > 1024 || smem > (size_t)optin)
		return cudaErrorInvalidConfiguration;
	if (smem > 48 * 1024) {
		cudaError_t e = cudaFuncSetAttribute(
			fused_add_rmsnorm_kernel,
			cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
		if (e != cudaSuccess)
			return e;
	}
	dim3 grid((tokens + ROWS - 1) / ROWS), block(threads, ROWS);
	fused_add_rmsnorm_kernel<<<grid, block, smem, stream>>>(in, residual, w,
								tokens, d, eps);
	return cudaGetLastError();
}
#endif
