// moe_sum_reduce.cu - the last step of a MoE layer: out[t] = scale *
// sum over j < 8 of x[t, j] (the top-8 experts' outputs of token t, bf16
// rows of d), float accumulation. In the style of SGLang's moe_sum_reduce
// fast path: 8 warps per block, one warp per token, each lane 16 elements
// (two 16-byte loads, ld.global.cg, per expert) of a 512-column chunk, the
// 8 experts unrolled; the grid's x size counts 8 elements per lane, so half
// its blocks find no chunk.
#include <cuda_bf16.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 32
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(32)
#pragma kt constraint (BLOCK_SIZE) * (8) <= DEVICE_MAX_THREADS_PER_BLOCK
// ktc: complete and uncomment: #pragma kt problem d values(?)
// ktc: complete and uncomment: #pragma kt problem tokens values(?)
#pragma kt launch grid((d / 8 + (BLOCK_SIZE - 1)) / BLOCK_SIZE, (tokens + 7) / 8) block(BLOCK_SIZE, 8)
// ktc: complete and uncomment: #pragma kt arg x __nv_bfloat16[?] in
// ktc: complete and uncomment: #pragma kt arg out __nv_bfloat16[?] out
#pragma kt arg tokens int = tokens
#pragma kt arg d int = d
// ktc: complete and uncomment: #pragma kt arg scale float = ?
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
	dim3 block(BLOCK_SIZE, 8);
	dim3 grid((d / 8 + (BLOCK_SIZE - 1)) / BLOCK_SIZE, (tokens + 7) / 8);
	moe_sum_reduce_kernel<<<grid, block, 0, stream>>>(x, out, tokens, d, scale);
	return cudaGetLastError();
}
#endif
