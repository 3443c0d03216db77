/*
 * poly.c - integer polynomials over atoms (poly.h): terms kept merged and
 * sorted by their atoms, so that equal polynomials print the same.
 */
#include "planner/poly.h"

#include "ktc/common.h"

#include <string.h>

int pl_atom(pl_atoms *A, const char *text)
{
	for (int i = 0; i < A->n; i++)
		if (!strcmp(A->text[i], text))
			return i;
	if (A->n == PL_ATOMS)
		return -1;
	size_t len = strlen(text);
	char *s = kt_malloc(len + 1);
	if (!s)
		return -1;
	memcpy(s, text, len + 1);
	A->text[A->n] = s;
	return A->n++;
}

void pl_atoms_release(pl_atoms *A)
{
	for (int i = 0; i < A->n; i++)
		kt_free(A->text[i]);
	A->n = 0;
}

void pl_poly_const(pl_poly *p, int64_t c)
{
	p->n = 0;
	p->bad = false;
	if (c)
		p->t[p->n++] = (pl_term){c, 0, {0}};
}

void pl_poly_var(pl_poly *p, int atom)
{
	p->n = 1;
	p->bad = atom < 0;
	p->t[0] = (pl_term){1, 1, {(uint8_t)(atom < 0 ? 0 : atom)}};
}

/* Graded order: constants last, then by degree, then by atoms. */
static int term_cmp(const pl_term *a, const pl_term *b)
{
	if (a->deg != b->deg)
		return b->deg - a->deg;
	for (int i = 0; i < a->deg; i++)
		if (a->atom[i] != b->atom[i])
			return (int)a->atom[i] - (int)b->atom[i];
	return 0;
}

/* Adds c times the monomial of t into p, keeping the order. */
static void add_term(pl_poly *p, const pl_term *t, int64_t c)
{
	int i = 0;
	while (i < p->n && term_cmp(&p->t[i], t) < 0)
		i++;
	if (i < p->n && term_cmp(&p->t[i], t) == 0) {
		if (__builtin_add_overflow(p->t[i].c, c, &p->t[i].c))
			p->bad = true;
		if (p->t[i].c == 0) {
			memmove(&p->t[i], &p->t[i + 1],
			        (size_t)(p->n - i - 1) * sizeof(*p->t));
			p->n--;
		}
		return;
	}
	if (c == 0)
		return;
	if (p->n == PL_TERMS) {
		p->bad = true;
		return;
	}
	memmove(&p->t[i + 1], &p->t[i], (size_t)(p->n - i) * sizeof(*p->t));
	p->t[i] = *t;
	p->t[i].c = c;
	p->n++;
}

void pl_poly_add(pl_poly *p, const pl_poly *q, int64_t k)
{
	pl_poly r = *q; /* q may be p */
	p->bad |= r.bad;
	for (int i = 0; i < r.n; i++) {
		int64_t c;
		if (__builtin_mul_overflow(r.t[i].c, k, &c))
			p->bad = true;
		else
			add_term(p, &r.t[i], c);
	}
}

void pl_poly_mul(pl_poly *p, const pl_poly *q)
{
	pl_poly r;
	pl_poly_const(&r, 0);
	r.bad = p->bad || q->bad;
	for (int i = 0; i < p->n; i++)
		for (int j = 0; j < q->n; j++) {
			const pl_term *a = &p->t[i], *b = &q->t[j];
			pl_term t = {0, a->deg + b->deg, {0}};
			if (t.deg > PL_DEG ||
			    __builtin_mul_overflow(a->c, b->c, &t.c)) {
				r.bad = true;
				continue;
			}
			/* merge the two ascending atom lists */
			for (int x = 0, y = 0, k = 0; k < t.deg; k++)
				t.atom[k] =
				    y >= b->deg || (x < a->deg &&
				                    a->atom[x] <= b->atom[y])
				        ? a->atom[x++]
				        : b->atom[y++];
			add_term(&r, &t, t.c);
		}
	*p = r;
}

