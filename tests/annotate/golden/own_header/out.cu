// own_header: the kernel uses device helpers, a type, a constant and a
// macro from the file's own header, which also includes C and C++ host
// headers and declares host code; NVRTC must see only the device side.
#ifndef __CUDACC_RTC__
#include "own_header_util.h"
#elif !defined(KTC_RTC_HEADERS_GIVEN)
// ktc: the device side of "own_header_util.h"
#define __extension__ /* not NVRTC's */
static inline __device__ void cudaGridDependencySynchronize(void)
{
	asm volatile("griddepcontrol.wait;" ::: "memory");
}
static inline __device__ void cudaTriggerProgrammaticLaunchCompletion(void)
{
	asm volatile("griddepcontrol.launch_dependents;" :::);
}
// own_header_util.h: device helpers beside host includes and host code.
#pragma once




// ktc: the device side of "own_header_math.h"
// own_header_math.h: included from a header, with a host include of its
// own.
#pragma once


constexpr float kt_half = 0.5f;

__device__ inline float half_of(float x)
{
	return x * kt_half;
}




#define KT_GAIN 3.0f

struct pair_f {
	float lo, hi;
};

static inline __device__ float twice(float x)
{
	return 2.0f * x;
}

template <typename T> __device__ T clamp_to(T x, pair_f lim)
{
	return x < lim.lo ? lim.lo : (x > lim.hi ? lim.hi : x);
}







/* attributes spelled through macros before a host prototype */
#define KT_NORETURN [[noreturn]]
#define KT_API __attribute__((visibility("default")))


enum kt_mode { kt_fast, kt_exact };

/* a GNU `__extension__` (NVRTC does not know it) in a device type */
typedef struct {
	__extension__ union {
		struct {
			float lo, hi;
		};
		float both[2];
	};
} range_f;

/* CUDA runtime device functions that NVRTC does not declare */
static __device__ void wait_for_previous_grid()
{
	cudaGridDependencySynchronize();
	cudaTriggerProgrammaticLaunchCompletion();
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
#pragma kt launch grid(div_ceil((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, ITEMS_PER_THREAD)) block(BLOCK_SIZE)
#pragma kt arg out float[n] out
#pragma kt arg in float[n] in
// ktc: complete and uncomment: #pragma kt arg lim pair_f = ?
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
scale_clamp(float *out, const float *in, pair_f lim, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			out[i] = clamp_to(twice(half_of(in[i])) * KT_GAIN, lim);
	}
}

#ifndef __CUDACC_RTC__
void run_scale_clamp(float *out, const float *in, int n)
{
	pair_f lim = {0.0f, 1.0f};
	scale_clamp<<<((((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), BLOCK_SIZE>>>(out, in, lim, n);
}
#endif
