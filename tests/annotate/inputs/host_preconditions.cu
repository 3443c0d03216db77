// A launcher that refuses sizes its kernel cannot take: each disjunct of an
// early exit before the launch over problem sizes becomes a constraint; a
// null pointer check, a guard inside a branch and one after the launch
// say nothing about the sizes the kernel runs at.
#include <cuda_runtime.h>

__global__ void scale_rows(float4 *__restrict__ y, const float4 *__restrict__ x,
			   int cols)
{
	const long r = blockIdx.x;
	for (int i = threadIdx.x; i < cols / 4; i += blockDim.x)
		y[r * (cols / 4) + i] = x[r * (cols / 4) + i];
}

cudaError_t scale(float *y, const float *x, int rows, int cols,
		  cudaStream_t s)
{
	if (cols % 4 || rows <= 0 || !y)
		return cudaErrorInvalidValue;
	if (cols > 65536)
		return cudaErrorInvalidValue;
	if (s) {
		if (rows > 100000)
			return cudaErrorInvalidValue;
	}
	scale_rows<<<rows, 256, 0, s>>>((float4 *)y, (const float4 *)x, cols);
	if (cols < 16)
		return cudaErrorInvalidValue;
	return cudaGetLastError();
}
