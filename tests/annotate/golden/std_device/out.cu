// Device code that uses the C++ standard library's compile-time parts
// (<type_traits>, <limits>), as serving kernels do.
#ifndef __CUDACC_RTC__
#include <limits>
#include <type_traits>

#include "std_device.h"
#elif !defined(KTC_RTC_HEADERS_GIVEN)
#include <cuda/std/limits>
namespace std { using namespace cuda::std; }
#include <cuda/std/type_traits>
namespace std { using namespace cuda::std; }
// ktc: the device side of "std_device.h"
// A helper header: a constexpr function without execution space (host
// code may call it; nvcc with --expt-relaxed-constexpr lets device code
// call it too) and a device function.
#pragma once




template <typename T> __device__ T twice(T x)
{
	return x + x;
}
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

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt kernel template("float")
#pragma kt launch grid(div_ceil((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, ITEMS_PER_THREAD)) block(BLOCK_SIZE)
#pragma kt arg y float[n] out
#pragma kt arg x float[n] in
#pragma kt arg n int = n
template <typename T>
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
clamp_twice(T *y, const T *x, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * BLOCK_SIZE + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i >= n)
			return;
		T v = twice(x[i]);
		if constexpr (std::is_same_v<T, int>)
			v = v > std::numeric_limits<int>::max() / 2 ? 0 : v;
		y[i] = v;
	}
}

#ifndef __CUDACC_RTC__
void launch(float *y, const float *x, int n)
{
	clamp_twice<float><<<((((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), BLOCK_SIZE>>>(y, x, n);
}
#endif
