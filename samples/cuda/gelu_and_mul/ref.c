/*
 * ref.c - CPU reference of gelu_and_mul: gelu(x) = x / 2 * (1 + erf(x /
 * sqrt 2)) of the first half of each row times the second half, rounded to
 * bf16.
 */
#include "../common/ref.h"

void ref_gelu_and_mul(uint16_t *out, const uint16_t *in, long tokens, long d)
{
	for (long t = 0; t < tokens; t++)
		for (long i = 0; i < d; i++) {
			double x = ref_bf16_to_f32(in[t * 2 * d + i]);
			double y = ref_bf16_to_f32(in[t * 2 * d + d + i]);
			double g = 0.5 * x * (1.0 + erf(x / sqrt(2.0)));
			out[t * d + i] = ref_f32_to_bf16((float)(g * y));
		}
}
