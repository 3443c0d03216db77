/*
 * cmd_check.c - `ktc check FILE`: run every value of every parameter of a
 * template once on a backend, against the default configuration, at every
 * value of every problem variable (ktc/check.h), and say which values
 * compute wrong results, fault or fail to compile. With -o, the template
 * with those values taken out of their domains.
 *
 * This is the check `ktc annotate` runs on a GPU (--verify-run) made a
 * command of its own, so a template from anywhere (written by hand, by a
 * planner, by annotate on a machine without a GPU) can be checked on the
 * machine that has one, with no libclang there.
 */
#include "cli/args.h"
#include "cli/cmd.h"

#include "ktc/check.h"
#include "util/fs.h"
#include "util/opt.h"
#include "util/str.h"

#include <cjson/cJSON.h>

#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { DEFAULT_RUNS = 3 };

typedef struct options {
	const char *kernel, *backend, *out, *device;
	long runs, seed;
	double timeout;
	bool json, quiet;
} options;

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void on_progress(const kt_check_progress *p, void *ud)
{
	const options *o = ud;
	if (o->quiet)
		return;
	bool tty = isatty(2);
	if (!tty && p->done != p->total && p->done != 1)
		return;
	fprintf(stderr, "%s[problem %zu/%zu: %s] %zu/%zu configurations%s",
	        tty ? "\r\033[K" : "", p->instance, p->ninstances,
	        p->problem[0] ? p->problem : "-", p->done, p->total,
	        tty ? "" : "\n");
	fflush(stderr);
}

static const char *value_text(char *buf, size_t n, const kt_model *m,
                              const kt_check_value *v)
{
	kt_value_format(buf, n, m->params[v->param].values[v->value_index]);
	return buf;
}

/* Whether the failure's message already names its problem values. */
static bool said(const kt_check_value *v)
{
	return !v->problem[0] || (v->message && strstr(v->message, v->problem));
}

static void print_report(FILE *out, const kt_check_report *r, const kt_model *m)
{
	fprintf(out, "kernel     %s (%s)\n", m->kernel, m->file);
	fprintf(out, "device     %s (%s)\n", r->device.name, r->device.backend);
	fprintf(out,
	        "ran        %zu configurations at %zu problem instances in "
	        "%.1f s\n",
	        r->nconfigs, r->nproblems, r->elapsed_s);
	for (size_t p = 0; p < m->nparams; p++) {
		kt_str ok = KT_STR_INIT;
		char buf[64];
		for (size_t i = 0; i < r->nvalues; i++) {
			const kt_check_value *v = &r->values[i];
			if (v->param == p && v->run &&
			    v->status == KT_STATUS_OK)
				kt_str_addf(&ok, " %s",
				            value_text(buf, sizeof(buf), m, v));
		}
		kt_value_format(
		    buf, sizeof(buf),
		    m->params[p].values[m->params[p].default_index]);
		fprintf(out, "%-10s default %s; correct:%s\n",
		        m->params[p].name, buf, ok.len ? ok.ptr : " none");
		kt_str_release(&ok);
		for (size_t i = 0; i < r->nvalues; i++) {
			const kt_check_value *v = &r->values[i];
			if (v->param != p ||
			    (v->run && v->status == KT_STATUS_OK))
				continue;
			value_text(buf, sizeof(buf), m, v);
			if (!v->run)
				fprintf(
				    out, "  %s not run: %s\n", buf,
				    r->interrupted
				        ? "the check was interrupted first"
				        : "no valid configuration holds it");
			else
				fprintf(out, "  %s FAILS (%s)%s%s in %s%s%s\n",
				        buf, kt_status_name(v->status),
				        said(v) ? "" : " at ",
				        said(v) ? "" : v->problem, v->key,
				        v->message ? ": " : "",
				        v->message ? v->message : "");
		}
	}
	fprintf(out, "result     %zu of %zu values fail", r->nfailed,
	        r->nvalues);
	if (r->nnot_run)
		fprintf(out, ", %zu not run", r->nnot_run);
	if (r->interrupted)
		fprintf(out, " (interrupted in problem instance %zu of %zu)",
		        r->nproblems, r->ninstances);
	fputc('\n', out);
}

