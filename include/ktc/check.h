/*
 * ktc/check.h - the differential check of a template: every value of every
 * parameter run at least once on a backend, its outputs compared with the
 * default configuration's, at every value of every problem variable.
 *
 * What it is for: a template whose default compiles to the original's code
 * says nothing about its other values. A block size untied from the
 * template argument it must equal, a grid that does not follow the block,
 * a reduction that assumes a power of two: each passes every static check
 * and computes wrong results at some value. The check runs those values.
 *
 * What it proves: each value it reports as correct gave outputs that match
 * the default's (the backend's verification: poisoned outputs, tolerances
 * by type, inputs unchanged) in the configuration it ran, at the problem
 * values it ran. It does not prove the value right in combination with
 * every other parameter's values, nor at problem sizes it did not run.
 */
#ifndef KTC_CHECK_H
#define KTC_CHECK_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktc/eval.h"
#include "ktc/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the check found for one value of one parameter. */
typedef struct kt_check_value {
	size_t param;       /* index in the model */
	size_t value_index; /* in the parameter's domain */
	bool run;           /* at least one configuration with it ran */
	kt_status status;   /* OK, or the first failure's status */
	char *key;          /* the configuration that failed (or last ran) */
	char *problem;      /* its problem values, "N=4096,D=128"; "" if none */
	char *message; /* the backend's message of the failure; may be NULL */
} kt_check_value;

typedef struct kt_check_report {
	kt_device_info device;
	kt_check_value *values; /* every non-default value of every param */
	size_t nvalues;
	size_t nfailed;    /* values with a failure */
	size_t nnot_run;   /* values no valid configuration holds */
	size_t nproblems;  /* problem instances run */
	size_t nconfigs;   /* configurations evaluated, all instances */
	size_t ninstances; /* problem instances the check meant to run */
	bool interrupted;  /* *stop was set: the report holds what ran */
	double elapsed_s;
} kt_check_report;

typedef struct kt_check_progress {
	size_t instance, ninstances; /* 1-based instance being run */
	size_t done, total;          /* configurations of this instance */
	const char *problem;         /* "N=4096" */
} kt_check_progress;

typedef struct kt_check_options {
	size_t batch; /* configurations handed to the backend at once (they
	                 compile in parallel); 0: one per processor */
	void (*progress)(const kt_check_progress *p, void *ud);
	void *progress_ud;
	volatile sig_atomic_t *stop; /* set asynchronously to stop early */
} kt_check_options;

/*
 * Runs the check of model m on backend b. The problem instances are the
 * defaults and then each other value of each problem variable with the
 * others at their defaults; in each, the configurations are the default
 * (the reference), then for each parameter and each of its other values
 * the default with that one value changed, or, where a constraint forbids
 * that, the valid configuration holding the value that differs from the
 * default in the fewest parameters. Returns 0 with *out set when the check
 * ran (failures are in the report, not the return code), also when *stop
 * ended it early (report->interrupted, with what ran); a negative KT_E*
 * code when it could not (the backend failed, the default configuration
 * is not correct).
 */
KT_API int kt_check_run(kt_check_report **out, const kt_model *m, kt_backend *b,
                        const kt_check_options *opt);
KT_API void kt_check_report_free(kt_check_report *r);

#ifdef __cplusplus
}
#endif
#endif
