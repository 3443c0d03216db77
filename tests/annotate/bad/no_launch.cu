// no_launch: a kernel that this file never launches (a library would
// launch it from elsewhere): a grid-stride loop, right at any grid, so the
// block size is a parameter and the grid covers n once.
#include <cuda_runtime.h>

__global__ void axpy_kernel(float *y, const float *x, float a, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		y[i] += a * x[i];
}
