/* args.c - argument parsing shared by the commands (args.h). */
#include "cli/args.h"

#include <errno.h>
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
