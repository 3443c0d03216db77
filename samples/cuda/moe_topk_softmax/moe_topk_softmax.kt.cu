// moe_topk_softmax.cu - MoE routing: per token, the softmax of its fp32
// router logits over the experts, then the k largest probabilities in
// decreasing order (ties to the lower expert) with their experts. In the
// style of SGLang's topkGatingSoftmax (from vLLM/TensorRT-LLM): the expert
// count is a template argument, 4 warps per block, 16-byte loads; a row is
// spread over EXPERTS / VPT threads of a warp, each holding VPT values in
// registers, and every reduction (max, sum, each of the k arg-max steps) is
// a butterfly of shuffles inside that group of threads.
// hand: the template's parameters, each defaulting to the original's
// literal or code path:
//   WARPS      warps per block (4)
//   LDG        bytes per load (16)
//   SPREAD     1: a row over as many threads as 16-byte loads allow (the
//              original's formula); 2, 4, 8: over that many times fewer
//              threads, each holding more values (fewer shuffle steps)
//   LATE_NORM  0: every probability is normalised before the top-k (the
//              original); 1: the top-k runs on the unnormalised exponentials
//              (same order: x * (1 / s) is monotonic) and only the k chosen
//              are multiplied, off the selection's critical path
//   TREE       0: a thread's max, sum and arg-max run along its values
//              (the original); 1: as pairwise trees (shorter chains)
//   CACHE      0: each of the k steps scans all of a thread's values and
//              clears the one taken (the original); 4: each thread sorts
//              its 4 best values once; a step reads the head, the winner
//              pops it, and only a thread whose cache ran dry scans again
//              (for what comes after the last value it gave): k steps of
//              about 5 operations per value become one pass of about 24
#include <cuda_runtime.h>

#ifndef WARPS // hand: the parameters (see the block below)
#define WARPS 4
#endif
#ifndef LDG
#define LDG 16
#endif
#ifndef SPREAD
#define SPREAD 1
#endif
#ifndef LATE_NORM
#define LATE_NORM 0
#endif
#ifndef TREE
#define TREE 0
#endif
#ifndef CACHE
#define CACHE 0
#endif

// hand: TREE: a thread's max, sum and arg-max as pairwise trees, log2(VPT)
// dependent steps instead of VPT (at these sizes a few warps per scheduler
// wait on these chains). The arg-max tree keeps the lower slot on ties, as
// the linear scan does; the sum's order changes its rounding only.
template <int N> __device__ __forceinline__ float tk_tree_max(const float (&v)[N])
{
	float t[N];
#pragma unroll
	for (int i = 0; i < N; i++)
		t[i] = v[i];
#pragma unroll
	for (int w = 1; w < N; w *= 2)
#pragma unroll
		for (int i = 0; i + w < N; i += 2 * w)
			t[i] = fmaxf(t[i], t[i + w]);
	return t[0];
}

template <int N> __device__ __forceinline__ float tk_tree_sum(const float (&v)[N])
{
	float t[N];
#pragma unroll
	for (int i = 0; i < N; i++)
		t[i] = v[i];
#pragma unroll
	for (int w = 1; w < N; w *= 2)
#pragma unroll
		for (int i = 0; i + w < N; i += 2 * w)
			t[i] += t[i + w];
	return t[0];
}

// hand: CACHE: a thread's CACHE largest values not yet taken (by value,
// then by slot), from those after (lv, ls) in that order; a value left out
// is -1, below every probability
template <int N, int C>
__device__ __forceinline__ void tk_cache_fill(const float (&v)[N], float (&cv)[C],
					      int (&cs)[C], float lv, int ls)
{
#pragma unroll
	for (int c = 0; c < C; c++) {
		cv[c] = -1.f;
		cs[c] = N;
	}
#pragma unroll
	for (int i = 0; i < N; i++) {
		float x = v[i] < lv || (v[i] == lv && i > ls) ? v[i] : -1.f;
		int xs = i;
		bool shift = false; // x went in above: the rest moves down one
#pragma unroll
		for (int c = 0; c < C; c++) { // an equal value stays behind
			const bool gt = shift || x > cv[c];
			shift = gt;
			const float tv = gt ? cv[c] : x;
			const int ts = gt ? cs[c] : xs;
			cv[c] = gt ? x : cv[c];
			cs[c] = gt ? xs : cs[c];
			x = tv;
			xs = ts;
		}
	}
}

