// moe_align_block_size.cu - the token order of a fused MoE GEMM: for ids
// [numel] (the top-k expert of each token, flattened), group the positions
// i by expert, each expert's group padded to a multiple of block_size with
// the value numel, and name the expert of each block of block_size. In the
// style of SGLang's AOT moe_align_block_size, two launches:
//  1. moe_align_block_size_kernel, 2 blocks of 1024 threads: block 0 counts
//     tokens per expert (shared-memory atomics), thread 0 alone sums the
//     padded counts into offsets, then the offsets and the expert of every
//     block are written; block 1 fills the whole output with the padding
//     value, 4 ints per store.
//  2. count_and_sort_expert_tokens_kernel, 256 threads, one id per thread
//     (grid-stride, at most 65535 blocks): each id takes the next slot of
//     its expert with a global atomic, so the order inside a group depends
//     on the atomics (as in SGLang); the groups themselves are exact.
#include <cuda_runtime.h>

extern "C" __global__ void moe_align_block_size_kernel(
	const int *__restrict__ ids, int *__restrict__ sorted_ids,
	int *__restrict__ expert_ids, int *__restrict__ total_post_pad,
	int *__restrict__ cumsum, int numel, int experts, int block_size,
	int max_padded)
{
	if (blockIdx.x == 1) {
		const int4 fill = make_int4(numel, numel, numel, numel);
		for (int i = threadIdx.x; i < max_padded / 4; i += blockDim.x)
			reinterpret_cast<int4 *>(sorted_ids)[i] = fill;
		for (int i = max_padded / 4 * 4 + threadIdx.x; i < max_padded;
		     i += blockDim.x)
			sorted_ids[i] = numel;
		return;
	}
	extern __shared__ int smem[];
	int *counts = smem, *cum = smem + experts;
	for (int e = threadIdx.x; e < experts; e += blockDim.x)
		counts[e] = 0;
	__syncthreads();
	for (int i = threadIdx.x; i < numel; i += blockDim.x)
		atomicAdd(&counts[ids[i]], 1);
	__syncthreads();
	if (threadIdx.x == 0) {
		cum[0] = 0;
		for (int e = 0; e < experts; e++)
			cum[e + 1] = cum[e] + (counts[e] + block_size - 1) / block_size *
						      block_size;
		*total_post_pad = cum[experts];
	}
	__syncthreads();
	for (int e = threadIdx.x; e <= experts; e += blockDim.x)
		cumsum[e] = cum[e];
	for (int e = threadIdx.x; e < experts; e += blockDim.x)
		for (int b = cum[e]; b < cum[e + 1]; b += block_size)
			expert_ids[b / block_size] = e;
	const int max_blocks = (max_padded + block_size - 1) / block_size;
	for (int b = cum[experts] / block_size + threadIdx.x; b < max_blocks;
	     b += blockDim.x)
		expert_ids[b] = -1;
}

extern "C" __global__ void count_and_sort_expert_tokens_kernel(
	const int *__restrict__ ids, int *__restrict__ sorted_ids,
	int *__restrict__ cumsum, int numel)
{
	const int stride = gridDim.x * blockDim.x;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < numel; i += stride)
		sorted_ids[atomicAdd(&cumsum[ids[i]], 1)] = i;
}

#ifndef __CUDACC_RTC__
// sorted_ids holds numel + experts * (block_size - 1) ints, expert_ids that
// divided by block_size (rounded up), cumsum experts + 1 (scratch: it ends
// as the end of each expert's tokens).
static cudaError_t moe_align_block_size(const int *ids, int *sorted_ids,
					int *expert_ids, int *total_post_pad,
					int *cumsum, int numel, int experts,
					int block_size, cudaStream_t stream)
{
	if (numel <= 0 || experts <= 0 || block_size <= 0)
		return cudaErrorInvalidValue;
	const int max_padded = numel + experts * (block_size - 1);
	const size_t smem = (2 * experts + 1) * sizeof(int);
	moe_align_block_size_kernel<<<2, 1024, smem, stream>>>(
		ids, sorted_ids, expert_ids, total_post_pad, cumsum, numel, experts,
		block_size, max_padded);
	const int blocks = (numel + 255) / 256;
	count_and_sort_expert_tokens_kernel<<<blocks < 65535 ? blocks : 65535, 256, 0,
					      stream>>>(ids, sorted_ids, cumsum, numel);
	return cudaGetLastError();
}
#endif
