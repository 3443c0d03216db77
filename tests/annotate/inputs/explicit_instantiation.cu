// explicit_instantiation: a host function template launches a kernel
// template and is instantiated only explicitly (the way libraries build
// their launchers): the instantiation fixes the kernel's template
// arguments. The one inside a macro's definition names the macro's
// parameter and is not read.
#include <cuda_fp16.h>

template <typename T, int VEC>
__global__ void scale_kernel(T *out, const T *in, float s, int n)
{
	int i = (blockIdx.x * blockDim.x + threadIdx.x) * VEC;
#pragma unroll
	for (int k = 0; k < VEC; k++)
		if (i + k < n)
			out[i + k] = (T)((float)in[i + k] * s);
}

template <typename T, int VEC>
void invoke_scale(T *out, const T *in, float s, int n, cudaStream_t st)
{
	const int blocks = (n + 256 * VEC - 1) / (256 * VEC);
	scale_kernel<T, VEC><<<blocks, 256, 0, st>>>(out, in, s, n);
}

#define INSTANTIATE_SCALE(T)                                                   \
	template void invoke_scale<T, 4>(T *, const T *, float, int,           \
	                                 cudaStream_t);
INSTANTIATE_SCALE(float)
template void invoke_scale<__half, 8>(__half *, const __half *, float, int,
                                      cudaStream_t);
