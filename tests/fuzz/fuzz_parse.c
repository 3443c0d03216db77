/*
 * fuzz_parse.c - libFuzzer target for kt_template_parse: any bytes must
 * give either a template or diagnostics, never a crash, a leak or undefined
 * behaviour. Successful parses are walked (every expression formatted,
 * every symbol looked up) so that the model's invariants are exercised too.
 */
#include "ktc/model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void format(const kt_expr *e, const kt_model *m)
{
	char *s = NULL;
	if (e && kt_expr_format(&s, e, m) != 0)
		abort(); /* a parsed expression must always format */
	kt_free(s);
}

static void walk(const kt_template *t)
{
	for (size_t i = 0; i < t->nmodels; i++) {
		const kt_model *m = &t->models[i];
		if (kt_template_model(t, m->kernel) != m)
			abort(); /* kernel names are unique */
		for (size_t k = 0; k < m->nsymbols; k++)
			if (kt_model_symbol(m, m->symbols[k].name) != (int)k)
				abort(); /* symbol names are unique */
		for (size_t k = 0; k < m->nparams; k++)
			if (m->params[k].nvalues == 0 ||
			    m->params[k].default_index >= m->params[k].nvalues)
				abort();
		for (size_t k = 0; k < m->nsets; k++)
			format(m->sets[k].expr, m);
		for (size_t k = 0; k < m->nconstraints; k++)
			format(m->constraints[k].expr, m);
		for (int k = 0; k < 3; k++) {
			format(m->launch.grid[k], m);
			format(m->launch.block[k], m);
		}
		format(m->launch.smem, m);
		for (size_t k = 0; k < m->nargs; k++)
			format(m->args[k].count ? m->args[k].count
			                        : m->args[k].value,
			       m);
		format(m->objective.expr, m);
		for (int k = 0; k < m->ntemplate_args; k++)
			format(m->template_args[k], m);
	}
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static FILE *sink;
	if (!sink)
		sink = fopen("/dev/null", "w");
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	kt_diags d;
	kt_template *t = NULL;
	kt_diags_init(&d);
	int rc = kt_template_parse(&t, "fuzz.cu", text, &d);
	if ((rc == 0) != (t != NULL) || (rc == KT_EPARSE && d.errors == 0))
		abort(); /* failure and diagnostics must agree */
	if (t)
		walk(t);
	if (sink)
		kt_diags_print(&d, sink, 1);
	kt_template_free(t);
	kt_diags_release(&d);
	free(text);
	return 0;
}
