// rmsnorm.kt.cu - the template of rmsnorm.cu (see there for what it
// computes). Parameters, each defaulting to the literal it replaced:
//   VEC    bf16 per vector access (8: 16 bytes)
//   BLOCK  the cap on threads per row when the row is read twice (1024)
//   ITEMS  0: read the row again in the second pass (the original); k > 0:
//          each thread keeps its k vectors in registers, so a row is read
//          once, with div_ceil(d / VEC, k) threads per row
//   ROWS   tokens per block (1: one block per token); small rows leave
//          blocks too small to hide memory latency on their own
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
typedef kt_word<2 * VEC>::type rms_word;
union rms_vec {
	rms_word w;
	__nv_bfloat162 h[VEC / 2];
};

__device__ __forceinline__ float rms_sumsq(rms_word word)
{
	rms_vec v;
	v.w = word;
	float s = 0.f;
#pragma unroll
	for (int k = 0; k < VEC / 2; k++) {
		float2 f = __bfloat1622float2(v.h[k]);
		s += f.x * f.x + f.y * f.y;
	}
	return s;
}

__device__ __forceinline__ rms_word rms_scale(rms_word vw, rms_word gw, float r)
{
	rms_vec v, g, o;
	v.w = vw;
	g.w = gw;
#pragma unroll
	for (int k = 0; k < VEC / 2; k++) {
		float2 f = __bfloat1622float2(v.h[k]), s = __bfloat1622float2(g.h[k]);
		o.h[k] = __floats2bfloat162_rn(f.x * r * s.x, f.y * r * s.y);
	}
	return o.w;
}

#pragma kt param VEC values(2, 4, 8) default(8)
#pragma kt param BLOCK values(64, 128, 256, 512, 1024) default(1024)
#pragma kt param ITEMS values(0, 1, 2, 4) default(0)
#pragma kt param ROWS values(1, 2, 4, 8) default(1)
#pragma kt problem T values(1, 64, 4096, 16384) default(4096)
#pragma kt problem D values(4096, 7168, 8192) default(4096)
#pragma kt set TPR = div_ceil(ITEMS > 0 ? div_ceil(D / VEC, ITEMS) : min(D / VEC, BLOCK), 32) * 32
#pragma kt constraint D % VEC == 0
#pragma kt constraint ITEMS == 0 || BLOCK == 1024
#pragma kt constraint TPR * ROWS <= 1024
#pragma kt launch grid(div_ceil(T, ROWS)) block(TPR, ROWS)
#pragma kt arg out bf16[T * D] out
#pragma kt arg in bf16[T * D] in
#pragma kt arg w bf16[D] in
#pragma kt arg tokens int = T
#pragma kt arg d int = D
#pragma kt arg eps float = 1e-6
#pragma kt verify rtol(0.02) atol(0.001)
#pragma kt objective bandwidth(2 * T * D * 2 + D * 2)
extern "C" __global__ void rmsnorm_kernel(__nv_bfloat16 *__restrict__ out,
					  const __nv_bfloat16 *__restrict__ in,
					  const __nv_bfloat16 *__restrict__ w,
					  int tokens, int d, float eps)
{
	const long t = (long)blockIdx.x * ROWS + threadIdx.y; // hand: ROWS
	const bool live = t < tokens;                          // hand:
	const rms_word *x = reinterpret_cast<const rms_word *>(in + t * d);
	const rms_word *wv = reinterpret_cast<const rms_word *>(w);
	rms_word *o = reinterpret_cast<rms_word *>(out + t * d);
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	__shared__ float partial[ROWS][32];

	float ss = 0.f;
#if ITEMS > 0
	rms_word keep[ITEMS]; // hand: the row stays in registers
#pragma unroll
	for (int k = 0; k < ITEMS; k++) {
		const int i = threadIdx.x + k * blockDim.x;
		if (live && i < d / VEC) {
			keep[k] = x[i];
			ss += rms_sumsq(keep[k]);
		}
	}
#else
	if (live)
		for (int i = threadIdx.x; i < d / VEC; i += blockDim.x)
			ss += rms_sumsq(x[i]);
#endif
#pragma unroll
	for (int off = 16; off > 0; off /= 2)
		ss += __shfl_xor_sync(0xffffffff, ss, off);
	if (lane == 0)
		partial[threadIdx.y][warp] = ss;
	__syncthreads();
	if (warp == 0) {
		ss = lane < blockDim.x / 32 ? partial[threadIdx.y][lane] : 0.f;
#pragma unroll
		for (int off = 16; off > 0; off /= 2)
			ss += __shfl_xor_sync(0xffffffff, ss, off);
		if (lane == 0)
			partial[threadIdx.y][0] = rsqrtf(ss / d + eps);
	}
	__syncthreads();
	const float r = partial[threadIdx.y][0];

#if ITEMS > 0
#pragma unroll
	for (int k = 0; k < ITEMS; k++) {
		const int i = threadIdx.x + k * blockDim.x;
		if (live && i < d / VEC)
			o[i] = rms_scale(keep[k], wv[i], r);
	}
#else
	if (live)
		for (int i = threadIdx.x; i < d / VEC; i += blockDim.x)
			o[i] = rms_scale(x[i], wv[i], r);
#endif
}

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>

// d must be a multiple of VEC (whole vectors, aligned rows).
static cudaError_t rmsnorm(__nv_bfloat16 *out, const __nv_bfloat16 *in,
			   const __nv_bfloat16 *w, int tokens, int d, float eps,
			   cudaStream_t stream)
{
	if (d % VEC || tokens <= 0)
		return cudaErrorInvalidValue;
	int threads = d / VEC < BLOCK ? d / VEC : BLOCK;
	if (ITEMS > 0) // hand: enough threads to hold the row
		threads = (d / VEC + ITEMS - 1) / (ITEMS > 0 ? ITEMS : 1);
	threads = (threads + 31) / 32 * 32;
	if (threads * ROWS > 1024) // hand: this size does not fit the config
		return cudaErrorInvalidConfiguration;
	dim3 grid((tokens + ROWS - 1) / ROWS), block(threads, ROWS);
	rmsnorm_kernel<<<grid, block, 0, stream>>>(out, in, w, tokens, d, eps);
	return cudaGetLastError();
}
#endif
