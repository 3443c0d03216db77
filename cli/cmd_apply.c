/*
 * cmd_apply.c - `ktc apply TEMPLATE RESULTS -o OUT`: the template with the
 * best configuration of a results file (T4 or ktc cache, from any backend)
 * fixed, as a file nvcc compiles with no -D flags.
 *
 * The design choice: the template is edited, not regenerated. Each
 * parameter gets a guarded definition
 *     #ifndef BLOCK
 *     #define BLOCK 128 // ktc apply
 *     #endif
 * inserted before the first line that uses it (outside pragmas and
 * comments), so the template's own `#ifndef BLOCK` default no longer
 * applies, a -D on the command line still wins (the output can be tuned
 * again), and the pragma's default(V) is set to the same value. Sets are
 * not defined: they follow from the parameters as the template computes
 * them.
 */
#include "cli/cmd.h"

#include "ktc/model.h"
#include "ktc/results.h"
#include "util/fs.h"
#include "util/opt.h"
#include "util/num.h"
#include "util/str.h"

#include <ctype.h>
#include <stdint.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct options {
	const char *out, *kernel;
} options;

/* The template's text as lines (pointers into text, not NUL-terminated). */
typedef struct lines {
	const char **start;
	size_t *len;
	bool *in_comment; /* the line starts inside a block comment */
	size_t n;
} lines;

static int split_lines(lines *l, const char *text)
{
	size_t cap = 1;
	for (const char *p = text; *p; p++)
		cap += *p == '\n';
	l->start = kt_calloc(cap, sizeof(*l->start));
	l->len = kt_calloc(cap, sizeof(*l->len));
	l->in_comment = kt_calloc(cap, sizeof(*l->in_comment));
	if (!l->start || !l->len || !l->in_comment)
		return -1;
	const char *p = text;
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		l->start[l->n] = p;
		l->len[l->n++] = n;
		p += n + (e != NULL);
	}
	return 0;
}

static void free_lines(lines *l)
{
	kt_free(l->start);
	kt_free(l->len);
	kt_free(l->in_comment);
}

static bool is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static bool is_pragma_kt(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && isspace((unsigned char)s[i]))
		i++;
	if (i >= n || s[i] != '#')
		return false;
	for (i++; i < n && isspace((unsigned char)s[i]); i++)
		;
	if (n - i < 6 || strncmp(s + i, "pragma", 6))
		return false;
	for (i += 6; i < n && isspace((unsigned char)s[i]); i++)
		;
	return n - i >= 2 && !strncmp(s + i, "kt", 2) &&
	       (n - i == 2 || !is_ident(s[i + 2]));
}

static bool continued(const lines *l, size_t i)
{
	return l->len[i] > 0 && l->start[i][l->len[i] - 1] == '\\';
}

/*
 * The first line where name is a token outside comments, strings and
 * `#pragma kt` lines (with their continuations), or n when none is. Marks
 * lines that start inside a block comment on the way.
 */
static size_t first_use(lines *l, const char *name)
{
	size_t nl = strlen(name), found = l->n;
	bool comment = false, pragma = false;
	for (size_t i = 0; i < l->n; i++) {
		const char *s = l->start[i];
		size_t n = l->len[i];
		l->in_comment[i] = comment;
		if (!comment && !pragma)
			pragma = is_pragma_kt(s, n);
		for (size_t k = 0; k < n && !pragma; k++) {
			if (comment) {
				if (s[k] == '*' && k + 1 < n && s[k + 1] == '/')
					comment = false, k++;
			} else if (s[k] == '/' && k + 1 < n &&
			           s[k + 1] == '*') {
				comment = true, k++;
			} else if (s[k] == '/' && k + 1 < n &&
			           s[k + 1] == '/') {
				break;
			} else if (s[k] == '"' || s[k] == '\'') {
				char q = s[k];
				for (k++; k < n && s[k] != q; k++)
					k += s[k] == '\\';
			} else if (found == l->n && !strncmp(s + k, name, nl) &&
			           k + nl <= n &&
			           (k == 0 || !is_ident(s[k - 1])) &&
			           (k + nl == n || !is_ident(s[k + nl]))) {
				found = i;
			} else if (is_ident(s[k])) {
				while (k + 1 < n && is_ident(s[k + 1]))
					k++;
			}
		}
		pragma = pragma && continued(l, i);
	}
	return found;
}

/* Moves an insertion point up to the start of its logical line and out of
 * a block comment, where a directive could not stand. */
static size_t insertion_line(const lines *l, size_t i)
{
	while (i > 0 && (continued(l, i - 1) || l->in_comment[i]))
		i--;
	return i;
}

