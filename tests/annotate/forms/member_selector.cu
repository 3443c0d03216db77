// A launch through a launcher object whose kernel a member function
// template of a class template selects, on both sides of a `?:`: every
// return names a variable template of the class that holds the kernel
// (`kernel_of<2, T>`), whose initializer libclang does not walk. The
// block is a count of warps (`kNumWarps`, written `4u`) times the
// header's warp width: the count becomes a parameter that keeps its
// literal's type, and the launch line writes the header constant's
// value.
#include "member_selector_util.h"

constexpr auto kNumWarps = 4u;
constexpr unsigned kThreads = kNumWarps * dev::kWarpThreads;

template <int kSplit, typename I>
__global__ void copy_rows(const float *x, float *y, unsigned rows,
                          unsigned width)
{
	const unsigned warp =
	    blockIdx.x * kNumWarps + threadIdx.x / dev::kWarpThreads;
	const I row = static_cast<I>(warp / kSplit);
	if (row >= static_cast<I>(rows))
		return;
	const unsigned part = warp % kSplit, each = width / kSplit;
	for (unsigned j = threadIdx.x % dev::kWarpThreads; j < each;
	     j += dev::kWarpThreads)
		y[row * width + part * each + j] = x[row * width + part * each + j];
}

template <bool kPdl>
struct CopyKernel {
	template <int kSplit, typename I>
	static constexpr auto kernel_of = copy_rows<kSplit, I>;

	template <typename I>
	static auto get_kernel(int split)
	{
		if (split == 2)
			return kernel_of<2, I>;
		return kernel_of<1, I>;
	}

	static void run(const float *x, float *y, unsigned rows, unsigned width,
	                int split, bool wide)
	{
		const auto kernel =
		    wide ? get_kernel<long long>(split) : get_kernel<int>(split);
		const unsigned blocks = (rows * split + kNumWarps - 1) / kNumWarps;
		Launcher(blocks, kThreads).enable_pdl(kPdl)(kernel, x, y, rows,
		                                             width);
	}
};

void copy(const float *x, float *y, unsigned rows, unsigned width)
{
	CopyKernel<false>::run(x, y, rows, width, 1, false);
}
