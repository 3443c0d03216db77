/*
 * strategies.c - ktc-bench-strategies: how many evaluations each search
 * strategy needs to come within 5% of a landscape's optimum, averaged over
 * many seeds, next to random search. bench/strategies.sh runs it and writes
 * docs/strategies.md.
 *
 * A landscape is an objective for every configuration of a template's
 * space. Built-in landscapes are SYNTHETIC: a performance model of an
 * H100-like GPU (occupancy from registers, shared memory and threads; wave
 * quantisation; latency hiding; memory-level parallelism; a frozen 2-3%
 * log-normal noise) evaluated over the real spaces of the templates
 * bench/strategies.*.kt.cu. A recorded landscape (--recorded TEMPLATE=FILE)
 * comes from a results file (T4 or ktc cache), such as a real GPU run.
 *
 * The design choice: the whole landscape is computed once, and each run
 * drives a strategy through the public ask/tell interface one
 * configuration at a time, counting distinct evaluations until the best
 * seen is within the target; every strategy ends by construction (none
 * asks twice), so no run is cut short and no mean hides a censored run.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ktc/results.h"
#include "ktc/space.h"
#include "ktc/strategy.h"
#include "tuner/strategy_impl.h"
#include "util/opt.h"
#include "util/rng.h"

/* The device the synthetic models stand for: an H100 SXM, roughly. */
enum { SMS = 132, THREADS_SM = 2048, REGS_SM = 65536, BLOCKS_SM = 32 };
#define SMEM_SM 233472.0
#define FLOP_MS 6.0e10 /* fp32 FMA peak, flop per ms */
#define DRAM_MS 3.35e9 /* bytes per ms */
#define L2_MS 1.0e10
#define SMEM_BW_MS 2.8e10
#define LAUNCH_MS 0.004

typedef struct bindings {
	const kt_model *m;
	const kt_value *slots;
} bindings;

static double v(const bindings *b, const char *name)
{
	int sym = kt_model_symbol(b->m, name);
	return sym < 0 ? NAN : kt_value_as_double(b->slots[sym]);
}

/* Resident blocks per SM; 0 when the block cannot launch at all. */
static double blocks_per_sm(double threads, double regs, double smem)
{
	double warps = ceil(threads / 32.0);
	double regs_block = warps * 32.0 * ceil(regs / 8.0) * 8.0;
	if (regs_block > REGS_SM || threads > 1024 || smem > SMEM_SM - 1024)
		return 0;
	double b = floor(THREADS_SM / (warps * 32.0));
	b = fmin(b, floor(REGS_SM / regs_block));
	b = fmin(b, BLOCKS_SM);
	if (smem > 0)
		b = fmin(b, floor(SMEM_SM / (smem + 1024.0)));
	return b;
}

/* Fraction of the GPU a grid keeps busy, whole waves counted. */
static double wave_efficiency(double blocks, double per_sm)
{
	double slots = SMS * per_sm;
	return blocks / (ceil(blocks / slots) * slots);
}

/*
 * SGEMM 2048^3: compute time over latency hiding (warps x independent
 * FMAs), shared-memory issue (FMAs per shared load), loop and barrier
 * overheads, and waves; global traffic through L2 overlaps with compute
 * when there are two or more stages. Registers grow with the thread tile
 * and unrolling; a block whose registers do not fit cannot launch.
 */
