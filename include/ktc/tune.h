/*
 * ktc/tune.h - the tuning driver: a strategy proposes configurations, a
 * backend evaluates them, the cache keeps every finished evaluation, and
 * the run ends with the best configuration and a T4 file.
 *
 * A run is a pure function of (template, problem, device data, strategy,
 * seed, budget in evaluations, batch size): the strategy depends only on
 * its seed and what it is told, and the budget counts distinct
 * configurations the run visits, whether the backend evaluates them now or
 * the cache already holds them. So a run killed at any moment and started
 * again with the same command replays the strategy from the start, answers
 * what it had finished from the cache, and ends with exactly the results of
 * a run that was never interrupted. A time limit (max_seconds) breaks that
 * on purpose: where a run stops then depends on the clock.
 */
#ifndef KTC_TUNE_H
#define KTC_TUNE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktc/eval.h"
#include "ktc/model.h"
#include "ktc/results.h"
#include "ktc/space.h"
#include "ktc/strategy.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One configuration the run visited, in visiting order. */
typedef struct kt_tune_entry {
	uint64_t index; /* in the space */
	uint32_t *param_idx;
	kt_value *values; /* one per parameter */
	char *key;        /* kt_space_key */
	kt_result result;
	bool from_cache; /* answered by the cache, not evaluated now */
} kt_tune_entry;

typedef enum kt_tune_stop {
	KT_TUNE_BUDGET,      /* max_evals distinct configurations visited */
	KT_TUNE_TIME,        /* max_seconds passed */
	KT_TUNE_EXHAUSTED,   /* the strategy had nothing more (space done) */
	KT_TUNE_INTERRUPTED, /* *stop was set (SIGINT, SIGTERM) */
	KT_TUNE_STALLED,     /* the strategy repeated itself without end */
	KT_TUNE_ERROR,       /* a failure stopped the run (kt_tune_run < 0) */
} kt_tune_stop;

KT_API const char *kt_tune_stop_name(kt_tune_stop s);

/* What the progress callback sees after each batch. */
typedef struct kt_tune_progress {
	uint64_t visited;   /* distinct configurations so far */
	uint64_t total;     /* the budget (or the space size if smaller) */
	uint64_t evaluated; /* by the backend in this run */
	uint64_t cached;    /* answered by the cache */
	uint64_t failed;    /* status other than correct */
	const kt_tune_entry *best; /* NULL until one is correct */
	const kt_tune_entry *last_batch;
	size_t nlast;
	double elapsed_s;
	double eta_s; /* < 0 when unknown */
} kt_tune_progress;

typedef void (*kt_tune_progress_fn)(const kt_tune_progress *p, void *ud);

typedef struct kt_tune_options {
	const char *strategy; /* a kt_strategies name; NULL: "random" */
	/* a strategy not in the registry (a host's own); overrides strategy */
	const kt_strategy_ops *strategy_ops;
	const char *const
	    *strategy_settings; /* "name=value", NULL-terminated */
	uint64_t max_evals;     /* 0: the whole space */
	double max_seconds;     /* 0: no time limit */
	uint64_t seed;
	size_t batch;            /* configurations asked at once; 0: 1 */
	const kt_value *problem; /* one per model problem; NULL: defaults */
	const char *cache_path;  /* NULL: no cache */
	bool force_new;          /* replace a cache whose header differs */
	/* the backend checks special input values too (it was opened with
	 * kt_backend_options.specials): recorded in the cache, which then
	 * answers only such runs */
	bool specials;
	const char *t4_path; /* NULL: no T4 file */
	kt_tune_progress_fn progress;
	void *progress_ud;
	/* diagnostics of building the space go here; NULL: discarded */
	kt_diags *diags;
	/* bindings while building the space (kt_space_limits.max_bindings) */
	uint64_t space_limit;
	/* set asynchronously (a signal handler) to stop after this batch, or
	 * to abandon building the space */
	volatile sig_atomic_t *stop;
} kt_tune_options;

/* The outcome of a run. */
typedef struct kt_tune_report {
	kt_device_info device;
	kt_tune_entry
	    *entries; /* in visiting order; entries[0] is the default */
	size_t nentries;
	const kt_tune_entry *best; /* lowest time among correct; NULL if none */
	uint64_t space_size;
	uint64_t evaluated, cached;
	uint64_t counts[KT_STATUS_TIMEOUT + 1]; /* entries by status */
	kt_tune_stop stop;
	double elapsed_s;
	char *strategy; /* the strategy's registry name */
} kt_tune_report;

/*
 * Runs a search of model m on backend b. Returns 0 with *out set when the
 * run ended normally or was interrupted (report->stop says which); on
 * failure (backend error, cache refusal, the default configuration not
 * correct) returns a negative KT_E* code with kt_error() set, and *out
 * holds what was done when there is anything (the T4 file is written too).
 */
KT_API int kt_tune_run(kt_tune_report **out, const kt_model *m, kt_backend *b,
                       const kt_tune_options *opt);
KT_API void kt_tune_report_free(kt_tune_report *r);

/* Synthetic landscapes, for comparing strategies before real results. */
typedef struct kt_landscape_kind {
	const char *name;
	const char *summary;
} kt_landscape_kind;

extern KT_API const kt_landscape_kind
    kt_landscape_kinds[]; /* NULL name ends it */

/*
 * Writes a T4 file with a synthetic result for every valid configuration
 * of m (problem values NULL: defaults; device: the DEVICE_* fallbacks),
 * marked as synthetic in its metadata (docs/tuning.md gives the formulas).
 * Refuses spaces larger than limit. Diagnostics of building the space go
 * to diags (may be NULL).
 */
KT_API int kt_landscape_write(const char *path, const kt_model *m,
                              const kt_value *problem, const char *kind,
                              uint64_t seed, uint64_t limit, kt_diags *diags);

#ifdef __cplusplus
}
#endif
#endif
