// guarded: kernels no host code of this file launches (a library's host
// side launches them from elsewhere); each maps one thread to one element
// through the global index, bounded by a size parameter.
#include <cuda_runtime.h>
#ifndef __CUDACC_RTC__
#include <cstdint>
#elif !defined(KTC_RTC_HEADERS_GIVEN)
#include <cuda/std/cstdint>
#endif

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 256
#endif
#ifndef BLOCK_SIZE_3
#define BLOCK_SIZE_3 128
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + BLOCK_SIZE - 1) / BLOCK_SIZE) block(BLOCK_SIZE)
#pragma kt arg out float[n] out
#pragma kt arg in float[n] in
// ktc: complete and uncomment: #pragma kt arg s float = ?
#pragma kt arg n int = n
__global__ void scale_kernel(float *out, const float *in, float s, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = s * in[i];
}

// the index through a 64-bit local, operands the other way round, an
// early return
#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + BLOCK_SIZE_2 - 1) / BLOCK_SIZE_2) block(BLOCK_SIZE_2)
#pragma kt arg c float[n] out
#pragma kt arg a float[n] in
#pragma kt arg b float[n] in
#pragma kt arg n int64_t = n
__global__ void add_kernel(float *c, const float *a, const float *b,
                           int64_t n)
{
	const int64_t i = threadIdx.x + (int64_t)blockDim.x * blockIdx.x;
	if (i >= n)
		return;
	c[i] = a[i] + b[i];
}

// at most 128 threads: the default and the largest block follow
#pragma kt param BLOCK_SIZE_3 values(32, 64, 96, 128) default(128)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + BLOCK_SIZE_3 - 1) / BLOCK_SIZE_3) block(BLOCK_SIZE_3)
#pragma kt arg y float[n] inout
#pragma kt arg n int = n
__global__ void __launch_bounds__(128) square_kernel(float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = y[i] * y[i];
}
