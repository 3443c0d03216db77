/* test_buffers.c - narrow-float conversions, element access, seeded fills. */
#include "check.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "runtime/buffers.h"

static void f16_round_trips_and_rounds_to_even(void)
{
	CHECK_EQ_INT(kt_f32_to_f16(1.0f), 0x3c00);
	CHECK_EQ_INT(kt_f32_to_f16(-2.0f), 0xc000);
	CHECK_EQ_INT(kt_f32_to_f16(65504.0f), 0x7bff);
	CHECK_EQ_INT(kt_f32_to_f16(1e6f), 0x7c00);     /* overflow: infinity */
	CHECK_EQ_INT(kt_f32_to_f16(0x1p-24f), 0x0001); /* smallest subnormal */
	CHECK_EQ_INT(kt_f32_to_f16(0x1p-25f), 0x0000); /* tie: to even, zero */
	/* 1 + 2^-11 is halfway between 1 and 1 + 2^-10: even is 1 */
	CHECK_EQ_INT(kt_f32_to_f16(1.0f + 0x1p-11f), 0x3c00);
	CHECK_EQ_INT(kt_f32_to_f16(1.0f + 3 * 0x1p-11f), 0x3c02);
	CHECK(isnan(kt_f16_to_f32(kt_f32_to_f16(NAN))));
	for (uint32_t h = 0; h < 0x7c00; h++)
		CHECK_EQ_INT(kt_f32_to_f16(kt_f16_to_f32((uint16_t)h)), h);
}

static void bf16_round_trips_and_rounds_to_even(void)
{
	CHECK_EQ_INT(kt_f32_to_bf16(1.0f), 0x3f80);
	CHECK_EQ_INT(kt_f32_to_bf16(1.0f + 0x1p-8f), 0x3f80); /* tie to even */
	CHECK_EQ_INT(kt_f32_to_bf16(1.0f + 3 * 0x1p-8f), 0x3f82);
	CHECK(kt_bf16_to_f32(0x4049) > 3.14f && kt_bf16_to_f32(0x4049) < 3.15f);
	CHECK(isnan(kt_bf16_to_f32(kt_f32_to_bf16(NAN))));
	for (uint32_t b = 0; b < 0x7f80; b += 7)
		CHECK_EQ_INT(kt_f32_to_bf16(kt_bf16_to_f32((uint16_t)b)), b);
}

static void fp8_formats_match_their_tables(void)
{
	CHECK(kt_e4m3_to_f32(0x7e) == 448.0f); /* largest e4m3 */
	CHECK(isnan(kt_e4m3_to_f32(0x7f)));
	CHECK(kt_e4m3_to_f32(0x01) == 0x1p-9f); /* smallest subnormal */
	CHECK(kt_e4m3_to_f32(0x38) == 1.0f);
	CHECK_EQ_INT(kt_f32_to_e4m3(1000.0f), 0x7e); /* saturates */
	CHECK_EQ_INT(kt_f32_to_e4m3(-1.0f), 0xb8);
	CHECK(kt_e5m2_to_f32(0x7b) == 57344.0f); /* largest e5m2 */
	CHECK(isinf(kt_e5m2_to_f32(0x7c)));
	CHECK(isnan(kt_e5m2_to_f32(0x7d)));
	CHECK(kt_e5m2_to_f32(0x3c) == 1.0f);
	CHECK_EQ_INT(kt_f32_to_e5m2(1e6f), 0x7c); /* overflow: infinity */
	/* 1.0625 is halfway between 1 and 1.125 in e4m3: even is 1 */
	CHECK_EQ_INT(kt_f32_to_e4m3(1.0625f), 0x38);
	for (int b = 0; b < 256; b++) {
		float f = kt_e4m3_to_f32((uint8_t)b);
		if (!isnan(f) && b != 0x80)
			CHECK_EQ_INT(kt_f32_to_e4m3(f), b);
		f = kt_e5m2_to_f32((uint8_t)b);
		if (!isnan(f) && b != 0x80)
			CHECK_EQ_INT(kt_f32_to_e5m2(f), b);
	}
}

