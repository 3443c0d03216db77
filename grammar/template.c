/*
 * template.c - the public entry points of grammar/ (kt_template_parse and
 * friends) and the helpers every grammar file shares: arena allocation
 * that unwinds on failure, positions, diagnostics and "did you mean".
 */
#include "grammar/grammar.h"

#include "util/fs.h"

#include <stdio.h>
#include <string.h>

/* The template and its arena, allocated together. */
typedef struct holder {
	kt_template t;
	kt_arena arena;
} holder;

void *gram_alloc(gram *g, size_t n)
{
	void *p = kt_arena_alloc(g->arena, n ? n : 1);
	if (!p)
		longjmp(g->oom, 1);
	return p;
}

char *gram_strndup(gram *g, const char *s, size_t n)
{
	char *p = gram_alloc(g, n + 1);
	memcpy(p, s, n);
	return p;
}

char *gram_printf(gram *g, const char *fmt, ...)
{
	va_list ap, cp;
	va_start(ap, fmt);
	va_copy(cp, ap);
	int n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	char *p = gram_alloc(g, n < 0 ? 1 : (size_t)n + 1);
	if (n >= 0)
		vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void gram_grow(gram *g, void **items, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return;
	size_t ncap = *cap ? *cap * 2 : 8;
	while (ncap < need)
		ncap *= 2;
	void *p = gram_alloc(g, ncap * elem);
	if (*items)
		memcpy(p, *items, *cap * elem);
	*items = p;
	*cap = ncap;
}

void gram_index_lines(gram *g)
{
	size_t n = 1, cap = 0;
	for (size_t i = 0; i < g->textlen; i++)
		n += g->text[i] == '\n';
	g->lines = NULL;
	gram_grow(g, (void **)&g->lines, &cap, n, sizeof(size_t));
	g->nlines = 0;
	g->lines[g->nlines++] = 0;
	for (size_t i = 0; i < g->textlen; i++)
		if (g->text[i] == '\n')
			g->lines[g->nlines++] = i + 1;
}

kt_loc gram_loc(const gram *g, size_t off)
{
	size_t lo = 0, hi = g->nlines;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (g->lines[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	kt_loc l = {g->file, (int)lo + 1, (int)(off - g->lines[lo]) + 1};
	return l;
}

static void add_diag(gram *g, kt_severity sev, kt_loc loc, int len,
                     const char *msg)
{
	const char *text = loc.line > 0 ? g->text : NULL;
	if (kt_diags_add(g->diags, sev, g->file, text, loc.line, loc.col, len,
	                 "%s", msg))
		longjmp(g->oom, 1);
}

void gram_vdiag(gram *g, kt_severity sev, size_t off, size_t len,
                const char *fmt, va_list ap)
{
	char msg[1024];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (off > g->textlen)
		off = g->textlen;
	kt_loc loc = gram_loc(g, off);
	/* Underline no further than the end of the line. */
	size_t rest = strcspn(g->text + off, "\r\n");
	if (len > rest)
		len = rest;
	add_diag(g, sev, loc, len ? (int)len : 1, msg);
}

void gram_diag(gram *g, kt_severity sev, size_t off, size_t len,
               const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	gram_vdiag(g, sev, off, len, fmt, ap);
	va_end(ap);
}

void gram_diag_at(gram *g, kt_severity sev, kt_loc loc, int len,
                  const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	add_diag(g, sev, loc, len, msg);
}

/* Edit distance counting a swap of neighbours as one edit (optimal string
 * alignment), since "defualt" is one slip, not two. Names are short. */
static size_t distance(const char *a, size_t na, const char *b, size_t nb)
{
	size_t d[3][65]; /* rows i-2, i-1, i, by i % 3 */
	if (na > 64 || nb > 64)
		return SIZE_MAX;
	for (size_t j = 0; j <= nb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= na; i++) {
		size_t *cur = d[i % 3], *up = d[(i - 1) % 3],
		       *up2 = d[(i + 1) % 3];
		cur[0] = i;
		for (size_t j = 1; j <= nb; j++) {
			size_t best = up[j - 1] + (a[i - 1] != b[j - 1]);
			if (up[j] + 1 < best)
				best = up[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && up2[j - 2] + 1 < best)
				best = up2[j - 2] + 1;
			cur[j] = best;
		}
	}
	return d[na % 3][nb];
}

/* Names of three or more characters get a suggestion when a few edits
 * away, or when they begin a longer name ("rand" for "random"). */
const char *gram_suggest(const char *name, size_t len, const char *const *cands,
                         size_t ncands)
{
	const char *best = NULL;
	size_t best_d = len < 3 ? 0 : len < 6 ? 1 : len < 9 ? 2 : 3;
	for (size_t i = 0; i < ncands; i++) {
		size_t n = strlen(cands[i]);
		size_t d = distance(name, len, cands[i], n);
		if (len >= 3 && n > len && !memcmp(cands[i], name, len))
			d = 1;
		if (d > 0 && d <= best_d && (!best || d < best_d)) {
			best = cands[i];
			best_d = d;
		}
	}
	return best;
}

static int parse_into(holder *h, gram *g, const char *path, const char *text)
{
	if (setjmp(g->oom))
		return kt_error(KT_ENOMEM, "out of memory parsing '%s'", path);
	size_t len = strlen(text);
	g->file = gram_strndup(g, path, strlen(path));
	g->text = gram_strndup(g, text, len);
	g->textlen = len;
	gram_index_lines(g);
	h->t.path = (char *)g->file;
	h->t.source = (char *)g->text;
	scan_file(g, &h->t.models, &h->t.nmodels);
	return 0;
}

int kt_template_parse(kt_template **out, const char *path, const char *text,
                      kt_diags *diags)
{
	*out = NULL;
	holder *h = kt_calloc(1, sizeof(*h));
	if (!h)
		return kt_error(KT_ENOMEM, "out of memory");
	kt_arena_init(&h->arena);
	h->t.internal_ = &h->arena;
	gram g = {.arena = &h->arena, .diags = diags};
	int errors = diags->errors;
	int rc = parse_into(h, &g, path ? path : "<input>", text ? text : "");
	if (!rc && diags->errors > errors)
		rc = kt_error(KT_EPARSE,
		              "'%s' has errors in its '#pragma kt' "
		              "lines",
		              path ? path : "<input>");
	if (rc) {
		kt_template_free(&h->t);
		return rc;
	}
	*out = &h->t;
	return 0;
}

int kt_template_lines(kt_pragma_text **out, size_t *n, const char *text,
                      size_t len)
{
	*out = NULL;
	*n = 0;
	kt_arena arena;
	kt_diags quiet;
	kt_arena_init(&arena);
	kt_diags_init(&quiet);
	gram g = {.arena = &arena, .diags = &quiet};
	int rc = 0;
	if (setjmp(g.oom)) {
		rc = kt_error(KT_ENOMEM, "out of memory");
	} else {
		g.text = text ? text : "";
		g.textlen = text ? len : 0;
		kt_pragma_text *lines;
		size_t nlines;
		scan_lines(&g, &lines, &nlines);
		*out = nlines ? kt_malloc(nlines * sizeof(**out)) : NULL;
		if (nlines && !*out)
			rc = kt_error(KT_ENOMEM, "out of memory");
		else if (nlines)
			memcpy(*out, lines, nlines * sizeof(**out));
		*n = *out ? nlines : 0;
	}
	kt_diags_release(&quiet);
	kt_arena_release(&arena);
	return rc;
}

int kt_template_load(kt_template **out, const char *path, kt_diags *diags)
{
	char *text;
	*out = NULL;
	int rc = kt_fs_read(&text, NULL, path);
	if (rc)
		return rc;
	rc = kt_template_parse(out, path, text, diags);
	kt_free(text);
	return rc;
}

void kt_template_free(kt_template *t)
{
	if (!t)
		return;
	holder *h = (holder *)t; /* t is the first member */
	kt_arena_release(&h->arena);
	kt_free(h);
}

const kt_model *kt_template_model(const kt_template *t, const char *name)
{
	if (!t)
		return NULL;
	if (!name)
		return t->nmodels == 1 ? &t->models[0] : NULL;
	for (size_t i = 0; i < t->nmodels; i++)
		if (!strcmp(t->models[i].kernel, name))
			return &t->models[i];
	return NULL;
}

int kt_model_symbol(const kt_model *m, const char *name)
{
	for (size_t i = 0; m && name && i < m->nsymbols; i++)
		if (!strcmp(m->symbols[i].name, name))
			return (int)i;
	return -1;
}
