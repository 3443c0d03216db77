// Values a static_assert refuses stay out of the domain, decided by
// folding its condition at each value (before: compiled, a torch file's
// seconds a value, or missed where NVRTC does not instantiate the code
// around it). kThreads is pinned by `kTopK % kThreads == 0` and `kTopK /
// kThreads == 2` (each thread two items; the second alone holds from 683
// to 1024): it stays a literal. kBlock must be a multiple of 128: the
// other block sizes are not offered.
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

void run(float *out, const float *in, int rows, float *x, int n)
{
	pairs<<<rows, kThreads>>>(out, in);
	constexpr int kBlock = 256;
	static_assert(kBlock % 128 == 0, "whole groups of 128 threads");
	twice<<<(n + kBlock - 1) / kBlock, kBlock>>>(x, n);
}
