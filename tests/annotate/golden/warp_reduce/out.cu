// Block reductions through a shared-memory tree: the warp_reduce refactor
// offers warp shuffles where the tree's shape and its uses are proven
// (row_sum, block_max), and nothing where they are not (the tree's slot 1
// read after it, a block that is not whole warps, a tree inside a loop).
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 128
#endif
#ifndef BLOCK_SIZE_3
#define BLOCK_SIZE_3 64
#endif
#ifndef BLOCK_SIZE_4
#define BLOCK_SIZE_4 16
#endif
#ifndef BLOCK_SIZE_5
#define BLOCK_SIZE_5 128
#endif
#ifndef CLUSTER
#define CLUSTER 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef WARP_REDUCE
#define WARP_REDUCE 0
#endif
#ifndef WARP_ROWS
#define WARP_ROWS 0
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif
#ifndef WARP_REDUCE_2
#define WARP_REDUCE_2 0
#endif
#ifndef MIN_BLOCKS_3
#define MIN_BLOCKS_3 0
#endif
#ifndef MIN_BLOCKS_4
#define MIN_BLOCKS_4 0
#endif
#ifndef MIN_BLOCKS_5
#define MIN_BLOCKS_5 0
#endif
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

// One row per block; the row's sum of x through a tree of +.
#pragma kt param BLOCK_SIZE values(32, 64, 128, 256, 512, 1024) default(256)
#pragma kt constraint 4 * (BLOCK_SIZE) <= DEVICE_SMEM_PER_BLOCK
#pragma kt param CLUSTER values(1, 2, 4, 8) default(1)
#pragma kt constraint CLUSTER == 1 || DEVICE_CC_MAJOR >= 9
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
#pragma kt param WARP_REDUCE values(0, 1) default(0)
#pragma kt param WARP_ROWS values(0, 1, 2, 4, 8, 16, 32) default(0)
#pragma kt constraint 32 * WARP_ROWS <= BLOCK_SIZE
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows, CLUSTER) block(WARP_ROWS > 0 ? 32 * WARP_ROWS : (BLOCK_SIZE))
#pragma kt arg x float[rows * d] in
#pragma kt arg out float[rows] out
#pragma kt arg d int = d
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif

#if CLUSTER > 1
__cluster_dims__(1, CLUSTER, 1)
#endif
row_sum(const float *__restrict__ x, float *__restrict__ out,
			int d)

#if WARP_ROWS == 0
{
	__shared__ float sh[BLOCK_SIZE];
	const int tid = threadIdx.x;
	const float *row = x + (long)blockIdx.x * d;
	float acc = 0.f;
	for (int c = threadIdx.x + (CLUSTER == 1 ? 0 : blockIdx.y * blockDim.x); c < d; c += (blockDim.x) * (CLUSTER == 1 ? 1 : gridDim.y))
		acc += row[c];
#if CLUSTER > 1
	acc = kt_cluster_sum(acc, CLUSTER);
#endif
	sh[tid] = acc;
	__syncthreads();
#if WARP_REDUCE == 0
	for (int s = blockDim.x / 2; s > 0; s >>= 1) {
		if (tid < s)
			sh[tid] += sh[tid + s];
		__syncthreads();
	}
#else
	{
		float kt_r = sh[tid];
		__syncthreads();
		for (int kt_o = 16; kt_o > 0; kt_o >>= 1)
			kt_r = kt_r + __shfl_xor_sync(0xffffffffu, kt_r, kt_o);
		if (tid % 32 == 0)
			sh[tid / 32] = kt_r;
		__syncthreads();
		if (tid < 32) {
			const int kt_nw = blockDim.x / 32;
			kt_r = sh[tid < kt_nw ? tid : 0];
			for (int kt_o = 16; kt_o > 0; kt_o >>= 1) {
				float kt_y = __shfl_down_sync(0xffffffffu, kt_r, kt_o);
				if (tid + kt_o < kt_nw)
					kt_r = kt_r + kt_y;
			}
			if (tid == 0)
				sh[0] = kt_r;
		}
		__syncthreads();
	}
#endif
	if (tid == 0)
		out[blockIdx.x] = sh[0];
}
#else
{
	const unsigned kt_warp = threadIdx.x / 32u, kt_lane = threadIdx.x % 32u;
	const unsigned kt_row = blockIdx.x * WARP_ROWS + kt_warp;
	if (kt_row >= gridDim.x)
		return;
	__shared__ float sh[WARP_ROWS][256];
	const int tid = kt_lane;
	const float *row = x + (long)kt_row * d;
	float acc = 0.f;
	for (int c = kt_lane; c < d; c += 32u)
		acc += row[c];
	sh[kt_warp][tid] = acc;
	__syncwarp();
	for (int s = 32u / 2; s > 0; s >>= 1) {
		if (tid < s)
			sh[kt_warp][tid] += sh[kt_warp][tid + s];
		__syncwarp();
	}
	if (tid == 0)
		out[kt_row] = sh[kt_warp][0];
}
#endif


