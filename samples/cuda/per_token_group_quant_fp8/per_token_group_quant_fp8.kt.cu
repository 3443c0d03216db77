// per_token_group_quant_fp8.cu - fp8 (e4m3) quantisation of bf16
// activations in groups of 128 consecutive elements, one fp32 scale per
// group (DeepSeek-V3's block-wise fp8 GEMM input): scale = max(absmax,
// 1e-10) / 448, q = fp8(clamp(x / scale, -448, 448)). Written in the style
// of SGLang's AOT per_token_group_quant_8bit: 16 threads per group, 16-byte
// loads, a 16-lane xor-shuffle max, the group read a second time to
// quantise, one-byte stores, and as many groups per block (16, 8, 4, 2 or
// 1) as divide the number of groups.
//
// hand: the template's parameters, each defaulting to the literal it
// replaced (VEC 8, ONCE 0, PACK 0, ITEMS 1, DIV 0 take the original's code
// path; the group, 128, is the format, not a knob):
//   TPG    threads per group (16)
//   VEC    bf16 per vector load (8: 16 bytes)
//   GPB    the most groups per block; the block takes the largest power of
//          two up to GPB that divides the number of groups (16)
//   ONCE   0: read the group again to quantise it (the original); 1: keep
//          it in registers and read it once
//   PACK   0: one-byte stores (the original); 1: the VEC codes of a vector
//          in one store
//   DIV    0: x / scale per element (the original); 1: the reciprocal once
//          per group, then per element the product corrected by one fused
//          multiply-add: the same fp8 codes as the division for every bf16
//          input (divcheck.c tries all of them)
//   ITEMS  sets of GPB groups per block, a grid-stride loop of fixed
//          length whose loads are all issued before the first set is
//          quantised (1); used when ITEMS * GPB divides the number of
//          groups, else the block takes at most GPB / 2 groups and one set
#include <cuda_bf16.h>
#include <cuda_fp8.h>

// hand: annotate sees no tie between the 16s and the launch (they are
// threads per group and groups per block, both in the launch's ?: chain)
#ifndef TPG
#define TPG 16
#endif
#ifndef VEC // hand: 'const uint4' fixes the width; annotate cannot vectorize it
#define VEC 8
#endif
#ifndef GPB
#define GPB 16
#endif
#ifndef ONCE // hand: a change of algorithm
#define ONCE 0
#endif
#ifndef PACK // hand: a change of algorithm
#define PACK 0
#endif
#ifndef ITEMS // hand: a new loop
#define ITEMS 1
#endif
#ifndef DIV // hand: a change of arithmetic
#define DIV 0
#endif
// hand: the original's code path, and the block's size for the compiler
// off it (the original has none)
#define PTG_ORIGINAL (VEC == 8 && !ONCE && !PACK && ITEMS == 1 && !DIV)
#if PTG_ORIGINAL
#define PTG_BOUNDS
#else
#define PTG_BOUNDS __launch_bounds__(GPB * TPG)
#endif

// hand: a vector of VEC bf16 is one access of 2 * VEC bytes (an integer
// word: a struct of bf16 pairs would be copied 4 bytes at a time); N fp8
// codes in one store of N bytes
template <int N> struct kt_vec;
template <> struct kt_vec<2> { typedef unsigned short t; };
template <> struct kt_vec<4> { typedef unsigned int t; };
template <> struct kt_vec<8> { typedef uint2 t; };
template <> struct kt_vec<16> { typedef uint4 t; };
typedef kt_vec<2 * VEC>::t ptg_word;
union ptg_vec {
	ptg_word w;
	__nv_bfloat162 h[VEC / 2];
	__nv_bfloat16 e[VEC];
};
template <int N> struct ptg_codes;
template <> struct ptg_codes<4> { typedef unsigned int type; };
template <> struct ptg_codes<8> { typedef unsigned long long type; };

// hand: x / scale (DIV 0), or through r = 1 / scale and s = min(scale,
// FLT_MAX) (DIV 1): one correction of the rounded product gives the
// correctly rounded quotient wherever it is 2^-20 or more, and the same fp8
// code everywhere (the clamp and the rounding to fp8 hide the last bit of
// smaller quotients; s finite keeps an infinite scale's quotients at 0)
__device__ __forceinline__ float ptg_quot(float x, float scale, float r, float s)
{
#if DIV
	const float q = __fmul_rn(x, r);
	return copysignf(__fmaf_rn(__fmaf_rn(-q, s, x), r, q), x);
#else
	return x / scale;
#endif
}

