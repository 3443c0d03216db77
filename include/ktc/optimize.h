/*
 * ktc/optimize.h - the semantic refactoring loop (`ktc optimize`): from an
 * untouched kernel to a tuned template, round after round of templating,
 * testing, analysis and planning.
 *
 * Round 0 is annotate's template (the literals as parameters) with the
 * needs the code leaves open completed from the caller's problem shapes and
 * argument values; it is tuned at every shape, and its default
 * configuration, whose PTX is the original's, gives the original's time.
 * Each later round adds one refactor the built-in planner proposed (ranked
 * by the analysis: grid fill at each shape, bytes per access, loads in
 * flight), rewrites and verifies the template with it, tunes it at every
 * shape, and keeps it only when the geometric mean of the best times over
 * the shapes improves by more than the noise margin. The loop ends when
 * every shape is within 10% of its speed-of-light estimate (bytes over the
 * device's measured copy bandwidth, or the launch floor), the rounds run
 * out, the proposals run out, or it is stopped.
 *
 * Nothing is lost when a run is killed: each round's template, results
 * cache and T4 files live in the work folder, and the same call resumes
 * from the caches (a tuning run is a pure function of its inputs).
 */
#ifndef KTC_OPTIMIZE_H
#define KTC_OPTIMIZE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "ktc/common.h"
#include "ktc/diag.h"
#include "ktc/eval.h"
#include "ktc/llm.h"
#include "ktc/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Opens the backend that evaluates model m with options bo (the CUDA
 * backend by default; a host or a test may bring its own). */
typedef int (*kt_optimize_open_fn)(kt_backend **out, const kt_model *m,
                                   const kt_backend_options *bo, void *ud);

typedef struct kt_optimize_progress {
	int round;            /* 0: the annotated original */
	const char *what;     /* "template", "verify", "tune", "done" */
	const char *refactor; /* the refactor on trial; NULL in round 0 */
	size_t shape, nshapes;
	const char *message; /* a line for people */
} kt_optimize_progress;

typedef void (*kt_optimize_progress_fn)(const kt_optimize_progress *p,
                                        void *ud);

typedef struct kt_optimize_options {
	const char *build_dir; /* compile_commands.json; NULL: searched */
	const char *kernel;    /* NULL: the file's only kernel with a launch */
	const char *arch;      /* NULL: sm_90a */
	/* "NAME=V1,V2,..." per problem variable: the shapes are their
	 * product */
	const char *const *problems;
	size_t nproblems;
	/* "NAME=VALUE": a scalar argument's value or a buffer's length
	 * (an expression over problem variables) where the code does not
	 * say it */
	const char *const *args;
	size_t nargs;
	/* "NAME=INIT": how an input buffer's elements are drawn, INIT as
	 * the grammar's `init(...)` clause holds it (`random(0, 4095)`,
	 * `zeros`, `iota`, `value(V)`): where its values matter (an index
	 * into another buffer) */
	const char *const *inits;
	size_t ninits;
	const char *workdir;  /* required: rounds, caches, T4 files */
	const char *strategy; /* NULL: brute force where the space fits
	                         the budget, else random */
	uint64_t budget;      /* configurations per shape and round;
	                         0: 100 */
	int rounds;           /* refactors tried at most; 0: 8 */
	bool past_light;      /* go on at the speed of light */
	/* read round 0's best configuration's hardware counters at every
	 * shape (the backend's `--profile`: CUPTI on CUDA) and rank the
	 * refactors by them too */
	bool profile;
	uint64_t seed;
	const char *backend;      /* NULL: "cuda" */
	kt_optimize_open_fn open; /* overrides backend */
	void *open_ud;
	const char *worker_exe; /* kt_backend_options.worker_exe */
	int threads;            /* NVRTC threads; 0: one per processor */
	kt_optimize_progress_fn progress;
	void *progress_ud;
	volatile sig_atomic_t *stop; /* set asynchronously to stop */
	/* "builtin" (NULL) or "llm": who proposes each round's change */
	const char *planner;
	/* planner "llm": the server (or llm->replay, a transcript to
	 * replay); the transcript of the run goes to
	 * workdir/llm-transcript.jsonl */
	const kt_llm_config *llm;
} kt_optimize_options;

/* One round: the template it tried and what tuning it gave. */
typedef struct kt_optimize_round {
	int index;
	const char *refactor; /* kind name; NULL for round 0 */
	const char *param;    /* the parameter it introduced */
	const char *why;      /* the analysis' reason for proposing it */
	bool tuned;           /* verified and tuned at every shape */
	bool kept;
	const char *verdict; /* kept or rejected, and why */
	double *best_ms;     /* per shape; 0 where nothing was correct */
	const char **best_key;
	double *default_ms; /* per shape: the default configuration */
	size_t *evaluated;  /* per shape: configurations visited */
	/* over the shapes: configurations with param off its default,
	 * and those of them that passed every check */
	size_t new_tried, new_ok;
	double score; /* geometric mean of best_ms over the shapes */
	/* configurations faster at a shape but wrong around it (one token,
	 * an odd length), and the first one's failure */
	size_t odd_set_aside;
	const char *odd_note;
	const char *template_path;
	const char *verified; /* what verified its template, in words */
} kt_optimize_round;

typedef struct kt_optimize_report {
	struct kt_arena *arena; /* owns everything below */
	char *text;             /* the final template */
	size_t len;
	char *diff; /* the final template against the original */
	kt_optimize_round *rounds;
	size_t nrounds;
	const char *kernel;
	size_t nshapes;
	const char **shapes; /* "tokens=64 d=4096" */
	double *original_ms; /* per shape: round 0's default (the original) */
	double *bytes;       /* per shape: bytes the kernel must move; 0 if
	                        unknown */
	double *sol_ms;      /* per shape: the speed-of-light estimate */
	double floor_ms;     /* the launch floor; 0 if not measured */
	/* per shape, round 0's best configuration's counters (--profile):
	 * DRAM bytes read and written, achieved occupancy and SM throughput
	 * (% of peak); -1 where not measured */
	double *dram_bytes, *occupancy_pct, *sm_pct;
	kt_device_info device;
	/* whether every configuration was also checked on inputs with NaN,
	 * Inf, subnormals and -0 mixed in, and if not, why */
	bool specials;
	const char *specials_note;
	const char *stop; /* why the loop ended */
	int kept;         /* index of the last kept round */
} kt_optimize_report;

/*
 * Runs the loop on the CUDA file path. Returns 0 with *out set when a
 * template came out (possibly round 0's alone); a negative KT_E* code with
 * kt_error() set otherwise, diagnostics (file:line:col) in diags, and *out
 * set when there was something to report.
 */
KT_API int kt_optimize(kt_optimize_report **out, const char *path,
                       const kt_optimize_options *o, kt_diags *diags);
KT_API void kt_optimize_report_free(kt_optimize_report *r);
/* The original's time at shape s as timed in the same run as the kept
 * round's best (its default configuration, in every round's space), the
 * one to compare the best with; round 0's when that run did not time it.
 * original_ms, from another run, differs by the run-to-run spread. */
KT_API double kt_optimize_original_at(const kt_optimize_report *r, size_t s);
/* The report as JSON (kt_free the result). */
KT_API int kt_optimize_report_json(char **out, const kt_optimize_report *r);

#ifdef __cplusplus
}
#endif
#endif
