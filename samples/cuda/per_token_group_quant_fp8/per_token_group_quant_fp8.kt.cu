// per_token_group_quant_fp8.kt.cu - the template of
// per_token_group_quant_fp8.cu (see there for what it computes). The group
// (128) is the format, not a knob. Parameters, each defaulting to the
// literal it replaced:
//   TPG    threads per group (16)
//   VEC    bf16 per vector load (8: 16 bytes)
//   GPB    the most groups per block; the block takes the largest power of
//          two up to GPB that divides the number of groups (16)
//   ONCE   0: read the group again to quantise it (the original); 1: keep
//          it in registers and read it once
//   PACK   0: one-byte stores (the original); 1: the VEC codes of a vector
//          in one store
// Written by hand (ktc annotate was not there yet) following its
// conventions; lines that go beyond replacing a literal say "hand:".
#include <cuda_bf16.h>
#include <cuda_fp8.h>

#ifndef TPG
#define TPG 16
#endif
#ifndef VEC
#define VEC 8
#endif
#ifndef GPB
#define GPB 16
#endif
#ifndef ONCE
#define ONCE 0
#endif
#ifndef PACK
#define PACK 0
#endif

// hand: a vector of VEC bf16 is one access of 2 * VEC bytes (an integer
// word: a struct of bf16 pairs would be copied 4 bytes at a time)
template <int BYTES> struct kt_word;
template <> struct kt_word<4> { typedef unsigned int type; };
template <> struct kt_word<8> { typedef uint2 type; };
template <> struct kt_word<16> { typedef uint4 type; };
typedef kt_word<2 * VEC>::type ptg_word;
union ptg_vec {
	ptg_word w;
	__nv_bfloat162 h[VEC / 2];
};
// hand: N fp8 codes in one store of N bytes
template <int N> struct ptg_codes;
template <> struct ptg_codes<2> { typedef unsigned short type; };
template <> struct ptg_codes<4> { typedef unsigned int type; };
template <> struct ptg_codes<8> { typedef unsigned long long type; };


#pragma kt param TPG values(2, 4, 8, 16, 32) default(16)
#pragma kt param VEC values(2, 4, 8) default(8)
#pragma kt param GPB values(1, 2, 4, 8, 16, 32, 64) default(16)
#pragma kt param ONCE values(0, 1) default(0)
#pragma kt param PACK values(0, 1) default(0)
#pragma kt problem T values(1, 64, 4096, 16384) default(4096)
#pragma kt problem D values(7168, 4096) default(7168)
#pragma kt set GROUPS = T * D / 128
#pragma kt set PB = min(GPB, GROUPS & -GROUPS)
#pragma kt constraint D % 128 == 0 && 128 % (TPG * VEC) == 0
#pragma kt constraint GPB * TPG >= 32 && GPB * TPG <= 1024
#pragma kt launch grid(GROUPS / PB) block(PB * TPG)
#pragma kt arg in bf16[T * D] in init(random(-8, 8))
#pragma kt arg q fp8e4m3[T * D] out
#pragma kt arg scales f32[T * D / 128] out
#pragma kt verify rtol(0) atol(0)
#pragma kt objective bandwidth(T * D * 2 + T * D + T * D / 128 * 4)
extern "C" __global__ void __launch_bounds__(GPB * TPG) per_token_group_quant_fp8_kernel(
	const __nv_bfloat16 *__restrict__ in, __nv_fp8_e4m3 *__restrict__ q,
	float *__restrict__ scales)
{
	constexpr int kGroup = 128;
	constexpr int kPer = kGroup / (TPG * VEC); // hand: vectors per thread
	const int lane = threadIdx.x % TPG;
	const long g = (long)blockIdx.x * (blockDim.x / TPG) + threadIdx.x / TPG;
	const ptg_word *x = reinterpret_cast<const ptg_word *>(in + g * kGroup);
	const unsigned mask = blockDim.x >= 32 ? 0xffffffffu : (1u << blockDim.x) - 1;

	float amax = 1e-10f;
#if ONCE
	ptg_word keep[kPer]; // hand: the group stays in registers
#endif
#pragma unroll
	for (int j = 0; j < kPer; j++) {
		ptg_vec v;
		v.w = x[lane + j * TPG];
#if ONCE
		keep[j] = v.w;
#endif
#pragma unroll
		for (int k = 0; k < VEC / 2; k++) {
			float2 f = __bfloat1622float2(v.h[k]);
			amax = fmaxf(amax, fmaxf(fabsf(f.x), fabsf(f.y)));
		}
	}
#pragma unroll
	for (int off = TPG / 2; off > 0; off /= 2)
		amax = fmaxf(amax, __shfl_xor_sync(mask, amax, off));
	const float scale = amax / 448.f;
	if (lane == 0)
		scales[g] = scale;

#pragma unroll
	for (int j = 0; j < kPer; j++) {
		const int i = lane + j * TPG;
		ptg_vec v;
#if ONCE
		v.w = keep[j];
#else
		v.w = x[i];
#endif
		const __nv_bfloat16 *p = reinterpret_cast<const __nv_bfloat16 *>(&v);
#if PACK
		// hand: the VEC codes packed into one word of VEC bytes
		unsigned long long w = 0;
#pragma unroll
		for (int k = 0; k < VEC; k++) {
			float y = fminf(fmaxf(__bfloat162float(p[k]) / scale, -448.f), 448.f);
			w |= (unsigned long long)__nv_cvt_float_to_fp8(y, __NV_SATFINITE,
								      __NV_E4M3)
			     << (8 * k);
		}
		typedef ptg_codes<VEC>::type codes;
		reinterpret_cast<codes *>(q + g * kGroup)[i] = (codes)w;
#else
#pragma unroll
		for (int k = 0; k < VEC; k++) {
			float y = fminf(fmaxf(__bfloat162float(p[k]) / scale, -448.f), 448.f);
			q[g * kGroup + i * VEC + k].__x =
				__nv_cvt_float_to_fp8(y, __NV_SATFINITE, __NV_E4M3);
		}
#endif
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
	const long low = groups & -groups; // hand: GPB replaces 16, 8, 4, 2, 1
	const int per_block = low < GPB ? (int)low : GPB;
	per_token_group_quant_fp8_kernel<<<groups / per_block, per_block * TPG, 0,
					   stream>>>(in, q, scales);
	return cudaGetLastError();
}
#endif
