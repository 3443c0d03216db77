/* test_fastdiv.c - the fast_div helper (rewriter/fastdiv.h), the text the
 * rewriter emits, compiled for the host with CUDA's __umulhi and __clz
 * written in C: its quotients and remainders are C's `/` and `%` for
 * every divisor up to 70000 at the dividends where an error would show,
 * and for millions of random pairs, divisors near 2^31 and 2^32 and
 * powers of two among them; the int forms fall back to C's operator for
 * negative dividends and divisors below 1. */
#include "check.h"

#include <limits.h>
#include <stdint.h>

#define __device__
#define __forceinline__ static inline
static unsigned __umulhi(unsigned a, unsigned b)
{
	return (unsigned)(((uint64_t)a * b) >> 32);
}
static int __clz(int x)
{
	return x ? __builtin_clz((unsigned)x) : 32;
}
#include "fastdiv_helper.inc"

static long failures;

static void unsigned_at(unsigned n, unsigned d, kt_fastdiv f)
{
	if (kt_fastdiv_udiv(n, f) != n / d || kt_fastdiv_umod(n, f) != n % d) {
		if (failures++ < 10)
			fprintf(stderr, "unsigned %u / %u: %u r %u\n", n, d,
			        kt_fastdiv_udiv(n, f), kt_fastdiv_umod(n, f));
	}
}

/* n / d in both forms (d as an int where it is one, n where it fits). */
static void at(uint32_t n, uint32_t d)
{
	kt_fastdiv f = kt_fastdiv_new(d);
	unsigned_at(n, d, f);
	if (d > INT_MAX || n > INT_MAX)
		return;
	int sn = (int)n, sd = (int)d;
	if (kt_fastdiv_div(sn, f) != sn / sd ||
	    kt_fastdiv_mod(sn, f) != sn % sd) {
		if (failures++ < 10)
			fprintf(stderr, "int %d / %d: %d r %d\n", sn, sd,
			        kt_fastdiv_div(sn, f), kt_fastdiv_mod(sn, f));
	}
}

static void edges(uint32_t d)
{
	uint32_t n[] = {0,           1,          d - 1,         d,
	                d + 1,       2 * d - 1,  2 * d,         INT_MAX,
	                INT_MAX - 1, UINT32_MAX, UINT32_MAX - 1};
	for (size_t i = 0; i < sizeof(n) / sizeof(n[0]); i++)
		at(n[i], d);
}

static void every_small_divisor(void)
{
	failures = 0;
	for (uint32_t d = 1; d <= 70000; d++)
		edges(d);
	CHECK_EQ_INT(failures, 0);
}

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint32_t next(void)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

static void random_pairs(void)
{
	failures = 0;
	for (long i = 0; i < 4000000; i++) {
		uint32_t d = next(), n = next();
		switch (i % 4) {
		case 0: d >>= next() % 32; break;               /* any size */
		case 1: d = 0x80000000u - next() % 4096; break; /* 2^31 */
		case 2: d = 1u << next() % 32; break; /* powers of two */
		default: d = UINT32_MAX - next() % 4096; break; /* 2^32 */
		}
		if (!d)
			d = 1;
		at(n, d);
		if (i % 64 == 0)
			edges(d);
	}
	CHECK_EQ_INT(failures, 0);
}

/* The int forms: C's operator wherever the multiply is not exact. */
static void int_fallback(void)
{
	static const int ds[] = {1,   2,     3,       7,           10,
	                         641, 65537, INT_MAX, -1,          -2,
	                         -3,  -7,    -65537,  INT_MIN + 1, INT_MIN};
	static const int ns[] = {0,  1,  -1,  5,       -5,       7,
	                         -7, 99, -99, INT_MAX, -INT_MAX, INT_MIN};
	failures = 0;
	for (size_t i = 0; i < sizeof(ds) / sizeof(ds[0]); i++)
		for (size_t j = 0; j < sizeof(ns) / sizeof(ns[0]); j++) {
			int d = ds[i], n = ns[j];
			if (n == INT_MIN && d == -1)
				continue; /* C leaves it undefined */
			kt_fastdiv f = kt_fastdiv_new((unsigned)d);
			if (kt_fastdiv_div(n, f) != n / d ||
			    kt_fastdiv_mod(n, f) != n % d)
				if (failures++ < 10)
					fprintf(stderr, "int %d / %d\n", n, d);
		}
	for (long i = 0; i < 1000000; i++) {
		int n = (int)next(), d = (int)next() >> (next() % 31);
		if (!d || (n == INT_MIN && d == -1))
			continue;
		kt_fastdiv f = kt_fastdiv_new((unsigned)d);
		if (kt_fastdiv_div(n, f) != n / d ||
		    kt_fastdiv_mod(n, f) != n % d)
			if (failures++ < 10)
				fprintf(stderr, "int %d / %d\n", n, d);
	}
	CHECK_EQ_INT(failures, 0);
}

int main(void)
{
	RUN(every_small_divisor);
	RUN(random_pairs);
	RUN(int_fallback);
	return check_summary();
}
