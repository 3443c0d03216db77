// rows: a row per block, the block's threads striding over the row's
// columns; nothing in this file launches the kernels.
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 256
#endif

// the rows bounded by a guard: the grid is that parameter
#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows) block(BLOCK_SIZE)
#pragma kt arg x float[rows * d] inout
#pragma kt arg scale float[d] in
#pragma kt arg rows int = rows
#pragma kt arg d int = d
__global__ void row_scale_kernel(float *x, const float *scale, int rows,
                                 int d)
{
	int row = blockIdx.x;
	if (row >= rows)
		return;
	for (int j = threadIdx.x; j < d; j += blockDim.x)
		x[row * d + j] *= scale[j];
}

// no guard: how many rows is the host's choice, a new problem variable
#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
// ktc: complete and uncomment: #pragma kt problem d values(?)
// ktc: complete and uncomment: #pragma kt problem rows values(?)
#pragma kt launch grid(rows) block(BLOCK_SIZE_2)
#pragma kt arg out float[rows * d] out
#pragma kt arg in float[rows * d] in
#pragma kt arg d int = d
__global__ void row_copy_kernel(float *out, const float *in, int d)
{
	const float *src = in + blockIdx.x * d;
	float *dst = out + blockIdx.x * d;
	for (int j = threadIdx.x; j < d; j += blockDim.x)
		dst[j] = src[j];
}
