// row_negative.cu - kernels whose preconditions for row_split and
// hoist_loads fail, each for one reason (a barrier, a reduction, a 2-D
// grid, no __restrict__, two pointers from one __restrict__ parameter, a
// call that may write), next to one that keeps hoist_loads but not
// row_split. launch_bounds is offered to every kernel but the one that
// has launch bounds already.
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 128
#endif
#ifndef BLOCK_SIZE_3
#define BLOCK_SIZE_3 128
#endif
#ifndef BLOCK_SIZE_4
#define BLOCK_SIZE_4 512
#endif
#ifndef BLOCK_SIZE_5
#define BLOCK_SIZE_5 128
#endif
#ifndef BLOCK_SIZE_6
#define BLOCK_SIZE_6 128
#endif
#ifndef BLOCK_SIZE_7
#define BLOCK_SIZE_7 128
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef CLUSTER
#define CLUSTER 1
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif
#ifndef ITEMS
#define ITEMS 1
#endif
#ifndef MIN_BLOCKS_3
#define MIN_BLOCKS_3 0
#endif
#ifndef SPLIT
#define SPLIT 1
#endif
#ifndef MIN_BLOCKS_4
#define MIN_BLOCKS_4 0
#endif
#ifndef SPLIT_2
#define SPLIT_2 1
#endif
#ifndef MIN_BLOCKS_5
#define MIN_BLOCKS_5 0
#endif
#ifndef MIN_BLOCKS_6
#define MIN_BLOCKS_6 0
#endif
#ifndef VEC
#define VEC 1
#endif
#ifndef SPLIT_3
#define SPLIT_3 1
#endif
template <int N> struct kt_vec;
template <> struct kt_vec<1> { typedef unsigned char t; };
template <> struct kt_vec<2> { typedef unsigned short t; };
template <> struct kt_vec<4> { typedef unsigned int t; };
template <> struct kt_vec<8> { typedef uint2 t; };
template <> struct kt_vec<16> { typedef uint4 t; };
template <typename T>
__device__ __forceinline__ T kt_cluster_sum(T v, unsigned n)
{
	__shared__ T kt_slot[1024];
	const unsigned t =
	    threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
	kt_slot[t] = v;
	asm volatile("barrier.cluster.arrive.release.aligned;\n\t"
	             "barrier.cluster.wait.acquire.aligned;" ::: "memory");
	T s = v;
	for (unsigned r = 0; r < n; r++) {
		unsigned long long p;
		asm volatile("mapa.u64 %0, %1, %2;" : "=l"(p)
		             : "l"(&kt_slot[t]), "r"(r));
		const T x = *reinterpret_cast<volatile T *>(p);
		s = r ? s + x : x;
	}
	asm volatile("barrier.cluster.arrive.release.aligned;\n\t"
	             "barrier.cluster.wait.acquire.aligned;" ::: "memory");
	return s;
}

// A barrier in the loop: threads of the block depend on each other.
#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt constraint 4 * (BLOCK_SIZE) <= DEVICE_SMEM_PER_BLOCK
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows) block(BLOCK_SIZE)
#pragma kt arg out float[rows * d] out
#pragma kt arg in float[rows * d] in
#pragma kt arg d int = d
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
row_barrier(float *__restrict__ out, const float *__restrict__ in,
			    int d)
{
	__shared__ float tile[BLOCK_SIZE];
	const int row = blockIdx.x;
	for (int i = threadIdx.x; i < d; i += blockDim.x) {
		tile[threadIdx.x] = in[row * d + i];
		__syncthreads();
		out[row * d + i] = tile[(threadIdx.x + 1) % blockDim.x];
		__syncthreads();
	}
}

// A reduction: each thread keeps a sum across its iterations.
#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param CLUSTER values(1, 2, 4, 8) default(1)
#pragma kt constraint CLUSTER == 1 || DEVICE_CC_MAJOR >= 9
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows, CLUSTER) block(BLOCK_SIZE_2)
// ktc: complete and uncomment: #pragma kt arg out float[?] out
#pragma kt arg in float[rows * d] in
#pragma kt arg d int = d
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif

