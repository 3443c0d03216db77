/*
 * test_refs.c - the samples' CPU references (samples/cuda/<name>/ref.c) on
 * small inputs: cases worked out by hand, and invariants that hold for any
 * input (a softmax sums to 1, a transpose twice is the identity, fp8
 * dequantisation comes back within the format's step). The GPU checkers
 * trust these references, so they are tested here, where CI runs.
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "samples/cuda/common/ref.h"

static uint16_t bf(float f)
{
	return ref_f32_to_bf16(f);
}

static float fl(uint16_t h)
{
	return ref_bf16_to_f32(h);
}

static uint32_t rng_state = 12345;

static float uniform(float lo, float hi)
{
	rng_state = rng_state * 1664525u + 1013904223u;
	return lo + (hi - lo) * (float)(rng_state >> 8) / (float)(1u << 24);
}

static int close_to(double got, double want, double tol)
{
	return fabs(got - want) <= tol;
}

/* ---- number formats ---------------------------------------------------- */

static void test_bf16_rounds_to_nearest_even(void)
{
	CHECK_EQ_INT(bf(1.0f), 0x3f80);
	CHECK_EQ_INT(bf(-2.0f), 0xc000);
	CHECK_EQ_INT(bf(1.00390625f), 0x3f80); /* tie: down to even */
	CHECK_EQ_INT(bf(1.01171875f), 0x3f82); /* tie: up to even */
	CHECK_EQ_INT(bf(1.0059f), 0x3f81);     /* above the tie: up */
	CHECK(isnan(fl(bf(NAN))));
	CHECK(fl(0x4049) == 3.140625f);
}

static void test_fp8_codes_by_hand(void)
{
	CHECK_EQ_INT(ref_f32_to_fp8(1.0f), 0x38);
	CHECK_EQ_INT(ref_f32_to_fp8(-1.0f), 0xb8);
	CHECK_EQ_INT(ref_f32_to_fp8(0.0625f), 0x18);
	CHECK_EQ_INT(ref_f32_to_fp8(448.0f), 0x7e);
	CHECK_EQ_INT(ref_f32_to_fp8(464.0f), 0x7e);        /* saturates */
	CHECK_EQ_INT(ref_f32_to_fp8(-1000.0f), 0xfe);      /* saturates */
	CHECK_EQ_INT(ref_f32_to_fp8(0.001953125f), 0x01);  /* 2^-9, subnormal */
	CHECK_EQ_INT(ref_f32_to_fp8(0.0009765625f), 0x00); /* 2^-10: tie to 0 */
	CHECK_EQ_INT(ref_f32_to_fp8(0.0029296875f),
	             0x02);                          /* 1.5 * 2^-9: to 2 */
	CHECK_EQ_INT(ref_f32_to_fp8(1.0625f), 0x38); /* tie between 1, 1.125 */
	CHECK_EQ_INT(ref_f32_to_fp8(1.1875f), 0x3a); /* tie: to 1.25 */
	CHECK_EQ_INT(ref_f32_to_fp8(0.0155f), 0x08); /* rounds up to 2^-6 */
	CHECK_EQ_INT(ref_f32_to_fp8(NAN), 0x7f);
	CHECK(ref_fp8_to_f32(0x7e) == 448.0f);
	CHECK(ref_fp8_to_f32(0x01) == 0.001953125f);
	CHECK(isnan(ref_fp8_to_f32(0xff)));
}

static void test_fp8_every_code_round_trips(void)
{
	for (int c = 0; c < 256; c++) {
		if ((c & 0x7f) == 0x7f)
			continue; /* NaN */
		CHECK_EQ_INT(ref_f32_to_fp8(ref_fp8_to_f32((uint8_t)c)), c);
	}
	/* and the codes are ordered like their values */
	for (int c = 1; c < 0x7e; c++)
		CHECK(ref_fp8_to_f32((uint8_t)(c + 1)) >
		      ref_fp8_to_f32((uint8_t)c));
}

