// Locals a macro body declares all stand at the macro's expansion: the
// block's `dim3 block(...)` is told from the grid's `dim3 grid(...)` by
// the declaration itself, not by where it stands, so the launch line has
// the block the macro computes (before: 'block(rows)', the grid's value).
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 512
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(512)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem cols values(?)
#pragma kt launch grid(rows) block((cols < BLOCK_SIZE ? cols : BLOCK_SIZE))
#pragma kt arg x float[cols * rows] inout
#pragma kt arg rows int = rows
#pragma kt arg cols int = cols
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
halve_rows(float *x, int rows, int cols)
{
	for (int c = threadIdx.x; c < cols; c += blockDim.x)
		x[blockIdx.x * cols + c] *= 0.5f;
}

#define LAUNCH_HALVE(X)                                                        \
	dim3 grid(rows);                                                       \
	dim3 block(cols < BLOCK_SIZE ? cols : BLOCK_SIZE);                                   \
	halve_rows<<<grid, block, 0, s>>>(X, rows, cols)

#ifndef __CUDACC_RTC__
void halve(float *x, int rows, int cols, cudaStream_t s)
{
	LAUNCH_HALVE(x);
}
#endif
