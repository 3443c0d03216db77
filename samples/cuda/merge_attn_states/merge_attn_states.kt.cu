// merge_attn_states.cu - merges two partial attention results by their
// log-sum-exp (split KV, cascade or prefix-cached attention): per token and
// head, with lse a and b, out = (e^a va + e^b vb) / (e^a + e^b) and
// out_lse = log(e^a + e^b), computed as SGLang's merge_state_v2 does (the
// larger lse subtracted, +inf read as -inf). In its style: 128 threads per
// block, one 16-byte pack (8 bf16) per thread, every thread loading both
// lse values of its head and computing both exponentials itself.
// hand: this is the template merge_attn_states.kt.cu: `ktc annotate` of
// hand: the original (BLOCK_SIZE), completed by hand; each parameter
// hand: defaults to the literal it replaced, and at the defaults nvcc
// hand: emits the original's PTX:
// hand:   BLOCK_SIZE threads per block (128)
// hand:   VEC    bf16 per access (8: 16 bytes)
// hand:   PPT    packs per thread, all of one head (1): the two lse loads
// hand:          and exponentials are shared by PPT packs; a head's packs
// hand:          are interleaved over its dim / VEC / PPT threads, so a
// hand:          warp's accesses stay contiguous
// hand:   EARLY  1: the value loads are issued before the lse math (0: after
// hand:          it, as written in the original, where ptxas cannot move
// hand:          them above the divisions' slow-path branches, so a thread
// hand:          waits for DRAM twice in a row: lse, then values)
// hand:   FAST   1: __expf, __fdividef, __logf (no slow-path branches) (0)
// hand:   POW2   1: where dim / VEC / PPT is a power of two, the token and
// hand:          head by a shift, the pack by a mask (0: a 64-bit division
// hand:          of ~30 instructions before the first load, as written)
#include <cuda_bf16.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 128
#endif
// hand: parameters annotate keeps as literals (the 16-byte word) or that
// are not literals (PPT, EARLY, FAST, POW2)
#ifndef VEC
#define VEC 8
#endif
#ifndef PPT
#define PPT 1
#endif
#ifndef EARLY
#define EARLY 0
#endif
#ifndef FAST
#define FAST 0
#endif
#ifndef POW2
#define POW2 0
#endif

// hand: a vector of VEC bf16 is one access of 2 * VEC bytes (annotate's
// vectorize refactor does not apply: the original already loads uint4)
template <int BYTES> struct kt_word;
template <> struct kt_word<4> { typedef unsigned int type; };
template <> struct kt_word<8> { typedef uint2 type; };
template <> struct kt_word<16> { typedef uint4 type; };
typedef kt_word<2 * VEC>::type merge_word;

// hand: the math of one pack as a function: PPT packs use it
__device__ __forceinline__ merge_word merge_pack(merge_word a, merge_word b,
						 float wa, float wb)
{
	merge_word o;
	const __nv_bfloat162 *ap = reinterpret_cast<const __nv_bfloat162 *>(&a);
	const __nv_bfloat162 *bp = reinterpret_cast<const __nv_bfloat162 *>(&b);
	__nv_bfloat162 *op = reinterpret_cast<__nv_bfloat162 *>(&o);
#pragma unroll
	for (int k = 0; k < VEC / 2; k++) {
		float2 x = __bfloat1622float2(ap[k]), y = __bfloat1622float2(bp[k]);
		op[k] = __floats2bfloat162_rn(x.x * wa + y.x * wb, x.y * wa + y.y * wb);
	}
	return o;
}

