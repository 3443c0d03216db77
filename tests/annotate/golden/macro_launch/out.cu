// A launch written inside a macro whose template arguments run over
// lines: the arguments are not copied into the plan (their text holds the
// macro's line continuations), and the grid, an expansion, is not edited.
#include <cuda_runtime.h>

#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

template <typename T> struct wrap {
	using type = T;
};

#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint 256 * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(((n + 255) / 256)) block(256)
#pragma kt arg x T[n] inout
#pragma kt arg n int = n
// ktc: complete and uncomment: #pragma kt kernel template(?)
template <typename T, int V> __global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(256, MIN_BLOCKS)
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
	const int blocks = (n + 255) / 256;
	LAUNCH_ADD(float, blocks, 256);
}
#endif
