/*
 * analysis.c - which refactor to try first, and what the kernel must move.
 *
 * The ranking reads round 0's template at every shape (the grid its
 * default configuration launches, against the device's SM count) and the
 * plan's facts about each refactor (the bytes of one access). Each rule
 * is one the team learned from SASS and the profiler on the samples, and
 * its reason goes into the summary with the proposal:
 *  - a grid of fewer blocks than SMs leaves SMs idle (decode shapes: one
 *    block per token), so spreading a row over blocks comes first there;
 *  - accesses narrower than 16 bytes issue more instructions per byte;
 *  - ptxas does not hoist the next iteration's loads above this one's
 *    store, so a strided loop keeps one load in flight per thread;
 *  - a kernel of one element per thread pays a block's start-up per few
 *    bytes;
 *  - a block reduction's tree waits at a barrier per step; shuffles
 *    need two (warp_reduce); with many rows a warp per row needs none,
 *    with few rows it leaves SMs emptier (warp_per_row);
 *  - a shared tile read column-wise conflicts on banks unless padded;
 *  - a prefix sum one thread runs alone holds the whole block (its
 *    latency is the element count times a dependent add): a warp scan
 *    comes first with the idle-SM rules;
 *  - an integer division by an invariant divisor in a loop costs about
 *    20 instructions a multiply-high saves: after hoisting loads;
 *  - a register cap (launch bounds) matters least and comes last.
 * The order only decides what is tried first: every proposal is verified
 * and measured before it is kept.
 */
#include "optimize/opt.h"

#include <stdlib.h>
#include <string.h>

void kt_opt_problem(kt_value *vals, const kt_model *m, const kt_opt_inputs *in,
                    size_t s)
{
	for (size_t i = 0; i < m->nproblems; i++) {
		vals[i] = kt_model_problem_value(m, NULL, i);
		for (size_t v = 0; v < in->nvars; v++)
			if (!strcmp(in->vars[v].name, m->problems[i].name))
				vals[i] = (kt_value){
				    .i = kt_opt_shape_value(in, v, s)};
	}
}

/* The model's slots at its default configuration and problem prob. */
static kt_value *bind_default(const kt_model *m, const kt_value *prob)
{
	kt_value *slots = calloc(m->nsymbols + 1, sizeof(*slots));
	uint32_t *idx = calloc(m->nparams + 1, sizeof(*idx));
	if (slots && idx) {
		kt_model_default_config(m, idx);
		if (kt_model_bind(slots, m, idx, prob, NULL)) {
			free(slots);
			slots = NULL;
		}
	} else {
		free(slots);
		slots = NULL;
	}
	free(idx);
	return slots;
}

static double as_double(kt_value v)
{
	return v.is_float ? v.f : (double)v.i;
}

double kt_opt_bytes(const kt_model *m, const kt_value *prob)
{
	kt_value *slots = bind_default(m, prob);
	double bytes = 0;
	for (size_t i = 0; slots && i < m->nargs; i++) {
		const kt_arg *a = &m->args[i];
		kt_value n;
		if (!a->count)
			continue;
		if (kt_expr_eval(&n, a->count, slots)) {
			kt_error_clear();
			bytes = 0;
			break;
		}
		bytes += as_double(n) * (double)kt_type_size(a->type) *
		         (a->dir == KT_ARG_INOUT ? 2 : 1);
	}
	free(slots);
	return bytes;
}

/* Blocks the default configuration launches at shape s; 0 if unknown. */
static double blocks(const kt_model *m, const kt_opt_inputs *in, size_t s)
{
	kt_value prob[64];
	if (m->nproblems > 64 || !m->launch.present)
		return 0;
	kt_opt_problem(prob, m, in, s);
	kt_value *slots = bind_default(m, prob);
	double n = slots ? 1 : 0;
	for (int d = 0; slots && d < 3; d++) {
		kt_value v;
		if (!m->launch.grid[d])
			continue;
		if (kt_expr_eval(&v, m->launch.grid[d], slots)) {
			kt_error_clear();
			n = 0;
			break;
		}
		n *= as_double(v);
	}
	free(slots);
	return n;
}

int64_t kt_opt_device_value(const kt_device_info *dev, const char *name)
{
	int i = kt_device_const_index(name);
	if (i < 0)
		return 0;
	return dev && dev->has_const[i] ? dev->consts[i]
	                                : kt_device_consts[i].fallback;
}