static void format_value(char *buf, size_t n, kt_value v)
{
	if (!v.is_float) {
		snprintf(buf, n, v.i < 0 ? "(%lld)" : "%lld", (long long)v.i);
		return;
	}
	kt_num_float_literal(buf, n, v.f);
}

/* The best correct record: the smallest median time. */
static const kt_record *best_record(const kt_results *r)
{
	const kt_record *best = NULL;
	for (size_t i = 0; i < r->nrecords; i++) {
		const kt_result *x = &r->records[i].result;
		if (x->status == KT_STATUS_OK && isfinite(x->time_ms) &&
		    (!best || x->time_ms < best->result.time_ms))
			best = &r->records[i];
	}
	return best;
}

/* The best value of each model parameter, from the record's names. */
static int best_values(kt_value *out, const kt_model *m, const kt_results *r,
                       const kt_record *rec)
{
	for (size_t p = 0; p < m->nparams; p++) {
		size_t k = 0;
		while (k < r->info.nparams &&
		       strcmp(r->info.param_names[k], m->params[p].name))
			k++;
		if (k == r->info.nparams) {
			fprintf(stderr,
			        "ktc apply: the results have no value for "
			        "parameter '%s'\n",
			        m->params[p].name);
			return 1;
		}
		out[p] = rec->values[k];
	}
	return 0;
}

typedef struct edit {
	size_t
	    before; /* insert the definition before this line (n: at the end) */
	const char *name;
	char value[64];
	size_t first, last; /* the param's pragma: its lines, 0-based */
	size_t dline;       /* the line holding default(...), or SIZE_MAX */
	size_t dcol, dend;  /* its '(' + 1 and its ')' within that line */
} edit;

/* Finds default(...) in the pragma lines of e. */
static void find_default(edit *e, const lines *l)
{
	e->dline = SIZE_MAX;
	for (size_t i = e->first; i <= e->last && i < l->n; i++) {
		const char *t = l->start[i];
		size_t n = l->len[i];
		for (size_t k = 0; k + 8 <= n; k++) {
			if (strncmp(t + k, "default(", 8) ||
			    (k && is_ident(t[k - 1])))
				continue;
			const char *close = memchr(t + k, ')', n - k);
			if (!close)
				continue;
			e->dline = i;
			e->dcol = k + 8;
			e->dend = (size_t)(close - t);
		}
	}
}

static void emit_line(kt_str *s, const lines *l, size_t i, const edit *e,
                      size_t ne)
{
	const char *t = l->start[i];
	size_t n = l->len[i];
	for (size_t k = 0; k < ne; k++) {
		if (e[k].dline == i) {
			kt_str_add(s, t, e[k].dcol);
			kt_str_adds(s, e[k].value);
			kt_str_add(s, t + e[k].dend, n - e[k].dend);
			return;
		}
		if (e[k].dline == SIZE_MAX && e[k].last == i) {
			kt_str_add(s, t, n);
			kt_str_addf(s, " default(%s)", e[k].value);
			return;
		}
	}
	kt_str_add(s, t, n);
}

/* Writes the edited template: definitions before first uses, defaults. */
static void rewrite(kt_str *s, const lines *l, const edit *e, size_t ne)
{
	for (size_t i = 0; i <= l->n; i++) {
		for (size_t k = 0; k < ne; k++)
			if (e[k].before == i)
				kt_str_addf(s,
				            "#ifndef %s\n#define %s %s // ktc "
				            "apply\n#endif\n",
				            e[k].name, e[k].name, e[k].value);
		if (i == l->n)
			break;
		emit_line(s, l, i, e, ne);
		if (i + 1 < l->n || l->start[i][l->len[i]] == '\n')
			kt_str_addc(s, '\n');
	}
}

static int plan_edits(edit *e, lines *l, const kt_model *m, const kt_value *v)
{
	for (size_t p = 0; p < m->nparams; p++) {
		e[p].name = m->params[p].name;
		format_value(e[p].value, sizeof(e[p].value), v[p]);
		e[p].first = e[p].last = (size_t)(m->params[p].loc.line - 1);
		while (e[p].last + 1 < l->n && continued(l, e[p].last))
			e[p].last++;
		find_default(&e[p], l);
		size_t use = first_use(l, e[p].name);
		e[p].before = use == l->n ? l->n : insertion_line(l, use);
		if (use == l->n)
			fprintf(stderr,
			        "ktc apply: warning: '%s' is not used outside "
			        "its pragma; defined at the end\n",
			        e[p].name);
	}
	return 0;
}

static void header(kt_str *s, const kt_results *r, const kt_record *rec,
                   const char *results_path)
{
	kt_str_addf(
	    s, "// ktc apply: the best configuration in %s (%s", results_path,
	    r->info.device.name[0] ? r->info.device.name : "unknown device");
	for (size_t i = 0; i < r->info.nproblems; i++) {
		char v[64];
		format_value(v, sizeof(v), r->info.problem[i]);
		kt_str_addf(s, "%s%s=%s", i ? "," : ", ",
		            r->info.problem_names[i], v);
	}
	kt_str_addf(s, "): %.6g ms\n", rec->result.time_ms);
}

