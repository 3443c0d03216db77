// rows: a row per block, the block's threads striding over the row's
// columns; nothing in this file launches the kernels.
#include <cuda_runtime.h>

// the rows bounded by a guard: the grid is that parameter
__global__ void row_scale_kernel(float *x, const float *scale, int rows,
                                 int d)
{
	int row = blockIdx.x;
	if (row >= rows)
		return;
	for (int j = threadIdx.x; j < d; j += blockDim.x)
		x[row * d + j] *= scale[j];
}

// no guard: how many rows is the host's choice, a new problem variable
__global__ void row_copy_kernel(float *out, const float *in, int d)
{
	const float *src = in + blockIdx.x * d;
	float *dst = out + blockIdx.x * d;
	for (int j = threadIdx.x; j < d; j += blockDim.x)
		dst[j] = src[j];
}

__device__ float warp_sum(float v)
{
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, o);
	return v;
}

// a warp's sum by a helper's shuffles and thread 0 writing the row's: one
// warp is the whole block, so the block stays 32
__global__ void row_sum_kernel(float *out, const float *x, int rows, int d)
{
	if (blockIdx.x >= rows)
		return;
	float s = 0.0f;
	for (int j = threadIdx.x; j < d; j += blockDim.x)
		s += x[blockIdx.x * d + j];
	s = warp_sum(s);
	if (threadIdx.x == 0)
		out[blockIdx.x] = s;
}

// the step inside the loop's body (unrolled by hand): each thread adds its
// partial sum to the row's total
__global__ void row_total_kernel(float *total, const float *x, int d)
{
	float s = 0.0f;
	for (int j = threadIdx.x; j < d;) {
		for (int u = 0; u < 4; ++u) {
			if (j < d)
				s += x[blockIdx.x * d + j];
			j += blockDim.x;
		}
	}
	atomicAdd(&total[blockIdx.x], s);
}
