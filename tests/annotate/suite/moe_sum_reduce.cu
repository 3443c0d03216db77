// moe_sum_reduce.cu - the last step of a MoE layer: out[t] = scale *
// sum over j < 8 of x[t, j] (the top-8 experts' outputs of token t, bf16
// rows of d), float accumulation. In the style of SGLang's moe_sum_reduce
// fast path: 8 warps per block, one warp per token, each lane 16 elements
// (two 16-byte loads, ld.global.cg, per expert) of a 512-column chunk, the
// 8 experts unrolled; the grid's x size counts 8 elements per lane, so half
// its blocks find no chunk.
#include <cuda_bf16.h>

extern "C" __global__ void moe_sum_reduce_kernel(const __nv_bfloat16 *__restrict__ x,
						 __nv_bfloat16 *__restrict__ out,
						 int tokens, int d, float scale)
{
	constexpr int kTopk = 8;
	const int t = blockIdx.y * 8 + threadIdx.y;
	if (t >= tokens)
		return;
	for (int c = blockIdx.x; c * 512 < d; c += gridDim.x) {
		const int col = c * 512 + threadIdx.x * 16;
		if (col >= d)
			continue;
		float acc[16] = {};
#pragma unroll
		for (int j = 0; j < kTopk; j++) {
			const uint4 *p = reinterpret_cast<const uint4 *>(
				x + ((long)t * kTopk + j) * d + col);
			uint4 v[2] = {__ldcg(p), __ldcg(p + 1)};
			const __nv_bfloat162 *h = reinterpret_cast<const __nv_bfloat162 *>(v);
#pragma unroll
			for (int i = 0; i < 8; i++) {
				float2 f = __bfloat1622float2(h[i]);
				acc[2 * i] += f.x;
				acc[2 * i + 1] += f.y;
			}
		}
		uint4 o[2];
		__nv_bfloat162 *h = reinterpret_cast<__nv_bfloat162 *>(o);
#pragma unroll
		for (int i = 0; i < 8; i++)
			h[i] = __floats2bfloat162_rn(acc[2 * i] * scale, acc[2 * i + 1] * scale);
		uint4 *q = reinterpret_cast<uint4 *>(out + (long)t * d + col);
		q[0] = o[0];
		q[1] = o[1];
	}
}

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>

// x is [tokens, 8, d]; d a multiple of 16.
static cudaError_t moe_sum_reduce(const __nv_bfloat16 *x, __nv_bfloat16 *out,
				  int tokens, int topk, int d, float scale,
				  cudaStream_t stream)
{
	if (topk != 8 || d % 16 || tokens <= 0)
		return cudaErrorInvalidValue;
	dim3 block(32, 8);
	dim3 grid((d / 8 + 31) / 32, (tokens + 7) / 8);
	moe_sum_reduce_kernel<<<grid, block, 0, stream>>>(x, out, tokens, d, scale);
	return cudaGetLastError();
}
#endif
