/*
 * ref.h - the plain-C side of the CUDA samples: number formats (bf16, fp8
 * e4m3) done bit by bit, and the prototype of every sample's CPU reference
 * (samples/cuda/<name>/ref.c).
 *
 * The references are written from the operation's definition, not from the
 * kernels: loops over the output in the obvious order, float arithmetic,
 * the rounding of the output format applied once at the end. Where a kernel
 * must agree bit for bit (fp8 codes, integer outputs) the reference does the
 * same float operations the definition names (absmax / 448, x / scale).
 * Buffers of bf16 are uint16_t bit patterns; fp8 are uint8_t codes.
 */
#ifndef KTC_SAMPLES_REF_H
#define KTC_SAMPLES_REF_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The largest finite fp8 e4m3 value (OCP "FN" variant: no infinities). */
#define REF_FP8_MAX 448.0f

static inline float ref_bf16_to_f32(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;
	memcpy(&f, &u, sizeof(f));
	return f;
}

/* Round to nearest, ties to even; NaN stays a (quiet) NaN. */
static inline uint16_t ref_f32_to_bf16(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof(u));
	if ((u & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((u >> 16) | 0x40);
	u += 0x7fffu + ((u >> 16) & 1u);
	return (uint16_t)(u >> 16);
}

/* bf16 rounding of a float, as a float. */
static inline float ref_round_bf16(float f)
{
	return ref_bf16_to_f32(ref_f32_to_bf16(f));
}

static inline float ref_fp8_to_f32(uint8_t v)
{
	int sign = v >> 7, exp = (v >> 3) & 15, man = v & 7;
	float mag;
	if (exp == 15 && man == 7)
		return NAN;
	if (exp == 0)
		mag = ldexpf((float)man, -9); /* subnormal: man/8 * 2^-6 */
	else
		mag = ldexpf(1.0f + (float)man / 8.0f, exp - 7);
	return sign ? -mag : mag;
}

/*
 * fp8 e4m3 with round to nearest even and saturation to +-448 (CUDA's
 * __NV_SATFINITE). Below 2^-6 the step is 2^-9, so the code is the rounded
 * multiple of 2^-9 itself (8 of them is exactly the smallest normal).
 */
static inline uint8_t ref_f32_to_fp8(float f)
{
	if (isnan(f))
		return 0x7f;
	uint8_t sign = signbit(f) ? 0x80 : 0;
	float a = fabsf(f);
	if (a >= REF_FP8_MAX)
		return sign | 0x7e;
	if (a < 0.015625f)
		return sign | (uint8_t)nearbyintf(a * 512.0f);
	int e;
	float m = frexpf(a, &e); /* a = m * 2^e, m in [0.5, 1) */
	e -= 1;                  /* a = (2m) * 2^e, 2m in [1, 2) */
	int q = (int)nearbyintf((2.0f * m - 1.0f) * 8.0f);
	if (q == 8) {
		q = 0;
		e++;
	}
	int be = e + 7;
	if (be > 15 || (be == 15 && q == 7))
		return sign | 0x7e;
	return sign | (uint8_t)(be << 3 | q);
}

/* ---- the references, one per sample ------------------------------------ */

/* out[t][i] = silu(in[t][i]) * in[t][d + i]; in is [tokens][2 d]. */
void ref_silu_and_mul(uint16_t *out, const uint16_t *in, long tokens, long d);
/* out[t][i] = gelu(in[t][i]) * in[t][d + i], gelu with erf. */
void ref_gelu_and_mul(uint16_t *out, const uint16_t *in, long tokens, long d);

/* out = in * rsqrt(mean(in^2) + eps) * w, per row of d. */
void ref_rmsnorm(uint16_t *out, const uint16_t *in, const uint16_t *w,
                 long tokens, long d, float eps);
/* x = in + residual in float; residual = bf16(x); in = bf16(x * r * w)
 * with r = 1 / sqrt(mean(x^2) + eps), from the unrounded x. */
void ref_fused_add_rmsnorm(uint16_t *in, uint16_t *residual, const uint16_t *w,
                           long tokens, long d, float eps);

/* Per group of `group` consecutive elements: scale = max(absmax, 1e-10) /
 * 448, q = fp8(clamp(x / scale)); scales[t * (d / group) + g]. */
void ref_per_token_group_quant_fp8(uint8_t *q, float *scales,
                                   const uint16_t *in, long tokens, long d,
                                   long group);

/* scale = max |x| / 448 over all n (0 when every x is 0). */
void ref_per_tensor_absmax(float *scale, const uint16_t *in, long n);
/* q = fp8(clamp(x * (1 / scale))). */
void ref_per_tensor_quant_fp8(uint8_t *q, const uint16_t *in, float scale,
                              long n);

/*
 * MoE align: ids[numel] in [0, experts). cumsum[e] is the start of expert e's
 * segment in the padded order (each segment rounded up to a multiple of
 * block), cumsum[experts] the total; sorted[] holds, per segment, the
 * indices i with ids[i] == e in increasing order, then numel as padding, and
 * numel everywhere past the total; expert_ids[b] the expert of block b, -1
 * for blocks past the total. sorted has numel + experts * (block - 1)
 * entries, expert_ids that divided by block, rounded up.
 */
void ref_moe_align_block_size(int32_t *sorted, int32_t *expert_ids,
                              int32_t *total, int32_t *cumsum,
                              const int32_t *ids, long numel, long experts,
                              long block);

/* Per row of `experts` logits: softmax, then the k largest probabilities
 * (ties to the lower expert) in decreasing order. */
void ref_moe_topk_softmax(float *weights, int32_t *ids, const float *logits,
                          long tokens, long experts, long k);

/* out[t][h] = scale * sum_j x[t][j][h], x is [tokens][k][d]. */
void ref_moe_sum_reduce(uint16_t *out, const uint16_t *x, long tokens, long k,
                        long d, float scale);

/*
 * Merge two attention partials: v[t][h][:], lse s[t][h]; the result is the
 * softmax-weighted mix, lse_out = log(e^sa + e^sb). A lse of +inf counts as
 * -inf (an empty partial).
 */
void ref_merge_attn_states(uint16_t *v_out, float *s_out, const uint16_t *va,
                           const float *sa, const uint16_t *vb, const float *sb,
                           long tokens, long heads, long dim);

/* NeoX rotary embedding in place on q [tokens][qheads][dim] and k
 * [tokens][kheads][dim]; cache[pos][0 .. dim/2) cos, [dim/2 .. dim) sin. */
void ref_rotary_neox(uint16_t *q, uint16_t *k, const int64_t *pos,
                     const float *cache, long tokens, long qheads, long kheads,
                     long dim);

/* out[c][r] = in[r][c] for an rows x cols matrix of 16-bit elements. */
void ref_transpose(uint16_t *out, const uint16_t *in, long rows, long cols);

#ifdef __cplusplus
}
#endif
#endif
