/*
 * fastdiv.h - the helper that the fast_div refactor writes into a
 * template (rewriter/gen.c): one string, so that the unit test
 * (tests/unit/test_fastdiv.c) compiles and checks, on the host, the very
 * text ktc emits.
 *
 * The method is Granlund and Montgomery's (1994, "Division by invariant
 * integers using multiplication", Fig. 4.1, N = 32): for a divisor d >= 1,
 * l = ceil(log2 d) and m = floor(2^32 * (2^l - d) / d) + 1 (m < 2^32 as
 * 2^l - d < d), then n / d = (umulhi(n, m) + n) >> l for every 32-bit n,
 * the sum taken in 64 bits. The int forms take the multiply where n >= 0
 * and d > 0 (where int division is that of unsigned) and C's operator
 * elsewhere, so they are C's `/` and `%` bit for bit.
 */
#ifndef KTC_REWRITER_FASTDIV_H
#define KTC_REWRITER_FASTDIV_H

static const char kt_fastdiv_helper[] =
    "/* ktc fast_div: n / d and n % d by a multiply-high (Granlund and\n"
    " * Montgomery 1994, Fig. 4.1, N = 32), exact for every 32-bit n and\n"
    " * d >= 1; kt_fastdiv_new once per divisor */\n"
    "typedef struct kt_fastdiv {\n"
    "\tunsigned d, m, l;\n"
    "} kt_fastdiv;\n"
    "__device__ __forceinline__ kt_fastdiv kt_fastdiv_new(unsigned d)\n"
    "{\n"
    "\tkt_fastdiv f;\n"
    "\tf.d = d;\n"
    "\tf.l = d > 1 ? 32 - __clz(d - 1) : 0;\n"
    "\tf.m = d ? (unsigned)((1ull << 32) * ((1ull << f.l) - d) / d + 1)\n"
    "\t        : 0;\n"
    "\treturn f;\n"
    "}\n"
    "__device__ __forceinline__ unsigned kt_fastdiv_q(unsigned n, "
    "kt_fastdiv f)\n"
    "{\n"
    "\treturn (unsigned)(((unsigned long long)__umulhi(n, f.m) + n) >> "
    "f.l);\n"
    "}\n"
    "__device__ __forceinline__ unsigned kt_fastdiv_udiv(unsigned n, "
    "kt_fastdiv f)\n"
    "{\n"
    "\treturn f.d ? kt_fastdiv_q(n, f) : n / f.d;\n"
    "}\n"
    "__device__ __forceinline__ unsigned kt_fastdiv_umod(unsigned n, "
    "kt_fastdiv f)\n"
    "{\n"
    "\treturn f.d ? n - kt_fastdiv_q(n, f) * f.d : n % f.d;\n"
    "}\n"
    "/* int: the multiply where n >= 0 and d > 0, C's operator elsewhere */\n"
    "__device__ __forceinline__ int kt_fastdiv_div(int n, kt_fastdiv f)\n"
    "{\n"
    "\tint d = (int)f.d;\n"
    "\treturn n >= 0 && d > 0 ? (int)kt_fastdiv_q((unsigned)n, f) : n / d;\n"
    "}\n"
    "__device__ __forceinline__ int kt_fastdiv_mod(int n, kt_fastdiv f)\n"
    "{\n"
    "\tint d = (int)f.d;\n"
    "\treturn n >= 0 && d > 0 ? n - (int)kt_fastdiv_q((unsigned)n, f) * d\n"
    "\t                       : n % d;\n"
    "}\n";

#endif
