// A kernel passed to a header's launcher from a host function template
// whose template parameter the kernel's arguments name: the call is not
// resolved until the template is instantiated, so it names the launcher's
// overload set, and the launcher is followed through it. The block's
// rows per block (4) and the grid that divides by them are tied.
#include "dependent_wrapper_call.h"

template <bool add>
__global__ void shift_rows(float *x, int rows, int cols)
{
	int r = blockIdx.x * blockDim.y + threadIdx.y;
	if (r >= rows)
		return;
	for (int c = threadIdx.x; c < cols; c += blockDim.x)
		x[r * cols + c] += add ? 1.0f : -1.0f;
}

template <bool add>
static void shift_rows_t(float *x, int rows, int cols, cudaStream_t s)
{
	const int per_block = 4;
	dim3 grid((rows + per_block - 1) / per_block);
	dim3 block(64, per_block);
	const geom g = geom(grid, block, s);
	launch_with(shift_rows<add>, g, x, rows, cols);
}

void shift(float *x, int rows, int cols, bool add, cudaStream_t s)
{
	if (add)
		shift_rows_t<true>(x, rows, cols, s);
	else
		shift_rows_t<false>(x, rows, cols, s);
}
