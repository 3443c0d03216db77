/*
 * rewriter.h - the rewriter's parts, internal to libktc: edits on byte
 * ranges, unified diffs, and the verification of an annotated file.
 *
 * Offsets are bytes of the ORIGINAL source; an edit never refers to text
 * produced by another edit.
 */
#ifndef KTC_REWRITER_H
#define KTC_REWRITER_H

#include <stddef.h>
#include <sys/types.h>

#include "ktc/frontend.h"
#include "ktc/plan.h"
#include "ktc/rewrite.h"
#include "util/str.h"

/* ---- edit.c ---- */

typedef struct kt_edit {
	size_t begin,
	    end; /* [begin, end) of the original; begin == end inserts */
	const char *text; /* replacement, borrowed; NULL deletes */
	int tag;          /* the caller's id, reported on a conflict */
	int rank;         /* among insertions at one offset: lower first */
} kt_edit;

/*
 * Appends src with the edits applied to out. Edits may be given in any
 * order; insertions at one offset go before a replacement that starts
 * there, in the order of their rank, then in the order given. Overlapping edits
 * fail with KT_EINVALID and the tags of the two edits in conflict[] (when
 * conflict is not NULL).
 */
int kt_edit_apply(kt_str *out, const char *src, size_t len,
                  const kt_edit *edits, size_t n, int conflict[2]);

/* Byte offset of 1-based (line, col), clamped to len. */
size_t kt_text_offset(const char *text, size_t len, int line, int col);
/* 1-based line and column of a byte offset. */
void kt_text_linecol(const char *text, size_t offset, int *line, int *col);

/* ---- diff.c ---- */

/*
 * Appends the unified diff from a to b to out: `--- name_a`, `+++ name_b`,
 * hunks with `context` lines around each change (3 is the usual). Appends
 * nothing when the texts are equal.
 */
int kt_diff_unified(kt_str *out, const char *a, size_t alen, const char *b,
                    size_t blen, const char *name_a, const char *name_b,
                    int context);

/* ---- gen.c ---- */

/* Which parts of a plan the generator applies. */
typedef struct kt_rw_select {
	bool *on;         /* per plan parameter: its unit is applied */
	int64_t **values; /* per parameter: the domain to print, or NULL */
	size_t *nvalues;
	bool *bad;    /* out: per parameter, its edits do not fit */
	bool pragmas; /* emit the #pragma kt blocks */
	/* after each insertion of whole lines, `#line N` gives the original's
	 * lines their numbers back: device code whose PTX holds __LINE__
	 * (assert) stays the original's */
	bool keep_lines;
} kt_rw_select;

/* The comment line that stands for a pragma the user must complete. */
#define KT_RW_TODO "// ktc: complete and uncomment: #pragma kt "

/*
 * Appends the annotated text for the selected units. KT_EINVALID when a
 * unit's edits do not fit the file (sel->bad marks it, diags says why) or
 * edits overlap.
 */
int kt_rw_generate(kt_str *out, const kt_plan *p, const kt_rewrite_file *f,
                   const kt_rw_select *sel, kt_diags *diags);
size_t kt_rw_line_start(const char *t, size_t off);
size_t kt_rw_line_next(const char *t, size_t len, size_t off);

/*
 * The file's #includes as NVRTC sees them in the annotated file (host
 * headers left out, their cuda::std stand-ins in), for the probes of
 * domain.c, ending with the definition of KT_RTC_HEADERS_GIVEN: the
 * annotated file gives NVRTC its own headers' device side (inline text,
 * which no include guard stops) only where that macro is not defined, so
 * the probes' namespace copies of the file do not declare it again.
 */
#define KT_RTC_HEADERS_GIVEN "KTC_RTC_HEADERS_GIVEN"
int kt_rw_rtc_includes(kt_str *s, const kt_rewrite_file *f);

/* ---- ptx.c ---- */

/*
 * Appends the PTX without what may differ between two compiles of one
 * kernel: comments, the .version line, line information, debug sections,
 * white space; declared symbols become @s0, @s1, ... in declaration order.
 */
