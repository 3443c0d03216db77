// rows: a row per block, the block's threads striding over the row's
// columns; nothing in this file launches the kernels.
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 256
#endif
#ifndef BLOCK_SIZE_3
#define BLOCK_SIZE_3 256
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

__device__ float warp_sum(float v)
{
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, o);
	return v;
}

// a warp's sum by a helper's shuffles and thread 0 writing the row's: one
// warp is the whole block, so the block stays 32
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows) block(32)
#pragma kt arg out float[rows] out
#pragma kt arg x float[rows * d] in
#pragma kt arg rows int = rows
#pragma kt arg d int = d
__global__ void row_sum_kernel(float *out, const float *x, int rows, int d)
{
	if (blockIdx.x >= rows)
		return;
	float s = 0.0f;
	for (int j = threadIdx.x; j < d; j += blockDim.x)
		s += x[blockIdx.x * d + j];
	s = warp_sum(s);
	if (threadIdx.x == 0)
		out[blockIdx.x] = s;
}

// the step inside the loop's body (unrolled by hand): each thread adds its
// partial sum to the row's total
#pragma kt param BLOCK_SIZE_3 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
// ktc: complete and uncomment: #pragma kt problem d values(?)
// ktc: complete and uncomment: #pragma kt problem rows values(?)
#pragma kt launch grid(rows) block(BLOCK_SIZE_3)
#pragma kt arg total float[rows] inout
// ktc: complete and uncomment: #pragma kt arg x float[?] in
#pragma kt arg d int = d
__global__ void row_total_kernel(float *total, const float *x, int d)
{
	float s = 0.0f;
	for (int j = threadIdx.x; j < d;) {
		for (int u = 0; u < 4; ++u) {
			if (j < d)
				s += x[blockIdx.x * d + j];
			j += blockDim.x;
		}
	}
	atomicAdd(&total[blockIdx.x], s);
}
