/*
 * apply.c - a template with one configuration fixed, as a file that
 * compiles with no -D flags (`ktc apply`, kt_template_apply).
 *
 * The design choice: the template is edited, not regenerated. Each
 * parameter gets a guarded definition
 *     #ifndef BLOCK
 *     #define BLOCK 128 // ktc apply
 *     #endif
 * inserted before the first line that uses it, so the template's own
 * `#ifndef BLOCK` default no longer applies, a -D on the command line still
 * wins (the output can be tuned again), and the pragma's default(V) is set
 * to the same value. The first use is found by the parser's own scanner
 * (comments, strings and `#pragma kt` lines skipped as the parser skips
 * them) and default(...) by the pragma lexer, so the edit reads the file
 * exactly as the parse did. Sets are not defined: they follow from the
 * parameters as the template computes them.
 */
#include "grammar/grammar.h"

#include "util/num.h"
#include "util/str.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One edit of the text: bytes [from, to) replaced by text. */
typedef struct edit {
	size_t from, to;
	const char *text; /* arena */
} edit;

void kt_value_format(char *buf, size_t n, kt_value v)
{
	if (!v.is_float) {
		snprintf(buf, n, v.i < 0 ? "(%lld)" : "%lld", (long long)v.i);
		return;
	}
	kt_num_float_literal(buf, n, v.f);
}

static size_t offset_of(const gram *g, kt_loc loc)
{
	return g->lines[loc.line - 1] + (size_t)(loc.col - 1);
}

/* The `#pragma kt` line holding byte off. */
static const pragma_line *pragma_at(const pragma_line *pl, size_t n, size_t off)
{
	for (size_t i = 0; i < n; i++)
		if (pl[i].hash <= off && off < pl[i].end)
			return &pl[i];
	return NULL;
}

/* default(...) of the pragma: its value's bytes become value, or, without
 * one, " default(value)" follows the pragma's last token. */
static edit default_edit(gram *g, const pragma_line *pl, const char *value)
{
	lexer lx;
	edit e = {0};
	bool found = false;
	lex_init(&lx, g, pl->body, pl->end);
	while (lx.tok.kind != TOK_EOL) {
		if (!lex_is_ident(&lx, "default")) {
			lex_next(&lx);
			continue;
		}
		lex_next(&lx);
		if (!lex_is(&lx, '('))
			continue;
		size_t from = lx.tok.off + lx.tok.len;
		int depth = 1;
		for (lex_next(&lx); lx.tok.kind != TOK_EOL; lex_next(&lx)) {
			depth += lex_is(&lx, '(') - lex_is(&lx, ')');
			if (depth == 0)
				break;
		}
		if (depth == 0) {
			e.from = from;
			e.to = lx.tok.off;
			found = true;
		}
	}
	if (found) {
		e.text = gram_printf(g, "%s", value);
	} else {
		e.from = e.to = lx.prev_end;
		e.text = gram_printf(g, " default(%s)", value);
	}
	return e;
}

/* The guarded definition, before the line of the first use (or at the end
 * of the file, with a warning, when there is none). */
static edit define_edit(gram *g, const kt_param *p, const char *value)
{
	edit e = {0};
	size_t use, line;
	const char *nl = "";
	if (scan_use(g, p->name, &use, &line)) {
		e.from = e.to = line;
	} else {
		e.from = e.to = g->textlen;
		if (g->textlen && g->text[g->textlen - 1] != '\n')
			nl = "\n";
		gram_diag_at(g, KT_DIAG_WARNING, p->loc, (int)strlen(p->name),
		             "'%s' is not used outside its pragma; defined "
		             "at the end of the file",
		             p->name);
	}
	e.text =
	    gram_printf(g, "%s#ifndef %s\n#define %s %s // ktc apply\n#endif\n",
	                nl, p->name, p->name, value);
	return e;
}

static int apply_edits(kt_str *s, const gram *g, edit *e, size_t n)
{
	/* In text order; an insertion sort is stable, so edits at one place
	 * keep the parameters' order. */
	for (size_t i = 1; i < n; i++)
		for (size_t k = i; k > 0 && e[k - 1].from > e[k].from; k--) {
			edit t = e[k];
			e[k] = e[k - 1];
			e[k - 1] = t;
		}
	size_t at = 0;
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		rc = kt_str_add(s, g->text + at, e[i].from - at);
		if (!rc)
			rc = kt_str_adds(s, e[i].text);
		at = e[i].to;
	}
	return rc ? rc : kt_str_add(s, g->text + at, g->textlen - at);
}

/*
 * A value outside its parameter's domain (results of another version of
 * the template, or a hand-edited file) is refused at the parameter's
 * pragma: the template would otherwise default to a value it never allows.
 */
static int in_domain(const kt_param *p, kt_value v, const char *value)
{
	for (size_t i = 0; i < p->nvalues; i++)
		if (kt_value_as_double(p->values[i]) == kt_value_as_double(v))
			return 0;
	return kt_error(KT_EINVALID,
	                "%s:%d:%d: the value %s of '%s' is not in its domain "
	                "(%zu values); refusing to apply it",
	                p->loc.file, p->loc.line, p->loc.col, value, p->name,
	                p->nvalues);
}