static void integers_are_exact_and_clamped(void)
{
	int64_t i64[1];
	kt_buf_set(i64, KT_TYPE_I64, 0, -5.0);
	CHECK_EQ_INT(kt_buf_get_i64(i64, KT_TYPE_I64, 0), -5);
	uint8_t u8[2];
	kt_buf_set(u8, KT_TYPE_U8, 0, 300.0);
	kt_buf_set(u8, KT_TYPE_U8, 1, -3.0);
	CHECK_EQ_INT(u8[0], 255);
	CHECK_EQ_INT(u8[1], 0);
	int8_t i8 = -7;
	CHECK_EQ_INT(kt_buf_get_i64(&i8, KT_TYPE_I8, 0), -7);
	CHECK(kt_buf_get(&i8, KT_TYPE_I8, 0) == -7.0);
	uint64_t big = UINT64_MAX;
	CHECK(kt_buf_get_u64(&big, KT_TYPE_U64, 0) == UINT64_MAX);
}

static void scalars_encode_by_type(void)
{
	unsigned char b[8];
	CHECK_EQ_INT(kt_buf_scalar(b, KT_TYPE_I32, kt_int(-3)), 4);
	int32_t i;
	memcpy(&i, b, 4);
	CHECK_EQ_INT(i, -3);
	CHECK_EQ_INT(kt_buf_scalar(b, KT_TYPE_F32, kt_float(0.5)), 4);
	float f;
	memcpy(&f, b, 4);
	CHECK(f == 0.5f);
	CHECK_EQ_INT(kt_buf_scalar(b, KT_TYPE_F16, kt_int(2)), 2);
	CHECK_EQ_INT(b[0] | b[1] << 8, 0x4000);
	CHECK_EQ_INT(kt_buf_scalar(b, KT_TYPE_I64, kt_int(INT64_MIN)), 8);
	int64_t l;
	memcpy(&l, b, 8);
	CHECK(l == INT64_MIN);
}

static void scalars_must_fit_their_integer_type(void)
{
	kt_arg a = {.name = "n", .loc = {"t.cu", 3, 5}};
	struct {
		kt_type t;
		kt_value v;
		int ok;
	} cases[] = {
	    {KT_TYPE_I32, kt_int(INT32_MAX), 1},
	    {KT_TYPE_I32, kt_int((int64_t)INT32_MAX + 1), 0},
	    {KT_TYPE_I32, kt_int(INT32_MIN), 1},
	    {KT_TYPE_I32, kt_int((int64_t)INT32_MIN - 1), 0},
	    {KT_TYPE_I32, kt_float(1.5), 0},
	    {KT_TYPE_I32, kt_float(24.0), 1},
	    {KT_TYPE_I32, kt_float(NAN), 0},
	    {KT_TYPE_U8, kt_int(255), 1},
	    {KT_TYPE_U8, kt_int(256), 0},
	    {KT_TYPE_U32, kt_int(-1), 0},
	    {KT_TYPE_U64, kt_int(-1), 0},
	    {KT_TYPE_U64, kt_float(0x1p63), 1},
	    {KT_TYPE_U64, kt_float(0x1p64), 0},
	    {KT_TYPE_I64, kt_int(INT64_MIN), 1},
	    {KT_TYPE_I64, kt_float(0x1p63), 0},
	    {KT_TYPE_F16, kt_float(1e300), 1},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		a.type = cases[i].t;
		int rc = kt_buf_scalar_check(&a, cases[i].v);
		if ((rc == 0) != cases[i].ok)
			fprintf(stderr, "case %zu\n", i);
		CHECK((rc == 0) == cases[i].ok);
		if (rc)
			CHECK(
			    !strncmp(kt_error_last(), "t.cu:3:5: 'n' is", 16));
	}
}

static void buffer_bytes_are_checked(void)
{
	kt_arg a = {.name = "z", .type = KT_TYPE_F64, .loc = {"t.cu", 2, 9}};
	uint64_t n, b;
	CHECK_EQ_INT(kt_buf_bytes(&n, &b, &a, kt_int(1 << 20), 0), 0);
	CHECK(n == 1 << 20 && b == 8 << 20);
	CHECK(kt_buf_bytes(&n, &b, &a, kt_int(INT64_MAX / 8 + 1), 0) < 0);
	CHECK(strstr(kt_error_last(), "overflows 63 bits"));
	CHECK(kt_buf_bytes(&n, &b, &a, kt_int((1 << 20) + 1), 8 << 20) < 0);
	CHECK(strstr(kt_error_last(), "t.cu:2:9: 'z' has 1048577 elements"));
	CHECK(kt_buf_bytes(&n, &b, &a, kt_float(1e300), 0) < 0);
	CHECK(kt_buf_bytes(&n, &b, &a, kt_int(-1), 0) < 0);
}

