/*
 * t4_where.c - `t4_where FILE NAME`: where the results of a results file
 * (T4 or cache) ran, by their measurement NAME ("device", "rank"): one
 * "value V: N results" line per value, and "missing: N results" for
 * results without it. Used by scale.sh to see that work was spread.
 */
#include "ktc/results.h"

#include <stdio.h>
#include <string.h>

enum { MAX_VALUES = 256 };

int main(int argc, char **argv)
{
	kt_results *r = NULL;
	if (argc != 3) {
		fprintf(stderr, "usage: t4_where FILE NAME\n");
		return 2;
	}
	if (kt_results_load(&r, argv[1])) {
		fprintf(stderr, "t4_where: %s\n", kt_error_last());
		return 2;
	}
	double values[MAX_VALUES];
	size_t counts[MAX_VALUES], n = 0, missing = 0;
	for (size_t i = 0; i < r->nrecords; i++) {
		const kt_measure *m =
		    kt_result_measure(&r->records[i].result, argv[2]);
		if (!m) {
			missing++;
			continue;
		}
		size_t k = 0;
		while (k < n && values[k] != m->value)
			k++;
		if (k == n && n < MAX_VALUES) {
			values[n] = m->value;
			counts[n++] = 0;
		}
		if (k < n)
			counts[k]++;
	}
	for (size_t k = 0; k < n; k++)
		printf("value %g: %zu results\n", values[k], counts[k]);
	if (missing)
		printf("missing: %zu results\n", missing);
	kt_results_free(r);
	return 0;
}
