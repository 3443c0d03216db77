// Values a static_assert refuses stay out of the domain, decided by
// folding its condition at each value (before: compiled, a torch file's
// seconds a value, or missed where NVRTC does not instantiate the code
// around it). kThreads is pinned by `kTopK % kThreads == 0` and `kTopK /
// kThreads == 2` (each thread two items; the second alone holds from 683
// to 1024): it stays a literal. kBlock must be a multiple of 128: the
// other block sizes are not offered. An assertion in an `if constexpr`
// branch, which the template may discard, decides nothing (kScale's
// block keeps its whole domain; the compiles decide).
#include <cuda_runtime.h>

constexpr int kTopK = 2048;
constexpr int kThreads = 1024;

__global__ __launch_bounds__(kThreads) void pairs(float *out,
                                                  const float *in)
{
	static_assert(kTopK % kThreads == 0, "whole items");
	static_assert(kTopK / kThreads == 2, "two items a thread");
	const float *row = in + blockIdx.x * kTopK;
	out[blockIdx.x * kTopK + threadIdx.x] = row[threadIdx.x];
	out[blockIdx.x * kTopK + threadIdx.x + kThreads] =
	    row[threadIdx.x + kThreads];
}

__global__ void twice(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= 2.0f;
}

constexpr int kScale = 256;

template <int kMode> __global__ void scale(float *x, int n)
{
	if constexpr (kMode == 1) {
		static_assert((kScale + kMode) / 128 == 2, "mode 1: 256 to 383");
	}
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= 0.5f;
}

void run(float *out, const float *in, int rows, float *x, int n)
{
	scale<0><<<(n + kScale - 1) / kScale, kScale>>>(x, n);
	pairs<<<rows, kThreads>>>(out, in);
	constexpr int kBlock = 256;
	static_assert(kBlock % 128 == 0, "whole groups of 128 threads");
	twice<<<(n + kBlock - 1) / kBlock, kBlock>>>(x, n);
}
