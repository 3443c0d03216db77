// A launch through a kernel pointer that a selector returns: every
// return of `select` names one kernel (`act<T, Act::kSilu>`, or a
// constant holding `act<T, Act::kGelu>`), so the launch is that kernel's
// and its block (a class's `static constexpr`) becomes a parameter that
// the host launch follows. The kernel's template arguments name the
// class template's T, which no launch here fixes: the `kernel template`
// line and the buffers' element types are left to complete rather than
// written with T, which names nothing where `ktc tune` instantiates.
#include <cuda_runtime.h>

enum class Act { kSilu, kGelu };

template <typename T, Act A>
__global__ void act(T *y, const T *x, unsigned n)
{
	const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	y[i] = A == Act::kSilu ? x[i] / (1.0f + __expf(-x[i])) : x[i];
}

template <typename T>
struct ActKernel {
	static constexpr unsigned kBlockSize = 256u;
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
		kernel<<<blocks, kBlockSize, 0, s>>>(y, x, n);
	}
};

void activation(float *y, const float *x, unsigned n, bool silu,
                cudaStream_t s)
{
	ActKernel<float>::run(y, x, n, silu, s);
}
