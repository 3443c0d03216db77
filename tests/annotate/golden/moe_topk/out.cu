// moe_topk: for each token, a softmax over the experts' gating logits and
// the top-k experts with their renormalised weights; one warp per token,
// 4 warps per block, each lane holds num_experts / 32 logits.
#include <cuda_runtime.h>

#ifndef __CUDACC_RTC__
#include <cfloat>
#elif !defined(KTC_RTC_HEADERS_GIVEN)
#define FLT_MAX 3.402823466e+38F
#define FLT_MIN 1.175494351e-38F
#define FLT_EPSILON 1.192092896e-07F
#define DBL_MAX 1.7976931348623158e+308
#endif

#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#define NUM_EXPERTS 64
#ifndef WARPS_PER_BLOCK
#define WARPS_PER_BLOCK 4
#endif

#pragma kt param WARPS_PER_BLOCK values(1, 2, 4, 8, 16, 32) default(4)
#pragma kt constraint (WARPS_PER_BLOCK * 32) <= DEVICE_MAX_THREADS_PER_BLOCK
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint WARPS_PER_BLOCK * 32 * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem num_tokens values(?)
// ktc: complete and uncomment: #pragma kt problem k values(?)
#pragma kt launch grid(((num_tokens + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK)) block(WARPS_PER_BLOCK * 32)
#pragma kt arg logits float[64 * num_tokens] in
#pragma kt arg topk_weights float[num_tokens * k] inout
#pragma kt arg topk_ids int[num_tokens * k] out
#pragma kt arg num_tokens int = num_tokens
#pragma kt arg k int = k
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(WARPS_PER_BLOCK * 32, MIN_BLOCKS)
#endif
moe_topk_kernel(const float *__restrict__ logits,
				float *__restrict__ topk_weights,
				int *__restrict__ topk_ids, int num_tokens,
				int k)
{
	const int warp = threadIdx.x / 32;
	const int lane = threadIdx.x % 32;
	const int token = blockIdx.x * WARPS_PER_BLOCK + warp;
	if (token >= num_tokens)
		return;
	constexpr int per_lane = NUM_EXPERTS / 32;
	float v[per_lane];
	float m = -FLT_MAX;
#pragma unroll
	for (int j = 0; j < per_lane; j++) {
		v[j] = logits[token * NUM_EXPERTS + j * 32 + lane];
		m = fmaxf(m, v[j]);
	}
	for (int off = 16; off > 0; off /= 2)
		m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, off));
	float s = 0.0f;
#pragma unroll
	for (int j = 0; j < per_lane; j++) {
		v[j] = __expf(v[j] - m);
		s += v[j];
	}
	for (int off = 16; off > 0; off /= 2)
		s += __shfl_xor_sync(0xffffffff, s, off);
	float picked = 0.0f;
	for (int r = 0; r < k; r++) {
		float best = -1.0f;
		int best_id = 0;
#pragma unroll
		for (int j = 0; j < per_lane; j++)
			if (v[j] > best) {
				best = v[j];
				best_id = j * 32 + lane;
			}
		for (int off = 16; off > 0; off /= 2) {
			float ob = __shfl_xor_sync(0xffffffff, best, off);
			int oi = __shfl_xor_sync(0xffffffff, best_id, off);
			if (ob > best || (ob == best && oi < best_id)) {
				best = ob;
				best_id = oi;
			}
		}
		if (lane == 0) {
			topk_weights[token * k + r] = best / s;
			topk_ids[token * k + r] = best_id;
		}
		picked += best / s;
		if (best_id % 32 == lane)
			v[best_id / 32] = -1.0f;
	}
	if (lane == 0)
		for (int r = 0; r < k; r++)
			topk_weights[token * k + r] /= picked;
}

#ifndef __CUDACC_RTC__
void moe_topk(const float *logits, float *topk_weights, int *topk_ids,
	      int num_tokens, int k, cudaStream_t stream)
{
	const int blocks = (num_tokens + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
	moe_topk_kernel<<<blocks, WARPS_PER_BLOCK * 32, 0, stream>>>(
		logits, topk_weights, topk_ids, num_tokens, k);
}
#endif
