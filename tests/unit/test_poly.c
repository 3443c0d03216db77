/* test_poly.c - the polynomials buffer lengths are derived in
 * (planner/poly.c): sums and products that cancel, printing, the sign
 * test, division by a term. */
#include "check.h"

#include "planner/poly.h"

static void print(const pl_poly *p, const pl_atoms *A, const char *want)
{
	kt_str s = KT_STR_INIT;
	pl_poly_print(p, A, &s);
	CHECK_EQ_STR(s.ptr, want);
	kt_str_release(&s);
}

/* (t - 1) * 2 * d + d + 8 * (d8 - 1) + 8 is 2 * t * d - d + 8 * d8 */
static void poly_products_cancel(void)
{
	pl_atoms A = {0};
	int t = pl_atom(&A, "tokens"), d = pl_atom(&A, "d"),
	    d8 = pl_atom(&A, "d / 8");
	CHECK_EQ_INT(pl_atom(&A, "d"), d);
	pl_poly p, q, one;
	pl_poly_var(&p, t);
	pl_poly_const(&one, 1);
	pl_poly_add(&p, &one, -1);
	pl_poly_var(&q, d);
	pl_poly_mul(&p, &q);
	pl_poly_const(&q, 2);
	pl_poly_mul(&p, &q);
	pl_poly_var(&q, d);
	pl_poly_add(&p, &q, 1);
	pl_poly_var(&q, d8);
	pl_poly_add(&q, &one, -1);
	pl_poly_add(&p, &q, 8);
	pl_poly_add(&p, &one, 8);
	print(&p, &A, "2 * tokens * d - d + 8 * (d / 8)");
	int64_t c;
	CHECK(!pl_poly_is_const(&p, &c));
	pl_poly_add(&p, &p, -1);
	CHECK(pl_poly_is_const(&p, &c) && c == 0);
	print(&p, &A, "0");
	pl_atoms_release(&A);
}

/* a ≥ 0 when its coefficients are and its atoms are known ≥ 0 */
static void poly_sign_needs_every_atom(void)
{
	pl_atoms A = {0};
	int n = pl_atom(&A, "n"), m = pl_atom(&A, "m");
	pl_poly p, q;
	pl_poly_var(&p, n);
	pl_poly_var(&q, m);
	pl_poly_mul(&p, &q);
	pl_poly_add(&p, &q, 3);
	CHECK(pl_poly_nonneg(&p, 1u << n | 1u << m));
	CHECK(!pl_poly_nonneg(&p, 1u << n));
	pl_poly_add(&p, &q, -4); /* n * m - m */
	CHECK(!pl_poly_nonneg(&p, 1u << n | 1u << m));
	pl_atoms_release(&A);
}

/* (16 * b - 1) / 16 is b - 1; (k * p - 1) / p is k - 1; 7 / 2 is 3;
 * (n + 1) / n stays */
static void poly_divides_by_a_term(void)
{
	pl_atoms A = {0};
	int b = pl_atom(&A, "b"), k = pl_atom(&A, "k"), p = pl_atom(&A, "p");
	pl_poly x, y, q, one;
	pl_poly_const(&one, 1);
	pl_poly_var(&x, b);
	pl_poly_const(&y, 16);
	pl_poly_mul(&x, &y);
	pl_poly_add(&x, &one, -1);
	CHECK(pl_poly_div(&q, &x, &y));
	print(&q, &A, "b - 1");
	pl_poly_var(&x, k);
	pl_poly_var(&y, p);
	pl_poly_mul(&x, &y);
	pl_poly_add(&x, &one, -1);
	CHECK(pl_poly_div(&q, &x, &y));
	print(&q, &A, "k - 1");
	pl_poly_const(&x, 7);
	pl_poly_const(&y, 2);
	CHECK(pl_poly_div(&q, &x, &y));
	print(&q, &A, "3");
	pl_poly_var(&x, p);
	pl_poly_add(&x, &one, 1);
	pl_poly_var(&y, p);
	CHECK(!pl_poly_div(&q, &x, &y));
	pl_atoms_release(&A);
}

/* atoms that are not names print in parentheses, once */
static void poly_prints_atoms_as_operands(void)
{
	pl_atoms A = {0};
	int g = pl_atom(&A, "(n + 255) / 256"), w = pl_atom(&A, "w * 2");
	pl_poly p, q;
	pl_poly_var(&p, g);
	print(&p, &A, "(n + 255) / 256");
	pl_poly_var(&q, w);
	pl_poly_mul(&p, &q);
	print(&p, &A, "((n + 255) / 256) * (w * 2)");
	pl_atoms_release(&A);
}

/* a coefficient that overflows marks the polynomial bad */
static void poly_overflow_is_bad(void)
{
	pl_poly p, q;
	pl_poly_const(&p, INT64_MAX);
	pl_poly_const(&q, 2);
	pl_poly_mul(&p, &q);
	CHECK(p.bad);
	int64_t c;
	CHECK(!pl_poly_is_const(&p, &c));
}

int main(void)
{
	RUN(poly_products_cancel);
	RUN(poly_sign_needs_every_atom);
	RUN(poly_divides_by_a_term);
	RUN(poly_prints_atoms_as_operands);
	RUN(poly_overflow_is_bad);
	return check_summary();
}
