// One warp per block, through a header's WARP_SIZE: the kernel strides by
// the warp size and reduces with warp shuffles (in the header), so the
// block size must stay WARP_SIZE; a wider block would count twice.
#include "warp_macro.h"

#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint 32 * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + 4096 - 1) / 4096) block(32, 1, 1)
// ktc: complete and uncomment: #pragma kt arg x int[?] in
// ktc: complete and uncomment: #pragma kt arg y int[?] in
#pragma kt arg dst int[1] inout
#pragma kt arg chunk int = 4096
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(32, MIN_BLOCKS)
#endif
count_equal(const int *x, const int *y, int *dst, int chunk,
                            int n)
{
	const int i0 = blockIdx.x * chunk;
	const int i1 = min(i0 + chunk, n);
	int equal = 0;
	for (int i = i0 + threadIdx.x; i < i1; i += WARP_SIZE)
		equal += x[i] == y[i];
	equal = warp_sum(equal);
	if (threadIdx.x == 0)
		atomicAdd(dst, equal);
}

#ifndef __CUDACC_RTC__
void count_equal_launch(const int *x, const int *y, int *dst, int n)
{
	const int chunk = 4096;
	const dim3 block(WARP_SIZE, 1, 1);
	count_equal<<<(n + chunk - 1) / chunk, block>>>(x, y, dst, chunk, n);
}
#endif
