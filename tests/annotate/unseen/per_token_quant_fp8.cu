// per_token_quant_fp8: one warp per token computes the row's absolute
// maximum with a warp reduction, then writes x / (absmax / 448) as fp8
// e4m3 and the scale; 8 warps (256 threads) per block.
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <cstdint>

__device__ __forceinline__ float warp_max(float v)
{
	for (int mask = 16; mask > 0; mask >>= 1)
		v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, mask));
	return v;
}

__global__ void per_token_quant_fp8_kernel(
	const __nv_bfloat16 *__restrict__ input,
	__nv_fp8_e4m3 *__restrict__ output, float *__restrict__ scale,
	int64_t num_tokens, int hidden)
{
	const int lane = threadIdx.x % 32;
	const int64_t token = (int64_t)blockIdx.x * 8 + threadIdx.x / 32;
	if (token >= num_tokens)
		return;
	const __nv_bfloat16 *x = input + token * hidden;
	float m = 0.0f;
#pragma unroll 4
	for (int i = lane; i < hidden; i += 32)
		m = fmaxf(m, fabsf(__bfloat162float(x[i])));
	m = warp_max(m);
	const float s = fmaxf(m, 1e-6f) / 448.0f;
	if (lane == 0)
		scale[token] = s;
#pragma unroll 4
	for (int i = lane; i < hidden; i += 32)
		output[token * hidden + i] =
			__nv_fp8_e4m3(__bfloat162float(x[i]) / s);
}

void per_token_quant_fp8(const __nv_bfloat16 *input, __nv_fp8_e4m3 *output,
			 float *scale, int64_t num_tokens, int hidden,
			 cudaStream_t stream)
{
	const int64_t blocks = (num_tokens + 7) / 8;
	per_token_quant_fp8_kernel<<<blocks, 256, 0, stream>>>(
		input, output, scale, num_tokens, hidden);
}
