// A launching macro expanded by two host functions: the block is the row
// length capped at 512, which any block size up to the cap serves (the
// kernel walks a row with blockDim.x strides). The cap is spelled once,
// in the macro's body, so the parameter replaces it there and every
// expansion follows it.
#ifndef __CUDACC_RTC__
#include <algorithm>
#endif
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
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt kernel template("float")
#pragma kt launch grid(rows) block((min(d, BLOCK_SIZE)))
#pragma kt arg out float[d * rows] out
#pragma kt arg in float[d * rows] in
#pragma kt arg a float = (2)
#pragma kt arg d int = d
template <typename T>
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
scale_rows(T *out, const T *in, T a, int d)
{
	for (int i = threadIdx.x; i < d; i += blockDim.x)
		out[blockIdx.x * d + i] = a * in[blockIdx.x * d + i];
}

#define LAUNCH_SCALE(T, A)                                                     \
	dim3 grid(rows);                                                       \
	dim3 block(std::min(d, BLOCK_SIZE));                                          \
	scale_rows<T><<<grid, block, 0, s>>>(out, in, (T)(A), d)

#ifndef __CUDACC_RTC__
void double_rows(float *out, const float *in, int rows, int d, cudaStream_t s)
{
	LAUNCH_SCALE(float, 2);
}

void halve_rows(float *out, const float *in, int rows, int d, cudaStream_t s)
{
	LAUNCH_SCALE(float, 0.5f);
}
#endif
