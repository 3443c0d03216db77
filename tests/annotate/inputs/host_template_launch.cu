// A kernel template launched from a host function template, as ggml
// writes them: the kernel's type argument is left to deduction at the
// launch (from `const T *x`), and the host template's parameters are the
// problem sizes; the host template's type comes from its one call.
#include <cuda_runtime.h>
#include <cstdint>

template <typename T>
static __global__ void row_scale(const T *x, T *dst, const int64_t ne00,
                                 const int64_t ne01, const float s)
{
	const int64_t row = blockIdx.x;
	for (int64_t i = threadIdx.x; i < ne00; i += blockDim.x)
		dst[row * ne00 + i] = x[row * ne00 + i] * (T)s;
}

template <typename T>
static void row_scale_cuda(const T *x, T *dst, const int64_t ne00,
                           const int64_t ne01, cudaStream_t stream)
{
	const dim3 grid(ne01, 1, 1);
	row_scale<<<grid, 128, 0, stream>>>(x, dst, ne00, ne01, 0.5f);
}

void op_row_scale(const float *x, float *dst, int64_t ne00, int64_t ne01,
                  cudaStream_t stream)
{
	row_scale_cuda(x, dst, ne00, ne01, stream);
}
