// launch_wrapper_struct: objects that store the launch geometry (by
// aggregate initialisation or by a constructor) and whose call operator
// launches the kernel it is given with cudaLaunchKernelEx.
#include <cuda_runtime.h>

struct Launch {
	dim3 grid, block;
	cudaStream_t s;
	template <typename K, typename... A> void operator()(K k, A... a) const
	{
		cudaLaunchConfig_t c = {};
		c.gridDim = grid;
		c.blockDim = block;
		c.stream = s;
		cudaLaunchKernelEx(&c, k, a...);
	}
};

class Launcher {
public:
	Launcher(dim3 g, dim3 b, cudaStream_t s) : grid_(g), block_(b), s_(s)
	{
	}
	template <typename K, typename... A> void operator()(K k, A... a) const
	{
		cudaLaunchConfig_t c = {};
		c.gridDim = grid_;
		c.blockDim = block_;
		c.stream = s_;
		cudaLaunchKernelEx(&c, k, a...);
	}

private:
	dim3 grid_, block_;
	cudaStream_t s_;
};

__global__ void relu_kernel(float *y, const float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = x[i] > 0.f ? x[i] : 0.f;
}

template <typename T, int kVec> __global__ void copy_kernel(T *y, const T *x, int n)
{
	int i = (blockIdx.x * blockDim.x + threadIdx.x) * kVec;
	for (int j = 0; j < kVec; j++)
		if (i + j < n)
			y[i + j] = x[i + j];
}

void relu(float *y, const float *x, int n, cudaStream_t s)
{
	const int kBlock = 256;
	Launch{dim3((n + kBlock - 1) / kBlock), dim3(kBlock), s}(relu_kernel, y,
	                                                          x, n);
}

void copy(float *y, const float *x, int n, cudaStream_t s)
{
	dim3 block(128);
	dim3 grid((n + 4 * 128 - 1) / (4 * 128));
	Launcher(grid, block, s)(copy_kernel<float, 4>, y, x, n);
}