// The largest element of each chunk of 128, through a tree of fmaxf.
#pragma kt param BLOCK_SIZE_2 values(32, 64, 128, 256, 512, 1024) default(128)
#pragma kt constraint 4 * (BLOCK_SIZE_2) <= DEVICE_SMEM_PER_BLOCK
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
#pragma kt param WARP_REDUCE_2 values(0, 1) default(0)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + (BLOCK_SIZE_2 - 1)) / BLOCK_SIZE_2) block(BLOCK_SIZE_2)
#pragma kt arg x float[n] in
// ktc: complete and uncomment: #pragma kt arg m float[?] out
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif
block_max(const float *x, float *m, int n)
{
	__shared__ float sh[BLOCK_SIZE_2];
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	sh[threadIdx.x] = i < n ? x[i] : -1e30f;
	__syncthreads();
#if WARP_REDUCE_2 == 0
	for (unsigned s = blockDim.x >> 1; s > 0; s /= 2) {
		if (threadIdx.x < s)
			sh[threadIdx.x] = fmaxf(sh[threadIdx.x], sh[threadIdx.x + s]);
		__syncthreads();
	}
#else
	{
		float kt_r = sh[threadIdx.x];
		__syncthreads();
		for (int kt_o = 16; kt_o > 0; kt_o >>= 1)
			kt_r = fmaxf(kt_r, __shfl_xor_sync(0xffffffffu, kt_r, kt_o));
		if (threadIdx.x % 32 == 0)
			sh[threadIdx.x / 32] = kt_r;
		__syncthreads();
		if (threadIdx.x < 32) {
			const int kt_nw = blockDim.x / 32;
			kt_r = sh[threadIdx.x < kt_nw ? threadIdx.x : 0];
			for (int kt_o = 16; kt_o > 0; kt_o >>= 1) {
				float kt_y = __shfl_down_sync(0xffffffffu, kt_r, kt_o);
				if (threadIdx.x + kt_o < kt_nw)
					kt_r = fmaxf(kt_r, kt_y);
			}
			if (threadIdx.x == 0)
				sh[0] = kt_r;
		}
		__syncthreads();
	}
#endif
	if (threadIdx.x == 0)
		m[blockIdx.x] = sh[0];
}

