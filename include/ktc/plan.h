/*
 * ktc/plan.h - the edit plan (planner/): what the planner (built-in or an
 * LLM) hands to the verifying rewriter, and the built-in planner.
 *
 * The edit plan is the one interface between "what to parameterise" and
 * "how the text changes". It names exact source ranges (byte offsets and
 * line:col) of the original file, never patterns, and carries the file's
 * content hash so a plan made for another version of the file is refused.
 * Its JSON form ("ktc_plan": 1) is documented field by field in
 * docs/plan-schema.md and validated strictly by kt_plan_from_json.
 *
 * Everything a plan points at lives in one arena owned by the kt_plan and
 * freed with it. The schema code builds everywhere; the built-in planner
 * needs libclang (KTC_HAVE_LIBCLANG).
 */
#ifndef KTC_PLAN_H
#define KTC_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktc/common.h"
#include "ktc/diag.h"
#include "ktc/frontend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- the plan */

/* One literal a parameter replaces: `text` at `range` becomes `with`. */
typedef struct kt_plan_use {
	kt_range range;
	const char *text; /* the original source text at range */
	const char *with; /* replacement: the parameter's name or an
	                     expression over it (`TILE + 1`); NULL for
	                     KT_SITE_MACRO (the #define is guarded) */
	kt_site site;
	bool host;
	int launch;           /* index into its kernel's launches, or -1 */
	const char *evidence; /* may be NULL */
} kt_plan_use;

typedef struct kt_plan_param {
	const char *name;
	kt_role role;
	const char *kernel; /* the kernel it tunes */
	int64_t *values;    /* the domain, in order; contains default */
	size_t nvalues;
	int64_t def;              /* the original literal's value */
	const char **constraints; /* `#pragma kt constraint` expressions */
	size_t nconstraints;
	kt_plan_use *uses;
	size_t nuses;
	const char *evidence; /* may be NULL */
} kt_plan_param;

typedef enum kt_refactor_kind {
	/* (a) a loop stride or bound hard-coded in the kernel follows the block
	 * size: the edits replace the literal(s) with the block parameter. */
	KT_REFACTOR_STRIDE_FOLLOWS_BLOCK,
	/* (b) a contiguous element loop gets vectors of `param` elements:
	 * aligned vector loads/stores and a scalar tail. */
	KT_REFACTOR_VECTORIZE,
	/* (c1) a one-element-per-thread kernel handles `param` elements per
	 * thread; the grid shrinks by that factor. */
	KT_REFACTOR_ITEMS_PER_THREAD,
	/* (c2) a one-element-per-thread kernel gets a grid-stride loop; the
	 * grid size becomes `param`. */
	KT_REFACTOR_GRID_STRIDE,
	/* (d) a one-block-per-row kernel's column loop `for (i = threadIdx.x;
	 * i < N; i += blockDim.x)` is shared by `param` blocks along y; the
	 * launch's grid g becomes dim3(g, param). */
	KT_REFACTOR_ROW_SPLIT,
	/* (e) the same loop loads `param` iterations' inputs into registers
	 * before it computes and stores them (items per thread). */
	KT_REFACTOR_HOIST_LOADS,
	/* (f) `__launch_bounds__(max_threads, param)` when param > 0. */
	KT_REFACTOR_LAUNCH_BOUNDS,
	/* (g) a loop of a constant count (`bound`) that stores one narrow
	 * element per iteration to `A[offset + index_var]` writes them into
	 * registers and stores them as one vector after the loop, when
	 * param is 1. */
	KT_REFACTOR_PACK_STORES,
	/* (h) a new body for the kernel (a planner's own, an LLM's): the
	 * region, the kernel's body, becomes `#if param == 0` the body as
	 * written `#else` `body` `#endif`, so the default is the original. */
	KT_REFACTOR_VARIANT,
	/* (i) a block's tree reduction over a shared array (the statement
	 * `region`) becomes, when param is 1, warp shuffles, one shared slot
	 * per warp, then one warp over the slots: `body` is the new code. */
	KT_REFACTOR_WARP_REDUCE,
	/* (j) a row-per-block kernel runs one row per warp, param rows per
	 * block: `#if param == 0` the body as written `#else` `body`; the
	 * launch's block operand (`block`) becomes 32 * param. */
	KT_REFACTOR_WARP_PER_ROW,
	/* (k) a shared tile's inner extent gets `param` elements of padding:
	 * the edits replace the extent's padding with the parameter. */
	KT_REFACTOR_PAD_SHARED,
	/* (l) a prefix sum that one thread runs alone (the statement
	 * `region`, `if (threadIdx.x == 0) { ... }` with the scan loop in
	 * it) becomes, when param is 1, a scan by the block's first warp, 32
	 * elements per step with shuffles: `body` is the new code. */
	KT_REFACTOR_WARP_SCAN,
	/* (m) a one-block-per-row kernel that sums its row in column loops
	 * is split as (d) over a thread-block cluster of `param` blocks
	 * along y (sm_90): the loop `region` is rewritten as (d)'s; after
	 * it, each of its sums (`arrays`: name and type) is added up over
	 * the cluster through distributed shared memory; `__cluster_dims__(1,
	 * param, 1)` goes before the kernel's name (`block`) when param > 1. */
	KT_REFACTOR_CLUSTER_SPLIT,
	/* (n) integer divisions and remainders by a divisor the kernel never
	 * changes (the edits, each one `n / d` or `n % d`; `with` the
	 * parameter's name) become, when param is 1, a multiply-high by a
	 * magic number computed once before the statement `region`. */
	KT_REFACTOR_FAST_DIV,
	/* (o) a kernel that gives each group of G threads one task, reduced
	 * across the group with xor shuffles, gets G as `param`: the edits
	 * replace where G is written (the lane `threadIdx.x % G`, the group
	 * `threadIdx.x / G`, `blockDim.x / G`, the lane loops' step, the
	 * launch's block `X * G`) with the parameter and the shuffle loop's
	 * start G / 2 with `(param / 2)`. */
	KT_REFACTOR_THREADS_PER_GROUP,
	/* (p) the host's groups per block, the largest power of two up to P
	 * that divides a count E (`E % P == 0 ? P : ... : 1`, the edit's
	 * range; `bound` E's text), becomes `E % param == 0 ? param : E &
	 * -E`: the same value at param = P. */
	KT_REFACTOR_GROUPS_PER_BLOCK,
	KT_REFACTOR_COUNT_
} kt_refactor_kind;

