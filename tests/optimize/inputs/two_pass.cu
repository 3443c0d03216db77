// A row per block in two passes: the sum of squares, then the row scaled
// by it. Its cluster split splits both loops or neither.
#include <cuda_runtime.h>

__global__ void rms(float *__restrict__ y, const float *__restrict__ x, int d)
{
	__shared__ float part[32];
	const float *row = x + (long)blockIdx.x * d;
	float ss = 0.f;
	for (int i = threadIdx.x; i < d; i += blockDim.x)
		ss += row[i] * row[i];
	for (int o = 16; o > 0; o /= 2)
		ss += __shfl_xor_sync(0xffffffff, ss, o);
	if (threadIdx.x % 32 == 0)
		part[threadIdx.x / 32] = ss;
	__syncthreads();
	float t = 0.f;
	for (int k = 0; k < blockDim.x / 32; k++)
		t += part[k];
	const float r = rsqrtf(t / d + 1e-6f);
	for (int i = threadIdx.x; i < d; i += blockDim.x)
		y[(long)blockIdx.x * d + i] = row[i] * r;
}

void run_rms(float *y, const float *x, int rows, int d)
{
	rms<<<rows, 256>>>(y, x, d);
}
