// launch_ex: cudaLaunchKernelEx with a local cudaLaunchConfig_t, its
// fields assigned one by one or brace-initialised.
#include <cuda_runtime.h>

__global__ void relu_kernel(float *y, const float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = x[i] > 0.f ? x[i] : 0.f;
}

__global__ void square_kernel(float *y, const float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = x[i] * x[i];
}

void relu(float *y, const float *x, int n, cudaStream_t s)
{
	cudaLaunchConfig_t cfg = {};
	cfg.gridDim = dim3((n + 127) / 128);
	cfg.blockDim = dim3(128);
	cfg.dynamicSmemBytes = 0;
	cfg.stream = s;
	cudaLaunchKernelEx(&cfg, relu_kernel, y, x, n);
}

void square(float *y, const float *x, int n, cudaStream_t s)
{
	const int threads = 512;
	cudaLaunchConfig_t cfg = {dim3((n + threads - 1) / threads),
	                          dim3(threads), 0, s};
	cudaLaunchKernelEx(&cfg, square_kernel, y, x, n);
}
