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
	Launcher(dim3 grid, dim3 block) : config(make(grid, block)) {}
	static cudaLaunchConfig_t make(dim3 grid, dim3 block)
	{
		cudaLaunchConfig_t c = {};
		c.gridDim = grid;
		c.blockDim = block;
		return c;
	}
	Launcher &enable_pdl(bool on)
	{
		if (on) {
			attr[0].id =
			    cudaLaunchAttributeProgrammaticStreamSerialization;
			attr[0].val.programmaticStreamSerializationAllowed = 1;
			config.attrs = attr;
			config.numAttrs = 1;
		}
		return *this;
	}
	template <typename K, typename... A>
	void operator()(K kernel, A... args) const
	{
		cudaLaunchKernelEx(&config, kernel, args...);
	}
};
