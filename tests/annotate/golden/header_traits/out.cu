// Device code that uses one device function of a header whose host
// types must all stay out of NVRTC's way, with what depends on them.
#ifndef __CUDACC_RTC__
#include "header_traits.h"
#elif !defined(KTC_RTC_HEADERS_GIVEN)
// ktc: the device side of "header_traits.h"
// header_traits.h: a header whose host types reach further than their
// own declarations: a class that derives from a template over a host
// type, and a variable template whose initialiser libclang does not show.
#pragma once
#include <cuda/std/array>
namespace std { using namespace cuda::std; }





template <typename T> struct ref_base {
	T *p;
};





__device__ inline float twice(float x)
{
	return 2.0f * x;
}
#endif

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 128
#endif
#ifndef ITEMS_PER_THREAD
#define ITEMS_PER_THREAD 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, ITEMS_PER_THREAD)) block(BLOCK_SIZE)
#pragma kt arg y float[n] out
#pragma kt arg x float[n] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
double_all(float *y, const float *x, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * BLOCK_SIZE + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			y[i] = twice(x[i]);
	}
}

#ifndef __CUDACC_RTC__
void run(float *y, const float *x, int n)
{
	double_all<<<((((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), BLOCK_SIZE>>>(y, x, n);
}
#endif
