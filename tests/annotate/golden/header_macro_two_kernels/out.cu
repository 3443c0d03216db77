// Two kernels launched with the same header macro as their block, each
// grid counting blocks of it: the macro's definition is not the file's,
// so one parameter stands at every expansion, the two launches' alike
// (before, each launch's parameter saw the other's expansions, which did
// not follow it, and both stayed literals).
#include "header_macro_two_kernels.h"

#ifndef ADD_ONE_PAIR_BLOCK
#define ADD_ONE_PAIR_BLOCK 256
#endif
#ifndef ITEMS_PER_THREAD
#define ITEMS_PER_THREAD 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef ITEMS_PER_THREAD_2
#define ITEMS_PER_THREAD_2 1
#endif

#pragma kt param ADD_ONE_PAIR_BLOCK values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint ADD_ONE_PAIR_BLOCK * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil(((n + ADD_ONE_PAIR_BLOCK - 1) / ADD_ONE_PAIR_BLOCK), ITEMS_PER_THREAD)) block(ADD_ONE_PAIR_BLOCK)
#pragma kt arg x float[n] inout
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(ADD_ONE_PAIR_BLOCK, MIN_BLOCKS)
#endif
add_one(float *x, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			x[i] += 1.0f;
	}
}

#pragma kt param ITEMS_PER_THREAD_2 values(1, 2, 4, 8) default(1)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil(((n + 256 - 1) / 256), ITEMS_PER_THREAD_2)) block(256)
#pragma kt arg x float[n] inout
#pragma kt arg n int = n
__global__ void square(float *x, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD_2; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			x[i] *= x[i];
	}
}

#ifndef __CUDACC_RTC__
void add_then_square(float *x, int n, cudaStream_t s)
{
	const int blocks = (n + ADD_ONE_PAIR_BLOCK - 1) / ADD_ONE_PAIR_BLOCK;
	add_one<<<(((blocks) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), ADD_ONE_PAIR_BLOCK, 0, s>>>(x, n);
	square<<<(((blocks) + ITEMS_PER_THREAD_2 - 1) / ITEMS_PER_THREAD_2), ADD_ONE_PAIR_BLOCK, 0, s>>>(x, n);
}
#endif
