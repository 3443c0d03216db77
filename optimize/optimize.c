/*
 * optimize.c - the loop of `ktc optimize`: templating, testing, analysis,
 * planning, round after round (ktc/optimize.h says what each round does).
 *
 * The loop adds no mechanism of its own: each round is the built-in
 * planner's plan with a subset of its refactors, rewritten and verified by
 * the same rewriter as `ktc annotate` (default PTX equal to the original's,
 * every value compiled, on a GPU every value run against the default), then
 * tuned at each shape by the same driver as `ktc tune`, whose backend
 * checks every configuration's outputs against the default's, that is the
 * original's. What the loop decides is what to try next and what to keep.
 */
#include "optimize/opt.h"

#include "ktc/frontend.h"
#include "ktc/rewrite.h"
#include "ktc/tune.h"
#include "util/fs.h"
#include "util/str.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { DEFAULT_BUDGET = 100, DEFAULT_ROUNDS = 8, MAX_PROBLEMS = 64 };

/* Kept only when the geometric mean over the shapes gains this much: the
 * run-to-run spread of a tuned time on an H100 is under 1% (METHOD.md). */
#define KEEP_GAIN 0.02
/* At the speed of light: every shape within this factor of its estimate. */
#define SOL_MARGIN 1.10
/* Faster than this fraction of the speed-of-light time, on data larger
 * than L2, is not a kernel doing its work: the configuration is set aside
 * as a reward hack, not reported as fast. */
#define HACK_FRACTION 0.80

typedef struct run {
	const kt_optimize_options *o;
	const char *path;
	kt_diags *d;
	kt_optimize_report *rep;
	kt_arena *a;
	kt_tu *tu;
	kt_candidates *cands;
	kt_plan *plan;
	kt_rewrite_file rf;
	bool have_rf;
	char **flags;
	size_t nflags;
	kt_opt_inputs in;
	bool *on;      /* the refactors of the kept template */
	bool *tried;   /* the refactors a round tried */
	bool specials; /* check special input values (until they fail the
	                  original itself) */
	const char *kept_text, *kept_diff;
	kt_llm *llm;   /* --planner llm */
	kt_range body; /* the kernel's body, where a variant goes */
	kt_plan **old; /* plans the LLM's variants grew out of: the
	                  current plan shares their memory */
	size_t nold;
} run;

static void progress(run *R, int round, const char *what, const char *refactor,
                     size_t shape, const char *fmt, ...)
{
	if (!R->o->progress)
		return;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	kt_optimize_progress p = {round,           what, refactor, shape,
	                          R->rep->nshapes, msg};
	R->o->progress(&p, R->o->progress_ud);
}

static bool stopped(const run *R)
{
	return R->o->stop && *R->o->stop;
}

/* ------------------------------------------------------------- setup */

static int choose_kernel(run *R)
{
	kt_plan *p = R->plan;
	const char *k = R->o->kernel;
	if (!k) {
		size_t with = 0;
		for (size_t i = 0; i < p->nkernels; i++)
			if (p->kernels[i].nlaunches || p->nkernels == 1) {
				k = p->kernels[i].name;
				with++;
			}
		if (with != 1) {
			kt_str names = KT_STR_INIT;
			for (size_t i = 0; i < p->nkernels; i++)
				kt_str_addf(&names, "%s'%s'", i ? ", " : "",
				            p->kernels[i].name);
			int rc = p->nkernels
			             ? kt_error(KT_EINVALID,
			                        "'%s' has %zu kernels (%s): "
			                        "choose one with --kernel",
			                        R->path, p->nkernels, names.ptr)
			             : kt_error(KT_EINVALID,
			                        "'%s' has no kernel", R->path);
			kt_str_release(&names);
			return rc;
		}
	}
	int rc = kt_plan_only_kernel(p, k);
	if (!rc)
		R->rep->kernel = kt_arena_strdup(R->a, k);
	return rc;
}

static int rounds_of(const kt_optimize_options *o)
{
	return o->rounds > 0 ? o->rounds : DEFAULT_ROUNDS;
}

static int kernel_body(run *R)
{
	for (size_t i = 0; i < R->cands->nkernels; i++)
		if (!strcmp(R->cands->kernels[i].name, R->rep->kernel)) {
			R->body = R->cands->kernels[i].body;
			return 0;
		}
	return kt_error(KT_ENOTFOUND, "no kernel '%s'", R->rep->kernel);
}

static int open_llm(run *R)
{
#ifdef KTC_HAVE_LLM
	if (!R->o->llm)
		return kt_error(KT_EINVALID,
		                "--planner llm: no LLM configured");
	kt_llm_config c = *R->o->llm;
	c.transcript =
	    kt_arena_printf(R->a, "%s/llm-transcript.jsonl", R->o->workdir);
	c.stop = R->o->stop;
	return c.transcript ? kt_llm_new(&R->llm, &c)
	                    : kt_error(KT_ENOMEM, "out of memory");
#else
	return kt_error(KT_EUNSUPPORTED,
	                "this ktc was built without libcurl and PCRE2: "
	                "the LLM planner is not available");
#endif
}

