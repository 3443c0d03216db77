// explicit_instantiation: host function templates launch kernel
// templates and are instantiated only explicitly (the way libraries build
// their launchers): the instantiation fixes the kernel's template
// arguments, written (`invoke_scale<__half, 8>`) or deduced from its
// parameters (`float *out` for `T *out`), in the file or in the body of
// a macro the file expands (`INSTANTIATE_BIAS(half)`); the file's own
// come first.
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

template <typename T> __global__ void bias_kernel(T *out, const T *bias, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = out[i] + bias[i];
}

template <typename T>
void invoke_bias(T *out, const T *bias, int n, cudaStream_t st)
{
	bias_kernel<T><<<(n + 127) / 128, 128, 0, st>>>(out, bias, n);
}

#define INSTANTIATE_BIAS(T)                                                    \
	template void invoke_bias(T *out, const T *bias, int n, cudaStream_t st)
INSTANTIATE_BIAS(half);
INSTANTIATE_BIAS(float);

template <typename T> __global__ void copy_kernel(T *out, const T *in, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in[i];
}

template <typename T>
void invoke_copy(T *out, const T *__restrict__ in, int n, cudaStream_t st)
{
	copy_kernel<<<(n + 511) / 512, 512, 0, st>>>(out, in, n);
}

template void invoke_copy(double *out, const double *__restrict__ in, int n,
                          cudaStream_t st);
