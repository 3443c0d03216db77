/*
 * ref.c - CPU reference of fused_add_rmsnorm: x = in + residual in float;
 * the residual becomes x rounded to bf16; r = 1 / sqrt(sum(x^2) / d + eps)
 * (in double); in becomes x * r * w rounded to bf16, from the unrounded x.
 */
#include <stdlib.h>

#include "../common/ref.h"

void ref_fused_add_rmsnorm(uint16_t *in, uint16_t *residual, const uint16_t *w,
                           long tokens, long d, float eps)
{
	float *x = malloc((size_t)d * sizeof(float));
	if (!x)
		return;
	for (long t = 0; t < tokens; t++) {
		uint16_t *a = in + t * d, *b = residual + t * d;
		double ss = 0;
		for (long i = 0; i < d; i++) {
			x[i] = ref_bf16_to_f32(a[i]) + ref_bf16_to_f32(b[i]);
			ss += (double)x[i] * x[i];
			b[i] = ref_f32_to_bf16(x[i]);
		}
		double r = 1.0 / sqrt(ss / (double)d + eps);
		for (long i = 0; i < d; i++)
			a[i] = ref_f32_to_bf16(
			    (float)(x[i] * r * ref_bf16_to_f32(w[i])));
	}
	free(x);
}
