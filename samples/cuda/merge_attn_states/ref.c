/*
 * ref.c - CPU reference of merge_attn_states: per token and head, with m the
 * larger lse, weights e^(a - m) and e^(b - m) normalised to sum 1 (in
 * double), the weighted sum of the two vectors rounded to bf16, and
 * log(e^(a - m) + e^(b - m)) + m.
 */
#include "../common/ref.h"

void ref_merge_attn_states(uint16_t *v_out, float *s_out, const uint16_t *va,
                           const float *sa, const uint16_t *vb, const float *sb,
                           long tokens, long heads, long dim)
{
	for (long th = 0; th < tokens * heads; th++) {
		double a = isinf(sa[th]) ? -INFINITY : sa[th];
		double b = isinf(sb[th]) ? -INFINITY : sb[th];
		double m = fmax(a, b), ea = exp(a - m), eb = exp(b - m);
		double wa = ea / (ea + eb), wb = eb / (ea + eb);
		for (long i = 0; i < dim; i++) {
			double x = ref_bf16_to_f32(va[th * dim + i]);
			double y = ref_bf16_to_f32(vb[th * dim + i]);
			v_out[th * dim + i] =
			    ref_f32_to_bf16((float)(x * wa + y * wb));
		}
		s_out[th] = (float)(log(ea + eb) + m);
	}
}
