// A launch through a launcher object whose kernel a member function
// template of a class template selects, on both sides of a `?:`: every
// return names a variable template of the class that holds the kernel
// (`kernel_of<2, T>`), whose initializer libclang does not walk. The
// block is a count of warps (`kNumWarps`, written `4u`) times the
// header's warp width: the count becomes a parameter that keeps its
// literal's type, and the launch line writes the header constant's
// value.
#ifndef __CUDACC_RTC__
#include "member_selector_util.h"
#elif !defined(KTC_RTC_HEADERS_GIVEN)
// ktc: the device side of "member_selector_util.h"
// The project header of member_selector.cu: a warp's width as a
// namespace constant, and a launcher object called with the kernel.
#pragma once
#include <cuda_runtime.h>

namespace dev
{
constexpr unsigned kWarpThreads = 32;
}

struct Launcher {
	cudaLaunchConfig_t config;
	cudaLaunchAttribute attr[1];
	
	
	
	
};
#endif

#ifndef NUM_WARPS
#define NUM_WARPS 4
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

constexpr auto kNumWarps = ((unsigned)(NUM_WARPS));
constexpr unsigned kThreads = kNumWarps * dev::kWarpThreads;

#pragma kt param NUM_WARPS values(1, 2, 4, 8, 16, 32) default(4)
#pragma kt constraint ((NUM_WARPS * 32)) <= DEVICE_MAX_THREADS_PER_BLOCK
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint NUM_WARPS * 32 * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem split values(?)
// ktc: complete and uncomment: #pragma kt problem width values(?)
#pragma kt launch grid(((rows * split + NUM_WARPS - 1) / NUM_WARPS)) block((NUM_WARPS * 32))
// ktc: complete and uncomment: #pragma kt kernel template(?)
// ktc: complete and uncomment: #pragma kt arg x float[?] in
// ktc: complete and uncomment: #pragma kt arg y float[?] out
#pragma kt arg rows unsigned int = rows
#pragma kt arg width unsigned int = width
template <int kSplit, typename I>
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(NUM_WARPS * 32, MIN_BLOCKS)
#endif
copy_rows(const float *x, float *y, unsigned rows,
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

#ifndef __CUDACC_RTC__
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
#endif
