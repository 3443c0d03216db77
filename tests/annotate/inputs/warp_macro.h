// warp_macro.h: the warp size and a warp reduction, as a project's
// common header gives them.
#pragma once
#define WARP_SIZE 32

__device__ inline int warp_sum(int v)
{
	for (int off = WARP_SIZE / 2; off > 0; off /= 2)
		v += __shfl_xor_sync(0xffffffff, v, off, WARP_SIZE);
	return v;
}