static void random_fill_is_seeded_and_never_zero(void)
{
	enum { N = 4096 };
	static float a[N], b[N], c[N];
	kt_init init = {.kind = KT_INIT_RANDOM};
	kt_buf_fill(a, KT_TYPE_F32, N, &init, 42, 0);
	kt_buf_fill(b, KT_TYPE_F32, N, &init, 42, 0);
	kt_buf_fill(c, KT_TYPE_F32, N, &init, 42, 1);
	CHECK(!memcmp(a, b, sizeof(a)));
	CHECK(memcmp(a, c, sizeof(a)));
	size_t zeros = 0, outside = 0;
	for (int i = 0; i < N; i++) {
		zeros += a[i] == 0.0f;
		outside += a[i] < -1.0f || a[i] > 1.0f;
	}
	CHECK(zeros < 2);
	CHECK_EQ_INT(outside, 0);
	static int16_t s[N];
	init.lo = -3;
	init.hi = 3;
	kt_buf_fill(s, KT_TYPE_I16, N, &init, 7, 0);
	int seen[7] = {0};
	for (int i = 0; i < N; i++) {
		CHECK(s[i] >= -3 && s[i] <= 3);
		if (s[i] >= -3 && s[i] <= 3)
			seen[s[i] + 3] = 1;
	}
	for (int k = 0; k < 7; k++)
		CHECK(seen[k]);
}

/* A buffer of millions of elements is filled on several threads, chunk by
 * chunk: the same seed gives the same buffer every time, a prefix of a
 * longer buffer is the shorter buffer (a chunk depends on its place only),
 * and the chunks differ from each other (each has a generator of its
 * own), in the fast float paths and the generic ones alike. */
static void large_fills_are_the_same_on_any_threads(void)
{
	enum { N = 5 * 65536 + 123, M = 2 * 65536 + 7 };
	static uint16_t a[N], b[N], c[M];
	static float f[N], g[N];
	static int32_t i[N], j[M];
	static uint8_t e[N], e2[M];
	kt_init init = {.kind = KT_INIT_RANDOM};
	kt_buf_fill(a, KT_TYPE_BF16, N, &init, 9, 2);
	kt_buf_fill(b, KT_TYPE_BF16, N, &init, 9, 2);
	kt_buf_fill(c, KT_TYPE_BF16, M, &init, 9, 2);
	CHECK(!memcmp(a, b, sizeof(a)));
	CHECK(!memcmp(a, c, sizeof(c)));
	CHECK(memcmp(a, a + 65536, 64 * sizeof(a[0])));
	size_t outside = 0;
	for (size_t k = 0; k < N; k++) {
		float x = kt_bf16_to_f32(a[k]);
		outside += !(x >= -1.0f && x <= 1.0f);
	}
	CHECK_EQ_INT(outside, 0);
	kt_buf_fill(f, KT_TYPE_F32, N, &init, 9, 2);
	kt_buf_fill(g, KT_TYPE_F32, N, &init, 9, 2);
	CHECK(!memcmp(f, g, sizeof(f)));
	CHECK(memcmp(f + 65536, f + 3 * 65536, 64 * sizeof(f[0])));
	init.lo = -5;
	init.hi = 5;
	kt_buf_fill(i, KT_TYPE_I32, N, &init, 3, 0);
	kt_buf_fill(j, KT_TYPE_I32, M, &init, 3, 0);
	CHECK(!memcmp(i, j, sizeof(j)));
	outside = 0;
	for (size_t k = 0; k < N; k++)
		outside += i[k] < -5 || i[k] > 5;
	CHECK_EQ_INT(outside, 0);
	init.lo = init.hi = 0;
	kt_buf_fill(e, KT_TYPE_FP8_E4M3, N, &init, 4, 1);
	kt_buf_fill(e2, KT_TYPE_FP8_E4M3, M, &init, 4, 1);
	CHECK(!memcmp(e, e2, sizeof(e2)));
}

