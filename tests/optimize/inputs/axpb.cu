// axpb: y[i] = a * x[i] + b, one element per thread, 256 threads per block.
#include <cuda_runtime.h>

__global__ void axpb_kernel(float *__restrict__ y, const float *__restrict__ x,
			    float a, float b, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + b;
}

void axpb(float *y, const float *x, float a, float b, int n,
	  cudaStream_t stream)
{
	axpb_kernel<<<(n + 255) / 256, 256, 0, stream>>>(y, x, a, b, n);
}
