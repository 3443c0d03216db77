// header_kernels.cuh: a header-only library's kernels; its launcher lives
// in another file, so the block sizes are free here.
#pragma once
#include <cuda_runtime.h>

// 2-D: a thread per element of an m x n matrix
__global__ void transpose_naive(float *out, const float *in, int m, int n)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x < n && y < m)
		out[x * m + y] = in[y * n + x];
}

// a tree reduction over a shared slot per thread: the block is a power of
// two no larger than the array
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
