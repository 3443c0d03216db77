/* args.c - argument parsing shared by the commands (args.h). */
#include "cli/args.h"

#include "ktc/eval.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_parse_number(const char *text, kt_value *out)
{
	char *end;
	errno = 0;
	long long i = strtoll(text, &end, 0);
	if (!errno && end != text && !*end) {
		*out = kt_int(i);
		return 0;
	}
	errno = 0;
	double f = strtod(text, &end);
	if (errno || end == text || *end)
		return -1;
	*out = kt_float(f);
	return 0;
}

static int problem_index(const kt_model *m, const char *name, size_t len)
{
	for (size_t i = 0; i < m->nproblems; i++)
		if (strlen(m->problems[i].name) == len &&
		    !strncmp(m->problems[i].name, name, len))
			return (int)i;
	return -1;
}

int cli_problem_values(kt_value *vals, const kt_model *m,
                       const char *const *defs, int ndefs, const char *cmd)
{
	for (size_t i = 0; i < m->nproblems; i++)
		vals[i] = m->problems[i].values[m->problems[i].default_index];
	for (int k = 0; k < ndefs; k++) {
		const char *eq = strchr(defs[k], '=');
		size_t len = eq ? (size_t)(eq - defs[k]) : 0;
		kt_value v;
		if (!eq || !len || cli_parse_number(eq + 1, &v)) {
			fprintf(
			    stderr,
			    "%s: expected --problem NAME=NUMBER, not '%s'\n",
			    cmd, defs[k]);
			return -1;
		}
		int i = problem_index(m, defs[k], len);
		if (i < 0) {
			fprintf(
			    stderr,
			    "%s: kernel '%s' has no problem variable '%.*s'\n",
			    cmd, m->kernel, (int)len, defs[k]);
			return -1;
		}
		vals[i] = v;
	}
	return 0;
}

/* The values of one NAME=V,V,... text into list (at most max). */
static int parse_list(kt_value *list, size_t *n, size_t max, const char *text,
                      const char *cmd, const char *def)
{
	char buf[64];
	*n = 0;
	for (const char *p = text;; p++) {
		size_t len = strcspn(p, ",");
		kt_value v;
		if (len == 0 || len >= sizeof(buf) || *n == max)
			goto bad;
		memcpy(buf, p, len);
		buf[len] = '\0';
		if (cli_parse_number(buf, &v))
			goto bad;
		list[(*n)++] = v;
		p += len;
		if (!*p)
			return 0;
	}
bad:
	fprintf(stderr,
	        "%s: expected --problem NAME=NUMBER[,NUMBER...], not '%s'\n",
	        cmd, def);
	return -1;
}

enum { MAX_VALUES = 256 };

int cli_problem_grid(kt_value **grid, size_t *nshapes, const kt_model *m,
                     const char *const *defs, int ndefs, size_t max,
                     const char *cmd)
{
	size_t np = m->nproblems, total = 1;
	kt_value *lists = kt_calloc(np * MAX_VALUES + 1, sizeof(kt_value));
	size_t *counts = kt_calloc(np + 1, sizeof(size_t));
	*grid = NULL;
	int rc = lists && counts ? 0 : -1;
	for (size_t i = 0; !rc && i < np; i++) {
		lists[i * MAX_VALUES] =
		    m->problems[i].values[m->problems[i].default_index];
		counts[i] = 1;
	}
	for (int k = 0; !rc && k < ndefs; k++) {
		const char *eq = strchr(defs[k], '=');
		size_t len = eq ? (size_t)(eq - defs[k]) : 0;
		int i = eq && len ? problem_index(m, defs[k], len) : -1;
		if (eq && len && i < 0) {
			fprintf(stderr,
			        "%s: kernel '%s' has no problem variable "
			        "'%.*s'\n",
			        cmd, m->kernel, (int)len, defs[k]);
			rc = -1;
		} else {
			rc = parse_list(
			    &lists[(size_t)(i < 0 ? 0 : i) * MAX_VALUES],
			    &counts[i < 0 ? 0 : i], MAX_VALUES,
			    eq && len ? eq + 1 : "", cmd, defs[k]);
		}
	}
	for (size_t i = 0; !rc && i < np; i++)
		if ((total *= counts[i]) > max) {
			fprintf(stderr,
			        "%s: --problem names more than %zu shapes\n",
			        cmd, max);
			rc = -1;
		}
	if (!rc && !(*grid = kt_calloc(total * np + 1, sizeof(kt_value))))
		rc = -1;
	for (size_t s = 0; !rc && s < total; s++)
		for (size_t i = np, rest = s; i-- > 0; rest /= counts[i])
			(*grid)[s * np + i] =
			    lists[i * MAX_VALUES + rest % counts[i]];
	*nshapes = rc ? 0 : total;
	kt_free(lists);
	kt_free(counts);
	return rc;
}

uint64_t cli_space_limit(long n)
{
	return n > 0 ? (uint64_t)n : UINT64_MAX;
}

void cli_space_limit_hint(const char *cmd, int rc, bool interrupted, long n)
{
	if (rc == KT_EINTERRUPTED && !interrupted)
		fprintf(stderr,
		        "%s: the limit is --space-limit %ld; --space-limit 0 "
		        "removes it\n",
		        cmd, n);
}

const kt_model *cli_pick_model(const kt_template *t, const char *kernel,
                               const char *cmd, int *status)
{
	const kt_model *m = kt_template_model(t, kernel);
	if (m)
		return m;
	if (kernel)
		fprintf(stderr, "%s: no annotated kernel '%s' in '%s'\n", cmd,
		        kernel, t->path);
	else if (t->nmodels == 0)
		fprintf(stderr, "%s: no '#pragma kt' kernel in '%s'\n", cmd,
		        t->path);
	else
		fprintf(stderr,
		        "%s: '%s' has %zu kernels; name one with --kernel\n",
		        cmd, t->path, t->nmodels);
	*status = t->nmodels > 1 && !kernel ? 2 : 1;
	return NULL;
}

const char *cli_default_backend(const char *path)
{
	const char *names = kt_backend_names();
	size_t n = strlen(path);
	if (n > 3 && !strcmp(path + n - 3, ".cl") && strstr(names, "opencl"))
		return "opencl";
	if (strstr(names, "cuda"))
		return "cuda";
	if (strstr(names, "opencl"))
		return "opencl";
	return NULL;
}

void cli_catch_signals(void (*fn)(int))
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn ? fn : SIG_DFL;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}