static double model_matmul(const bindings *b)
{
	double bm = v(b, "BLOCK_M"), bn = v(b, "BLOCK_N"), bk = v(b, "BLOCK_K");
	double tm = v(b, "THREAD_M"), tn = v(b, "THREAD_N"), vec = v(b, "VEC");
	double st = v(b, "STAGES"), un = v(b, "UNROLL");
	double threads = v(b, "THREADS"), smem = v(b, "SMEM");
	double mnk = 2048.0 * 2048.0 * 2048.0;
	double regs =
	    20 + tm * tn + (tm + tn) * fmin(un, 4) + 2 * vec + 8 * (st - 1);
	double per_sm = blocks_per_sm(threads, regs, smem);
	if (per_sm == 0)
		return INFINITY;
	double warps = per_sm * threads / 32.0;
	double hide = 1 - exp(-warps * fmin(tm * tn, 32) / 64.0);
	double lds = fmin(1, tm * tn / (tm + tn / vec) / 4.0);
	double loop = tm * tn / (tm * tn + 6.0 / un + 2.0);
	double sync = bk / (bk + 8.0 / st);
	double waves = wave_efficiency((2048 / bm) * (2048 / bn), per_sm);
	double t_c = 2 * mnk / (FLOP_MS * hide * lds * loop * sync * waves);
	double ld = vec == 1 ? 0.7 : vec == 2 ? 0.9 : 1.0;
	double t_m = 4 * mnk * (1 / bm + 1 / bn) / (L2_MS * ld * hide);
	double t =
	    st > 1 ? fmax(t_c, t_m) + 0.05 * fmin(t_c, t_m) : t_c + 0.5 * t_m;
	return t + LAUNCH_MS;
}

/*
 * RMSNorm 4096 x 4096 bf16: DRAM time at the bandwidth that the bytes in
 * flight per SM sustain (Little's law), vector-width issue limits, a
 * second read of the row unless it stays in shared memory, the block
 * reduction's cost, and the tail of the last wave. __launch_bounds__'
 * minimum blocks caps registers; going over the cap spills.
 */
static double model_rmsnorm(const bindings *b)
{
	double block = v(b, "BLOCK"), vec = v(b, "VEC"), rows = v(b, "ROWS");
	double un = v(b, "UNROLL"), cache = v(b, "CACHE_ROW");
	double shfl = v(b, "SHUFFLE"), minb = v(b, "MIN_BLOCKS");
	double smem = v(b, "SMEM"), tokens = 4096, hidden = 4096;
	double regs = 18 + vec * un + (shfl ? 0 : 4);
	double cap = fmin(255, floor(REGS_SM / (block * minb) / 8) * 8);
	double spill = regs > cap ? 1 + 2.0 * (regs - cap) / regs : 1;
	double per_sm = blocks_per_sm(block, fmin(regs, cap), smem);
	if (per_sm == 0)
		return INFINITY;
	double inflight = per_sm * block * vec * 2 * fmin(un, 4);
	double mlp = fmin(1, inflight / 40000.0);
	double issue = sqrt(fmin(1, vec / 4.0));
	double bytes = tokens * hidden * 2 * (2 + (cache ? 0 : 0.35));
	double waves = wave_efficiency(tokens / rows, per_sm);
	double t_mem = bytes / (DRAM_MS * mlp * issue * sqrt(waves)) * spill;
	double red_us = log2(block) * (shfl ? 0.015 : 0.05) + 0.2;
	double t_red =
	    tokens / SMS * red_us * 1e-3 / fmax(1, per_sm * block / 256.0);
	return t_mem + t_red + LAUNCH_MS;
}

/*
 * 9-point stencil on 4096^2 fp32: the slower of DRAM traffic (halo rows
 * re-read at block edges) and on-chip traffic (a shared-memory tile with
 * its halo, or cached loads with reuse along y in registers, uncoalesced
 * when a warp's row is short), over latency hiding. More outputs per
 * thread and unrolling cost registers; too many spill.
 */
