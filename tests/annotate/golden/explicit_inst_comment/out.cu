// A host launcher template instantiated explicitly after a comment, and a
// kernel that uses the toolkit's math constants.
#include <math_constants.h>

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
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
phase(float *y, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * BLOCK_SIZE + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			y[i] = CUDART_PI_F * i / n;
	}
}

#ifndef __CUDACC_RTC__
template <typename T> void launch(T *y, int n)
{
	phase<<<((((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), BLOCK_SIZE>>>(y, n);
}
#endif

// Explicit instantiation needed to generate code
#ifndef __CUDACC_RTC__
template void launch<float>(float *y, int n);
#endif

// A host template instantiated through a macro.
#ifndef __CUDACC_RTC__
template <typename T> void fill_host(T *p, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = T(0);
}
#endif
#define INST_FILL(T) template void fill_host<T>(T * p, int n)
#ifndef __CUDACC_RTC__
INST_FILL(float);
INST_FILL(int);
#endif
