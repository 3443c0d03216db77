/*
 * opencl.c - the file an OpenCL C template is verified with: the original
 * and the template in one text, told apart by a parameter of its own.
 *
 * OpenCL C has no PTX to compare, so the template's default instantiation
 * is proved equal to the original by running both on the OpenCL backend
 * (PoCL where there is no GPU). The check of ktc/check.h runs every value
 * of every parameter against the default configuration; here the default
 * configuration is the original's code: the text compiles the original
 * where KT_VERIFY_ORIGINAL is 1 and every other parameter is at its
 * default, and the template otherwise. So KT_VERIFY_ORIGINAL = 0 runs the
 * template at its defaults against the original, and each other value
 * runs the template at that value against the original, on the same
 * inputs, in one `ktc check`.
 */
#include "rewriter/rewriter.h"

#include "ktc/model.h"

#include <stdint.h>
#include <string.h>

/* The original's own `#pragma kt` lines (a launch the user wrote) stand
 * in the template too: blanked here, their line breaks kept. */
static int add_without_pragmas(kt_str *out, const char *t, size_t len)
{
	int rc = 0;
	bool blank = false; /* inside a `#pragma kt` line */
	for (size_t i = 0; i < len && !rc; i++) {
		if (i == 0 || t[i - 1] == '\n') {
			size_t j = i;
			while (j < len && (t[j] == ' ' || t[j] == '\t'))
				j++;
			bool cont = blank && i >= 2 && t[i - 2] == '\\';
			blank = cont || (len - j > 10 &&
			                 !strncmp(t + j, "#pragma kt ", 11));
		}
		if (!blank || t[i] == '\n')
			rc = kt_str_addc(out, t[i]);
	}
	return rc;
}

/* Each `#pragma kt launch` line of the template gets the switch's param
 * line before it: one per block, so every kernel's model has it. */
static int add_with_switch(kt_str *out, const char *t)
{
	int rc = 0;
	for (const char *p = t; *p && !rc;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);
		const char *q = p;
		while (*q == ' ' || *q == '\t')
			q++;
		if (!strncmp(q, "#pragma kt launch ", 18))
			rc = kt_str_adds(out, "#pragma kt param " KT_RW_ORIGINAL
			                      " values(1, 0) default(1)\n");
		if (!rc)
			rc = kt_str_addf(out, "%.*s", (int)n, p);
		p += n;
	}
	return rc;
}

/* Whether name was already given a default by an earlier model. */
static bool seen(const kt_template *t, size_t k, size_t i)
{
	const char *name = t->models[k].params[i].name;
	for (size_t m = 0; m <= k; m++)
		for (size_t j = 0; j < t->models[m].nparams; j++) {
			if (m == k && j == i)
				return false;
			if (!strcmp(t->models[m].params[j].name, name))
				return true;
		}
	return false;
}

/* `#ifndef P / #define P d / #endif` for every parameter of every model,
 * then `#if KT_VERIFY_ORIGINAL && P == d && ...`. */
static int add_switch(kt_str *out, const kt_template *t)
{
	kt_str cond = KT_STR_INIT;
	int rc = kt_str_adds(out, "#ifndef " KT_RW_ORIGINAL
	                          "\n#define " KT_RW_ORIGINAL " 1\n#endif\n");
	if (!rc)
		rc = kt_str_adds(&cond, "#if " KT_RW_ORIGINAL);
	for (size_t k = 0; k < t->nmodels && !rc; k++)
		for (size_t i = 0; i < t->models[k].nparams && !rc; i++) {
			const kt_param *pa = &t->models[k].params[i];
			kt_value v = pa->values[pa->default_index];
			char buf[64];
			kt_value_format(buf, sizeof(buf), v);
			if (seen(t, k, i) || !strcmp(pa->name, KT_RW_ORIGINAL))
				continue;
			rc = kt_str_addf(out,
			                 "#ifndef %s\n#define %s %s\n#endif\n",
			                 pa->name, pa->name, buf);
			/* the preprocessor compares integers only */
			if (!rc && !v.is_float)
				rc = kt_str_addf(&cond, " && (%s) == (%s)",
				                 pa->name, buf);
		}
	if (!rc)
		rc = kt_str_addf(out, "%s\n", cond.ptr);
	kt_str_release(&cond);
	return rc;
}

int kt_rw_opencl_text(kt_str *out, const kt_rewrite_file *f, const char *text,
                      const char *path)
{
	kt_diags d;
	kt_diags_init(&d);
	kt_template *t = NULL;
	int rc = kt_template_parse(&t, path, text, &d);
	kt_diags_release(&d);
	if (rc)
		return rc;
	kt_str_clear(out);
	rc = add_switch(out, t);
	if (!rc)
		rc = add_without_pragmas(out, f->text, f->len);
	if (!rc)
		rc = kt_str_adds(out, "\n#else\n");
	if (!rc)
		rc = add_with_switch(out, text);
	if (!rc)
		rc = kt_str_adds(out, "\n#endif\n");
	kt_template_free(t);
	return rc;
}

