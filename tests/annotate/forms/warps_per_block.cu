// A warp per item: the block is a count of warps times the warp size,
// the count a named constant (`num_warps_per_block`) of the host that the
// grid divides by too, through a header's div_ceil. The count is the
// tuning knob (the 32 beside it stays the warp size); the kernel's
// constexpr CHUNKS is read where the grid uses it, even though the
// kernel's store writes `y[(row * CHUNKS + chunk) * 32 + lane]`. A
// warp's index (`/ 32`) is not a thread's: no items per thread for it.
#include "warps_per_block_util.h"

constexpr int CHUNKS = 8;

__global__ void copy_chunks(float *__restrict__ y, const float *__restrict__ x,
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

void copy(float *y, const float *x, int n)
{
	constexpr int num_warps_per_block = 16;
	const int grid_size = div_ceil(n * CHUNKS, num_warps_per_block);
	const int block_size = num_warps_per_block * 32;
	copy_chunks<<<grid_size, block_size>>>(y, x, n);
}
