/*
 * parse_check.c - kt-parse-check: parses one template and prints its
 * diagnostics without color (the golden tests compare this output), and
 * with --dump the models it built, one line per fact, in a stable format.
 * Exit status: 0 parsed, 1 diagnostics with errors, 2 usage or I/O error.
 */
#include "ktc/model.h"

#include <stdio.h>
#include <string.h>

static void print_expr(const char *label, const kt_expr *e, const kt_model *m)
{
	char *s = NULL;
	if (!e)
		return;
	if (kt_expr_format(&s, e, m) == 0)
		printf("%s%s\n", label, s);
	kt_free(s);
}

static void print_value(kt_value v)
{
	if (v.is_float)
		printf("%g", v.f);
	else
		printf("%lld", (long long)v.i);
}

static void print_domain(const char *what, const char *name,
                         const kt_value *values, size_t n, size_t def)
{
	printf("%s %s {", what, name);
	for (size_t i = 0; i < n; i++) {
		printf(i ? ", " : "");
		print_value(values[i]);
	}
	printf("} default ");
	print_value(values[def]);
	printf("\n");
}

static void print_deps(const kt_model *m, const int *params, int n)
{
	printf(" [");
	for (int i = 0; i < n; i++)
		printf("%s%s", i ? " " : "", m->params[params[i]].name);
	printf("]\n");
}

static void dump_decls(const kt_model *m)
{
	for (size_t i = 0; i < m->nparams; i++)
		print_domain("param", m->params[i].name, m->params[i].values,
		             m->params[i].nvalues, m->params[i].default_index);
	for (size_t i = 0; i < m->nproblems; i++)
		print_domain("problem", m->problems[i].name,
		             m->problems[i].values, m->problems[i].nvalues,
		             m->problems[i].default_index);
	for (size_t i = 0; i < m->nsets; i++) {
		char *s = NULL;
		kt_expr_format(&s, m->sets[i].expr, m);
		printf("set %s = %s", m->sets[i].name, s ? s : "");
		print_deps(m, m->sets[i].params, m->sets[i].nparams);
		kt_free(s);
	}
	for (size_t i = 0; i < m->nconstraints; i++) {
		char *s = NULL;
		kt_expr_format(&s, m->constraints[i].expr, m);
		printf("constraint %s", s ? s : "");
		print_deps(m, m->constraints[i].params,
		           m->constraints[i].nparams);
		kt_free(s);
	}
	for (size_t i = 0; i < m->ndevices; i++) {
		printf("device %s fallback ", m->devices[i].name);
		print_value(m->devices[i].fallback);
		printf("\n");
	}
}

static void dump_launch(const kt_model *m)
{
	static const char *const xyz[] = {"x", "y", "z"};
	char label[32];
	if (!m->launch.present)
		return;
	for (int i = 0; i < 3; i++) {
		snprintf(label, sizeof(label), "launch grid.%s ", xyz[i]);
		print_expr(label, m->launch.grid[i], m);
		snprintf(label, sizeof(label), "launch block.%s ", xyz[i]);
		print_expr(label, m->launch.block[i], m);
	}
	print_expr("launch smem ", m->launch.smem, m);
	print_expr("launch pdl ", m->launch.pdl, m);
}

static void dump_args(const kt_model *m)
{
	static const char *const dirs[] = {"in", "out", "inout"};
	static const char *const inits[] = {"random", "zeros", "iota", "value"};
	for (size_t i = 0; i < m->nargs; i++) {
		const kt_arg *a = &m->args[i];
		char *s = NULL;
		kt_expr_format(&s, a->count ? a->count : a->value, m);
		const char *text = s ? s : "";
		printf("arg %zu %s %s", i, a->name, kt_type_name(a->type));
		if (!a->count) {
			printf(" = %s\n", text);
		} else {
			printf("[%s] %s init %s", text, dirs[a->dir],
			       inits[a->init.kind]);
			if (a->init.kind == KT_INIT_RANDOM)
				printf("(%g, %g)", a->init.lo, a->init.hi);
			if (a->init.kind == KT_INIT_VALUE)
				printf("(%g)", a->init.value);
			printf("\n");
		}
		kt_free(s);
	}
}

static void dump_model(const kt_model *m)
{
	static const char *const objs[] = {"time", "bandwidth", "flops"};
	printf("kernel %s at %d:%d\n", m->kernel, m->kernel_loc.line,
	       m->kernel_loc.col);
	for (int i = 0; i < m->ntemplate_args; i++)
		print_expr("template ", m->template_args[i], m);
	dump_decls(m);
	dump_launch(m);
	dump_args(m);
	if (m->verify.off)
		printf("verify off\n");
	else
		printf("verify rtol %g atol %g match %g\n", m->verify.rtol,
		       m->verify.atol, m->verify.match);
	printf("objective %s\n", objs[m->objective.kind]);
	print_expr("objective expr ", m->objective.expr, m);
}

int main(int argc, char **argv)
{
	int dump = argc == 3 && !strcmp(argv[1], "--dump");
	if (argc != 2 + dump) {
		fprintf(stderr, "usage: kt-parse-check [--dump] FILE\n");
		return 2;
	}
	kt_diags d;
	kt_template *t;
	kt_diags_init(&d);
	int rc = kt_template_load(&t, argv[1 + dump], &d);
	kt_diags_print(&d, stdout, 0);
	kt_diags_release(&d);
	if (rc == KT_EPARSE)
		return 1;
	if (rc) {
		fprintf(stderr, "kt-parse-check: %s\n", kt_error_last());
		return 2;
	}
	for (size_t i = 0; dump && i < t->nmodels; i++)
		dump_model(&t->models[i]);
	kt_template_free(t);
	return 0;
}
