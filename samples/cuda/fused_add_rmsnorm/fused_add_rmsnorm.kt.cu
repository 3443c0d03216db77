// fused_add_rmsnorm.cu - the residual add and RMSNorm between two layers,
// in place on bf16 rows: x = in + residual (float); residual = x; in = x *
// rsqrt(mean(x^2) + eps) * w. Written in the style of SGLang's AOT
// fused_add_rmsnorm (FlashInfer's): one block per token, 16-byte vectors,
// min(d / 8, 1024) threads rounded up to whole warps, x kept in float in
// dynamic shared memory ((32 + d) floats) between the two passes.
// hand: the template's parameters (ktc annotate derives only BLOCK_SIZE from
// this file: the width is fixed by uint4, the rest are new code paths):
//   VEC      bf16 per vector access (8: 16 bytes, the original's uint4)
//   BLOCK_SIZE    the cap on threads per row of the shared-memory path (1024)
//   ITEMS    0: x waits in shared memory between the passes (the
//            original); k > 0: each thread keeps its k vectors of x in
//            float registers
//   WPRE     with ITEMS > 0: 1 loads w with in and residual, before the
//            reduction (one DRAM round trip: decode); 0 after it (fewer
//            registers, more blocks per SM: prefill, where w comes from L2)
//   CLUSTER  blocks per row (1: one block per token, the original); k > 1:
//            the row is split over a thread-block cluster of k blocks
//            (sm_90) whose sums of squares meet in distributed shared
//            memory, so a decode batch of T tokens fills T * k SMs
//   PDL      1: a programmatic dependent launch (SGLang's JIT launcher of
//            this kernel passes enable_pdl(false)): the kernel may start
//            while the kernel before it on the stream still runs, lets the
//            next one start at once (griddepcontrol.launch_dependents),
//            and waits for the one before it (griddepcontrol.wait) before
//            it touches memory
#include <cuda_bf16.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 1024
#endif
#ifndef VEC // hand: the width of the uint4 accesses (annotate: "needs the vectorize refactor")
#define VEC 8
#endif
#ifndef ITEMS // hand: a new code path (x in registers)
#define ITEMS 0
#endif
#ifndef CLUSTER // hand: a new code path (row split over a cluster)
#define CLUSTER 1
#endif
#ifndef WPRE // hand: a choice inside the register path
#define WPRE 1
#endif
#ifndef PDL // hand: a launch attribute
#define PDL 0
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
typedef kt_vec<VEC * 2>::t far_word;

#if ITEMS > 0 // hand: helpers of the register path (new code)
// x = a + b in float (into xf); returns x in bf16; the sum of squares grows
__device__ __forceinline__ far_word far_add(far_word a, far_word b, float2 *xf,
					    float &ss)
{
	far_word s;
	const __nv_bfloat162 *ap = reinterpret_cast<const __nv_bfloat162 *>(&a);
	const __nv_bfloat162 *bp = reinterpret_cast<const __nv_bfloat162 *>(&b);
	__nv_bfloat162 *sp = reinterpret_cast<__nv_bfloat162 *>(&s);
#pragma unroll
	for (int k = 0; k < VEC / 2; k++) {
		float2 f = __bfloat1622float2(ap[k]), g = __bfloat1622float2(bp[k]);
		xf[k] = make_float2(f.x + g.x, f.y + g.y);
		ss += xf[k].x * xf[k].x + xf[k].y * xf[k].y;
		sp[k] = __floats2bfloat162_rn(xf[k].x, xf[k].y);
	}
	return s;
}

__device__ __forceinline__ far_word far_scale(const float2 *xf, far_word g,
					      float r)
{
	far_word ov;
	const __nv_bfloat162 *q = reinterpret_cast<const __nv_bfloat162 *>(&g);
	__nv_bfloat162 *op = reinterpret_cast<__nv_bfloat162 *>(&ov);
#pragma unroll
	for (int k = 0; k < VEC / 2; k++) {
		float2 s = __bfloat1622float2(q[k]);
		op[k] = __floats2bfloat162_rn(xf[k].x * r * s.x, xf[k].y * r * s.y);
	}
	return ov;
}

