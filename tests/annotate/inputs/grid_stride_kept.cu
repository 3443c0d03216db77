// Kernels with grid-stride loops whose literal grid stays as written:
// each reads the grid's position where another count of blocks would
// change what it computes, or meets a barrier inside a loop whose
// threads run different counts of iterations at another grid.

#include <cooperative_groups.h>

// a partial sum per block: the host sums 1024 partials
__global__ void partial_sums(float *part, const float *x, int n)
{
	__shared__ float s[256];
	float acc = 0.0f;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += blockDim.x * gridDim.x)
		acc += x[i];
	s[threadIdx.x] = acc;
	__syncthreads();
	for (int h = blockDim.x / 2; h > 0; h /= 2) {
		if (threadIdx.x < h)
			s[threadIdx.x] += s[threadIdx.x + h];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		part[blockIdx.x] = s[0];
}

// a barrier inside the per-thread loop
__global__ void staged(float *y, const float *x, int n)
{
	__shared__ float t[128];
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += blockDim.x * gridDim.x) {
		t[threadIdx.x] = x[i];
		__syncthreads();
		y[i] = t[(threadIdx.x + 1) % 128];
		__syncthreads();
	}
}

// the first block does extra work
__global__ void fill_count(float *y, int *count, int n)
{
	if (blockIdx.x == 0 && threadIdx.x == 0)
		*count = n;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += blockDim.x * gridDim.x)
		y[i] = 1.0f;
}

// a helper of the file reads the grid
__device__ int grid_threads() { return blockDim.x * gridDim.x; }

__global__ void zero(float *y, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += grid_threads())
		y[i] = 0.0f;
}

// a partial per block, its place read through cooperative groups
__global__ void group_partials(float *part, const float *x, int n)
{
	float acc = 0.0f;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += blockDim.x * gridDim.x)
		acc += x[i];
	if (threadIdx.x == 0)
		part[cooperative_groups::this_thread_block().group_index().x] =
		    acc;
}

void run(float *part, float *y, const float *x, int *count, int n)
{
	partial_sums<<<1024, 256>>>(part, x, n);
	staged<<<512, 128>>>(y, x, n);
	fill_count<<<512, 256>>>(y, count, n);
	zero<<<256, 256>>>(y, n);
	group_partials<<<1024, 64>>>(part, x, n);
}