#if CLUSTER > 1
__cluster_dims__(1, CLUSTER, 1)
#endif
row_sum(float *__restrict__ out, const float *__restrict__ in,
			int d)
{
	const int row = blockIdx.x;
	float s = 0.0f;
	for (int i = threadIdx.x + (CLUSTER == 1 ? 0 : blockIdx.y * blockDim.x); i < d; i += (blockDim.x) * (CLUSTER == 1 ? 1 : gridDim.y))
		s += in[row * d + i];
#if CLUSTER > 1
	s = kt_cluster_sum(s, CLUSTER);
#endif
	out[row * BLOCK_SIZE_2 + threadIdx.x] = s;
}

// A 2-D grid (rows along x, halves along y): no row split; the loop is
// still elementwise, so its loads may be hoisted.
#pragma kt param BLOCK_SIZE_3 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param ITEMS values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS_3 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_3 * MIN_BLOCKS_3 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows, 2) block(BLOCK_SIZE_3)
#pragma kt arg out float[rows * d - d + 2 * (d / 2)] out
#pragma kt arg in float[rows * d - d + 2 * (d / 2)] in
#pragma kt arg d int = d
__global__ void
#if MIN_BLOCKS_3 > 0
__launch_bounds__(BLOCK_SIZE_3, MIN_BLOCKS_3)
#endif
row_halves(float *__restrict__ out, const float *__restrict__ in,
			   int d)
{
	const int row = blockIdx.x;
	const int half = blockIdx.y * (d / 2);
#if ITEMS == 1
	for (int i = threadIdx.x; i < d / 2; i += blockDim.x)
		out[row * d + half + i] = 2.0f * in[row * d + half + i];
#else
	for (int kt_i = threadIdx.x; kt_i < (d / 2); kt_i += (blockDim.x) * ITEMS) {
		float kt_ld0[ITEMS];
#pragma unroll
		for (int kt_j = 0; kt_j < ITEMS; kt_j++) {
			const int i = kt_i + kt_j * (blockDim.x);
			if (i < (d / 2)) {
				kt_ld0[kt_j] = in[(row * d + half) + i];
			}
		}
#pragma unroll
		for (int kt_j = 0; kt_j < ITEMS; kt_j++) {
			const int i = kt_i + kt_j * (blockDim.x);
			if (i < (d / 2))
				out[row * d + half + i] = 2.0f * kt_ld0[kt_j];
		}
	}
#endif
}

// Stores through a pointer that is not __restrict__: another pointer may
// reach what the loop stores, so no load moves above a store.
#pragma kt param BLOCK_SIZE_4 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(512)
#pragma kt param SPLIT values(1, 2, 4, 8, 16, 32) default(1)
#pragma kt param MIN_BLOCKS_4 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_4 * MIN_BLOCKS_4 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows, SPLIT) block(BLOCK_SIZE_4)
#pragma kt arg out float[rows * d] out
#pragma kt arg in float[d] in
#pragma kt arg d int = d
__global__ void
#if MIN_BLOCKS_4 > 0
__launch_bounds__(BLOCK_SIZE_4, MIN_BLOCKS_4)
#endif
row_alias(float *out, const float *in, int d)
{
	const int row = blockIdx.x;
	for (int i = threadIdx.x + (SPLIT == 1 ? 0 : blockIdx.y * blockDim.x); i < d; i += (blockDim.x) * (SPLIT == 1 ? 1 : gridDim.y))
		out[row * d + i] = in[i] + 1.0f;
}

// Loads and stores through two pointers made from one __restrict__
// parameter: restrict does not keep them apart, so no load is hoisted
// (row_split stays: each iteration still touches its own elements).
#pragma kt param BLOCK_SIZE_5 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param SPLIT_2 values(1, 2, 4, 8, 16, 32) default(1)
#pragma kt param MIN_BLOCKS_5 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_5 * MIN_BLOCKS_5 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows, SPLIT_2) block(BLOCK_SIZE_5)
#pragma kt arg buf float[max(d, rows * d + d)] inout
#pragma kt arg d int = d
__global__ void
#if MIN_BLOCKS_5 > 0
__launch_bounds__(BLOCK_SIZE_5, MIN_BLOCKS_5)
#endif
row_same_root(float *__restrict__ buf, int d)
{
	const float *in = buf;
	float *out = buf + d;
	const int row = blockIdx.x;
	for (int i = threadIdx.x + (SPLIT_2 == 1 ? 0 : blockIdx.y * blockDim.x); i < d; i += (blockDim.x) * (SPLIT_2 == 1 ? 1 : gridDim.y))
		out[row * d + i] = 2.0f * in[i];
}

