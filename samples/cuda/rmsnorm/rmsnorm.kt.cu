// rmsnorm.cu - RMSNorm of bf16 rows: out = x * rsqrt(mean(x^2) + eps) * w.
// Written in the style of SGLang's AOT norm kernels (FlashInfer's RMSNorm):
// one block per token, 16-byte vectors, min(d / 8, 1024) threads rounded up
// to whole warps, the sum of squares reduced through warp shuffles and 32
// floats of shared memory, then a second pass that reads the row again.
// hand: the template's parameters (ktc annotate derives only BLOCK_SIZE from
// this file: the width is fixed by uint4, the rest are new code paths):
//   VEC      bf16 per vector access (8: 16 bytes, the original's uint4)
//   BLOCK_SIZE    the cap on threads per row of the two-pass path (1024)
//   ITEMS    0: the original's two passes, the row read twice; k > 0: each
//            thread keeps its k vectors of x in registers (one read)
//   WPRE     with ITEMS > 0: 1 loads w with x, before the reduction (one
//            DRAM round trip: decode); 0 after it (fewer registers, more
//            blocks per SM: prefill, where w comes from L2)
//   CLUSTER  blocks per row (1: one block per token, the original); k > 1:
//            the row is split over a thread-block cluster of k blocks
//            (sm_90) whose sums of squares meet in distributed shared
//            memory, so a decode batch of T tokens fills T * k SMs
#include <cuda_bf16.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 1024
#endif
#ifndef VEC // hand: the width of the uint4 accesses (annotate: "needs the vectorize refactor")
#define VEC 8
#endif
#ifndef ITEMS // hand: a new code path (row in registers)
#define ITEMS 0
#endif
#ifndef CLUSTER // hand: a new code path (row split over a cluster)
#define CLUSTER 1
#endif
#ifndef WPRE // hand: a choice inside the register path
#define WPRE 1
#endif

// hand: a vector of VEC bf16 is one unsigned word of VEC * 2 bytes (uint4
// at the default, as in the original), named as annotate's vectorize
// refactor names it (a struct of bf16 pairs would be copied 4 bytes at a time)
template <int N> struct kt_vec;
template <> struct kt_vec<1> { typedef unsigned char t; };
template <> struct kt_vec<2> { typedef unsigned short t; };
template <> struct kt_vec<4> { typedef unsigned int t; };
template <> struct kt_vec<8> { typedef uint2 t; };
template <> struct kt_vec<16> { typedef uint4 t; };
typedef kt_vec<VEC * 2>::t rms_word;

#if ITEMS > 0 // hand: helpers of the register path (new code)
__device__ __forceinline__ float rms_sumsq(rms_word v)
{
	const __nv_bfloat162 *p = reinterpret_cast<const __nv_bfloat162 *>(&v);
	float ss = 0.f;
#pragma unroll
	for (int k = 0; k < VEC / 2; k++) {
		float2 f = __bfloat1622float2(p[k]);
		ss += f.x * f.x + f.y * f.y;
	}
	return ss;
}

__device__ __forceinline__ rms_word rms_scale(rms_word v, rms_word g, float r)
{
	rms_word ov;
	const __nv_bfloat162 *p = reinterpret_cast<const __nv_bfloat162 *>(&v);
	const __nv_bfloat162 *q = reinterpret_cast<const __nv_bfloat162 *>(&g);
	__nv_bfloat162 *op = reinterpret_cast<__nv_bfloat162 *>(&ov);
#pragma unroll
	for (int k = 0; k < VEC / 2; k++) {
		float2 f = __bfloat1622float2(p[k]), s = __bfloat1622float2(q[k]);
		op[k] = __floats2bfloat162_rn(f.x * r * s.x, f.y * r * s.y);
	}
	return ov;
}

