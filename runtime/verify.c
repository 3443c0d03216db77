/*
 * runtime/verify.c - element-wise comparison of outputs with tolerances by
 * type.
 *
 * The default tolerances allow for the reordering a different tiling or
 * reduction order brings (a few units in the last place of each type), not
 * for a different algorithm: fp32 1e-4 relative, half types about one unit
 * in their last place, fp8 one unit.
 */
#include "runtime/verify.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "runtime/buffers.h"

kt_tolerance kt_verify_defaults(kt_type t)
{
	switch (t) {
	case KT_TYPE_F64: return (kt_tolerance){1e-10, 1e-12, 1.0};
	case KT_TYPE_F32: return (kt_tolerance){1e-4, 1e-5, 1.0};
	case KT_TYPE_F16: return (kt_tolerance){1e-2, 1e-3, 1.0};
	case KT_TYPE_BF16: return (kt_tolerance){2e-2, 1e-2, 1.0};
	case KT_TYPE_FP8_E4M3: return (kt_tolerance){0.125, 1.0 / 64, 1.0};
	case KT_TYPE_FP8_E5M2: return (kt_tolerance){0.25, 1.0 / 1024, 1.0};
	default: return (kt_tolerance){0, 0, 1.0};
	}
}

kt_tolerance kt_verify_tolerance(const kt_verify *v, kt_type t)
{
	kt_tolerance tol = kt_verify_defaults(t);
	if (!v)
		return tol;
	if (kt_type_is_float(t)) {
		if (v->rtol >= 0)
			tol.rtol = v->rtol;
		if (v->atol >= 0)
			tol.atol = v->atol;
	}
	if (v->match >= 0)
		tol.match = v->match;
	return tol;
}

static void note_bad(kt_verify_report *r, size_t i, double got, double want)
{
	if (r->bad++ == 0) {
		r->first_bad = i;
		r->got = got;
		r->want = want;
	}
}

/* Loaders inlined into the comparison loop: outputs of tens of millions
 * of elements are compared after every check, so no call per element for
 * the common types. */
static inline double load_f32(const void *p, size_t i)
{
	return ((const float *)p)[i];
}

static inline double load_f64(const void *p, size_t i)
{
	return ((const double *)p)[i];
}

static inline double load_bf16(const void *p, size_t i)
{
	uint32_t x = (uint32_t)((const uint16_t *)p)[i] << 16;
	float f;
	memcpy(&f, &x, 4);
	return f;
}

static inline void compare_one(kt_verify_report *r, size_t i, double g,
                               double w, const kt_tolerance *tol)
{
	if (isnan(w) || isnan(g) || isinf(w) || isinf(g)) {
		if (isnan(w) ? !isnan(g) : isnan(g) ? true : g != w) {
			r->new_nans += isnan(g) && !isnan(w);
			note_bad(r, i, g, w);
		}
		return;
	}
	double err = fabs(g - w);
	double rel = w != 0 ? err / fabs(w) : (err > 0 ? INFINITY : 0);
	if (err > r->max_abs)
		r->max_abs = err;
	if (rel > r->max_rel)
		r->max_rel = rel;
	if (err > tol->atol + tol->rtol * fabs(w))
		note_bad(r, i, g, w);
}

#define COMPARE_LOOP(LOAD)                                                     \
	for (size_t i = 0; i < n; i++)                                         \
	compare_one(r, i, LOAD(got, i), LOAD(want, i), tol)

static void compare_floats(kt_verify_report *r, const void *got,
                           const void *want, kt_type t, size_t n,
                           const kt_tolerance *tol)
{
	switch (t) {
	case KT_TYPE_F32: COMPARE_LOOP(load_f32); break;
	case KT_TYPE_F64: COMPARE_LOOP(load_f64); break;
	case KT_TYPE_BF16: COMPARE_LOOP(load_bf16); break;
	default:
		for (size_t i = 0; i < n; i++)
			compare_one(r, i, kt_buf_get(got, t, i),
			            kt_buf_get(want, t, i), tol);
		break;
	}
}

#undef COMPARE_LOOP

static void compare_ints(kt_verify_report *r, const void *got, const void *want,
                         kt_type t, size_t n)
{
	bool sig = kt_type_is_signed(t);
	for (size_t i = 0; i < n; i++) {
		uint64_t g = kt_buf_get_u64(got, t, i);
		uint64_t w = kt_buf_get_u64(want, t, i);
		if (g == w)
			continue;
		double gd = sig ? (double)(int64_t)g : (double)g;
		double wd = sig ? (double)(int64_t)w : (double)w;
		r->max_abs = fmax(r->max_abs, fabs(gd - wd));
		note_bad(r, i, gd, wd);
	}
}

bool kt_verify_decide(kt_verify_report *r, kt_type t, const kt_tolerance *tol)
{
	if (kt_type_is_float(t)) {
		double allowed = r->n ? (1.0 - tol->match) * (double)r->n : 0;
		r->pass = r->new_nans == 0 && (double)r->bad <= allowed + 1e-9;
	} else {
		/* integers are exact: every element, whatever `match` says */
		r->pass = r->bad == 0;
	}
	return r->pass;
}

bool kt_verify_compare(kt_verify_report *r, const void *got, const void *want,
                       kt_type t, size_t n, const kt_tolerance *tol)
{
	*r = (kt_verify_report){.n = n};
	if (kt_type_is_float(t))
		compare_floats(r, got, want, t, n, tol);
	else
		compare_ints(r, got, want, t, n);
	return kt_verify_decide(r, t, tol);
}

void kt_verify_merge(kt_verify_report *into, const kt_verify_report *part,
                     size_t offset)
{
	if (part->bad &&
	    (!into->bad || offset + part->first_bad < into->first_bad)) {
		into->first_bad = offset + part->first_bad;
		into->got = part->got;
		into->want = part->want;
	}
	into->n += part->n;
	into->bad += part->bad;
	into->new_nans += part->new_nans;
	into->max_abs = fmax(into->max_abs, part->max_abs);
	into->max_rel = fmax(into->max_rel, part->max_rel);
}

int kt_verify_describe(kt_str *s, const char *name, const kt_verify_report *r,
                       const kt_tolerance *tol)
{
	int rc =
	    kt_str_addf(s,
	                "output '%s': %zu of %zu elements differ (first at "
	                "%zu: got %.9g, expected %.9g)",
	                name, r->bad, r->n, r->first_bad, r->got, r->want);
	if (!rc && r->new_nans)
		rc = kt_str_addf(s, ", %zu NaN where the reference has none",
		                 r->new_nans);
	if (!rc && tol && (tol->rtol > 0 || tol->atol > 0))
		rc = kt_str_addf(s, "; rtol %g, atol %g, match %g", tol->rtol,
		                 tol->atol, tol->match);
	return rc;
}
