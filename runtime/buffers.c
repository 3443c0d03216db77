/*
 * runtime/buffers.c - element access, narrow-float conversions, seeded
 * initialisation and poisoning of argument buffers on the host.
 *
 * The fp8 formats are converted through doubles (every fp8 value and every
 * rounding step is exact there), which keeps one short routine for both
 * formats instead of two bit-twiddling ones.
 */
#include "runtime/buffers.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/rng.h"

uint16_t kt_f32_to_f16(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	uint32_t sign = (x >> 16) & 0x8000, man = x & 0x7fffff;
	int e = (int)((x >> 23) & 0xff);
	if (e == 0xff)
		return (uint16_t)(sign | 0x7c00 |
		                  (man ? 0x200 | (man >> 13) : 0));
	e = e - 127 + 15;
	if (e >= 31)
		return (uint16_t)(sign | 0x7c00);
	if (e <= 0) {
		if (e < -10)
			return (uint16_t)sign;
		uint32_t m = man | 0x800000, shift = (uint32_t)(14 - e);
		uint32_t h = m >> shift, rem = m & ((1u << shift) - 1);
		uint32_t mid = 1u << (shift - 1);
		if (rem > mid || (rem == mid && (h & 1)))
			h++;
		return (uint16_t)(sign | h);
	}
	uint32_t h = sign | ((uint32_t)e << 10) | (man >> 13);
	uint32_t rem = man & 0x1fff;
	if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
		h++; /* a carry moves into the exponent, up to infinity */
	return (uint16_t)h;
}

float kt_f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16;
	uint32_t e = (h >> 10) & 0x1f, man = h & 0x3ff, x;
	if (e == 0x1f) {
		x = sign | 0x7f800000 | (man << 13);
	} else if (e == 0) {
		float v = ldexpf((float)man, -24);
		return sign ? -v : v;
	} else {
		x = sign | ((e + 112) << 23) | (man << 13);
	}
	float f;
	memcpy(&f, &x, 4);
	return f;
}

uint16_t kt_f32_to_bf16(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	if ((x & 0x7fffffff) > 0x7f800000)
		return (uint16_t)((x >> 16) | 0x40);
	x += 0x7fff + ((x >> 16) & 1);
	return (uint16_t)(x >> 16);
}

float kt_bf16_to_f32(uint16_t b)
{
	uint32_t x = (uint32_t)b << 16;
	float f;
	memcpy(&f, &x, 4);
	return f;
}

/* An fp8 format: exponent and mantissa bits, bias, and its NaN code. */
typedef struct fp8_format {
	int ebits, mbits, bias;
	bool has_inf; /* e5m2: exponent all ones is inf/NaN (IEEE-like) */
	double max;   /* largest finite value */
	uint8_t nan;
} fp8_format;

static const fp8_format e4m3 = {4, 3, 7, false, 448.0, 0x7f};
static const fp8_format e5m2 = {5, 2, 15, true, 57344.0, 0x7f};

static uint8_t fp8_encode(double v, const fp8_format *f)
{
	if (isnan(v))
		return f->nan;
	uint8_t sign = signbit(v) ? 0x80 : 0;
	double a = fabs(v);
	int emin = 1 - f->bias, e;
	if (a == 0)
		return sign;
	frexp(a, &e);
	e -= 1; /* a = 1.m * 2^e */
	double quantum = ldexp(1.0, (e < emin ? emin : e) - f->mbits);
	a = rint(a / quantum) * quantum;
	if (a > f->max) {
		if (f->has_inf)
			return (uint8_t)(sign |
			                 (((1 << f->ebits) - 1) << f->mbits));
		a = f->max;
	}
	frexp(a, &e);
	e -= 1;
	if (e < emin) /* subnormal */
		return (uint8_t)(sign | (int)(a / ldexp(1.0, emin - f->mbits)));
	int man = (int)((a / ldexp(1.0, e) - 1.0) * (1 << f->mbits));
	return (uint8_t)(sign | ((e + f->bias) << f->mbits) | man);
}