// The cluster's barrier in two halves (PTX ISA 7.8, sm_90): arrive early,
// wait late, so the wait costs nothing when the other blocks are there.
__device__ __forceinline__ void far_arrive_relaxed()
{
	asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
}
__device__ __forceinline__ void far_arrive_release()
{
	asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
}
__device__ __forceinline__ void far_wait()
{
	asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// Stores v at p in the shared memory of the cluster's block `rank`.
__device__ __forceinline__ void far_put(float *p, unsigned rank, float v)
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
#define FAR_CLUSTER_DIMS __cluster_dims__(CLUSTER, 1, 1)
#else
#define FAR_CLUSTER_DIMS
#endif

// hand: the parameters, sizes, launch and buffers (annotate leaves them to
// be completed; problem names T and D as in the other samples):
#pragma kt param VEC values(4, 8) default(8)
#pragma kt param BLOCK_SIZE values(128, 256, 512, 1024) default(1024) // hand: annotate's cap, powers of two only
#pragma kt param ITEMS values(0, 1, 2, 4) default(0)
#pragma kt param CLUSTER values(1, 2, 4, 8) default(1)
#pragma kt param WPRE values(0, 1) default(1)
#pragma kt param PDL values(0, 1) default(0) // hand: a launch attribute
#pragma kt problem T values(1, 64, 4096, 16384) default(4096)
#pragma kt problem D values(4096, 7168, 8192) default(7168)
#pragma kt set NVB = D / VEC / CLUSTER
#pragma kt set TPB = div_ceil(ITEMS > 0 ? div_ceil(NVB, ITEMS) : min(NVB, BLOCK_SIZE), 32) * 32
#pragma kt set SMEM = ITEMS > 0 ? 0 : (32 + D) * 4
#pragma kt constraint D % (VEC * CLUSTER) == 0
#pragma kt constraint ITEMS == 0 || BLOCK_SIZE == 1024
#pragma kt constraint ITEMS > 0 || CLUSTER == 1
#pragma kt constraint ITEMS > 0 && CLUSTER == 1 || WPRE == 1
#pragma kt constraint TPB <= 1024
#pragma kt constraint SMEM <= DEVICE_SMEM_PER_BLOCK
#pragma kt launch grid(T * CLUSTER) block(TPB) smem(SMEM) pdl(PDL) // hand: pdl
#pragma kt arg in bf16[T * D] inout
#pragma kt arg residual bf16[T * D] inout
#pragma kt arg w bf16[D] in
#pragma kt arg d int = D
#pragma kt arg eps float = 1e-6
#pragma kt verify rtol(0.02) atol(0.001)
#pragma kt objective bandwidth(4 * T * D * 2 + D * 2)
extern "C" __global__ void FAR_CLUSTER_DIMS fused_add_rmsnorm_kernel(__nv_bfloat16 *__restrict__ in,
						    __nv_bfloat16 *__restrict__ residual,
						    const __nv_bfloat16 *__restrict__ w,
						    int d, float eps)
{
#if PDL // hand: the next kernel may start; this one waits for the last
	asm volatile("griddepcontrol.launch_dependents;");
	asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
#if ITEMS > 0 // hand: the register path (new code, see the top)
	const unsigned rank = blockIdx.x % CLUSTER;
	const long t = blockIdx.x / CLUSTER;
	const int nv = d / VEC / CLUSTER, lane = threadIdx.x % 32,
		  warp = threadIdx.x / 32, warps = blockDim.x / 32;
	far_word *x = reinterpret_cast<far_word *>(in + t * d) + rank * nv;
	far_word *res = reinterpret_cast<far_word *>(residual + t * d) + rank * nv;
	const far_word *wv = reinterpret_cast<const far_word *>(w) + rank * nv;
	__shared__ float partial[CLUSTER * 32];

	if (CLUSTER > 1)
		far_arrive_relaxed();
	far_word a[ITEMS], b[ITEMS], g[ITEMS];
#pragma unroll
	for (int k = 0; k < ITEMS; k++) {
		const int i = threadIdx.x + k * blockDim.x;
		if (i < nv) {
			a[k] = x[i];
			b[k] = res[i];
			if (WPRE)
				g[k] = wv[i];
		}
	}
	float2 xf[ITEMS][VEC / 2];
	float ss = 0.f;
#pragma unroll
	for (int k = 0; k < ITEMS; k++) {
		const int i = threadIdx.x + k * blockDim.x;
		if (i < nv)
			res[i] = far_add(a[k], b[k], xf[k], ss);
	}
#pragma unroll
	for (int off = 16; off > 0; off /= 2)
		ss += __shfl_xor_sync(0xffffffff, ss, off);
	// every block gets every warp's sum: one barrier, then each warp adds
	// them all up on its own
	if (CLUSTER > 1) {
		far_wait(); // all blocks of the cluster have started
		if (lane < CLUSTER)
			far_put(&partial[rank * warps + warp], lane, ss);
		far_arrive_release();
		far_wait();
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
			x[i] = far_scale(xf[k], g[k], r);
		}
	}
#else // hand: the original's path, its width a parameter: uint4 -> far_word,
      // 8 -> VEC, 4 -> VEC / 2 (annotate: "needs the vectorize refactor")
	extern __shared__ float smem[];
	float *partial = smem, *xs = smem + 32;
	const long t = blockIdx.x;
	far_word *x = reinterpret_cast<far_word *>(in + t * d);
	far_word *res = reinterpret_cast<far_word *>(residual + t * d);
	const far_word *wv = reinterpret_cast<const far_word *>(w);
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

	float ss = 0.f;
	for (int i = threadIdx.x; i < d / VEC; i += blockDim.x) {
		far_word a = x[i], b = res[i], s;
		const __nv_bfloat162 *ap = reinterpret_cast<const __nv_bfloat162 *>(&a);
		const __nv_bfloat162 *bp = reinterpret_cast<const __nv_bfloat162 *>(&b);
		__nv_bfloat162 *sp = reinterpret_cast<__nv_bfloat162 *>(&s);
#pragma unroll
		for (int k = 0; k < VEC / 2; k++) {
			float2 f = __bfloat1622float2(ap[k]), g = __bfloat1622float2(bp[k]);
			float u = f.x + g.x, v = f.y + g.y;
			ss += u * u + v * v;
			xs[i * VEC + 2 * k] = u;
			xs[i * VEC + 2 * k + 1] = v;
			sp[k] = __floats2bfloat162_rn(u, v);
		}
		res[i] = s;
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
		far_word g = wv[i], ov;
		const __nv_bfloat162 *q = reinterpret_cast<const __nv_bfloat162 *>(&g);
		__nv_bfloat162 *op = reinterpret_cast<__nv_bfloat162 *>(&ov);
#pragma unroll
		for (int k = 0; k < VEC / 2; k++) {
			float2 s = __bfloat1622float2(q[k]);
			op[k] = __floats2bfloat162_rn(xs[i * VEC + 2 * k] * r * s.x,
						      xs[i * VEC + 2 * k + 1] * r * s.y);
		}
		x[i] = ov;
	}
#endif
}

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>

