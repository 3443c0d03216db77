// fast_div.cu - integer divisions by a value the run never changes, in
// loops: offered the multiply-high by a magic number where the division
// is of 32-bit integers and the divisor is a kernel parameter or a local
// made of them; not offered otherwise.
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
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef FAST_DIV
#define FAST_DIV 0
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif
#ifndef FAST_DIV_2
#define FAST_DIV_2 0
#endif
#ifndef MIN_BLOCKS_3
#define MIN_BLOCKS_3 0
#endif
/* ktc fast_div: n / d and n % d by a multiply-high (Granlund and
 * Montgomery 1994, Fig. 4.1, N = 32), exact for every 32-bit n and
 * d >= 1; kt_fastdiv_new once per divisor */
typedef struct kt_fastdiv {
	unsigned d, m, l;
} kt_fastdiv;
__device__ __forceinline__ kt_fastdiv kt_fastdiv_new(unsigned d)
{
	kt_fastdiv f;
	f.d = d;
	f.l = d > 1 ? 32 - __clz(d - 1) : 0;
	f.m = d ? (unsigned)((1ull << 32) * ((1ull << f.l) - d) / d + 1)
	        : 0;
	return f;
}
__device__ __forceinline__ unsigned kt_fastdiv_q(unsigned n, kt_fastdiv f)
{
	return (unsigned)(((unsigned long long)__umulhi(n, f.m) + n) >> f.l);
}
__device__ __forceinline__ unsigned kt_fastdiv_udiv(unsigned n, kt_fastdiv f)
{
	return f.d ? kt_fastdiv_q(n, f) : n / f.d;
}
__device__ __forceinline__ unsigned kt_fastdiv_umod(unsigned n, kt_fastdiv f)
{
	return f.d ? n - kt_fastdiv_q(n, f) * f.d : n % f.d;
}
/* int: the multiply where n >= 0 and d > 0, C's operator elsewhere */
__device__ __forceinline__ int kt_fastdiv_div(int n, kt_fastdiv f)
{
	int d = (int)f.d;
	return n >= 0 && d > 0 ? (int)kt_fastdiv_q((unsigned)n, f) : n / d;
}
__device__ __forceinline__ int kt_fastdiv_mod(int n, kt_fastdiv f)
{
	int d = (int)f.d;
	return n >= 0 && d > 0 ? n - (int)kt_fastdiv_q((unsigned)n, f) * d
	                       : n % d;
}

#define ROW_OF(i, c) ((i) / (c))

// Row and column of each element of a rows x cols matrix, by a kernel
// parameter: both the quotient and the remainder, one magic.
#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
#pragma kt param FAST_DIV values(0, 1) default(0)
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem cols values(?)
#pragma kt launch grid((rows * cols + (BLOCK_SIZE - 1)) / BLOCK_SIZE) block(BLOCK_SIZE)
#pragma kt arg x float[rows * cols] in
// ktc: complete and uncomment: #pragma kt arg y float[?] out
#pragma kt arg rows int = rows
#pragma kt arg cols int = cols
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
transpose_flat(const float *__restrict__ x, float *y, int rows,
			       int cols)
{
#if FAST_DIV
	const kt_fastdiv kt_fd_cols = kt_fastdiv_new(cols);
#else
	const kt_fastdiv kt_fd_cols = {0, 0, 0};
#endif
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows * cols;
	     i += gridDim.x * blockDim.x) {
		int r = (FAST_DIV ? kt_fastdiv_div(i, kt_fd_cols) : i / cols);
		int c = (FAST_DIV ? kt_fastdiv_mod(i, kt_fd_cols) : i % cols);
		y[c * rows + r] = x[i];
	}
}

// A const local divisor (half the head size) and an unsigned divisor.
#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
#pragma kt param FAST_DIV_2 values(0, 1) default(0)
// ktc: complete and uncomment: #pragma kt problem heads values(?)
// ktc: complete and uncomment: #pragma kt problem dim values(?)
// ktc: complete and uncomment: #pragma kt problem n values(?)
// ktc: complete and uncomment: #pragma kt problem groups values(?)
#pragma kt launch grid(1) block(BLOCK_SIZE_2)
// ktc: complete and uncomment: #pragma kt arg x float[?] in
#pragma kt arg y float[max(heads * (dim / 2), n)] inout
#pragma kt arg heads int = heads
#pragma kt arg dim int = dim
#pragma kt arg groups unsigned int = groups
#pragma kt arg n unsigned int = n
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif
halves(const float *x, float *y, int heads, int dim,
		       unsigned groups, unsigned n)
{
	const int half = dim / 2;
#if FAST_DIV_2
	const kt_fastdiv kt_fd_half = kt_fastdiv_new(half);
	const kt_fastdiv kt_fd_groups = kt_fastdiv_new(groups);
#else
	const kt_fastdiv kt_fd_half = {0, 0, 0};
	const kt_fastdiv kt_fd_groups = {0, 0, 0};
#endif
	for (int i = threadIdx.x; i < heads * half; i += blockDim.x)
		y[i] = x[((FAST_DIV_2 ? kt_fastdiv_div(i, kt_fd_half) : i / half)) * dim + (FAST_DIV_2 ? kt_fastdiv_mod(i, kt_fd_half) : i % half)];
	for (unsigned j = threadIdx.x; j < n; j += blockDim.x)
		y[j] += (float)((FAST_DIV_2 ? kt_fastdiv_umod(j, kt_fd_groups) : j % groups));
}

// Not offered: a float division, a divisor read from memory, one made
// from the thread's index, a literal, a 64-bit dividend, a division in a
// macro, a division outside any loop.
#pragma kt param BLOCK_SIZE_3 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param MIN_BLOCKS_3 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_3 * MIN_BLOCKS_3 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem cols values(?)
#pragma kt launch grid(1) block(BLOCK_SIZE_3)
#pragma kt arg x float[n] in
#pragma kt arg y float[n] inout
#pragma kt arg div int[1] in
#pragma kt arg m long = rows
#pragma kt arg n int = n
#pragma kt arg d int = cols
#pragma kt arg s float = 2.0f
__global__ void
#if MIN_BLOCKS_3 > 0
__launch_bounds__(BLOCK_SIZE_3, MIN_BLOCKS_3)
#endif
refused(const float *x, float *y, const int *div, long m,
			int n, int d, float s)
{
	int t = threadIdx.x;
	for (int i = t; i < n; i += blockDim.x) {
		y[i] = x[i] / s;
		y[i] += (float)(i / div[0]);
		y[i] += (float)(i / (t - t + 3));
		y[i] += (float)(i / 7);
		y[i] += (float)((m + i) / d);
		y[i] += (float)ROW_OF(i, d);
	}
	if (t < n)
		y[t] = (float)(t / d);
}

#ifndef __CUDACC_RTC__
void run(const float *x, float *y, const int *div, int rows, int cols,
	 int heads, int dim, unsigned groups, unsigned n, cudaStream_t st)
{
	transpose_flat<<<(rows * cols + (BLOCK_SIZE - 1)) / BLOCK_SIZE, BLOCK_SIZE, 0, st>>>(x, y, rows,
								  cols);
	halves<<<1, BLOCK_SIZE_2, 0, st>>>(x, y, heads, dim, groups, n);
	refused<<<1, BLOCK_SIZE_3, 0, st>>>(x, y, div, (long)rows, (int)n, cols, 2.0f);
}
#endif