static double rate(const kt_plan_refactor *r, const kt_model *m,
                   const kt_opt_inputs *in, const kt_device_info *dev,
                   kt_arena *a, const char **why)
{
	const char *k = kt_refactor_kind_name(r->kind);
	int64_t sms = kt_opt_device_value(dev, "DEVICE_SM_COUNT");
	double fewest = 0;
	size_t at = 0;
	for (size_t s = 0; s < in->nshapes; s++) {
		double b = blocks(m, in, s);
		if (b > 0 && (fewest == 0 || b < fewest)) {
			fewest = b;
			at = s;
		}
	}
	if (!strcmp(k, "row_split") || !strcmp(k, "grid_stride") ||
	    !strcmp(k, "cluster_split")) {
		bool idle = fewest > 0 && fewest < (double)sms;
		*why = idle ? kt_arena_printf(a,
		                              "%.0f blocks at shape %zu for "
		                              "%lld SMs: SMs stand idle",
		                              fewest, at + 1, (long long)sms)
		            : "the grid fills the SMs at every shape";
		return idle ? 5 : 0.5;
	}
	if (!strcmp(k, "vectorize")) {
		*why = kt_arena_printf(a,
		                       "%d-byte accesses: up to 16 bytes per "
		                       "instruction",
		                       r->elem_size);
		return r->elem_size > 0 && r->elem_size < 16 ? 4 : 1;
	}
	if (!strcmp(k, "pack_stores")) {
		*why =
		    kt_arena_printf(a,
		                    "%s stores of %d bytes where one of %ld "
		                    "would do",
		                    r->bound, r->elem_size,
		                    r->elem_size * strtol(r->bound, NULL, 10));
		return 4;
	}
	if (!strcmp(k, "hoist_loads")) {
		*why = "one load in flight per thread and iteration (ptxas "
		       "does not hoist loads above a store)";
		return 3;
	}
	if (!strcmp(k, "items_per_thread")) {
		*why = "one element per thread: a block's start-up per few "
		       "bytes";
		return 2;
	}
	if (!strcmp(k, "warp_per_row")) {
		/* each warp a row: no block barrier, and a short row no
		 * longer leaves most of a block's threads idle; but rows / W
		 * blocks do the work, so few rows leave SMs emptier */
		bool many = fewest >= 4.0 * (double)sms && sms > 0;
		*why = many ? kt_arena_printf(a,
		                              "at least %.0f rows (blocks) for "
		                              "%lld SMs: a warp per row spares "
		                              "the block's barriers",
		                              fewest, (long long)sms)
		            : kt_arena_printf(a,
		                              "%.0f rows at shape %zu for %lld "
		                              "SMs: fewer busy blocks with a "
		                              "warp per row",
		                              fewest, at + 1, (long long)sms);
		return many ? 4.5 : 1.5;
	}
	if (!strcmp(k, "warp_reduce")) {
		*why = "a block barrier per step of the shared-memory tree; "
		       "shuffles need two";
		return 3.5;
	}
	if (!strcmp(k, "warp_scan")) {
		*why = "one thread adds the elements one after another while "
		       "the rest of the block waits; a warp adds 32 a step";
		return 5;
	}
	if (!strcmp(k, "fast_div")) {
		*why = "integer divisions by a divisor the run never changes, "
		       "in a loop: about 20 instructions each where a "
		       "multiply-high and a shift do";
		return 2.5;
	}
	if (!strcmp(k, "threads_per_group")) {
		*why = "a group's lanes fixed by hand: fewer lanes per group "
		       "give each more loads in flight and more groups per "
		       "block, more lanes shorter loops";
		return 3;
	}
	if (!strcmp(k, "groups_per_block")) {
		*why = "the host's cap on groups per block fixes the block "
		       "size: larger blocks for many groups, smaller for few";
		return 2;
	}
	if (!strcmp(k, "pad_shared")) {
		*why = "a shared tile read column-wise: its rows' stride "
		       "decides the bank conflicts";
		return 4;
	}
	if (!strcmp(k, "launch_bounds")) {
		*why = "a register cap for more resident blocks";
		return 1;
	}
	*why = "proposed by the planner";
	return 1;
}

static int by_score(const void *x, const void *y)
{
	const kt_opt_proposal *a = x, *b = y;
	if (a->score != b->score)
		return a->score < b->score ? 1 : -1;
	return (a->refactor > b->refactor) - (a->refactor < b->refactor);
}

/* What round 0's counters (--profile) say, at the shape where it shows
 * most: */
