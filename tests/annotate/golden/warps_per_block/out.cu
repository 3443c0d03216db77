// A warp per item: the block is a count of warps times the warp size,
// the count a named constant (`num_warps_per_block`) of the host that the
// grid divides by too, through a header's div_ceil. The count is the
// tuning knob (the 32 beside it stays the warp size); the kernel's
// constexpr CHUNKS is read where the grid uses it, even though the
// kernel's store writes `y[(row * CHUNKS + chunk) * 32 + lane]`. A
// warp's index (`/ 32`) is not a thread's: no items per thread for it.
#ifndef __CUDACC_RTC__
#include "warps_per_block_util.h"
#elif !defined(KTC_RTC_HEADERS_GIVEN)
// ktc: the device side of "warps_per_block_util.h"
// A project header's helper: its body one `return`, which ktc reads
// through where a launch uses it.
#pragma once


#endif

#ifndef NUM_WARPS_PER_BLOCK
#define NUM_WARPS_PER_BLOCK 16
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

constexpr int CHUNKS = 8;

#pragma kt param NUM_WARPS_PER_BLOCK values(1, 2, 4, 8, 16, 32) default(16)
#pragma kt constraint ((NUM_WARPS_PER_BLOCK * 32)) <= DEVICE_MAX_THREADS_PER_BLOCK
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint NUM_WARPS_PER_BLOCK * 32 * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(((((n * 8) + NUM_WARPS_PER_BLOCK - 1) / NUM_WARPS_PER_BLOCK))) block((NUM_WARPS_PER_BLOCK * 32))
#pragma kt arg y float[256 * n] out
#pragma kt arg x float[256 * n] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(NUM_WARPS_PER_BLOCK * 32, MIN_BLOCKS)
#endif
copy_chunks(float *__restrict__ y, const float *__restrict__ x,
                            int n)
{
	const int flat_warp_id = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
	const int lane = threadIdx.x % 32;
	const int row = flat_warp_id / CHUNKS;
	const int chunk = flat_warp_id % CHUNKS;
	if (row >= n)
		return;
	y[(row * CHUNKS + chunk) * 32 + lane] =
	    x[(row * CHUNKS + chunk) * 32 + lane];
}

#ifndef __CUDACC_RTC__
void copy(float *y, const float *x, int n)
{
	constexpr int num_warps_per_block = NUM_WARPS_PER_BLOCK;
	const int grid_size = div_ceil(n * CHUNKS, num_warps_per_block);
	const int block_size = num_warps_per_block * 32;
	copy_chunks<<<grid_size, block_size>>>(y, x, n);
}
#endif
