// histogram: counts byte values into 256 bins; each block accumulates a
// private histogram in shared memory (256 threads, 8 items per thread per
// round), then adds it to the global one with atomics.
#include <cuda_runtime.h>

#include <cstdint>

#define NUM_BINS 256

__global__ void histogram_kernel(const uint8_t *__restrict__ data,
				 unsigned int *__restrict__ bins, int n)
{
	__shared__ unsigned int local[NUM_BINS];
	for (int b = threadIdx.x; b < NUM_BINS; b += 256)
		local[b] = 0;
	__syncthreads();
	const int base = blockIdx.x * 256 * 8;
#pragma unroll 8
	for (int k = 0; k < 8; k++) {
		int i = base + k * 256 + threadIdx.x;
		if (i < n)
			atomicAdd(&local[data[i]], 1u);
	}
	__syncthreads();
	for (int b = threadIdx.x; b < NUM_BINS; b += 256)
		atomicAdd(&bins[b], local[b]);
}

void histogram(const uint8_t *data, unsigned int *bins, int n,
	       cudaStream_t stream)
{
	const int per_block = 256 * 8;
	histogram_kernel<<<(n + per_block - 1) / per_block, 256, 0, stream>>>(
		data, bins, n);
}