#pragma kt param BLOCK_SIZE values(32, 64, 128, 256, 512) default(128) // hand: powers of two to 512 only, to keep the space at a few hundred (annotate lists every multiple of 32 to 1024)
#pragma kt param VEC values(2, 4, 8) default(8) // hand: VEC to POW2: see the top
#pragma kt param PPT values(1, 2, 4, 8) default(1)
#pragma kt param EARLY values(0, 1) default(0)
#pragma kt param FAST values(0, 1) default(0)
#pragma kt param POW2 values(0, 1) default(0)
#pragma kt problem T values(1, 64, 4096, 16384) default(4096) // hand: sizes from the models (annotate cannot know them)
#pragma kt problem H values(32, 64) default(32) // hand:
#pragma kt problem HD values(128) // hand:
#pragma kt constraint HD % (VEC * PPT) == 0 // hand: the host code's precondition
#pragma kt launch grid(div_ceil(T * H * (HD / VEC / PPT), BLOCK_SIZE)) block(BLOCK_SIZE) // hand: annotate's line with VEC and PPT for 8
#pragma kt arg out bf16[T * H * HD] out // hand: the derived lengths, over the names used here
#pragma kt arg out_lse f32[T * H] out // hand:
#pragma kt arg va bf16[T * H * HD] in // hand:
#pragma kt arg sa f32[T * H] in init(random(-6, 6)) // hand:
#pragma kt arg vb bf16[T * H * HD] in // hand:
#pragma kt arg sb f32[T * H] in init(random(-6, 6)) // hand:
#pragma kt arg tokens int = T // hand: the problem names the checker uses
#pragma kt arg heads int = H // hand:
#pragma kt arg dim int = HD // hand:
#pragma kt verify rtol(0.02) atol(0.001) // hand: bf16 output
#pragma kt objective bandwidth(3 * T * H * HD * 2 + 3 * T * H * 4) // hand: bytes moved
// hand: a thread of PPT > 1 packs gets the registers to hold their loads
// (without a bound ptxas sinks the later loads below the first store, to
// save registers: a second DRAM round trip)
#if PPT > 1
#define KT_BOUNDS __launch_bounds__(BLOCK_SIZE, 1)
#else
#define KT_BOUNDS
#endif
extern "C" __global__ void KT_BOUNDS merge_attn_states_kernel(
	__nv_bfloat16 *__restrict__ out, float *__restrict__ out_lse,
	const __nv_bfloat16 *__restrict__ va, const float *__restrict__ sa,
	const __nv_bfloat16 *__restrict__ vb, const float *__restrict__ sb,
	int tokens, int heads, int dim)
{
	const int packs = dim / VEC / PPT; // hand: threads per head
	const long gid = (long)blockIdx.x * BLOCK_SIZE + threadIdx.x;
	if (gid >= (long)tokens * heads * packs)
		return;
#if POW2 // hand: a shift and a mask where the threads per head are a power of two
	const bool kt_pow2 = (packs & (packs - 1)) == 0;
	const long th = kt_pow2 ? gid >> (__ffs(packs) - 1) : gid / packs;
	const int pack = kt_pow2 ? (int)(gid & (packs - 1)) : (int)(gid % packs);
#else
	const long th = gid / packs; // token * heads + head
	const int pack = gid % packs;
#endif
	merge_word a[PPT], b[PPT]; // hand: PPT packs, pack + p * packs
#if EARLY // hand: the value loads first (see the top)
#pragma unroll
	for (int p = 0; p < PPT; p++) {
		const long off = th * dim + (pack + p * packs) * VEC;
		a[p] = *reinterpret_cast<const merge_word *>(va + off);
		b[p] = *reinterpret_cast<const merge_word *>(vb + off);
	}
#endif
	float la = sa[th], lb = sb[th];
	la = isinf(la) ? __int_as_float(0xff800000) : la; // -inf
	lb = isinf(lb) ? __int_as_float(0xff800000) : lb;
	const float m = fmaxf(la, lb);
#if FAST // hand: a parameter that is no literal: the math's precision
	const float ea = __expf(la - m), eb = __expf(lb - m), es = ea + eb;
	const float wa = __fdividef(ea, es), wb = __fdividef(eb, es);
#else
	const float ea = expf(la - m), eb = expf(lb - m), es = ea + eb;
	const float wa = ea / es, wb = eb / es;
#endif
#pragma unroll
	for (int p = 0; p < PPT; p++) { // hand: PPT packs
		const long off = th * dim + (pack + p * packs) * VEC;
#if !EARLY
		a[p] = *reinterpret_cast<const merge_word *>(va + off);
		b[p] = *reinterpret_cast<const merge_word *>(vb + off);
#endif
		*reinterpret_cast<merge_word *>(out + off) = merge_pack(a[p], b[p], wa, wb);
	}
	if (pack == 0)
#if FAST // hand:
		out_lse[th] = __logf(es) + m;
#else
		out_lse[th] = logf(es) + m;
#endif
}

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>

// v* are [tokens, heads, dim], s* [tokens, heads]; dim a multiple of 8.
#ifndef __CUDACC_RTC__
static cudaError_t merge_attn_states(__nv_bfloat16 *out, float *out_lse,
				     const __nv_bfloat16 *va, const float *sa,
				     const __nv_bfloat16 *vb, const float *sb,
				     int tokens, int heads, int dim,
				     cudaStream_t stream)
{
	if (dim % (VEC * PPT) || tokens <= 0 || heads <= 0) // hand: VEC * PPT for 8
		return cudaErrorInvalidValue;
	const long threads = (long)tokens * heads * (dim / VEC / PPT); // hand:
	merge_attn_states_kernel<<<(threads + (BLOCK_SIZE - 1)) / BLOCK_SIZE, BLOCK_SIZE, 0, stream>>>(
		out, out_lse, va, sa, vb, sb, tokens, heads, dim);
	return cudaGetLastError();
}
#endif
#endif