// A call that may write through its pointer argument (rotary embedding's
// shape): what it writes is not known, so neither refactor is offered.
__device__ void halve(float *p, int k)
{
	p[k] *= 0.5f;
}

#pragma kt param BLOCK_SIZE_6 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param MIN_BLOCKS_6 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_6 * MIN_BLOCKS_6 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows) block(BLOCK_SIZE_6)
// ktc: complete and uncomment: #pragma kt arg out float[?] inout
#pragma kt arg d int = d
__global__ void
#if MIN_BLOCKS_6 > 0
__launch_bounds__(BLOCK_SIZE_6, MIN_BLOCKS_6)
#endif
row_call(float *__restrict__ out, int d)
{
	const int row = blockIdx.x;
	for (int i = threadIdx.x; i < d; i += blockDim.x)
		halve(out + row * d, i);
}

// Launch bounds already given.
#pragma kt param BLOCK_SIZE_7 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param VEC values(1, 2, 4) default(1)
#pragma kt constraint d % VEC == 0
#pragma kt param SPLIT_3 values(1, 2, 4, 8, 16, 32) default(1)
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows, SPLIT_3) block(BLOCK_SIZE_7)
#pragma kt arg out float[rows * d] out
#pragma kt arg d int = d
__global__ void __launch_bounds__(BLOCK_SIZE_7) row_bounded(float *__restrict__ out, int d)
{
	const int row = blockIdx.x;
	if constexpr (VEC == 1)
		for (int i = threadIdx.x + (SPLIT_3 == 1 ? 0 : blockIdx.y * blockDim.x); i < d; i += (blockDim.x) * (SPLIT_3 == 1 ? 1 : gridDim.y))
			out[row * d + i] = 0.0f;
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&out[row * d])) % (VEC * 4)) == 0;
		const int kt_nvec = kt_aligned ? (int)((d) / VEC) : 0;
		for (int kt_v = threadIdx.x + (SPLIT_3 == 1 ? 0 : blockIdx.y * blockDim.x); kt_v < kt_nvec; kt_v += (blockDim.x) * (SPLIT_3 == 1 ? 1 : gridDim.y)) {
			float kt_out[VEC];
#pragma unroll
			for (int kt_e = 0; kt_e < VEC; kt_e++) {
				const int i = kt_v * VEC + kt_e;
				(void)i;
				kt_out[kt_e] = 0.0f;
			}
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(&out[(row * d) + kt_v * VEC]) = *reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_out);
		}
		for (int i = kt_nvec * VEC + (threadIdx.x + (SPLIT_3 == 1 ? 0 : blockIdx.y * blockDim.x)); i < (d); i += (blockDim.x) * (SPLIT_3 == 1 ? 1 : gridDim.y))
			out[row * d + i] = 0.0f;
	}
}

#ifndef __CUDACC_RTC__
void launch_all(float *out, const float *in, int rows, int d,
		cudaStream_t stream)
{
	row_barrier<<<rows, BLOCK_SIZE, 0, stream>>>(out, in, d);
	row_sum<<<dim3(rows, CLUSTER), BLOCK_SIZE_2, 0, stream>>>(out, in, d);
	row_halves<<<dim3(rows, 2), BLOCK_SIZE_3, 0, stream>>>(out, in, d);
	row_alias<<<dim3(rows, SPLIT), BLOCK_SIZE_4, 0, stream>>>(out, in, d);
	row_same_root<<<dim3(rows, SPLIT_2), BLOCK_SIZE_5, 0, stream>>>(out, d);
	row_call<<<rows, BLOCK_SIZE_6, 0, stream>>>(out, d);
	row_bounded<<<dim3(rows, SPLIT_3), BLOCK_SIZE_7, 0, stream>>>(out, d);
}
#endif
