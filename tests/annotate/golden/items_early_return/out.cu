// One element per thread behind an early return: `if (i >= n) return;`
// (and `n <= i`) takes ITEMS_PER_THREAD as `if (i < n)` does, since
// items run in increasing index order; a kernel with another return
// does not (it would end the thread's later items). A block size
// written as a macro the template tunes gives the launch bounds.
#ifndef __CUDACC_RTC__
#include <cstdint>
#elif !defined(KTC_RTC_HEADERS_GIVEN)
#include <cuda/std/cstdint>
#endif

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 128
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 128
#endif
#ifndef FILL_ITEMS_PER_THREAD
#define FILL_ITEMS_PER_THREAD 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef NEGATE_ITEMS_PER_THREAD
#define NEGATE_ITEMS_PER_THREAD 1
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif
#ifndef MIN_BLOCKS_3
#define MIN_BLOCKS_3 0
#endif

#ifndef FILL_BLOCK
#define FILL_BLOCK 256
#endif

#pragma kt param FILL_BLOCK values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param FILL_ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint FILL_BLOCK * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem k values(?)
#pragma kt kernel template("float")
#pragma kt launch grid(div_ceil(((k + FILL_BLOCK - 1) / FILL_BLOCK), FILL_ITEMS_PER_THREAD)) block(FILL_BLOCK)
#pragma kt arg dst float[k] out
#pragma kt arg k int64_t = k
// ktc: complete and uncomment: #pragma kt arg value float = ?
template <typename T>
static __global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(FILL_BLOCK, MIN_BLOCKS)
#endif
fill(T *dst, const int64_t k, const T value)
{
#pragma unroll
	for (int kt_item = 0; kt_item < FILL_ITEMS_PER_THREAD; kt_item++) {
		const int64_t i = ((int64_t)blockDim.x * blockIdx.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i >= k) {
			return;
		}
		dst[i] = value;
	}
}

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param NEGATE_ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, NEGATE_ITEMS_PER_THREAD)) block(BLOCK_SIZE)
#pragma kt arg x float[n] inout
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS_2)
#endif
negate(float *x, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < NEGATE_ITEMS_PER_THREAD; kt_item++) {
		const int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (n <= i)
			return;
		x[i] = -x[i];
	}
}

#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param MIN_BLOCKS_3 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_3 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + (BLOCK_SIZE_2 - 1)) / BLOCK_SIZE_2) block(BLOCK_SIZE_2)
#pragma kt arg y float[n] inout
#pragma kt arg x float[n] in
#pragma kt arg m int[n] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_3 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_3)
#endif
masked_copy(float *y, const float *x, const int *m, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		if (!m[i])
			return;
		y[i] = x[i];
	}
}

#ifndef __CUDACC_RTC__
void run(float *d, int64_t k, float v, float *y, const float *x,
         const int *m, int n)
{
	const int64_t nb = (k + FILL_BLOCK - 1) / FILL_BLOCK;
	fill<<<(((nb) + FILL_ITEMS_PER_THREAD - 1) / FILL_ITEMS_PER_THREAD), FILL_BLOCK>>>(d, k, v);
	negate<<<((((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) + NEGATE_ITEMS_PER_THREAD - 1) / NEGATE_ITEMS_PER_THREAD), BLOCK_SIZE>>>(y, n);
	masked_copy<<<(n + (BLOCK_SIZE_2 - 1)) / BLOCK_SIZE_2, BLOCK_SIZE_2>>>(y, x, m, n);
}
#endif