/* ---- activations ------------------------------------------------------- */

static void test_silu_and_mul_by_hand(void)
{
	/* two tokens, d = 2: rows [x0 x1 | y0 y1] */
	uint16_t in[8] = {bf(1),    bf(0), bf(2), bf(5),
	                  bf(-100), bf(3), bf(1), bf(1)};
	uint16_t out[4];
	ref_silu_and_mul(out, in, 2, 2);
	CHECK_EQ_INT(out[0], 0x3fbb); /* 2 / (1 + e^-1) = 1.4621 -> 1.4609375 */
	CHECK(fl(out[1]) == 0.0f);
	CHECK(fabsf(fl(out[2])) < 1e-30f);
	CHECK(close_to(fl(out[3]), 3.0 / (1.0 + exp(-3.0)), 0.01));
}

static void test_gelu_and_mul_by_hand(void)
{
	uint16_t in[4] = {bf(1), bf(0), bf(1), bf(7)};
	uint16_t out[2];
	ref_gelu_and_mul(out, in, 1, 2);
	CHECK_EQ_INT(out[0], 0x3f57); /* gelu(1) = 0.84134 -> 0.83984375 */
	CHECK(fl(out[1]) == 0.0f);
}

/* ---- norms ------------------------------------------------------------- */

static void test_rmsnorm_by_hand(void)
{
	uint16_t in[2] = {bf(3), bf(4)}, w[2] = {bf(1), bf(2)}, out[2];
	ref_rmsnorm(out, in, w, 1, 2, 0.0f);
	/* mean of squares 12.5: r = 0.28284 */
	CHECK_EQ_INT(out[0], bf(0.848528f));
	CHECK_EQ_INT(out[1], bf(2.262742f));
}

static void test_rmsnorm_rows_come_out_unit_rms(void)
{
	enum { T = 3, D = 256 };
	static uint16_t in[T * D], w[D], out[T * D];
	for (int i = 0; i < T * D; i++)
		in[i] = bf(uniform(-5, 5));
	for (int i = 0; i < D; i++)
		w[i] = bf(1);
	ref_rmsnorm(out, in, w, T, D, 1e-6f);
	for (int t = 0; t < T; t++) {
		double ss = 0;
		for (int i = 0; i < D; i++)
			ss += (double)fl(out[t * D + i]) * fl(out[t * D + i]);
		CHECK(close_to(ss / D, 1.0, 0.01));
	}
}

static void test_fused_add_rmsnorm_is_add_then_rmsnorm(void)
{
	enum { T = 2, D = 64 };
	static uint16_t in[T * D], res[T * D], w[D], sum[T * D], want[T * D];
	for (int i = 0; i < T * D; i++) {
		in[i] = bf(uniform(-2, 2));
		res[i] = bf(uniform(-2, 2));
	}
	for (int i = 0; i < D; i++)
		w[i] = bf(uniform(0.5f, 1.5f));
	for (int i = 0; i < T * D; i++)
		sum[i] = bf(fl(in[i]) + fl(res[i]));
	ref_rmsnorm(want, sum, w, T, D, 1e-6f);
	ref_fused_add_rmsnorm(in, res, w, T, D, 1e-6f);
	for (int i = 0; i < T * D; i++) {
		CHECK_EQ_INT(res[i], sum[i]);
		/* the kernel normalises the unrounded sum: one bf16 step at
		 * most */
		CHECK(close_to(fl(in[i]), fl(want[i]),
		               0.01 * fabs(fl(want[i])) + 1e-3));
	}
}

/* ---- quantisation ------------------------------------------------------ */

