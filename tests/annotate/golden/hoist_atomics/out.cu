// hoist_atomics.cu - block-strided loops whose side effects are atomics:
// a histogram of byte values into shared counters, then the block's
// counts added to global bins, a scatter count into global counters, and
// a grid-strided histogram straight into global bins. Each loop reads one element per iteration, then updates a counter, so a
// thread has one load in flight; the built-in planner offers hoist_loads
// (ITEMS iterations' loads before their atomics) where what the loop reads
// cannot be what it updates.
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 512
#endif
#ifndef BLOCK_SIZE_3
#define BLOCK_SIZE_3 256
#endif
#ifndef GRID_SIZE
#define GRID_SIZE 132
#endif
#ifndef BYTE_HISTOGRAM_ITEMS
#define BYTE_HISTOGRAM_ITEMS 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef WEIGHTED_COUNT_ITEMS
#define WEIGHTED_COUNT_ITEMS 1
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif
#ifndef GLOBAL_HISTOGRAM_ITEMS
#define GLOBAL_HISTOGRAM_ITEMS 1
#endif
#ifndef MIN_BLOCKS_3
#define MIN_BLOCKS_3 0
#endif

#define BINS 256

// shared counters; the input is a global pointer (another address space)
#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param BYTE_HISTOGRAM_ITEMS values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(64) block(BLOCK_SIZE)
// ktc: complete and uncomment: #pragma kt arg data unsigned char[?] in
#pragma kt arg bins unsigned int[256] inout
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
byte_histogram(const unsigned char *data,
			       unsigned int *__restrict__ bins, int n)
{
	__shared__ unsigned int local[BINS];
	for (int b = threadIdx.x; b < BINS; b += blockDim.x)
		local[b] = 0;
	__syncthreads();
	const int chunk = (n + gridDim.x - 1) / gridDim.x;
	const unsigned char *mine = data + blockIdx.x * chunk;
	const int len = min(chunk, n - (int)blockIdx.x * chunk);
#if BYTE_HISTOGRAM_ITEMS == 1
	for (int i = threadIdx.x; i < len; i += blockDim.x)
		atomicAdd(&local[mine[i]], 1u);
#else
	for (int kt_i = threadIdx.x; kt_i < (len); kt_i += (blockDim.x) * BYTE_HISTOGRAM_ITEMS) {
		unsigned char kt_ld0[BYTE_HISTOGRAM_ITEMS];
#pragma unroll
		for (int kt_j = 0; kt_j < BYTE_HISTOGRAM_ITEMS; kt_j++) {
			const int i = kt_i + kt_j * (blockDim.x);
			if (i < (len)) {
				kt_ld0[kt_j] = mine[i];
			}
		}
#pragma unroll
		for (int kt_j = 0; kt_j < BYTE_HISTOGRAM_ITEMS; kt_j++) {
			const int i = kt_i + kt_j * (blockDim.x);
			if (i < (len))
				atomicAdd(&local[kt_ld0[kt_j]], 1u);
		}
	}
#endif
	__syncthreads();
#if BYTE_HISTOGRAM_ITEMS == 1
	for (int b = threadIdx.x; b < BINS; b += blockDim.x)
		atomicAdd(&bins[b], local[b]);
#else
	for (int kt_i = threadIdx.x; kt_i < (BINS); kt_i += (blockDim.x) * BYTE_HISTOGRAM_ITEMS) {
		unsigned int kt_ld0[BYTE_HISTOGRAM_ITEMS];
#pragma unroll
		for (int kt_j = 0; kt_j < BYTE_HISTOGRAM_ITEMS; kt_j++) {
			const int b = kt_i + kt_j * (blockDim.x);
			if (b < (BINS)) {
				kt_ld0[kt_j] = local[b];
			}
		}
#pragma unroll
		for (int kt_j = 0; kt_j < BYTE_HISTOGRAM_ITEMS; kt_j++) {
			const int b = kt_i + kt_j * (blockDim.x);
			if (b < (BINS))
				atomicAdd(&bins[b], kt_ld0[kt_j]);
		}
	}
#endif
}

