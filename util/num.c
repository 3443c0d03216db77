/*
 * num.c - doubles as the shortest text that reads back as the same double
 * (see num.h): the digits are searched from 15 up, which keeps plain
 * numbers in plain notation ("100", not "1e+02").
 */
#include "util/num.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void kt_num_shortest(char *buf, size_t cap, double d)
{
	for (int digits = 15; digits <= 17; digits++) {
		snprintf(buf, cap, "%.*g", digits, d);
		if (strtod(buf, NULL) == d)
			break;
	}
}

void kt_num_float_literal(char *buf, size_t cap, double d)
{
	kt_num_shortest(buf, cap, d);
	size_t n = strlen(buf);
	if (!strpbrk(buf, ".eEn") && n + 2 < cap) /* "n": inf and nan */
		memcpy(buf + n, ".0", 3);
}
