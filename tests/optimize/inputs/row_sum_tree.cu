// A row per block, the row's sum reduced through a shared-memory tree:
// the optimize loop's proposals for block reductions (warp_per_row,
// warp_reduce, cluster_split), ranked by the rows each shape has.
#include <cuda_runtime.h>

__global__ void row_sum(const float *__restrict__ x, float *__restrict__ out,
			int d)
{
	__shared__ float sh[1024];
	const int tid = threadIdx.x;
	const float *row = x + (long)blockIdx.x * d;
	float acc = 0.f;
	for (int c = threadIdx.x; c < d; c += blockDim.x)
		acc += row[c];
	sh[tid] = acc;
	__syncthreads();
	for (int s = blockDim.x / 2; s > 0; s >>= 1) {
		if (tid < s)
			sh[tid] += sh[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		out[blockIdx.x] = sh[0];
}

void run_row_sum(const float *x, float *out, int rows, int d)
{
	row_sum<<<rows, 256>>>(x, out, d);
}