static void other_fills(void)
{
	double d[4];
	kt_init iota = {.kind = KT_INIT_IOTA};
	kt_buf_fill(d, KT_TYPE_F64, 4, &iota, 0, 0);
	CHECK(d[3] == 3.0);
	uint16_t h[3];
	kt_init val = {.kind = KT_INIT_VALUE, .value = 1.5};
	kt_buf_fill(h, KT_TYPE_BF16, 3, &val, 0, 0);
	CHECK(kt_bf16_to_f32(h[2]) == 1.5f);
	CHECK_EQ_INT(kt_buf_poison_byte(0), 0xff);
	CHECK_EQ_INT(kt_buf_poison_byte(1), 0x7f);
}

/* NaN, both infinities, subnormals, -0 and the largest value, sparsely,
 * the same for the same seed, in float types only. */
static void specials_are_mixed_into_floats_only(void)
{
	enum { N = 8192 };
	static float a[N], b[N];
	kt_init init = {.kind = KT_INIT_RANDOM};
	kt_buf_fill(a, KT_TYPE_F32, N, &init, 5, 0);
	size_t n = kt_buf_specials(a, KT_TYPE_F32, N, 5, 0);
	kt_buf_fill(b, KT_TYPE_F32, N, &init, 5, 0);
	CHECK_EQ_INT(kt_buf_specials(b, KT_TYPE_F32, N, 5, 0), n);
	CHECK(!memcmp(a, b, sizeof(a)));
	CHECK(n > N / KT_BUF_SPECIAL_EVERY / 2 &&
	      n < N / KT_BUF_SPECIAL_EVERY * 2);
	size_t nan = 0, pinf = 0, ninf = 0, sub = 0, nzero = 0, big = 0;
	for (int i = 0; i < N; i++) {
		nan += isnan(a[i]);
		pinf += a[i] == INFINITY;
		ninf += a[i] == -INFINITY;
		sub += a[i] != 0 && fabsf(a[i]) < FLT_MIN;
		nzero += a[i] == 0 && signbit(a[i]);
		big += a[i] == FLT_MAX;
	}
	CHECK(nan && pinf && ninf && sub >= 2 && nzero && big);

	static uint16_t h[N];
	kt_buf_fill(h, KT_TYPE_BF16, N, &init, 5, 1);
	CHECK(kt_buf_specials(h, KT_TYPE_BF16, N, 5, 1) > 0);
	size_t hnan = 0, hsub = 0;
	for (int i = 0; i < N; i++) {
		float f = kt_bf16_to_f32(h[i]);
		hnan += isnan(f);
		hsub += f != 0 && fabsf(f) < FLT_MIN;
	}
	CHECK(hnan && hsub);

	/* e4m3 has no infinity: NaN and subnormals, never a saturated Inf */
	static uint8_t q[N];
	kt_buf_fill(q, KT_TYPE_FP8_E4M3, N, &init, 5, 2);
	CHECK(kt_buf_specials(q, KT_TYPE_FP8_E4M3, N, 5, 2) > 0);
	size_t qnan = 0, qsub = 0;
	for (int i = 0; i < N; i++) {
		float f = kt_e4m3_to_f32(q[i]);
		qnan += isnan(f);
		qsub += f != 0 && fabsf(f) < 0x1p-6f;
	}
	CHECK(qnan && qsub);

	static int32_t k[N], k2[N];
	kt_buf_fill(k, KT_TYPE_I32, N, &init, 5, 3);
	memcpy(k2, k, sizeof(k));
	CHECK_EQ_INT(kt_buf_specials(k, KT_TYPE_I32, N, 5, 3), 0);
	CHECK(!memcmp(k, k2, sizeof(k)));
}

int main(void)
{
	RUN(f16_round_trips_and_rounds_to_even);
	RUN(bf16_round_trips_and_rounds_to_even);
	RUN(fp8_formats_match_their_tables);
	RUN(integers_are_exact_and_clamped);
	RUN(scalars_encode_by_type);
	RUN(scalars_must_fit_their_integer_type);
	RUN(buffer_bytes_are_checked);
	RUN(random_fill_is_seeded_and_never_zero);
	RUN(large_fills_are_the_same_on_any_threads);
	RUN(other_fills);
	RUN(specials_are_mixed_into_floats_only);
	return check_summary();
}
