/*
 * ref.c - CPU reference of rotary_embedding (NeoX): per token and head,
 * element r < dim / 2 and element r + dim / 2 turn by cos / sin from the
 * cache row of the token's position, in double, rounded to bf16.
 */
#include "../common/ref.h"

static void rotate(uint16_t *x, const float *row, long dim)
{
	long half = dim / 2;
	for (long r = 0; r < half; r++) {
		double c = row[r], s = row[half + r];
		double a = ref_bf16_to_f32(x[r]),
		       b = ref_bf16_to_f32(x[half + r]);
		x[r] = ref_f32_to_bf16((float)(a * c - b * s));
		x[half + r] = ref_f32_to_bf16((float)(b * c + a * s));
	}
}

void ref_rotary_neox(uint16_t *q, uint16_t *k, const int64_t *pos,
                     const float *cache, long tokens, long qheads, long kheads,
                     long dim)
{
	for (long t = 0; t < tokens; t++) {
		const float *row = cache + pos[t] * dim;
		for (long h = 0; h < qheads; h++)
			rotate(q + (t * qheads + h) * dim, row, dim);
		for (long h = 0; h < kheads; h++)
			rotate(k + (t * kheads + h) * dim, row, dim);
	}
}