static int edit_all(kt_str *s, gram *g, const kt_model *m,
                    const kt_value *values)
{
	pragma_line *pl;
	size_t npl;
	edit *e = gram_alloc(g, 2 * (m->nparams + 1) * sizeof(*e));
	scan_pragmas(g, &pl, &npl);
	for (size_t p = 0; p < m->nparams; p++) {
		char value[64];
		kt_value_format(value, sizeof(value), values[p]);
		int rc = in_domain(&m->params[p], values[p], value);
		if (rc)
			return rc;
		const pragma_line *line =
		    pragma_at(pl, npl, offset_of(g, m->params[p].loc));
		if (!line)
			return kt_error(KT_EINVALID,
			                "parameter '%s' is not in '%s'",
			                m->params[p].name, g->file);
		e[2 * p] = define_edit(g, &m->params[p], value);
		e[2 * p + 1] = default_edit(g, line, value);
	}
	return apply_edits(s, g, e, 2 * m->nparams);
}

/* What one edit of a template's text does: its edits, into s. */
typedef int (*edit_fn)(kt_str *s, gram *g, const kt_model *m, const void *arg);

/* Runs fn over t's text with a grammar set up as the parser reads it; the
 * edited text in *out (the caller's). */
static int edit_template(char **out, const kt_template *t, const kt_model *m,
                         edit_fn fn, const void *arg, kt_diags *diags)
{
	kt_arena arena;
	kt_diags scratch;
	kt_str s = KT_STR_INIT;
	*out = NULL;
	kt_arena_init(&arena);
	kt_diags_init(&scratch);
	gram g = {.arena = &arena,
	          .diags = diags ? diags : &scratch,
	          .file = t->path,
	          .text = t->source,
	          .textlen = strlen(t->source)};
	int rc;
	if (setjmp(g.oom)) {
		rc = kt_error(KT_ENOMEM, "out of memory editing '%s'", t->path);
		goto done;
	}
	gram_index_lines(&g);
	rc = fn(&s, &g, m, arg);
	if (!rc && !(*out = kt_str_detach(&s)))
		rc = kt_error(KT_ENOMEM, "out of memory");
done:
	kt_str_release(&s);
	kt_diags_release(&scratch);
	kt_arena_release(&arena);
	return rc;
}

static int apply_values(kt_str *s, gram *g, const kt_model *m, const void *arg)
{
	return edit_all(s, g, m, arg);
}

int kt_template_apply(char **out, const kt_template *t, const kt_model *m,
                      const kt_value *values, kt_diags *diags)
{
	return edit_template(out, t, m, apply_values, values, diags);
}

/* ---- narrowing domains (kt_template_restrict) ---- */

/*
 * The domain clauses of a param pragma: the first (values, range or pow2)
 * becomes `values(list)`, any other is removed with the blank before it.
 * Returns the number of edits written to e (at most 3).
 */
static size_t domain_edits(gram *g, const pragma_line *pl, const char *list,
                           edit *e)
{
	static const char *const kinds[] = {"values", "range", "pow2"};
	lexer lx;
	size_t n = 0;
	lex_init(&lx, g, pl->body, pl->end);
	while (lx.tok.kind != TOK_EOL && n < 3) {
		bool domain = false;
		for (size_t k = 0; k < 3; k++)
			domain |= lex_is_ident(&lx, kinds[k]);
		size_t before = lx.prev_end, from = lx.tok.off;
		lex_next(&lx);
		if (!domain || !lex_is(&lx, '('))
			continue;
		int depth = 1;
		for (lex_next(&lx); lx.tok.kind != TOK_EOL; lex_next(&lx)) {
			depth += lex_is(&lx, '(') - lex_is(&lx, ')');
			if (depth == 0)
				break;
		}
		if (depth != 0)
			break;
		size_t to = lx.tok.off + lx.tok.len;
		if (n == 0)
			e[n++] = (edit){from, to,
			                gram_printf(g, "values(%s)", list)};
		else
			e[n++] = (edit){before, to, ""};
		lex_next(&lx);
	}
	return n;
}

static int restrict_all(kt_str *s, gram *g, const kt_model *m,
                        const bool *const *keep)
{
	pragma_line *pl;
	size_t npl, n = 0;
	edit *e = gram_alloc(g, 3 * (m->nparams + 1) * sizeof(*e));
	scan_pragmas(g, &pl, &npl);
	for (size_t p = 0; p < m->nparams; p++) {
		const kt_param *pp = &m->params[p];
		bool narrowed = false;
		kt_str list = KT_STR_INIT;
		for (size_t k = 0; k < pp->nvalues; k++) {
			if (!keep[p][k] && k != pp->default_index) {
				narrowed = true;
				continue;
			}
			char v[64];
			kt_value_format(v, sizeof(v), pp->values[k]);
			if (kt_str_addf(&list, "%s%s", list.len ? ", " : "",
			                v)) {
				kt_str_release(&list);
				return kt_error(KT_ENOMEM, "out of memory");
			}
		}
		const pragma_line *line =
		    pragma_at(pl, npl, offset_of(g, pp->loc));
		if (narrowed && line)
			n += domain_edits(
			    g, line, gram_printf(g, "%s", list.ptr), &e[n]);
		kt_str_release(&list);
		if (narrowed && !line)
			return kt_error(KT_EINVALID,
			                "parameter '%s' is not in '%s'",
			                pp->name, g->file);
	}
	return apply_edits(s, g, e, n);
}

static int restrict_values(kt_str *s, gram *g, const kt_model *m,
                           const void *arg)
{
	return restrict_all(s, g, m, arg);
}

int kt_template_restrict(char **out, const kt_template *t, const kt_model *m,
                         const bool *const *keep)
{
	return edit_template(out, t, m, restrict_values, keep, NULL);
}
