// transpose: out = in^T for a rows x cols float matrix, through a 32x32
// shared tile padded by one column against bank conflicts; 32x8 threads,
// each thread moves TILE_DIM / BLOCK_ROWS elements.
#include <cuda_runtime.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose_kernel(float *__restrict__ out,
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

void transpose(float *out, const float *in, int rows, int cols,
	       cudaStream_t stream)
{
	dim3 grid((cols + TILE_DIM - 1) / TILE_DIM,
		  (rows + TILE_DIM - 1) / TILE_DIM);
	dim3 block(TILE_DIM, BLOCK_ROWS);
	transpose_kernel<<<grid, block, 0, stream>>>(out, in, rows, cols);
}
