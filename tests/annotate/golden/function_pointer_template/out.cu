// A kernel template over a device function (`template <float (*op)(float),
// typename T>`, ggml's unary ops), launched from a host template that
// another host template calls with its own parameter (`unary_cuda<op>` in
// `op_unary<op>`), itself called with the function (`op_unary<
// ops::op_neg>`). libclang gives a function template argument no value:
// the call's written argument is read, followed through the caller's own
// parameter, and named with all its namespaces: `kernel template(
// "ops::op_neg", "float")` (before: left to complete).
#include <cuda_runtime.h>

#ifndef ITEMS_PER_THREAD
#define ITEMS_PER_THREAD 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#ifndef NEG_BLOCK_SIZE
#define NEG_BLOCK_SIZE 256
#endif

namespace ops {
static __device__ float op_neg(float x) { return -x; }
static __device__ float op_abs(float x) { return fabsf(x); }
} // namespace ops

#pragma kt param NEG_BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint NEG_BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem k values(?)
#pragma kt kernel template("ops::op_neg", "float")
#pragma kt launch grid(div_ceil(((k + NEG_BLOCK_SIZE - 1) / NEG_BLOCK_SIZE), ITEMS_PER_THREAD)) block(NEG_BLOCK_SIZE)
#pragma kt arg x float[k] in
#pragma kt arg dst float[k] out
#pragma kt arg k int = k
template <float (*op)(float), typename T>
static __global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(NEG_BLOCK_SIZE, MIN_BLOCKS)
#endif
unary_op_kernel(const T *x, T *dst, const int k)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		const int i = (blockDim.x * blockIdx.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i >= k)
			return;
		dst[i] = (T)op((float)x[i]);
	}
}

#ifndef __CUDACC_RTC__
template <float (*op)(float), typename T>
static void unary_cuda(const T *x, T *dst, const int k, cudaStream_t stream)
{
	const int num_blocks = (k + NEG_BLOCK_SIZE - 1) / NEG_BLOCK_SIZE;
	unary_op_kernel<op>
	    <<<(((num_blocks) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), NEG_BLOCK_SIZE, 0, stream>>>(x, dst, k);
}

template <float (*op)(float)>
void op_unary(const float *x, float *dst, int k, cudaStream_t stream)
{
	unary_cuda<op>(x, dst, k, stream);
}
#endif

namespace unary {
#ifndef __CUDACC_RTC__
void neg(const float *x, float *dst, int k, cudaStream_t s)
{
	op_unary<ops::op_neg>(x, dst, k, s);
}

void absolute(const float *x, float *dst, int k, cudaStream_t s)
{
	op_unary<ops::op_abs>(x, dst, k, s);
}
#endif
} // namespace unary