static int setup(run *R)
{
	const kt_optimize_options *o = R->o;
	if (!o->workdir)
		return kt_error(KT_EINVALID, "no work folder given");
	if (o->planner && strcmp(o->planner, "builtin") &&
	    strcmp(o->planner, "llm"))
		return kt_error(KT_EINVALID,
		                "unknown planner '%s' (builtin or llm)",
		                o->planner);
	if (kt_path_is_opencl(R->path) && !o->open &&
	    (!o->backend || strcmp(o->backend, "opencl")))
		return kt_error(KT_EINVALID,
		                "'%s' is OpenCL C: it runs on the opencl "
		                "backend, not '%s'",
		                R->path, o->backend ? o->backend : "cuda");
	int rc = kt_fs_mkdirs(o->workdir);
	if (!rc)
		rc = kt_opt_inputs_read(&R->in, o, R->a);
	if (!rc)
		rc = kt_rewrite_flags(&R->flags, &R->nflags, R->path,
		                      o->build_dir);
	kt_parse_opts po = {.build_dir = o->build_dir, .arch = o->arch};
	if (!rc)
		rc = kt_frontend_parse(&R->tu, R->path, &po, R->d);
	if (!rc)
		rc = kt_candidates_find(&R->cands, R->tu, R->d);
	if (!rc)
		rc = kt_planner_plan(&R->plan, R->cands, R->d);
	if (!rc)
		rc = choose_kernel(R);
	size_t len;
	const char *text = R->tu ? kt_frontend_text(R->tu, &len) : NULL;
	if (!rc)
		rc = kt_opt_complete(R->plan, R->rep->kernel, &R->in, R->path,
		                     text, R->d);
	if (!rc) {
		rc = kt_rewrite_file_from_tu(&R->rf, R->tu);
		R->have_rf = !rc;
	}
	/* a variant adds a refactor per round at most */
	size_t cap = (R->plan ? R->plan->nrefactors : 0) + rounds_of(o) + 1;
	R->on = kt_arena_alloc(R->a, cap);
	R->tried = kt_arena_alloc(R->a, cap);
	if (!rc && (!R->on || !R->tried))
		rc = kt_error(KT_ENOMEM, "out of memory");
	if (!rc)
		rc = kernel_body(R);
	if (!rc && R->o->planner && !strcmp(R->o->planner, "llm"))
		rc = open_llm(R);
	return rc;
}

static int alloc_report(run *R)
{
	kt_optimize_report *r = R->rep;
	size_t n = R->in.nshapes;
	int rounds = rounds_of(R->o);
	r->nshapes = n;
	r->shapes = kt_arena_alloc(R->a, n * sizeof(char *));
	r->original_ms = kt_arena_alloc(R->a, n * sizeof(double));
	r->bytes = kt_arena_alloc(R->a, n * sizeof(double));
	r->sol_ms = kt_arena_alloc(R->a, n * sizeof(double));
	r->dram_bytes = kt_arena_alloc(R->a, n * sizeof(double));
	r->occupancy_pct = kt_arena_alloc(R->a, n * sizeof(double));
	r->sm_pct = kt_arena_alloc(R->a, n * sizeof(double));
	for (size_t s = 0;
	     r->sm_pct && r->dram_bytes && r->occupancy_pct && s < n; s++)
		r->dram_bytes[s] = r->occupancy_pct[s] = r->sm_pct[s] = -1;
	r->rounds = kt_arena_alloc(R->a, (size_t)(rounds + 1) *
	                                     sizeof(kt_optimize_round));
	if (!r->shapes || !r->original_ms || !r->bytes || !r->sol_ms ||
	    !r->dram_bytes || !r->occupancy_pct || !r->sm_pct || !r->rounds)
		return kt_error(KT_ENOMEM, "out of memory");
	for (size_t s = 0; s < n; s++) {
		kt_str t = KT_STR_INIT;
		for (size_t v = 0; v < R->in.nvars; v++)
			kt_str_addf(
			    &t, "%s%s=%lld", v ? " " : "", R->in.vars[v].name,
			    (long long)kt_opt_shape_value(&R->in, v, s));
		/* no --problem: the one shape is the file's own problem lines'
		 * defaults */
		r->shapes[s] = kt_arena_strdup(
		    R->a, R->in.nvars ? t.ptr : "the file's problem values");
		kt_str_release(&t);
		if (!r->shapes[s])
			return kt_error(KT_ENOMEM, "out of memory");
	}
	return 0;
}

/* --------------------------------------------------------- templating */

static const char *round_path(run *R, int round, const char *what)
{
	return kt_arena_printf(R->a, "%s/round-%d%s", R->o->workdir, round,
	                       what);
}

/* The template of the plan with refactors on[] (the kept ones and the one
 * on trial): rewritten, verified, written to the work folder. */
