/*
 * t4_check.c - assertions on the results of a real `ktc tune --backend
 * opencl` run (a T4 file or a cache), for tune_cli.sh. Real timings differ
 * between any two runs, so only what must not differ is checked:
 *
 *   t4_check verified FILE ELEMENTS MIN
 *       every correct result compared ELEMENTS output elements with the
 *       reference (its verified_elements measure), and there are >= MIN
 *   t4_check same A B
 *       the same configurations in the same order, with the same statuses
 *   t4_check best A B TOL
 *       the fastest correct configuration of A and of B is the same, or,
 *       where two are close enough for timing noise to swap them, each
 *       run timed the other's best within TOL (relative) of its own
 *   t4_check status FILE NAME=V[,NAME=V...] STATUS TEXT
 *       every result whose parameters have these values has STATUS and a
 *       message containing TEXT (any, when TEXT is ""); at least one such
 *       result exists
 */
#include "ktc/results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static kt_results *load(const char *path)
{
	kt_results *r = NULL;
	if (kt_results_load(&r, path)) {
		fprintf(stderr, "t4_check: %s\n", kt_error_last());
		exit(2);
	}
	return r;
}

static int verified(const char *path, double elements, long min)
{
	kt_results *r = load(path);
	long correct = 0, bad = 0;
	for (size_t i = 0; i < r->nrecords; i++) {
		const kt_result *res = &r->records[i].result;
		if (res->status != KT_STATUS_OK)
			continue;
		const kt_measure *m =
		    kt_result_measure(res, "verified_elements");
		correct++;
		if (!m || m->value != elements) {
			fprintf(stderr, "result %zu: correct but %s\n", i,
			        m ? "verified a different number of elements"
			          : "not verified");
			bad++;
		}
	}
	printf("%ld correct results, %ld not verified\n", correct, bad);
	kt_results_free(r);
	return bad || correct < min;
}

static bool same_values(const kt_record *a, const kt_record *b, size_t n)
{
	for (size_t p = 0; p < n; p++)
		if (kt_value_as_double(a->values[p]) !=
		    kt_value_as_double(b->values[p]))
			return false;
	return true;
}

static int same(const char *pa, const char *pb)
{
	kt_results *a = load(pa), *b = load(pb);
	int rc = 0;
	if (a->nrecords != b->nrecords || a->info.nparams != b->info.nparams) {
		fprintf(stderr, "%zu results against %zu\n", a->nrecords,
		        b->nrecords);
		rc = 1;
	}
	for (size_t i = 0; !rc && i < a->nrecords; i++) {
		const kt_record *x = &a->records[i], *y = &b->records[i];
		if (!same_values(x, y, a->info.nparams) ||
		    x->result.status != y->result.status) {
			fprintf(stderr, "result %zu differs\n", i);
			rc = 1;
		}
	}
	if (!rc)
		printf("%zu results, the same configurations and statuses\n",
		       a->nrecords);
	kt_results_free(a);
	kt_results_free(b);
	return rc;
}

/* The fastest correct result of r, or -1. */
static long fastest(const kt_results *r)
{
	long k = -1;
	for (size_t i = 0; i < r->nrecords; i++) {
		const kt_result *x = &r->records[i].result;
		if (x->status == KT_STATUS_OK &&
		    (k < 0 || x->time_ms < r->records[k].result.time_ms))
			k = (long)i;
	}
	return k;
}

/* The time r measured for the configuration of rec (from another file
 * with the same parameters), or -1 where r has no correct result of it. */
static double time_of(const kt_results *r, const kt_record *rec)
{
	for (size_t i = 0; i < r->nrecords; i++)
		if (same_values(&r->records[i], rec, r->info.nparams) &&
		    r->records[i].result.status == KT_STATUS_OK)
			return r->records[i].result.time_ms;
	return -1;
}

static int best(const char *pa, const char *pb, double tol)
{
	kt_results *a = load(pa), *b = load(pb);
	long ka = fastest(a), kb = fastest(b);
	int rc = 1;
	if (ka < 0 || kb < 0 || a->info.nparams != b->info.nparams) {
		fprintf(stderr, "no correct result to compare\n");
	} else if (same_values(&a->records[ka], &b->records[kb],
	                       a->info.nparams)) {
		printf("the same best configuration\n");
		rc = 0;
	} else {
		/* each run's time of the other's best, against its own */
		double ta = a->records[ka].result.time_ms,
		       tab = time_of(a, &b->records[kb]);
		double tb = b->records[kb].result.time_ms,
		       tba = time_of(b, &a->records[ka]);
		rc = !(tab >= 0 && tba >= 0 && tab <= ta * (1 + tol) &&
		       tba <= tb * (1 + tol));
		printf("different bests: %s timed them %.4g and %.4g ms, %s "
		       "%.4g and %.4g ms: %s\n",
		       pa, ta, tab, pb, tb, tba,
		       rc ? "apart by more than the noise"
		          : "within the noise");
	}
	kt_results_free(a);
	kt_results_free(b);
	return rc;
}

/* Whether rec has every NAME=V of want (comma-separated). */
static bool matches(const kt_results *r, const kt_record *rec, const char *want)
{
	char *copy = kt_strdup(want), *save = NULL;
	bool ok = true;
	for (char *kv = strtok_r(copy, ",", &save); kv && ok;
	     kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '=');
		ok = false;
		if (!eq)
			break;
		*eq = '\0';
		for (size_t p = 0; p < r->info.nparams; p++)
			if (!strcmp(r->info.param_names[p], kv))
				ok = kt_value_as_double(rec->values[p]) ==
				     atof(eq + 1);
	}
	kt_free(copy);
	return ok;
}

static int status(const char *path, const char *want, const char *st,
                  const char *text)
{
	kt_results *r = load(path);
	int found = 0, bad = 0;
	for (size_t i = 0; i < r->nrecords; i++) {
		const kt_result *res = &r->records[i].result;
		if (!matches(r, &r->records[i], want))
			continue;
		found++;
		bool said =
		    !*text || (res->message && strstr(res->message, text));
		if (strcmp(kt_status_name(res->status), st) || !said) {
			fprintf(stderr, "%s: %s: %s\n", want,
			        kt_status_name(res->status),
			        res->message ? res->message : "(no message)");
			bad++;
		}
	}
	printf("%s: %d results, %d not '%s'\n", want, found, bad, st);
	kt_results_free(r);
	return bad || !found;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "verified"))
		return verified(argv[2], atof(argv[3]), atol(argv[4]));
	if (argc == 4 && !strcmp(argv[1], "same"))
		return same(argv[2], argv[3]);
	if (argc == 5 && !strcmp(argv[1], "best"))
		return best(argv[2], argv[3], atof(argv[4]));
	if (argc == 6 && !strcmp(argv[1], "status"))
		return status(argv[2], argv[3], argv[4], argv[5]);
	fprintf(stderr, "usage: t4_check verified|same|best|status ...\n");
	return 2;
}
