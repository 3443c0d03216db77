/*
 * diff.c - unified diffs of two texts, line by line, for code review of an
 * annotation (`ktc annotate --diff`).
 *
 * Design choice: Myers' O(ND) algorithm in its linear-space form (the middle
 * snake, as GNU diff's compareseq), so a diff of two large, unrelated files
 * costs memory proportional to their length, never to the product of their
 * lengths. The result is two change marks per line; hunks are cut from those
 * marks with the usual context, in the format `patch -p1` and `git apply`
 * accept.
 */
#include "rewriter/rewriter.h"

#include "ktc/common.h"

#include <string.h>

typedef struct line {
	const char *p;
	size_t len; /* with the newline, if any */
	uint64_t hash;
} line;

typedef struct lines {
	line *items;
	size_t n;
} lines;

typedef struct ctx {
	const line *a, *b;
	char *del, *ins; /* change marks per line of a and of b */
	long *vf, *vb;   /* furthest x per diagonal, offset by `off` */
	long off;
} ctx;

static uint64_t hash_bytes(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 0x100000001b3ULL;
	return h;
}

static int split_lines(lines *out, const char *s, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		n += s[i] == '\n';
	n += len > 0 && s[len - 1] != '\n';
	out->n = n;
	out->items = kt_calloc(n ? n : 1, sizeof(line));
	if (!out->items)
		return kt_error(KT_ENOMEM, "out of memory");
	size_t k = 0, start = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] != '\n' && i + 1 < len)
			continue;
		line *l = &out->items[k++];
		l->p = s + start;
		l->len = i + 1 - start;
		l->hash = hash_bytes(l->p, l->len);
		start = i + 1;
	}
	return 0;
}

static int same(const ctx *c, long i, long j)
{
	const line *x = &c->a[i], *y = &c->b[j];
	return x->hash == y->hash && x->len == y->len &&
	       !memcmp(x->p, y->p, x->len);
}

/*
 * Finds a point (x, y) on an optimal edit path of a[alo, ahi) and
 * b[blo, bhi), both non-empty and with different first and last lines.
 */
static void middle(const ctx *c, long alo, long ahi, long blo, long bhi,
                   long *xm, long *ym)
{
	long n = ahi - alo, m = bhi - blo, delta = n - m;
	int odd = delta & 1;
	long *vf = c->vf + c->off, *vb = c->vb + c->off;
	vf[1] = 0;
	vb[delta + 1] = n + 1;
	for (long d = 0; d <= (n + m + 1) / 2; d++) {
		for (long k = -d; k <= d; k += 2) {
			long x = (k == -d || (k != d && vf[k - 1] < vf[k + 1]))
			             ? vf[k + 1]
			             : vf[k - 1] + 1;
			long y = x - k;
			while (x < n && y < m && same(c, alo + x, blo + y))
				x++, y++;
			vf[k] = x;
			if (odd && k >= delta - (d - 1) &&
			    k <= delta + (d - 1) && vb[k] <= x) {
				*xm = alo + x, *ym = blo + y;
				return;
			}
		}
		for (long k = delta - d; k <= delta + d; k += 2) {
			long x = (k == delta - d ||
			          (k != delta + d && vb[k + 1] - 1 < vb[k - 1]))
			             ? vb[k + 1] - 1
			             : vb[k - 1];
			long y = x - k;
			while (x > 0 && y > 0 &&
			       same(c, alo + x - 1, blo + y - 1))
				x--, y--;
			vb[k] = x;
			if (!odd && k >= -d && k <= d && x <= vf[k]) {
				*xm = alo + x, *ym = blo + y;
				return;
			}
		}
	}
	*xm = ahi, *ym = bhi; /* not reached for non-empty inputs */
}

static void compare(ctx *c, long alo, long ahi, long blo, long bhi)
{
	while (alo < ahi && blo < bhi && same(c, alo, blo))
		alo++, blo++;
	while (alo < ahi && blo < bhi && same(c, ahi - 1, bhi - 1))
		ahi--, bhi--;
	if (alo == ahi || blo == bhi) {
		memset(c->del + alo, 1, (size_t)(ahi - alo));
		memset(c->ins + blo, 1, (size_t)(bhi - blo));
		return;
	}
	long x, y;
	middle(c, alo, ahi, blo, bhi, &x, &y);
	if ((x == alo && y == blo) || (x == ahi && y == bhi)) {
		/* cannot happen; marking everything keeps the diff correct */
		memset(c->del + alo, 1, (size_t)(ahi - alo));
		memset(c->ins + blo, 1, (size_t)(bhi - blo));
		return;
	}
	compare(c, alo, x, blo, y);
	compare(c, x, ahi, y, bhi);
}

