/*
 * rng.h - a small seeded generator (xoshiro256**, seeded by splitmix64), so
 * that every search and every input buffer is reproducible from one seed and
 * identical on every platform.
 */
#ifndef KTC_UTIL_RNG_H
#define KTC_UTIL_RNG_H

#include <stdint.h>

typedef struct kt_rng {
	uint64_t s[4];
} kt_rng;

void kt_rng_seed(kt_rng *r, uint64_t seed);
uint64_t kt_rng_next(kt_rng *r);
/* Uniform in [0, n) without modulo bias; n > 0. */
uint64_t kt_rng_below(kt_rng *r, uint64_t n);
/* Uniform in [0, 1). */
double kt_rng_double(kt_rng *r);
/* Standard normal (Box-Muller). */
double kt_rng_normal(kt_rng *r);

#endif
