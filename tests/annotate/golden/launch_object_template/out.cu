// A kernel template launched through a launcher object (launch_object.h)
// from a host function template, as sglang's JIT kernels do: the call
// operator's call is not resolved in the template, so it is found
// through the object's class; the kernel's template argument is the host
// template's, which the call run<3> gives.
#ifndef __CUDACC_RTC__
#include "launch_object.h"
#elif !defined(KTC_RTC_HEADERS_GIVEN)
// ktc: the device side of "launch_object.h"
// launch_object.h: a launcher object a project keeps in a header, as
// sglang's host::LaunchKernel: the constructor makes the launch config
// through a static function, the call operator launches any kernel with it.
#pragma once
#include <cuda_runtime.h>
#include <cuda/std/utility>
namespace std { using namespace cuda::std; }


struct Launch {
	
	
	

      private:
	
	cudaLaunchConfig_t m_config;
	bool m_pdl = false;
};
#endif

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef ITEMS_PER_THREAD
#define ITEMS_PER_THREAD 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

constexpr int kBlock = BLOCK_SIZE;

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt kernel template(3)
#pragma kt launch grid(div_ceil((n + BLOCK_SIZE - 1) / BLOCK_SIZE, ITEMS_PER_THREAD)) block(BLOCK_SIZE)
#pragma kt arg dst int[n] out
#pragma kt arg src int[n] in
#pragma kt arg n int = n
template <int kC>
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
add_c(int *dst, const int *src, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			dst[i] = src[i] + kC;
	}
}

#ifndef __CUDACC_RTC__
template <int kC>
void run(int *dst, const int *src, int n, cudaStream_t stream)
{
	Launch(((((n + kBlock - 1) / kBlock) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), kBlock, stream)(add_c<kC>, dst, src, n);
}
void go(int *d, const int *s, int n, cudaStream_t st) { run<3>(d, s, n, st); }
#endif
