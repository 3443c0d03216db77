// row_refactors.cu - a "one block per row" kernel of the serving stacks'
// kind: blockIdx.x is the row, a block-strided elementwise loop walks its
// columns. The built-in planner offers row_split (more blocks per row,
// along y), hoist_loads (several iterations' loads before their stores)
// and launch_bounds here.
#include <cuda_runtime.h>

__global__ void scale_rows(float *__restrict__ out, const float *__restrict__ in,
			   const float *__restrict__ w, int d)
{
	const int row = blockIdx.x;
	for (int i = threadIdx.x; i < d; i += blockDim.x) {
		const float v = in[row * d + i] * w[i];
		out[row * d + i] = v > 0.0f ? v : 0.0f;
	}
}

void scale_rows_launch(float *out, const float *in, const float *w, int rows,
		       int d, cudaStream_t stream)
{
	scale_rows<<<rows, 256, 0, stream>>>(out, in, w, d);
}