void pl_poly_rename(pl_poly *p, const int *map)
{
	pl_poly r;
	pl_poly_const(&r, 0);
	r.bad = p->bad;
	for (int i = 0; i < p->n; i++) {
		pl_poly t;
		pl_poly_const(&t, p->t[i].c);
		for (int k = 0; k < p->t[i].deg; k++) {
			pl_poly v;
			pl_poly_var(&v, map[p->t[i].atom[k]]);
			pl_poly_mul(&t, &v);
		}
		pl_poly_add(&r, &t, 1);
	}
	*p = r;
}

/* The atoms of d, each taken once from t's (both ascending): the rest
 * into out; false when t lacks one. */
static bool divides(const pl_term *d, const pl_term *t, pl_term *out)
{
	int k = 0, n = 0;
	for (int i = 0; i < t->deg; i++)
		if (k < d->deg && t->atom[i] == d->atom[k])
			k++;
		else
			out->atom[n++] = t->atom[i];
	out->deg = n;
	return k == d->deg && t->c % d->c == 0;
}

bool pl_poly_div(pl_poly *q, const pl_poly *x, const pl_poly *y)
{
	if (x->bad || y->bad || y->n != 1 || y->t[0].c <= 0)
		return false;
	const pl_term *d = &y->t[0];
	pl_poly r;
	pl_poly_const(&r, 0);
	int64_t rest = 0;
	for (int i = 0; i < x->n; i++) {
		pl_term t = {0, 0, {0}};
		if (x->t[i].deg == 0 && d->deg > 0) {
			rest = x->t[i].c;
			continue;
		}
		if (!divides(d, &x->t[i], &t)) {
			if (x->t[i].deg || d->deg)
				return false;
			rest = x->t[i].c; /* a constant over a constant */
			t.c = rest / d->c;
			rest %= d->c;
			add_term(&r, &t, t.c);
			continue;
		}
		add_term(&r, &t, x->t[i].c / d->c);
	}
	if (d->deg ? rest != 0 && rest != -1 : rest <= -d->c || rest >= d->c)
		return false;
	pl_poly one;
	pl_poly_const(&one, rest < 0 ? -1 : 0);
	pl_poly_add(&r, &one, 1);
	if (r.bad)
		return false;
	*q = r;
	return true;
}

bool pl_poly_is_const(const pl_poly *p, int64_t *c)
{
	if (p->bad || p->n > 1 || (p->n == 1 && p->t[0].deg))
		return false;
	*c = p->n ? p->t[0].c : 0;
	return true;
}

bool pl_poly_nonneg(const pl_poly *p, uint32_t mask)
{
	if (p->bad)
		return false;
	for (int i = 0; i < p->n; i++) {
		if (p->t[i].c < 0)
			return false;
		for (int k = 0; k < p->t[i].deg; k++)
			if (!(mask >> p->t[i].atom[k] & 1))
				return false;
	}
	return true;
}

void pl_operand(const char *s, kt_str *out)
{
	size_t word = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"
	                        "OPQRSTUVWXYZ0123456789_");
	bool whole = s[0] == '(';
	for (size_t i = 0, depth = 0; whole && s[i]; i++) {
		depth += (s[i] == '(') - (s[i] == ')');
		whole = depth > 0 || !s[i + 1];
	}
	if (s[word] && !whole)
		kt_str_addf(out, "(%s)", s);
	else
		kt_str_adds(out, s);
}

void pl_poly_print(const pl_poly *p, const pl_atoms *A, kt_str *out)
{
	if (p->n == 0)
		kt_str_addc(out, '0');
	if (p->n == 1 && p->t[0].c == 1 && p->t[0].deg == 1) {
		kt_str_adds(out, A->text[p->t[0].atom[0]]); /* as written */
		return;
	}
	for (int i = 0; i < p->n; i++) {
		const pl_term *t = &p->t[i];
		/* |c| without overflow at INT64_MIN */
		uint64_t m = t->c < 0 ? 0 - (uint64_t)t->c : (uint64_t)t->c;
		if (i)
			kt_str_adds(out, t->c < 0 ? " - " : " + ");
		else if (t->c < 0)
			kt_str_addc(out, '-');
		if (m != 1 || t->deg == 0)
			kt_str_addf(out, "%llu%s", (unsigned long long)m,
			            t->deg ? " * " : "");
		for (int k = 0; k < t->deg; k++) {
			if (k)
				kt_str_adds(out, " * ");
			pl_operand(A->text[t->atom[k]], out);
		}
	}
}
