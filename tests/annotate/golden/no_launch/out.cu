// no_launch: a kernel that this file never launches (a library would
// launch it from elsewhere): a grid-stride loop, right at any grid, so the
// block size is a parameter and the grid covers n once.
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + BLOCK_SIZE - 1) / BLOCK_SIZE) block(BLOCK_SIZE)
#pragma kt arg y float[n] inout
#pragma kt arg x float[n] in
// ktc: complete and uncomment: #pragma kt arg a float = ?
#pragma kt arg n int = n
__global__ void axpy_kernel(float *y, const float *x, float a, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		y[i] += a * x[i];
}
