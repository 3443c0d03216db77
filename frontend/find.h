/*
 * find.h - the candidate finder's working state, shared by candidates.c
 * (kernels, launch sites, launch operands) and classify.c (what each
 * literal inside a kernel means).
 */
#ifndef KTC_FRONTEND_FIND_H
#define KTC_FRONTEND_FIND_H

#include "frontend/cand.h"

/* A value a literal may stand for, and which candidate it then follows. */
typedef struct fe_target {
	int64_t value;
	int root;         /* candidate index */
	const char *with; /* `$`, `($ - 1)`, `($ * 16)` */
	bool block_only;  /* only as `blockIdx.x * v` (units per block) */
	bool ambiguous;   /* another root has the same value */
	bool arith;       /* matches in any arithmetic context */
	bool half;        /* half the block, only as the start of a loop
	                     halving a variable a thread index is compared
	                     with (a tree reduction over the block) */
	bool weak;        /* a guess (warps of the block): a target of
	                     another kind with the same value wins */
	int kern;
} fe_target;

typedef struct finder {
	kt_candidates *c;
	struct kt_fe_facts *f;
	fe_ast *a;
	kt_tu *tu;
	kt_diags *d;
	KT_VEC(kt_candidate) items;
	KT_VEC(fe_target) targets;
	int oom;
} finder;

/* A literal, macro or variable a launch expression is built from. */
typedef struct fe_leaf {
	int node;        /* IntegerLiteral node (spelled or from a macro) */
	const char *var; /* the variable it initialises, or NULL */
	int64_t value;
	int divisors; /* how many divisors it lies in (collect_leaves) */
} fe_leaf;

typedef KT_VEC(fe_leaf) fe_leaves;

/* Adds a candidate; returns its index or -1 (out of memory). */
int fe_add(finder *F, kt_candidate k, fe_cand x);
/* The candidate standing at offset b, or -1. */
int fe_cand_at(const finder *F, uint32_t b);
/* Evaluates an integer expression through variables' initialisers,
 * collecting its leaves; *product: only `*` combined them. */
bool fe_eval(finder *F, int n, int64_t *v, fe_leaves *leaves, bool *product);
/* arena printf for evidence strings */
const char *fe_say(finder *F, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
kt_candidate fe_cand_init(void);
fe_cand fe_cx_init(void);

/* cap.c: the cap of a block size clamped at run time (`min(d / 8, 1024)`):
 * its literals (one value), false when the expression has no single
 * clamp; *bounded: the block size is the clamp, maybe rounded up to whole
 * warps, so it never exceeds the cap. */
bool fe_block_cap(finder *F, int n, fe_leaves *caps, bool *bounded);
/* NULL when kernel k serves any block size up to 1024 (*max: the largest
 * block size a cap may take: the original cap when a small shared array or
 * __launch_bounds__ ties the kernel to it); else what stops it. */
const char *fe_any_block_size(finder *F, int k, int64_t cap, int64_t *max,
                              bool *indexed);

/* Whether kernel k's threads cover its work by the global index
 * (`blockIdx.x * blockDim.x + threadIdx.x`) with no grid-stride loop (no
 * gridDim.x): only a grid that counts blocks of its block size covers it. */
bool fe_indexed_cover(finder *F, int k);

/* gridfree.c: NULL when kernel k serves any grid along dimension d ('x',
 * 'y' or 'z'): it reads blockIdx.d and gridDim.d only in the heads of
 * grid-stride loops (docs/annotate.md, "A grid-stride kernel's grid");
 * else what stops it. */
const char *fe_grid_free(finder *F, int k, char d);
/* Kernel k takes the global index along d (`blockIdx.d * blockDim.d +
 * threadIdx.d`, any order) and never reads gridDim.d. */
bool fe_indexed_along(finder *F, int k, char d);
/* Every global index along d in kernel k starts a for loop (at least one
 * does): its threads step on from it, so a block of another size still
 * reaches every item. */
bool fe_index_loops(finder *F, int k, char d);
/* Kernel k numbers warps from the global index: `(blockIdx.x *
 * blockDim.x + threadIdx.x) / 32` (or `>> 5`, `/ warpSize`). */
bool fe_global_warps(finder *F, int k);

/* launch.c: every launch of a kernel of the file, in any form it knows,
 * onto the kernels' launch lists. */
int fe_find_launches(finder *F);

/* classify.c */
int fe_find_items(finder *F, int k);
int fe_classify_kernel(finder *F, int k);
int fe_find_pragmas(finder *F, int k);
/* launch.c: for each kernel without a launch in code, the user's
 * `#pragma kt launch` line (fe_kern.pragma_launch). */
int fe_pragma_launches(finder *F);
int fe_find_vectors(finder *F, int k);
int fe_reject_device_fns(finder *F);
int fe_reject_macros(finder *F);
/* Literals of kernel k that follow a root whose value is ambiguous are
 * rejected, and so are the roots. */
void fe_settle(finder *F);
/* Why template parameter node tparam of kernel k is the block size: the
 * context of one of its uses in the body (the multiplier of blockIdx.x,
 * the stride of a loop from threadIdx, ...), or NULL. */
const char *fe_tparam_block(finder *F, int k, int tparam);
/* Whether kernel k multiplies its global thread index by template
 * parameter node tparam: the work of a thread, so the grid divides by it. */
bool fe_tparam_items(finder *F, int k, int tparam);
/* Why a literal node stays a literal; false when not worth listing. */
bool fe_reject_reason(finder *F, int n, kt_reason *r, const char **msg);
/* True when the file reduces `v` lanes with an xor butterfly whose
 * offsets are hard-coded (v/2, v/4, ..., 1); *where: its function. */
bool fe_shuffle_fixed(finder *F, int64_t v, const char **where);
/* True when the file exchanges values by warp shuffles (`__shfl*`);
 * *where: the function of the first. */
bool fe_warp_shuffles(finder *F, const char **where);

#endif