static void test_group_quant_by_hand(void)
{
	enum { G = 128 };
	uint16_t in[2 * G];
	uint8_t q[2 * G];
	float scales[2];
	for (int i = 0; i < G; i++) {
		in[i] = bf(1.0f);
		in[G + i] = bf(0.0f);
	}
	in[5] = bf(-448.0f);
	ref_per_token_group_quant_fp8(q, scales, in, 1, 2 * G, G);
	CHECK(scales[0] == 1.0f);
	CHECK_EQ_INT(q[0], 0x38);
	CHECK_EQ_INT(q[5], 0xfe);
	CHECK(scales[1] == 1e-10f / 448.0f); /* an all-zero group */
	CHECK_EQ_INT(q[G + 7], 0x00);
}

static void test_group_quant_dequantises_within_a_step(void)
{
	enum { T = 3, D = 384, G = 128 };
	static uint16_t in[T * D];
	static uint8_t q[T * D];
	static float scales[T * D / G];
	for (int i = 0; i < T * D; i++)
		in[i] = bf(uniform(-20, 20));
	ref_per_token_group_quant_fp8(q, scales, in, T, D, G);
	for (int i = 0; i < T * D; i++) {
		double x = fl(in[i]),
		       back = ref_fp8_to_f32(q[i]) * scales[i / G];
		/* 3 mantissa bits: half a step is 1/16 of the value, and the
		 * subnormal step 2^-9 of the scale */
		CHECK(fabs(back - x) <=
		      fabs(x) / 16 + scales[i / G] * 0.001953125);
	}
	for (int g = 0; g < T * D / G; g++) { /* the max maps to +-448 */
		int hit = 0;
		for (int i = 0; i < G; i++)
			hit |= (q[g * G + i] & 0x7f) == 0x7e;
		CHECK(hit);
	}
}

static void test_per_tensor_quant(void)
{
	enum { N = 1000 };
	static uint16_t in[N];
	static uint8_t q[N];
	for (int i = 0; i < N; i++)
		in[i] = bf(uniform(-3, 3));
	in[417] = bf(-4.0f);
	float scale = 0;
	ref_per_tensor_absmax(&scale, in, N);
	CHECK(scale == 4.0f / 448.0f);
	ref_per_tensor_quant_fp8(q, in, scale, N);
	CHECK_EQ_INT(q[417], 0xfe);
	for (int i = 0; i < N; i++) {
		double x = fl(in[i]), back = ref_fp8_to_f32(q[i]) * scale;
		CHECK(fabs(back - x) <= fabs(x) / 16 + scale * 0.001953125);
	}
}

/* ---- MoE --------------------------------------------------------------- */

static void test_moe_align_by_hand(void)
{
	/* 3 experts, blocks of 2: counts 1, 1, 3 pad to 2, 2, 4 */
	const int32_t ids[5] = {2, 0, 2, 1, 2};
	int32_t sorted[8], expert_ids[4], total = 0, cumsum[4];
	ref_moe_align_block_size(sorted, expert_ids, &total, cumsum, ids, 5, 3,
	                         2);
	const int32_t want_sorted[8] = {1, 5, 3, 5, 0, 2, 4, 5};
	const int32_t want_cum[4] = {0, 2, 4, 8};
	const int32_t want_exp[4] = {0, 1, 2, 2};
	CHECK_EQ_INT(total, 8);
	for (int i = 0; i < 8; i++)
		CHECK_EQ_INT(sorted[i], want_sorted[i]);
	for (int i = 0; i < 4; i++) {
		CHECK_EQ_INT(cumsum[i], want_cum[i]);
		CHECK_EQ_INT(expert_ids[i], want_exp[i]);
	}
}

static void test_moe_align_places_every_id_once(void)
{
	enum { N = 300, E = 16, B = 8 };
	static int32_t ids[N], sorted[N + E * (B - 1)],
	    eids[(N + E * (B - 1)) / B + 1];
	int32_t total = 0, cumsum[E + 1];
	int seen[N] = {0};
	for (int i = 0; i < N; i++)
		ids[i] = (int32_t)uniform(0, E - 0.01f);
	ref_moe_align_block_size(sorted, eids, &total, cumsum, ids, N, E, B);
	CHECK(total % B == 0 && total <= N + E * (B - 1));
	for (int e = 0; e < E; e++)
		for (int i = cumsum[e]; i < cumsum[e + 1]; i++) {
			if (sorted[i] == N)
				continue;
			CHECK(sorted[i] >= 0 && sorted[i] < N);
			CHECK_EQ_INT(ids[sorted[i]], e);
			CHECK_EQ_INT(eids[i / B], e);
			seen[sorted[i]]++;
		}
	for (int i = 0; i < N; i++)
		CHECK_EQ_INT(seen[i], 1);
	for (int b = total / B; b < (N + E * (B - 1) + B - 1) / B; b++)
		CHECK_EQ_INT(eids[b], -1);
}

