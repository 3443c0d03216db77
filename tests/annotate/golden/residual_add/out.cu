// residual_add: out[row, :] = x[row, :] + r[row, :] for half rows, one block
// of 128 threads per row walking the row element by element.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 128
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt launch grid(rows) block(BLOCK_SIZE)
#pragma kt arg hidden int = hidden
// ktc: complete and uncomment: #pragma kt arg out half[?] out
// ktc: complete and uncomment: #pragma kt arg x half[?] in
// ktc: complete and uncomment: #pragma kt arg r half[?] in
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem hidden values(?)
__global__ void residual_add_kernel(half *__restrict__ out,
				    const half *__restrict__ x,
				    const half *__restrict__ r, int hidden)
{
	const size_t row = (size_t)blockIdx.x * hidden;
	for (int i = threadIdx.x; i < hidden; i += BLOCK_SIZE)
		out[row + i] = __hadd(x[row + i], r[row + i]);
}

#ifndef __CUDACC_RTC__
void residual_add(half *out, const half *x, const half *r, int rows,
		  int hidden, cudaStream_t stream)
{
	residual_add_kernel<<<rows, BLOCK_SIZE, 0, stream>>>(out, x, r, hidden);
}
#endif