static int apply(const options *o, const char *tpath, const char *rpath)
{
	kt_diags d;
	kt_diags_init(&d);
	kt_template *t = NULL;
	kt_results *r = NULL;
	lines l = {0};
	kt_value *v = NULL;
	edit *e = NULL;
	kt_str out = KT_STR_INIT;
	int status = 1;
	if (kt_template_load(&t, tpath, &d)) {
		kt_diags_print(&d, stderr, isatty(2));
		if (!d.errors)
			fprintf(stderr, "ktc apply: %s\n", kt_error_last());
		goto done;
	}
	const kt_model *m = kt_template_model(t, o->kernel);
	if (!m) {
		fprintf(stderr,
		        "ktc apply: no annotated kernel%s%s in '%s' (name "
		        "one with --kernel)\n",
		        o->kernel ? " " : "", o->kernel ? o->kernel : "",
		        tpath);
		goto done;
	}
	if (kt_fs_same_file(o->out, rpath) || !strcmp(o->out, rpath)) {
		fprintf(stderr,
		        "ktc apply: -o '%s' is the results file; refusing to "
		        "replace it\n",
		        o->out);
		goto done;
	}
	if (kt_results_load(&r, rpath)) {
		fprintf(stderr, "ktc apply: %s\n", kt_error_last());
		goto done;
	}
	if (r->info.kernel && *r->info.kernel &&
	    strcmp(r->info.kernel, m->kernel)) {
		fprintf(stderr,
		        "ktc apply: '%s' has results for kernel '%s', not "
		        "'%s'\n",
		        rpath, r->info.kernel, m->kernel);
		goto done;
	}
	const kt_record *best = best_record(r);
	if (!best) {
		fprintf(stderr,
		        "ktc apply: '%s' has no correct configuration\n",
		        rpath);
		goto done;
	}
	v = kt_calloc(m->nparams + 1, sizeof(*v));
	e = kt_calloc(m->nparams + 1, sizeof(*e));
	if (!v || !e || split_lines(&l, t->source) ||
	    best_values(v, m, r, best))
		goto done;
	if (r->info.template_hash &&
	    r->info.template_hash !=
	        kt_hash(KT_HASH_INIT, t->source, strlen(t->source)))
		fprintf(stderr,
		        "ktc apply: warning: '%s' has changed since the "
		        "results were recorded\n",
		        tpath);
	plan_edits(e, &l, m, v);
	header(&out, r, best, rpath);
	rewrite(&out, &l, e, m->nparams);
	if (kt_fs_write_atomic(o->out, out.ptr, out.len)) {
		fprintf(stderr, "ktc apply: %s\n", kt_error_last());
		goto done;
	}
	printf("%s:", o->out);
	for (size_t p = 0; p < m->nparams; p++)
		printf("%s%s=%s", p ? "," : " ", e[p].name, e[p].value);
	printf(" (%.6g ms)\n", best->result.time_ms);
	status = 0;
done:
	kt_str_release(&out);
	kt_free(v);
	kt_free(e);
	free_lines(&l);
	kt_results_free(r);
	kt_template_free(t);
	kt_diags_release(&d);
	return status;
}

int cmd_apply(int argc, char **argv)
{
	options o = {0};
	const kt_opt opts[] = {
	    KT_OPT_STRING_(
	        'o', "output", &o.out, "FILE",
	        "where to write the template with its best values fixed"),
	    KT_OPT_STRING_('k', "kernel", &o.kernel, "NAME",
	                   "the kernel (needed when TEMPLATE has several)"),
	    KT_OPT_END_,
	};
	const kt_cmd_info info = {
	    .usage = "ktc apply [options] TEMPLATE RESULTS -o OUT",
	    .summary = "Writes TEMPLATE with the best correct configuration of "
	               "RESULTS (a T4 file or a\nktc cache, from any backend) "
	               "fixed: each parameter defined before its first\nuse "
	               "(guarded by #ifndef, so -D still overrides) and set as "
	               "its pragma's default.",
	    .opts = opts,
	};
	static char name[] = "ktc apply";
	int npos = 0;
	argv[0] = name; /* for the option parser's messages */
	int rc = kt_opt_parse(&info, argc, argv, &npos);
	if (rc)
		return rc > 0 ? 0 : 2;
	if (npos != 2 || !o.out) {
		fprintf(stderr, "usage: %s (see 'ktc apply --help')\n",
		        info.usage);
		return 2;
	}
	return apply(&o, argv[0], argv[1]);
}
