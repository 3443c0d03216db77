/*
 * ref.c - CPU reference of per_token_group_quant_fp8: per group, the
 * largest |x| (at least 1e-10) over 448 is the scale; each x / scale,
 * clamped to +-448, becomes an fp8 e4m3 code by round to nearest even.
 */
#include "../common/ref.h"

void ref_per_token_group_quant_fp8(uint8_t *q, float *scales,
                                   const uint16_t *in, long tokens, long d,
                                   long group)
{
	long groups = tokens * d / group;
	for (long g = 0; g < groups; g++) {
		const uint16_t *x = in + g * group;
		float amax = 1e-10f;
		for (long i = 0; i < group; i++)
			amax = fmaxf(amax, fabsf(ref_bf16_to_f32(x[i])));
		float scale = amax / REF_FP8_MAX;
		scales[g] = scale;
		for (long i = 0; i < group; i++) {
			float y = ref_bf16_to_f32(x[i]) / scale;
			y = fminf(fmaxf(y, -REF_FP8_MAX), REF_FP8_MAX);
			q[g * group + i] = ref_f32_to_fp8(y);
		}
	}
}