KT_API const char *kt_refactor_kind_name(kt_refactor_kind k);
/* Why the generated code of refactor kind k cannot be spelled in OpenCL
 * C (so it is neither proposed nor applied for an OpenCL C file), or NULL
 * where it can. */
KT_API const char *kt_refactor_not_in_opencl(kt_refactor_kind k);
KT_API int kt_refactor_kind_from_name(const char *s);

/* A plain substitution a refactor makes (same meaning as in kt_plan_use). */
typedef struct kt_plan_edit {
	kt_range range;
	const char *text;
	const char *with;
} kt_plan_edit;

/* An array a vectorized loop reads or writes. */
typedef struct kt_plan_access {
	const char *name;   /* the pointer (parameter or local alias) */
	const char *offset; /* subscript is `offset + index_var`; NULL: just
	                       `index_var` */
	bool load, store;
	const char *type; /* (e): the element's type (`uint4`); may be NULL */
} kt_plan_access;

typedef struct kt_plan_refactor {
	kt_refactor_kind kind;
	const char *kernel;
	const char *param;   /* the parameter it introduces or follows */
	kt_range region;     /* the statement it rewrites (loop, or the
	                        kernel body for (c)) */
	kt_plan_edit *edits; /* substitutions inside or outside region */
	size_t nedits;
	/* Arguments; which are required depends on kind (plan-schema.md). */
	const char *index_var;  /* the loop / element index variable */
	kt_range index_decl;    /* (c): the declaration computing the index */
	const char *bound;      /* the element count expression (`n`) */
	const char *elem_type;  /* (b): element type (`float`, `__half`) */
	int elem_size;          /* (b): bytes per element */
	kt_plan_access *arrays; /* (b): arrays accessed through the index */
	size_t narrays;
	kt_range grid;  /* (c), (d): the launch's grid operand to rewrite */
	int launch;     /* (c), (d), (j): which launch of kernel, or -1 */
	kt_range block; /* (j): the launch's block operand to rewrite */
	const char *max_threads; /* (f): a parameter's name or a literal */
	const char *body;        /* (h), (i), (j): the new code, `{ ... }` */
	const char *note;        /* may be NULL */
} kt_plan_refactor;

/* A `#pragma kt` line derived for a kernel, without `#pragma kt `. */
typedef struct kt_plan_pragma {
	const char *kernel;
	const char *line; /* `launch grid(...) block(...)`, `arg ...`, ... */
} kt_plan_pragma;

