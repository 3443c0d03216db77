/* test_verify.c - tolerances by type, NaN rules, match ratio, messages. */
#include "check.h"

#include <math.h>

#include "runtime/buffers.h"
#include "runtime/verify.h"

static void floats_within_tolerance_pass(void)
{
	float want[3] = {1.0f, -2.0f, 100.0f};
	float got[3] = {1.00001f, -2.0f, 100.005f};
	kt_tolerance tol = kt_verify_defaults(KT_TYPE_F32);
	kt_verify_report r;
	CHECK(kt_verify_compare(&r, got, want, KT_TYPE_F32, 3, &tol));
	got[2] = 101.0f;
	CHECK(!kt_verify_compare(&r, got, want, KT_TYPE_F32, 3, &tol));
	CHECK_EQ_INT(r.bad, 1);
	CHECK_EQ_INT(r.first_bad, 2);
}

static void nan_where_reference_has_none_fails_even_with_match(void)
{
	float want[4] = {1, 2, 3, 4}, got[4] = {1, 2, 3, NAN};
	kt_tolerance tol = {1e-3, 0, 0.5}; /* half may differ... */
	kt_verify_report r;
	CHECK(!kt_verify_compare(&r, got, want, KT_TYPE_F32, 4, &tol));
	CHECK_EQ_INT(r.new_nans, 1);
	got[3] = 40; /* ...but a plain wrong value within the ratio passes */
	CHECK(kt_verify_compare(&r, got, want, KT_TYPE_F32, 4, &tol));
	float nanref[2] = {NAN, 1}, nangot[2] = {NAN, 1};
	CHECK(kt_verify_compare(&r, nangot, nanref, KT_TYPE_F32, 2, &tol));
}

static void poisoned_output_fails(void)
{
	uint16_t want[2], got[2];
	kt_buf_set(want, KT_TYPE_BF16, 0, 0.5);
	kt_buf_set(want, KT_TYPE_BF16, 1, 0.25);
	got[0] = want[0];
	memset(&got[1], kt_buf_poison_byte(0), 2);
	kt_tolerance tol = kt_verify_defaults(KT_TYPE_BF16);
	kt_verify_report r;
	CHECK(!kt_verify_compare(&r, got, want, KT_TYPE_BF16, 2, &tol));
	memset(&got[1], kt_buf_poison_byte(1), 2);
	CHECK(!kt_verify_compare(&r, got, want, KT_TYPE_BF16, 2, &tol));
}

static void infinities_must_match(void)
{
	double want[1] = {INFINITY}, got[1] = {-INFINITY};
	kt_tolerance tol = kt_verify_defaults(KT_TYPE_F64);
	kt_verify_report r;
	CHECK(!kt_verify_compare(&r, got, want, KT_TYPE_F64, 1, &tol));
	got[0] = INFINITY;
	CHECK(kt_verify_compare(&r, got, want, KT_TYPE_F64, 1, &tol));
}

static void integers_compare_exactly(void)
{
	int32_t want[3] = {1, 2, 3}, got[3] = {1, 2, 4};
	kt_verify v = {.rtol = 0.5, .atol = 10, .match = 0.5};
	kt_tolerance tol = kt_verify_tolerance(&v, KT_TYPE_I32);
	CHECK(tol.rtol == 0 && tol.atol == 0);
	kt_verify_report r;
	CHECK(!kt_verify_compare(&r, got, want, KT_TYPE_I32, 3, &tol));
	uint64_t w64 = UINT64_MAX, g64 = UINT64_MAX - 1;
	CHECK(!kt_verify_compare(&r, &g64, &w64, KT_TYPE_U64, 1, &tol));
}

static void verify_clauses_override_defaults(void)
{
	kt_verify v = {.rtol = 0.1, .atol = -1, .match = 0.9};
	kt_tolerance tol = kt_verify_tolerance(&v, KT_TYPE_F32);
	CHECK(tol.rtol == 0.1);
	CHECK(tol.atol == kt_verify_defaults(KT_TYPE_F32).atol);
	CHECK(tol.match == 0.9);
	tol = kt_verify_tolerance(NULL, KT_TYPE_F16);
	CHECK(tol.rtol == 1e-2);
}

static void description_names_the_output(void)
{
	float want[2] = {0.5f, 0.25f}, got[2] = {0.5f, NAN};
	kt_tolerance tol = kt_verify_defaults(KT_TYPE_F32);
	kt_verify_report r;
	kt_verify_compare(&r, got, want, KT_TYPE_F32, 2, &tol);
	kt_str s = KT_STR_INIT;
	CHECK_EQ_INT(kt_verify_describe(&s, "y", &r, &tol), 0);
	CHECK(strstr(s.ptr, "output 'y': 1 of 2 elements differ (first at 1: "
	                    "got nan, expected 0.25)") != NULL);
	CHECK(strstr(s.ptr, "1 NaN where the reference has none") != NULL);
	kt_str_release(&s);
}

static void pieces_merge_to_the_whole(void)
{
	enum { N = 1000 };
	static float want[N], got[N];
	for (int i = 0; i < N; i++)
		want[i] = got[i] = (float)i;
	got[700] = 5.0f;
	got[300] = NAN;
	kt_tolerance tol = {1e-4, 1e-5, 0.5};
	kt_verify_report whole, merged = {0}, part;
	kt_verify_compare(&whole, got, want, KT_TYPE_F32, N, &tol);
	for (size_t lo = 0; lo < N; lo += 256) {
		size_t n = N - lo < 256 ? N - lo : 256;
		kt_verify_compare(&part, got + lo, want + lo, KT_TYPE_F32, n,
		                  &tol);
		kt_verify_merge(&merged, &part, lo);
	}
	kt_verify_decide(&merged, KT_TYPE_F32, &tol);
	CHECK_EQ_INT(merged.n, whole.n);
	CHECK_EQ_INT(merged.bad, 2);
	CHECK_EQ_INT(merged.first_bad, 300);
	CHECK_EQ_INT(merged.new_nans, 1);
	CHECK(!merged.pass && !whole.pass);
	CHECK(merged.max_abs == whole.max_abs);
}

int main(void)
{
	RUN(floats_within_tolerance_pass);
	RUN(nan_where_reference_has_none_fails_even_with_match);
	RUN(poisoned_output_fails);
	RUN(infinities_must_match);
	RUN(integers_compare_exactly);
	RUN(verify_clauses_override_defaults);
	RUN(description_names_the_output);
	RUN(pieces_merge_to_the_whole);
	return check_summary();
}
