// Which way each buffer goes (the `arg` lines' in, out, inout), for the
// ways kernels store: through a vector cast, pointer arithmetic, a member
// of an element, a local pointer, a device function, an atomic.
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 256
#endif
#ifndef BLOCK_SIZE_3
#define BLOCK_SIZE_3 256
#endif
#ifndef BLOCK_SIZE_4
#define BLOCK_SIZE_4 256
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
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif
#ifndef ITEMS_PER_THREAD_3
#define ITEMS_PER_THREAD_3 1
#endif
#ifndef MIN_BLOCKS_3
#define MIN_BLOCKS_3 0
#endif
#ifndef MIN_BLOCKS_4
#define MIN_BLOCKS_4 0
#endif

struct pair2 {
	float a, b;
};

__device__ void put(float *p, float v) { *p = v; }
__device__ float get(const float *p) { return *p; }

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, ITEMS_PER_THREAD)) block(BLOCK_SIZE)
#pragma kt arg dst float[4 * n] out
#pragma kt arg src float[4 * n] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
copy4(float *dst, float *src, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * BLOCK_SIZE + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			*(float4 *)&dst[4 * i] = *(const float4 *)&src[4 * i];
	}
}

#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD_2 values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil((n + (BLOCK_SIZE_2 - 1)) / BLOCK_SIZE_2, ITEMS_PER_THREAD_2)) block(BLOCK_SIZE_2)
#pragma kt arg out float[4 * n + 8] inout
#pragma kt arg in float[4 * n] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif
shifted(float *out, float *in, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD_2; kt_item++) {
		int i = (blockIdx.x * BLOCK_SIZE_2 + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n) {
			reinterpret_cast<uint4 *>(out + 8)[i] =
			    reinterpret_cast<const uint4 *>(in)[i];
			*(out + i) += 1.0f;
		}
	}
}

#pragma kt param BLOCK_SIZE_3 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD_3 values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS_3 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_3 * MIN_BLOCKS_3 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil((n + (BLOCK_SIZE_3 - 1)) / BLOCK_SIZE_3, ITEMS_PER_THREAD_3)) block(BLOCK_SIZE_3)
#pragma kt arg p float[2 * (n)] out
// ktc: complete and uncomment: #pragma kt arg x float[?] inout
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_3 > 0
__launch_bounds__(BLOCK_SIZE_3, MIN_BLOCKS_3)
#endif
fields(pair2 *p, float *x, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD_3; kt_item++) {
		int i = (blockIdx.x * BLOCK_SIZE_3 + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n) {
			p[i].a = x[i];
			float *o = x + n;
			put(o + i, get(x + i));
		}
	}
}

#pragma kt param BLOCK_SIZE_4 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS_4 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_4 * MIN_BLOCKS_4 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + (BLOCK_SIZE_4 - 1)) / BLOCK_SIZE_4) block(BLOCK_SIZE_4)
// ktc: complete and uncomment: #pragma kt arg hist int[?] inout
#pragma kt arg keys int[n] in
// ktc: complete and uncomment: #pragma kt arg seen int[?] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_4 > 0
__launch_bounds__(BLOCK_SIZE_4, MIN_BLOCKS_4)
#endif
count(int *hist, int *keys, int *seen, int n)
{
	int i = blockIdx.x * BLOCK_SIZE_4 + threadIdx.x;
	if (i < n) {
		atomicAdd(hist + keys[i], 1);
		if (seen == keys)
			return;
	}
}

#ifndef __CUDACC_RTC__
void run(float *a, float *b, pair2 *p, int *h, int *k, int *s, int n)
{
	copy4<<<((((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), BLOCK_SIZE>>>(a, b, n);
	shifted<<<((((n + (BLOCK_SIZE_2 - 1)) / BLOCK_SIZE_2) + ITEMS_PER_THREAD_2 - 1) / ITEMS_PER_THREAD_2), BLOCK_SIZE_2>>>(a, b, n);
	fields<<<((((n + (BLOCK_SIZE_3 - 1)) / BLOCK_SIZE_3) + ITEMS_PER_THREAD_3 - 1) / ITEMS_PER_THREAD_3), BLOCK_SIZE_3>>>(p, a, n);
	count<<<(n + (BLOCK_SIZE_4 - 1)) / BLOCK_SIZE_4, BLOCK_SIZE_4>>>(h, k, s, n);
}
#endif