typedef struct counters {
	/* the lowest achieved occupancy (%) at a shape whose grid fills the
	 * SMs (few blocks are low for want of blocks, not of room), and
	 * that shape; -1 when not measured */
	double low_occ;
	size_t occ_at;
	/* the highest SM throughput (%) at a shape where DRAM moves under
	 * 60% of the copy bandwidth (the time goes to instructions), the
	 * bandwidth fraction there, and the shape; -1 when none */
	double busy_sm, dram_frac;
	size_t sm_at;
} counters;

static counters counters_of(const kt_model *m, const kt_opt_inputs *in,
                            const kt_device_info *dev,
                            const kt_optimize_report *rep)
{
	counters c = {-1, 0, -1, 0, 0};
	int64_t sms = kt_opt_device_value(dev, "DEVICE_SM_COUNT");
	const kt_optimize_round *r0 =
	    rep && rep->nrounds ? &rep->rounds[0] : NULL;
	for (size_t s = 0; r0 && rep->occupancy_pct && s < rep->nshapes; s++) {
		double occ = rep->occupancy_pct[s], sm = rep->sm_pct[s];
		double ms = r0->best_ms ? r0->best_ms[s] : 0;
		if (occ >= 0 && blocks(m, in, s) >= (double)sms &&
		    (c.low_occ < 0 || occ < c.low_occ))
			c.low_occ = occ, c.occ_at = s;
		double frac =
		    rep->dram_bytes[s] >= 0 && ms > 0 && dev->copy_gbs > 0
		        ? rep->dram_bytes[s] / (ms * 1e-3) /
		              (dev->copy_gbs * 1e9)
		        : -1;
		if (sm >= 0 && frac >= 0 && frac < 0.6 && sm > c.busy_sm)
			c.busy_sm = sm, c.dram_frac = frac, c.sm_at = s;
	}
	return c;
}

/* The counters' say on refactor kind k: a score to add, and why. */
static double by_counters(const char *k, const counters *c, kt_arena *a,
                          const char **why)
{
	/* warps resident well under the most the SM holds, grid full: a
	 * register cap may let more blocks in; more work per thread puts
	 * more loads in flight with the warps there are */
	if (c->low_occ >= 0 && c->low_occ < 50 &&
	    (!strcmp(k, "launch_bounds") || !strcmp(k, "items_per_thread") ||
	     !strcmp(k, "hoist_loads"))) {
		*why = kt_arena_printf(a,
		                       "achieved occupancy %.0f%% at shape %zu "
		                       "(counters)",
		                       c->low_occ, c->occ_at + 1);
		return !strcmp(k, "launch_bounds") ? 3 : 1;
	}
	/* the SMs busy while DRAM idles: instructions, not bytes, take the
	 * time; fewer of them per byte */
	if (c->busy_sm >= 60 &&
	    (!strcmp(k, "fast_div") || !strcmp(k, "vectorize") ||
	     !strcmp(k, "pack_stores"))) {
		*why = kt_arena_printf(
		    a,
		    "SM throughput %.0f%% with DRAM at %.0f%% "
		    "of copy bandwidth at shape %zu "
		    "(counters): instruction-bound",
		    c->busy_sm, 100 * c->dram_frac, c->sm_at + 1);
		return 2;
	}
	return 0;
}

size_t kt_opt_rank(kt_opt_proposal *out, const kt_plan *p, const kt_model *m,
                   const kt_opt_inputs *in, const kt_device_info *dev,
                   const kt_optimize_report *rep, kt_arena *a)
{
	counters c = counters_of(m, in, dev, rep);
	size_t n = 0;
	for (size_t r = 0; r < p->nrefactors; r++) {
		const kt_plan_refactor *f = &p->refactors[r];
		if (strcmp(f->kernel, m->kernel) || !kt_opt_creates(p, f))
			continue;
		/* one proposal per parameter: its first refactor stands for
		 * all (kt_opt_subset applies them together) */
		bool seen = false;
		for (size_t k = 0; k < r && !seen; k++)
			seen = !strcmp(p->refactors[k].kernel, f->kernel) &&
			       !strcmp(p->refactors[k].param, f->param);
		if (seen)
			continue;
		const char *why = NULL;
		out[n].refactor = r;
		out[n].score = rate(f, m, in, dev, a, &why);
		const char *said = NULL;
		double more =
		    by_counters(kt_refactor_kind_name(f->kind), &c, a, &said);
		if (more > 0) {
			out[n].score += more;
			why = kt_arena_printf(a, "%s; %s", said, why);
		}
		out[n].why =
		    f->note ? kt_arena_printf(a, "%s; %s", why, f->note) : why;
		n++;
	}
	qsort(out, n, sizeof(*out), by_score);
	return n;
}