static double model_stencil(const bindings *b)
{
	double bx = v(b, "BX"), by = v(b, "BY"), tx = v(b, "TX"),
	       ty = v(b, "TY");
	double tile = v(b, "SMEM_TILE"), ldg = v(b, "LDG"), un = v(b, "UNROLL");
	double threads = v(b, "THREADS"), smem = v(b, "SMEM"),
	       n = 4096.0 * 4096;
	double regs = 22 + 3 * tx * ty + 4 * un * tx;
	double spill = regs > 96 ? 1 + (regs - 96) / 48.0 : 1;
	double per_sm = blocks_per_sm(threads, regs, smem);
	if (per_sm == 0)
		return INFINITY;
	double warps = per_sm * threads / 32.0;
	double ilp = fmin(tx * ty * (1 + 0.5 * (un - 1)), 8);
	double hide = 1 - exp(-warps * ilp / 24.0);
	double coal = fmin(1, bx * tx / 32.0);
	double t_dram = n * 8 * (1 + 2.0 / (by * ty)) / (DRAM_MS * coal);
	double t_chip;
	if (tile) {
		double halo =
		    (bx * tx + 4) * (by * ty + 4) / (bx * tx * by * ty);
		t_chip = n * 4 * (9 + 2 * halo) / SMEM_BW_MS + n * 0.5e-9 / by;
	} else {
		double loads = (ty + 4) / ty + 4;
		t_chip = n * 4 * loads / (SMEM_BW_MS * (ldg ? 1.15 : 1) * coal);
	}
	return fmax(t_dram, t_chip) / hide * spill + LAUNCH_MS;
}

typedef struct landscape_def {
	const char *name;
	const char *file; /* under bench/ */
	double (*model)(const bindings *b);
	double noise; /* standard deviation of the log-normal noise */
	const char *about;
} landscape_def;

static const landscape_def builtins[] = {
    {"matmul", "strategies.matmul.kt.cu", model_matmul, 0.02,
     "fp32 SGEMM 2048^3, 8 knobs; compute-bound: occupancy from "
     "registers/shared memory, latency hiding, shared-memory issue, waves; "
     "blocks whose registers do not fit fail to launch"},
    {"rmsnorm", "strategies.rmsnorm.kt.cu", model_rmsnorm, 0.03,
     "bf16 RMSNorm 4096 x 4096, 7 knobs; memory-bound: bytes in flight "
     "(Little's law), vector width, reduction cost, tail, register cap "
     "from __launch_bounds__ (spills)"},
    {"stencil", "strategies.stencil.kt.cu", model_stencil, 0.02,
     "fp32 9-point stencil 4096^2, 7 knobs; DRAM vs on-chip traffic, "
     "shared-memory tile halo, coalescing, register spills, launch "
     "failures"},
};
enum { NBUILTIN = sizeof(builtins) / sizeof(builtins[0]) };

/* A landscape in memory: an objective per configuration of its space. */
typedef struct landscape {
	char name[64];
	char about[2048];
	kt_template *t;
	kt_space *space;
	double *y; /* INFINITY: invalid */
	uint64_t n;
	double best;
	uint64_t best_index;
	double median;          /* of the valid objectives */
	uint64_t invalid, good; /* good: within the target of the best */
} landscape;

static int open_space(landscape *l, const char *path)
{
	kt_diags d;
	kt_diags_init(&d);
	int rc = kt_template_load(&l->t, path, &d);
	if (!rc)
		rc = kt_space_build(&l->space, kt_template_model(l->t, NULL),
		                    NULL, NULL, &d);
	if (rc && d.len)
		kt_diags_print(&d, stderr, 0);
	kt_diags_release(&d);
	if (rc)
		return rc;
	l->n = kt_space_count(l->space);
	l->y = calloc(l->n ? l->n : 1, sizeof(double));
	return l->y ? 0 : KT_ENOMEM;
}

static double noise(uint64_t seed, uint64_t index, double sd)
{
	kt_rng r;
	kt_rng_seed(&r, seed * 0x9e3779b97f4a7c15ULL ^ index);
	return exp(sd * kt_rng_normal(&r));
}

static int synthesize(landscape *l, const landscape_def *def, uint64_t seed)
{
	const kt_model *m = kt_space_model(l->space);
	uint32_t *idx = calloc(m->nparams + 1, sizeof(uint32_t));
	kt_value *slots = calloc(m->nsymbols + 1, sizeof(kt_value));
	int rc = idx && slots ? 0 : KT_ENOMEM;
	bindings b = {m, slots};
	for (uint64_t i = 0; !rc && i < l->n; i++) {
		if ((rc = kt_space_get(l->space, i, idx)) ||
		    (rc = kt_model_bind(slots, m, idx, NULL, NULL)))
			break;
		l->y[i] = def->model(&b) * noise(seed, i, def->noise);
	}
	free(idx);
	free(slots);
	return rc;
}

