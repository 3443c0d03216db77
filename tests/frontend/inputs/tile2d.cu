// A 2-D tiled copy: a TILE x TILE shared tile padded by one column, ROWS
// rows of threads, each thread moving TILE / ROWS elements; an unrolled
// loop over them.
#include <cuda_runtime.h>

#define TILE 16
#define ROWS 4
#define LANES 32

__global__ void tiled_copy(float *dst, const float *src, int w, int h)
{
	__shared__ float tile[TILE][TILE + 1];
	int x = blockIdx.x * TILE + threadIdx.x;
	int y = blockIdx.y * TILE + threadIdx.y;
#pragma unroll 4
	for (int j = 0; j < TILE; j += ROWS)
		if (x < w && y + j < h)
			tile[threadIdx.y + j][threadIdx.x] = src[(y + j) * w + x];
	__syncthreads();
	for (int j = 0; j < TILE; j += ROWS)
		if (x < w && y + j < h)
			dst[(y + j) * w + x] = tile[threadIdx.y + j][threadIdx.x];
}

void tiled_copy_launch(float *dst, const float *src, int w, int h)
{
	dim3 block(TILE, ROWS);
	dim3 grid((w + TILE - 1) / TILE, (h + TILE - 1) / TILE);
	tiled_copy<<<grid, block>>>(dst, src, w, h);
}
