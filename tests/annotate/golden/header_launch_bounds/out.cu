// A block size from a header's macro that the kernel's __launch_bounds__
// also names: the launch bounds follow the block parameter with the grid
// and the block, or the parameter would replace the macro only in part.
#include "header_launch_bounds.h"

#ifndef QUANT_QUANT_BLOCK_SIZE
#define QUANT_QUANT_BLOCK_SIZE 256
#endif
#ifndef ITEMS_PER_THREAD
#define ITEMS_PER_THREAD 1
#endif

#pragma kt param QUANT_QUANT_BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil(((n + QUANT_QUANT_BLOCK_SIZE - 1) / QUANT_QUANT_BLOCK_SIZE), ITEMS_PER_THREAD)) block(QUANT_QUANT_BLOCK_SIZE, 1, 1)
#pragma kt arg x float[n] in
#pragma kt arg q signed char[n] out
#pragma kt arg n int = n
static __global__ void __launch_bounds__(QUANT_QUANT_BLOCK_SIZE, 1)
quant(const float *x, signed char *q, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		const int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			q[i] = (signed char)(x[i] * 127.0f);
	}
}

#ifndef __CUDACC_RTC__
void quant_cuda(const float *x, signed char *q, int n, cudaStream_t stream)
{
	const int blocks = (n + QUANT_QUANT_BLOCK_SIZE - 1) / QUANT_QUANT_BLOCK_SIZE;
	const dim3 block_size(QUANT_QUANT_BLOCK_SIZE, 1, 1);
	quant<<<(((blocks) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), block_size, 0, stream>>>(x, q, n);
}
#endif
