// A torch extension: torch's headers are not installed here. The kernel
// that does not touch torch types is intact and annotated; the one that
// does is left out.
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void axpy(float *y, const float *x, float a, int n)
{
	int i = blockIdx.x * 128 + threadIdx.x;
	if (i < n)
		y[i] += a * x[i];
}

__global__ void uses_torch(at::Half *p, int n)
{
	int i = blockIdx.x * 128 + threadIdx.x;
	if (i < n)
		p[i] = 0;
}

void axpy_launch(float *y, const float *x, float a, int n)
{
	axpy<<<(n + 127) / 128, 128>>>(y, x, a, n);
}