static void test_topk_softmax_by_hand(void)
{
	/* probabilities proportional to 1, 2, 3, 4 */
	const float logits[4] = {0, logf(2), logf(3), logf(4)};
	float w[2];
	int32_t ids[2];
	ref_moe_topk_softmax(w, ids, logits, 1, 4, 2);
	CHECK_EQ_INT(ids[0], 3);
	CHECK_EQ_INT(ids[1], 2);
	CHECK(close_to(w[0], 0.4, 1e-6) && close_to(w[1], 0.3, 1e-6));
	/* ties go to the lower expert */
	const float flat[4] = {1, 1, 1, 1};
	ref_moe_topk_softmax(w, ids, flat, 1, 4, 2);
	CHECK_EQ_INT(ids[0], 0);
	CHECK_EQ_INT(ids[1], 1);
	CHECK(close_to(w[0], 0.25, 1e-7));
}

static void test_topk_softmax_of_all_experts_sums_to_one(void)
{
	enum { T = 4, E = 64 };
	static float logits[T * E], w[T * E];
	static int32_t ids[T * E];
	for (int i = 0; i < T * E; i++)
		logits[i] = uniform(-6, 6);
	ref_moe_topk_softmax(w, ids, logits, T, E, E);
	for (int t = 0; t < T; t++) {
		double s = 0;
		int seen[E] = {0};
		for (int j = 0; j < E; j++) {
			s += w[t * E + j];
			seen[ids[t * E + j]]++;
			if (j)
				CHECK(w[t * E + j] <= w[t * E + j - 1]);
		}
		CHECK(close_to(s, 1.0, 1e-5));
		for (int e = 0; e < E; e++)
			CHECK_EQ_INT(seen[e], 1);
	}
}

static void test_moe_sum_reduce_by_hand(void)
{
	enum { K = 8, D = 3 };
	uint16_t x[K * D], out[D];
	for (int j = 0; j < K; j++)
		for (int i = 0; i < D; i++)
			x[j * D + i] = bf((float)(j + 1) * (i + 1));
	ref_moe_sum_reduce(out, x, 1, K, D, 2.5f);
	CHECK(fl(out[0]) == 90.0f); /* 36 * 2.5 */
	CHECK(fl(out[1]) == 180.0f);
	CHECK(fl(out[2]) == 270.0f);
}

/* ---- attention-adjacent ------------------------------------------------ */

static void test_merge_equal_lse_averages(void)
{
	uint16_t va[2] = {bf(1), bf(-3)}, vb[2] = {bf(3), bf(1)}, out[2];
	float sa = 0.5f, sb = 0.5f, s = 0;
	ref_merge_attn_states(out, &s, va, &sa, vb, &sb, 1, 1, 2);
	CHECK(fl(out[0]) == 2.0f && fl(out[1]) == -1.0f);
	CHECK(close_to(s, 0.5 + log(2.0), 1e-6));
}

static void test_merge_empty_partial_passes_the_other(void)
{
	uint16_t va[2] = {bf(1), bf(-3)}, vb[2] = {bf(3), bf(7)}, out[2];
	float sa = -INFINITY, sb = 1.25f, s = 0;
	ref_merge_attn_states(out, &s, va, &sa, vb, &sb, 1, 1, 2);
	CHECK(fl(out[0]) == 3.0f && fl(out[1]) == 7.0f && s == 1.25f);
	sa = INFINITY; /* +inf counts as -inf */
	ref_merge_attn_states(out, &s, va, &sa, vb, &sb, 1, 1, 2);
	CHECK(fl(out[0]) == 3.0f && s == 1.25f);
}

