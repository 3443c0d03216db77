/*
 * runtime/buffers.h - host-side data of kernel arguments, shared by every
 * backend (CUDA, OpenCL): element access for each kt_type as double or as
 * exact 64-bit integers, the narrow float formats (fp16, bf16, fp8 e4m3 and
 * e5m2) converted in software, seeded initialisation and poisoning.
 *
 * Design choice: one generator stream per (seed, buffer index), filled in
 * element order, so a buffer's contents depend only on the seed, its index
 * and its type, never on the other buffers or the platform.
 */
#ifndef KTC_RUNTIME_BUFFERS_H
#define KTC_RUNTIME_BUFFERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktc/model.h"

/* Narrow floats: round to nearest even; out-of-range values saturate to the
 * largest finite value for e4m3 (which has no infinity), NaN stays NaN. */
uint16_t kt_f32_to_f16(float f);
float kt_f16_to_f32(uint16_t h);
uint16_t kt_f32_to_bf16(float f);
float kt_bf16_to_f32(uint16_t b);
uint8_t kt_f32_to_e4m3(float f);
float kt_e4m3_to_f32(uint8_t b);
uint8_t kt_f32_to_e5m2(float f);
float kt_e5m2_to_f32(uint8_t b);

bool kt_type_is_signed(kt_type t);

/* Element i as a double (integers above 2^53 lose precision there). */
double kt_buf_get(const void *data, kt_type t, size_t i);
/* Element i of an integer buffer, exactly (sign- or zero-extended). */
int64_t kt_buf_get_i64(const void *data, kt_type t, size_t i);
uint64_t kt_buf_get_u64(const void *data, kt_type t, size_t i);
/* Stores v as type t (integers: rounded and clamped to the type's range). */
void kt_buf_set(void *data, kt_type t, size_t i, double v);

/*
 * The element count and byte size of buffer argument a whose count
 * evaluated to v, checked: a whole number, not negative, a byte count that
 * fits 63 bits, and at most cap bytes (the most one buffer may take on the
 * device; 0: no cap). An error is located at a's count (file:line:col).
 */
int kt_buf_bytes(uint64_t *count, uint64_t *bytes, const kt_arg *a, kt_value v,
                 uint64_t cap);
/*
 * Checks that scalar argument a of value v is stored exactly: an integer
 * type takes whole values within its range only (no wrap, no truncation),
 * a float type any value. The error is located at a's value.
 */
int kt_buf_scalar_check(const kt_arg *a, kt_value v);
/*
 * Encodes one scalar kernel argument of type t from v into out (at least 8
 * bytes); returns its size in bytes.
 */
size_t kt_buf_scalar(void *out, kt_type t, kt_value v);

/*
 * The range random(lo, hi) draws from when the model gave none (lo == hi
 * == 0): [-1, 1] for floats, [-64, 64] for signed and [0, 128] for unsigned
 * integers, so inputs are never all zeros and fit every 8-bit type.
 */
void kt_buf_default_range(kt_type t, double *lo, double *hi);

/*
 * Fills n elements by init: random (uniform, from a stream seeded by seed
 * and stream), zeros, iota (0, 1, 2, ...) or a value.
 */
void kt_buf_fill(void *data, kt_type t, size_t n, const kt_init *init,
                 uint64_t seed, uint64_t stream);

/*
 * Mixes the values that break careless kernels into n elements of float
 * type t already filled: NaN, +-Inf (where the type has them), the
 * smallest subnormal of either sign, -0 and the largest finite value, at
 * about one element in KT_BUF_SPECIAL_EVERY, chosen by a stream seeded by
 * seed and stream. Integer types are left as they are. Returns the number
 * of elements changed.
 */
#define KT_BUF_SPECIAL_EVERY 32
size_t kt_buf_specials(void *data, kt_type t, size_t n, uint64_t seed,
                       uint64_t stream);

/*
 * The poison byte for check k: 0xFF (NaN in every float type, -1 or the
 * maximum for integers) on even checks, 0x7F (NaN or a huge value) on odd
 * ones, so an unwritten integer element that happens to equal one pattern
 * is caught by the other.
 */
uint8_t kt_buf_poison_byte(unsigned check);

#endif