static double fp8_decode(uint8_t b, const fp8_format *f)
{
	int e = (b >> f->mbits) & ((1 << f->ebits) - 1);
	int man = b & ((1 << f->mbits) - 1);
	double sign = (b & 0x80) ? -1.0 : 1.0;
	if (f->has_inf && e == (1 << f->ebits) - 1)
		return man ? NAN : sign * INFINITY;
	if (!f->has_inf && (b & 0x7f) == 0x7f)
		return NAN;
	if (e == 0)
		return sign * ldexp(man, 1 - f->bias - f->mbits);
	return sign * ldexp(1.0 + (double)man / (1 << f->mbits), e - f->bias);
}

uint8_t kt_f32_to_e4m3(float f)
{
	return fp8_encode(f, &e4m3);
}
float kt_e4m3_to_f32(uint8_t b)
{
	return (float)fp8_decode(b, &e4m3);
}
uint8_t kt_f32_to_e5m2(float f)
{
	return fp8_encode(f, &e5m2);
}
float kt_e5m2_to_f32(uint8_t b)
{
	return (float)fp8_decode(b, &e5m2);
}

bool kt_type_is_signed(kt_type t)
{
	return t == KT_TYPE_I8 || t == KT_TYPE_I16 || t == KT_TYPE_I32 ||
	       t == KT_TYPE_I64;
}

#define ELEM(T) (((const T *)data)[i])

int64_t kt_buf_get_i64(const void *data, kt_type t, size_t i)
{
	switch (t) {
	case KT_TYPE_I8: return ELEM(int8_t);
	case KT_TYPE_I16: return ELEM(int16_t);
	case KT_TYPE_I32: return ELEM(int32_t);
	case KT_TYPE_I64: return ELEM(int64_t);
	default: return (int64_t)kt_buf_get_u64(data, t, i);
	}
}

uint64_t kt_buf_get_u64(const void *data, kt_type t, size_t i)
{
	switch (t) {
	case KT_TYPE_U8: return ELEM(uint8_t);
	case KT_TYPE_U16: return ELEM(uint16_t);
	case KT_TYPE_U32: return ELEM(uint32_t);
	case KT_TYPE_U64: return ELEM(uint64_t);
	case KT_TYPE_I8:
	case KT_TYPE_I16:
	case KT_TYPE_I32:
	case KT_TYPE_I64: return (uint64_t)kt_buf_get_i64(data, t, i);
	default: return (uint64_t)kt_buf_get(data, t, i);
	}
}

double kt_buf_get(const void *data, kt_type t, size_t i)
{
	switch (t) {
	case KT_TYPE_F64: return ELEM(double);
	case KT_TYPE_F32: return ELEM(float);
	case KT_TYPE_F16: return kt_f16_to_f32(ELEM(uint16_t));
	case KT_TYPE_BF16: return kt_bf16_to_f32(ELEM(uint16_t));
	case KT_TYPE_FP8_E4M3: return kt_e4m3_to_f32(ELEM(uint8_t));
	case KT_TYPE_FP8_E5M2: return kt_e5m2_to_f32(ELEM(uint8_t));
	case KT_TYPE_U8:
	case KT_TYPE_U16:
	case KT_TYPE_U32:
	case KT_TYPE_U64: return (double)kt_buf_get_u64(data, t, i);
	default: return (double)kt_buf_get_i64(data, t, i);
	}
}

#undef ELEM

static int64_t clamp_signed(double v, int bits)
{
	double hi = ldexp(1.0, bits - 1);
	v = nearbyint(v);
	if (isnan(v))
		return 0;
	if (v >= hi)
		return bits == 64 ? INT64_MAX : (int64_t)hi - 1;
	if (v < -hi)
		return bits == 64 ? INT64_MIN : -(int64_t)hi;
	return (int64_t)v;
}

static uint64_t clamp_unsigned(double v, int bits)
{
	double hi = ldexp(1.0, bits);
	v = nearbyint(v);
	if (isnan(v) || v <= 0)
		return 0;
	if (v >= hi)
		return bits == 64 ? UINT64_MAX : (uint64_t)hi - 1;
	return (uint64_t)v;
}

#define STORE(T, x) (((T *)data)[i] = (T)(x))

