/*
 * divcheck.c - checks, for every input it can see, that DIV=1 of
 * per_token_group_quant_fp8.kt.cu quantises exactly as the original's
 * x / scale: q0 = x * r, q = copysign(fma(fma(-q0, s', x), r, q0), x), with
 * r = 1 / scale (correctly rounded, once per group) and s' = min(scale,
 * FLT_MAX). Every bf16 amax (and the 1e-10 floor, and infinity) and every
 * bf16 x with |x| <= amax (about 1.2e9 pairs): the fp8 e4m3 codes must be
 * equal (clamped to +-448, rounded by ref.h's reference conversion), and so
 * must the float quotients wherever |x / scale| >= 2^-20 (below that both
 * codes are 0; the corrected product can differ in the last bit there,
 * its remainder underflowing).
 *
 *   cc -O2 -mfma -o divcheck samples/cuda/per_token_group_quant_fp8/divcheck.c
 * -lm
 *   ./divcheck      # about 10 s; exit status 0 when nothing differs
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../common/ref.h"

static uint32_t bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof(u));
	return u;
}

static uint8_t code(float q)
{
	return ref_f32_to_fp8(fminf(fmaxf(q, -448.f), 448.f));
}

/* the pairs of one amax; returns the number that differ */
static long check_amax(float amax, long *pairs)
{
	volatile float vs = amax / 448.f, vr = 1.0f / vs;
	const float s = vs, r = vr, sfin = fminf(s, FLT_MAX);
	long bad = 0;
	for (uint32_t h = 0; h < 0x10000; h++) {
		const float x = ref_bf16_to_f32((uint16_t)h);
		if (!(fabsf(x) <= amax))
			continue;
		const float q0 = x * r;
		const float q = copysignf(fmaf(fmaf(-q0, sfin, x), r, q0), x);
		const float want = x / s;
		(*pairs)++;
		if (bits(q) == bits(want))
			continue;
		if ((fabsf(want) >= 0x1p-20f || code(q) != code(want)) &&
		    bad++ < 5)
			printf("amax %a, x %a: %a, x / scale %a\n", amax, x, q,
			       want);
	}
	return bad;
}

int main(void)
{
	long pairs = 0, bad = 0;
	for (uint32_t a = 0; a < 0x7f80; a++)
		bad += check_amax(fmaxf(ref_bf16_to_f32((uint16_t)a), 1e-10f),
		                  &pairs);
	bad += check_amax(1e-10f, &pairs);
	bad += check_amax(INFINITY, &pairs);
	printf("divcheck: %ld pairs, %ld differ\n", pairs, bad);
	return bad != 0;
}
