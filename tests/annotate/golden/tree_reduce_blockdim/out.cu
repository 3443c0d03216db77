// A block-wide tree reduction whose steps start from blockDim.x and
// halve: right only when the block is a power of two, so the block size
// parameter takes powers of two only (at 96 the sums would be wrong).
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef WARP_REDUCE
#define WARP_REDUCE 0
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 128, 256, 512, 1024) default(256)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
#pragma kt param WARP_REDUCE values(0, 1) default(0)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) block(BLOCK_SIZE)
#pragma kt arg x float[n] in
// ktc: complete and uncomment: #pragma kt arg sums float[?] out
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
block_sum(const float *x, float *sums, int n)
{
	__shared__ float sh[1024];
	int tid = threadIdx.x;
	int i = blockIdx.x * blockDim.x + tid;
	sh[tid] = i < n ? x[i] : 0.0f;
	__syncthreads();
#if WARP_REDUCE == 0
	for (int s = blockDim.x / 2; s > 0; s >>= 1) {
		if (tid < s)
			sh[tid] += sh[tid + s];
		__syncthreads();
	}
#else
	{
		float kt_r = sh[tid];
		__syncthreads();
		for (int kt_o = 16; kt_o > 0; kt_o >>= 1)
			kt_r = kt_r + __shfl_xor_sync(0xffffffffu, kt_r, kt_o);
		if (tid % 32 == 0)
			sh[tid / 32] = kt_r;
		__syncthreads();
		if (tid < 32) {
			const int kt_nw = blockDim.x / 32;
			kt_r = sh[tid < kt_nw ? tid : 0];
			for (int kt_o = 16; kt_o > 0; kt_o >>= 1) {
				float kt_y = __shfl_down_sync(0xffffffffu, kt_r, kt_o);
				if (tid + kt_o < kt_nw)
					kt_r = kt_r + kt_y;
			}
			if (tid == 0)
				sh[0] = kt_r;
		}
		__syncthreads();
	}
#endif
	if (tid == 0)
		sums[blockIdx.x] = sh[0];
}

#ifndef __CUDACC_RTC__
void run_block_sum(const float *x, float *sums, int n)
{
	block_sum<<<(n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, BLOCK_SIZE>>>(x, sums, n);
}
#endif