static int templating(run *R, kt_optimize_round *rd, const bool *on,
                      const char **text, const char **diff)
{
	kt_plan *p = NULL;
	int rc = kt_opt_subset(&p, R->plan, on);
	if (rc)
		return rc;
	rd->template_path = round_path(
	    R, rd->index, kt_path_is_opencl(R->path) ? ".kt.cl" : ".kt.cu");
	kt_rewrite_opts ro = {
	    .arch = R->o->arch,
	    .flags = (const char *const *)R->flags,
	    .nflags = R->nflags,
	    .out_name = rd->template_path,
	    .threads = R->o->threads,
	    .run = KT_RUN_AUTO,
	    .worker_exe = R->o->worker_exe,
	};
	kt_rewrite_result res = {0};
	rc = kt_rewrite(&res, p, &R->rf, &ro, R->d);
	if (!rc && !res.verified)
		rc = kt_error(KT_EINVALID, "the template is not verified");
	if (!rc) {
		*text = kt_arena_strndup(R->a, res.text, res.len);
		*diff = kt_arena_strdup(R->a, res.diff ? res.diff : "");
		rc = *text && *diff ? 0 : kt_error(KT_ENOMEM, "out of memory");
	}
	if (!rc && !(rd->verified = kt_arena_strdup(R->a, res.how)))
		rc = kt_error(KT_ENOMEM, "out of memory");
	if (!rc)
		rc = kt_fs_write_atomic(rd->template_path, res.text, res.len);
	if (!rc && res.ran)
		progress(R, rd->index, "verify", rd->refactor, 0,
		         "run on %s: %zu configurations at %zu problem "
		         "instances against the default",
		         res.run_device, res.run_configs, res.run_problems);
	kt_rewrite_result_release(&res);
	kt_plan_free(p);
	return rc;
}

/* ------------------------------------------------------------- testing */

static int open_backend(run *R, kt_backend **b, const kt_model *m)
{
	kt_backend_options bo = {.seed = R->o->seed,
	                         .specials = R->specials,
	                         .profile = R->o->profile,
	                         .worker_exe = R->o->worker_exe};
	if (R->o->open)
		return R->o->open(b, m, &bo, R->o->open_ud);
	return kt_backend_open(b, R->o->backend ? R->o->backend : "cuda", m,
	                       &bo);
}

/*
 * Round 0 checks that the original itself gives the same outputs twice on
 * inputs with special values at every shape; where it does not (it reads
 * a NaN as an index, say), the rounds check plain inputs only and the
 * report says why.
 */
static int probe_specials(run *R, kt_backend **b, const kt_model *m)
{
	for (size_t s = 0; R->specials && s < R->rep->nshapes; s++) {
		kt_value prob[MAX_PROBLEMS];
		kt_opt_problem(prob, m, &R->in, s);
		if (!(*b)->ops->set_problem(*b, prob))
			continue;
		R->specials = false;
		R->rep->specials_note = kt_arena_printf(
		    R->a,
		    "not checked: the original itself fails on them at "
		    "%s: %s",
		    R->rep->shapes[s], kt_error_last());
		kt_error_clear();
		kt_backend_free(*b);
		*b = NULL;
		progress(R, 0, "verify", NULL, s, "special input values %s",
		         R->rep->specials_note);
		return open_backend(R, b, m);
	}
	return 0;
}

/* The correct entries that are not faster than the data allows (cands
 * holds tr->nentries); their number. */
static size_t plausible(run *R, const kt_tune_report *tr, size_t s,
                        const kt_tune_entry **cands, size_t *hacks)
{
	const kt_optimize_report *r = R->rep;
	double l2 = (double)kt_opt_device_value(&r->device, "DEVICE_L2_SIZE");
	size_t n = 0;
	for (size_t i = 0; i < tr->nentries; i++) {
		const kt_tune_entry *e = &tr->entries[i];
		if (e->result.status != KT_STATUS_OK || e->result.time_ms <= 0)
			continue;
		if (r->bytes[s] > l2 && r->sol_ms[s] > 0 &&
		    e->result.time_ms < HACK_FRACTION * r->sol_ms[s]) {
			(*hacks)++;
			continue;
		}
		cands[n++] = e;
	}
	return n;
}

/* The model's DEVICE_* values from the device the round ran on. */
static void device_values(const run *R, const kt_model *m, kt_value *dev)
{
	for (size_t i = 0; i < m->ndevices; i++)
		dev[i] = kt_int(
		    kt_opt_device_value(&R->rep->device, m->devices[i].name));
}

/* The best of tr at shape s that also holds at the shapes around s. */
static int best_of(run *R, kt_optimize_round *rd, const kt_model *m,
                   kt_backend *b, const kt_tune_report *tr, size_t s,
                   const kt_tune_entry **best, size_t *hacks)
{
	const kt_tune_entry **cands =
	    kt_arena_alloc(R->a, (tr->nentries + 1) * sizeof(*cands));
	kt_value prob[MAX_PROBLEMS],
	    *dev = kt_arena_alloc(R->a, (m->ndevices + 1) * sizeof(*dev));
	if (!cands || !dev)
		return kt_error(KT_ENOMEM, "out of memory");
	size_t n = plausible(R, tr, s, cands, hacks);
	const kt_tune_entry *def = &tr->entries[0];
	*best = NULL;
	if (!n)
		return 0;
	kt_opt_problem(prob, m, &R->in, s);
	device_values(R, m, dev);
	kt_opt_odd_ctx c = {m, prob, dev, b, R->a};
	size_t before = rd->odd_set_aside;
	int rc = kt_opt_odd_best(best, &c, cands, n, def, &rd->odd_set_aside,
	                         &rd->odd_note);
	if (!rc && rd->odd_set_aside > before)
		progress(R, rd->index, "verify", rd->refactor, s,
		         "%s: %zu configuration(s) set aside, wrong around the "
		         "shape: %s",
		         R->rep->shapes[s], rd->odd_set_aside - before,
		         rd->odd_note);
	return rc;
}

/* Counts the round's configurations with its parameter off the default,
 * and those of them that passed the checks. */
