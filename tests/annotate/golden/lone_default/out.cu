// lone_default.cu - a block size that a static_assert fixes: every other
// value of its parameter fails to compile, so the parameter, left with its
// default alone, is dropped (it tunes nothing); the launch bounds that
// named it keep its value. The assertion calls a constexpr function,
// which the planner does not fold (static_assert_domain: one it folds),
// so the compiles decide.
#include <cuda_runtime.h>

#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

constexpr int kThreads = 128;

__host__ __device__ constexpr int tiles(int threads) { return 512 / threads; }

#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint 128 * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + 128 - 1) / 128) block(128)
#pragma kt arg x float[n] in
#pragma kt arg y float[n] out
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(128, MIN_BLOCKS)
#endif
scale(const float *__restrict__ x, float *__restrict__ y, int n)
{
	static_assert(tiles(kThreads) == 4, "four tiles of threads per 512");
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = 2.f * x[i];
}

#ifndef __CUDACC_RTC__
void run(const float *x, float *y, int n, cudaStream_t st)
{
	scale<<<(n + kThreads - 1) / kThreads, dim3{kThreads}, 0, st>>>(x, y, n);
}
#endif