static int add_line(kt_str *out, char mark, const line *l)
{
	int rc = kt_str_addc(out, mark);
	if (!rc)
		rc = kt_str_add(out, l->p, l->len);
	if (!rc && (l->len == 0 || l->p[l->len - 1] != '\n'))
		rc = kt_str_adds(out, "\n\\ No newline at end of file\n");
	return rc;
}

/* GNU diff's range: "l" for one line, "l,n" otherwise, "l-1,0" for none. */
static int add_range(kt_str *out, char sign, size_t start, size_t count)
{
	if (count == 1)
		return kt_str_addf(out, "%c%zu", sign, start + 1);
	return kt_str_addf(out, "%c%zu,%zu", sign, count ? start + 1 : start,
	                   count);
}

/* Emits one hunk: a[a0, a1) against b[b0, b1), both ends in equal lines. */
static int add_hunk(kt_str *out, const ctx *c, size_t a0, size_t a1, size_t b0,
                    size_t b1)
{
	int rc = kt_str_adds(out, "@@ ");
	if (!rc)
		rc = add_range(out, '-', a0, a1 - a0);
	if (!rc)
		rc = kt_str_addc(out, ' ');
	if (!rc)
		rc = add_range(out, '+', b0, b1 - b0);
	if (!rc)
		rc = kt_str_adds(out, " @@\n");
	size_t i = a0, j = b0;
	while (!rc && (i < a1 || j < b1)) {
		if (i < a1 && c->del[i])
			rc = add_line(out, '-', &c->a[i++]);
		else if (j < b1 && c->ins[j])
			rc = add_line(out, '+', &c->b[j++]);
		else {
			rc = add_line(out, ' ', &c->a[i++]);
			j++;
		}
	}
	return rc;
}

/* Advances (i, j) over equal lines; returns how many were skipped. */
static size_t skip_equal(const ctx *c, size_t na, size_t nb, size_t *i,
                         size_t *j)
{
	size_t k = 0;
	while (*i < na && *j < nb && !c->del[*i] && !c->ins[*j])
		(*i)++, (*j)++, k++;
	return k;
}

static size_t skip_changes(const ctx *c, size_t na, size_t nb, size_t *i,
                           size_t *j)
{
	size_t k = 0;
	for (;;) {
		if (*i < na && c->del[*i])
			(*i)++, k++;
		else if (*j < nb && c->ins[*j])
			(*j)++, k++;
		else
			return k;
	}
}

static int emit_hunks(kt_str *out, const ctx *c, size_t na, size_t nb,
                      size_t context)
{
	size_t i = 0, j = 0;
	skip_equal(c, na, nb, &i, &j);
	while (i < na || j < nb) {
		size_t lead = i < context ? i : context;
		size_t a0 = i - lead, b0 = j - lead;
		size_t a1, b1;
		for (;;) {
			skip_changes(c, na, nb, &i, &j);
			a1 = i, b1 = j;
			size_t eq = skip_equal(c, na, nb, &i, &j);
			int last = i >= na && j >= nb;
			if (last || eq > 2 * context) {
				size_t tail = eq < context ? eq : context;
				a1 += tail, b1 += tail;
				if (last)
					i = na, j = nb;
				break;
			}
		}
		int rc = add_hunk(out, c, a0, a1, b0, b1);
		if (rc)
			return rc;
	}
	return 0;
}

int kt_diff_unified(kt_str *out, const char *a, size_t alen, const char *b,
                    size_t blen, const char *name_a, const char *name_b,
                    int context)
{
	lines la = {0}, lb = {0};
	ctx c = {0};
	int rc = split_lines(&la, a, alen);
	if (!rc)
		rc = split_lines(&lb, b, blen);
	if (rc)
		goto done;
	size_t span = la.n + lb.n + 3;
	c.a = la.items, c.b = lb.items;
	c.del = kt_calloc(la.n + 1, 1);
	c.ins = kt_calloc(lb.n + 1, 1);
	/* diagonals reach -(n + m) - d .. (n + m) + d, d <= (n + m + 1) / 2 */
	c.vf = kt_calloc(4 * span, sizeof(long));
	c.vb = kt_calloc(4 * span, sizeof(long));
	c.off = (long)(2 * span);
	if (!c.del || !c.ins || !c.vf || !c.vb) {
		rc = kt_error(KT_ENOMEM, "out of memory");
		goto done;
	}
	compare(&c, 0, (long)la.n, 0, (long)lb.n);
	if (!memchr(c.del, 1, la.n) && !memchr(c.ins, 1, lb.n))
		goto done; /* equal texts: an empty diff */
	rc = kt_str_addf(out, "--- %s\n+++ %s\n", name_a, name_b);
	if (!rc)
		rc = emit_hunks(out, &c, la.n, lb.n,
		                (size_t)(context < 0 ? 0 : context));
done:
	kt_free(la.items);
	kt_free(lb.items);
	kt_free(c.del);
	kt_free(c.ins);
	kt_free(c.vf);
	kt_free(c.vb);
	return rc;
}
