// One kernel template launched from an if-chain at four block sizes, the
// template argument equal to the block at each launch. The tuner
// instantiates the kernel as its first launch does; a template argument
// made a parameter at another launch would reach only the host code,
// untied from that launch's block (128 with a block of 256: threads index
// past the shared array). They stay literals.
#include <cuda_runtime.h>

#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint 128 * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt kernel template(128)
#pragma kt launch grid(n) block(128)
#pragma kt arg x float[n * d] in
#pragma kt arg out float[n] out
#pragma kt arg d int = d
template <int BLOCK> __global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(128, MIN_BLOCKS)
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
	if (d <= 256)
		rowsum<128><<<n, 128>>>(x, out, d);
	else if (d <= 1024)
		rowsum<256><<<n, 256>>>(x, out, d);
	else if (d <= 4096)
		rowsum<512><<<n, 512>>>(x, out, d);
	else
		rowsum<1024><<<n, 1024>>>(x, out, d);
}
#endif
