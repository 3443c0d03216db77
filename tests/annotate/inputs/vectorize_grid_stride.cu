// vectorize_grid_stride.cu - grid-stride element loops (the start the thread's
// global index, the step the grid's threads, written in any order, through
// const locals) are vectorized as block-stride ones are: every thread of the
// grid starts once in [0, step). A loop whose step is only the block is not.
#include <cuda_fp16.h>
__global__ void gs1(const float *__restrict__ x, float *__restrict__ y, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
		y[i] = x[i] * 2.f;
}
__global__ void gs2(const __half *__restrict__ x, __half *__restrict__ y, int n)
{
	const int idx = threadIdx.x + blockDim.x * blockIdx.x;
	const int stride = gridDim.x * blockDim.x;
	for (int i = idx; i < n; i += stride)
		y[i] = __hmul(x[i], x[i]);
}
// not covering: the step is the block only
__global__ void gs3(const float *__restrict__ x, float *__restrict__ y, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x)
		y[i] = x[i] * 2.f;
}
void run(const float *x, float *y, const __half *h, __half *g, int n)
{
	gs1<<<132, 256>>>(x, y, n);
	gs2<<<132, 256>>>(h, g, n);
	gs3<<<1, 256>>>(x, y, n);
}
