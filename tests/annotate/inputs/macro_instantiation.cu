// Explicit instantiations of a host template made by a macro whose body
// runs over lines: the instantiation in the body is the macro's, not a
// declaration of the file, and its use is what is kept from NVRTC.
#include <cuda_runtime.h>

__global__ void fill(float *y, float v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = v;
}

template <int kind> void launch_fill(float *y, int n, cudaStream_t s)
{
	fill<<<(n + 255) / 256, 256, 0, s>>>(y, (float)kind, n);
}

#define INSTANTIATE_FILL(kind)                                                 \
	template void launch_fill<kind>(float *y, int n,                       \
	                                cudaStream_t s);

INSTANTIATE_FILL(1)
INSTANTIATE_FILL(2)