void kt_buf_set(void *data, kt_type t, size_t i, double v)
{
	switch (t) {
	case KT_TYPE_F64: STORE(double, v); break;
	case KT_TYPE_F32: STORE(float, v); break;
	case KT_TYPE_F16: STORE(uint16_t, kt_f32_to_f16((float)v)); break;
	case KT_TYPE_BF16: STORE(uint16_t, kt_f32_to_bf16((float)v)); break;
	case KT_TYPE_FP8_E4M3: STORE(uint8_t, fp8_encode(v, &e4m3)); break;
	case KT_TYPE_FP8_E5M2: STORE(uint8_t, fp8_encode(v, &e5m2)); break;
	case KT_TYPE_I8: STORE(int8_t, clamp_signed(v, 8)); break;
	case KT_TYPE_I16: STORE(int16_t, clamp_signed(v, 16)); break;
	case KT_TYPE_I32: STORE(int32_t, clamp_signed(v, 32)); break;
	case KT_TYPE_I64: STORE(int64_t, clamp_signed(v, 64)); break;
	case KT_TYPE_U8: STORE(uint8_t, clamp_unsigned(v, 8)); break;
	case KT_TYPE_U16: STORE(uint16_t, clamp_unsigned(v, 16)); break;
	case KT_TYPE_U32: STORE(uint32_t, clamp_unsigned(v, 32)); break;
	case KT_TYPE_U64: STORE(uint64_t, clamp_unsigned(v, 64)); break;
	default: break;
	}
}

#undef STORE

size_t kt_buf_scalar(void *out, kt_type t, kt_value v)
{
	memset(out, 0, 8);
	if (!v.is_float && !kt_type_is_float(t)) {
		/* integers go through unchanged, so 64-bit values stay exact */
		int64_t x = v.i;
		size_t n = kt_type_size(t);
		memcpy(out, &x, n); /* little-endian: the low bytes */
		return n;
	}
	kt_buf_set(out, t, 0, kt_value_as_double(v));
	return kt_type_size(t);
}

static kt_loc loc_of(const kt_arg *a, const kt_expr *e)
{
	return e ? e->loc : a->loc;
}

int kt_buf_bytes(uint64_t *count, uint64_t *bytes, const kt_arg *a, kt_value v,
                 uint64_t cap)
{
	kt_loc l = loc_of(a, a->count);
	double d = kt_value_as_double(v);
	if (v.is_float && (!isfinite(d) || d != floor(d)))
		return kt_error(
		    KT_EINVALID,
		    "%s:%d:%d: the count of '%s' is %g, not a whole "
		    "number",
		    l.file, l.line, l.col, a->name, d);
	if (d < 0)
		return kt_error(KT_EINVALID,
		                "%s:%d:%d: the count of '%s' is negative (%g)",
		                l.file, l.line, l.col, a->name, d);
	size_t size = kt_type_size(a->type);
	uint64_t n = v.is_float ? (d < 0x1p64 ? (uint64_t)d : UINT64_MAX)
	                        : (uint64_t)v.i;
	uint64_t b;
	if (__builtin_mul_overflow(n, (uint64_t)size, &b) || b > INT64_MAX) {
		char num[32];
		if (v.is_float)
			snprintf(num, sizeof(num), "%.17g", d);
		else
			snprintf(num, sizeof(num), "%llu",
			         (unsigned long long)n);
		return kt_error(
		    KT_EINVALID,
		    "%s:%d:%d: '%s' has %s elements of %s: the byte "
		    "count overflows 63 bits",
		    l.file, l.line, l.col, a->name, num, kt_type_name(a->type));
	}
	if (cap && b > cap)
		return kt_error(
		    KT_EINVALID,
		    "%s:%d:%d: '%s' has %llu elements of %s, %llu "
		    "bytes: more than the %llu bytes one buffer may "
		    "take on the device",
		    l.file, l.line, l.col, a->name, (unsigned long long)n,
		    kt_type_name(a->type), (unsigned long long)b,
		    (unsigned long long)cap);
	*count = n;
	*bytes = b;
	return 0;
}

