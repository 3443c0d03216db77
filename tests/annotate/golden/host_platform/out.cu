// host_platform: host code whose declarations come from the platform
// (an alias of pid_t, a typedef for Linux only, `using std::string`), a
// host class template of the file's header instantiated explicitly, and a
// kernel that uses assert without including <assert.h>, surface reads
// and writes, and cuRAND's device API (which NVRTC compiles).
#ifndef __CUDACC_RTC__
#include "host_platform.h"
#elif !defined(KTC_RTC_HEADERS_GIVEN)
// ktc: the device side of "host_platform.h"
// host_platform.h: a header of host declarations NVRTC cannot take as
// they are: an alias of an operating-system type, an alias defined for
// one platform only, a class with a field of that alias, and a host class
// template the file instantiates explicitly.
#pragma once
typedef unsigned char u_char;
typedef unsigned short ushort, u_short;
typedef unsigned int uint, u_int;
typedef unsigned long ulong, u_long;


#if defined(__linux__)
typedef int os_handle;
#else
typedef void *os_handle;
#endif




template <typename Real> class engine
{
      public:
	
	

      private:
	int n_;
};
#endif

#include <curand_kernel.h>
#ifndef __CUDACC_RTC__
#include <string>
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

#ifndef __CUDACC_RTC__
using std::string;
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, ITEMS_PER_THREAD)) block(BLOCK_SIZE)
#pragma kt arg data float[n] inout
#pragma kt arg surf cudaSurfaceObject_t = 0
#pragma kt arg n int = n
#pragma kt arg seed unsigned long long = 42
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
noise_kernel(float *data, cudaSurfaceObject_t surf, int n,
                             unsigned long long seed)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		assert(n > 0);
		if (i < n) {
			curandStatePhilox4_32_10_t state;
			curand_init(seed, i, 0, &state);
			float v = surf2Dread<float>(surf, 4 * (i % 16), i / 16);
			surf2Dwrite(v + 1.0f, surf, 4 * (i % 16), i / 16);
			data[i] += curand_uniform(&state);
		}
	}
}

#ifndef __CUDACC_RTC__
void simulation::step(float *data, int n)
{
	noise_kernel<<<((((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), BLOCK_SIZE>>>(data, 0, n, 42ull);
}

template <typename Real> engine<Real>::engine(int n) : n_(n) {}

template <typename Real> void engine<Real>::run(Real *data)
{
	(void)data;
}
#endif

template class engine<float>;
template class engine<double>;
