// header_kernels.cuh: a header-only library's kernels; its launcher lives
// in another file, so the block sizes are free here.
#pragma once
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 16
#endif
#ifndef BLOCK_SIZE_Y
#define BLOCK_SIZE_Y 16
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 256
#endif
#ifndef BLOCK_SIZE_3
#define BLOCK_SIZE_3 256
#endif

// 2-D: a thread per element of an m x n matrix
#pragma kt param BLOCK_SIZE values(1, 2, 4, 8, 16, 32, 64) default(16)
#pragma kt param BLOCK_SIZE_Y values(1, 2, 4, 8, 16, 32, 64) default(16)
#pragma kt constraint BLOCK_SIZE * BLOCK_SIZE_Y <= 1024
// ktc: complete and uncomment: #pragma kt problem m values(?)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + BLOCK_SIZE - 1) / BLOCK_SIZE, (m + BLOCK_SIZE_Y - 1) / BLOCK_SIZE_Y) block(BLOCK_SIZE, BLOCK_SIZE_Y)
#pragma kt arg out float[m * n] out
#pragma kt arg in float[m * n] in
#pragma kt arg m int = m
#pragma kt arg n int = n
__global__ void transpose_naive(float *out, const float *in, int m, int n)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x < n && y < m)
		out[x * m + y] = in[y * n + x];
}

// a tree reduction over a shared slot per thread: the block is a power of
// two no larger than the array
#pragma kt param BLOCK_SIZE_2 values(32, 64, 128, 256) default(256)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + BLOCK_SIZE_2 - 1) / BLOCK_SIZE_2) block(BLOCK_SIZE_2)
#pragma kt arg total float[1] inout
#pragma kt arg in float[n] in
#pragma kt arg n int = n
__global__ void block_sum(float *total, const float *in, int n)
{
	__shared__ float s[256];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	s[threadIdx.x] = i < n ? in[i] : 0.0f;
	__syncthreads();
	for (int k = blockDim.x / 2; k > 0; k >>= 1) {
		if (threadIdx.x < k)
			s[threadIdx.x] += s[threadIdx.x + k];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		atomicAdd(total, s[0]);
}

// one warp: lanes exchange values by shuffles, nothing is shared
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + 32 - 1) / 32) block(32)
#pragma kt arg out float[(n + 32 - 1) / 32] out
#pragma kt arg in float[n] in
#pragma kt arg n int = n
__global__ void warp_max(float *out, const float *in, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float v = in[i];
	for (int o = 16; o > 0; o >>= 1)
		v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
	if (threadIdx.x == 0)
		out[blockIdx.x] = v;
}

// a slot per warp in shared memory: 32 slots let a block have 1024 threads
#pragma kt param BLOCK_SIZE_3 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + BLOCK_SIZE_3 - 1) / BLOCK_SIZE_3) block(BLOCK_SIZE_3)
#pragma kt arg total float[1] inout
#pragma kt arg in float[n] in
#pragma kt arg n int = n
__global__ void sum_squares(float *total, const float *in, int n)
{
	__shared__ float warp_sums[32];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float v = i < n ? in[i] * in[i] : 0.0f;
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_xor_sync(0xffffffffu, v, o);
	if (threadIdx.x % 32 == 0)
		warp_sums[threadIdx.x / 32] = v;
	__syncthreads();
	if (threadIdx.x == 0) {
		float s = 0.0f;
		for (int w = 0; w < blockDim.x / 32; w++)
			s += warp_sums[w];
		atomicAdd(total, s);
	}
}
