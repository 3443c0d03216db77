/*
 * ref.c - CPU reference of moe_topk_softmax: softmax in double (max
 * subtracted), then k passes that each take the largest remaining
 * probability, the lowest expert on ties.
 */
#include <stdlib.h>

#include "../common/ref.h"

void ref_moe_topk_softmax(float *weights, int32_t *ids, const float *logits,
                          long tokens, long experts, long k)
{
	double *p = malloc((size_t)experts * sizeof(double));
	if (!p)
		return;
	for (long t = 0; t < tokens; t++) {
		const float *x = logits + t * experts;
		double m = x[0], s = 0;
		for (long e = 1; e < experts; e++)
			m = fmax(m, x[e]);
		for (long e = 0; e < experts; e++)
			s += p[e] = exp((double)x[e] - m);
		for (long e = 0; e < experts; e++)
			p[e] /= s;
		for (long j = 0; j < k; j++) {
			long best = 0;
			for (long e = 1; e < experts; e++)
				if (p[e] > p[best])
					best = e;
			weights[t * k + j] = (float)p[best];
			ids[t * k + j] = (int32_t)best;
			p[best] = -1;
		}
	}
	free(p);
}