int kt_ptx_normalise(kt_str *out, const char *ptx);
/*
 * 1 when the two modules are the same once normalised, 0 when not (*line
 * is then the first normalised line that differs, and detail says how),
 * negative on failure.
 */
int kt_ptx_same(const char *a, const char *b, int *line, kt_str *detail);

/* ---- verify.c ---- */

typedef struct kt_verify_opts {
	const char *cuda_root;    /* NULL: $CUDA_HOME or /usr/local/cuda */
	const char *arch;         /* NULL: sm_90a */
	const char *dir;          /* the original file's folder (includes) */
	const char *const *flags; /* the file's compile flags (-I, -D, ...) */
	size_t nflags;
	int threads; /* NVRTC threads; 0: one per processor */
} kt_verify_opts;

const char *kt_verify_cuda_root(const kt_verify_opts *o);

/* One nvcc -ptx compile, run as a child process. */
typedef struct kt_nvcc_job {
	char dir[4096];     /* its temporary folder */
	char src_name[256]; /* the file's own name, inside dir */
	char nvcc[4096];
	pid_t pid;
	int running, have_dir;
	int ok; /* after finish: nvcc succeeded */
	kt_str ptx, log;
} kt_nvcc_job;

/* Starts `nvcc -ptx` on text (named like name) with extra -D defines. */
int kt_nvcc_start(kt_nvcc_job *j, const kt_verify_opts *o, const char *text,
                  size_t len, const char *name, const char *const *defs,
                  size_t ndefs);
/* Waits; 0 once nvcc ran (j->ok says whether it compiled, j->log why). */
int kt_nvcc_finish(kt_nvcc_job *j);
/* start + finish */
int kt_nvcc_ptx(kt_nvcc_job *j, const kt_verify_opts *o, const char *text,
                size_t len, const char *name, const char *const *defs,
                size_t ndefs);
/* Waits if needed and removes the temporary folder. */
void kt_nvcc_job_release(kt_nvcc_job *j);

/* One NVRTC compile (to a cubin for o->arch) with extra options. */
typedef struct kt_nvrtc_job {
	const char *text;           /* NULL: the text given to kt_nvrtc_run */
	const char *const *defines; /* "-DNAME=V", ... */
	size_t ndefines;
	bool quick;  /* -G: no optimization, several times faster to compile */
	bool syntax; /* -fdevice-syntax-only: the front end's checks only */
	int ok;
	kt_str log;
} kt_nvrtc_job;

/*
 * Runs every job on text, on parallel threads; 0 once all ran (each job's
 * ok says whether it compiled). KT_EUNSUPPORTED without NVRTC.
 */
int kt_nvrtc_run(const kt_verify_opts *o, const char *text, const char *name,
                 kt_nvrtc_job *jobs, size_t n);
int kt_nvrtc_available(void);
void kt_nvrtc_job_release(kt_nvrtc_job *j);

/* ---- domain.c ---- */

/* The domain values to prove, checked in batches (see domain.c). */
typedef struct kt_rw_values {
	size_t n;      /* values other than the defaults */
	size_t *param; /* per value: its parameter */
	int64_t *value;
	char **define;       /* per value: "-DNAME=V" */
	bool *ok;            /* per value, after kt_rw_values_settle */
	char **log;          /* per failed value: NVRTC's log */
	kt_nvrtc_job *batch; /* one NVRTC job per batch */
	char **batch_text;
	size_t *batch_first; /* batch b holds values [first[b], first[b+1]) */
	size_t nbatch;
} kt_rw_values;

/* The values of the parameters switched on, in `batches` batch jobs. */
int kt_rw_values_make(kt_rw_values *v, const kt_plan *p, const bool *on,
                      const kt_rewrite_file *f, const char *text, int batches);
/* After the batch jobs ran: each value's verdict, failed batches' values
 * compiled again one by one. */
int kt_rw_values_settle(kt_rw_values *v, const kt_verify_opts *o,
                        const char *text, const char *name);
void kt_rw_values_release(kt_rw_values *v);

/* ---- host.c ---- */

#define KT_RW_HOST_MAX_PARAMS 64

