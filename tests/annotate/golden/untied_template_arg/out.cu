// A template-argument block size launched with a dim3 temporary: the
// argument and the block's x are one parameter, and the tree reduction
// over the template parameter keeps it to powers of two.
#include <cuda_runtime.h>

#ifndef BLOCK_DIM
#define BLOCK_DIM 1024
#endif
#pragma kt param BLOCK_DIM values(128, 256, 512, 1024) default(1024)
#pragma kt problem n values(96)
#pragma kt problem d values(3000)
#pragma kt kernel template(1024)
#pragma kt launch grid(n) block(BLOCK_DIM, 1, 1)
#pragma kt arg x float[n * d] in
#pragma kt arg out float[n] out
#pragma kt arg d int = d
template <int BLOCK>
__global__ void rowsum(const float *x, float *out, int d)
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
	rowsum<1024><<<n, dim3(BLOCK_DIM, 1, 1)>>>(x, out, d);
}
#endif
