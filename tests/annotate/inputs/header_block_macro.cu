// A block size from a header's macro. The header is not the file's to
// change, so the parameter replaces the macro where it expands: in the
// grid's `(n + K - 1) / K` as much as in the block, or the grid would
// cover 256 elements a block while a block has 128 threads. Where an
// expansion cannot follow (a shared array the block fills), the block
// size stays.
#include "header_block_macro.h"

__global__ void scale(float *x, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= a;
}

__global__ void block_sums(const float *x, float *sums)
{
	__shared__ float sh[SUM_BLOCK_SIZE];
	sh[threadIdx.x] = x[blockIdx.x * SUM_BLOCK_SIZE + threadIdx.x];
	__syncthreads();
	if (threadIdx.x == 0) {
		float s = 0.0f;
		for (int j = 0; j < SUM_BLOCK_SIZE; j++)
			s += sh[j];
		sums[blockIdx.x] = s;
	}
}

void run(float *x, float *sums, float a, int n)
{
	const int blocks = (n + SCALE_BLOCK_SIZE - 1) / SCALE_BLOCK_SIZE;
	scale<<<blocks, SCALE_BLOCK_SIZE>>>(x, a, n);
	block_sums<<<n / SUM_BLOCK_SIZE, SUM_BLOCK_SIZE>>>(x, sums);
}