static void count_new(kt_optimize_round *rd, const kt_model *m,
                      const kt_tune_report *tr)
{
	int p = rd->param ? kt_model_symbol(m, rd->param) : -1;
	if (p < 0 || (size_t)p >= m->nparams)
		return;
	const kt_param *pa = &m->params[p];
	for (size_t i = 0; i < tr->nentries; i++) {
		const kt_tune_entry *e = &tr->entries[i];
		if (e->param_idx[p] == pa->default_index)
			continue;
		rd->new_tried++;
		rd->new_ok += e->result.status == KT_STATUS_OK;
	}
}

/* The value at the start of text, as kt_space_key wrote it. */
static kt_value value_of(const char *text)
{
	char *end;
	long long i = strtoll(text, &end, 10);
	return *end == '.' || *end == 'e' || *end == 'E'
	           ? kt_float(strtod(text, NULL))
	           : kt_int(i);
}

/*
 * The kept round's best configuration at shape s in model m's terms (its
 * values where m has the parameter, m's defaults elsewhere: the new
 * refactor's parameter off), so that a trial round starts where the kept
 * one ended and a refactor is judged against the best found, not against
 * what a fresh sample happens to reach; NULL in round 0 or when the kept
 * best names a value m does not have.
 */
static const kt_value *kept_best(run *R, const kt_model *m, size_t s)
{
	const kt_optimize_report *r = R->rep;
	if (!r->nrounds || r->rounds[r->kept].index == (int)r->nrounds - 1 ||
	    !r->rounds[r->kept].best_key || !*r->rounds[r->kept].best_key[s])
		return NULL;
	const char *key = r->rounds[r->kept].best_key[s];
	kt_value *w = kt_arena_alloc(R->a, (m->nparams + 1) * sizeof(*w));
	if (!w)
		return NULL;
	for (size_t p = 0; p < m->nparams; p++) {
		const kt_param *par = &m->params[p];
		w[p] = par->values[par->default_index];
		size_t n = strlen(par->name);
		/* a key is "NAME=V,NAME=V" (kt_space_key) */
		for (const char *k = key; k;
		     k = strchr(k, ','), k = k ? k + 1 : k)
			if (!strncmp(k, par->name, n) && k[n] == '=') {
				w[p] = value_of(k + n + 1);
				break;
			}
	}
	return w;
}

/* Tunes model m at shape s; the round's numbers for s. */
/* Round 0's best configuration's counters at shape s, where the
 * backend measured them (--profile). */
static void read_counters(kt_optimize_report *r, size_t s, const kt_result *x)
{
	const kt_measure *rd = kt_result_measure(x, "dram_read");
	const kt_measure *wr = kt_result_measure(x, "dram_write");
	const kt_measure *oc = kt_result_measure(x, "achieved_occupancy");
	const kt_measure *sm = kt_result_measure(x, "sm_throughput");
	if (rd && wr)
		r->dram_bytes[s] = rd->value + wr->value;
	if (oc)
		r->occupancy_pct[s] = oc->value;
	if (sm)
		r->sm_pct[s] = sm->value;
}

static int tune_shape(run *R, kt_optimize_round *rd, const kt_model *m,
                      kt_backend *b, size_t s)
{
	kt_value prob[MAX_PROBLEMS];
	kt_opt_problem(prob, m, &R->in, s);
	const kt_value *warm = kept_best(R, m, s);
	kt_tune_options to = {
	    .strategy = R->o->strategy ? R->o->strategy : "random",
	    .max_evals = R->o->budget ? R->o->budget : DEFAULT_BUDGET,
	    .seed = R->o->seed,
	    .batch = 8,
	    .problem = prob,
	    .cache_path = round_path(
	        R, rd->index, kt_arena_printf(R->a, "-shape-%zu.cache", s)),
	    .force_new = true,
	    .specials = R->specials,
	    .t4_path = round_path(R, rd->index,
	                          kt_arena_printf(R->a, "-shape-%zu.t4", s)),
	    .diags = R->d,
	    .stop = R->o->stop,
	    .warm = warm,
	    .nwarm = warm ? 1 : 0,
	};
	if (!to.cache_path || !to.t4_path)
		return kt_error(KT_ENOMEM, "out of memory");
	kt_tune_report *tr = NULL;
	int rc = kt_tune_run(&tr, m, b, &to);
	if (!rc && tr->stop == KT_TUNE_INTERRUPTED)
		rc = kt_error(KT_EINTERRUPTED, "interrupted");
	size_t hacks = 0;
	const kt_tune_entry *best = NULL;
	if (!rc)
		rc = best_of(R, rd, m, b, tr, s, &best, &hacks);
	if (!rc) {
		count_new(rd, m, tr);
		const kt_tune_entry *def = &tr->entries[0];
		rd->default_ms[s] = def->result.status == KT_STATUS_OK
		                        ? def->result.time_ms
		                        : 0;
		rd->best_ms[s] = best ? best->result.time_ms : 0;
		rd->best_key[s] = best ? kt_arena_strdup(R->a, best->key) : "";
		if (best && rd->index == 0)
			read_counters(R->rep, s, &best->result);
		rd->evaluated[s] = tr->nentries;
		progress(R, rd->index, "tune", rd->refactor, s,
		         "%s: best %.4g ms (default %.4g ms), %zu "
		         "configurations%s",
		         R->rep->shapes[s], rd->best_ms[s], rd->default_ms[s],
		         tr->nentries,
		         hacks ? kt_arena_printf(R->a,
		                                 ", %zu set aside as faster "
		                                 "than the data allows",
		                                 hacks)
		               : "");
		if (!best)
			rc = kt_error(KT_EINVALID,
			              "no configuration correct at %s",
			              R->rep->shapes[s]);
	}
	kt_tune_report_free(tr);
	return rc;
}

