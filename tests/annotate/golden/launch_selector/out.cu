// A launch through a kernel pointer that a selector returns: every
// return of `select` names one kernel (`act<T, Act::kSilu>`, or a
// constant holding `act<T, Act::kGelu>`), so the launch is that kernel's
// and its block (a class's `static constexpr`) becomes a parameter that
// the host launch follows. The kernel's template arguments name the
// class template's T, which no launch here fixes: the `kernel template`
// line and the buffers' element types are left to complete rather than
// written with T, which names nothing where `ktc tune` instantiates.
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef ITEMS_PER_THREAD
#define ITEMS_PER_THREAD 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

enum class Act { kSilu, kGelu };

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil(((n + BLOCK_SIZE - 1) / BLOCK_SIZE), ITEMS_PER_THREAD)) block(BLOCK_SIZE)
// ktc: complete and uncomment: #pragma kt kernel template(?)
// ktc: complete and uncomment: #pragma kt arg y ?[n] out
// ktc: complete and uncomment: #pragma kt arg x ?[n] in
#pragma kt arg n unsigned int = n
template <typename T, Act A>
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
act(T *y, const T *x, unsigned n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		const unsigned i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i >= n)
			return;
		y[i] = A == Act::kSilu ? x[i] / (1.0f + __expf(-x[i])) : x[i];
	}
}

#ifndef __CUDACC_RTC__
template <typename T>
struct ActKernel {
	static constexpr unsigned kBlockSize = ((unsigned)(BLOCK_SIZE));
	static constexpr auto gelu = act<T, Act::kGelu>;

	static auto select(bool silu) -> decltype(&act<T, Act::kSilu>)
	{
		if (silu)
			return act<T, Act::kSilu>;
		return gelu;
	}

	static void run(T *y, const T *x, unsigned n, bool silu,
	                cudaStream_t s)
	{
		const auto kernel = select(silu);
		const unsigned blocks = (n + kBlockSize - 1) / kBlockSize;
		kernel<<<(((blocks) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), kBlockSize, 0, s>>>(y, x, n);
	}
};

void activation(float *y, const float *x, unsigned n, bool silu,
                cudaStream_t s)
{
	ActKernel<float>::run(y, x, n, silu, s);
}
#endif
