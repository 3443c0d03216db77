// fast_div.cu - integer divisions by a value the run never changes, in
// loops: offered the multiply-high by a magic number where the division
// is of 32-bit integers and the divisor is a kernel parameter or a local
// made of them; not offered otherwise.
#include <cuda_runtime.h>

#define ROW_OF(i, c) ((i) / (c))

// Row and column of each element of a rows x cols matrix, by a kernel
// parameter: both the quotient and the remainder, one magic.
__global__ void transpose_flat(const float *__restrict__ x, float *y, int rows,
			       int cols)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows * cols;
	     i += gridDim.x * blockDim.x) {
		int r = i / cols;
		int c = i % cols;
		y[c * rows + r] = x[i];
	}
}

// A const local divisor (half the head size) and an unsigned divisor.
__global__ void halves(const float *x, float *y, int heads, int dim,
		       unsigned groups, unsigned n)
{
	const int half = dim / 2;
	for (int i = threadIdx.x; i < heads * half; i += blockDim.x)
		y[i] = x[(i / half) * dim + i % half];
	for (unsigned j = threadIdx.x; j < n; j += blockDim.x)
		y[j] += (float)(j % groups);
}

// Not offered: a float division, a divisor read from memory, one made
// from the thread's index, a literal, a 64-bit dividend, a division in a
// macro, a division outside any loop.
__global__ void refused(const float *x, float *y, const int *div, long m,
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
	transpose_flat<<<(rows * cols + 255) / 256, 256, 0, st>>>(x, y, rows,
								  cols);
	halves<<<1, 128, 0, st>>>(x, y, heads, dim, groups, n);
	refused<<<1, 128, 0, st>>>(x, y, div, (long)rows, (int)n, cols, 2.0f);
}
#endif
