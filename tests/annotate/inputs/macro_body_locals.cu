// Locals a macro body declares all stand at the macro's expansion: the
// block's `dim3 block(...)` is told from the grid's `dim3 grid(...)` by
// the declaration itself, not by where it stands, so the launch line has
// the block the macro computes (before: 'block(rows)', the grid's value).
#include <cuda_runtime.h>

__global__ void halve_rows(float *x, int rows, int cols)
{
	for (int c = threadIdx.x; c < cols; c += blockDim.x)
		x[blockIdx.x * cols + c] *= 0.5f;
}

#define LAUNCH_HALVE(X)                                                        \
	dim3 grid(rows);                                                       \
	dim3 block(cols < 512 ? cols : 512);                                   \
	halve_rows<<<grid, block, 0, s>>>(X, rows, cols)

void halve(float *x, int rows, int cols, cudaStream_t s)
{
	LAUNCH_HALVE(x);
}
