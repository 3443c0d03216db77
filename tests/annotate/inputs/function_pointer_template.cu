// A kernel template over a device function (`template <float (*op)(float),
// typename T>`, ggml's unary ops), launched from a host template that
// another host template calls with its own parameter (`unary_cuda<op>` in
// `op_unary<op>`), itself called with the function (`op_unary<
// ops::op_neg>`). libclang gives a function template argument no value:
// the call's written argument is read, followed through the caller's own
// parameter, and named with all its namespaces: `kernel template(
// "ops::op_neg", "float")` (before: left to complete).
#include <cuda_runtime.h>

#define NEG_BLOCK_SIZE 256

namespace ops {
static __device__ float op_neg(float x) { return -x; }
static __device__ float op_abs(float x) { return fabsf(x); }
} // namespace ops

template <float (*op)(float), typename T>
static __global__ void unary_op_kernel(const T *x, T *dst, const int k)
{
	const int i = blockDim.x * blockIdx.x + threadIdx.x;
	if (i >= k)
		return;
	dst[i] = (T)op((float)x[i]);
}

template <float (*op)(float), typename T>
static void unary_cuda(const T *x, T *dst, const int k, cudaStream_t stream)
{
	const int num_blocks = (k + NEG_BLOCK_SIZE - 1) / NEG_BLOCK_SIZE;
	unary_op_kernel<op>
	    <<<num_blocks, NEG_BLOCK_SIZE, 0, stream>>>(x, dst, k);
}

template <float (*op)(float)>
void op_unary(const float *x, float *dst, int k, cudaStream_t stream)
{
	unary_cuda<op>(x, dst, k, stream);
}

namespace unary {
void neg(const float *x, float *dst, int k, cudaStream_t s)
{
	op_unary<ops::op_neg>(x, dst, k, s);
}

void absolute(const float *x, float *dst, int k, cudaStream_t s)
{
	op_unary<ops::op_abs>(x, dst, k, s);
}
} // namespace unary