// global counters: the keys are a const __restrict__ input, the weights
// too; the loop also keeps a count of its own (a register)
#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(512)
#pragma kt param WEIGHTED_COUNT_ITEMS values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(1) block(BLOCK_SIZE_2)
#pragma kt arg keys int[n] in
#pragma kt arg weights float[n] in
// ktc: complete and uncomment: #pragma kt arg sums float[?] inout
#pragma kt arg seen int[1] inout
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif
weighted_count(const int *__restrict__ keys,
			       const float *__restrict__ weights,
			       float *sums, int *__restrict__ seen, int n)
{
	int mine = 0;
#if WEIGHTED_COUNT_ITEMS == 1
	for (int i = threadIdx.x; i < n; i += blockDim.x) {
		atomicAdd(&sums[keys[i]], weights[i]);
		mine++;
	}
#else
	for (int kt_i = threadIdx.x; kt_i < (n); kt_i += (blockDim.x) * WEIGHTED_COUNT_ITEMS) {
		int kt_ld0[WEIGHTED_COUNT_ITEMS];
		float kt_ld1[WEIGHTED_COUNT_ITEMS];
#pragma unroll
		for (int kt_j = 0; kt_j < WEIGHTED_COUNT_ITEMS; kt_j++) {
			const int i = kt_i + kt_j * (blockDim.x);
			if (i < (n)) {
				kt_ld0[kt_j] = keys[i];
				kt_ld1[kt_j] = weights[i];
			}
		}
#pragma unroll
		for (int kt_j = 0; kt_j < WEIGHTED_COUNT_ITEMS; kt_j++) {
			const int i = kt_i + kt_j * (blockDim.x);
			if (i < (n)) {
				atomicAdd(&sums[kt_ld0[kt_j]], kt_ld1[kt_j]);
				mine++;
			}
		}
	}
#endif
	if (mine)
		atomicAdd(seen, mine);
}

// a grid-strided loop: the stride is the grid's, a local that never
// changes
#pragma kt param BLOCK_SIZE_3 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param GRID_SIZE values(8, 16, 32, 64, 128, 132, 256, 512, 1024, 2048) default(132)
#pragma kt param GLOBAL_HISTOGRAM_ITEMS values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS_3 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_3 * MIN_BLOCKS_3 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(GRID_SIZE) block(BLOCK_SIZE_3)
#pragma kt arg data unsigned char[n] in
// ktc: complete and uncomment: #pragma kt arg bins unsigned int[?] inout
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_3 > 0
__launch_bounds__(BLOCK_SIZE_3, MIN_BLOCKS_3)
#endif
global_histogram(const unsigned char *__restrict__ data,
				 unsigned int *bins, int n)
{
	const int stride = gridDim.x * blockDim.x;
#if GLOBAL_HISTOGRAM_ITEMS == 1
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
		atomicAdd(&bins[data[i]], 1u);
#else
	for (int kt_i = blockIdx.x * blockDim.x + threadIdx.x; kt_i < (n); kt_i += (stride) * GLOBAL_HISTOGRAM_ITEMS) {
		unsigned char kt_ld0[GLOBAL_HISTOGRAM_ITEMS];
#pragma unroll
		for (int kt_j = 0; kt_j < GLOBAL_HISTOGRAM_ITEMS; kt_j++) {
			const int i = kt_i + kt_j * (stride);
			if (i < (n)) {
				kt_ld0[kt_j] = data[i];
			}
		}
#pragma unroll
		for (int kt_j = 0; kt_j < GLOBAL_HISTOGRAM_ITEMS; kt_j++) {
			const int i = kt_i + kt_j * (stride);
			if (i < (n))
				atomicAdd(&bins[kt_ld0[kt_j]], 1u);
		}
	}
#endif
}

#ifndef __CUDACC_RTC__
void launch(const unsigned char *data, unsigned int *bins, int n,
	    const int *keys, const float *weights, float *sums, int *seen,
	    cudaStream_t stream)
{
	byte_histogram<<<64, BLOCK_SIZE, 0, stream>>>(data, bins, n);
	weighted_count<<<1, BLOCK_SIZE_2, 0, stream>>>(keys, weights, sums, seen, n);
	global_histogram<<<GRID_SIZE, BLOCK_SIZE_3, 0, stream>>>(data, bins, n);
}
#endif
