// transpose.cu - out[c, r] = in[r, c] for a bf16 matrix of rows x cols (an
// activation [tokens, hidden] turned column-major for a GEMM operand or for
// per-column scales). The classic tiled transpose: a 32 x 32 tile staged in
// shared memory with one element of padding per row, blocks of 32 x 8
// threads each moving 4 rows, 2-byte accesses on both sides.
#include <cuda_bf16.h>

extern "C" __global__ void transpose_kernel(__nv_bfloat16 *__restrict__ out,
					    const __nv_bfloat16 *__restrict__ in,
					    int rows, int cols)
{
	__shared__ __nv_bfloat16 tile[32][32 + 1];
	const int x = blockIdx.x * 32 + threadIdx.x;
	const int y = blockIdx.y * 32 + threadIdx.y;
	for (int j = 0; j < 32; j += 8)
		if (x < cols && y + j < rows)
			tile[threadIdx.y + j][threadIdx.x] = in[(long)(y + j) * cols + x];
	__syncthreads();
	const int ox = blockIdx.y * 32 + threadIdx.x;
	const int oy = blockIdx.x * 32 + threadIdx.y;
	for (int j = 0; j < 32; j += 8)
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
	dim3 grid((cols + 31) / 32, (rows + 31) / 32), block(32, 8);
	transpose_kernel<<<grid, block, 0, stream>>>(out, in, rows, cols);
	return cudaGetLastError();
}
#endif
