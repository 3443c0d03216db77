// A launcher that refuses sizes its kernel cannot take: each disjunct of an
// early exit before the launch over problem sizes becomes a constraint; a
// null pointer check, a guard inside a branch and one after the launch
// say nothing about the sizes the kernel runs at.
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef ITEMS
#define ITEMS 1
#endif
#ifndef SPLIT
#define SPLIT 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS values(1, 2, 4, 8) default(1)
#pragma kt param SPLIT values(1, 2, 4, 8, 16, 32) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem cols values(?)
#pragma kt launch grid(rows, SPLIT) block(BLOCK_SIZE)
#pragma kt constraint cols % 4 == 0
#pragma kt constraint rows > 0
#pragma kt constraint cols <= 65536
#pragma kt arg y float[4 * (rows * (cols / 4))] out
#pragma kt arg x float[4 * (rows * (cols / 4))] in
#pragma kt arg cols int = cols
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
scale_rows(float4 *__restrict__ y, const float4 *__restrict__ x,
			   int cols)
{
	const long r = blockIdx.x;
#if ITEMS == 1
	for (int i = threadIdx.x + (SPLIT == 1 ? 0 : blockIdx.y * blockDim.x); i < cols / 4; i += (blockDim.x) * (SPLIT == 1 ? 1 : gridDim.y))
		y[r * (cols / 4) + i] = x[r * (cols / 4) + i];
#else
	for (int kt_i = threadIdx.x + (SPLIT == 1 ? 0 : blockIdx.y * blockDim.x); kt_i < (cols / 4); kt_i += ((blockDim.x) * (SPLIT == 1 ? 1 : gridDim.y)) * ITEMS) {
		float4 kt_ld0[ITEMS];
#pragma unroll
		for (int kt_j = 0; kt_j < ITEMS; kt_j++) {
			const int i = kt_i + kt_j * ((blockDim.x) * (SPLIT == 1 ? 1 : gridDim.y));
			if (i < (cols / 4)) {
				kt_ld0[kt_j] = x[(r * (cols / 4)) + i];
			}
		}
#pragma unroll
		for (int kt_j = 0; kt_j < ITEMS; kt_j++) {
			const int i = kt_i + kt_j * ((blockDim.x) * (SPLIT == 1 ? 1 : gridDim.y));
			if (i < (cols / 4))
				y[r * (cols / 4) + i] = kt_ld0[kt_j];
		}
	}
#endif
}

#ifndef __CUDACC_RTC__
cudaError_t scale(float *y, const float *x, int rows, int cols,
		  cudaStream_t s)
{
	if (cols % 4 || rows <= 0 || !y)
		return cudaErrorInvalidValue;
	if (cols > 65536)
		return cudaErrorInvalidValue;
	if (s) {
		if (rows > 100000)
			return cudaErrorInvalidValue;
	}
	scale_rows<<<dim3(rows, SPLIT), BLOCK_SIZE, 0, s>>>((float4 *)y, (const float4 *)x, cols);
	if (cols < 16)
		return cudaErrorInvalidValue;
	return cudaGetLastError();
}
#endif