/*
 * The probe (host.c) started early: while the checks of text at its
 * defaults run, one nvcc compile tries every parameter that host code uses
 * and whose plan domain has several values as a non-constant. Its verdict
 * serves kt_rw_host_values for the same text and any subset of those
 * parameters; otherwise it is waited for and dropped.
 */
typedef struct kt_rw_probe {
	bool started;
	bool *which; /* its parameters */
	char *text;  /* the text it probes */
	kt_nvcc_job job;
} kt_rw_probe;

/* Starts the probe of text for the parameters on; none where no parameter
 * needs it or flags forbid a probe (pr->started false). */
int kt_rw_probe_start(kt_rw_probe *pr, const kt_plan *p, const bool *on,
                      const kt_verify_opts *o, const char *text,
                      const char *name);
void kt_rw_probe_release(kt_rw_probe *pr);

/*
 * Compiles text with nvcc (front end) at each value in values[i] of each
 * parameter on that host code uses, `width` compiles at a time; v holds
 * one entry per value with its verdict (ok) and, for a failure, nvcc's
 * log. Only param, value, define, ok and log of v are used. early, when
 * not NULL, is a probe started before (its verdict is used where it
 * applies).
 */
int kt_rw_host_values(kt_rw_values *v, const kt_plan *p, const bool *on,
                      int64_t *const *values, const size_t *nvalues,
                      const kt_verify_opts *o, const char *text,
                      const char *name, int width, kt_rw_probe *early);

/* ---- run.c ---- */

/* What the differential check on a GPU found (kt_rw_run_check). */
typedef struct kt_rw_run {
	bool ran;
	char *skipped; /* why it did not run; NULL when it ran */
	/* OpenCL C (kt_rw_opencl_text): how the template at its defaults
	 * differs from the original; NULL when it computes the same */
	char *differs;
	size_t configs, problems;
	char device[128];
	/* the values that failed: plan parameter, value, what happened */
	size_t n;
	size_t *param;
	int64_t *value;
	char **why;
} kt_rw_run;

/*
 * Runs `ktc check` (ktc/check.h) on each kernel of the annotated text on
 * the CUDA backend (worker_exe: the program started as its worker) and
 * maps each failing value to its plan parameter. Not running (no CUDA
 * device, a template that does not read back, a default configuration
 * that is not correct) is not a failure: out->skipped says why.
 */
int kt_rw_run_check(kt_rw_run *out, const kt_plan *p, const char *text,
                    const char *path, const char *worker_exe,
                    const char *backend);

/* ---- opencl.c ---- */

/* The parameter that tells the original from the template. */
#define KT_RW_ORIGINAL "KT_VERIFY_ORIGINAL"

/*
 * The text that verifies OpenCL C template text of file f on the OpenCL
 * backend: the original where KT_RW_ORIGINAL is 1 and every parameter at
 * its default (the check's reference), the template otherwise. Fails
 * when text does not read back as a template.
 */
int kt_rw_opencl_text(kt_str *out, const kt_rewrite_file *f, const char *text,
                      const char *path);
/*
 * The run takes the template's launch for the original's too, so the
 * launches are compared apart: *why says how the launch of text at its
 * defaults differs from that of orig (the file with the plan's pragma
 * lines and none of its parameters) at some problem value, or is NULL.
 * Fails when either does not read back.
 */
int kt_rw_opencl_launch(char **why, const char *orig, const char *text,
                        const char *path);
void kt_rw_run_release(kt_rw_run *r);

/* ---- ties.c ---- */

/* Where a parameter's old text stayed when the parameter replaced it. */
typedef struct kt_rw_untie {
	const char *name; /* a replaced name left unreplaced, or NULL */
	kt_pos at;
	bool number; /* the default's number left in a launch it changes */
	kt_pos num_at;
	int num_len;
} kt_rw_untie;

/*
 * Plan parameter i's old text left where it should have changed with it:
 * a name (a macro, a constant) that the parameter replaced at one use and
 * that appears unreplaced elsewhere in the file, or the default's number
 * left in a launch statement whose operands the parameter changes. on:
 * the parameters whose uses count as replaced.
 */
int kt_rw_untied(kt_rw_untie *out, const kt_plan *p, const bool *on,
                 const kt_rewrite_file *f, size_t i);

#endif