// hand: the space, the problem sizes and the buffers; the launch as the
// host computes it
#pragma kt param TPG values(2, 4, 8, 16) default(16)
#pragma kt param VEC values(4, 8) default(8)
#pragma kt param GPB values(1, 2, 4, 8, 16, 32, 64) default(16)
#pragma kt param ONCE values(0, 1) default(0)
#pragma kt param PACK values(0, 1) default(0)
#pragma kt param ITEMS values(1, 2, 4) default(1)
#pragma kt param DIV values(0, 1) default(0)
#pragma kt problem T values(1, 64, 4096, 16384) default(4096)
#pragma kt problem D values(7168, 4096) default(7168)
#pragma kt set GROUPS = T * D / 128
#pragma kt set FAST = ITEMS > 1 && GROUPS % (GPB * ITEMS) == 0
#pragma kt set PB = FAST ? GPB : min(ITEMS > 1 ? GPB / 2 : GPB, GROUPS & -GROUPS)
#pragma kt constraint D % 128 == 0 && 128 % (TPG * VEC) == 0
#pragma kt constraint GPB * TPG >= 32 && GPB * TPG <= 1024
// hand: ITEMS and DIV only with the group read once and packed stores (the
// fast family); ITEMS * 128 / TPG bf16 per thread: at most 64 registers
#pragma kt constraint ITEMS == 1 || (ONCE == 1 && PACK == 1 && GPB >= 2 && GPB * ITEMS <= 256 && ITEMS <= TPG)
#pragma kt constraint DIV == 0 || (PACK == 1 && ONCE == 1)
#pragma kt launch grid(GROUPS / (PB * (FAST ? ITEMS : 1))) block(PB * TPG)
#pragma kt arg in bf16[T * D] in init(random(-8, 8))
#pragma kt arg q fp8e4m3[T * D] out
#pragma kt arg scales f32[T * D / 128] out
#pragma kt verify rtol(0) atol(0)
#pragma kt objective bandwidth(T * D * 2 + T * D + T * D / 128 * 4)
extern "C" __global__ void PTG_BOUNDS per_token_group_quant_fp8_kernel(
	const __nv_bfloat16 *__restrict__ in, __nv_fp8_e4m3 *__restrict__ q,
	float *__restrict__ scales)
{
#if PTG_ORIGINAL // hand: the original's code path, TPG for its 16 threads per group
	constexpr int kGroup = 128;
	const int lane = threadIdx.x % TPG;
	const long g = (long)blockIdx.x * (blockDim.x / TPG) + threadIdx.x / TPG;
	const uint4 *x = reinterpret_cast<const uint4 *>(in + g * kGroup);
	const unsigned mask = blockDim.x >= 32 ? 0xffffffffu : (1u << blockDim.x) - 1;

	float amax = 1e-10f;
	for (int i = lane; i < kGroup / 8; i += TPG) {
		uint4 v = x[i];
		const __nv_bfloat162 *p = reinterpret_cast<const __nv_bfloat162 *>(&v);
#pragma unroll
		for (int k = 0; k < 4; k++) {
			float2 f = __bfloat1622float2(p[k]);
			amax = fmaxf(amax, fmaxf(fabsf(f.x), fabsf(f.y)));
		}
	}
#pragma unroll
	for (int off = TPG / 2; off > 0; off /= 2)
		amax = fmaxf(amax, __shfl_xor_sync(mask, amax, off));
	const float scale = amax / 448.f;
	if (lane == 0)
		scales[g] = scale;

	for (int i = lane; i < kGroup / 8; i += TPG) {
		uint4 v = x[i];
		const __nv_bfloat16 *p = reinterpret_cast<const __nv_bfloat16 *>(&v);
#pragma unroll
		for (int k = 0; k < 8; k++) {
			float y = fminf(fmaxf(__bfloat162float(p[k]) / scale, -448.f), 448.f);
			q[g * kGroup + i * 8 + k].__x =
				__nv_cvt_float_to_fp8(y, __NV_SATFINITE, __NV_E4M3);
		}
	}
#else
	// hand: set s of this block is groups ((s * gridDim.x + blockIdx.x) *
	// pb + ...); every load of every set is issued before the first max
	constexpr int kGroup = 128, kPer = kGroup / (TPG * VEC);
	const int lane = threadIdx.x % TPG, pb = blockDim.x / TPG;
	const int items = pb == GPB ? ITEMS : 1;
	const unsigned mask = blockDim.x >= 32 ? 0xffffffffu : (1u << blockDim.x) - 1;
	long g[ITEMS];
	ptg_vec v[ITEMS][kPer];
#pragma unroll
	for (int s = 0; s < ITEMS; s++) {
		g[s] = ((long)s * gridDim.x + blockIdx.x) * pb + threadIdx.x / TPG;
		const ptg_word *x = reinterpret_cast<const ptg_word *>(in + g[s] * kGroup);
		if (s < items)
#pragma unroll
			for (int j = 0; j < kPer; j++)
				v[s][j].w = x[lane + j * TPG];
	}
#pragma unroll
	for (int s = 0; s < ITEMS; s++) {
		if (s >= items)
			break;
		// the max of |x| over bf16 pairs (exact: it is one of them; a NaN
		// is passed over as fmaxf does), then the original's floor
		__nv_bfloat162 m = __float2bfloat162_rn(0.f);
#pragma unroll
		for (int j = 0; j < kPer; j++)
#pragma unroll
			for (int k = 0; k < VEC / 2; k++)
				m = __hmax2(m, __habs2(v[s][j].h[k]));
		float amax = fmaxf(1e-10f, fmaxf(__low2float(m), __high2float(m)));
#pragma unroll
		for (int off = TPG / 2; off > 0; off /= 2)
			amax = fmaxf(amax, __shfl_xor_sync(mask, amax, off));
		const float scale = amax / 448.f;
		const float rcp = DIV ? 1.0f / scale : 0.f, sfin = fminf(scale, 3.40282347e38f);
		if (lane == 0)
			scales[g[s]] = scale;
#pragma unroll
		for (int j = 0; j < kPer; j++) {
			const int i = lane + j * TPG;
			ptg_vec w;
#if ONCE
			w.w = v[s][j].w;
#else
			w.w = reinterpret_cast<const ptg_word *>(in + g[s] * kGroup)[i];
#endif
#if PACK
			typedef ptg_codes<VEC>::type codes;
			// hand: two codes per conversion (the same rounding, one cvt)
			unsigned long long c = 0;
#pragma unroll
			for (int k = 0; k < VEC; k += 2) {
				float2 y;
				y.x = ptg_quot(__bfloat162float(w.e[k]), scale, rcp, sfin);
				y.y = ptg_quot(__bfloat162float(w.e[k + 1]), scale, rcp, sfin);
				y.x = fminf(fmaxf(y.x, -448.f), 448.f);
				y.y = fminf(fmaxf(y.y, -448.f), 448.f);
				c |= (unsigned long long)__nv_cvt_float2_to_fp8x2(y, __NV_SATFINITE,
										 __NV_E4M3)
				     << (8 * k);
			}
			reinterpret_cast<codes *>(q + g[s] * kGroup)[i] = (codes)c;
#else
#pragma unroll
			for (int k = 0; k < VEC; k++) {
				float y = ptg_quot(__bfloat162float(w.e[k]), scale, rcp, sfin);
				y = fminf(fmaxf(y, -448.f), 448.f);
				q[g[s] * kGroup + i * VEC + k].__x =
					__nv_cvt_float_to_fp8(y, __NV_SATFINITE, __NV_E4M3);
			}
#endif
		}
	}
#endif
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
	// hand: GPB replaces 16, 8, 4, 2, 1; ITEMS sets of GPB groups per block
	// where they divide the groups, else a block of fewer than GPB groups
	// (the kernel reads one set from that)
	const long low = groups & -groups;
	const bool fast = ITEMS > 1 && groups % ((long)GPB * ITEMS) == 0;
	const long cap = ITEMS > 1 ? GPB / 2 : GPB;
	const int per_block = fast ? GPB : (int)(low < cap ? low : cap);
	const long blocks = groups / per_block / (fast ? ITEMS : 1);
	per_token_group_quant_fp8_kernel<<<blocks, per_block * TPG, 0, stream>>>(in, q,
										scales);
	return cudaGetLastError();
}
#endif
