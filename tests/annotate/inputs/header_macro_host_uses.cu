// A header's block-size macro expands in host code beyond the launch
// that makes it a parameter: as the cap of another kernel's block, and
// in a grid over the y dimension that counts 4 elements a thread of a
// block in x. The macro's definition is not the file's, so each of
// those expansions follows the parameter, as every use of a macro of
// the file's own would; an expansion in a preprocessor line could not,
// and would keep it a literal.
#include <algorithm>

#include "header_macro_host_uses.h"

__global__ void scale_rows(float *x, int cols)
{
	const int row = blockIdx.x;
	const int c = 4 * (blockDim.x * blockIdx.y + threadIdx.x);
	for (int j = 0; j < 4 && c + j < cols; j++)
		x[row * cols + c + j] *= 2.0f;
}

__global__ void add_rows(float *x, const float *y, int cols)
{
	const int row = blockIdx.x;
	for (int c = threadIdx.x; c < cols; c += blockDim.x)
		x[row * cols + c] += y[row * cols + c];
}

void scale_then_add(float *x, const float *y, int rows, int cols,
                    cudaStream_t s)
{
	const int chunks = (cols + 4 * ROWS_BLOCK - 1) / (4 * ROWS_BLOCK);
	scale_rows<<<dim3(rows, chunks, 1), dim3(ROWS_BLOCK, 1, 1), 0, s>>>(
	    x, cols);
	int threads = (cols + 31) / 32 * 32;
	threads = std::min(threads, ROWS_BLOCK);
	add_rows<<<rows, threads, 0, s>>>(x, y, cols);
}
