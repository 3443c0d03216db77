/*
 * kt_candidates.c - test driver: `kt-candidates FILE [ARGS...]` parses FILE
 * with the frontend and prints its kernels and candidates, one line each,
 * for golden-file comparison. Extra arguments go to the compiler.
 * Options before FILE: `--plan` prints the built-in planner's plan instead,
 * `--no-cache` parses without the header cache, `--time` prints the wall
 * time of each stage (parse, candidates, plan) to stderr.
 */
#include "ktc/annotate.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

typedef struct flags {
	bool plan, no_cache, time;
} flags;

static void print_kernels(const kt_candidates *c)
{
	for (size_t k = 0; k < c->nkernels; k++) {
		const kt_kernel_info *ki = &c->kernels[k];
		printf("kernel %s %d:%d%s%s, %zu launch%s", ki->name,
		       ki->range.begin.line, ki->range.begin.col,
		       ki->is_template ? " (template)" : "",
		       ki->has_errors ? " (has errors: left out)" : "",
		       ki->nlaunches, ki->nlaunches == 1 ? "" : "es");
		for (size_t l = 0; l < ki->nlaunches; l++)
			printf(" %d:%d", ki->launches[l].begin.line,
			       ki->launches[l].begin.col);
		printf("\n");
	}
}

static void print_candidate(const kt_candidates *c, size_t i)
{
	const kt_candidate *x = &c->items[i];
	printf("#%zu %d:%d %s %s '%s'", i, x->range.begin.line,
	       x->range.begin.col, kt_cand_kind_name(x->kind),
	       kt_role_name(x->role), x->text);
	if (x->name)
		printf(" name=%s", x->name);
	printf(" site=%s%s", kt_site_name(x->site), x->host ? " host" : "");
	if (x->kernel)
		printf(" in %s", x->kernel);
	if (x->link >= 0)
		printf(" -> #%d as '%s'", x->link, x->with);
	if (x->rejected)
		printf(" REJECTED %s", kt_reason_name(x->reason));
	printf(": %s\n", x->evidence);
}

static int candidates(const char *path, int argc, char **argv, flags fl)
{
	kt_parse_opts o = {.extra = (const char *const *)argv,
	                   .nextra = (size_t)argc,
	                   .no_pch = fl.no_cache};
	kt_diags d;
	kt_diags_init(&d);
	kt_tu *tu = NULL;
	kt_candidates *c = NULL;
	kt_plan *p = NULL;
	char *json = NULL;
	double t0 = now();
	int rc = kt_frontend_parse(&tu, path, &o, &d);
	double t1 = now();
	rc = rc ? rc : kt_candidates_find(&c, tu, &d);
	double t2 = now();
	if (!rc && !fl.plan) {
		print_kernels(c);
		for (size_t i = 0; i < c->len; i++)
			print_candidate(c, i);
	}
	if (!rc && fl.plan) {
		rc = kt_planner_plan(&p, c, &d);
		rc = rc ? rc : kt_plan_to_json(&json, p);
		if (!rc)
			fputs(json, stdout);
	}
	double t3 = now();
	kt_diags_print(&d, stderr, 0);
	if (rc)
		fprintf(stderr, "kt-candidates: %s\n", kt_error_last());
	if (fl.time)
		fprintf(stderr,
		        "time: parse %.0f ms, candidates %.0f ms, plan "
		        "%.0f ms\n",
		        (t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3);
	kt_free(json);
	kt_plan_free(p);
	kt_candidates_free(c);
	kt_frontend_free(tu);
	kt_diags_release(&d);
	return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
	flags fl = {0};
	int i = 1;
	for (; i < argc && !strncmp(argv[i], "--", 2); i++) {
		if (!strcmp(argv[i], "--plan"))
			fl.plan = true;
		else if (!strcmp(argv[i], "--no-cache"))
			fl.no_cache = true;
		else if (!strcmp(argv[i], "--time"))
			fl.time = true;
		else
			break;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: kt-candidates [--plan] [--no-cache] "
		                "[--time] FILE [ARGS...]\n");
		return 2;
	}
	return candidates(argv[i], argc - i - 1, argv + i + 1, fl);
}
