// A launch written inside a macro whose template arguments run over
// lines: the arguments are not copied into the plan (their text holds the
// macro's line continuations), and the grid, an expansion, is not edited.
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

template <typename T> struct wrap {
	using type = T;
};

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt kernel template("float", 4)
#pragma kt launch grid(((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE)) block(BLOCK_SIZE)
#pragma kt arg x float[n] inout
#pragma kt arg n int = n
template <typename T, int V> __global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
add_v(T *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] += V;
}

#define LAUNCH_ADD(T, GRID, BLOCK)                                             \
	add_v<typename wrap<                                                   \
	          T>::type,                                                    \
	      4><<<GRID, BLOCK>>>(x, n)

#ifndef __CUDACC_RTC__
void run(float *x, int n)
{
	const int blocks = (n + (BLOCK_SIZE - 1)) / BLOCK_SIZE;
	LAUNCH_ADD(float, blocks, BLOCK_SIZE);
}
#endif
