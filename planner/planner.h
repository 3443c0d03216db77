/*
 * planner.h - the built-in planner's parts, internal to planner/:
 * planner.c (parameters, names, domains, constraints), derive.c (source
 * expressions -> pragma expressions, launch/arg pragmas and needs),
 * instance.c (what explicit instantiations give host templates),
 * length.c and extent.c (buffer lengths) and refactor.c (the semantic
 * refactors it proposes).
 */
#ifndef KTC_PLANNER_PLANNER_H
#define KTC_PLANNER_PLANNER_H

#include "ktc/model.h"
#include "ktc/plan.h"
#include "frontend/cand.h"
#include "util/str.h"

typedef struct pl_param {
	kt_plan_param p;
	int root; /* candidate index, or -1 (refactor param) */
	KT_VEC(kt_plan_use) uses;
	KT_VEC(const char *) cons;
} pl_param;

/* The launch of a kernel nobody in its file launches, as pragma
 * expressions (nolaunch.c): grid and block dimensions (NULL: not known;
 * past ndims: 1) and, per kernel parameter, the problem variable it
 * stands for (NULL: none). */
#define PL_SYNTH_ARGS 64
typedef struct pl_synth {
	const char *grid[3], *block[3];
	int ndims;
	const char *arg[PL_SYNTH_ARGS];
} pl_synth;

typedef struct planner {
	const kt_candidates *c;
	const struct kt_fe_facts *f;
	const fe_ast *a;
	kt_plan *plan;
	kt_diags *d;
	KT_VEC(pl_param) params;
	KT_VEC(kt_plan_refactor) refactors;
	KT_VEC(kt_plan_pragma) pragmas;
	KT_VEC(kt_plan_need) needs;
	int *param_of; /* candidate index -> params index or -1 */
	bool *skip;    /* kernel index -> left as it is (errors, overload) */
	int float_ref; /* derive.c: a floating-point host parameter (no
	                  problem size) the last expression referred to */
	kt_pragma_text *written; /* the file's own `#pragma kt` lines */
	size_t nwritten;
	const pl_synth *synth; /* the launch synthesised for the kernel
	                          being derived, which has none (or NULL) */
	bool as_written; /* pl_expr reads the launch as the file writes it,
	                    not as a refactor's parameters make it (buffer
	                    lengths: the original's, for every
	                    configuration) */
	/* derive.c: the calls of one-return functions pl_expr reads
	 * through, innermost last: the function's node and the call's */
	struct {
		int fn, call;
	} inl[4];
	int ninl;
	/* derive.c: the sizes of the types concrete() named, for a
	 * `sizeof(T)` of a template's type parameter T */
	struct {
		const char *name;
		long long size;
	} sizes[8];
	int nsizes;
	/* derive.c: fold reads literal node `subst` as subst_val (a
	 * parameter's value tried; when subst_on) */
	bool subst_on;
	int subst;
	int64_t subst_val;
	int oom;
} planner;

/* instance.c: template parameter idx of host function template fn (a
 * type when type, depth[j] the pointers around it in the type of fn's
 * parameter j, -1 where it is not there) as the first of the file's
 * explicit instantiations of fn that says it, written in the file or by
 * a macro it expands, or NULL. */
const char *pl_instance_arg(planner *P, int fn, int idx, bool type,
                            const int *depth, int nparm);

/* derive.c: the integer value of expression n as the compiler computes
 * it, with literal node lit read as val (a parameter's domain value
 * tried): false where it does not fold. */
bool pl_fold_with(planner *P, int n, int lit, int64_t val, int64_t *v);

/* instance.c: template argument idx of call, a call of function template
 * name written `name<...>(...)`, as written (`unary_cuda<op>` gives
 * "op"), or NULL; *off: where its first token stands in the main file
 * (UINT32_MAX where it does not). */
const char *pl_call_targ(planner *P, int call, const char *name, int idx,
                         uint32_t *off);

