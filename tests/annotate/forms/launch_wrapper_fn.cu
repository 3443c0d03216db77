// launch_wrapper_fn: function templates that take the kernel as an
// argument: launch_kernel launches it (cudaLaunchKernelEx), launch_1d
// passes it on with a geometry of its own (a second level, shared by two
// launches: its literal stays as it is).
#include <cuda_runtime.h>

template <typename K, typename... A>
void launch_kernel(K kernel, dim3 grid, dim3 block, cudaStream_t s, A... args)
{
	cudaLaunchConfig_t c = {};
	c.gridDim = grid;
	c.blockDim = block;
	c.stream = s;
	cudaLaunchKernelEx(&c, kernel, args...);
}

template <typename K, typename... A>
void launch_1d(K kernel, int n, cudaStream_t s, A... args)
{
	launch_kernel(kernel, dim3((n + 255) / 256), dim3(256), s, args...);
}

__global__ void add_kernel(float *y, const float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] += x[i];
}

__global__ void sub_kernel(float *y, const float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] -= x[i];
}

__global__ void mul_kernel(float *y, const float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] *= x[i];
}

void add(float *y, const float *x, int n, cudaStream_t s)
{
	launch_kernel(add_kernel, dim3((n + 511) / 512), dim3(512), s, y, x, n);
}

void sub(float *y, const float *x, int n, cudaStream_t s)
{
	launch_1d(sub_kernel, n, s, y, x, n);
}

void mul(float *y, const float *x, int n, cudaStream_t s)
{
	launch_1d(mul_kernel, n, s, y, x, n);
}
