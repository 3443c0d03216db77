// Row sums, one block per row, with a tree reduction that halves
// blockDim.x: right only for a power-of-two block. Each row's sum does not
// depend on the block size, so every block size can be compared with the
// default on a GPU.
#include <cuda_runtime.h>

__global__ void row_sums(const float *x, float *y, int d)
{
	__shared__ float sh[1024];
	float s = 0.0f;
	for (int j = threadIdx.x; j < d; j += blockDim.x)
		s += x[blockIdx.x * d + j];
	sh[threadIdx.x] = s;
	__syncthreads();
	for (int h = blockDim.x / 2; h > 0; h >>= 1) {
		if (threadIdx.x < h)
			sh[threadIdx.x] += sh[threadIdx.x + h];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		y[blockIdx.x] = sh[0];
}

void run_row_sums(const float *x, float *y, int rows, int d)
{
	row_sums<<<rows, 256>>>(x, y, d);
}