template <int N> __device__ __forceinline__ int tk_tree_argmax(const float (&v)[N], float &best)
{
	float t[N];
	int slot[N];
#pragma unroll
	for (int i = 0; i < N; i++) {
		t[i] = v[i];
		slot[i] = i;
	}
#pragma unroll
	for (int w = 1; w < N; w *= 2)
#pragma unroll
		for (int i = 0; i + w < N; i += 2 * w)
			if (t[i + w] > t[i]) {
				t[i] = t[i + w];
				slot[i] = slot[i + w];
			}
	best = t[0];
	return slot[0];
}

// hand: this whole block. When it was written annotate derived no
// parameter here; it now derives the launch of topk_softmax_launch<64>
// (its 4 warps as BLOCK_SIZE_Y, the rows per block from the same
// constexpr formula) and the lengths, but the widths and the spread are
// constexpr arithmetic over the template argument, not literals of a launch
#pragma kt param WARPS values(1, 2, 4, 8, 16) default(4)
#pragma kt param LDG values(8, 16) default(16) // hand: 4-byte loads dropped, never better
#pragma kt param SPREAD values(1, 2, 4, 8) default(1)
#pragma kt param LATE_NORM values(0, 1) default(0)
#pragma kt param TREE values(0, 1) default(0)
#pragma kt param CACHE values(0, 4) default(0) // hand: 2 or 3 run dry too often (a CPU model of the steps: 2.2 and 0.5 rescans a row at E=256, 32 values a thread; 4: 0.08)
#pragma kt problem T values(1, 64, 4096, 16384) default(4096)
#pragma kt problem E values(256, 64) default(256)
#pragma kt problem K values(8)
#pragma kt set FLOATS_PER_LDG = LDG / 4
#pragma kt set VALUES_PER_THREAD = max(1, E / (FLOATS_PER_LDG * 32)) * FLOATS_PER_LDG * SPREAD
#pragma kt set ROWS_PER_WARP = 32 / (E / VALUES_PER_THREAD)
#pragma kt constraint E % VALUES_PER_THREAD == 0 && E / VALUES_PER_THREAD <= 32 && VALUES_PER_THREAD <= 64
#pragma kt kernel template(E)
#pragma kt launch grid(div_ceil(T, WARPS * ROWS_PER_WARP)) block(32, WARPS)
#pragma kt arg logits f32[T * E] in init(random(-4, 4))
#pragma kt arg weights f32[T * K] out
#pragma kt arg ids i32[T * K] out
#pragma kt arg tokens int = T
#pragma kt arg k int = K
#pragma kt verify rtol(1e-5) atol(1e-7)
#pragma kt objective bandwidth(T * E * 4 + T * K * 8)
template <int EXPERTS>
__global__ void __launch_bounds__(WARPS * 32)
topk_softmax_kernel(const float *__restrict__ logits, float *__restrict__ weights,
		    int *__restrict__ ids, int tokens, int k)
{
	constexpr int ELTS = LDG / sizeof(float); // floats per load; hand: LDG
	constexpr int VECS = (EXPERTS / (ELTS * 32) > 1 ? EXPERTS / (ELTS * 32) : 1) *
			     SPREAD;              // hand: SPREAD
	constexpr int VPT = VECS * ELTS;         // values per thread
	constexpr int TPR = EXPERTS / VPT;       // threads per row
	constexpr int RPW = 32 / TPR;            // rows per warp
	struct __align__(LDG) ldg_t {
		float f[ELTS];
	};
	const int row = (blockIdx.x * WARPS + threadIdx.y) * RPW + threadIdx.x / TPR;
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
#if TREE
	float m = tk_tree_max<VPT>(v); // hand: TREE
#else
	float m = v[0];
#pragma unroll
	for (int i = 1; i < VPT; i++)
		m = fmaxf(m, v[i]);
#endif
#pragma unroll
	for (int off = TPR / 2; off > 0; off /= 2)
		m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, off, TPR));
