// moe_sum_reduce.cu - the last step of a MoE layer: out[t] = scale *
// sum over j < 8 of x[t, j] (the top-8 experts' outputs of token t, bf16
// rows of d), float accumulation. In the style of SGLang's moe_sum_reduce
// fast path: 8 warps per block, one warp per token, each lane 16 elements
// (two 16-byte loads, ld.global.cg, per expert) of a 512-column chunk, the
// 8 experts unrolled; the grid's x size counts 8 elements per lane, so half
// its blocks find no chunk.
// hand: the whole template. ktc annotate derives only BLOCK_SIZE, the
// block's x size 32, which is the warp here (lanes split a 512-column
// chunk; any other value repeats work), so the template keeps the 32 and
// does by hand what annotate does elsewhere (a macro with the literal as
// its default per parameter, the #pragma kt block above the kernel).
// Parameters, each defaulting to the original's literal (the top-k, 8, is
// the model's, not a knob):
//   WARPS   warps (tokens) per block (8)
//   VPL     16-byte vectors per lane in a chunk (2: 16 elements)
//   GX_DIV  elements per lane the grid's x size assumes (8; the chunk is
//           8 * VPL: a smaller value launches blocks with nothing to do,
//           a larger one makes each block loop over several chunks)
//   UNROLL  unroll of the loop over the 8 experts (8)
#include <cuda_bf16.h>

#ifndef WARPS
#define WARPS 8
#endif
#ifndef VPL
#define VPL 2
#endif
#ifndef GX_DIV
#define GX_DIV 8
#endif
#ifndef UNROLL
#define UNROLL 8
#endif

#pragma kt param WARPS values(1, 2, 4, 8, 16) default(8) // hand: this block (see above)
#pragma kt param VPL values(1, 2, 4) default(2)
#pragma kt param GX_DIV values(8, 16, 32) default(8)
#pragma kt param UNROLL values(1, 2, 4, 8) default(8)
#pragma kt problem T values(1, 64, 4096, 16384) default(4096)
#pragma kt problem K values(8)
#pragma kt problem D values(7168, 4096) default(7168)
#pragma kt constraint K == 8
#pragma kt constraint D % (8 * VPL) == 0
#pragma kt launch grid(div_ceil(D / GX_DIV, 32), div_ceil(T, WARPS)) block(32, WARPS)
#pragma kt arg x bf16[T * K * D] in
#pragma kt arg out bf16[T * D] out
#pragma kt arg tokens int = T
#pragma kt arg d int = D
#pragma kt arg scale float = 2.5
#pragma kt verify rtol(0.01) atol(0.001)
#pragma kt objective bandwidth(T * K * D * 2 + T * D * 2)
extern "C" __global__ void
moe_sum_reduce_kernel(const __nv_bfloat16 *__restrict__ x,
		      __nv_bfloat16 *__restrict__ out, int tokens, int d,
		      float scale)
{
	constexpr int kTopk = 8;
	constexpr int kt_unroll_k = UNROLL;
	constexpr int kLane = 8 * VPL;  // hand: elements per lane
	constexpr int kChunk = 32 * kLane; // hand: columns per chunk
	const int t = blockIdx.y * WARPS + threadIdx.y; // hand: WARPS (annotate links the 8s of block(32, 8))
	if (t >= tokens)
		return;
	for (int c = blockIdx.x; c * kChunk < d; c += gridDim.x) {
		const int col = c * kChunk + threadIdx.x * kLane;
		if (col >= d)
			continue;
		float acc[kLane] = {};
#pragma unroll kt_unroll_k
		for (int j = 0; j < kTopk; j++) {
			const uint4 *p = reinterpret_cast<const uint4 *>(
				x + ((long)t * kTopk + j) * d + col);
			uint4 v[VPL]; // hand: VPL loads (the original's {__ldcg(p), __ldcg(p + 1)})
#pragma unroll
			for (int i = 0; i < VPL; i++)
				v[i] = __ldcg(p + i);
			const __nv_bfloat162 *h = reinterpret_cast<const __nv_bfloat162 *>(v);
#pragma unroll
			for (int i = 0; i < kLane / 2; i++) {
				float2 f = __bfloat1622float2(h[i]);
				acc[2 * i] += f.x;
				acc[2 * i + 1] += f.y;
			}
		}
		uint4 o[VPL]; // hand: VPL stores
		__nv_bfloat162 *h = reinterpret_cast<__nv_bfloat162 *>(o);
#pragma unroll
		for (int i = 0; i < kLane / 2; i++)
			h[i] = __floats2bfloat162_rn(acc[2 * i] * scale, acc[2 * i + 1] * scale);
		uint4 *q = reinterpret_cast<uint4 *>(out + (long)t * d + col);
#pragma unroll
		for (int i = 0; i < VPL; i++)
			q[i] = o[i];
	}
}

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>

// x is [tokens, 8, d]; d a multiple of 8 * VPL.
static cudaError_t moe_sum_reduce(const __nv_bfloat16 *x, __nv_bfloat16 *out,
				  int tokens, int topk, int d, float scale,
				  cudaStream_t stream)
{
	if (topk != 8 || d % (8 * VPL) || tokens <= 0) // hand: 8 * VPL
		return cudaErrorInvalidValue;
	dim3 block(32, WARPS);
	dim3 grid((d / GX_DIV + 31) / 32, (tokens + WARPS - 1) / WARPS); // hand: GX_DIV
	moe_sum_reduce_kernel<<<grid, block, 0, stream>>>(x, out, tokens, d, scale);
	return cudaGetLastError();
}
#endif
