/*
 * opencl_bench.c - `ktc-opencl-bench`: times a template's default
 * configuration against another one on the OpenCL backend, in one process,
 * and prints the median of each (bench/opencl_matmul.sh runs it).
 *
 * The design choice: the two kernels take turns. Each round evaluates both
 * (verified against the default, one warm-up launch, one timed launch), in
 * alternating order, so a change in the machine's load during the
 * benchmark weighs on both alike instead of on whichever ran second.
 */
#include "ktc/eval.h"
#include "ktc/model.h"
#include "ktc/results.h"
#include "util/opt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_ROUNDS = 101 };

typedef struct options {
	const char *config, *best, *device;
	long runs;
} options;

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(double), cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The domain index of value v of parameter p, or -1. */
static int domain_index(const kt_param *p, double v)
{
	for (size_t i = 0; i < p->nvalues; i++)
		if (kt_value_as_double(p->values[i]) == v)
			return (int)i;
	return -1;
}

/* param_idx of "NAME=V,NAME=V" (unnamed parameters at their defaults). */
static int parse_key(const kt_model *m, const char *key, uint32_t *idx)
{
	kt_model_default_config(m, idx);
	for (size_t p = 0; p < m->nparams; p++) {
		size_t len = strlen(m->params[p].name);
		const char *at = key;
		while ((at = strstr(at, m->params[p].name)) &&
		       ((at != key && at[-1] != ',') || at[len] != '='))
			at++;
		if (!at)
			continue;
		int i = domain_index(&m->params[p], atof(at + len + 1));
		if (i < 0) {
			fprintf(stderr,
			        "ktc-opencl-bench: %s is not in the domain of "
			        "'%s'\n",
			        at, m->params[p].name);
			return -1;
		}
		idx[p] = (uint32_t)i;
	}
	return 0;
}

/* The fastest correct configuration of a results file, and its problem. */
static int best_of(const kt_model *m, const char *path, uint32_t *idx,
                   kt_value *problem)
{
	kt_results *r = NULL;
	const kt_record *best = NULL;
	if (kt_results_load(&r, path)) {
		fprintf(stderr, "ktc-opencl-bench: %s\n", kt_error_last());
		return -1;
	}
	for (size_t i = 0; i < r->nrecords; i++) {
		const kt_result *x = &r->records[i].result;
		if (x->status == KT_STATUS_OK &&
		    (!best || x->time_ms < best->result.time_ms))
			best = &r->records[i];
	}
	int rc = best ? 0 : -1;
	kt_model_default_config(m, idx);
	for (size_t p = 0; best && p < m->nparams; p++) {
		for (size_t k = 0; k < r->info.nparams; k++) {
			if (strcmp(r->info.param_names[k], m->params[p].name))
				continue;
			int i = domain_index(
			    &m->params[p], kt_value_as_double(best->values[k]));
			if (i < 0)
				rc = -1;
			else
				idx[p] = (uint32_t)i;
		}
	}
	for (size_t p = 0; p < m->nproblems; p++)
		for (size_t k = 0; k < r->info.nproblems; k++)
			if (!strcmp(r->info.problem_names[k],
			            m->problems[p].name))
				problem[p] = r->info.problem[k];
	if (rc)
		fprintf(stderr,
		        "ktc-opencl-bench: no usable correct result in '%s'\n",
		        path);
	kt_results_free(r);
	return rc < 0 ? -1 : 0;
}

static void print_key(const kt_model *m, const uint32_t *idx)
{
	for (size_t p = 0; p < m->nparams; p++) {
		kt_value v = m->params[p].values[idx[p]];
		printf("%s%s=", p ? "," : "", m->params[p].name);
		if (v.is_float)
			printf("%g", v.f);
		else
			printf("%lld", (long long)v.i);
	}
}

/* Rounds of [default, other] (alternating order), one timed launch each. */
static int bench(kt_backend *b, const uint32_t *idx[2], long runs,
                 double t[2][MAX_ROUNDS])
{
	kt_eval_request req[2];
	kt_result res[2];
	for (long k = 0; k < runs; k++) {
		int first = (int)(k % 2);
		for (int j = 0; j < 2; j++)
			req[j] = (kt_eval_request){idx[(first + j) % 2], NULL,
			                           j == first ? "a" : "b"};
		if (b->ops->evaluate(b, req, 2, res))
			return -1;
		for (int j = 0; j < 2; j++) {
			int who = (first + j) % 2;
			if (res[j].status != KT_STATUS_OK) {
				kt_error(KT_ERROR, "%s configuration: %s: %s",
				         who ? "tuned" : "default",
				         kt_status_name(res[j].status),
				         res[j].message ? res[j].message : "");
				kt_result_release(&res[0]);
				kt_result_release(&res[1]);
				return -1;
			}
			t[who][k] = res[j].time_ms;
		}
		kt_result_release(&res[0]);
		kt_result_release(&res[1]);
	}
	return 0;
}

