// syntax_error: a kernel with a missing semicolon and an undeclared name.
#include <cuda_runtime.h>

__global__ void scale_kernel(float *y, const float *x, int n)
{
	int i = blockIdx.x * 256 + threadIdx.x
	if (i < n)
		y[i] = 2.0f * x[i] + undeclared;
}

void scale(float *y, const float *x, int n)
{
	scale_kernel<<<(n + 255) / 256, 256>>>(y, x, n);
}
