// A kernel launched through a helper the project keeps in a header
// (launch_helper.h): the block size at the call site reaches the launch
// through the helper's parameter struct and, on one path, a launch config
// that a constructor fills, so it is a parameter, and the grid's
// `(n + 255) / 256` follows it.
#ifndef __CUDACC_RTC__
#include "launch_helper.h"
#elif !defined(KTC_RTC_HEADERS_GIVEN)
// ktc: the device side of "launch_helper.h"
// launch_helper.h: a project's launch helper, kept in a header as
// ggml keeps ggml_cuda_kernel_launch: a parameter struct built by a
// constructor, a config whose constructor body copies it, and a function
// template that launches any kernel with it.
#pragma once
#include <cuda_runtime.h>
#include <cuda/std/utility>
namespace std { using namespace cuda::std; }


struct launch_params {
	dim3 grid;
	dim3 block;
	size_t shmem;
	cudaStream_t stream;
	
};

struct ex_config {
	cudaLaunchConfig_t cfg;
	
};


#endif

#ifndef ITEMS_PER_THREAD
#define ITEMS_PER_THREAD 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#ifndef SCALE_BLOCK
#define SCALE_BLOCK 256
#endif

#pragma kt param SCALE_BLOCK values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint SCALE_BLOCK * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil(((n + SCALE_BLOCK - 1) / SCALE_BLOCK), ITEMS_PER_THREAD)) block(SCALE_BLOCK)
#pragma kt arg x float[n] inout
// ktc: complete and uncomment: #pragma kt arg a float = ?
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(SCALE_BLOCK, MIN_BLOCKS)
#endif
scale(float *x, float a, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			x[i] *= a;
	}
}

#ifndef __CUDACC_RTC__
void run(float *x, float a, int n, cudaStream_t stream)
{
	const int blocks = (n + SCALE_BLOCK - 1) / SCALE_BLOCK;
	const launch_params p = launch_params((((blocks) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), SCALE_BLOCK, 0, stream);
	launch(scale, p, n > 4096, x, a, n);
}
#endif
