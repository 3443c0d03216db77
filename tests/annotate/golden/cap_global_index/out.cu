// A block size capped at run time, `min(n, 256)`, for a kernel that takes
// its element by the global index over blockDim.x, with the grid counting
// blocks of the cap: any block size up to the cap serves, so the cap is
// the block parameter and the grid follows it.
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef ITEMS_PER_THREAD
#define ITEMS_PER_THREAD 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#define MIN(a, b) ((a) < (b) ? (a) : (b))

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil(((n + BLOCK_SIZE - 1) / BLOCK_SIZE), ITEMS_PER_THREAD)) block(((n) < (BLOCK_SIZE) ? (n) : (BLOCK_SIZE)))
#pragma kt arg x float[n] inout
#pragma kt arg n long = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
negate(float *x, long n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		const long i = (threadIdx.x + blockIdx.x * blockDim.x) + kt_item * gridDim.x * blockDim.x;
		if (i >= n)
			return;
		x[i] = -x[i];
	}
}

#ifndef __CUDACC_RTC__
void negate_all(float *x, long n, cudaStream_t s)
{
	const long blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
	negate<<<(((blocks) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), MIN(n, BLOCK_SIZE), 0, s>>>(x, n);
}
#endif
