// host_extern_c: the launcher has C linkage, declared on its own line
// (`extern "C" T f(...)`): a library's plain-C entry point.
#include <cuda_runtime.h>

__global__ void add_kernel(float *y, const float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] += x[i];
}

extern "C" void add(float *y, const float *x, int n, cudaStream_t s);

extern "C" void add(float *y, const float *x, int n, cudaStream_t s)
{
	add_kernel<<<(n + 255) / 256, 256, 0, s>>>(y, x, n);
}
