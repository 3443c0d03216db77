// A block size from a header's macro that the kernel's __launch_bounds__
// also names: the launch bounds follow the block parameter with the grid
// and the block, or the parameter would replace the macro only in part.
#include "header_launch_bounds.h"

static __global__ void __launch_bounds__(QUANT_BLOCK_SIZE, 1)
quant(const float *x, signed char *q, int n)
{
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		q[i] = (signed char)(x[i] * 127.0f);
}

void quant_cuda(const float *x, signed char *q, int n, cudaStream_t stream)
{
	const int blocks = (n + QUANT_BLOCK_SIZE - 1) / QUANT_BLOCK_SIZE;
	const dim3 block_size(QUANT_BLOCK_SIZE, 1, 1);
	quant<<<blocks, block_size, 0, stream>>>(x, q, n);
}
