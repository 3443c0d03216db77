/*
 * opt.h - what the loop's files share: the caller's problem shapes and
 * argument values, the completion of a plan's open needs from them, the
 * subsets of the built-in planner's plan that each round rewrites, and the
 * analysis that ranks the refactors.
 */
#ifndef KTC_OPTIMIZE_OPT_H
#define KTC_OPTIMIZE_OPT_H

#include "ktc/diag.h"
#include "ktc/eval.h"
#include "ktc/model.h"
#include "ktc/optimize.h"
#include "ktc/plan.h"
#include "ktc/tune.h"
#include "util/arena.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* `--problem NAME=V1,V2`: one problem variable and its values. */
typedef struct kt_opt_var {
	const char *name;
	int64_t *values;
	size_t n;
	bool used; /* a need of the kernel asked for it */
} kt_opt_var;

/* `--arg NAME=VALUE`. */
typedef struct kt_opt_arg {
	const char *name;
	const char *value;
	bool used;
} kt_opt_arg;

typedef struct kt_opt_inputs {
	kt_opt_var *vars;
	size_t nvars;
	kt_opt_arg *args;
	size_t nargs;
	kt_opt_arg *inits; /* `--init NAME=INIT` */
	size_t ninits;
	size_t nshapes; /* the product of the variables' value counts */
} kt_opt_inputs;

/* Reads the options' strings into in (memory from arena); a malformed one
 * is an error naming it. */
int kt_opt_inputs_read(kt_opt_inputs *in, const kt_optimize_options *o,
                       kt_arena *arena);

/* The value of variable v in shape s (shapes count in the order of the
 * variables, the last one fastest). */
int64_t kt_opt_shape_value(const kt_opt_inputs *in, size_t v, size_t s);

/*
 * Turns the plan's needs of kernel into pragma lines where in says the
 * value; a need left open is an error at the place in the file it comes
 * from (path, text), and so is an input no need asked for. Returns 0 or
 * KT_EINVALID with diagnostics.
 */
int kt_opt_complete(kt_plan *p, const char *kernel, kt_opt_inputs *in,
                    const char *path, const char *text, kt_diags *diags);

/* Whether plan refactor r creates its parameter (no literal of the
 * original becomes it) rather than following one. */
bool kt_opt_creates(const kt_plan *p, const kt_plan_refactor *r);

/*
 * A copy of p (sharing its strings) with the refactors that create a
 * parameter kept only where on[r] is true for one of that parameter's
 * refactors (a parameter comes with all of its refactors, as a row split
 * of several loops must); the parameters they create go
 * with them, and where a pragma line or a constraint names one that went,
 * its default stands there instead.
 */
int kt_opt_subset(kt_plan **out, const kt_plan *p, const bool *on);

/* odd.c: the shapes around `at` (model order) that tuning does not
 * visit: each integer problem variable at 1 and at (v / 2) | 1, the
 * others as at `at`; at most max, written to out (max * nproblems). */
size_t kt_opt_odd_shapes(const kt_model *m, const kt_value *at, kt_value *out,
                         size_t max);

typedef struct kt_opt_odd_ctx {
	const kt_model *m;
	const kt_value *at;  /* the tuned shape's problem values */
	const kt_value *dev; /* the model's device values */
	kt_backend *b;       /* the tuning's backend: its problem changes */
	kt_arena *arena;
} kt_opt_odd_ctx;

/*
 * The fastest of cands (correct at the tuned shape) that also gives the
 * original's outputs at every odd shape where the original runs, trying
 * at most 64; def (the default configuration, the original) when none
 * does or it comes first. *set_aside counts those that did not hold, *why
 * the first failure (arena text). Returns 0 or a backend's failure.
 */
int kt_opt_odd_best(const kt_tune_entry **best, const kt_opt_odd_ctx *c,
                    const kt_tune_entry *const *cands, size_t ncands,
                    const kt_tune_entry *def, size_t *set_aside,
                    const char **why);

/* A refactor proposed for a round: its index in the plan and why. */
typedef struct kt_opt_proposal {
	size_t refactor;
	double score; /* higher first */
	const char *why;
} kt_opt_proposal;

/*
 * Ranks the refactors of p that create a parameter for the kernel of model
 * m (round 0's template), at the shapes of in on device dev; rep (may be
 * NULL) gives round 0's measured counters (--profile) and times. Fills out
 * (up to p->nrefactors entries), best first.
 */
size_t kt_opt_rank(kt_opt_proposal *out, const kt_plan *p, const kt_model *m,
                   const kt_opt_inputs *in, const kt_device_info *dev,
                   const kt_optimize_report *rep, kt_arena *arena);

/* The model's problem values for shape s (vals has m->nproblems slots);
 * a problem variable the inputs do not name keeps its default. */
void kt_opt_problem(kt_value *vals, const kt_model *m, const kt_opt_inputs *in,
                    size_t s);

/* The device's value of the DEVICE_* constant name (its fallback where
 * the backend did not give one); 0 for an unknown name. */
int64_t kt_opt_device_value(const kt_device_info *dev, const char *name);

/* Bytes the kernel must move at problem values prob: each buffer's length
 * times its element size, twice for inout; 0 when a length cannot be
 * evaluated. */
double kt_opt_bytes(const kt_model *m, const kt_value *prob);

/* What the LLM planner is shown (optimize/llm_plan.c). */
typedef struct kt_opt_facts {
	const char *path;
	const char *text; /* the original file */
	size_t len;
	const kt_plan *plan; /* annotate's plan, with the variants so far */
	const char *kernel;
	const kt_opt_proposal *props; /* the catalogue's, ranked */
	size_t nprops;
	const kt_optimize_report *rep; /* the profile and the rounds */
} kt_opt_facts;

/* The system message: the task, the answer's forms, the catalogue. */
const char *kt_opt_llm_system(void);
/* The user message for the next round (*out is the caller's). */
int kt_opt_llm_prompt(char **out, const kt_opt_facts *f);

/*
 * A copy of p (sharing p's memory: p must outlive it) with a parameter
 * name of values (0, 1), default 0, that a `variant` refactor of kernel
 * introduces: body (the kernel's `{ ... }` range) becomes text when name
 * is 1. Not validated: the caller runs kt_plan_validate on it.
 */
int kt_opt_add_variant(kt_plan **out, const kt_plan *p, const char *kernel,
                       kt_range body, const char *name, const char *text,
                       const char *note);

#endif