/* Whether integer type t holds v exactly. */
static bool int_fits(kt_type t, kt_value v)
{
	int bits = (int)kt_type_size(t) * 8;
	bool sign = kt_type_is_signed(t);
	/* [lo, end): powers of two, exact as doubles */
	double lo = sign ? -ldexp(1.0, bits - 1) : 0;
	double end = ldexp(1.0, sign ? bits - 1 : bits);
	if (v.is_float)
		return v.f >= lo && v.f < end && v.f == floor(v.f);
	if (bits == 64)
		return sign || v.i >= 0;
	return v.i >= (int64_t)lo && v.i < (int64_t)end;
}

int kt_buf_scalar_check(const kt_arg *a, kt_value v)
{
	if (kt_type_is_float(a->type) || int_fits(a->type, v))
		return 0;
	kt_loc l = loc_of(a, a->value);
	double d = kt_value_as_double(v);
	bool whole = !v.is_float || (isfinite(d) && d == floor(d));
	return kt_error(KT_EINVALID, "%s:%d:%d: '%s' is %.17g, %s type %s",
	                l.file, l.line, l.col, a->name, d,
	                whole ? "outside the range of its"
	                      : "not a whole number for its",
	                kt_type_name(a->type));
}

void kt_buf_default_range(kt_type t, double *lo, double *hi)
{
	if (kt_type_is_float(t)) {
		*lo = -1.0;
		*hi = 1.0;
	} else if (kt_type_is_signed(t)) {
		*lo = -64;
		*hi = 64;
	} else {
		*lo = 0;
		*hi = 128;
	}
}

/*
 * Random fills: the buffer is cut into chunks of FILL_CHUNK elements, and
 * chunk c draws from a generator of its own, seeded from the buffer's key
 * and c. A chunk's contents thus depend on the seed, the buffer and the
 * chunk's place only, so threads may fill chunks in any order and the
 * buffer is the same whatever the number of threads: inputs of a
 * billion-element problem are made on every core instead of one.
 */
enum { FILL_CHUNK = 1 << 16, FILL_THREADS_MAX = 64 };

typedef struct fill_job {
	void *data;
	kt_type t;
	size_t n;
	double lo, hi;
	uint64_t key;
	size_t next, step; /* this thread's first chunk and its stride */
} fill_job;

static void fill_chunk(const fill_job *j, size_t c)
{
	kt_rng r;
	kt_rng_seed(&r, j->key ^ ((c + 1) * 0xd1b54a32d192ed03ULL));
	size_t b = c * FILL_CHUNK,
	       e = b + FILL_CHUNK < j->n ? b + FILL_CHUNK : j->n;
	double lo = j->lo, w = j->hi - j->lo;
	if (j->t == KT_TYPE_F32) {
		float *f = j->data;
		for (size_t i = b; i < e; i++)
			f[i] = (float)(lo + w * kt_rng_double(&r));
	} else if (j->t == KT_TYPE_BF16 || j->t == KT_TYPE_F16) {
		/* through float, as kt_buf_set does for these two */
		uint16_t *h = j->data;
		bool bf = j->t == KT_TYPE_BF16;
		for (size_t i = b; i < e; i++) {
			float f = (float)(lo + w * kt_rng_double(&r));
			h[i] = bf ? kt_f32_to_bf16(f) : kt_f32_to_f16(f);
		}
	} else if (kt_type_is_float(j->t)) {
		for (size_t i = b; i < e; i++)
			kt_buf_set(j->data, j->t, i,
			           lo + w * kt_rng_double(&r));
	} else {
		double a = ceil(j->lo), z = floor(j->hi);
		/* span 0 stands for the whole 64-bit range */
		uint64_t span = z < a                 ? 1
		                : z - a >= 0x1p64 - 1 ? 0
		                                      : (uint64_t)(z - a) + 1;
		for (size_t i = b; i < e; i++) {
			uint64_t k =
			    span ? kt_rng_below(&r, span) : kt_rng_next(&r);
			kt_buf_set(j->data, j->t, i, a + (double)k);
		}
	}
}

static void *fill_thread(void *arg)
{
	fill_job *j = arg;
	size_t chunks = (j->n + FILL_CHUNK - 1) / FILL_CHUNK;
	for (size_t c = j->next; c < chunks; c += j->step)
		fill_chunk(j, c);
	return NULL;
}