// Reads slot 1 after the tree: the shuffles leave another value there.
#pragma kt param BLOCK_SIZE_3 values(32, 64, 128, 256, 512, 1024) default(64)
#pragma kt constraint 4 * (BLOCK_SIZE_3) <= DEVICE_SMEM_PER_BLOCK
#pragma kt param MIN_BLOCKS_3 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_3 * MIN_BLOCKS_3 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
#pragma kt launch grid(rows) block(BLOCK_SIZE_3)
// ktc: complete and uncomment: #pragma kt arg x float[?] in
#pragma kt arg out float[rows] out
__global__ void
#if MIN_BLOCKS_3 > 0
__launch_bounds__(BLOCK_SIZE_3, MIN_BLOCKS_3)
#endif
two_slots(const float *x, float *out)
{
	__shared__ float sh[BLOCK_SIZE_3];
	const int tid = threadIdx.x;
	sh[tid] = x[blockIdx.x * BLOCK_SIZE_3 + tid];
	__syncthreads();
	for (int s = blockDim.x / 2; s > 0; s >>= 1) {
		if (tid < s)
			sh[tid] += sh[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		out[blockIdx.x] = sh[0] - sh[1];
}

// Blocks of 16 threads: not whole warps.
#pragma kt param BLOCK_SIZE_4 values(1, 2, 4, 8, 16, 32, 64) default(16)
#pragma kt constraint 4 * (BLOCK_SIZE_4) <= DEVICE_SMEM_PER_BLOCK
#pragma kt param MIN_BLOCKS_4 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_4 * MIN_BLOCKS_4 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
#pragma kt launch grid(rows) block(BLOCK_SIZE_4)
// ktc: complete and uncomment: #pragma kt arg x float[?] in
#pragma kt arg out float[rows] out
__global__ void
#if MIN_BLOCKS_4 > 0
__launch_bounds__(BLOCK_SIZE_4, MIN_BLOCKS_4)
#endif
half_warp(const float *x, float *out)
{
	__shared__ float sh[BLOCK_SIZE_4];
	const int tid = threadIdx.x;
	sh[tid] = x[blockIdx.x * BLOCK_SIZE_4 + tid];
	__syncthreads();
	for (int s = blockDim.x / 2; s > 0; s >>= 1) {
		if (tid < s)
			sh[tid] += sh[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		out[blockIdx.x] = sh[0];
}

// The tree runs once per pass of a loop: a slot read at the top of the
// next pass would see what the shuffles left.
#pragma kt param BLOCK_SIZE_5 values(32, 64, 128, 256, 512, 1024) default(128)
#pragma kt constraint 4 * (BLOCK_SIZE_5) <= DEVICE_SMEM_PER_BLOCK
#pragma kt param MIN_BLOCKS_5 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_5 * MIN_BLOCKS_5 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem k values(?)
#pragma kt launch grid(rows) block(BLOCK_SIZE_5)
// ktc: complete and uncomment: #pragma kt arg x float[?] in
#pragma kt arg out float[rows] out
#pragma kt arg k int = k
__global__ void
#if MIN_BLOCKS_5 > 0
__launch_bounds__(BLOCK_SIZE_5, MIN_BLOCKS_5)
#endif
passes(const float *x, float *out, int k)
{
	__shared__ float sh[BLOCK_SIZE_5];
	const int tid = threadIdx.x;
	float carry = 0.f;
	for (int p = 0; p < k; p++) {
		sh[tid] = x[(blockIdx.x * k + p) * BLOCK_SIZE_5 + tid] + carry;
		__syncthreads();
		for (int s = blockDim.x / 2; s > 0; s >>= 1) {
			if (tid < s)
				sh[tid] += sh[tid + s];
			__syncthreads();
		}
		carry = sh[0];
		__syncthreads();
	}
	if (tid == 0)
		out[blockIdx.x] = carry;
}

#ifndef __CUDACC_RTC__
void run_all(const float *x, float *out, int rows, int d, int n, int k)
{
	row_sum<<<dim3(rows, CLUSTER), (WARP_ROWS > 0 ? 32 * WARP_ROWS : (BLOCK_SIZE))>>>(x, out, d);
	block_max<<<(n + (BLOCK_SIZE_2 - 1)) / BLOCK_SIZE_2, BLOCK_SIZE_2>>>(x, out, n);
	two_slots<<<rows, BLOCK_SIZE_3>>>(x, out);
	half_warp<<<rows, BLOCK_SIZE_4>>>(x, out);
	passes<<<rows, BLOCK_SIZE_5>>>(x, out, k);
}
#endif
