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
// hand: the template's parameters (the two kernels are tuned apart, `ktc
// tune -k NAME`), each defaulting to the original's literal or code path:
//   align kernel:  BLOCK_SIZE threads per block (1024); FILL_VEC ints per
//                  store of the padding fill (4); FILL_BLOCKS blocks that
//                  fill (1); SCAN 0: thread 0 sums the offsets alone (the
//                  original), 1: the first warp scans 32 experts at a time
//                  with shuffles; CNT_VEC ids per load while counting (1);
//                  UNROLL of the counting loop (0: no pragma, the original)
//   sort kernel:   BLOCK_SIZE_2 threads per block (256); S_ITEMS ids per
//                  thread (1); S_AGG 0: a global atomic per id (the
//                  original), 1: the block counts its ids per expert in
//                  shared memory first (256 counters, experts <= 256) and
//                  takes each expert's slots with one global atomic
// The sort kernel's output order inside an expert's group depends on its
// atomics, so ktc cannot compare it with the default configuration's
// (`verify off`); the GPU checker compares the groups as sets with ref.c.
// Its in-out offsets start at zero when ktc times it: the same atomics on
// the same addresses as in use, the slots written overlapping. The ids ktc
// draws span 256 experts, hence the constraint E >= 256 (it keeps ktc's
// check at a size not tuned on, which halves every problem variable, off
// smaller expert counts); the GPU checker covers 64 experts.
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 1024
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 256
#endif
#ifndef FILL_VEC // hand: the fill's int4 (annotate: a width needs the vectorize refactor)
#define FILL_VEC 4
#endif
#ifndef FILL_BLOCKS // hand: the fill's one block (the grid's 2 is 1 + 1)
#define FILL_BLOCKS 1
#endif
#ifndef SCAN // hand: the serial scan as a warp scan (annotate: its WARP_SCAN, the same refactor)
#define SCAN 0
#endif
#ifndef CNT_VEC // hand: a width of the counting loop (annotate: ITEMS hoists its loads, no int4)
#define CNT_VEC 1
#endif
#ifndef UNROLL // hand: the counting loop has no #pragma unroll to derive it from
#define UNROLL 0
#endif
#ifndef S_ITEMS // hand: ids per thread (annotate: ITEMS_2, its loads hoisted, the grid kept)
#define S_ITEMS 1
#endif
#ifndef S_AGG // hand: a refactor of the sort's atomics
#define S_AGG 0
#endif
constexpr int kt_unroll_UNROLL = UNROLL;

// hand: FILL_VEC and CNT_VEC ints move as one word (int, int2, int4)
template <int N> struct al_word;
template <> struct al_word<1> {
	typedef int t;
	static __device__ __forceinline__ int make(int x) { return x; }
};
template <> struct al_word<2> {
	typedef int2 t;
	static __device__ __forceinline__ int2 make(int x) { return make_int2(x, x); }
};
template <> struct al_word<4> {
	typedef int4 t;
	static __device__ __forceinline__ int4 make(int x) { return make_int4(x, x, x, x); }
};

