// guarded: kernels no host code of this file launches (a library's host
// side launches them from elsewhere); each maps one thread to one element
// through the global index, bounded by a size parameter.
#include <cuda_runtime.h>
#include <cstdint>

__global__ void scale_kernel(float *out, const float *in, float s, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = s * in[i];
}

// the index through a 64-bit local, operands the other way round, an
// early return
__global__ void add_kernel(float *c, const float *a, const float *b,
                           int64_t n)
{
	const int64_t i = threadIdx.x + (int64_t)blockDim.x * blockIdx.x;
	if (i >= n)
		return;
	c[i] = a[i] + b[i];
}

// at most 128 threads: the default and the largest block follow
__global__ void __launch_bounds__(128) square_kernel(float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = y[i] * y[i];
}
