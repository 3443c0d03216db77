// parse_gap: a kernel nvcc compiles and clang does not (a name only
// clang's view declares is missing): ktc cannot annotate it, and says the
// parse, not the file, is what failed.
#include <cuda_runtime.h>

__global__ void scale_kernel(float *y, const float *x, int n)
{
	int i = blockIdx.x * 256 + threadIdx.x;
#ifdef __clang__
	i += name_clang_does_not_know;
#endif
	if (i < n)
		y[i] = 2.0f * x[i];
}

void scale(float *y, const float *x, int n)
{
	scale_kernel<<<(n + 255) / 256, 256>>>(y, x, n);
}
