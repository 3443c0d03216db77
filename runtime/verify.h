/*
 * runtime/verify.h - comparing a configuration's output with the
 * reference's, shared by every backend.
 *
 * Floats pass when |got - want| <= atol + rtol * |want| for at least a
 * `match` fraction of the elements; a NaN where the reference has none fails
 * whatever the fraction; an infinity must be the same infinity. Integers
 * compare exactly. Defaults by type (kt_verify_defaults) may be overridden
 * per template with `#pragma kt verify rtol(X) atol(X) match(F)`.
 */
#ifndef KTC_RUNTIME_VERIFY_H
#define KTC_RUNTIME_VERIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "ktc/model.h"
#include "util/str.h"

typedef struct kt_tolerance {
	double rtol, atol, match;
} kt_tolerance;

/* The tolerance for type t before any `verify` clause. */
kt_tolerance kt_verify_defaults(kt_type t);
/* The tolerance for t with v's clauses (those >= 0) applied; v may be NULL. */
kt_tolerance kt_verify_tolerance(const kt_verify *v, kt_type t);

/* What one comparison found. */
typedef struct kt_verify_report {
	size_t n;   /* elements compared */
	size_t bad; /* outside the tolerance (NaN where not expected too) */
	size_t new_nans;  /* NaN in the output, none in the reference */
	size_t first_bad; /* index of the first bad element (if bad > 0) */
	double got, want; /* its values */
	double max_abs, max_rel; /* largest errors among comparable elements */
	bool pass;
} kt_verify_report;

/* Compares n elements of type t; returns report->pass. */
bool kt_verify_compare(kt_verify_report *report, const void *got,
                       const void *want, kt_type t, size_t n,
                       const kt_tolerance *tol);

/*
 * For comparisons split into pieces (on several threads): adds the report
 * of the piece starting at element offset to into (zeroed first), then
 * kt_verify_decide sets into->pass as kt_verify_compare would have.
 */
void kt_verify_merge(kt_verify_report *into, const kt_verify_report *part,
                     size_t offset);
bool kt_verify_decide(kt_verify_report *r, kt_type t, const kt_tolerance *tol);

/*
 * Appends one line on a failed comparison of the buffer called name:
 * "output 'y': 1 of 4096 elements differ (first at 4095: got nan, expected
 * 0.53), 1 NaN where the reference has none".
 */
int kt_verify_describe(kt_str *s, const char *name, const kt_verify_report *r,
                       const kt_tolerance *tol);

#endif