// The cluster's barrier in two halves (PTX ISA 7.8, sm_90): arrive early,
// wait late, so the wait costs nothing when the other blocks are there.
__device__ __forceinline__ void rms_arrive_relaxed()
{
	asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
}
__device__ __forceinline__ void rms_arrive_release()
{
	asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
}
__device__ __forceinline__ void rms_wait()
{
	asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// Stores v at p in the shared memory of the cluster's block `rank`.
__device__ __forceinline__ void rms_put(float *p, unsigned rank, float v)
{
	unsigned a = (unsigned)__cvta_generic_to_shared(p), q;
	asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
		     : "=r"(q)
		     : "r"(a), "r"(rank));
	asm volatile("st.shared::cluster.f32 [%0], %1;" ::"r"(q), "f"(v)
		     : "memory");
}
#endif

// hand: the cluster attribute only where CLUSTER > 1 (a cluster of one
// would still change the kernel)
#if CLUSTER > 1
#define RMS_CLUSTER_DIMS __cluster_dims__(CLUSTER, 1, 1)
#else
#define RMS_CLUSTER_DIMS
#endif

// hand: the parameters, sizes, launch and buffers (annotate leaves them to
// be completed; problem names T and D as in the other samples):
#pragma kt param VEC values(4, 8) default(8)
#pragma kt param BLOCK_SIZE values(128, 256, 512, 1024) default(1024) // hand: annotate's cap, powers of two only
#pragma kt param ITEMS values(0, 1, 2, 4) default(0)
#pragma kt param CLUSTER values(1, 2, 4, 8) default(1)
#pragma kt param WPRE values(0, 1) default(1)
#pragma kt problem T values(1, 64, 4096, 16384) default(4096)
#pragma kt problem D values(4096, 7168, 8192) default(4096)
#pragma kt set NVB = D / VEC / CLUSTER
#pragma kt set TPB = div_ceil(ITEMS > 0 ? div_ceil(NVB, ITEMS) : min(NVB, BLOCK_SIZE), 32) * 32
#pragma kt constraint D % (VEC * CLUSTER) == 0
#pragma kt constraint ITEMS == 0 || BLOCK_SIZE == 1024
#pragma kt constraint ITEMS > 0 || CLUSTER == 1
#pragma kt constraint ITEMS > 0 && CLUSTER == 1 || WPRE == 1
#pragma kt constraint TPB <= 1024
#pragma kt launch grid(T * CLUSTER) block(TPB)
#pragma kt arg out bf16[T * D] out
#pragma kt arg in bf16[T * D] in
#pragma kt arg w bf16[D] in
#pragma kt arg d int = D
#pragma kt arg eps float = 1e-6
#pragma kt verify rtol(0.02) atol(0.001)
#pragma kt objective bandwidth(2 * T * D * 2 + D * 2)
extern "C" __global__ void RMS_CLUSTER_DIMS rmsnorm_kernel(__nv_bfloat16 *__restrict__ out,
					  const __nv_bfloat16 *__restrict__ in,
					  const __nv_bfloat16 *__restrict__ w, int d,
					  float eps)
{
#if ITEMS > 0 // hand: the register path (new code, see the top)
	const unsigned rank = blockIdx.x % CLUSTER;
	const long t = blockIdx.x / CLUSTER;
	const int nv = d / VEC / CLUSTER, lane = threadIdx.x % 32,
		  warp = threadIdx.x / 32, warps = blockDim.x / 32;
	const rms_word *x = reinterpret_cast<const rms_word *>(in + t * d) + rank * nv;
	const rms_word *wv = reinterpret_cast<const rms_word *>(w) + rank * nv;
	rms_word *o = reinterpret_cast<rms_word *>(out + t * d) + rank * nv;
	__shared__ float partial[CLUSTER * 32];

	if (CLUSTER > 1)
		rms_arrive_relaxed();
	rms_word v[ITEMS], g[ITEMS];
	float ss = 0.f;
#pragma unroll
	for (int k = 0; k < ITEMS; k++) {
		const int i = threadIdx.x + k * blockDim.x;
		if (i < nv) {
			v[k] = x[i];
			if (WPRE)
				g[k] = wv[i];
		}
	}
#pragma unroll
	for (int k = 0; k < ITEMS; k++)
		if (threadIdx.x + k * blockDim.x < nv)
			ss += rms_sumsq(v[k]);
#pragma unroll
	for (int off = 16; off > 0; off /= 2)
		ss += __shfl_xor_sync(0xffffffff, ss, off);
	// every block gets every warp's sum: one barrier, then each warp adds
	// them all up on its own
	if (CLUSTER > 1) {
		rms_wait(); // all blocks of the cluster have started
		if (lane < CLUSTER)
			rms_put(&partial[rank * warps + warp], lane, ss);
		rms_arrive_release();
		rms_wait();
	} else {
		if (lane == 0)
			partial[warp] = ss;
		__syncthreads();
	}
	ss = 0.f;
	for (int j = lane; j < CLUSTER * warps; j += 32)
		ss += partial[j];
#pragma unroll
	for (int off = 16; off > 0; off /= 2)
		ss += __shfl_xor_sync(0xffffffff, ss, off);
	const float r = rsqrtf(ss / d + eps);
#pragma unroll
	for (int k = 0; k < ITEMS; k++) {
		const int i = threadIdx.x + k * blockDim.x;
		if (i < nv) {
			if (!WPRE)
				g[k] = wv[i];
			o[i] = rms_scale(v[k], g[k], r);
		}
	}
#else // hand: the original's path, its width a parameter: uint4 -> rms_word,
      // 8 -> VEC, 4 -> VEC / 2 (annotate: "needs the vectorize refactor")
	const long t = blockIdx.x;
	const rms_word *x = reinterpret_cast<const rms_word *>(in + t * d);
	const rms_word *wv = reinterpret_cast<const rms_word *>(w);
	rms_word *o = reinterpret_cast<rms_word *>(out + t * d);
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	__shared__ float partial[32];

	float ss = 0.f;
	for (int i = threadIdx.x; i < d / VEC; i += blockDim.x) {
		rms_word v = x[i];
		const __nv_bfloat162 *p = reinterpret_cast<const __nv_bfloat162 *>(&v);
#pragma unroll
		for (int k = 0; k < VEC / 2; k++) {
			float2 f = __bfloat1622float2(p[k]);
			ss += f.x * f.x + f.y * f.y;
		}
	}
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

	for (int i = threadIdx.x; i < d / VEC; i += blockDim.x) {
		rms_word v = x[i], g = wv[i], ov;
		const __nv_bfloat162 *p = reinterpret_cast<const __nv_bfloat162 *>(&v);
		const __nv_bfloat162 *q = reinterpret_cast<const __nv_bfloat162 *>(&g);
		__nv_bfloat162 *op = reinterpret_cast<__nv_bfloat162 *>(&ov);
#pragma unroll
		for (int k = 0; k < VEC / 2; k++) {
			float2 f = __bfloat1622float2(p[k]), s = __bfloat1622float2(q[k]);
			op[k] = __floats2bfloat162_rn(f.x * r * s.x, f.y * r * s.y);
		}
		o[i] = ov;
	}
#endif
}

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>

// d must be a multiple of VEC * CLUSTER (whole vectors, aligned rows).
static cudaError_t rmsnorm(__nv_bfloat16 *out, const __nv_bfloat16 *in,
			   const __nv_bfloat16 *w, int tokens, int d, float eps,
			   cudaStream_t stream)
{
	if (d % VEC || tokens <= 0)
		return cudaErrorInvalidValue;
	int threads = d / VEC < BLOCK_SIZE ? d / VEC : BLOCK_SIZE; // hand: VEC, BLOCK_SIZE as above
	if (ITEMS > 0) // hand: enough threads to hold the block's share of the row
		threads = (d / VEC / CLUSTER + ITEMS - 1) / (ITEMS > 0 ? ITEMS : 1);
	threads = (threads + 31) / 32 * 32;
	if (d % (VEC * CLUSTER) || threads > 1024) // hand: this size does not fit the config
		return cudaErrorInvalidConfiguration;
	rmsnorm_kernel<<<tokens * CLUSTER, threads, 0, stream>>>(out, in, w, d, eps);
	return cudaGetLastError();
}
#endif