static void print_json(const kt_check_report *r, const kt_model *m,
                       const char *written)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "kernel", m->kernel);
	cJSON_AddStringToObject(j, "template", m->file);
	cJSON_AddStringToObject(j, "device", r->device.name);
	cJSON_AddStringToObject(j, "backend", r->device.backend);
	cJSON_AddNumberToObject(j, "configurations", (double)r->nconfigs);
	cJSON_AddNumberToObject(j, "problem_instances", (double)r->nproblems);
	cJSON_AddNumberToObject(j, "failed", (double)r->nfailed);
	cJSON_AddNumberToObject(j, "not_run", (double)r->nnot_run);
	cJSON_AddNumberToObject(j, "elapsed_s", r->elapsed_s);
	cJSON_AddBoolToObject(j, "interrupted", r->interrupted);
	cJSON *vals = cJSON_AddArrayToObject(j, "values");
	for (size_t i = 0; i < r->nvalues; i++) {
		const kt_check_value *v = &r->values[i];
		cJSON *e = cJSON_CreateObject();
		char buf[64];
		cJSON_AddStringToObject(e, "param", m->params[v->param].name);
		cJSON_AddStringToObject(e, "value",
		                        value_text(buf, sizeof(buf), m, v));
		cJSON_AddStringToObject(e, "status",
		                        v->run ? kt_status_name(v->status)
		                               : "not run");
		if (v->run) {
			cJSON_AddStringToObject(e, "configuration", v->key);
			cJSON_AddStringToObject(e, "problem", v->problem);
		}
		if (v->message)
			cJSON_AddStringToObject(e, "message", v->message);
		cJSON_AddItemToArray(vals, e);
	}
	cJSON_AddItemToObject(j, "output",
	                      written ? cJSON_CreateString(written)
	                              : cJSON_CreateNull());
	char *text = cJSON_Print(j);
	if (text)
		printf("%s\n", text);
	cJSON_free(text);
	cJSON_Delete(j);
}

/* The template with the failing values taken out, written to o->out. */
static int write_narrowed(const kt_template *t, const kt_model *m,
                          const kt_check_report *r, const char *path)
{
	bool **keep = kt_calloc(m->nparams + 1, sizeof(bool *));
	int rc = keep ? 0 : KT_ENOMEM;
	for (size_t p = 0; !rc && p < m->nparams; p++) {
		keep[p] = kt_calloc(m->params[p].nvalues + 1, sizeof(bool));
		if (!keep[p]) {
			rc = KT_ENOMEM;
			break;
		}
		for (size_t k = 0; k < m->params[p].nvalues; k++)
			keep[p][k] = true;
	}
	for (size_t i = 0; !rc && i < r->nvalues; i++)
		if (r->values[i].status != KT_STATUS_OK)
			keep[r->values[i].param][r->values[i].value_index] =
			    false;
	char *text = NULL;
	if (!rc)
		rc = kt_template_restrict(&text, t, m,
		                          (const bool *const *)keep);
	if (!rc)
		rc = kt_fs_write_atomic(path, text, strlen(text));
	if (rc)
		fprintf(stderr, "ktc check: %s\n", kt_error_last());
	kt_free(text);
	for (size_t p = 0; keep && p < m->nparams; p++)
		kt_free(keep[p]);
	kt_free(keep);
	return rc ? 1 : 0;
}

static const char *backend_for(const options *o, const char *path)
{
	return o->backend ? o->backend : cli_default_backend(path);
}

