// launch_helper.h: a project's launch helper, kept in a header as
// ggml keeps ggml_cuda_kernel_launch: a parameter struct built by a
// constructor, a config whose constructor body copies it, and a function
// template that launches any kernel with it.
#pragma once
#include <cuda_runtime.h>
#include <utility>

struct launch_params {
	dim3 grid;
	dim3 block;
	size_t shmem;
	cudaStream_t stream;
	launch_params(const dim3 &grid_, const dim3 &block_, size_t shmem_,
	              cudaStream_t stream_)
	    : grid(grid_), block(block_), shmem(shmem_), stream(stream_)
	{
	}
};

struct ex_config {
	cudaLaunchConfig_t cfg;
	ex_config(const launch_params &p)
	{
		cfg = {};
		cfg.gridDim = p.grid;
		cfg.blockDim = p.block;
		cfg.dynamicSmemBytes = p.shmem;
		cfg.stream = p.stream;
	}
};

template <typename Kernel, typename... Args>
static inline void launch(Kernel kernel, const launch_params &p, bool extended,
                          Args &&...args)
{
	if (extended) {
		auto c = ex_config(p);
		cudaLaunchKernelEx(&c.cfg, kernel, std::forward<Args>(args)...);
		return;
	}
	kernel<<<p.grid, p.block, p.shmem, p.stream>>>(
	    std::forward<Args>(args)...);
}
