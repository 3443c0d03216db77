// A block size from a header's macro. The header is not the file's to
// change, so the parameter replaces the macro where it expands: in the
// grid's `(n + K - 1) / K` as much as in the block, or the grid would
// cover 256 elements a block while a block has 128 threads. Where an
// expansion cannot follow (a shared array the block fills), the block
// size stays.
#include "header_block_macro.h"

#ifndef SCALE_SCALE_BLOCK_SIZE
#define SCALE_SCALE_BLOCK_SIZE 256
#endif
#ifndef ITEMS_PER_THREAD
#define ITEMS_PER_THREAD 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif

#pragma kt param SCALE_SCALE_BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint SCALE_SCALE_BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil(((n + SCALE_SCALE_BLOCK_SIZE - 1) / SCALE_SCALE_BLOCK_SIZE), ITEMS_PER_THREAD)) block(SCALE_SCALE_BLOCK_SIZE)
#pragma kt arg x float[n] inout
// ktc: complete and uncomment: #pragma kt arg a float = ?
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(SCALE_SCALE_BLOCK_SIZE, MIN_BLOCKS)
#endif
scale(float *x, float a, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			x[i] *= a;
	}
}

#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint 128 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(n / 128) block(128)
#pragma kt arg x float[128 * (n / 128)] in
#pragma kt arg sums float[n / 128] out
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(128, MIN_BLOCKS_2)
#endif
block_sums(const float *x, float *sums)
{
	__shared__ float sh[SUM_BLOCK_SIZE];
	sh[threadIdx.x] = x[blockIdx.x * SUM_BLOCK_SIZE + threadIdx.x];
	__syncthreads();
	if (threadIdx.x == 0) {
		float s = 0.0f;
		for (int j = 0; j < SUM_BLOCK_SIZE; j++)
			s += sh[j];
		sums[blockIdx.x] = s;
	}
}

#ifndef __CUDACC_RTC__
void run(float *x, float *sums, float a, int n)
{
	const int blocks = (n + SCALE_SCALE_BLOCK_SIZE - 1) / SCALE_SCALE_BLOCK_SIZE;
	scale<<<(((blocks) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), SCALE_SCALE_BLOCK_SIZE>>>(x, a, n);
	block_sums<<<n / SUM_BLOCK_SIZE, SUM_BLOCK_SIZE>>>(x, sums);
}
#endif
