// A kernel whose __launch_bounds__ no parameter stands in (its value,
// 2 * 128, is none of the block's literals): a block of more threads
// than it allows does not launch, so the block's parameters get the
// constraint that their product stays within it.
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 64
#endif
#ifndef PER_BLOCK
#define PER_BLOCK 4
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(64)
#pragma kt param PER_BLOCK values(1, 2, 4, 8, 16, 32, 64) default(4)
#pragma kt constraint (BLOCK_SIZE) * (PER_BLOCK) <= DEVICE_MAX_THREADS_PER_BLOCK
#pragma kt constraint (BLOCK_SIZE) * (PER_BLOCK) <= 256
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem cols values(?)
#pragma kt launch grid(((rows + PER_BLOCK - 1) / PER_BLOCK)) block(BLOCK_SIZE, PER_BLOCK)
#pragma kt arg x float[rows * cols] inout
#pragma kt arg rows int = rows
#pragma kt arg cols int = cols
__launch_bounds__(2 * 128) __global__
void scale_rows(float *x, int rows, int cols)
{
	int r = blockIdx.x * blockDim.y + threadIdx.y;
	if (r >= rows)
		return;
	for (int c = threadIdx.x; c < cols; c += blockDim.x)
		x[r * cols + c] *= 3.0f;
}

#ifndef __CUDACC_RTC__
void scale(float *x, int rows, int cols, cudaStream_t s)
{
	const int per_block = PER_BLOCK;
	dim3 grid((rows + per_block - 1) / per_block);
	dim3 block(BLOCK_SIZE, per_block);
	scale_rows<<<grid, block, 0, s>>>(x, rows, cols);
}
#endif
