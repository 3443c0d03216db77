// Lengths the kernel body does not prove, left to complete (golden
// derived_lengths_unproven): each kernel has one use ktc cannot bound.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 128
#endif
#ifndef BLOCK_SIZE_3
#define BLOCK_SIZE_3 128
#endif
#ifndef BLOCK_SIZE_4
#define BLOCK_SIZE_4 128
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
#ifndef MIN_BLOCKS_3
#define MIN_BLOCKS_3 0
#endif
#ifndef MIN_BLOCKS_4
#define MIN_BLOCKS_4 0
#endif
#ifndef MIN_BLOCKS_5
#define MIN_BLOCKS_5 0
#endif

struct rgb {
	unsigned char r, g, b;
};

__device__ void put(float *p, float v) { *p = v; }

// i - 1 is -1 for the first thread: an index that may be negative
#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, ITEMS_PER_THREAD)) block(BLOCK_SIZE)
#pragma kt arg dst float[n] out
// ktc: complete and uncomment: #pragma kt arg src float[?] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
shifted(float *dst, const float *src, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		const int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			dst[i] = src[i - 1];
	}
}

// the alias is assigned again: which row it points at is not its
// initialiser's
#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(n) block(BLOCK_SIZE_2)
#pragma kt arg out float[n * d] out
// ktc: complete and uncomment: #pragma kt arg in float[?] in
#pragma kt arg d int = d
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif
reassigned(float *out, const float *in, int d)
{
	const float *x = in + (long)blockIdx.x * d;
	if (threadIdx.x == 0)
		x = in;
	for (int i = threadIdx.x; i < d; i += blockDim.x)
		out[(long)blockIdx.x * d + i] = x[i];
}

// a 3-byte view of 2-byte elements: not a whole number of elements
#pragma kt param BLOCK_SIZE_3 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param MIN_BLOCKS_3 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_3 * MIN_BLOCKS_3 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(1) block(BLOCK_SIZE_3)
// ktc: complete and uncomment: #pragma kt arg p __nv_bfloat16[?] out
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_3 > 0
__launch_bounds__(BLOCK_SIZE_3, MIN_BLOCKS_3)
#endif
odd_view(__nv_bfloat16 *p, int n)
{
	rgb *c = reinterpret_cast<rgb *>(p);
	for (int i = threadIdx.x; i < n; i += blockDim.x)
		c[i].r = 0;
}

// the alias escapes to a function of the file, its address is taken
#pragma kt param MIN_BLOCKS_4 values(0, 1, 2, 4) default(0)
#pragma kt constraint 1 * MIN_BLOCKS_4 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(n) block(1)
// ktc: complete and uncomment: #pragma kt arg a float[?] inout
// ktc: complete and uncomment: #pragma kt arg b float[?] inout
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_4 > 0
__launch_bounds__(1, MIN_BLOCKS_4)
#endif
escapes(float *a, float *b, int n)
{
	float *x = a + blockIdx.x;
	put(x, 1.f);
	float *y = b + blockIdx.x;
	float **yy = &y;
	**yy = 2.f;
	(void)n;
}

// rows * packs >= 1 bounds packs only where rows is known >= 1: the host
// checks it, but then changes rows
#pragma kt param BLOCK_SIZE_4 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param MIN_BLOCKS_5 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_4 * MIN_BLOCKS_5 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem dim values(?)
#pragma kt launch grid((rows * (dim / 4) + (BLOCK_SIZE_4 - 1)) / BLOCK_SIZE_4) block(BLOCK_SIZE_4)
#pragma kt constraint rows > 0
#pragma kt constraint dim > 0
// ktc: complete and uncomment: #pragma kt arg out float[?] out
#pragma kt arg rows int = rows
#pragma kt arg dim int = dim
__global__ void
#if MIN_BLOCKS_5 > 0
__launch_bounds__(BLOCK_SIZE_4, MIN_BLOCKS_5)
#endif
flat_rows(float *out, int rows, int dim)
{
	const int packs = dim / 4;
	const long gid = (long)blockIdx.x * BLOCK_SIZE_4 + threadIdx.x;
	if (gid >= (long)rows * packs)
		return;
	out[gid / packs * dim + gid % packs * 4] = 0.f;
}

#ifndef __CUDACC_RTC__
void run_rows(float *f, int rows, int dim)
{
	if (rows <= 0 || dim <= 0)
		return;
	rows -= 1;
	flat_rows<<<(rows * (dim / 4) + (BLOCK_SIZE_4 - 1)) / BLOCK_SIZE_4, BLOCK_SIZE_4>>>(f, rows, dim);
}

void run(float *f, float *g, __nv_bfloat16 *h, int n, int d)
{
	shifted<<<((((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), BLOCK_SIZE>>>(f, g, n);
	reassigned<<<n, BLOCK_SIZE_2>>>(f, g, d);
	odd_view<<<1, BLOCK_SIZE_3>>>(h, n);
	escapes<<<n, 1>>>(f, g, n);
}
#endif
