// per_token_group_quant_fp8: each group of 128 bf16 values is scaled by
// its absolute maximum / 448 (the e4m3 maximum) and stored as fp8; 16
// threads cooperate on a group through xor shuffles, 16 groups per block.
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#ifndef __CUDACC_RTC__
#include <cstdint>
#elif !defined(KTC_RTC_HEADERS_GIVEN)
#include <cuda/std/cstdint>
#endif

#ifndef GROUPS_PER_BLOCK
#define GROUPS_PER_BLOCK 16
#endif
#ifndef VEC
#define VEC 1
#endif
#ifndef VEC_2
#define VEC_2 1
#endif
#ifndef TPG
#define TPG 16
#endif
template <int N> struct kt_vec;
template <> struct kt_vec<1> { typedef unsigned char t; };
template <> struct kt_vec<2> { typedef unsigned short t; };
template <> struct kt_vec<4> { typedef unsigned int t; };
template <> struct kt_vec<8> { typedef uint2 t; };
template <> struct kt_vec<16> { typedef uint4 t; };

constexpr int kGroupSize = 128;

__device__ __forceinline__ float group_max(float v)
{
	v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, (8 % TPG)));
	v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, (4 % TPG)));
	v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, (2 % TPG)));
	v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, (1 % TPG)));
	return v;
}

#pragma kt param GROUPS_PER_BLOCK values(1, 2, 4, 8, 16, 32, 64) default(16)
#pragma kt param VEC values(1, 2, 4, 8) default(1)
#pragma kt param VEC_2 values(1, 2, 4, 8) default(1)
#pragma kt param TPG values(2, 4, 8, 16) default(16)
#pragma kt constraint (GROUPS_PER_BLOCK * TPG) <= DEVICE_MAX_THREADS_PER_BLOCK
// ktc: complete and uncomment: #pragma kt problem num_tokens values(?)
// ktc: complete and uncomment: #pragma kt problem hidden values(?)
#pragma kt launch grid((((num_tokens * hidden / 128) + GROUPS_PER_BLOCK - 1) / GROUPS_PER_BLOCK)) block(GROUPS_PER_BLOCK * TPG)
#pragma kt arg input __nv_bfloat16[128 * (num_tokens * hidden / 128)] in
#pragma kt arg output __nv_fp8_e4m3[128 * (num_tokens * hidden / 128)] out
#pragma kt arg scales float[(num_tokens * hidden / 128)] out
#pragma kt arg num_groups int = (num_tokens * hidden / 128)
__global__ void per_token_group_quant_fp8_kernel(
	const __nv_bfloat16 *__restrict__ input,
	__nv_fp8_e4m3 *__restrict__ output, float *__restrict__ scales,
	int num_groups)
{
	const int threads_per_group = TPG;
	const int local_group = threadIdx.x / threads_per_group;
	const int lane = threadIdx.x % threads_per_group;
	const int64_t group = (int64_t)blockIdx.x * GROUPS_PER_BLOCK + local_group;
	if (group >= num_groups)
		return;
	const __nv_bfloat16 *in = input + group * kGroupSize;
	__nv_fp8_e4m3 *out = output + group * kGroupSize;
	float absmax = 1e-10f;
	if constexpr (VEC == 1)
		for (int i = lane; i < kGroupSize; i += threads_per_group)
			absmax = fmaxf(absmax, fabsf(__bfloat162float(in[i])));
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&in[0])) % (VEC * 2)) == 0;
		const int kt_nvec = kt_aligned ? (int)((kGroupSize) / VEC) : 0;
		for (int kt_v = lane; kt_v < kt_nvec; kt_v += threads_per_group) {
			__nv_bfloat16 kt_in[VEC];
			*reinterpret_cast<typename kt_vec<VEC * 2>::t *>(kt_in) = *reinterpret_cast<const typename kt_vec<VEC * 2>::t *>(&in[(0) + kt_v * VEC]);
#pragma unroll
			for (int kt_e = 0; kt_e < VEC; kt_e++) {
				const int i = kt_v * VEC + kt_e;
				(void)i;
				absmax = fmaxf(absmax, fabsf(__bfloat162float(kt_in[kt_e])));
			}
		}
		for (int i = kt_nvec * VEC + (lane); i < (kGroupSize); i += threads_per_group)
			absmax = fmaxf(absmax, fabsf(__bfloat162float(in[i])));
	}
	absmax = group_max(absmax);
	const float scale = absmax / 448.0f;
	if (lane == 0)
		scales[group] = scale;
	if constexpr (VEC_2 == 1)
		for (int i = lane; i < kGroupSize; i += threads_per_group) {
			float v = __bfloat162float(in[i]) / scale;
			v = fminf(fmaxf(v, -448.0f), 448.0f);
			out[i] = __nv_fp8_e4m3(v);
		}
	else {
		const bool kt_aligned = (reinterpret_cast<size_t>(&in[0]) % (VEC_2 * sizeof(__nv_bfloat16))) == 0 && (reinterpret_cast<size_t>(&out[0]) % (VEC_2 * sizeof(__nv_fp8_e4m3))) == 0;
		const int kt_nvec = kt_aligned ? (int)((kGroupSize) / VEC_2) : 0;
		for (int kt_v = lane; kt_v < kt_nvec; kt_v += threads_per_group) {
			__nv_bfloat16 kt_in[VEC_2];
			__nv_fp8_e4m3 kt_out[VEC_2];
			*reinterpret_cast<typename kt_vec<VEC_2 * sizeof(__nv_bfloat16)>::t *>(kt_in) = *reinterpret_cast<const typename kt_vec<VEC_2 * sizeof(__nv_bfloat16)>::t *>(&in[(0) + kt_v * VEC_2]);
#pragma unroll
			for (int kt_e = 0; kt_e < VEC_2; kt_e++) {
				const int i = kt_v * VEC_2 + kt_e;
				(void)i;
				{
				float v = __bfloat162float(kt_in[kt_e]) / scale;
				v = fminf(fmaxf(v, -448.0f), 448.0f);
				kt_out[kt_e] = __nv_fp8_e4m3(v);
			}
			}
			*reinterpret_cast<typename kt_vec<VEC_2 * sizeof(__nv_fp8_e4m3)>::t *>(&out[(0) + kt_v * VEC_2]) = *reinterpret_cast<typename kt_vec<VEC_2 * sizeof(__nv_fp8_e4m3)>::t *>(kt_out);
		}
		for (int i = kt_nvec * VEC_2 + (lane); i < (kGroupSize); i += threads_per_group)
			{
		float v = __bfloat162float(in[i]) / scale;
		v = fminf(fmaxf(v, -448.0f), 448.0f);
		out[i] = __nv_fp8_e4m3(v);
	}
	}
}

#ifndef __CUDACC_RTC__
void per_token_group_quant_fp8(const __nv_bfloat16 *input,
			       __nv_fp8_e4m3 *output, float *scales,
			       int64_t num_tokens, int hidden,
			       cudaStream_t stream)
{
	const int num_groups = (int)(num_tokens * hidden / kGroupSize);
	const int groups_per_block = GROUPS_PER_BLOCK;
	const int blocks = (num_groups + groups_per_block - 1) / groups_per_block;
	per_token_group_quant_fp8_kernel<<<blocks, groups_per_block * TPG, 0,
					   stream>>>(input, output, scales,
						     num_groups);
}
#endif
