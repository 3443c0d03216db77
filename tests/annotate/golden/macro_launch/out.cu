// A launch written inside a macro whose template arguments run over
// lines: the arguments are not copied into the plan (their text holds the
// macro's line continuations), and the grid, an expansion, is not edited.
#include <cuda_runtime.h>

template <typename T> struct wrap {
	using type = T;
};

// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(((n + 255) / 256)) block(256)
#pragma kt arg x T[n] inout
#pragma kt arg n int = n
// ktc: complete and uncomment: #pragma kt kernel template(?)
template <typename T, int V> __global__ void add_v(T *x, int n)
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
