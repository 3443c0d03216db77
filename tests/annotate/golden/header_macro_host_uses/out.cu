// A header's block-size macro expands in host code beyond the launch
// that makes it a parameter: as the cap of another kernel's block, and
// in a grid over the y dimension that counts 4 elements a thread of a
// block in x. The macro's definition is not the file's, so each of
// those expansions follows the parameter, as every use of a macro of
// the file's own would; an expansion in a preprocessor line could not,
// and would keep it a literal.
#ifndef __CUDACC_RTC__
#include <algorithm>
#endif

#include "header_macro_host_uses.h"

#ifndef SCALE_ROWS_ROWS_BLOCK
#define SCALE_ROWS_ROWS_BLOCK 256
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef SPLIT
#define SPLIT 1
#endif

#pragma kt param SCALE_ROWS_ROWS_BLOCK values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint SCALE_ROWS_ROWS_BLOCK * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem cols values(?)
#pragma kt launch grid(rows, ((cols + 4 * SCALE_ROWS_ROWS_BLOCK - 1) / (4 * SCALE_ROWS_ROWS_BLOCK)), 1) block(SCALE_ROWS_ROWS_BLOCK, 1, 1)
// ktc: complete and uncomment: #pragma kt arg x float[?] inout
#pragma kt arg cols int = cols
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(SCALE_ROWS_ROWS_BLOCK, MIN_BLOCKS)
#endif
scale_rows(float *x, int cols)
{
	const int row = blockIdx.x;
	const int c = 4 * (blockDim.x * blockIdx.y + threadIdx.x);
	for (int j = 0; j < 4 && c + j < cols; j++)
		x[row * cols + c + j] *= 2.0f;
}

#pragma kt param SPLIT values(1, 2, 4, 8, 16, 32) default(1)
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem cols values(?)
#pragma kt launch grid(rows, SPLIT) block((min(((cols + 31) / 32 * 32), 256)))
#pragma kt arg x float[rows * cols] inout
#pragma kt arg y float[rows * cols] in
#pragma kt arg cols int = cols
__global__ void add_rows(float *x, const float *y, int cols)
{
	const int row = blockIdx.x;
	for (int c = threadIdx.x + (SPLIT == 1 ? 0 : blockIdx.y * blockDim.x); c < cols; c += (blockDim.x) * (SPLIT == 1 ? 1 : gridDim.y))
		x[row * cols + c] += y[row * cols + c];
}

#ifndef __CUDACC_RTC__
void scale_then_add(float *x, const float *y, int rows, int cols,
                    cudaStream_t s)
{
	const int chunks = (cols + 4 * SCALE_ROWS_ROWS_BLOCK - 1) / (4 * SCALE_ROWS_ROWS_BLOCK);
	scale_rows<<<dim3(rows, chunks, 1), dim3(SCALE_ROWS_ROWS_BLOCK, 1, 1), 0, s>>>(
	    x, cols);
	int threads = (cols + 31) / 32 * 32;
	threads = std::min(threads, SCALE_ROWS_ROWS_BLOCK);
	add_rows<<<dim3(rows, SPLIT), threads, 0, s>>>(x, y, cols);
}
#endif