// d must be a multiple of VEC * CLUSTER and, where x waits in shared
// memory, at most 8192 (the row in shared memory).
static cudaError_t fused_add_rmsnorm(__nv_bfloat16 *in, __nv_bfloat16 *residual,
				     const __nv_bfloat16 *w, int tokens, int d,
				     float eps, cudaStream_t stream)
{
	if (d % VEC || (ITEMS == 0 && d > 8192) || tokens <= 0) // hand: ITEMS
		return cudaErrorInvalidValue;
	int threads = d / VEC < BLOCK_SIZE ? d / VEC : BLOCK_SIZE; // hand: VEC, BLOCK_SIZE as above
	if (ITEMS > 0) // hand: enough threads to hold the block's share of the row
		threads = (d / VEC / CLUSTER + ITEMS - 1) / (ITEMS > 0 ? ITEMS : 1);
	threads = (threads + 31) / 32 * 32;
	if (d % (VEC * CLUSTER) || threads > 1024) // hand: this size does not fit the config
		return cudaErrorInvalidConfiguration;
	size_t smem = ITEMS > 0 ? 0 : (32 + d) * sizeof(float); // hand: ITEMS
	fused_add_rmsnorm_kernel<<<tokens * CLUSTER, threads, smem, stream>>>(
		in, residual, w, d, eps);
	return cudaGetLastError();
}
#endif
