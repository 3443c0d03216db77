// written_lines: a kernel no host code of this file launches, whose
// '#pragma kt' lines the user already completed in part (the launch and
// the problem sizes): they are the kernel's, kept as written, and only
// what they leave out is derived or asked for.
#include <cuda_runtime.h>

#pragma kt problem n values(1024, 1048576)
#pragma kt launch grid((n + 127) / 128) block(128)
__global__ void saxpy_kernel(float *y, const float *x, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}
