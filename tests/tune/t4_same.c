/*
 * t4_same.c - `t4_same A B`: exit 0 when two result files (T4 or cache)
 * hold the same results in the same order: configuration, status, time,
 * every timed run and every measurement. Timestamps and phase times (when
 * each evaluation happened, how long the search took) are left out: they
 * differ between any two runs. Used by the kill -9 test (kill_resume.sh).
 *
 * `t4_same A B NAME...` leaves out the measurements called NAME too: the
 * many-worker tests (tests/scale) compare runs whose results differ only
 * in where they ran ("device", "rank").
 */
#include "ktc/results.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static bool same_number(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

static char **ignored; /* measurement names left out, NULL-terminated */

static bool is_ignored(const char *name)
{
	for (char **p = ignored; p && *p; p++)
		if (!strcmp(*p, name))
			return true;
	return false;
}

/* The measurements of r not left out, in order, into out. */
static size_t kept(const kt_result *r, const kt_measure **out)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nmeasures; i++)
		if (!is_ignored(r->measures[i].name))
			out[n++] = &r->measures[i];
	return n;
}

static const char *diff_result(const kt_result *x, const kt_result *y)
{
	if (x->status != y->status)
		return "status";
	if (!same_number(x->time_ms, y->time_ms))
		return "time";
	if (x->nruntimes != y->nruntimes)
		return "number of runs";
	for (size_t i = 0; i < x->nruntimes; i++)
		if (!same_number(x->runtimes_ms[i], y->runtimes_ms[i]))
			return "runtimes";
	const kt_measure *mx[KT_MAX_MEASURES], *my[KT_MAX_MEASURES];
	size_t nx = kept(x, mx), ny = kept(y, my);
	if (nx != ny)
		return "number of measurements";
	for (size_t i = 0; i < nx; i++)
		if (strcmp(mx[i]->name, my[i]->name) ||
		    !same_number(mx[i]->value, my[i]->value))
			return "measurements";
	return NULL;
}

static const char *diff_record(const kt_results *a, const kt_results *b,
                               size_t i)
{
	for (size_t p = 0; p < a->info.nparams; p++)
		if (kt_value_as_double(a->records[i].values[p]) !=
		    kt_value_as_double(b->records[i].values[p]))
			return "configuration";
	return diff_result(&a->records[i].result, &b->records[i].result);
}

int main(int argc, char **argv)
{
	kt_results *a = NULL, *b = NULL;
	int status = 1;
	if (argc < 3) {
		fprintf(stderr, "usage: t4_same A B [MEASUREMENT...]\n");
		return 2;
	}
	ignored = argv + 3;
	if (kt_results_load(&a, argv[1]) || kt_results_load(&b, argv[2])) {
		fprintf(stderr, "t4_same: %s\n", kt_error_last());
		goto done;
	}
	if (a->nrecords != b->nrecords || a->info.nparams != b->info.nparams) {
		fprintf(stderr, "t4_same: %zu results against %zu\n",
		        a->nrecords, b->nrecords);
		goto done;
	}
	for (size_t i = 0; i < a->nrecords; i++) {
		const char *what = diff_record(a, b, i);
		if (what) {
			fprintf(stderr,
			        "t4_same: result %zu differs in its %s\n", i,
			        what);
			goto done;
		}
	}
	printf("t4_same: %zu results, identical\n", a->nrecords);
	status = 0;
done:
	kt_results_free(a);
	kt_results_free(b);
	return status;
}
