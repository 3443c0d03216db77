// The header's block size written in the header's clamp macro at the
// launch, `CLAMP_MIN(n, SHIFT_BLOCK)`: its literal stands at the name
// SHIFT_BLOCK in the argument, not at the clamp's expansion, so the
// parameter stands there (before, its text was empty and the plan was
// refused), and the grid's expansions follow it.
#include "cap_header_macro_arg.h"

#ifndef SHIFT_SHIFT_BLOCK
#define SHIFT_SHIFT_BLOCK 256
#endif
#ifndef ITEMS_PER_THREAD
#define ITEMS_PER_THREAD 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param SHIFT_SHIFT_BLOCK values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint SHIFT_SHIFT_BLOCK * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil(((n + SHIFT_SHIFT_BLOCK - 1) / SHIFT_SHIFT_BLOCK), ITEMS_PER_THREAD)) block(((n) < (SHIFT_SHIFT_BLOCK) ? (n) : (SHIFT_SHIFT_BLOCK)))
#pragma kt arg x float[n] inout
// ktc: complete and uncomment: #pragma kt arg by float = ?
#pragma kt arg n long = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(SHIFT_SHIFT_BLOCK, MIN_BLOCKS)
#endif
shift(float *x, float by, long n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		const long i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i >= n)
			return;
		x[i] += by;
	}
}

#ifndef __CUDACC_RTC__
void shift_all(float *x, float by, long n, cudaStream_t s)
{
	const long blocks = (n + SHIFT_SHIFT_BLOCK - 1) / SHIFT_SHIFT_BLOCK;
	shift<<<(((blocks) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), CLAMP_MIN(n, SHIFT_SHIFT_BLOCK), 0, s>>>(x, by, n);
}
#endif
