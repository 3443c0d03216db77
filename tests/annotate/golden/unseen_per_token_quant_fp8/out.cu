// per_token_quant_fp8: one warp per token computes the row's absolute
// maximum with a warp reduction, then writes x / (absmax / 448) as fp8
// e4m3 and the scale; 8 warps (256 threads) per block.
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#ifndef __CUDACC_RTC__
#include <cstdint>
#elif !defined(KTC_RTC_HEADERS_GIVEN)
#include <cuda/std/cstdint>
#endif

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
constexpr int kt_unroll_UNROLL = UNROLL;
#ifndef UNROLL_2
#define UNROLL_2 4
#endif
constexpr int kt_unroll_UNROLL_2 = UNROLL_2;
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

__device__ __forceinline__ float warp_max(float v)
{
	for (int mask = 16; mask > 0; mask >>= 1)
		v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, mask));
	return v;
}

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param UNROLL values(1, 2, 4, 8, 16) default(4)
#pragma kt param UNROLL_2 values(1, 2, 4, 8, 16) default(4)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem num_tokens values(?)
// ktc: complete and uncomment: #pragma kt problem hidden values(?)
#pragma kt launch grid(((num_tokens + ((BLOCK_SIZE / 32) - 1)) / (BLOCK_SIZE / 32))) block(BLOCK_SIZE)
#pragma kt arg input __nv_bfloat16[num_tokens * hidden] in
#pragma kt arg output __nv_fp8_e4m3[num_tokens * hidden] out
#pragma kt arg scale float[num_tokens] out
#pragma kt arg num_tokens int64_t = num_tokens
#pragma kt arg hidden int = hidden
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
per_token_quant_fp8_kernel(
	const __nv_bfloat16 *__restrict__ input,
	__nv_fp8_e4m3 *__restrict__ output, float *__restrict__ scale,
	int64_t num_tokens, int hidden)
{
	const int lane = threadIdx.x % 32;
	const int64_t token = (int64_t)blockIdx.x * (BLOCK_SIZE / 32) + threadIdx.x / 32;
	if (token >= num_tokens)
		return;
	const __nv_bfloat16 *x = input + token * hidden;
	float m = 0.0f;
#pragma unroll kt_unroll_UNROLL
	for (int i = lane; i < hidden; i += 32)
		m = fmaxf(m, fabsf(__bfloat162float(x[i])));
	m = warp_max(m);
	const float s = fmaxf(m, 1e-6f) / 448.0f;
	if (lane == 0)
		scale[token] = s;
#pragma unroll kt_unroll_UNROLL_2
	for (int i = lane; i < hidden; i += 32)
		output[token * hidden + i] =
			__nv_fp8_e4m3(__bfloat162float(x[i]) / s);
}

#ifndef __CUDACC_RTC__
void per_token_quant_fp8(const __nv_bfloat16 *input, __nv_fp8_e4m3 *output,
			 float *scale, int64_t num_tokens, int hidden,
			 cudaStream_t stream)
{
	const int64_t blocks = (num_tokens + ((BLOCK_SIZE / 32) - 1)) / (BLOCK_SIZE / 32);
	per_token_quant_fp8_kernel<<<blocks, BLOCK_SIZE, 0, stream>>>(
		input, output, scale, num_tokens, hidden);
}
#endif
