/*
 * cmd_apply.c - `ktc apply TEMPLATE RESULTS -o OUT`: the template with the
 * best configuration of a results file (T4 or ktc cache, from any backend)
 * fixed, as a file nvcc compiles with no -D flags.
 *
 * A thin command: the best record and its values are the tuner's
 * (kt_results_best, kt_results_config), the edit of the template the
 * grammar's (kt_template_apply); this file adds the header line naming the
 * results and writes the output.
 */
#include "cli/cmd.h"

#include "ktc/model.h"
#include "ktc/results.h"
#include "util/fs.h"
#include "util/opt.h"
#include "util/str.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct options {
	const char *out, *kernel;
} options;

static void header(kt_str *s, const kt_results *r, const kt_record *rec,
                   const char *results_path)
{
	kt_str_addf(
	    s, "// ktc apply: the best configuration in %s (%s", results_path,
	    r->info.device.name[0] ? r->info.device.name : "unknown device");
	for (size_t i = 0; i < r->info.nproblems; i++) {
		char v[64];
		kt_value_format(v, sizeof(v), r->info.problem[i]);
		kt_str_addf(s, "%s%s=%s", i ? "," : ", ",
		            r->info.problem_names[i], v);
	}
	kt_str_addf(s, "): %.6g ms\n", rec->result.time_ms);
}

/* The results of r for m's kernel, their best record and its values. */
static int best_config(kt_value **out, const kt_record **best,
                       const kt_results *r, const kt_model *m,
                       const char *rpath)
{
	if (r->info.kernel && *r->info.kernel &&
	    strcmp(r->info.kernel, m->kernel))
		return kt_error(KT_EINVALID,
		                "'%s' has results for kernel '%s', not '%s'",
		                rpath, r->info.kernel, m->kernel);
	if (!(*best = kt_results_best(r)))
		return kt_error(KT_EINVALID,
		                "'%s' has no correct configuration", rpath);
	if (!(*out = kt_calloc(m->nparams + 1, sizeof(**out))))
		return kt_error(KT_ENOMEM, "out of memory");
	return kt_results_config(*out, r, *best, m);
}

static void summary(const char *out, const kt_model *m, const kt_value *v,
                    const kt_record *best)
{
	printf("%s:", out);
	for (size_t p = 0; p < m->nparams; p++) {
		char value[64];
		kt_value_format(value, sizeof(value), v[p]);
		printf("%s%s=%s", p ? "," : " ", m->params[p].name, value);
	}
	printf(" (%.6g ms)\n", best->result.time_ms);
}

static int apply(const options *o, const char *tpath, const char *rpath)
{
	kt_diags d;
	kt_diags_init(&d);
	kt_template *t = NULL;
	kt_results *r = NULL;
	kt_value *v = NULL;
	const kt_record *best = NULL;
	char *text = NULL;
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
	if (kt_results_load(&r, rpath) || best_config(&v, &best, r, m, rpath) ||
	    kt_template_apply(&text, t, m, v, &d)) {
		kt_diags_print(&d, stderr, isatty(2));
		fprintf(stderr, "ktc apply: %s\n", kt_error_last());
		goto done;
	}
	kt_diags_print(&d, stderr, isatty(2));
	if (r->info.template_hash &&
	    r->info.template_hash !=
	        kt_hash(KT_HASH_INIT, t->source, strlen(t->source)))
		fprintf(stderr,
		        "ktc apply: warning: '%s' has changed since the "
		        "results were recorded\n",
		        tpath);
	header(&out, r, best, rpath);
	if (kt_str_adds(&out, text) ||
	    kt_fs_write_atomic(o->out, out.ptr, out.len)) {
		fprintf(stderr, "ktc apply: %s\n", kt_error_last());
		goto done;
	}
	summary(o->out, m, v, best);
	status = 0;
done:
	kt_str_release(&out);
	kt_free(text);
	kt_free(v);
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