static double geomean(const double *v, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += log(v[i] > 0 ? v[i] : 1e-9);
	return n ? exp(s / (double)n) : 0;
}

/* The launch floor: an empty kernel's time on the same backend. */
static const char FLOOR_KERNEL[] =
    "#pragma kt launch grid(1) block(32)\n"
    "#pragma kt arg p int[1] out\n"
    "#pragma kt verify off\n"
    "extern \"C\" __global__ void kt_launch_floor(int *p)\n"
    "{\n"
    "\tif (threadIdx.x == 1024)\n"
    "\t\tp[0] = 0;\n"
    "}\n";

/* the OpenCL backend takes no output left unwritten as a reference, even
 * unverified: one work-item writes it */
static const char FLOOR_KERNEL_CL[] =
    "#pragma kt launch grid(1) block(32)\n"
    "#pragma kt arg p int[1] out\n"
    "#pragma kt verify off\n"
    "__kernel void kt_launch_floor(__global int *p)\n"
    "{\n"
    "\tif (get_local_id(0) == 0)\n"
    "\t\tp[0] = 0;\n"
    "}\n";

static void measure_floor(run *R)
{
	bool cl = R->o->backend && !strcmp(R->o->backend, "opencl");
	kt_template *t = NULL;
	kt_backend *b = NULL;
	kt_tune_report *tr = NULL;
	kt_diags d;
	kt_diags_init(&d);
	kt_tune_options to = {
	    .strategy = "brute", .seed = R->o->seed, .stop = R->o->stop};
	if (!kt_template_parse(&t, "<launch floor>",
	                       cl ? FLOOR_KERNEL_CL : FLOOR_KERNEL, &d) &&
	    !open_backend(R, &b, &t->models[0]) &&
	    !kt_tune_run(&tr, &t->models[0], b, &to) && tr->nentries &&
	    tr->entries[0].result.status == KT_STATUS_OK)
		R->rep->floor_ms = tr->entries[0].result.time_ms;
	kt_error_clear(); /* no floor: the estimate is bytes alone */
	kt_tune_report_free(tr);
	kt_backend_free(b);
	kt_template_free(t);
	kt_diags_release(&d);
}

/* Round rd's template text, tuned at every shape. */
static int testing(run *R, kt_optimize_round *rd, const char *text)
{
	kt_template *t = NULL;
	kt_backend *b = NULL;
	size_t n = R->rep->nshapes;
	rd->best_ms = kt_arena_alloc(R->a, n * sizeof(double));
	rd->default_ms = kt_arena_alloc(R->a, n * sizeof(double));
	rd->best_key = kt_arena_alloc(R->a, n * sizeof(char *));
	rd->evaluated = kt_arena_alloc(R->a, n * sizeof(size_t));
	if (!rd->best_ms || !rd->default_ms || !rd->best_key || !rd->evaluated)
		return kt_error(KT_ENOMEM, "out of memory");
	int rc = kt_template_parse(&t, rd->template_path, text, R->d);
	const kt_model *m = rc ? NULL : kt_template_model(t, R->rep->kernel);
	if (!rc && !m)
		rc = kt_error(KT_EINVALID, "no kernel '%s' in the template",
		              R->rep->kernel);
	if (!rc && m->nproblems > MAX_PROBLEMS)
		rc = kt_error(KT_EINVALID, "more than %d problem variables",
		              MAX_PROBLEMS);
	if (!rc && rd->param && kt_model_symbol(m, rd->param) < 0)
		rc = kt_error(KT_EINVALID,
		              "verification dropped %s (see the diagnostics)",
		              rd->param);
	if (!rc)
		rc = open_backend(R, &b, m);
	if (!rc && rd->index == 0) {
		rc = b->ops->device_info(b, &R->rep->device);
		if (!rc)
			measure_floor(R);
		if (!rc)
			rc = probe_specials(R, &b, m);
		R->rep->specials = R->specials;
	}
	for (size_t s = 0; !rc && s < n; s++) {
		if (rd->index == 0) {
			kt_value prob[MAX_PROBLEMS];
			kt_opt_problem(prob, m, &R->in, s);
			double bytes = kt_opt_bytes(m, prob);
			double gbs = R->rep->device.copy_gbs;
			double sol = gbs > 0 ? bytes / gbs * 1e-6 : 0;
			R->rep->bytes[s] = bytes;
			R->rep->sol_ms[s] =
			    sol > R->rep->floor_ms ? sol : R->rep->floor_ms;
		}
		rc = tune_shape(R, rd, m, b, s);
	}
	if (!rc)
		rd->score = geomean(rd->best_ms, n);
	rd->tuned = !rc;
	kt_backend_free(b);
	kt_template_free(t);
	return rc;
}

/* ------------------------------------------------------------ analysis */

/* Every shape within SOL_MARGIN of its estimate, on either side: a shape
 * faster than the estimate by more says it is no bound there (the data
 * sits in a cache, or the copy bandwidth was measured on a busy CPU
 * device), and the loop goes on. */
