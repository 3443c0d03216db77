// A 16 x 16 block whose kernel multiplies by 16: x or y? Left alone.
#include <cuda_runtime.h>

__global__ void square(float *a, int n)
{
	const int tid = threadIdx.y * 16 + threadIdx.x;
	const int i = blockIdx.x * 256 + tid;
	if (i < n)
		a[i] = a[i] * a[i];
}

void square_launch(float *a, int n)
{
	dim3 block(16, 16);
	square<<<(n + 255) / 256, block>>>(a, n);
}
