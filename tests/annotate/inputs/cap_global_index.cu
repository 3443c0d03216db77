// A block size capped at run time, `min(n, 256)`, for a kernel that takes
// its element by the global index over blockDim.x, with the grid counting
// blocks of the cap: any block size up to the cap serves, so the cap is
// the block parameter and the grid follows it.
#include <cuda_runtime.h>

#define MIN(a, b) ((a) < (b) ? (a) : (b))

__global__ void negate(float *x, long n)
{
	const long i = threadIdx.x + blockIdx.x * blockDim.x;
	if (i >= n)
		return;
	x[i] = -x[i];
}

void negate_all(float *x, long n, cudaStream_t s)
{
	const long blocks = (n + 256 - 1) / 256;
	negate<<<blocks, MIN(n, 256), 0, s>>>(x, n);
}