static bool at_speed_of_light(const kt_optimize_report *r,
                              const kt_optimize_round *rd)
{
	for (size_t s = 0; s < r->nshapes; s++)
		if (r->sol_ms[s] <= 0 ||
		    rd->best_ms[s] > SOL_MARGIN * r->sol_ms[s] ||
		    rd->best_ms[s] * SOL_MARGIN < r->sol_ms[s])
			return false;
	return r->nshapes > 0;
}

static void save_summary(run *R)
{
	char *json = NULL;
	if (!kt_optimize_report_json(&json, R->rep)) {
		const char *p =
		    kt_arena_printf(R->a, "%s/summary.json", R->o->workdir);
		if (p && kt_fs_write_atomic(p, json, strlen(json)))
			kt_error_clear(); /* the report still comes back */
	}
	kt_free(json);
}

/* ---------------------------------------------------- the rounds */

static int round0(run *R)
{
	kt_optimize_report *r = R->rep;
	kt_optimize_round *rd = &r->rounds[r->nrounds++];
	*rd = (kt_optimize_round){.index = 0,
	                          .why = "annotate: the literals "
	                                 "as parameters"};
	progress(R, 0, "template", NULL, 0, "annotating %s", R->path);
	int rc = templating(R, rd, R->on, &R->kept_text, &R->kept_diff);
	if (!rc)
		rc = testing(R, rd, R->kept_text);
	if (rc)
		return rc;
	for (size_t s = 0; s < r->nshapes; s++)
		r->original_ms[s] = rd->default_ms[s];
	rd->kept = true;
	rd->verdict = "the baseline: its default configuration is the "
	              "original";
	r->kept = 0;
	return 0;
}

static void trial(run *R, const kt_opt_proposal *pr, double *kept_score)
{
	kt_optimize_report *r = R->rep;
	const kt_plan_refactor *f = &R->plan->refactors[pr->refactor];
	kt_optimize_round *rd = &r->rounds[r->nrounds];
	*rd = (kt_optimize_round){.index = (int)r->nrounds,
	                          .refactor = kt_refactor_kind_name(f->kind),
	                          .param = kt_arena_strdup(R->a, f->param),
	                          .why = pr->why};
	r->nrounds++;
	progress(R, rd->index, "template", rd->refactor, 0,
	         "trying %s (%s): %s", rd->refactor, f->param, pr->why);
	R->on[pr->refactor] = true;
	R->tried[pr->refactor] = true;
	const char *text = NULL, *diff = NULL;
	int rc = templating(R, rd, R->on, &text, &diff);
	if (!rc)
		rc = testing(R, rd, text);
	if (rc) {
		R->on[pr->refactor] = false;
		rd->verdict =
		    kt_arena_printf(R->a, "rejected: %s", kt_error_last());
		kt_error_clear();
	} else if (rd->score < *kept_score * (1 - KEEP_GAIN)) {
		rd->kept = true;
		rd->verdict = kt_arena_printf(
		    R->a, "kept: geometric mean %.4g ms from %.4g ms (%.1f%%)",
		    rd->score, *kept_score,
		    100 * (*kept_score - rd->score) / *kept_score);
		*kept_score = rd->score;
		R->kept_text = text;
		R->kept_diff = diff;
		r->kept = rd->index;
	} else if (rd->new_tried && !rd->new_ok) {
		R->on[pr->refactor] = false;
		rd->verdict = kt_arena_printf(
		    R->a,
		    "rejected: none of the %zu configurations with %s off its "
		    "default passed the checks (outputs against the "
		    "original's at every shape and an odd size, compile, run)",
		    rd->new_tried, rd->param);
	} else {
		R->on[pr->refactor] = false;
		rd->verdict = kt_arena_printf(
		    R->a,
		    "rejected: geometric mean %.4g ms against %.4g ms kept, "
		    "less than %.0f%% better",
		    rd->score, *kept_score, 100 * KEEP_GAIN);
	}
	progress(R, rd->index, "done", rd->refactor, 0, "%s", rd->verdict);
}

/* ------------------------------------------------- the LLM planner */

#ifdef KTC_HAVE_LLM
/* A round whose proposal never reached the rewriter, and why. */
static void refused(run *R, const char *what, const char *param,
                    const char *why, const char *reason)
{
	kt_optimize_report *r = R->rep;
	kt_optimize_round *rd = &r->rounds[r->nrounds];
	*rd = (kt_optimize_round){
	    .index = (int)r->nrounds,
	    .refactor = kt_arena_strdup(R->a, what),
	    .param = param ? kt_arena_strdup(R->a, param) : NULL,
	    .why = why ? kt_arena_printf(R->a, "llm: %.300s", why) : "llm",
	    .verdict = kt_arena_printf(R->a, "rejected: %.600s", reason)};
	r->nrounds++;
	progress(R, rd->index, "done", rd->refactor, 0, "%s", rd->verdict);
}

/* The first diagnostics of d as one line. */
static const char *diag_line(run *R, const kt_diags *d)
{
	kt_str s = KT_STR_INIT;
	for (size_t i = 0; i < d->len && i < 3; i++)
		kt_str_addf(&s, "%s%s", i ? "; " : "", d->items[i].message);
	const char *line = kt_arena_strdup(R->a, s.ptr ? s.ptr : "invalid");
	kt_str_release(&s);
	return line;
}

