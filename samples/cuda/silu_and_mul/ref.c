/*
 * ref.c - CPU reference of silu_and_mul: silu(x) = x / (1 + e^-x) of the
 * first half of each row times the second half, in float, rounded to bf16.
 */
#include "../common/ref.h"

void ref_silu_and_mul(uint16_t *out, const uint16_t *in, long tokens, long d)
{
	for (long t = 0; t < tokens; t++)
		for (long i = 0; i < d; i++) {
			float x = ref_bf16_to_f32(in[t * 2 * d + i]);
			float y = ref_bf16_to_f32(in[t * 2 * d + d + i]);
			out[t * d + i] =
			    ref_f32_to_bf16(x / (1.0f + expf(-x)) * y);
		}
}
