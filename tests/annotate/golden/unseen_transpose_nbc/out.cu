// transpose_nbc: the "no bank conflicts" square-matrix transpose: a 32x32
// tile in shared memory with one padding column, 32x8 threads per block.
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
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(n / TILE_DIM, n / TILE_DIM, 1) block(TILE_DIM, BLOCK_ROWS, 1)
// ktc: complete and uncomment: #pragma kt arg odata float[?] out
// ktc: complete and uncomment: #pragma kt arg idata float[?] in
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(TILE_DIM * BLOCK_ROWS, MIN_BLOCKS)
#endif
transpose_no_bank_conflicts(float *odata, const float *idata)
{
	__shared__ float tile[TILE_DIM][TILE_DIM + 1];

	int x = blockIdx.x * TILE_DIM + threadIdx.x;
	int y = blockIdx.y * TILE_DIM + threadIdx.y;
	int width = gridDim.x * TILE_DIM;

	for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
		tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];

	__syncthreads();

	x = blockIdx.y * TILE_DIM + threadIdx.x;
	y = blockIdx.x * TILE_DIM + threadIdx.y;

	for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
		odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

#ifndef __CUDACC_RTC__
int run_transpose(float *d_out, const float *d_in, int n)
{
	dim3 dimGrid(n / TILE_DIM, n / TILE_DIM, 1);
	dim3 dimBlock(TILE_DIM, BLOCK_ROWS, 1);
	transpose_no_bank_conflicts<<<dimGrid, dimBlock>>>(d_out, d_in);
	return cudaGetLastError() == cudaSuccess ? 0 : -1;
}
#endif
