// transpose: out = in^T for a rows x cols float matrix, through a 32x32
// shared tile padded by one column against bank conflicts; 32x8 threads,
// each thread moves TILE_DIM / BLOCK_ROWS elements.
#include <cuda_runtime.h>

#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

#pragma kt param TILE_DIM values(4, 8, 16, 32, 64, 128) default(32)
#pragma kt constraint 4 * (TILE_DIM + 1) * (TILE_DIM) <= DEVICE_SMEM_PER_BLOCK
#pragma kt param BLOCK_ROWS values(1, 2, 4, 8, 16, 32) default(8)
#pragma kt constraint (TILE_DIM) * (BLOCK_ROWS) <= DEVICE_MAX_THREADS_PER_BLOCK
#pragma kt constraint TILE_DIM % BLOCK_ROWS == 0
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint TILE_DIM * BLOCK_ROWS * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem cols values(?)
// ktc: complete and uncomment: #pragma kt problem rows values(?)
#pragma kt launch grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM) block(TILE_DIM, BLOCK_ROWS)
// ktc: complete and uncomment: #pragma kt arg out float[?] out
// ktc: complete and uncomment: #pragma kt arg in float[?] in
#pragma kt arg rows int = rows
#pragma kt arg cols int = cols
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(TILE_DIM * BLOCK_ROWS, MIN_BLOCKS)
#endif
transpose_kernel(float *__restrict__ out,
				 const float *__restrict__ in, int rows,
				 int cols)
{
	__shared__ float tile[TILE_DIM][TILE_DIM + 1];
	int x = blockIdx.x * TILE_DIM + threadIdx.x;
	int y = blockIdx.y * TILE_DIM + threadIdx.y;
	for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
		if (x < cols && y + j < rows)
			tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
	__syncthreads();
	x = blockIdx.y * TILE_DIM + threadIdx.x;
	y = blockIdx.x * TILE_DIM + threadIdx.y;
	for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
		if (x < rows && y + j < cols)
			out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

#ifndef __CUDACC_RTC__
void transpose(float *out, const float *in, int rows, int cols,
	       cudaStream_t stream)
{
	dim3 grid((cols + TILE_DIM - 1) / TILE_DIM,
		  (rows + TILE_DIM - 1) / TILE_DIM);
	dim3 block(TILE_DIM, BLOCK_ROWS);
	transpose_kernel<<<grid, block, 0, stream>>>(out, in, rows, cols);
}
#endif
