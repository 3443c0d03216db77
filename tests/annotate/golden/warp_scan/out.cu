// warp_scan.cu - prefix sums that one thread runs alone, while the rest of
// its block waits: offered the warp scan where the sum is over integers,
// every thread of the block reaches the thread-0 statement and the blocks
// are whole warps; not offered otherwise.
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 64
#endif
#ifndef BLOCK_SIZE_3
#define BLOCK_SIZE_3 128
#endif
#ifndef BLOCK_SIZE_4
#define BLOCK_SIZE_4 128
#endif
#ifndef BLOCK_SIZE_5
#define BLOCK_SIZE_5 128
#endif
#ifndef BLOCK_SIZE_6
#define BLOCK_SIZE_6 128
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef WARP_SCAN
#define WARP_SCAN 0
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif
#ifndef WARP_SCAN_2
#define WARP_SCAN_2 0
#endif
#ifndef FAST_DIV
#define FAST_DIV 0
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
#ifndef MIN_BLOCKS_6
#define MIN_BLOCKS_6 0
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

// CSR row pointers from per-row counts: the recurrence form.
#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
#pragma kt param WARP_SCAN values(0, 1) default(0)
// ktc: complete and uncomment: #pragma kt problem rows values(?)
#pragma kt launch grid(1) block(BLOCK_SIZE)
// ktc: complete and uncomment: #pragma kt arg counts int[?] in
// ktc: complete and uncomment: #pragma kt arg ptr int[?] inout
#pragma kt arg nnz int[1] out
#pragma kt arg rows int = rows
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
row_pointers(const int *__restrict__ counts, int *ptr,
			     int *nnz, int rows)
{
	if (blockIdx.x > 0)
		return;
#if WARP_SCAN == 0
	if (threadIdx.x == 0) {
		ptr[0] = 0;
		for (int r = 1; r <= rows; ++r)
			ptr[r] = ptr[r - 1] + counts[r - 1];
		*nnz = ptr[rows];
	}
#else
	{
		if (threadIdx.x < 32) {
			if (threadIdx.x == 0) {
				ptr[0] = 0;
			}
			__syncwarp();
			int kt_c = 0;
			bool kt_first = true;
			for (int kt_b = (1);; kt_b += 32) {
				const int r = kt_b + (int)threadIdx.x;
				const bool kt_in = r <= rows;
				if (!__shfl_sync(0xffffffffu, (int)kt_in, 0))
					break;
				if (kt_first) {
					kt_c = __shfl_sync(0xffffffffu, threadIdx.x == 0 ? (int)(ptr[r - 1]) : (int)0, 0);
					kt_first = false;
				}
				const int kt_e = kt_in ? (int)(counts[r - 1]) : (int)0;
				int kt_v = kt_e;
				for (int kt_o = 1; kt_o < 32; kt_o <<= 1) {
					const int kt_u = __shfl_up_sync(0xffffffffu, kt_v, kt_o);
					if ((int)threadIdx.x >= kt_o)
						kt_v += kt_u;
				}
				if (kt_in)
					ptr[r] = kt_c + kt_v;
				kt_c += __shfl_sync(0xffffffffu, kt_v, 31);
			}
			__syncwarp();
			if (threadIdx.x == 0) {
				*nnz = ptr[rows];
			}
		}
	}
#endif
}

// Each segment's start from the lengths, rounded up to a multiple of
// align, with a running total: the accumulator form (exclusive).
#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(64)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
#pragma kt param WARP_SCAN_2 values(0, 1) default(0)
#pragma kt param FAST_DIV values(0, 1) default(0)
// ktc: complete and uncomment: #pragma kt problem segs values(?)
#pragma kt launch grid(1) block(BLOCK_SIZE_2)
#pragma kt arg len unsigned int[segs] in
#pragma kt arg start unsigned int[segs] out
#pragma kt arg total unsigned int[1] out
#pragma kt arg segs int = segs
#pragma kt arg align unsigned int = 16
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif
segment_starts(const unsigned *__restrict__ len,
			       unsigned *start, unsigned *total, int segs,
			       unsigned align)
{
#if FAST_DIV
	const kt_fastdiv kt_fd_align = kt_fastdiv_new(align);
#else
	const kt_fastdiv kt_fd_align = {0, 0, 0};
#endif
#if WARP_SCAN_2 == 0
	if (!threadIdx.x) {
		unsigned run = 0;
		for (int s = 0; s < segs; s++) {
			start[s] = run;
			run += (FAST_DIV ? kt_fastdiv_udiv((len[s] + align - 1), kt_fd_align) : (len[s] + align - 1) / align) * align;
		}
		total[0] = run;
	}
#else
	{
		if (threadIdx.x < 32) {
			__syncwarp();
			unsigned int run = 0;
			for (int kt_b = (0);; kt_b += 32) {
				const int s = kt_b + (int)threadIdx.x;
				const bool kt_in = s < segs;
				if (!__shfl_sync(0xffffffffu, (int)kt_in, 0))
					break;
				const unsigned int kt_e = kt_in ? (unsigned int)((len[s] + align - 1) / align * align) : (unsigned int)0;
				unsigned int kt_v = kt_e;
				for (int kt_o = 1; kt_o < 32; kt_o <<= 1) {
					const unsigned int kt_u = __shfl_up_sync(0xffffffffu, kt_v, kt_o);
					if ((int)threadIdx.x >= kt_o)
						kt_v += kt_u;
				}
				if (kt_in)
					start[s] = run + (kt_v - kt_e);
				run += __shfl_sync(0xffffffffu, kt_v, 31);
			}
			__syncwarp();
			if (threadIdx.x == 0) {
				total[0] = run;
			}
		}
	}
#endif
}

