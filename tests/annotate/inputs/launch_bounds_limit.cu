// A kernel whose __launch_bounds__ no parameter stands in (its value,
// 2 * 128, is none of the block's literals): a block of more threads
// than it allows does not launch, so the block's parameters get the
// constraint that their product stays within it.
#include <cuda_runtime.h>

__launch_bounds__(2 * 128) __global__
void scale_rows(float *x, int rows, int cols)
{
	int r = blockIdx.x * blockDim.y + threadIdx.y;
	if (r >= rows)
		return;
	for (int c = threadIdx.x; c < cols; c += blockDim.x)
		x[r * cols + c] *= 3.0f;
}

void scale(float *x, int rows, int cols, cudaStream_t s)
{
	const int per_block = 4;
	dim3 grid((rows + per_block - 1) / per_block);
	dim3 block(64, per_block);
	scale_rows<<<grid, block, 0, s>>>(x, rows, cols);
}