static void test_rope_quarter_turn(void)
{
	/* dim 4: pairs (0, 2) and (1, 3); position 1: cos 0, sin 1 */
	const float cache[8] = {1, 1, 0, 0, 0, 0, 1, 1};
	const int64_t pos[1] = {1};
	uint16_t q[4] = {bf(1), bf(2), bf(3), bf(4)},
	         k[4] = {bf(5), bf(6), bf(7), bf(8)};
	ref_rotary_neox(q, k, pos, cache, 1, 1, 1, 4);
	/* (a, b) -> (a cos - b sin, b cos + a sin) = (-b, a) */
	CHECK(fl(q[0]) == -3.0f && fl(q[2]) == 1.0f);
	CHECK(fl(q[1]) == -4.0f && fl(q[3]) == 2.0f);
	CHECK(fl(k[0]) == -7.0f && fl(k[2]) == 5.0f);
}

static void test_rope_turn_and_back_is_identity(void)
{
	enum { D = 16, H = 3 };
	float fwd[D], back[D];
	for (int r = 0; r < D / 2; r++) {
		double a = 0.37 * (r + 1);
		fwd[r] = back[r] = (float)cos(a);
		fwd[D / 2 + r] = (float)sin(a);
		back[D / 2 + r] = (float)-sin(a);
	}
	const int64_t pos[1] = {0};
	uint16_t q[H * D], k[D], q0[H * D];
	for (int i = 0; i < H * D; i++)
		q[i] = q0[i] = bf(uniform(-2, 2));
	for (int i = 0; i < D; i++)
		k[i] = bf(1);
	ref_rotary_neox(q, k, pos, fwd, 1, H, 1, D);
	ref_rotary_neox(q, k, pos, back, 1, H, 1, D);
	for (int i = 0; i < H * D; i++)
		CHECK(close_to(fl(q[i]), fl(q0[i]), 0.03));
}

static void test_transpose_by_hand_and_twice(void)
{
	const uint16_t in[6] = {1, 2, 3, 4, 5, 6}; /* 2 x 3 */
	uint16_t t[6], tt[6];
	const uint16_t want[6] = {1, 4, 2, 5, 3, 6};
	ref_transpose(t, in, 2, 3);
	ref_transpose(tt, t, 3, 2);
	for (int i = 0; i < 6; i++) {
		CHECK_EQ_INT(t[i], want[i]);
		CHECK_EQ_INT(tt[i], in[i]);
	}
}

int main(void)
{
	RUN(test_bf16_rounds_to_nearest_even);
	RUN(test_fp8_codes_by_hand);
	RUN(test_fp8_every_code_round_trips);
	RUN(test_silu_and_mul_by_hand);
	RUN(test_gelu_and_mul_by_hand);
	RUN(test_rmsnorm_by_hand);
	RUN(test_rmsnorm_rows_come_out_unit_rms);
	RUN(test_fused_add_rmsnorm_is_add_then_rmsnorm);
	RUN(test_group_quant_by_hand);
	RUN(test_group_quant_dequantises_within_a_step);
	RUN(test_per_tensor_quant);
	RUN(test_moe_align_by_hand);
	RUN(test_moe_align_places_every_id_once);
	RUN(test_topk_softmax_by_hand);
	RUN(test_topk_softmax_of_all_experts_sums_to_one);
	RUN(test_moe_sum_reduce_by_hand);
	RUN(test_merge_equal_lse_averages);
	RUN(test_merge_empty_partial_passes_the_other);
	RUN(test_rope_quarter_turn);
	RUN(test_rope_turn_and_back_is_identity);
	RUN(test_transpose_by_hand_and_twice);
	return check_summary();
}
