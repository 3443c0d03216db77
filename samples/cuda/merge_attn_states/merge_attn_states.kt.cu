// merge_attn_states.kt.cu - the template of merge_attn_states.cu (see there
// for what it computes). Parameters, each defaulting to the literal it
// replaced:
//   BLOCK  threads per block (128)
//   VEC    bf16 per access (8: 16 bytes)
//   PPT    packs per thread, all of one head (1): the two lse loads and
//          exponentials are shared by PPT packs; a head's packs are
//          interleaved over its dim / VEC / PPT threads, so a warp's
//          accesses stay contiguous
// Written by hand (ktc annotate was not there yet) following its
// conventions; lines that go beyond replacing a literal say "hand:".
#include <cuda_bf16.h>

#ifndef BLOCK
#define BLOCK 128
#endif
#ifndef VEC
#define VEC 8
#endif
#ifndef PPT
#define PPT 1
#endif

// hand: a vector of VEC bf16 is one access of 2 * VEC bytes (an integer
// word: a struct of bf16 pairs would be copied 4 bytes at a time)
template <int BYTES> struct kt_word;
template <> struct kt_word<4> { typedef unsigned int type; };
template <> struct kt_word<8> { typedef uint2 type; };
template <> struct kt_word<16> { typedef uint4 type; };
typedef kt_word<2 * VEC>::type merge_word;
union merge_vec {
	merge_word w;
	__nv_bfloat162 h[VEC / 2];
};

#pragma kt param BLOCK values(64, 128, 256, 512, 1024) default(128)
#pragma kt param VEC values(2, 4, 8) default(8)
#pragma kt param PPT values(1, 2, 4, 8) default(1)
#pragma kt problem T values(1, 64, 4096, 16384) default(4096)
#pragma kt problem H values(32, 64) default(32)
#pragma kt problem HD values(128)
#pragma kt constraint HD % (VEC * PPT) == 0
#pragma kt launch grid(div_ceil(T * H * (HD / VEC / PPT), BLOCK)) block(BLOCK)
#pragma kt arg out bf16[T * H * HD] out
#pragma kt arg out_lse f32[T * H] out
#pragma kt arg va bf16[T * H * HD] in
#pragma kt arg sa f32[T * H] in init(random(-6, 6))
#pragma kt arg vb bf16[T * H * HD] in
#pragma kt arg sb f32[T * H] in init(random(-6, 6))
#pragma kt arg tokens int = T
#pragma kt arg heads int = H
#pragma kt arg dim int = HD
#pragma kt verify rtol(0.02) atol(0.001)
#pragma kt objective bandwidth(3 * T * H * HD * 2 + 3 * T * H * 4)
extern "C" __global__ void __launch_bounds__(BLOCK) merge_attn_states_kernel(
	__nv_bfloat16 *__restrict__ out, float *__restrict__ out_lse,
	const __nv_bfloat16 *__restrict__ va, const float *__restrict__ sa,
	const __nv_bfloat16 *__restrict__ vb, const float *__restrict__ sb,
	int tokens, int heads, int dim)
{
	const int group = dim / VEC / PPT; // hand: threads per head
	const long gid = (long)blockIdx.x * BLOCK + threadIdx.x;
	if (gid >= (long)tokens * heads * group)
		return;
	const long th = gid / group; // token * heads + head
	const int lane = gid % group;
	float la = sa[th], lb = sb[th];
	la = isinf(la) ? __int_as_float(0xff800000) : la; // -inf
	lb = isinf(lb) ? __int_as_float(0xff800000) : lb;
	const float m = fmaxf(la, lb);
	const float ea = expf(la - m), eb = expf(lb - m), es = ea + eb;
	const float wa = ea / es, wb = eb / es;
	const merge_word *a = reinterpret_cast<const merge_word *>(va + th * dim);
	const merge_word *b = reinterpret_cast<const merge_word *>(vb + th * dim);
	merge_word *o = reinterpret_cast<merge_word *>(out + th * dim);
	merge_vec x[PPT], y[PPT]; // hand: PPT packs, loads first
#pragma unroll
	for (int p = 0; p < PPT; p++) {
		x[p].w = a[lane + p * group];
		y[p].w = b[lane + p * group];
	}
#pragma unroll
	for (int p = 0; p < PPT; p++) {
		merge_vec r;
#pragma unroll
		for (int k = 0; k < VEC / 2; k++) {
			float2 f = __bfloat1622float2(x[p].h[k]);
			float2 g = __bfloat1622float2(y[p].h[k]);
			r.h[k] = __floats2bfloat162_rn(f.x * wa + g.x * wb,
						       f.y * wa + g.y * wb);
		}
		o[lane + p * group] = r.w;
	}
	if (lane == 0)
		out_lse[th] = logf(es) + m;
}

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>

// v* are [tokens, heads, dim], s* [tokens, heads]; dim a multiple of
// VEC * PPT.
static cudaError_t merge_attn_states(__nv_bfloat16 *out, float *out_lse,
				     const __nv_bfloat16 *va, const float *sa,
				     const __nv_bfloat16 *vb, const float *sb,
				     int tokens, int heads, int dim,
				     cudaStream_t stream)
{
	if (dim % (VEC * PPT) || tokens <= 0 || heads <= 0)
		return cudaErrorInvalidValue;
	const long threads = (long)tokens * heads * (dim / VEC / PPT);
	merge_attn_states_kernel<<<(threads + BLOCK - 1) / BLOCK, BLOCK, 0, stream>>>(
		out, out_lse, va, sa, vb, sb, tokens, heads, dim);
	return cudaGetLastError();
}
#endif
