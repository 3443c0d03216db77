// A launch written inside another macro's argument (an error-checking
// wrapper around the launch expression): the block size's macro expands
// in that argument, so each of its literals stands at the outer macro's
// name. The literal is still the body of THREADS, found from where it is
// spelled, so THREADS is the block parameter and the grid follows it.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECKED(expr)                                                          \
	do {                                                                   \
		expr;                                                          \
		cudaError_t err = cudaGetLastError();                          \
		if (err != cudaSuccess)                                        \
			printf("launch: %s\n", cudaGetErrorString(err));       \
	} while (0)

#define THREADS 128

__global__ void axpy(float *y, const float *x, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] += a * x[i];
}

void run_axpy(float *y, const float *x, float a, int n)
{
	CHECKED((axpy<<<(n + THREADS - 1) / THREADS, THREADS>>>(y, x, a, n)));
}
