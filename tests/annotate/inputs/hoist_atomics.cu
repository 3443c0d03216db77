// hoist_atomics.cu - block-strided loops whose side effects are atomics:
// a histogram of byte values into shared counters, then the block's
// counts added to global bins, a scatter count into global counters, and
// a grid-strided histogram straight into global bins. Each loop reads one element per iteration, then updates a counter, so a
// thread has one load in flight; the built-in planner offers hoist_loads
// (ITEMS iterations' loads before their atomics) where what the loop reads
// cannot be what it updates.
#include <cuda_runtime.h>

#define BINS 256

// shared counters; the input is a global pointer (another address space)
__global__ void byte_histogram(const unsigned char *data,
			       unsigned int *__restrict__ bins, int n)
{
	__shared__ unsigned int local[BINS];
	for (int b = threadIdx.x; b < BINS; b += blockDim.x)
		local[b] = 0;
	__syncthreads();
	const int chunk = (n + gridDim.x - 1) / gridDim.x;
	const unsigned char *mine = data + blockIdx.x * chunk;
	const int len = min(chunk, n - (int)blockIdx.x * chunk);
	for (int i = threadIdx.x; i < len; i += blockDim.x)
		atomicAdd(&local[mine[i]], 1u);
	__syncthreads();
	for (int b = threadIdx.x; b < BINS; b += blockDim.x)
		atomicAdd(&bins[b], local[b]);
}

// global counters: the keys are a const __restrict__ input, the weights
// too; the loop also keeps a count of its own (a register)
__global__ void weighted_count(const int *__restrict__ keys,
			       const float *__restrict__ weights,
			       float *sums, int *__restrict__ seen, int n)
{
	int mine = 0;
	for (int i = threadIdx.x; i < n; i += blockDim.x) {
		atomicAdd(&sums[keys[i]], weights[i]);
		mine++;
	}
	if (mine)
		atomicAdd(seen, mine);
}

// a grid-strided loop: the stride is the grid's, a local that never
// changes
__global__ void global_histogram(const unsigned char *__restrict__ data,
				 unsigned int *bins, int n)
{
	const int stride = gridDim.x * blockDim.x;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
		atomicAdd(&bins[data[i]], 1u);
}

void launch(const unsigned char *data, unsigned int *bins, int n,
	    const int *keys, const float *weights, float *sums, int *seen,
	    cudaStream_t stream)
{
	byte_histogram<<<64, 256, 0, stream>>>(data, bins, n);
	weighted_count<<<1, 512, 0, stream>>>(keys, weights, sums, seen, n);
	global_histogram<<<132, 256, 0, stream>>>(data, bins, n);
}
