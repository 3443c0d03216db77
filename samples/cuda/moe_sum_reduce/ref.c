/*
 * ref.c - CPU reference of moe_sum_reduce: per token and column, the sum of
 * the k experts' values in expert order, in float, times scale, rounded to
 * bf16.
 */
#include "../common/ref.h"

void ref_moe_sum_reduce(uint16_t *out, const uint16_t *x, long tokens, long k,
                        long d, float scale)
{
	for (long t = 0; t < tokens; t++)
		for (long i = 0; i < d; i++) {
			float acc = 0.f;
			for (long j = 0; j < k; j++)
				acc += ref_bf16_to_f32(x[(t * k + j) * d + i]);
			out[t * d + i] = ref_f32_to_bf16(acc * scale);
		}
}
