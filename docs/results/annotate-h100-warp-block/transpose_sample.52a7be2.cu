// transpose.cu - out[c, r] = in[r, c] for a bf16 matrix of rows x cols (an
// activation [tokens, hidden] turned column-major for a GEMM operand or for
// per-column scales). The classic tiled transpose: a 32 x 32 tile staged in
// shared memory with one element of padding per row, blocks of 32 x 8
// threads each moving 4 rows, 2-byte accesses on both sides.
#include <cuda_bf16.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 32
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef PAD
#define PAD 1
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(32)
#pragma kt constraint (BLOCK_SIZE) * (8) <= DEVICE_MAX_THREADS_PER_BLOCK
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * 8 * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
#pragma kt param PAD values(0, 1) default(1)
// ktc: complete and uncomment: #pragma kt problem cols values(?)
// ktc: complete and uncomment: #pragma kt problem rows values(?)
#pragma kt launch grid((cols + (BLOCK_SIZE - 1)) / BLOCK_SIZE, (rows + (BLOCK_SIZE - 1)) / BLOCK_SIZE) block(BLOCK_SIZE, 8)
#pragma kt constraint rows > 0
#pragma kt constraint cols > 0
#pragma kt arg out __nv_bfloat16[rows * cols] out
#pragma kt arg in __nv_bfloat16[rows * cols] in
#pragma kt arg rows int = rows
#pragma kt arg cols int = cols
extern "C" __global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE * 8, MIN_BLOCKS)
#endif
transpose_kernel(__nv_bfloat16 *__restrict__ out,
					    const __nv_bfloat16 *__restrict__ in,
					    int rows, int cols)
{
	__shared__ __nv_bfloat16 tile[BLOCK_SIZE][32 + PAD];
	const int x = blockIdx.x * BLOCK_SIZE + threadIdx.x;
	const int y = blockIdx.y * BLOCK_SIZE + threadIdx.y;
	for (int j = 0; j < BLOCK_SIZE; j += 8)
		if (x < cols && y + j < rows)
			tile[threadIdx.y + j][threadIdx.x] = in[(long)(y + j) * cols + x];
	__syncthreads();
	const int ox = blockIdx.y * BLOCK_SIZE + threadIdx.x;
	const int oy = blockIdx.x * BLOCK_SIZE + threadIdx.y;
	for (int j = 0; j < BLOCK_SIZE; j += 8)
		if (ox < rows && oy + j < cols)
			out[(long)(oy + j) * rows + ox] = tile[threadIdx.x][threadIdx.y + j];
}

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>

static cudaError_t transpose(__nv_bfloat16 *out, const __nv_bfloat16 *in, int rows,
			     int cols, cudaStream_t stream)
{
	if (rows <= 0 || cols <= 0)
		return cudaErrorInvalidValue;
	dim3 grid((cols + (BLOCK_SIZE - 1)) / BLOCK_SIZE, (rows + (BLOCK_SIZE - 1)) / BLOCK_SIZE), block(BLOCK_SIZE, 8);
	transpose_kernel<<<grid, block, 0, stream>>>(out, in, rows, cols);
	return cudaGetLastError();
}
#endif