/* Something the user must add because it cannot be derived. */
typedef struct kt_plan_need {
	const char *kernel;
	const char *what;    /* `arg_count`, `problem_values`, `launch`, ... */
	kt_range range;      /* where in the file it comes from */
	const char *message; /* what to add, in words */
	const char *suggest; /* a pragma line to complete, or NULL */
} kt_plan_need;

/* A literal left alone, and why. */
typedef struct kt_plan_reject {
	const char *kernel; /* may be NULL (file scope) */
	kt_range range;
	const char *text;
	kt_reason reason;
	const char *message;
} kt_plan_reject;

typedef struct kt_plan_kernel {
	const char *name;
	kt_range range;
	kt_range *launches;
	size_t nlaunches;
} kt_plan_kernel;

typedef struct kt_plan {
	struct kt_arena *arena; /* owns everything below */
	int version;            /* 1 */
	const char *path;       /* the file the plan was made for */
	uint64_t hash;          /* kt_hash(KT_HASH_INIT, content) */
	size_t size;            /* content length in bytes */
	const char *planner;    /* who made it: "builtin", "llm:MODEL"; may be
	                           NULL */
	kt_plan_kernel *kernels;
	size_t nkernels;
	kt_plan_param *params;
	size_t nparams;
	kt_plan_refactor *refactors;
	size_t nrefactors;
	kt_plan_pragma *pragmas;
	size_t npragmas;
	kt_plan_need *needs;
	size_t nneeds;
	kt_plan_reject *rejected;
	size_t nrejected;
} kt_plan;

#define KT_PLAN_VERSION 1
/* The largest `body` of a variant refactor, in bytes. */
#define KT_PLAN_MAX_BODY 65536
/* Items a plan's lists may hold together (values, uses, edits...). */
#define KT_PLAN_MAX_ITEMS 20000

/* An empty plan with its arena (version 1, no file). */
KT_API int kt_plan_new(kt_plan **out);
KT_API void kt_plan_free(kt_plan *p);
/* Memory owned by the plan (zeroed), for builders of plans. */
KT_API void *kt_plan_alloc(kt_plan *p, size_t n);
KT_API char *kt_plan_strdup(kt_plan *p, const char *s);

/*
 * Parses and validates a plan. name is how diagnostics call the plan
 * ("plan.json"). When src is not NULL it is the content of the file the
 * plan is for: its hash and size must match, every range must lie inside it
 * with consistent line:col, and every `text` must be what stands there.
 * Every problem becomes an error diagnostic naming the field by its path
 * (`params[2].uses[0].range`); the result is KT_EPARSE if there was any.
 */
KT_API int kt_plan_from_json(kt_plan **out, const char *json, size_t len,
                             const char *name, const char *src, size_t src_len,
                             kt_diags *diags);
/* The checks of kt_plan_from_json that do not depend on JSON (for plans
 * built in memory); src may be NULL as above. */
KT_API int kt_plan_validate(const kt_plan *p, const char *name, const char *src,
                            size_t src_len, kt_diags *diags);
/* The plan as JSON text, 2-space indented (kt_free the result). */
KT_API int kt_plan_to_json(char **out, const kt_plan *p);

/* Keeps only what p says about the kernel called name (`--kernel`);
 * KT_ENOTFOUND when p has no such kernel. */
KT_API int kt_plan_only_kernel(kt_plan *p, const char *name);

/* s with each whole word that names a parameter i of p with gone[i]
 * replaced by that parameter's default (memory of out), s itself when
 * nothing changes, NULL when out of memory. */
KT_API const char *kt_plan_with_defaults(kt_plan *out, const char *s,
                                         const kt_plan *p, const bool *gone);

/*
 * Checks a variant's body (untrusted text) before any compiler sees it:
 * at most KT_PLAN_MAX_BODY bytes of printable ASCII, one balanced
 * `{ ... }` and nothing after it, no `#` (no preprocessor line), no line
 * splice, and no name of inline assembly, processes, files, output,
 * memory management or the CUDA host API unless orig (the kernel's body
 * as written, olen bytes) has it too; a string literal only where orig
 * has one. Returns 0, or KT_EINVALID with the reason in why (wn bytes).
 */
KT_API int kt_plan_body_check(const char *body, size_t len, const char *orig,
                              size_t olen, char *why, size_t wn);

/* The content hash a plan carries: FNV-1a 64 (kt_hash) of the file. */
KT_API uint64_t kt_plan_hash(const char *src, size_t len);

/* The built-in planner: candidates -> plan (validated against the file). */
KT_API int kt_planner_plan(kt_plan **out, const kt_candidates *c,
                           kt_diags *diags);

#ifdef __cplusplus
}
#endif
#endif
