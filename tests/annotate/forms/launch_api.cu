// launch_api: kernels launched through the runtime API instead of <<<>>>:
// cudaLaunchKernel with a cast and a template kernel's specialisation, and
// cudaLaunchCooperativeKernel without a cast.
#include <cuda_runtime.h>

template <typename T> __global__ void scale_kernel(T *y, const T *x, T a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i];
}

__global__ void negate_kernel(float *y, const float *x, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		y[i] = -x[i];
}

void scale(float *y, const float *x, float a, int n, cudaStream_t s)
{
	dim3 block(256);
	dim3 grid((n + 255) / 256);
	void *args[] = {&y, &x, &a, &n};
	cudaLaunchKernel((const void *)scale_kernel<float>, grid, block, args,
	                 0, s);
}

void negate(float *y, const float *x, int n, cudaStream_t s)
{
	void *args[] = {(void *)&y, (void *)&x, (void *)&n};
	cudaLaunchCooperativeKernel(negate_kernel, dim3(132), dim3(128), args, 0,
	                            s);
}
