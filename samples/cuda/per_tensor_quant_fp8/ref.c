/*
 * ref.c - CPU reference of per_tensor_quant_fp8: the scale is the largest
 * |x| over 448; each x * (1 / scale), clamped to +-448, becomes an fp8 e4m3
 * code by round to nearest even.
 */
#include "../common/ref.h"

void ref_per_tensor_absmax(float *scale, const uint16_t *in, long n)
{
	float m = 0.f;
	for (long i = 0; i < n; i++)
		m = fmaxf(m, fabsf(ref_bf16_to_f32(in[i])));
	*scale = m / REF_FP8_MAX;
}

void ref_per_tensor_quant_fp8(uint8_t *q, const uint16_t *in, float scale,
                              long n)
{
	float inv = 1.0f / scale;
	for (long i = 0; i < n; i++) {
		float y = ref_bf16_to_f32(in[i]) * inv;
		q[i] =
		    ref_f32_to_fp8(fminf(fmaxf(y, -REF_FP8_MAX), REF_FP8_MAX));
	}
}
