// vector_args.cu - buffers of CUDA vector types: to the grammar, which
// knows scalar element types, a float4 buffer of n elements is a float
// buffer of 4 * n, the same bytes; an int2 buffer read and written is
// int[2 * n] inout.
#include <cuda_runtime.h>

__global__ void copy4(float4 *y, const float4 *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = x[i];
}

__global__ void fold2(int2 *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i].x += p[i].y;
}

void run(float4 *y, const float4 *x, int2 *p, int n, cudaStream_t s)
{
	copy4<<<(n + 255) / 256, 256, 0, s>>>(y, x, n);
	fold2<<<(n + 127) / 128, 128, 0, s>>>(p, n);
}
