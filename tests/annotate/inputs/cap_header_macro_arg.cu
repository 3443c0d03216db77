// The header's block size written in the header's clamp macro at the
// launch, `CLAMP_MIN(n, SHIFT_BLOCK)`: its literal stands at the name
// SHIFT_BLOCK in the argument, not at the clamp's expansion, so the
// parameter stands there (before, its text was empty and the plan was
// refused), and the grid's expansions follow it.
#include "cap_header_macro_arg.h"

__global__ void shift(float *x, float by, long n)
{
	const long i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	x[i] += by;
}

void shift_all(float *x, float by, long n, cudaStream_t s)
{
	const long blocks = (n + SHIFT_BLOCK - 1) / SHIFT_BLOCK;
	shift<<<blocks, CLAMP_MIN(n, SHIFT_BLOCK), 0, s>>>(x, by, n);
}
