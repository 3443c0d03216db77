/*
 * poly.h - integer polynomials over atoms, the form a buffer length takes
 * while length.c derives it (internal to planner/).
 *
 * An atom stands for a value the launch fixes: a problem variable (`d`),
 * or an expression kept whole (`d / 8`, `(cols + 31) / 32`). Sums of
 * products with integer coefficients are enough to let `(t - 1) * d + d`
 * come out as `t * d` and to compare two bounds: a ≥ b when every
 * coefficient of a - b is ≥ 0 and its atoms are known ≥ 0. Sizes are
 * fixed (no allocation); what does not fit marks the polynomial bad.
 */
#ifndef KTC_PLANNER_POLY_H
#define KTC_PLANNER_POLY_H

#include "util/str.h"

#include <stdbool.h>
#include <stdint.h>

#define PL_ATOMS 32 /* atoms of one derivation */
#define PL_TERMS 24 /* terms of one polynomial */
#define PL_DEG 4    /* atoms in one term */

typedef struct pl_term {
	int64_t c;
	int deg;
	uint8_t atom[PL_DEG]; /* ascending */
} pl_term;

typedef struct pl_poly {
	int n;
	bool bad; /* a coefficient overflowed or a size ran out */
	pl_term t[PL_TERMS];
} pl_poly;

/* The atoms' texts, an atom's number being its index. */
typedef struct pl_atoms {
	int n;
	char *text[PL_ATOMS];
} pl_atoms;

/* The number of the atom written text (added when new), or -1 when the
 * table is full or out of memory. */
int pl_atom(pl_atoms *A, const char *text);
void pl_atoms_release(pl_atoms *A);

void pl_poly_const(pl_poly *p, int64_t c);
void pl_poly_var(pl_poly *p, int atom);
/* p += k * q */
void pl_poly_add(pl_poly *p, const pl_poly *q, int64_t k);
/* p *= q */
void pl_poly_mul(pl_poly *p, const pl_poly *q);
/* p with atom i renamed map[i] (a permutation of the atoms). */
void pl_poly_rename(pl_poly *p, const int *map);
/* q = x / y where y is one term c * atoms (c > 0, y ≥ 1) and x ≥ 0 is
 * y * Q + r with r a constant that truncating division drops (-c < r <
 * c for a constant y, r ∈ {-1, 0} for any other): Q, less 1 when r < 0.
 * False (q unchanged) for any other x or y. */
bool pl_poly_div(pl_poly *q, const pl_poly *x, const pl_poly *y);
/* The constant p is, when it is one. */
bool pl_poly_is_const(const pl_poly *p, int64_t *c);
/* p ≥ 0 whatever the atoms, given the atoms of mask (bit i: atom i) are
 * ≥ 0: every coefficient ≥ 0 and every atom in mask. */
bool pl_poly_nonneg(const pl_poly *p, uint32_t mask);
/* Appends text s as an operand: in parentheses unless it is a name, a
 * number or one parenthesized whole. */
void pl_operand(const char *s, kt_str *out);
/* The polynomial in the grammar's syntax (`2 * t * d - d + 8`); atoms
 * that are not names or numbers in parentheses. */
void pl_poly_print(const pl_poly *p, const pl_atoms *A, kt_str *out);

#endif
