// lone_default.cu - a block size that a static_assert fixes: every other
// value of its parameter fails to compile, so the parameter, left with its
// default alone, is dropped (it tunes nothing); the launch bounds that
// named it keep its value. The assertion calls a constexpr function,
// which the planner does not fold (static_assert_domain: one it folds),
// so the compiles decide.
#include <cuda_runtime.h>

constexpr int kThreads = 128;

__host__ __device__ constexpr int tiles(int threads) { return 512 / threads; }

__global__ void scale(const float *__restrict__ x, float *__restrict__ y, int n)
{
	static_assert(tiles(kThreads) == 4, "four tiles of threads per 512");
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = 2.f * x[i];
}

void run(const float *x, float *y, int n, cudaStream_t st)
{
	scale<<<(n + kThreads - 1) / kThreads, dim3{kThreads}, 0, st>>>(x, y, n);
}