// A float prefix sum: another order gives other bits, not offered.
#pragma kt param BLOCK_SIZE_3 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param MIN_BLOCKS_3 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_3 * MIN_BLOCKS_3 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(1) block(BLOCK_SIZE_3)
#pragma kt arg x float[max(1, n)] in
// ktc: complete and uncomment: #pragma kt arg y float[?] inout
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_3 > 0
__launch_bounds__(BLOCK_SIZE_3, MIN_BLOCKS_3)
#endif
float_prefix(const float *x, float *y, int n)
{
	if (threadIdx.x == 0) {
		y[0] = x[0];
		for (int i = 1; i < n; i++)
			y[i] = y[i - 1] + x[i];
	}
}

// Threads past n leave first: thread 0's warp may not all reach the scan.
#pragma kt param BLOCK_SIZE_4 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param MIN_BLOCKS_4 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_4 * MIN_BLOCKS_4 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(1) block(BLOCK_SIZE_4)
#pragma kt arg x int[n] in
#pragma kt arg y int[n + 1] inout
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_4 > 0
__launch_bounds__(BLOCK_SIZE_4, MIN_BLOCKS_4)
#endif
early_exit(const int *x, int *y, int n)
{
	if (threadIdx.x >= n)
		return;
	if (threadIdx.x == 0) {
		y[0] = 0;
		for (int i = 0; i < n; i++)
			y[i + 1] = y[i] + x[i];
	}
}

// The term reads the thread's index: not the same value in the warp.
#pragma kt param BLOCK_SIZE_5 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param MIN_BLOCKS_5 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_5 * MIN_BLOCKS_5 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(1) block(BLOCK_SIZE_5)
#pragma kt arg x int[n] in
#pragma kt arg y int[max(1, n + 1)] inout
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_5 > 0
__launch_bounds__(BLOCK_SIZE_5, MIN_BLOCKS_5)
#endif
term_reads_tid(const int *x, int *y, int n)
{
	if (threadIdx.x == 0) {
		y[0] = 0;
		for (int i = 0; i < n; i++)
			y[i + 1] = y[i] + x[i] * (int)threadIdx.x;
	}
}

// A local declared before the loop is read inside it.
#pragma kt param BLOCK_SIZE_6 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param MIN_BLOCKS_6 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_6 * MIN_BLOCKS_6 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(1) block(BLOCK_SIZE_6)
#pragma kt arg x int[n] in
#pragma kt arg y int[max(1, n + 1)] inout
#pragma kt arg n int = n
#pragma kt arg k int = 3
__global__ void
#if MIN_BLOCKS_6 > 0
__launch_bounds__(BLOCK_SIZE_6, MIN_BLOCKS_6)
#endif
pre_local(const int *x, int *y, int n, int k)
{
	if (threadIdx.x == 0) {
		const int w = k * 2;
		y[0] = 0;
		for (int i = 0; i < n; i++)
			y[i + 1] = y[i] + x[i] * w;
	}
}

#ifndef __CUDACC_RTC__
void run_all(const int *counts, int *ptr, int *nnz, const unsigned *len,
	     unsigned *start, unsigned *total, const float *x, float *y,
	     int rows, int segs, int n, cudaStream_t st)
{
	row_pointers<<<1, BLOCK_SIZE, 0, st>>>(counts, ptr, nnz, rows);
	segment_starts<<<1, BLOCK_SIZE_2, 0, st>>>(len, start, total, segs, 16u);
	float_prefix<<<1, BLOCK_SIZE_3, 0, st>>>(x, y, n);
	early_exit<<<1, BLOCK_SIZE_4, 0, st>>>(counts, ptr, n);
	term_reads_tid<<<1, BLOCK_SIZE_5, 0, st>>>(counts, ptr, n);
	pre_local<<<1, BLOCK_SIZE_6, 0, st>>>(counts, ptr, n, 3);
}
#endif
