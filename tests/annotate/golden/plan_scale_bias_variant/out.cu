// scale_bias: y[i] = a * x[i] + b[i % cols], one element per thread, 128
// threads per block; the grid covers the n elements exactly.
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 128
#endif
#ifndef FMA
#define FMA 0
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 128, 256, 512, 1024) default(128)
#pragma kt param FMA values(0, 1) default(0)
#pragma kt problem n values(1048576)
#pragma kt problem cols values(1024)
#pragma kt arg y float[n] out
#pragma kt arg x float[n] in
#pragma kt arg b float[cols] in
#pragma kt arg a float = 2.0
#pragma kt arg n int = n
#pragma kt arg cols int = cols
__global__ void scale_bias_kernel(float *__restrict__ y,
				  const float *__restrict__ x,
				  const float *__restrict__ b, float a, int n,
				  int cols)

#if FMA == 0
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + b[i % cols];
}
#else
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = fmaf(a, x[i], b[i % cols]);
}
#endif


#ifndef __CUDACC_RTC__
void scale_bias(float *y, const float *x, const float *b, float a, int n,
		int cols, cudaStream_t stream)
{
	scale_bias_kernel<<<(n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, BLOCK_SIZE, 0, stream>>>(y, x, b, a, n,
							       cols);
}
#endif