/* Domain index of value in parameter p, or -1. */
static int domain_index(const kt_param *p, kt_value x)
{
	for (size_t k = 0; k < p->nvalues; k++)
		if (kt_value_as_double(p->values[k]) == kt_value_as_double(x))
			return (int)k;
	return -1;
}

/* Objectives from a results file; configurations it lacks are invalid. */
/* What a results file says it is: synthetic (which kind) or a device. */
static void describe_recorded(landscape *l, const kt_results *r,
                              const char *results, const char *template)
{
	if (r->info.synthetic)
		snprintf(l->about, sizeof(l->about),
		         "synthetic `%s` landscape (`ktc landscape --kind %s "
		         "--seed %llu`) over the space of `%s`",
		         r->info.synthetic, r->info.synthetic,
		         (unsigned long long)r->info.seed, template);
	else
		snprintf(l->about, sizeof(l->about),
		         "recorded on %s: `%s` over the space of `%s`",
		         r->info.device.name[0] ? r->info.device.name
		                                : "an unnamed device",
		         results, template);
}

static int load_recorded(landscape *l, const char *results,
                         const char *template)
{
	const kt_model *m = kt_space_model(l->space);
	kt_results *r = NULL;
	int rc = kt_results_load(&r, results);
	if (rc)
		return rc;
	describe_recorded(l, r, results, template);
	for (uint64_t i = 0; i < l->n; i++)
		l->y[i] = INFINITY;
	int *col = calloc(m->nparams + 1, sizeof(int));
	uint32_t *idx = calloc(m->nparams + 1, sizeof(uint32_t));
	for (size_t p = 0; p < m->nparams; p++) {
		col[p] = -1;
		for (size_t c = 0; c < r->info.nparams; c++)
			if (!strcmp(r->info.param_names[c], m->params[p].name))
				col[p] = (int)c;
	}
	for (size_t k = 0; k < r->nrecords; k++) {
		const kt_record *rec = &r->records[k];
		bool ok = rec->result.status == KT_STATUS_OK;
		for (size_t p = 0; ok && p < m->nparams; p++) {
			int d = col[p] < 0 ? -1
			                   : domain_index(&m->params[p],
			                                  rec->values[col[p]]);
			ok = d >= 0;
			idx[p] = (uint32_t)(d < 0 ? 0 : d);
		}
		int64_t i = ok ? kt_space_index_of(l->space, idx) : -1;
		if (i >= 0)
			l->y[i] = rec->result.time_ms;
	}
	free(col);
	free(idx);
	kt_results_free(r);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int summarize(landscape *l, double within)
{
	double *sorted = malloc((l->n ? l->n : 1) * sizeof(double));
	if (!sorted)
		return KT_ENOMEM;
	l->best = INFINITY;
	l->invalid = l->good = 0;
	for (uint64_t i = 0; i < l->n; i++) {
		sorted[i] = l->y[i];
		if (l->y[i] == INFINITY) {
			l->invalid++;
		} else if (l->y[i] < l->best) {
			l->best = l->y[i];
			l->best_index = i;
		}
	}
	for (uint64_t i = 0; i < l->n; i++)
		l->good += l->y[i] <= l->best * (1 + within);
	qsort(sorted, l->n, sizeof(double), cmp_double);
	l->median = sorted[(l->n - l->invalid) / 2];
	free(sorted);
	return 0;
}

static void landscape_free(landscape *l)
{
	free(l->y);
	kt_space_free(l->space);
	kt_template_free(l->t);
}

/* A strategy under test: a name and its settings ("name:k=v,k=v"). */
enum { MAXS = 16, MAXSET = 16, MAXBATCH = 256 };
typedef struct contender {
	char label[128];
	char name[64];
	char buf[512];
	const char *settings[MAXSET + 1];
} contender;

/* One run: evaluations until within target, and the strategy's CPU time. */
static int run_once(const landscape *l, const contender *strategy,
                    uint64_t seed, size_t batch, double target, uint64_t *evals,
                    double *cpu_s)
{
	kt_strategy *s = NULL;
	kt_strategy_options o = {seed, 0, strategy->settings};
	int rc = kt_strategy_create(&s, strategy->name, l->space, &o);
	if (rc)
		return rc;
	clock_t c0 = clock();
	uint64_t n = 0, asked[MAXBATCH];
	*evals = 0;
	while (!rc && !*evals) {
		size_t got = 0;
		if ((rc = kt_strategy_ask(s, asked, batch, &got)) || got == 0)
			break;
		for (size_t k = 0; k < got && !rc; k++) {
			n++;
			if (l->y[asked[k]] <= target && !*evals)
				*evals = n;
			rc = kt_strategy_tell(s, asked[k], l->y[asked[k]]);
		}
	}
	*cpu_s = (double)(clock() - c0) / CLOCKS_PER_SEC;
	kt_strategy_free(s);
	if (!rc && *evals == 0)
		rc = kt_error(KT_ERROR, "%s ended without reaching the target",
		              strategy->label);
	return rc;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

typedef struct cell {
	double mean, median, cpu_ms_per_eval;
} cell;

static int measure(const landscape *l, const contender *strategy, int seeds,
                   size_t batch, double within, cell *out)
{
	uint64_t *e = calloc((size_t)seeds, sizeof(uint64_t));
	double sum = 0, cpu = 0;
	int rc = e ? 0 : KT_ENOMEM;
	for (int k = 0; !rc && k < seeds; k++) {
		double c;
		rc = run_once(l, strategy, (uint64_t)k + 1, batch,
		              l->best * (1 + within), &e[k], &c);
		sum += (double)e[k];
		cpu += c;
	}
	if (!rc) {
		qsort(e, (size_t)seeds, sizeof(*e), cmp_u64);
		out->mean = sum / seeds;
		out->median =
		    seeds % 2 ? (double)e[seeds / 2]
		              : 0.5 * (double)(e[seeds / 2 - 1] + e[seeds / 2]);
		out->cpu_ms_per_eval = 1e3 * cpu / sum;
	}
	free(e);
	return rc;
}

static const char *const default_strategies[] = {
    "random",  "brute_force",  "simulated_annealing",
    "genetic", "local_search", "bayes",
};
static contender strats[MAXS];
static int NSTRAT;

static int add_contender(const char *spec)
{
	if (NSTRAT == MAXS)
		return kt_error(KT_EINVALID, "more than %d strategies", MAXS);
	contender *c = &strats[NSTRAT];
	const char *colon = strchr(spec, ':');
	size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
	snprintf(c->label, sizeof(c->label), "%s", spec);
	snprintf(c->name, sizeof(c->name), "%.*s", (int)len, spec);
	snprintf(c->buf, sizeof(c->buf), "%s", colon ? colon + 1 : "");
	int n = 0;
	for (char *tok = strtok(c->buf, ","); tok && n < MAXSET;
	     tok = strtok(NULL, ","))
		c->settings[n++] = tok;
	c->settings[n] = NULL;
	if (!kt_strategy_find(c->name))
		return kt_error(KT_ENOTFOUND, "unknown strategy '%s'", c->name);
	NSTRAT++;
	return 0;
}

/* The words of "a|b|c" as "a, b or c"; the k-th word alone when k >= 0. */
static void print_choices(const char *choices, int k)
{
	int i = 0;
	for (const char *p = choices; *p; i++) {
		size_t len = strcspn(p, "|");
		if (k < 0)
			printf("%s`%.*s`",
			       i == 0   ? ""
			       : p[len] ? ", "
			                : " or ",
			       (int)len, p);
		else if (i == k)
			printf("`%.*s`", (int)len, p);
		p += len + (p[len] == '|');
	}
}

/* The settings of one strategy as a markdown table. */
static int print_settings(const char *name)
{
	const kt_strategy_ops *ops = kt_strategy_find(name);
	if (!ops)
		return kt_error(KT_ENOTFOUND, "unknown strategy '%s'", name);
	const kt_setting *t = kt_strategy_settings(ops);
	if (!t || !t->name) {
		printf("No settings.\n");
		return 0;
	}
	printf("| setting | default | range | meaning |\n|---|---|---|---|\n");
	for (; t->name; t++) {
		printf("| `%s` | ", t->name);
		if (t->kind == KT_SETTING_CHOICE) {
			print_choices(t->choices, (int)t->def);
			printf(" | ");
			print_choices(t->choices, -1);
		} else if (t->kind == KT_SETTING_INT) {
			printf("%.0f | %.0f to %.0f", t->def, t->lo, t->hi);
		} else {
			printf("%g | %g to %g", t->def, t->lo, t->hi);
		}
		printf(" | %s |\n", t->help);
	}
	return 0;
}

static void print_landscapes(const landscape *ls, int nl, double within)
{
	printf("| landscape | valid configurations | invalid (fail to run) | "
	       "within %g%% of the optimum | random search's expected "
	       "evaluations | median / optimum |\n"
	       "|---|---:|---:|---:|---:|---:|\n",
	       within * 100);
	for (int i = 0; i < nl; i++)
		printf("| %s | %llu | %llu | %llu | %.1f | %.2f |\n",
		       ls[i].name, (unsigned long long)ls[i].n,
		       (unsigned long long)ls[i].invalid,
		       (unsigned long long)ls[i].good,
		       (double)(ls[i].n + 1) / (double)(ls[i].good + 1),
		       ls[i].median / ls[i].best);
	printf("\n");
	for (int i = 0; i < nl; i++) {
		uint32_t idx[64];
		char *key = NULL;
		if (kt_space_model(ls[i].space)->nparams <= 64 &&
		    !kt_space_get(ls[i].space, ls[i].best_index, idx))
			key = kt_space_key(ls[i].space, idx);
		printf("- **%s**: %s. Optimum %.4g ms at `%s`.\n", ls[i].name,
		       ls[i].about, ls[i].best, key ? key : "?");
		kt_free(key);
	}
	printf("\n");
}

/* A header row and its rule: "| first | strategy... |". */
static void strategy_header(const char *first)
{
	printf("| %s |", first);
	for (int s = 0; s < NSTRAT; s++)
		printf(" %s |", strats[s].label);
	printf("\n|---|");
	for (int s = 0; s < NSTRAT; s++)
		printf("---:|");
	printf("\n");
}

static void print_ratios(const landscape *ls, int nl, cell (*c)[MAXS])
{
	double logsum[MAXS] = {0};
	printf("The same means as a fraction of random search's (below 0.33: "
	       "under a third of its evaluations):\n\n");
	strategy_header("landscape");
	for (int i = 0; i < nl; i++) {
		printf("| %s |", ls[i].name);
		for (int s = 0; s < NSTRAT; s++) {
			double r = c[i][s].mean / c[i][0].mean;
			logsum[s] += log(r);
			printf(r < 1.0 / 3 ? " **%.2f** |" : " %.2f |", r);
		}
		printf("\n");
	}
	printf("| geometric mean |");
	for (int s = 0; s < NSTRAT; s++)
		printf(" %.2f |", exp(logsum[s] / nl));
	printf("\n\nUnder a third of random search's mean evaluations:");
	for (int s = 1; s < NSTRAT; s++) {
		int under = 0;
		for (int i = 0; i < nl; i++)
			under += c[i][s].mean < c[i][0].mean / 3;
		printf("%s %s on %d of %d landscapes", s > 1 ? ";" : "",
		       strats[s].label, under, nl);
	}
	printf(".\n\n");
}

static void print_table(const landscape *ls, int nl, cell (*c)[MAXS], int seeds,
                        int batch, double within)
{
	printf("Evaluations until the best configuration seen is within %g%% "
	       "of the optimum, mean (median) over %d seeds, asking %d "
	       "configuration%s at a time:\n\n",
	       within * 100, seeds, batch, batch == 1 ? "" : "s");
	strategy_header("landscape");
	for (int i = 0; i < nl; i++) {
		printf("| %s |", ls[i].name);
		for (int s = 0; s < NSTRAT; s++)
			printf(" %.1f (%.0f) |", c[i][s].mean, c[i][s].median);
		printf("\n");
	}
	printf("\n");
	print_ratios(ls, nl, c);
	printf(
	    "CPU time the strategy itself spends per evaluation, in ms:\n\n");
	strategy_header("landscape");
	for (int i = 0; i < nl; i++) {
		printf("| %s |", ls[i].name);
		for (int s = 0; s < NSTRAT; s++)
			printf(" %.3f |", c[i][s].cpu_ms_per_eval);
		printf("\n");
	}
}

enum { MAXL = 16 };

static int add_builtin(landscape *l, const char *name, const char *dir,
                       uint64_t seed)
{
	for (int i = 0; i < NBUILTIN; i++) {
		if (strcmp(builtins[i].name, name))
			continue;
		char path[1024];
		snprintf(path, sizeof(path), "%s/%s", dir, builtins[i].file);
		snprintf(l->name, sizeof(l->name), "%s.model", name);
		snprintf(l->about, sizeof(l->about),
		         "synthetic, this benchmark's own model: %s; over the "
		         "space of `bench/%s`",
		         builtins[i].about, builtins[i].file);
		int rc = open_space(l, path);
		return rc ? rc : synthesize(l, &builtins[i], seed);
	}
	return kt_error(
	    KT_ENOTFOUND,
	    "unknown landscape '%s' (known: matmul, rmsnorm, stencil)", name);
}

/* TEMPLATE=RESULTS: a recorded landscape. */
static int add_recorded(landscape *l, const char *spec)
{
	const char *eq = strchr(spec, '=');
	if (!eq)
		return kt_error(KT_EINVALID,
		                "--recorded wants TEMPLATE=RESULTS, not '%s'",
		                spec);
	char path[1024];
	snprintf(path, sizeof(path), "%.*s", (int)(eq - spec), spec);
	const char *base = strrchr(eq + 1, '/');
	snprintf(l->name, sizeof(l->name), "%s", base ? base + 1 : eq + 1);
	char *ext = strstr(l->name, ".t4.json");
	if (!ext)
		ext = strstr(l->name, ".json");
	if (ext)
		*ext = '\0';
	int rc = open_space(l, path);
	return rc ? rc : load_recorded(l, eq + 1, path);
}

static const char *names_default[] = {"matmul", "rmsnorm", "stencil"};

typedef struct args {
	long seeds, lseed, batch;
	double within_pct;
	const char *settings;
	const char *dir;
	const char *names[MAXL], *recorded[MAXL], *specs[MAXS];
	int nnames, nrec, nspecs;
} args;

/* 0: go on; 1: done (help printed); -1: usage error. */
static int parse_args(args *a, int argc, char **argv)
{
	int npos = 0;
	const kt_opt opts[] = {
	    KT_OPT_INT_('n', "seeds", &a->seeds, "N",
	                "runs per strategy and landscape (30)"),
	    KT_OPT_DOUBLE_(0, "within", &a->within_pct, "PCT",
	                   "target: this close to the optimum, in % (5)"),
	    KT_OPT_LIST_(0, "landscape", a->names, &a->nnames, MAXL, "NAME",
	                 "this benchmark's own model: matmul, rmsnorm, "
	                 "stencil (all three unless --recorded is given)"),
	    KT_OPT_LIST_(0, "recorded", a->recorded, &a->nrec, MAXL,
	                 "TEMPLATE=RESULTS",
	                 "a landscape from a results file (T4 or cache)"),
	    KT_OPT_LIST_(0, "strategy", a->specs, &a->nspecs, MAXS - 1,
	                 "NAME[:K=V,...]",
	                 "a strategy with settings (default: all); random "
	                 "always comes first, as the baseline"),
	    KT_OPT_INT_(0, "batch", &a->batch, "N",
	                "configurations asked at once, all told before the "
	                "next ask (1)"),
	    KT_OPT_INT_(0, "landscape-seed", &a->lseed, "N",
	                "seed of the models' noise (1)"),
	    KT_OPT_STRING_(0, "dir", &a->dir, "DIR",
	                   "where the models' templates are"),
	    KT_OPT_STRING_(0, "settings", &a->settings, "NAME",
	                   "print a strategy's settings as a markdown table"),
	    KT_OPT_END_,
	};
	kt_cmd_info info = {"ktc-bench-strategies [options]",
	                    "Evaluations each search strategy needs to come "
	                    "within a few percent of a landscape's optimum, "
	                    "as markdown.",
	                    opts};
	int r = kt_opt_parse(&info, argc, argv, &npos);
	if (r)
		return r;
	if (a->seeds < 1 || a->batch < 1 || a->batch > MAXBATCH) {
		fprintf(stderr,
		        "ktc-bench-strategies: --seeds must be positive "
		        "and --batch from 1 to %d\n",
		        MAXBATCH);
		return -1;
	}
	return 0;
}

static int load_landscapes(landscape *ls, int *nl, args *a)
{
	int rc = 0;
	if (a->nnames + a->nrec == 0)
		for (; a->nnames < 3; a->nnames++)
			a->names[a->nnames] = names_default[a->nnames];
	for (int i = 0; !rc && i < a->nrec; i++)
		rc = add_recorded(&ls[(*nl)++], a->recorded[i]);
	for (int i = 0; !rc && i < a->nnames; i++)
		rc = add_builtin(&ls[(*nl)++], a->names[i], a->dir,
		                 (uint64_t)a->lseed);
	for (int i = 0; !rc && i < *nl; i++) {
		if ((rc = summarize(&ls[i], a->within_pct / 100)))
			break;
		if (ls[i].best == INFINITY)
			rc = kt_error(
			    KT_EINVALID,
			    "landscape '%s' has no valid configuration",
			    ls[i].name);
	}
	return rc;
}

static int add_contenders(const args *a)
{
	int rc = add_contender("random");
	for (int i = 0; !rc && i < a->nspecs; i++)
		if (strcmp(a->specs[i], "random"))
			rc = add_contender(a->specs[i]);
	for (int i = 1; !rc && !a->nspecs && i < 6; i++)
		rc = add_contender(default_strategies[i]);
	return rc;
}

int main(int argc, char **argv)
{
	static args a = {.seeds = 30,
	                 .lseed = 1,
	                 .batch = 1,
	                 .within_pct = 5,
	                 .dir = KTC_SOURCE_DIR "/bench"};
	static landscape ls[2 * MAXL];
	static cell cells[2 * MAXL][MAXS];
	int nl = 0, rc = parse_args(&a, argc, argv);
	if (rc)
		return rc > 0 ? 0 : 2;
	if (a.settings) {
		if (!(rc = print_settings(a.settings)))
			return 0;
		fprintf(stderr, "ktc-bench-strategies: %s\n", kt_error_last());
		return 1;
	}
	if (!(rc = add_contenders(&a)))
		rc = load_landscapes(ls, &nl, &a);
	for (int i = 0; !rc && i < nl; i++) {
		for (int s = 0; !rc && s < NSTRAT; s++) {
			rc = measure(&ls[i], &strats[s], (int)a.seeds,
			             (size_t)a.batch, a.within_pct / 100,
			             &cells[i][s]);
		}
	}
	if (!rc) {
		print_landscapes(ls, nl, a.within_pct / 100);
		print_table(ls, nl, cells, (int)a.seeds, (int)a.batch,
		            a.within_pct / 100);
	} else {
		fprintf(stderr, "ktc-bench-strategies: %s\n", kt_error_last());
	}
	for (int i = 0; i < nl; i++)
		landscape_free(&ls[i]);
	return rc ? 1 : 0;
}