static void report(const kt_model *m, const uint32_t *idx[2], long runs,
                   double t[2][MAX_ROUNDS])
{
	double med[2];
	for (int w = 0; w < 2; w++) {
		printf("%-8s ", w ? "tuned" : "default");
		print_key(m, idx[w]);
		printf("\n         runs (ms):");
		for (long k = 0; k < runs; k++)
			printf(" %.3f", t[w][k]);
		med[w] = median(t[w], (size_t)runs);
		printf("\n         median %.3f ms\n", med[w]);
	}
	printf("speedup  %.2fx (default median / tuned median)\n",
	       med[0] / med[1]);
}

static int run(const kt_model *m, const options *o)
{
	uint32_t di[64], ti[64];
	const uint32_t *idx[2] = {di, ti};
	kt_value problem[64];
	double t[2][MAX_ROUNDS];
	kt_backend *b = NULL;
	kt_device_info info;
	kt_backend_options bo = {
	    .device = o->device, .timed_runs = 1, .warmup_runs = 1, .seed = 1};
	if (m->nparams > 64 || m->nproblems > 64)
		return fprintf(stderr,
		               "ktc-opencl-bench: too many parameters\n"),
		       1;
	for (size_t p = 0; p < m->nproblems; p++)
		problem[p] =
		    m->problems[p].values[m->problems[p].default_index];
	kt_model_default_config(m, di);
	if (o->best ? best_of(m, o->best, ti, problem)
	            : parse_key(m, o->config, ti))
		return 1;
	int rc = kt_backend_open(&b, "opencl", m, &bo);
	if (!rc)
		rc = b->ops->set_problem(b, problem);
	if (!rc)
		rc = bench(b, idx, o->runs, t);
	if (rc) {
		fprintf(stderr, "ktc-opencl-bench: %s\n", kt_error_last());
		kt_backend_free(b);
		return 1;
	}
	b->ops->device_info(b, &info);
	printf("device   %s, %s\nproblem ", info.name, info.runtime);
	for (size_t p = 0; p < m->nproblems; p++)
		printf(" %s=%lld", m->problems[p].name,
		       (long long)problem[p].i);
	printf("\n");
	report(m, idx, o->runs, t);
	kt_backend_free(b);
	return 0;
}

int main(int argc, char **argv)
{
	options o = {.runs = 5};
	const kt_opt opts[] = {
	    KT_OPT_STRING_('c', "config", &o.config, "KEY",
	                   "the configuration to compare (NAME=V,...)"),
	    KT_OPT_STRING_(0, "best", &o.best, "RESULTS",
	                   "compare the fastest correct one of a T4 file or "
	                   "cache, on its problem"),
	    KT_OPT_INT_('r', "runs", &o.runs, "N",
	                "timed launches of each (default 5)"),
	    KT_OPT_STRING_(0, "device", &o.device, "D", "OpenCL device"),
	    KT_OPT_END_,
	};
	const kt_cmd_info info = {
	    "ktc-opencl-bench [options] FILE (--config KEY | --best RESULTS)",
	    "Times the default configuration of FILE's kernel against another "
	    "one on the OpenCL backend, taking turns, and prints the median of "
	    "each.",
	    opts};
	static char name[] = "ktc-opencl-bench";
	argv[0] = name;
	int npos = 0, rc = kt_opt_parse(&info, argc, argv, &npos);
	if (rc)
		return rc > 0 ? 0 : 2;
	if (npos != 1 || !o.config == !o.best || o.runs < 1 ||
	    o.runs > MAX_ROUNDS) {
		kt_opt_help(&info, stderr);
		return 2;
	}
	kt_diags d;
	kt_template *t = NULL;
	kt_diags_init(&d);
	if (kt_template_load(&t, argv[0], &d)) { /* the positional argument */
		kt_diags_print(&d, stderr, 0);
		kt_diags_release(&d);
		return 1;
	}
	kt_diags_release(&d);
	rc = run(kt_template_model(t, NULL), &o);
	kt_template_free(t);
	return rc;
}
