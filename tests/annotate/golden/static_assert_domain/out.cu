// Values a static_assert refuses stay out of the domain, decided by
// folding its condition at each value (before: compiled, a torch file's
// seconds a value, or missed where NVRTC does not instantiate the code
// around it). kThreads is pinned by `kTopK % kThreads == 0` and `kTopK /
// kThreads == 2` (each thread two items; the second alone holds from 683
// to 1024): it stays a literal. kBlock must be a multiple of 128: the
// other block sizes are not offered. An assertion in an `if constexpr`
// branch, which the template may discard, decides nothing (kScale's
// block keeps its whole domain; the compiles decide).
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef SCALE
#define SCALE 256
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

constexpr int kTopK = 2048;
constexpr int kThreads = 1024;

// ktc: complete and uncomment: #pragma kt problem rows values(?)
#pragma kt launch grid(rows) block(1024)
#pragma kt arg out float[2048 * rows] out
#pragma kt arg in float[2048 * rows] in
__global__ __launch_bounds__(kThreads) void pairs(float *out,
                                                  const float *in)
{
	static_assert(kTopK % kThreads == 0, "whole items");
	static_assert(kTopK / kThreads == 2, "two items a thread");
	const float *row = in + blockIdx.x * kTopK;
	out[blockIdx.x * kTopK + threadIdx.x] = row[threadIdx.x];
	out[blockIdx.x * kTopK + threadIdx.x + kThreads] =
	    row[threadIdx.x + kThreads];
}

#pragma kt param BLOCK_SIZE values(128, 256, 384, 512, 640, 768, 896, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil((n + BLOCK_SIZE - 1) / BLOCK_SIZE, ITEMS_PER_THREAD)) block(BLOCK_SIZE)
#pragma kt arg x float[n] inout
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
twice(float *x, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			x[i] *= 2.0f;
	}
}

constexpr int kScale = SCALE;

#pragma kt param SCALE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint SCALE * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt kernel template(0)
#pragma kt launch grid((n + SCALE - 1) / SCALE) block(SCALE)
#pragma kt arg x float[n] inout
#pragma kt arg n int = n
template <int kMode> __global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(SCALE, MIN_BLOCKS_2)
#endif
scale(float *x, int n)
{
	if constexpr (kMode == 1) {
		static_assert((kScale + kMode) / 128 == 2, "mode 1: 256 to 383");
	}
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= 0.5f;
}

#ifndef __CUDACC_RTC__
void run(float *out, const float *in, int rows, float *x, int n)
{
	scale<0><<<(n + kScale - 1) / kScale, kScale>>>(x, n);
	pairs<<<rows, kThreads>>>(out, in);
	constexpr int kBlock = BLOCK_SIZE;
	static_assert(kBlock % 128 == 0, "whole groups of 128 threads");
	twice<<<((((n + kBlock - 1) / kBlock) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), kBlock>>>(x, n);
}
#endif
