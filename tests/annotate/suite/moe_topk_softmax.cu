// moe_topk_softmax.cu - MoE routing: per token, the softmax of its fp32
// router logits over the experts, then the k largest probabilities in
// decreasing order (ties to the lower expert) with their experts. In the
// style of SGLang's topkGatingSoftmax (from vLLM/TensorRT-LLM): the expert
// count is a template argument, 4 warps per block, 16-byte loads; a row is
// spread over EXPERTS / VPT threads of a warp, each holding VPT values in
// registers, and every reduction (max, sum, each of the k arg-max steps) is
// a butterfly of shuffles inside that group of threads.
#include <cuda_runtime.h>

template <int EXPERTS>
__global__ void __launch_bounds__(4 * 32)
topk_softmax_kernel(const float *__restrict__ logits, float *__restrict__ weights,
		    int *__restrict__ ids, int tokens, int k)
{
	constexpr int ELTS = 16 / sizeof(float); // floats per load
	constexpr int VECS = EXPERTS / (ELTS * 32) > 1 ? EXPERTS / (ELTS * 32) : 1;
	constexpr int VPT = VECS * ELTS;         // values per thread
	constexpr int TPR = EXPERTS / VPT;       // threads per row
	constexpr int RPW = 32 / TPR;            // rows per warp
	struct __align__(16) ldg_t {
		float f[ELTS];
	};
	const int row = (blockIdx.x * 4 + threadIdx.y) * RPW + threadIdx.x / TPR;
	const bool live = row < tokens;
	const int lane = threadIdx.x % TPR;
	const ldg_t *src = reinterpret_cast<const ldg_t *>(logits + (long)row * EXPERTS);

	float v[VPT];
#pragma unroll
	for (int j = 0; j < VECS; j++) {
		ldg_t x = live ? src[j * TPR + lane] : ldg_t{};
#pragma unroll
		for (int e = 0; e < ELTS; e++)
			v[j * ELTS + e] = x.f[e];
	}
	float m = v[0];
#pragma unroll
	for (int i = 1; i < VPT; i++)
		m = fmaxf(m, v[i]);
#pragma unroll
	for (int off = TPR / 2; off > 0; off /= 2)
		m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, off, TPR));
	float s = 0.f;
#pragma unroll
	for (int i = 0; i < VPT; i++) {
		v[i] = __expf(v[i] - m);
		s += v[i];
	}
#pragma unroll
	for (int off = TPR / 2; off > 0; off /= 2)
		s += __shfl_xor_sync(0xffffffff, s, off, TPR);
	const float inv = 1.f / s;
#pragma unroll
	for (int i = 0; i < VPT; i++)
		v[i] *= inv;

	for (int kk = 0; kk < k; kk++) {
		float best = -1.f;
		int bi = EXPERTS;
#pragma unroll
		for (int j = 0; j < VECS; j++)
#pragma unroll
			for (int e = 0; e < ELTS; e++)
				if (v[j * ELTS + e] > best) {
					best = v[j * ELTS + e];
					bi = (j * TPR + lane) * ELTS + e;
				}
#pragma unroll
		for (int off = TPR / 2; off > 0; off /= 2) {
			float ob = __shfl_xor_sync(0xffffffff, best, off, TPR);
			int oi = __shfl_xor_sync(0xffffffff, bi, off, TPR);
			if (ob > best || (ob == best && oi < bi)) {
				best = ob;
				bi = oi;
			}
		}
		if (live && lane == 0) {
			weights[(long)row * k + kk] = best;
			ids[(long)row * k + kk] = bi;
		}
#pragma unroll
		for (int j = 0; j < VECS; j++)
#pragma unroll
			for (int e = 0; e < ELTS; e++)
				if ((j * TPR + lane) * ELTS + e == bi)
					v[j * ELTS + e] = -1.f; // taken
	}
}

#ifndef __CUDACC_RTC__
template <int EXPERTS>
static cudaError_t topk_softmax_launch(const float *logits, float *weights, int *ids,
				       int tokens, int k, cudaStream_t stream)
{
	constexpr int ELTS = 4;
	constexpr int VECS = EXPERTS / (ELTS * 32) > 1 ? EXPERTS / (ELTS * 32) : 1;
	constexpr int rows_per_block = 4 * (32 / (EXPERTS / (VECS * ELTS)));
	dim3 grid((tokens + rows_per_block - 1) / rows_per_block), block(32, 4);
	topk_softmax_kernel<EXPERTS><<<grid, block, 0, stream>>>(logits, weights, ids,
								 tokens, k);
	return cudaGetLastError();
}

// experts: 64 or 256; k at most experts.
static cudaError_t moe_topk_softmax(const float *logits, float *weights, int *ids,
				    int tokens, int experts, int k,
				    cudaStream_t stream)
{
	if (tokens <= 0 || k <= 0 || k > experts)
		return cudaErrorInvalidValue;
	switch (experts) {
	case 64:
		return topk_softmax_launch<64>(logits, weights, ids, tokens, k, stream);
	case 256:
		return topk_softmax_launch<256>(logits, weights, ids, tokens, k, stream);
	}
	return cudaErrorInvalidValue;
}
#endif