static int run(const options *o, const char *path)
{
	kt_diags diags;
	kt_diags_init(&diags);
	kt_template *t = NULL;
	kt_backend *b = NULL;
	kt_check_report *r = NULL;
	int status = 0;
	if (kt_template_load(&t, path, &diags)) {
		kt_diags_print(&diags, stderr, isatty(2));
		if (diags.errors == 0)
			fprintf(stderr, "ktc check: %s\n", kt_error_last());
		kt_diags_release(&diags);
		return 1;
	}
	const kt_model *m = cli_pick_model(t, o->kernel, "ktc check", &status);
	const char *name = m ? backend_for(o, path) : NULL;
	if (m && !name) {
		fprintf(stderr,
		        "ktc check: no GPU backend is built into this "
		        "ktc (built in: %s)\n",
		        kt_backend_names());
		status = 1;
	}
	if (!status && o->out && kt_fs_check_output(o->out)) {
		fprintf(stderr, "ktc check: %s\n", kt_error_last());
		status = 1;
	}
	kt_backend_options bo = {
	    .device = o->device,
	    .timed_runs = (int)o->runs,
	    .warmup_runs = 1, /* nothing is timed for a verdict */
	    .timeout_s = o->timeout,
	    .seed = (uint64_t)o->seed,
	    .worker_exe = "/proc/self/exe",
	};
	if (!status && kt_backend_open(&b, name, m, &bo)) {
		fprintf(stderr, "ktc check: %s\n", kt_error_last());
		status = 1;
	}
	kt_check_options co = {
	    .progress = on_progress,
	    .progress_ud = (void *)o,
	    .stop = &stop_requested,
	};
	if (!status && kt_check_run(&r, m, b, &co)) {
		if (!o->quiet && isatty(2))
			fputc('\n', stderr);
		fprintf(stderr, "ktc check: %s\n", kt_error_last());
		status = 1;
	}
	if (r && !o->quiet && isatty(2))
		fputc('\n', stderr);
	if (r && o->out)
		status = write_narrowed(t, m, r, o->out);
	if (r && o->json)
		print_json(r, m, status ? NULL : o->out);
	else if (r)
		print_report(stdout, r, m);
	if (r && (r->nfailed || r->interrupted))
		status = 1;
	kt_check_report_free(r);
	kt_backend_free(b);
	kt_template_free(t);
	kt_diags_release(&diags);
	return status;
}

int cmd_check(int argc, char **argv)
{
	options o = {.runs = DEFAULT_RUNS, .seed = 1};
	const kt_opt opts[] = {
	    KT_OPT_STRING_(
	        'k', "kernel", &o.kernel, "NAME",
	        "the kernel to check (needed when FILE has several)"),
	    KT_OPT_STRING_('b', "backend", &o.backend, "NAME",
	                   "cuda or opencl (default: opencl for a .cl file, "
	                   "else a GPU backend)"),
	    KT_OPT_STRING_('o', "output", &o.out, "FILE",
	                   "write the template with the failing values taken "
	                   "out of their domains"),
	    KT_OPT_FLAG_(0, "json", &o.json, "print the report as JSON"),
	    KT_OPT_FLAG_('q', "quiet", &o.quiet, "no progress display"),
	    KT_OPT_STRING_(0, "device", &o.device, "D",
	                   "which device (index or name)"),
	    KT_OPT_DOUBLE_(0, "timeout", &o.timeout, "S",
	                   "seconds one configuration may take"),
	    KT_OPT_INT_(0, "runs", &o.runs, "N",
	                "checked runs per configuration (default 3)"),
	    KT_OPT_INT_(0, "seed", &o.seed, "S",
	                "seed of the input data (default 1)"),
	    KT_OPT_END_,
	};
	const kt_cmd_info info = {
	    .usage = "ktc check [options] FILE",
	    .summary =
	        "Runs every value of every parameter of an annotated kernel "
	        "of FILE at least once,\nat every value of every problem "
	        "variable, and compares its outputs with the\ndefault "
	        "configuration's. Exit status: 0 every value correct, 1 a "
	        "value fails\nor the check could not run, 2 usage.",
	    .opts = opts,
	};
	static char name[] = "ktc check";
	int npos;
	argv[0] = name;
	int rc = kt_opt_parse(&info, argc, argv, &npos);
	if (rc)
		return rc > 0 ? 0 : 2;
	if (npos != 1) {
		fprintf(stderr, "usage: %s (see 'ktc check --help')\n",
		        info.usage);
		return 2;
	}
	if (o.runs < 1 || o.runs > 1000000 || o.seed < 0 || o.timeout < 0 ||
	    o.timeout > 1e6) {
		fprintf(stderr, "ktc check: --runs must be from 1 to 1000000, "
		                "--seed >= 0, --timeout from 0 to 1000000\n");
		return 2;
	}
	cli_catch_signals(on_signal);
	return run(&o, argv[0]);
}