static void fill_random(void *data, kt_type t, size_t n, double lo, double hi,
                        uint64_t key)
{
	if (lo == 0 && hi == 0)
		kt_buf_default_range(t, &lo, &hi);
	fill_job base = {data, t, n, lo, hi, key, 0, 1};
	size_t chunks = (n + FILL_CHUNK - 1) / FILL_CHUNK;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t k = cpus > 1 ? (size_t)cpus : 1;
	if (k > FILL_THREADS_MAX)
		k = FILL_THREADS_MAX;
	if (k > chunks / 4) /* small buffers: not worth a thread */
		k = chunks / 4 ? chunks / 4 : 1;
	fill_job jobs[FILL_THREADS_MAX];
	pthread_t tid[FILL_THREADS_MAX];
	bool started[FILL_THREADS_MAX] = {false};
	for (size_t i = 1; i < k; i++) {
		jobs[i] = base;
		jobs[i].next = i;
		jobs[i].step = k;
		started[i] =
		    !pthread_create(&tid[i], NULL, fill_thread, &jobs[i]);
	}
	/* this thread takes chunk 0 mod k, and those of a thread that did
	 * not start */
	for (size_t c = 0; c < chunks; c++)
		if (c % k == 0 || !started[c % k])
			fill_chunk(&base, c);
	for (size_t i = 1; i < k; i++)
		if (started[i])
			pthread_join(tid[i], NULL);
}

void kt_buf_fill(void *data, kt_type t, size_t n, const kt_init *init,
                 uint64_t seed, uint64_t stream)
{
	switch (init->kind) {
	case KT_INIT_RANDOM:
		fill_random(data, t, n, init->lo, init->hi,
		            seed ^ (stream * 0x9e3779b97f4a7c15ULL + 1));
		break;
	case KT_INIT_ZEROS: memset(data, 0, n * kt_type_size(t)); break;
	case KT_INIT_IOTA:
		for (size_t i = 0; i < n; i++)
			kt_buf_set(data, t, i, (double)i);
		break;
	case KT_INIT_VALUE:
		for (size_t i = 0; i < n; i++)
			kt_buf_set(data, t, i, init->value);
		break;
	}
}

/* The smallest positive subnormal of each float type. */
static double smallest_subnormal(kt_type t)
{
	switch (t) {
	case KT_TYPE_F64: return 0x1p-1074;
	case KT_TYPE_F32: return 0x1p-149;
	case KT_TYPE_F16: return 0x1p-24;
	case KT_TYPE_BF16: return 0x1p-133;
	case KT_TYPE_FP8_E4M3: return 0x1p-9;
	case KT_TYPE_FP8_E5M2: return 0x1p-16;
	default: return 0;
	}
}

static double largest_finite(kt_type t)
{
	switch (t) {
	case KT_TYPE_F64: return 0x1.fffffffffffffp1023;
	case KT_TYPE_F32: return 0x1.fffffep127;
	case KT_TYPE_F16: return 65504.0;
	case KT_TYPE_BF16: return 0x1.fep127;
	case KT_TYPE_FP8_E4M3: return 448.0;
	case KT_TYPE_FP8_E5M2: return 57344.0;
	default: return 0;
	}
}

size_t kt_buf_specials(void *data, kt_type t, size_t n, uint64_t seed,
                       uint64_t stream)
{
	if (!kt_type_is_float(t))
		return 0;
	double tiny = smallest_subnormal(t);
	/* e4m3 has no infinities: it would store them as NaN or saturate */
	bool inf = t != KT_TYPE_FP8_E4M3;
	const double all[] = {NAN,   INFINITY, -INFINITY,        tiny,
	                      -tiny, -0.0,     largest_finite(t)};
	double v[sizeof(all) / sizeof(all[0])];
	size_t nv = 0;
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (inf || !isinf(all[i]))
			v[nv++] = all[i];
	kt_rng r;
	kt_rng_seed(&r, seed ^ (stream * 0xbf58476d1ce4e5b9ULL + 7));
	size_t changed = 0;
	for (size_t i = 0; i < n; i++)
		if (kt_rng_below(&r, KT_BUF_SPECIAL_EVERY) == 0)
			kt_buf_set(data, t, i, v[changed++ % nv]);
	return changed;
}

uint8_t kt_buf_poison_byte(unsigned check)
{
	return (check & 1) ? 0x7f : 0xff;
}
