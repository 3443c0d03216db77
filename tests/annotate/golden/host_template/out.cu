// host_template: a host function template launches a kernel template,
// and an explicit instantiation names the host template.
#include <cuda_runtime.h>

// ktc: complete and uncomment: #pragma kt launch grid(?) block(?)
// ktc: complete and uncomment: #pragma kt arg y T[?] out
// ktc: complete and uncomment: #pragma kt arg v T = ?
// ktc: complete and uncomment: #pragma kt arg n int = ?
template <typename T> __global__ void fill_kernel(T *y, T v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = v;
}

#ifndef __CUDACC_RTC__
template <typename T> void fill(T *y, T v, int n, cudaStream_t s)
{
	fill_kernel<T><<<(n + 255) / 256, 256, 0, s>>>(y, v, n);
}

template void fill<float>(float *, float, int, cudaStream_t);
#endif
