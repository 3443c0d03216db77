/*
 * ref.c - CPU reference of rmsnorm: per row, r = 1 / sqrt(sum(x^2) / d +
 * eps) in double, out = x * r * w rounded to bf16.
 */
#include "../common/ref.h"

void ref_rmsnorm(uint16_t *out, const uint16_t *in, const uint16_t *w,
                 long tokens, long d, float eps)
{
	for (long t = 0; t < tokens; t++) {
		const uint16_t *x = in + t * d;
		double ss = 0;
		for (long i = 0; i < d; i++) {
			double v = ref_bf16_to_f32(x[i]);
			ss += v * v;
		}
		double r = 1.0 / sqrt(ss / (double)d + eps);
		for (long i = 0; i < d; i++)
			out[t * d + i] =
			    ref_f32_to_bf16((float)(ref_bf16_to_f32(x[i]) * r *
			                            ref_bf16_to_f32(w[i])));
	}
}
