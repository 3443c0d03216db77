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

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 1024
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 256
#endif
#ifndef VEC
#define VEC 1
#endif
template <int N> struct kt_vec;
template <> struct kt_vec<1> { typedef unsigned char t; };
template <> struct kt_vec<2> { typedef unsigned short t; };
template <> struct kt_vec<4> { typedef unsigned int t; };
template <> struct kt_vec<8> { typedef uint2 t; };
template <> struct kt_vec<16> { typedef uint4 t; };

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(1024)
#pragma kt param VEC values(1, 2, 4) default(1)
// ktc: complete and uncomment: #pragma kt problem experts values(?)
// ktc: complete and uncomment: #pragma kt problem numel values(?)
// ktc: complete and uncomment: #pragma kt problem block_size values(?)
#pragma kt launch grid(2) block(BLOCK_SIZE) smem(((2 * experts + 1) * 4))
// ktc: complete and uncomment: #pragma kt arg ids int[?] in
// ktc: complete and uncomment: #pragma kt arg sorted_ids int[?] out
// ktc: complete and uncomment: #pragma kt arg expert_ids int[?] out
// ktc: complete and uncomment: #pragma kt arg total_post_pad int[?] in
// ktc: complete and uncomment: #pragma kt arg cumsum int[?] out
#pragma kt arg numel int = numel
#pragma kt arg experts int = experts
#pragma kt arg block_size int = block_size
#pragma kt arg max_padded int = (numel + experts * (block_size - 1))
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
	if constexpr (VEC == 1)
		for (int e = threadIdx.x; e < experts; e += blockDim.x)
			counts[e] = 0;
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&counts[0])) % (VEC * 4)) == 0;
		const int kt_nvec = kt_aligned ? (int)((experts) / VEC) : 0;
		for (int kt_v = threadIdx.x; kt_v < kt_nvec; kt_v += blockDim.x) {
			int kt_counts[VEC];
#pragma unroll
			for (int kt_e = 0; kt_e < VEC; kt_e++) {
				const int e = kt_v * VEC + kt_e;
				(void)e;
				kt_counts[kt_e] = 0;
			}
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(&counts[(0) + kt_v * VEC]) = *reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_counts);
		}
		for (int e = kt_nvec * VEC + (threadIdx.x); e < (experts); e += blockDim.x)
			counts[e] = 0;
	}
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

#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
// ktc: complete and uncomment: #pragma kt problem numel values(?)
#pragma kt launch grid(((numel + (BLOCK_SIZE_2 - 1)) / BLOCK_SIZE_2) < 65535 ? ((numel + (BLOCK_SIZE_2 - 1)) / BLOCK_SIZE_2) : 65535) block(BLOCK_SIZE_2)
// ktc: complete and uncomment: #pragma kt arg ids int[?] in
// ktc: complete and uncomment: #pragma kt arg sorted_ids int[?] out
// ktc: complete and uncomment: #pragma kt arg cumsum int[?] inout
#pragma kt arg numel int = numel
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
	moe_align_block_size_kernel<<<2, BLOCK_SIZE, smem, stream>>>(
		ids, sorted_ids, expert_ids, total_post_pad, cumsum, numel, experts,
		block_size, max_padded);
	const int blocks = (numel + (BLOCK_SIZE_2 - 1)) / BLOCK_SIZE_2;
	count_and_sort_expert_tokens_kernel<<<blocks < 65535 ? blocks : 65535, BLOCK_SIZE_2, 0,
					      stream>>>(ids, sorted_ids, cumsum, numel);
	return cudaGetLastError();
}
#endif
