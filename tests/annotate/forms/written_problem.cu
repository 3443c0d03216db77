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
