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

static void compare_floats(kt_verify_report *r, const void *got,
			   const void *want, kt_type t, size_t n,
			   const kt_tolerance *tol)
{
	for (size_t i = 0; i < n; i++) {
		double g = kt_buf_get(got, t, i), w = kt_buf_get(want, t, i);
		if (isnan(w)) {
			if (!isnan(g))
				note_bad(r, i, g, w);
			continue;
		}
		if (isnan(g)) {
			r->new_nans++;
			note_bad(r, i, g, w);
			continue;
		}
		if (isinf(w) || isinf(g)) {
			if (g != w)
				note_bad(r, i, g, w);
			continue;
		}
		double err = fabs(g - w);
		double rel = w != 0 ? err / fabs(w) : (err > 0 ? INFINITY : 0);
		r->max_abs = fmax(r->max_abs, err);
		r->max_rel = fmax(r->max_rel, rel);
		if (err > tol->atol + tol->rtol * fabs(w))
			note_bad(r, i, g, w);
	}
}

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

bool kt_verify_compare(kt_verify_report *r, const void *got, const void *want,
		       kt_type t, size_t n, const kt_tolerance *tol)
{
	*r = (kt_verify_report){.n = n};
	if (kt_type_is_float(t)) {
		compare_floats(r, got, want, t, n, tol);
		double allowed = n ? (1.0 - tol->match) * (double)n : 0;
		r->pass = r->new_nans == 0 && (double)r->bad <= allowed + 1e-9;
	} else {
		/* integers are exact: every element, whatever `match` says */
		compare_ints(r, got, want, t, n);
		r->pass = r->bad == 0;
	}
	return r->pass;
}

int kt_verify_describe(kt_str *s, const char *name, const kt_verify_report *r,
		       const kt_tolerance *tol)
{
	int rc = kt_str_addf(s,
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