// hand: the blocks below complete annotate's (its "ktc: complete" lines:
// the launch, buffer lengths and problem sizes over T, K, E, BS) and add
// the parameters above. Block sizes: annotate's 32..1024 step 32 would
// break the warp scan's and the fill's arithmetic for no gain. annotate's
// VEC (the zeroing of the shared counts, vectorized) is left out: 256 ints
// of shared memory, nothing to win, and it would double the space
#pragma kt param BLOCK_SIZE values(128, 256, 512, 1024) default(1024)
#pragma kt param FILL_VEC values(2, 4) default(4)
#pragma kt param FILL_BLOCKS values(1, 2, 4, 8) default(1)
#pragma kt param SCAN values(0, 1) default(0)
#pragma kt param CNT_VEC values(1, 4) default(1)
#pragma kt param UNROLL values(0, 4, 8) default(0)
#pragma kt problem T values(1, 64, 4096, 16384) default(4096) // hand: numel = T * K, the model's sizes
#pragma kt problem K values(8)
#pragma kt problem E values(256)
#pragma kt problem BS values(64)
#pragma kt set PADDED = T * K + E * (BS - 1)
#pragma kt constraint E >= 256 // hand: ktc draws ids in [0, 255] (see above)
#pragma kt launch grid(1 + FILL_BLOCKS) block(BLOCK_SIZE) smem((2 * E + 1) * 4) // hand: from the host code's smem and 2
#pragma kt arg ids i32[T * K] in init(random(0, 255))
#pragma kt arg sorted_ids i32[PADDED] out
#pragma kt arg expert_ids i32[div_ceil(PADDED, BS)] out
#pragma kt arg total_post_pad i32[1] out
#pragma kt arg cumsum i32[E + 1] out
#pragma kt arg numel int = T * K
#pragma kt arg experts int = E
#pragma kt arg block_size int = BS
#pragma kt arg max_padded int = PADDED
#pragma kt objective time
extern "C" __global__ void moe_align_block_size_kernel(
	const int *__restrict__ ids, int *__restrict__ sorted_ids,
	int *__restrict__ expert_ids, int *__restrict__ total_post_pad,
	int *__restrict__ cumsum, int numel, int experts, int block_size,
	int max_padded)
{
	// hand: FILL_BLOCKS blocks after the first fill, FILL_VEC ints a store
#if FILL_BLOCKS == 1
	if (blockIdx.x == 1) {
		const int first = threadIdx.x;
#else
	if (blockIdx.x >= 1) {
		const int first = (blockIdx.x - 1) * blockDim.x + threadIdx.x;
#endif
		typedef al_word<FILL_VEC>::t fill_t;
		const fill_t fill = al_word<FILL_VEC>::make(numel);
		for (int i = first; i < max_padded / FILL_VEC; i += FILL_BLOCKS * blockDim.x)
			reinterpret_cast<fill_t *>(sorted_ids)[i] = fill;
		for (int i = max_padded / FILL_VEC * FILL_VEC + first; i < max_padded;
		     i += FILL_BLOCKS * blockDim.x)
			sorted_ids[i] = numel;
		return;
	}
	extern __shared__ int smem[];
	int *counts = smem, *cum = smem + experts;
	for (int e = threadIdx.x; e < experts; e += blockDim.x)
		counts[e] = 0;
	__syncthreads();
#if CNT_VEC > 1
	// hand: CNT_VEC ids per load (ids comes from cudaMalloc: aligned)
	typedef al_word<CNT_VEC>::t cnt_t;
#if UNROLL > 0
#pragma unroll kt_unroll_UNROLL
#endif
	for (int i = threadIdx.x; i < numel / CNT_VEC; i += blockDim.x) {
		const cnt_t v = reinterpret_cast<const cnt_t *>(ids)[i];
		const int *e = reinterpret_cast<const int *>(&v);
#pragma unroll
		for (int k = 0; k < CNT_VEC; k++)
			atomicAdd(&counts[e[k]], 1);
	}
	for (int i = numel / CNT_VEC * CNT_VEC + threadIdx.x; i < numel; i += blockDim.x)
		atomicAdd(&counts[ids[i]], 1);
#else
#if UNROLL > 0 // hand: UNROLL 0 keeps the original's loop without a pragma
#pragma unroll kt_unroll_UNROLL
#endif
	for (int i = threadIdx.x; i < numel; i += blockDim.x)
		atomicAdd(&counts[ids[i]], 1);
#endif
	__syncthreads();
#if SCAN
	if (threadIdx.x < 32) { // hand: a warp scan, 32 experts per step
		const int lane = threadIdx.x;
		int carry = 0;
		for (int base = 0; base < experts; base += 32) {
			const int e = base + lane;
			int v = e < experts ? (counts[e] + block_size - 1) / block_size *
						      block_size
					    : 0;
#pragma unroll
			for (int off = 1; off < 32; off *= 2) {
				int u = __shfl_up_sync(0xffffffff, v, off);
				if (lane >= off)
					v += u;
			}
			if (e < experts)
				cum[e + 1] = carry + v;
			carry += __shfl_sync(0xffffffff, v, 31);
		}
		if (lane == 0) {
			cum[0] = 0;
			*total_post_pad = carry;
		}
	}
#else
	if (threadIdx.x == 0) {
		cum[0] = 0;
		for (int e = 0; e < experts; e++)
			cum[e + 1] = cum[e] + (counts[e] + block_size - 1) / block_size *
						      block_size;
		*total_post_pad = cum[experts];
	}
#endif
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

#pragma kt param BLOCK_SIZE_2 values(64, 128, 256, 512, 1024) default(256)
#pragma kt param S_ITEMS values(1, 2, 4, 8) default(1)
#pragma kt param S_AGG values(0, 1) default(0)
#pragma kt problem T values(1, 64, 4096, 16384) default(4096) // hand: as above
#pragma kt problem K values(8)
#pragma kt problem E values(256)
#pragma kt problem BS values(64)
#pragma kt set PADDED = T * K + E * (BS - 1)
#pragma kt constraint E >= 256 // hand: as above
#pragma kt constraint S_AGG == 0 || E <= 256 // hand: S_AGG's 256 counters
#pragma kt launch grid(min(div_ceil(T * K, BLOCK_SIZE_2 * S_ITEMS), 65535)) block(BLOCK_SIZE_2)
#pragma kt arg ids i32[T * K] in init(random(0, 255))
#pragma kt arg sorted_ids i32[PADDED] out
#pragma kt arg cumsum i32[E + 1] inout init(zeros) // hand: offsets in, ends out
#pragma kt arg numel int = T * K
#pragma kt verify off // hand: the order inside a group comes from atomics
#pragma kt objective time
extern "C" __global__ void count_and_sort_expert_tokens_kernel(
	const int *__restrict__ ids, int *__restrict__ sorted_ids,
	int *__restrict__ cumsum, int numel)
{
	const int stride = gridDim.x * blockDim.x;
#if S_AGG
	// hand: S_AGG: ranks inside the block from shared counters, then one
	// global atomic per expert and block for the block's slots
	__shared__ int cnt[256];
	for (int first = blockIdx.x * blockDim.x; first < numel; first += stride * S_ITEMS) {
		for (int x = threadIdx.x; x < 256; x += blockDim.x)
			cnt[x] = 0;
		__syncthreads();
		const int base = first + threadIdx.x;
		int e[S_ITEMS], rank[S_ITEMS];
#pragma unroll
		for (int k = 0; k < S_ITEMS; k++)
			e[k] = base + k * stride < numel ? ids[base + k * stride] : -1;
#pragma unroll
		for (int k = 0; k < S_ITEMS; k++)
			if (e[k] >= 0)
				rank[k] = atomicAdd(&cnt[e[k]], 1);
		__syncthreads();
		for (int x = threadIdx.x; x < 256; x += blockDim.x)
			if (cnt[x])
				cnt[x] = atomicAdd(&cumsum[x], cnt[x]);
		__syncthreads();
#pragma unroll
		for (int k = 0; k < S_ITEMS; k++)
			if (e[k] >= 0)
				sorted_ids[cnt[e[k]] + rank[k]] = base + k * stride;
		__syncthreads(); // cnt is read above before the next round zeroes it
	}
#elif S_ITEMS == 1
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < numel; i += stride)
		sorted_ids[atomicAdd(&cumsum[ids[i]], 1)] = i;
#else
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < numel;
	     i += stride * S_ITEMS) {
		int e[S_ITEMS]; // hand: S_ITEMS ids loaded before the atomics
#pragma unroll
		for (int k = 0; k < S_ITEMS; k++)
			e[k] = i + k * stride < numel ? ids[i + k * stride] : -1;
#pragma unroll
		for (int k = 0; k < S_ITEMS; k++)
			if (e[k] >= 0)
				sorted_ids[atomicAdd(&cumsum[e[k]], 1)] = i + k * stride;
	}
#endif
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
	if (S_AGG && experts > 256) // hand: S_AGG's 256 counters
		return cudaErrorInvalidConfiguration;
	const int max_padded = numel + experts * (block_size - 1);
	const size_t smem = (2 * experts + 1) * sizeof(int);
	moe_align_block_size_kernel<<<1 + FILL_BLOCKS, BLOCK_SIZE, smem, stream>>>( // hand: FILL_BLOCKS
		ids, sorted_ids, expert_ids, total_post_pad, cumsum, numel, experts,
		block_size, max_padded);
	// hand: S_ITEMS ids per thread
	const int blocks = (numel + BLOCK_SIZE_2 * S_ITEMS - 1) / (BLOCK_SIZE_2 * S_ITEMS);
	count_and_sort_expert_tokens_kernel<<<blocks < 65535 ? blocks : 65535, BLOCK_SIZE_2, 0,
					      stream>>>(ids, sorted_ids, cumsum, numel);
	return cudaGetLastError();
}
#endif