/* arena printf into the plan */
const char *pl_say(planner *P, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The parameter a candidate (root or linked) stands for, or -1. */
int pl_param_of_cand(const planner *P, int cand);
/* A linked candidate's text: its `with` with `$` the root's parameter
 * name, and `@` the parameter of its link2 (or that candidate's value
 * where it is no parameter). */
const char *pl_with(planner *P, int cand, const char *name);
/* The file already says what pragma line `line` would for kernel: a line
 * of the kernel's own block of the same directive (and, for `arg`,
 * `problem`, `param` and `set`, the same name), which is kept and not
 * derived or asked for again. */
bool pl_written(const planner *P, const char *kernel, const char *line);
/* That line of the file, or NULL. */
const kt_pragma_text *pl_written_line(const planner *P, const char *kernel,
                                      const char *line);
/* Index of a parameter by its name, or -1. */
int pl_find_param(const planner *P, const char *name);
const char *pl_unique_name(planner *P, const char *base, const char *kernel);
int pl_add_param(planner *P, const char *name, kt_role role, const char *kernel,
                 int64_t def, const int64_t *values, size_t nvalues);
void pl_add_constraint(planner *P, const char *expr);
kt_range pl_range(const planner *P, int node);
/* A copy in plan memory (the plan outlives the candidates). */
const char *pl_dup(planner *P, const char *s);

/* derive.c: node -> pragma expression text (appended to out); false when
 * the expression cannot be written in the grammar. problems collects the
 * host variables it turned into problem variables. */
typedef KT_VEC(const char *) pl_names;
bool pl_expr(planner *P, int n, kt_str *out, pl_names *problems);
/* precond.c: the launching function's early exits before the launch as
 * `constraint` lines over the kernel's problem variables. */
void pl_host_preconditions(planner *P, const fe_kern *K, const fe_launch *L,
                           const pl_names *problems);
int pl_derive_pragmas(planner *P, int k);
/* The launch's argument for kernel parameter parm, in the grammar. */
bool pl_launch_arg(planner *P, const fe_launch *L, int parm, kt_str *out);

/* The integer literal the launch writes as template argument for the
 * kernel's template parameter tp (its node), or -1. */
int pl_template_lit(planner *P, const fe_kern *K, const fe_launch *L, int tp);

/* The value of integer expression n at the instantiation the kernel's
 * first launch makes (template parameters bound, const locals computed
 * from them folded); false when a tuning parameter or a run-time value
 * is in it. */
bool pl_fold(planner *P, int n, int64_t *v);

/* The call's argument for kernel parameter parm (its ParmDecl), or -1. */
int pl_call_arg(const planner *P, const fe_launch *L, int parm);

/* extent.c: the element count (elements of `elem` bytes, 0 when not
 * known) that every access of the kernel through pointer parameter parm
 * stays below, over problem variables; false when not proven. */
bool pl_body_len(planner *P, const fe_kern *K, const fe_launch *L, int parm,
                 int64_t elem, kt_str *out, pl_names *problems);

/* length.c: node n lies inside node region (main file offsets). */
bool pl_inside(const fe_ast *a, int n, int region);
/* Something in region, outside node skip (-1: none), writes variable var:
 * an assignment, ++/--, or its address taken. */
bool pl_writes(const fe_ast *a, int region, int var, int skip);
/* Expression text e names a tuning parameter. */
bool pl_names_param(const planner *P, const char *e);

/* length.c: the element count (elements of `elem` bytes) of pointer
 * parameter parm, over problem variables, where the kernel's guards or the
 * host's allocation determine it; false when not proven (why: what the
 * two sources said when they disagree, else empty). */
bool pl_buffer_len(planner *P, const fe_kern *K, const fe_launch *L, int parm,
                   int64_t elem, kt_str *out, pl_names *problems, kt_str *why);

/* `x.size(i)`, `x.stride(i)`, `x.numel()`, `x.dim()` on a tensor (a type
 * with data_ptr, size and numel members) as the problem variable
 * `x_size_i` (...); false for any other call. */
bool pl_tensor_expr(planner *P, int call, kt_str *out, pl_names *problems);

/* refactor.c */
int pl_refactors(planner *P, int k);
int pl_constraints(planner *P, int k);
/* n lies in outer, in the main file. */
/* A call under n whose name starts with name. */
bool pl_has_call(const fe_ast *a, int n, const char *name);
bool pl_has_shared(const fe_ast *a, int n);
/* n's source text, in plan memory. */
const char *pl_src(planner *P, int n);
void pl_add_refactor(planner *P, kt_plan_refactor r);
/* Subscript idx is `off + var` or `var`: off's text ("" for none), or
 * NULL. */
const char *pl_offset_of(planner *P, int idx, int var);

/* nolaunch.c, for kernel K which nobody in the file launches: S cleared
 * and its arg filled (each integer parameter the kernel never writes is
 * the problem variable of its name, added to problems); */
void pl_synth_args(planner *P, const fe_kern *K, pl_synth *S,
                   pl_names *problems);
/* then the launch from how its body maps threads to work: S's grid and
 * block filled, the block-size parameters added; false when the grid or
 * the block does not follow from the body. */
bool pl_synth_launch(planner *P, const fe_kern *K, pl_synth *S,
                     pl_names *problems);

/* nolaunch.c: the launch line the file has for K, which nobody in the
 * file launches: its block's literal becomes the block-size parameter
 * (domain as for a synthesised launch), the grid's literals following. */
void pl_written_launch(planner *P, const fe_kern *K);

/* rows.c: row_split, hoist_loads and launch_bounds of kernel k. */
int pl_row_refactors(planner *P, int k);
/* The first launch's block: its x operand, and the product of its other
 * dims where they are literals no parameter replaces (else false); with
 * yzs, the names of other dims written as macros parameters tune (rows.c). */
bool pl_block_dims(planner *P, const fe_launch *L, int *x, int64_t *yz,
                   const char **yzs);

/* `for (T i = threadIdx.x; i < N; i += blockDim.x) body`: i, N, body. */
bool pl_column_loop(const fe_ast *a, int fs, int *var, int *bound, int *body);

/* reduce.c: warp_reduce and warp_per_row of kernel k. */
int pl_reduce_refactors(planner *P, int k);
/* pad.c: pad_shared of kernel k. */
int pl_pad_refactors(planner *P, int k);
/* fastdiv.c: fast_div of kernel k. */
int pl_fastdiv_refactors(planner *P, int k);
/* Some parameter's use or refactor's edit overlaps [b, e) of the file. */
bool pl_text_taken(const planner *P, uint32_t b, uint32_t e);
/* groups.c: threads per group and groups per block */
int pl_group_refactors(planner *P, int k);
/* The first use of var in body after offset `after` reduces it over
 * groups of S lanes with xor shuffles combining by op (`fmaxf`): a
 * halving loop from S / 2, or `var = f(var)` with f's unrolled steps
 * S / 2 .. 1. */
bool pl_group_combines(planner *P, int body, int var, int64_t S, const char *op,
                       uint32_t after);
/* A local the if-chain after its declaration sets to the largest power
 * of two up to P that divides a count E (`int X = 1; if (E % P == 0) X =
 * P; else if (E % (P/2) == 0) X = P/2; ... else if (E % 2 == 0) X = 2;`),
 * assigned nowhere else: P, with E in *e and the if statement in *ifs;
 * 0 otherwise. */
int64_t pl_chain_ladder(const fe_ast *a, int var, int *e, int *ifs);

#endif
