// A template-argument block size launched with a dim3 temporary: the
// argument and the block's x are one parameter, and the tree reduction
// over the template parameter keeps it to powers of two.
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 1024
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#pragma kt param BLOCK_SIZE values(32, 64, 128, 256, 512, 1024) default(1024)
#pragma kt constraint BLOCK_SIZE % 2 == 0
#pragma kt constraint 4 * (BLOCK_SIZE) <= DEVICE_SMEM_PER_BLOCK
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt kernel template(BLOCK_SIZE)
#pragma kt launch grid(n) block(BLOCK_SIZE, 1, 1)
#pragma kt arg x float[n * d] in
#pragma kt arg out float[n] out
#pragma kt arg d int = d
template <int BLOCK>
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
rowsum(const float *x, float *out, int d)
{
	__shared__ float sh[BLOCK];
	float s = 0.0f;
	for (int i = threadIdx.x; i < d; i += BLOCK)
		s += x[blockIdx.x * d + i];
	sh[threadIdx.x] = s;
	__syncthreads();
	for (int k = BLOCK / 2; k > 0; k >>= 1) {
		if (threadIdx.x < k)
			sh[threadIdx.x] += sh[threadIdx.x + k];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		out[blockIdx.x] = sh[0];
}

#ifndef __CUDACC_RTC__
void run(const float *x, float *out, int n, int d)
{
	rowsum<BLOCK_SIZE><<<n, dim3(BLOCK_SIZE, 1, 1)>>>(x, out, d);
}
#endif
