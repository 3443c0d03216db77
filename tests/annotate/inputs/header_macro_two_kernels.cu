// Two kernels launched with the same header macro as their block, each
// grid counting blocks of it: the macro's definition is not the file's,
// so one parameter stands at every expansion, the two launches' alike
// (before, each launch's parameter saw the other's expansions, which did
// not follow it, and both stayed literals).
#include "header_macro_two_kernels.h"

__global__ void add_one(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] += 1.0f;
}

__global__ void square(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= x[i];
}

void add_then_square(float *x, int n, cudaStream_t s)
{
	const int blocks = (n + PAIR_BLOCK - 1) / PAIR_BLOCK;
	add_one<<<blocks, PAIR_BLOCK, 0, s>>>(x, n);
	square<<<blocks, PAIR_BLOCK, 0, s>>>(x, n);
}