/* p's values as its refactor's domain, checked as a plan is. */
static int set_values(run *R, const kt_llm_proposal *p, size_t idx,
                      const char **reason)
{
	const kt_plan_refactor *f = &R->plan->refactors[idx];
	kt_plan_param *pa = NULL;
	for (size_t i = 0; i < R->plan->nparams; i++)
		if (!strcmp(R->plan->params[i].name, f->param))
			pa = &R->plan->params[i];
	int64_t *v = kt_plan_alloc(R->plan, p->nvalues * sizeof(int64_t));
	if (!pa || !v)
		return kt_error(KT_ENOMEM, "out of memory");
	memcpy(v, p->values, p->nvalues * sizeof(int64_t));
	kt_plan_param was = *pa;
	pa->values = v, pa->nvalues = p->nvalues;
	size_t len;
	const char *text = kt_frontend_text(R->tu, &len);
	kt_diags d;
	kt_diags_init(&d);
	int rc = kt_plan_validate(R->plan, "the LLM's proposal", text, len, &d);
	if (rc) {
		*pa = was;
		*reason = diag_line(R, &d);
		kt_error_clear();
	}
	kt_diags_release(&d);
	return rc ? KT_EINVALID : 0;
}

static int adopt_refactor(run *R, const kt_llm_proposal *p,
                          const kt_opt_proposal *props, size_t n, size_t *idx,
                          const char **reason)
{
	for (size_t i = 0; i < n; i++) {
		const kt_plan_refactor *f =
		    &R->plan->refactors[props[i].refactor];
		if (strcmp(kt_refactor_kind_name(f->kind), p->refactor) ||
		    (p->param && strcmp(p->param, f->param)) ||
		    R->tried[props[i].refactor])
			continue;
		*idx = props[i].refactor;
		return p->nvalues ? set_values(R, p, *idx, reason) : 0;
	}
	*reason = kt_arena_printf(R->a,
	                          "the catalogue has no untried '%s' "
	                          "refactor%s%s for kernel '%s'",
	                          p->refactor, p->param ? " of " : "",
	                          p->param ? p->param : "", R->rep->kernel);
	return KT_EINVALID;
}

static int adopt_variant(run *R, const kt_llm_proposal *p, size_t *idx,
                         const char **reason)
{
	kt_plan *q = NULL;
	int rc = kt_opt_add_variant(&q, R->plan, R->rep->kernel, R->body,
	                            p->param, p->body, p->why ? p->why : "");
	if (rc)
		return rc;
	size_t len;
	const char *text = kt_frontend_text(R->tu, &len);
	kt_diags d;
	kt_diags_init(&d);
	rc = kt_plan_validate(q, "the LLM's proposal", text, len, &d);
	kt_plan **old =
	    rc ? NULL : kt_realloc(R->old, (R->nold + 1) * sizeof(*old));
	if (rc) {
		*reason = diag_line(R, &d);
		kt_error_clear();
		rc = KT_EINVALID;
	} else if (!old) {
		rc = kt_error(KT_ENOMEM, "out of memory");
	} else {
		R->old = old;
		R->old[R->nold++] = R->plan;
		R->plan = q;
		q = NULL;
		*idx = R->plan->nrefactors - 1;
	}
	kt_plan_free(q);
	kt_diags_release(&d);
	return rc;
}

/* Asks the model for the next round's proposal. */
static int ask(run *R, const kt_opt_proposal *props, size_t n,
               kt_llm_proposal *p)
{
	size_t len;
	const char *text = kt_frontend_text(R->tu, &len);
	kt_opt_facts f = {R->path,        text,  len, R->plan,
	                  R->rep->kernel, props, n,   R->rep};
	char *user = NULL, *answer = NULL;
	progress(R, (int)R->rep->nrounds, "plan", NULL, 0,
	         "asking the LLM for round %zu's proposal", R->rep->nrounds);
	int rc = kt_opt_llm_prompt(&user, &f);
	if (!rc)
		rc = kt_llm_chat(R->llm, &answer, kt_opt_llm_system(), user,
		                 "ktc_proposal", kt_llm_proposal_schema());
	if (!rc)
		rc = kt_llm_proposal_parse(p, answer, strlen(answer));
	kt_free(user);
	kt_free(answer);
	return rc;
}

/* One round of the LLM planner; *end set when the loop ends. */
static int llm_round(run *R, const kt_opt_proposal *props, size_t n,
                     double *kept, const char **end)
{
	kt_llm_proposal p;
	int rc = ask(R, props, n, &p);
	if (rc == KT_EPARSE) {
		refused(R, "llm", NULL, NULL, kt_error_last());
		kt_error_clear();
		return 0;
	}
	if (rc == KT_EIO || (rc == KT_EINTERRUPTED && !stopped(R))) {
		*end = kt_arena_printf(R->a, "the LLM planner stopped: %s",
		                       kt_error_last());
		kt_error_clear();
		return 0;
	}
	if (rc)
		return rc;
	size_t idx = 0;
	const char *reason = NULL;
	if (p.kind == KT_LLM_DONE)
		*end = kt_arena_printf(R->a,
		                       "the LLM proposes nothing more: "
		                       "%.300s",
		                       p.why);
	else if (p.kind == KT_LLM_REFACTOR)
		rc = adopt_refactor(R, &p, props, n, &idx, &reason);
	else
		rc = adopt_variant(R, &p, &idx, &reason);
	if (rc == KT_EINVALID)
		refused(R, p.kind == KT_LLM_VARIANT ? "variant" : p.refactor,
		        p.param, p.why, reason);
	else if (!rc && !*end)
		trial(R,
		      &(kt_opt_proposal){
		          .refactor = idx,
		          .why = kt_arena_printf(R->a, "llm: %.300s", p.why)},
		      kept);
	kt_llm_proposal_release(&p);
	return rc == KT_EINVALID ? 0 : rc;
}

