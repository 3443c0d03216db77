// header_kernel.cuh: a kernel and its launcher in a header (a JIT or
// header-only library's shape); nvcc goes by the extension, so a .cuh is
// compiled as CUDA only when told.
#pragma once
#include <cuda_runtime.h>

__global__ void relu_kernel(float *y, const float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

inline void relu(float *y, const float *x, int n, cudaStream_t s)
{
	relu_kernel<<<(n + 255) / 256, 256, 0, s>>>(y, x, n);
}