/* ---- the launch at the defaults ---- */

enum { MAX_PROBLEMS = 16 };

/* Problem values of model m: each at its default, but problem `vary` (if
 * any) at its value k. */
static void problem_values(kt_value *out, const kt_model *m, size_t vary,
                           size_t k)
{
	for (size_t i = 0; i < m->nproblems && i < MAX_PROBLEMS; i++) {
		const kt_problem *p = &m->problems[i];
		out[i] = p->values[i == vary ? k : p->default_index];
	}
}

/* Problem values of model `to` from those of `from`, by name. */
static void by_name(kt_value *out, const kt_model *to, const kt_model *from,
                    const kt_value *vals)
{
	for (size_t i = 0; i < to->nproblems && i < MAX_PROBLEMS; i++) {
		out[i] = to->problems[i].values[to->problems[i].default_index];
		for (size_t j = 0; j < from->nproblems; j++)
			if (!strcmp(from->problems[j].name,
			            to->problems[i].name))
				out[i] = vals[j];
	}
}

/* The 6 launch dims (grid then block) of m at its defaults; 0 on
 * success. */
static int dims(int64_t *d, const kt_model *m, const kt_value *problem)
{
	kt_value *slots = kt_calloc(m->nsymbols + 1, sizeof(*slots));
	uint32_t *idx = kt_calloc(m->nparams + 1, sizeof(*idx));
	int rc = slots && idx ? 0 : kt_error(KT_ENOMEM, "out of memory");
	if (!rc) {
		kt_model_default_config(m, idx);
		rc = kt_model_bind(slots, m, idx, problem, NULL);
	}
	for (int i = 0; i < 6 && !rc; i++) {
		const kt_expr *e =
		    i < 3 ? m->launch.grid[i] : m->launch.block[i - 3];
		kt_value v = {0};
		v.i = 1;
		if (e)
			rc = kt_expr_eval(&v, e, slots);
		d[i] = v.is_float ? (int64_t)v.f : v.i;
	}
	kt_free(slots);
	kt_free(idx);
	return rc;
}

/* Model t's launch against o's at one problem instance: a message when
 * they differ, else NULL. */
static char *launch_differs(const kt_model *t, const kt_model *o,
                            const kt_value *tp)
{
	kt_value op[MAX_PROBLEMS];
	int64_t a[6], b[6];
	by_name(op, o, t, tp);
	if (dims(a, t, tp) || dims(b, o, op)) {
		kt_error_clear();
		return NULL; /* the run reports a launch it cannot make */
	}
	for (int i = 0; i < 6; i++)
		if (a[i] != b[i]) {
			kt_str s = KT_STR_INIT;
			kt_str_addf(
			    &s,
			    "the launch of '%s' at its defaults is not the "
			    "original's: %s %c is %lld, not %lld",
			    t->kernel, i < 3 ? "grid" : "block", "xyzxyz"[i],
			    (long long)a[i], (long long)b[i]);
			for (size_t j = 0; j < t->nproblems; j++)
				kt_str_addf(&s, "%s%s=%lld", j ? " " : " at ",
				            t->problems[j].name,
				            (long long)tp[j].i);
			return kt_str_detach(&s);
		}
	return NULL;
}

int kt_rw_opencl_launch(char **why, const char *orig, const char *text,
                        const char *path)
{
	kt_diags d;
	kt_diags_init(&d);
	kt_template *o = NULL, *t = NULL;
	*why = NULL;
	int rc = kt_template_parse(&o, path, orig, &d);
	if (!rc)
		rc = kt_template_parse(&t, path, text, &d);
	kt_diags_release(&d);
	for (size_t k = 0; !rc && t && k < t->nmodels && !*why; k++) {
		const kt_model *m = &t->models[k];
		const kt_model *om = kt_template_model(o, m->kernel);
		if (!om || m->nproblems > MAX_PROBLEMS ||
		    om->nproblems > MAX_PROBLEMS)
			continue;
		kt_value tp[MAX_PROBLEMS];
		problem_values(tp, m, SIZE_MAX, 0);
		*why = launch_differs(m, om, tp);
		for (size_t i = 0; i < m->nproblems && !*why; i++)
			for (size_t v = 0; v < m->problems[i].nvalues && !*why;
			     v++) {
				problem_values(tp, m, i, v);
				*why = launch_differs(m, om, tp);
			}
	}
	kt_template_free(o);
	kt_template_free(t);
	return rc;
}
