/*
 * diag.c - compiler-style diagnostics: file:line:col, the source line and a
 * caret with tildes under the span.
 */
#include "ktc/diag.h"

#include "util/str.h"
#include "util/vec.h"

#include <stdarg.h>
#include <string.h>

void kt_diags_init(kt_diags *d)
{
	memset(d, 0, sizeof(*d));
}

void kt_diags_release(kt_diags *d)
{
	for (size_t i = 0; i < d->len; i++) {
		kt_free(d->items[i].file);
		kt_free(d->items[i].message);
		kt_free(d->items[i].source);
	}
	kt_free(d->items);
	kt_diags_init(d);
}

static char *copy_line(const char *text, int line)
{
	if (!text || line < 1)
		return NULL;
	const char *p = text;
	for (int l = 1; l < line; l++) {
		p = strchr(p, '\n');
		if (!p)
			return NULL;
		p++;
	}
	size_t n = strcspn(p, "\r\n");
	return kt_strndup(p, n);
}

int kt_diags_add(kt_diags *d, kt_severity sev, const char *file,
                 const char *text, int line, int col, int len, const char *fmt,
                 ...)
{
	kt_diag g = {.severity = sev, .line = line, .col = col};
	g.len = len > 0 ? len : 1;
	kt_str msg = KT_STR_INIT;
	va_list ap;
	va_start(ap, fmt);
	int rc = kt_str_vaddf(&msg, fmt, ap);
	va_end(ap);
	if (rc)
		return rc;
	g.message = kt_str_detach(&msg);
	g.file = file ? kt_strdup(file) : NULL;
	g.source = copy_line(text, line);
	if (!g.message || kt_vec_reserve(d, d->len + 1)) {
		kt_free(g.message);
		kt_free(g.file);
		kt_free(g.source);
		return kt_error(KT_ENOMEM, "out of memory");
	}
	d->items[d->len++] = g;
	if (sev == KT_DIAG_ERROR)
		d->errors++;
	else if (sev == KT_DIAG_WARNING)
		d->warnings++;
	return 0;
}

static const char *sev_name(kt_severity s)
{
	switch (s) {
	case KT_DIAG_ERROR: return "error";
	case KT_DIAG_WARNING: return "warning";
	default: return "note";
	}
}

static const char *sev_color(kt_severity s)
{
	switch (s) {
	case KT_DIAG_ERROR: return "\033[1;31m";
	case KT_DIAG_WARNING: return "\033[1;35m";
	default: return "\033[1;36m";
	}
}

static void print_one(const kt_diag *g, FILE *out, int color)
{
	const char *bold = color ? "\033[1m" : "",
	           *reset = color ? "\033[0m" : "";
	fputs(bold, out);
	if (g->file && g->line > 0 && g->col > 0)
		fprintf(out, "%s:%d:%d: ", g->file, g->line, g->col);
	else if (g->file && g->line > 0)
		fprintf(out, "%s:%d: ", g->file, g->line);
	else if (g->file)
		fprintf(out, "%s: ", g->file);
	fprintf(out, "%s%s:%s%s %s%s\n", color ? sev_color(g->severity) : "",
	        sev_name(g->severity), reset, bold, g->message, reset);
	if (!g->source || g->col < 1)
		return;
	fprintf(out, "%5d | %s\n      | ", g->line, g->source);
	/* Keep tabs so the caret lines up under tab-indented source. */
	size_t srclen = strlen(g->source);
	for (int i = 1; i < g->col; i++)
		fputc((size_t)i <= srclen && g->source[i - 1] == '\t' ? '\t'
		                                                      : ' ',
		      out);
	fprintf(out, "%s^", color ? "\033[1;32m" : "");
	for (int i = 1; i < g->len; i++)
		fputc('~', out);
	fprintf(out, "%s\n", reset);
}

void kt_diags_print(const kt_diags *d, FILE *out, int use_color)
{
	for (size_t i = 0; i < d->len; i++)
		print_one(&d->items[i], out, use_color);
}
