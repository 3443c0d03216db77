// instantiation_macro_undef: launchers in the style of TensorRT-LLM:
// host templates in namespaces, instantiated only by a macro that is
// `#undef`-ed after use (libclang then calls the macro not function-like:
// up to 61c3ba0 its expansions were neither kept from NVRTC, which
// refused the file, nor read for the template arguments), and once
// directly with written arguments.
#include <cuda_fp16.h>
namespace tk {
namespace kernels {
template <typename T>
__global__ void addBiasResidual(T *out, const T *bias, const T *residual, int m, int n)
{
	const int row = blockIdx.x;
	for (int col = threadIdx.x; col < n; col += blockDim.x)
		out[row * n + col] = out[row * n + col] + bias[col] + residual[row * n + col];
}

template <typename T>
void invokeAddBiasResidual(T *out, const T *bias, const T *residual, int m, int n, cudaStream_t stream)
{
	dim3 block(std::min(n, 1024));
	dim3 grid(m);
	addBiasResidual<T><<<grid, block, 0, stream>>>(out, bias, residual, m, n);
}

template <typename T>
__global__ void scaleKernel(T *x, float s, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
		x[i] = (T)((float)x[i] * s);
}

template <typename T>
void invokeScale(T *x, float s, int n, cudaStream_t stream)
{
	const int threads = 256;
	const int blocks = std::min((n + threads - 1) / threads, 1024);
	scaleKernel<<<blocks, threads, 0, stream>>>(x, s, n);
}

#define INSTANTIATE_ADD_BIAS_RESIDUAL(T)                                            \
	template void invokeAddBiasResidual(T *out, const T *bias, const T *residual, int m, int n, \
	                                    cudaStream_t stream)
INSTANTIATE_ADD_BIAS_RESIDUAL(float);
INSTANTIATE_ADD_BIAS_RESIDUAL(half);
#undef INSTANTIATE_ADD_BIAS_RESIDUAL

template void invokeScale<float>(float *x, float s, int n, cudaStream_t stream);
} // namespace kernels
} // namespace tk
