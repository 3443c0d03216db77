// histogram: counts byte values into 256 bins; each block accumulates a
// private histogram in shared memory (256 threads, 8 items per thread per
// round), then adds it to the global one with atomics.
#include <cuda_runtime.h>

#ifndef __CUDACC_RTC__
#include <cstdint>
#elif !defined(KTC_RTC_HEADERS_GIVEN)
#include <cuda/std/cstdint>
#endif

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef ITEMS_PER_THREAD
#define ITEMS_PER_THREAD 8
#endif
#ifndef UNROLL
#define UNROLL 8
#endif
constexpr int kt_unroll_UNROLL = UNROLL;
#ifndef ITEMS
#define ITEMS 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#define NUM_BINS 256

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(8)
#pragma kt param UNROLL values(1, 2, 4, 8, 16) default(8)
#pragma kt param ITEMS values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + (BLOCK_SIZE * ITEMS_PER_THREAD) - 1) / (BLOCK_SIZE * ITEMS_PER_THREAD)) block(BLOCK_SIZE)
#pragma kt arg data uint8_t[n] in
#pragma kt arg bins unsigned int[256] inout
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
histogram_kernel(const uint8_t *__restrict__ data,
				 unsigned int *__restrict__ bins, int n)
{
	__shared__ unsigned int local[NUM_BINS];
	for (int b = threadIdx.x; b < NUM_BINS; b += BLOCK_SIZE)
		local[b] = 0;
	__syncthreads();
	const int base = blockIdx.x * BLOCK_SIZE * ITEMS_PER_THREAD;
#pragma unroll kt_unroll_UNROLL
	for (int k = 0; k < ITEMS_PER_THREAD; k++) {
		int i = base + k * BLOCK_SIZE + threadIdx.x;
		if (i < n)
			atomicAdd(&local[data[i]], 1u);
	}
	__syncthreads();
#if ITEMS == 1
	for (int b = threadIdx.x; b < NUM_BINS; b += BLOCK_SIZE)
		atomicAdd(&bins[b], local[b]);
#else
	for (int kt_i = threadIdx.x; kt_i < (NUM_BINS); kt_i += (BLOCK_SIZE) * ITEMS) {
		unsigned int kt_ld0[ITEMS];
#pragma unroll
		for (int kt_j = 0; kt_j < ITEMS; kt_j++) {
			const int b = kt_i + kt_j * (BLOCK_SIZE);
			if (b < (NUM_BINS)) {
				kt_ld0[kt_j] = local[b];
			}
		}
#pragma unroll
		for (int kt_j = 0; kt_j < ITEMS; kt_j++) {
			const int b = kt_i + kt_j * (BLOCK_SIZE);
			if (b < (NUM_BINS))
				atomicAdd(&bins[b], kt_ld0[kt_j]);
		}
	}
#endif
}

#ifndef __CUDACC_RTC__
void histogram(const uint8_t *data, unsigned int *bins, int n,
	       cudaStream_t stream)
{
	const int per_block = BLOCK_SIZE * ITEMS_PER_THREAD;
	histogram_kernel<<<(n + per_block - 1) / per_block, BLOCK_SIZE, 0, stream>>>(
		data, bins, n);
}
#endif
