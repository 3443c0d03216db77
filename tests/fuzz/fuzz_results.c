/*
 * fuzz_results.c - libFuzzer target for the results readers (the cache's
 * JSON lines and T4 files, tuner/cache.c and tuner/t4.c): any bytes must
 * give records or an error, never a crash, a leak or undefined behaviour.
 * Every record read must pass the checks a reader promises: a correct
 * result has a positive, finite time.
 */
#include "ktc/results.h"
#include "tuner/results_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void check(const kt_results *r)
{
	for (size_t i = 0; i < r->nrecords; i++) {
		const kt_result *x = &r->records[i].result;
		if (x->status == KT_STATUS_OK &&
		    !(isfinite(x->time_ms) && x->time_ms > 0))
			abort(); /* a reader let a bad time through */
	}
	kt_results_best(r);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	for (int cache = 0; cache < 2; cache++) {
		kt_results *r = kt_calloc(1, sizeof(*r));
		if (!r)
			break;
		int rc = cache ? kt_cache_parse(r, text, size, "fuzz.jsonl")
		               : kt_t4_parse(r, text, size, "fuzz.json");
		if (!rc)
			check(r);
		kt_results_free(r);
	}
	free(text);
	return 0;
}
