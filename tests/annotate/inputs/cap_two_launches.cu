// One kernel launched on two branches, each with its block capped at
// 1024 (`min(d / 4, 1024)` where the host packs four elements, else
// `min(d, 1024)`): any block size up to the cap serves both, so the two
// caps are one parameter (before, the second launch counted as another
// block size and the cap stayed).
#include <algorithm>
#include <cuda_runtime.h>

__global__ void twice_rows(float *out, const float *in, int d)
{
	for (int i = threadIdx.x; i < d; i += blockDim.x)
		out[blockIdx.x * d + i] = 2.0f * in[blockIdx.x * d + i];
}

void twice(float *out, const float *in, int rows, int d, bool packed,
           cudaStream_t s)
{
	dim3 grid(rows);
	if (packed) {
		dim3 block(std::min(d / 4, 1024));
		twice_rows<<<grid, block, 0, s>>>(out, in, d);
	} else {
		dim3 block(std::min(d, 1024));
		twice_rows<<<grid, block, 0, s>>>(out, in, d);
	}
}