static int loop_llm(run *R, const kt_opt_proposal *props, size_t n,
                    double *kept)
{
	kt_optimize_report *r = R->rep;
	const char *end = NULL;
	while (!end) {
		if (!R->o->past_light &&
		    at_speed_of_light(r, &r->rounds[r->kept]))
			end = "every shape within 10% of its speed-of-light "
			      "estimate";
		else if ((int)r->nrounds > rounds_of(R->o))
			end = "the rounds ran out (--rounds)";
		int rc = end ? 0 : llm_round(R, props, n, kept, &end);
		save_summary(R);
		if (stopped(R) || rc == KT_EINTERRUPTED) {
			r->stop = "interrupted";
			save_summary(R);
			return kt_error(KT_EINTERRUPTED, "interrupted");
		}
		if (rc)
			return rc;
	}
	r->stop = end;
	save_summary(R);
	return 0;
}
#else
static int loop_llm(run *R, const kt_opt_proposal *props, size_t n,
                    double *kept)
{
	return kt_error(KT_EUNSUPPORTED, "no LLM planner in this build");
}
#endif

static int loop(run *R)
{
	kt_optimize_report *r = R->rep;
	int rc = round0(R);
	save_summary(R);
	if (rc)
		return rc;
	double kept = r->rounds[0].score;
	kt_opt_proposal *props =
	    kt_arena_alloc(R->a, (R->plan->nrefactors + 1) * sizeof(*props));
	kt_template *t0 = NULL;
	if (!props)
		return kt_error(KT_ENOMEM, "out of memory");
	rc = kt_template_parse(&t0, r->rounds[0].template_path, R->kept_text,
	                       R->d);
	if (rc)
		return rc;
	size_t n = kt_opt_rank(props, R->plan, kt_template_model(t0, r->kernel),
	                       &R->in, &r->device, r, R->a);
	kt_template_free(t0);
	int rounds = rounds_of(R->o);
	r->stop = "stopped during a round (the rounds before it are here)";
	if (R->llm)
		return loop_llm(R, props, n, &kept);
	const char *end = n ? "every proposal tried"
	                    : "the planner proposes no refactor for this "
	                      "kernel";
	for (size_t i = 0; i < n; i++) {
		if (!R->o->past_light &&
		    at_speed_of_light(r, &r->rounds[r->kept])) {
			end = "every shape within 10% of its speed-of-light "
			      "estimate";
			break;
		}
		if ((int)r->nrounds > rounds) {
			end = "the rounds ran out (--rounds)";
			break;
		}
		trial(R, &props[i], &kept);
		save_summary(R);
		if (stopped(R)) {
			r->stop = "interrupted";
			save_summary(R);
			return kt_error(KT_EINTERRUPTED, "interrupted");
		}
	}
	r->stop = end;
	save_summary(R);
	return 0;
}

int kt_optimize(kt_optimize_report **out, const char *path,
                const kt_optimize_options *o, kt_diags *diags)
{
	*out = NULL;
	kt_optimize_report *rep = kt_calloc(1, sizeof(*rep));
	kt_arena *a = kt_calloc(1, sizeof(*a));
	if (!rep || !a) {
		kt_free(rep);
		kt_free(a);
		return kt_error(KT_ENOMEM, "out of memory");
	}
	kt_arena_init(a);
	rep->arena = a;
	rep->stop = "failed";
	run R = {.o = o,
	         .path = path,
	         .d = diags,
	         .rep = rep,
	         .a = a,
	         .specials = true};
	int rc = setup(&R);
	if (!rc)
		rc = alloc_report(&R);
	if (!rc)
		rc = loop(&R);
	if (R.kept_text) {
		rep->text = kt_arena_strdup(a, R.kept_text);
		rep->len = strlen(R.kept_text);
		rep->diff = kt_arena_strdup(a, R.kept_diff);
	}
	if (rc && R.kept_text)
		save_summary(&R);
	kt_rewrite_flags_free(R.flags, R.nflags);
	if (R.have_rf)
		kt_rewrite_file_release(&R.rf);
	kt_plan_free(R.plan);
	for (size_t i = 0; i < R.nold; i++)
		kt_plan_free(R.old[i]);
	kt_free(R.old);
#ifdef KTC_HAVE_LLM
	kt_llm_free(R.llm);
#endif
	kt_candidates_free(R.cands);
	kt_frontend_free(R.tu);
	if (rc && !rep->text) {
		kt_optimize_report_free(rep);
		return rc;
	}
	*out = rep;
	return rc;
}

double kt_optimize_original_at(const kt_optimize_report *r, size_t s)
{
	const kt_optimize_round *k = r->nrounds ? &r->rounds[r->kept] : NULL;
	return k && k->default_ms && k->default_ms[s] > 0 ? k->default_ms[s]
	                                                  : r->original_ms[s];
}

void kt_optimize_report_free(kt_optimize_report *r)
{
	if (!r)
		return;
	kt_arena_release(r->arena);
	kt_free(r->arena);
	kt_free(r);
}
