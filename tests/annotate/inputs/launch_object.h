// launch_object.h: a launcher object a project keeps in a header, as
// sglang's host::LaunchKernel: the constructor makes the launch config
// through a static function, the call operator launches any kernel with it.
#pragma once
#include <cuda_runtime.h>
#include <utility>

struct Launch {
	Launch(dim3 grid, dim3 block, cudaStream_t stream)
	    : m_config(make_config(grid, block, stream))
	{
	}
	Launch &enable_pdl(bool on)
	{
		m_pdl = on;
		return *this;
	}
	template <typename K, typename... Args>
	void operator()(K kernel, Args &&...args) const
	{
		cudaLaunchKernelEx(&m_config, kernel,
		                   std::forward<Args>(args)...);
	}

      private:
	static cudaLaunchConfig_t make_config(dim3 grid, dim3 block,
	                                      cudaStream_t stream)
	{
		auto config = cudaLaunchConfig_t{};
		config.gridDim = grid;
		config.blockDim = block;
		config.dynamicSmemBytes = 0;
		config.stream = stream;
		return config;
	}
	cudaLaunchConfig_t m_config;
	bool m_pdl = false;
};
