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

#include "ktc/annotate.h"
#include "ktc/common.h"
#include "ktc/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A top-level declaration, as the rewriter needs to know it. */
typedef struct kt_rewrite_decl {
	kt_range range; /* the whole declaration */
	bool host_only; /* NVRTC cannot compile it: kept under a guard */
	bool kernel;
	bool guarded; /* inside the file's own #ifndef __CUDACC_RTC__ */
	const char *const *params; /* a kernel's parameter names, in order */
	size_t nparams;
} kt_rewrite_decl;

/* An #include directive of the file. */
typedef struct kt_rewrite_include {
	kt_range range;      /* the directive */
	const char *spelled; /* the header as written: `cstdint`, `k.cuh` */
	bool angled;
	bool guarded; /* inside the file's own #ifndef __CUDACC_RTC__ */
} kt_rewrite_include;

/*
 * A loop `for (TYPE VAR = START; VAR < BOUND; VAR += STEP) BODY` of the file
 * (the only shape the vectorize refactor rewrites).
 */
typedef struct kt_rewrite_loop {
	kt_range stmt, start, bound, step, body;
	const char *var, *var_type;
} kt_rewrite_loop;

/* An array subscript `BASE[...]` whose base is a named variable. */
typedef struct kt_rewrite_subscript {
	kt_range range; /* the whole expression */
	const char *base;
} kt_rewrite_subscript;

/* The file and what the frontend knows of its structure. */
typedef struct kt_rewrite_file {
	const char *path; /* for diagnostics and diff headers */
	const char *text;
	size_t len;
	const kt_rewrite_decl *decls; /* in source order; may be empty */
	size_t ndecls;
	const kt_rewrite_include *includes; /* in source order */
	size_t nincludes;
	const kt_rewrite_loop *loops; /* in source order */
	size_t nloops;
	const kt_rewrite_subscript *subscripts; /* in source order */
	size_t nsubscripts;
} kt_rewrite_file;

/*
 * Fills f from a parsed file (the frontend's translation unit): its text,
 * top-level declarations and #include directives. f refers to tu's memory:
 * release f before freeing tu.
 */
int kt_rewrite_file_from_tu(kt_rewrite_file *f, kt_tu *tu);
void kt_rewrite_file_release(kt_rewrite_file *f);

/*
 * The compile flags of path from compile_commands.json (in build_dir, else
 * found as kt_frontend_parse finds it: DIR or DIR/build, walking up from
 * path's folder): -I (also from -isystem), -D, -U, -std, with absolute
 * paths. No database or no entry: no flags (*nflags 0).
 */
int kt_rewrite_flags(char ***flags, size_t *nflags, const char *path,
                     const char *build_dir);
void kt_rewrite_flags_free(char **flags, size_t n);

/* The original file's nvcc compile, started early (see kt_rewrite_opts). */
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
} kt_rewrite_opts;

/*
 * Reads path and starts nvcc on it with o's flags, so the compile runs while
 * the caller parses the file; kt_rewrite takes it over through o->base.
 */
int kt_rewrite_base_start(kt_rewrite_base **out, const char *path,
                          const kt_rewrite_opts *o);
void kt_rewrite_base_free(kt_rewrite_base *b);

typedef struct kt_rewrite_result {
	char *text; /* the annotated file (kt_free) */
	size_t len;
	char *diff; /* unified diff a/PATH -> b/PATH; "" if no change */
	size_t params_kept, params_dropped;
	size_t values_dropped;
	bool verified; /* every check ran and passed */
} kt_rewrite_result;

/*
 * Applies plan to f. Returns 0 with *out filled when an annotated file was
 * produced (possibly without the edits that failed, each reported in
 * diags); KT_EPARSE when the plan does not fit the file, KT_EINVALID when
 * the original does not compile or no edit survives, KT_EUNSUPPORTED when
 * a compiler is missing. diags also gets what the user must add by hand.
 */
int kt_rewrite(kt_rewrite_result *out, const kt_plan *plan,
               const kt_rewrite_file *f, const kt_rewrite_opts *o,
               kt_diags *diags);
void kt_rewrite_result_release(kt_rewrite_result *r);

#ifdef __cplusplus
}
#endif
#endif