#if TREE
#pragma unroll
	for (int i = 0; i < VPT; i++)
		v[i] = __expf(v[i] - m);
	float s = tk_tree_sum<VPT>(v); // hand: TREE
#else
	float s = 0.f;
#pragma unroll
	for (int i = 0; i < VPT; i++) {
		v[i] = __expf(v[i] - m);
		s += v[i];
	}
#endif
#pragma unroll
	for (int off = TPR / 2; off > 0; off /= 2)
		s += __shfl_xor_sync(0xffffffff, s, off, TPR);
	const float inv = 1.f / s;
#if !LATE_NORM // hand: LATE_NORM normalises only the k chosen
#pragma unroll
	for (int i = 0; i < VPT; i++)
		v[i] *= inv;
#endif

#if CACHE
	// hand: CACHE: the top-k reads each thread's cached candidates; only a
	// thread whose cache ran dry scans its values again (the warp votes)
	float cv[CACHE], lv = __int_as_float(0x7f800000); // +inf: nothing taken
	int cs[CACHE], ls = -1;
	tk_cache_fill<VPT, CACHE>(v, cv, cs, lv, ls);
#endif
	for (int kk = 0; kk < k; kk++) {
#if CACHE
		float best = cv[0];
		int bi = best > -1.f ? ((cs[0] / ELTS) * TPR + lane) * ELTS + cs[0] % ELTS
				     : EXPERTS;
		const int cand = bi;
#elif TREE
		// hand: TREE; slot j * ELTS + e holds expert (j * TPR + lane) *
		// ELTS + e, and none when every value is taken (-1)
		float best;
		const int slot = tk_tree_argmax<VPT>(v, best);
		int bi = best > -1.f ? ((slot / ELTS) * TPR + lane) * ELTS + slot % ELTS
				     : EXPERTS;
#else
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
#endif
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
#if LATE_NORM
			weights[(long)row * k + kk] = best * inv; // hand: LATE_NORM
#else
			weights[(long)row * k + kk] = best;
#endif
			ids[(long)row * k + kk] = bi;
		}
#if CACHE
		const bool mine = cv[0] > -1.f && cand == bi; // hand: CACHE, taken
		if (mine) {
			lv = cv[0];
			ls = cs[0];
		}
#pragma unroll
		for (int c = 0; c + 1 < CACHE; c++) {
			cv[c] = mine ? cv[c + 1] : cv[c];
			cs[c] = mine ? cs[c + 1] : cs[c];
		}
		cv[CACHE - 1] = mine ? -1.f : cv[CACHE - 1];
		const bool dry = mine && !(cv[0] > -1.f);
		if (__any_sync(0xffffffff, dry) && dry)
			tk_cache_fill<VPT, CACHE>(v, cv, cs, lv, ls);
#else
#pragma unroll
		for (int j = 0; j < VECS; j++)
#pragma unroll
			for (int e = 0; e < ELTS; e++)
				if ((j * TPR + lane) * ELTS + e == bi)
					v[j * ELTS + e] = -1.f; // taken
#endif
	}
}

#ifndef __CUDACC_RTC__
template <int EXPERTS>
static cudaError_t topk_softmax_launch(const float *logits, float *weights, int *ids,
				       int tokens, int k, cudaStream_t stream)
{
	constexpr int ELTS = LDG / 4; // hand: the kernel's formulas over the parameters
	constexpr int VECS = (EXPERTS / (ELTS * 32) > 1 ? EXPERTS / (ELTS * 32) : 1) *
			     SPREAD;
	static_assert(EXPERTS % (VECS * ELTS) == 0 && VECS * ELTS <= 64,
		      "this configuration does not take this expert count");
	constexpr int rows_per_block = WARPS * (32 / (EXPERTS / (VECS * ELTS)));
	dim3 grid((tokens + rows_per_block - 1) / rows_per_block), block(32, WARPS);
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
