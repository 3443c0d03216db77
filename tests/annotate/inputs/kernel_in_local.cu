// kernel_in_local: the kernel is launched through a local that holds it
// (`auto kernel = scale<4>;` as sglang's JIT launchers write it), through
// the runtime's cudaLaunchKernel: the launch is found and its geometry
// derived.
#include <cuda_runtime.h>

template <int VEC>
__global__ void scale(float *y, const float *x, int n)
{
	int i = (blockIdx.x * blockDim.x + threadIdx.x) * VEC;
#pragma unroll
	for (int v = 0; v < VEC; v++)
		if (i + v < n)
			y[i + v] = 2.0f * x[i + v];
}

void scale_all(float *y, const float *x, int n, cudaStream_t stream)
{
	auto kernel = scale<4>;
	void *args[] = {&y, &x, &n};
	cudaLaunchKernel((const void *)kernel, dim3((n / 4 + 255) / 256),
	                 dim3(256), args, 0, stream);
}
