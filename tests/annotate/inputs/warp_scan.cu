// warp_scan.cu - prefix sums that one thread runs alone, while the rest of
// its block waits: offered the warp scan where the sum is over integers,
// every thread of the block reaches the thread-0 statement and the blocks
// are whole warps; not offered otherwise.
#include <cuda_runtime.h>

// CSR row pointers from per-row counts: the recurrence form.
__global__ void row_pointers(const int *__restrict__ counts, int *ptr,
			     int *nnz, int rows)
{
	if (blockIdx.x > 0)
		return;
	if (threadIdx.x == 0) {
		ptr[0] = 0;
		for (int r = 1; r <= rows; ++r)
			ptr[r] = ptr[r - 1] + counts[r - 1];
		*nnz = ptr[rows];
	}
}

// Each segment's start from the lengths, rounded up to a multiple of
// align, with a running total: the accumulator form (exclusive).
__global__ void segment_starts(const unsigned *__restrict__ len,
			       unsigned *start, unsigned *total, int segs,
			       unsigned align)
{
	if (!threadIdx.x) {
		unsigned run = 0;
		for (int s = 0; s < segs; s++) {
			start[s] = run;
			run += (len[s] + align - 1) / align * align;
		}
		total[0] = run;
	}
}

// A float prefix sum: another order gives other bits, not offered.
__global__ void float_prefix(const float *x, float *y, int n)
{
	if (threadIdx.x == 0) {
		y[0] = x[0];
		for (int i = 1; i < n; i++)
			y[i] = y[i - 1] + x[i];
	}
}

// Threads past n leave first: thread 0's warp may not all reach the scan.
__global__ void early_exit(const int *x, int *y, int n)
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
__global__ void term_reads_tid(const int *x, int *y, int n)
{
	if (threadIdx.x == 0) {
		y[0] = 0;
		for (int i = 0; i < n; i++)
			y[i + 1] = y[i] + x[i] * (int)threadIdx.x;
	}
}

// A local declared before the loop is read inside it.
__global__ void pre_local(const int *x, int *y, int n, int k)
{
	if (threadIdx.x == 0) {
		const int w = k * 2;
		y[0] = 0;
		for (int i = 0; i < n; i++)
			y[i + 1] = y[i] + x[i] * w;
	}
}

void run_all(const int *counts, int *ptr, int *nnz, const unsigned *len,
	     unsigned *start, unsigned *total, const float *x, float *y,
	     int rows, int segs, int n, cudaStream_t st)
{
	row_pointers<<<1, 256, 0, st>>>(counts, ptr, nnz, rows);
	segment_starts<<<1, 64, 0, st>>>(len, start, total, segs, 16u);
	float_prefix<<<1, 128, 0, st>>>(x, y, n);
	early_exit<<<1, 128, 0, st>>>(counts, ptr, n);
	term_reads_tid<<<1, 128, 0, st>>>(counts, ptr, n);
	pre_local<<<1, 128, 0, st>>>(counts, ptr, n, 3);
}
