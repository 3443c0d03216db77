/*
 * ktc/rewrite.h - the verifying rewriter: an edit plan (ktc/annotate.h) and
 * the file it was made for in, an annotated `#pragma kt` template, its
 * unified diff and diagnostics out.
 *
 * Nothing the rewriter returns is unproven unless verification is switched
 * off: the annotated file compiles with nvcc and with NVRTC, its default
 * instantiation has the original's PTX (names, comments and line
 * information set aside), and every value left in a domain compiles. A
 * parameter (with the refactors that introduce it) whose edits fail is
 * dropped with a diagnostic; a value that fails is dropped from its domain
 * with a note. The library writes no file; the caller does.
 */
#ifndef KTC_REWRITE_H
#define KTC_REWRITE_H

#include <stdbool.h>
#include <stddef.h>

#include "ktc/frontend.h"
#include "ktc/plan.h"
#include "ktc/common.h"
#include "ktc/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The original file's nvcc compile, started early (see kt_rewrite_opts). */
/* The differential check on a GPU after the static checks (ktc/check.h). */
typedef enum kt_rewrite_run {
	KT_RUN_AUTO,     /* where a CUDA device answers and nothing is left
	                    to complete; otherwise the result says why not */
	KT_RUN_OFF,      /* not run */
	KT_RUN_REQUIRED, /* kt_rewrite fails when it cannot run */
} kt_rewrite_run;

typedef struct kt_rewrite_base kt_rewrite_base;

typedef struct kt_rewrite_opts {
	const char *arch;         /* NULL: sm_90a */
	const char *cuda_root;    /* NULL: $CUDA_HOME or /usr/local/cuda */
	const char *const *flags; /* the file's compile flags (-I, -D, -std) */
	size_t nflags;
	const char *out_name;  /* what diagnostics call the annotated file
	                          (NULL: the input's path) */
	bool no_verify;        /* trust the plan: no compiles at all */
	int threads;           /* NVRTC threads; 0: one per processor */
	kt_rewrite_base *base; /* the original's compile, if started early;
	                          used when its text is f's */
	kt_rewrite_run run;
	/* the CUDA backend's worker program (kt_backend_options.worker_exe) */
	const char *worker_exe;
} kt_rewrite_opts;

/*
 * Reads path and starts nvcc on it with o's flags, so the compile runs while
 * the caller parses the file; kt_rewrite takes it over through o->base.
 */
KT_API int kt_rewrite_base_start(kt_rewrite_base **out, const char *path,
                                 const kt_rewrite_opts *o);
KT_API void kt_rewrite_base_free(kt_rewrite_base *b);
/*
 * Waits for b's compile: 1 when nvcc refused the original, with the error
 * set to say so and quote nvcc's first error (the cause to report when
 * the parse failed too); 0 when nvcc compiled it; -1 when that is not
 * known (no compile started, nvcc not run). The error is left as it was
 * unless 1.
 */
KT_API int kt_rewrite_base_verdict(kt_rewrite_base *b, const char *path);

typedef struct kt_rewrite_result {
	char *text; /* the annotated file (kt_free) */
	size_t len;
	char *diff; /* unified diff a/PATH -> b/PATH; "" if no change */
	size_t params_kept, params_dropped;
	size_t values_dropped;
	bool verified; /* every check ran and passed */
	char how[256]; /* what verified it, in words */
	/* the GPU check: whether it ran, on what, and if not, why */
	bool ran;
	size_t run_configs, run_problems;
	char run_device[128];
	char *run_skipped; /* NULL when it ran or was switched off */
} kt_rewrite_result;

/*
 * Applies plan to f. Returns 0 with *out filled when an annotated file was
 * produced (possibly without the edits that failed, each reported in
 * diags); KT_EPARSE when the plan does not fit the file, KT_EINVALID when
 * the original does not compile or no edit survives, KT_EUNSUPPORTED when
 * a compiler is missing. diags also gets what the user must add by hand.
 */
KT_API int kt_rewrite(kt_rewrite_result *out, const kt_plan *plan,
                      const kt_rewrite_file *f, const kt_rewrite_opts *o,
                      kt_diags *diags);
KT_API void kt_rewrite_result_release(kt_rewrite_result *r);

#ifdef __cplusplus
}
#endif
#endif
