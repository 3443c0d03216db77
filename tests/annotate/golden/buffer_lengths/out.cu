#include <cuda_runtime.h>
#ifndef __CUDACC_RTC__
#include <vector>
#endif

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 128
#endif
#ifndef BLOCK_SIZE_3
#define BLOCK_SIZE_3 64
#endif
#ifndef BLOCK_SIZE_4
#define BLOCK_SIZE_4 128
#endif
#ifndef BLOCK_SIZE_5
#define BLOCK_SIZE_5 256
#endif
#ifndef ITEMS_PER_THREAD
#define ITEMS_PER_THREAD 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef SPLIT
#define SPLIT 1
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif
#ifndef MIN_BLOCKS_3
#define MIN_BLOCKS_3 0
#endif
#ifndef ITEMS_PER_THREAD_2
#define ITEMS_PER_THREAD_2 1
#endif
#ifndef MIN_BLOCKS_4
#define MIN_BLOCKS_4 0
#endif
#ifndef ITEMS_PER_THREAD_3
#define ITEMS_PER_THREAD_3 1
#endif
#ifndef MIN_BLOCKS_5
#define MIN_BLOCKS_5 0
#endif

/* guard `if (i < n)`: x holds n elements */
#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, ITEMS_PER_THREAD)) block(BLOCK_SIZE)
#pragma kt arg x float[n] inout
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
scale(float *x, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			x[i] *= 2.0f;
	}
}

/* an early return, and a 2-D index under a grid-stride loop */
#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param SPLIT values(1, 2, 4, 8, 16, 32) default(1)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows, SPLIT) block(BLOCK_SIZE_2)
#pragma kt arg y float[rows * d] out
#pragma kt arg x float[rows * d] in
#pragma kt arg bias float[d] in
#pragma kt arg rows int = rows
#pragma kt arg d int = d
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif
add_rows(float *y, const float *x, const float *bias, int rows,
                         int d)
{
	int row = blockIdx.x;
	if (row >= rows)
		return;
	for (int col = threadIdx.x + (SPLIT == 1 ? 0 : blockIdx.y * blockDim.x); col < d; col += (blockDim.x) * (SPLIT == 1 ? 1 : gridDim.y))
		y[row * d + col] = x[row * d + col] + __ldg(&bias[col]);
}

/* no guard bounds the index: only the host's allocation says */
#pragma kt param BLOCK_SIZE_3 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(64)
#pragma kt param MIN_BLOCKS_3 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_3 * MIN_BLOCKS_3 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
#pragma kt launch grid(rows) block(BLOCK_SIZE_3)
#pragma kt arg out float[rows * 64] out
#pragma kt arg stride int = 64
__global__ void
#if MIN_BLOCKS_3 > 0
__launch_bounds__(BLOCK_SIZE_3, MIN_BLOCKS_3)
#endif
fill(float *out, int stride)
{
	out[blockIdx.x * stride + threadIdx.x] = 1.0f;
}

/* a vector access through a cast: the guard bounds the element, not the
 * four floats read from it */
#pragma kt param BLOCK_SIZE_4 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param ITEMS_PER_THREAD_2 values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS_4 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_4 * MIN_BLOCKS_4 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil((n + (BLOCK_SIZE_4 - 1)) / BLOCK_SIZE_4, ITEMS_PER_THREAD_2)) block(BLOCK_SIZE_4)
#pragma kt arg dst float[4 * n] out
#pragma kt arg src float[4 * n] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_4 > 0
__launch_bounds__(BLOCK_SIZE_4, MIN_BLOCKS_4)
#endif
copy4(float *dst, const float *src, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD_2; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			*(float4 *)&dst[4 * i] = *(const float4 *)&src[4 * i];
	}
}

/* the guard says n, the allocation 2 * n: two sources that do not agree */
#pragma kt param BLOCK_SIZE_5 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD_3 values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS_5 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_5 * MIN_BLOCKS_5 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil((n + (BLOCK_SIZE_5 - 1)) / BLOCK_SIZE_5, ITEMS_PER_THREAD_3)) block(BLOCK_SIZE_5)
// ktc: complete and uncomment: #pragma kt arg v float[?] inout
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_5 > 0
__launch_bounds__(BLOCK_SIZE_5, MIN_BLOCKS_5)
#endif
shift(float *v, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD_3; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			v[i] += 1.0f;
	}
}

#ifndef __CUDACC_RTC__
void run(float *x, int n, int rows, int d)
{
	scale<<<((((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), BLOCK_SIZE>>>(x, n);
	float *y = nullptr;
	cudaMalloc(&y, rows * d * sizeof(float));
	std::vector<float> bias(d);
	add_rows<<<dim3(rows, SPLIT), BLOCK_SIZE_2>>>(y, x + 3, bias.data(), rows, d);
	float *out;
	cudaMallocAsync((void **)&out, sizeof(float) * rows * 64, 0);
	fill<<<rows, BLOCK_SIZE_3>>>(out, 64);
	float *src = new float[4 * n];
	copy4<<<((((n + (BLOCK_SIZE_4 - 1)) / BLOCK_SIZE_4) + ITEMS_PER_THREAD_2 - 1) / ITEMS_PER_THREAD_2), BLOCK_SIZE_4>>>(x, src, n);
	float *z;
	cudaMalloc(&z, 2 * n * sizeof(float));
	shift<<<((((n + (BLOCK_SIZE_5 - 1)) / BLOCK_SIZE_5) + ITEMS_PER_THREAD_3 - 1) / ITEMS_PER_THREAD_3), BLOCK_SIZE_5>>>(z, n);
}
#endif
