// A header's specialisation over a type NVRTC does not have
// (std::vector): the header's device side leaves it out, the trait and
// its other uses stay.
#ifndef __CUDACC_RTC__
#include "foreign_specialisation.h"
#elif !defined(KTC_RTC_HEADERS_GIVEN)
// ktc: the device side of "foreign_specialisation.h"
// foreign_specialisation.h: a trait with a specialisation over a host
// library's type, as vLLM's cuda_vec_utils.cuh specialises
// PackedTypeConverter for c10::Half.
#pragma once


template <typename T> struct Width {
	static constexpr int value = sizeof(T);
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

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, ITEMS_PER_THREAD)) block(BLOCK_SIZE)
#pragma kt arg x float[n] inout
// ktc: complete and uncomment: #pragma kt arg a float = ?
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
scale(float *x, float a, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			x[i] *= a * Width<float>::value;
	}
}

#ifndef __CUDACC_RTC__
void run(float *x, float a, int n)
{
	scale<<<((((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), BLOCK_SIZE>>>(x, a, n);
}
#endif
