// host_lambda: the launch sits in a lambda inside the host function, and
// a host lambda is kept in a variable at namespace scope.
#include <cuda_runtime.h>

__global__ void copy_kernel(float *y, const float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = x[i];
}

auto blocks = [](int n) { return (n + 255) / 256; };

void copy(float *y, const float *x, int n, cudaStream_t s)
{
	auto go = [&](int count) {
		copy_kernel<<<(count + 255) / 256, 256, 0, s>>>(y, x, count);
	};
	go(n);
}
