/*
 * num.h - the one way ktc writes a double as text: the shortest "%g"
 * spelling that reads back as the same double. Cache keys are the one
 * exception: they keep "%.17g" (kt_space_key), because keys already on
 * disk must keep matching.
 */
#ifndef KTC_UTIL_NUM_H
#define KTC_UTIL_NUM_H

#include <stddef.h>

/* Room for any text kt_num_shortest writes, its NUL and a ".0". */
enum { KT_NUM_MAX = 40 };

/*
 * Writes the shortest of "%.15g", "%.16g" and "%.17g" that reads back as d
 * ("0.1", "2", "1e+20", "inf"). Fewer than 15 digits never spell a double
 * differently: "%.15g" already drops the zeros behind them.
 */
void kt_num_shortest(char *buf, size_t cap, double d);
/* As kt_num_shortest, with ".0" where the text would read as an integer
 * ("2.0"), so it stays a floating literal in C. */
void kt_num_float_literal(char *buf, size_t cap, double d);

#endif
