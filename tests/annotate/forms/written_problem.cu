// written_problem: a launched kernel whose problem sizes the user already
// wrote: annotating again keeps them and does not ask for them a second
// time; a constraint written there does not hide the launcher's own.
#include <cuda_runtime.h>

#pragma kt problem n values(4096, 1048576)
#pragma kt constraint n > 0
__global__ void negate_kernel(float *y, const float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = -x[i];
}

int negate(float *y, const float *x, int n, cudaStream_t s)
{
	if (n % 4)
		return -1;
	negate_kernel<<<(n + 255) / 256, 256, 0, s>>>(y, x, n);
	return 0;
}

// a launch line written by hand for a kernel the file launches: kept as
// it is, and said not to follow the parameters the launch's literals become
#pragma kt launch grid((n + 255) / 256) block(256)
__global__ void twice_kernel(float *y, const float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = 2.0f * x[i];
}

void twice(float *y, const float *x, int n, cudaStream_t s)
{
	twice_kernel<<<(n + 255) / 256, 256, 0, s>>>(y, x, n);
}
