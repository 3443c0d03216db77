// A kernel template launched through a launcher object (launch_object.h)
// from a host function template, as sglang's JIT kernels do: the call
// operator's call is not resolved in the template, so it is found
// through the object's class; the kernel's template argument is the host
// template's, which the call run<3> gives.
#include "launch_object.h"

constexpr int kBlock = 256;

template <int kC>
__global__ void add_c(int *dst, const int *src, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		dst[i] = src[i] + kC;
}

template <int kC>
void run(int *dst, const int *src, int n, cudaStream_t stream)
{
	Launch((n + kBlock - 1) / kBlock, kBlock, stream)(add_c<kC>, dst, src, n);
}
void go(int *d, const int *s, int n, cudaStream_t st) { run<3>(d, s, n, st); }
