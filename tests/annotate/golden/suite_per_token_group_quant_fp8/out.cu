// per_token_group_quant_fp8.cu - fp8 (e4m3) quantisation of bf16
// activations in groups of 128 consecutive elements, one fp32 scale per
// group (DeepSeek-V3's block-wise fp8 GEMM input): scale = max(absmax,
// 1e-10) / 448, q = fp8(clamp(x / scale, -448, 448)). Written in the style
// of SGLang's AOT per_token_group_quant_8bit: 16 threads per group, 16-byte
// loads, a 16-lane xor-shuffle max, the group read a second time to
// quantise, one-byte stores, and as many groups per block (16, 8, 4, 2 or
// 1) as divide the number of groups.
#include <cuda_bf16.h>
#include <cuda_fp8.h>

// ktc: complete and uncomment: #pragma kt problem tokens values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid((tokens * d / 128) / ((tokens * d / 128) % 16 == 0 ? 16 : (tokens * d / 128) % 8 == 0 ? 8 : (tokens * d / 128) % 4 == 0 ? 4 : (tokens * d / 128) % 2 == 0 ? 2 : 1)) block(((tokens * d / 128) % 16 == 0 ? 16 : (tokens * d / 128) % 8 == 0 ? 8 : (tokens * d / 128) % 4 == 0 ? 4 : (tokens * d / 128) % 2 == 0 ? 2 : 1) * 16)
// ktc: complete and uncomment: #pragma kt arg in __nv_bfloat16[?] in
// ktc: complete and uncomment: #pragma kt arg q __nv_fp8_e4m3[?] in
// ktc: complete and uncomment: #pragma kt arg scales float[?] out
extern "C" __global__ void per_token_group_quant_fp8_kernel(
	const __nv_bfloat16 *__restrict__ in, __nv_fp8_e4m3 *__restrict__ q,
	float *__restrict__ scales)
{
	constexpr int kGroup = 128;
	const int lane = threadIdx.x % 16;
	const long g = (long)blockIdx.x * (blockDim.x / 16) + threadIdx.x / 16;
	const uint4 *x = reinterpret_cast<const uint4 *>(in + g * kGroup);
	const unsigned mask = blockDim.x >= 32 ? 0xffffffffu : (1u << blockDim.x) - 1;

	float amax = 1e-10f;
	for (int i = lane; i < kGroup / 8; i += 16) {
		uint4 v = x[i];
		const __nv_bfloat162 *p = reinterpret_cast<const __nv_bfloat162 *>(&v);
#pragma unroll
		for (int k = 0; k < 4; k++) {
			float2 f = __bfloat1622float2(p[k]);
			amax = fmaxf(amax, fmaxf(fabsf(f.x), fabsf(f.y)));
		}
	}
#pragma unroll
	for (int off = 8; off > 0; off /= 2)
		amax = fmaxf(amax, __shfl_xor_sync(mask, amax, off));
	const float scale = amax / 448.f;
	if (lane == 0)
		scales[g] = scale;

	for (int i = lane; i < kGroup / 8; i += 16) {
		uint4 v = x[i];
		const __nv_bfloat16 *p = reinterpret_cast<const __nv_bfloat16 *>(&v);
#pragma unroll
		for (int k = 0; k < 8; k++) {
			float y = fminf(fmaxf(__bfloat162float(p[k]) / scale, -448.f), 448.f);
			q[g * kGroup + i * 8 + k].__x =
				__nv_cvt_float_to_fp8(y, __NV_SATFINITE, __NV_E4M3);
		}
	}
}

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>

// d must be a multiple of the group (128).
static cudaError_t per_token_group_quant_fp8(const __nv_bfloat16 *in,
					     __nv_fp8_e4m3 *q, float *scales,
					     int tokens, int d,
					     cudaStream_t stream)
{
	if (d % 128 || tokens <= 0)
		return cudaErrorInvalidValue;
	const long groups = (long)tokens * d / 128;
	const int per_block = groups % 16 == 0 ? 16
			      : groups % 8 == 0  ? 8
			      : groups % 4 == 0  ? 4
			      : groups % 2 == 0  ? 2
						 : 1;
	per_token_group_quant_fp8_kernel<<<groups / per_block, per_block * 16, 0,
					   stream>>>(in, q, scales);
	return cudaGetLastError();
}
#endif
