/*
 * tune.c - the tuning driver: ask the strategy, answer what is known from
 * the run's own record or the cache, evaluate the rest through the backend,
 * append each result to the cache at once, tell the strategy, repeat.
 *
 * The design choice a reader needs: a run is replayable. The budget counts
 * distinct configurations visited, not backend evaluations, and a
 * configuration's answer is the same whether it comes from the backend or
 * the cache (the cache stores numbers exactly), so the strategy sees the
 * same sequence of answers in a resumed run as in an uninterrupted one and
 * asks the same questions. The cache saves work; it never changes a result.
 */
#include "ktc/tune.h"

#include "util/table.h"
#include "util/fs.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* Batches in a row that bring nothing new before a run is called stalled. */
enum { MAX_STALLS = 10000 };

typedef struct run {
	const kt_model *m;
	kt_backend *b;
	const kt_tune_options *opt;
	kt_space *space;
	kt_strategy *strat;
	kt_cache *cache;
	kt_results_info info;
	kt_value *problem; /* per model problem */
	kt_value *device;  /* per model DEVICE_* constant */
	kt_tune_report *rep;
	size_t cap;      /* of rep->entries */
	kt_table seen;   /* space index -> entry */
	size_t answered; /* entries [0, answered) have their result */
	int64_t best;    /* entry index, or -1 */
	uint64_t budget;
	double t0;
} run;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

const char *kt_tune_stop_name(kt_tune_stop s)
{
	switch (s) {
	case KT_TUNE_BUDGET: return "budget";
	case KT_TUNE_TIME: return "time limit";
	case KT_TUNE_EXHAUSTED: return "space exhausted";
	case KT_TUNE_INTERRUPTED: return "interrupted";
	case KT_TUNE_STALLED: return "strategy stalled";
	case KT_TUNE_ERROR: return "error";
	}
	return "unknown";
}

static uint64_t index_hash(uint64_t index)
{
	return kt_hash(KT_HASH_INIT, &index, sizeof(index));
}

/* The entry of a space index, or -1. */
static int64_t find_entry(const run *r, uint64_t index)
{
	size_t pos = 0, i;
	uint64_t h = index_hash(index);
	while ((i = kt_table_next(&r->seen, h, &pos)) != SIZE_MAX)
		if (r->rep->entries[i].index == index)
			return (int64_t)i;
	return -1;
}

static double objective(const kt_result *res)
{
	return res->status == KT_STATUS_OK && isfinite(res->time_ms)
	           ? res->time_ms
	           : INFINITY;
}

/* ---- set-up ----------------------------------------------------------- */

/* Device values for the model's DEVICE_* constants: the backend's, else
 * the grammar's fallbacks. */
static void device_values(run *r)
{
	const kt_device_info *d = &r->rep->device;
	for (size_t i = 0; i < r->m->ndevices; i++) {
		const kt_device_const *c = &r->m->devices[i];
		r->device[i] = c->fallback;
		for (size_t k = 0; k < kt_device_nconsts && k < 64; k++)
			if (!strcmp(kt_device_consts[k].name, c->name) &&
			    d->has_const[k])
				r->device[i] = kt_int(d->consts[k]);
	}
}

static int build_space(run *r)
{
	kt_diags scratch;
	kt_diags *diags = r->opt->diags ? r->opt->diags : &scratch;
	if (!r->opt->diags)
		kt_diags_init(&scratch);
	kt_space_limits lim = {.max_bindings = r->opt->space_limit,
	                       .stop = r->opt->stop};
	int rc = kt_space_build_limited(&r->space, r->m, r->problem, r->device,
	                                &lim, diags);
	if (!r->opt->diags)
		kt_diags_release(&scratch);
	if (rc)
		return rc;
	r->rep->space_size = kt_space_count(r->space);
	if (r->rep->space_size == 0)
		return kt_error(KT_EINVALID,
		                "kernel '%s' has no valid configuration "
		                "for this problem and device",
		                r->m->kernel);
	uint64_t want =
	    r->opt->max_evals ? r->opt->max_evals : r->rep->space_size;
	r->budget = want < r->rep->space_size ? want : r->rep->space_size;
	return 0;
}

static int make_strategy(run *r)
{
	kt_strategy_options so = {
	    .seed = r->opt->seed,
	    .budget = r->budget,
	    .settings = r->opt->strategy_settings,
	};
	const kt_strategy_ops *ops = r->opt->strategy_ops;
	const char *name = r->opt->strategy ? r->opt->strategy : "random";
	int rc = ops ? ops->create(&r->strat, r->space, &so)
	             : kt_strategy_create(&r->strat, name, r->space, &so);
	if (rc)
		return rc;
	r->rep->strategy = kt_strdup(r->strat->ops->name);
	r->info.strategy = kt_strdup(r->strat->ops->name);
	if (!r->rep->strategy || !r->info.strategy)
		return kt_error(KT_ENOMEM, "out of memory");
	r->info.seed = r->opt->seed;
	return 0;
}

static int set_up(run *r)
{
	const kt_model *m = r->m;
	r->problem = kt_calloc(m->nproblems + 1, sizeof(kt_value));
	r->device = kt_calloc(m->ndevices + 1, sizeof(kt_value));
	if (!r->problem || !r->device)
		return kt_error(KT_ENOMEM, "out of memory");
	for (size_t i = 0; i < m->nproblems; i++)
		r->problem[i] = kt_model_problem_value(m, r->opt->problem, i);
	int rc = r->b->ops->device_info(r->b, &r->rep->device);
	if (rc)
		return rc;
	device_values(r);
	if ((rc = build_space(r)))
		return rc;
	if ((rc = r->b->ops->set_problem(r->b, r->problem)))
		return rc;
	if ((rc = kt_results_info_from_model(&r->info, m, r->problem,
	                                     &r->rep->device)))
		return rc;
	r->info.specials = r->opt->specials;
	if (r->opt->cache_path &&
	    (rc = kt_cache_open(&r->cache, r->opt->cache_path, &r->info,
	                        r->opt->force_new)))
		return rc;
	return make_strategy(r);
}

/* ---- visiting configurations ------------------------------------------ */

/* Adds an entry for a space index, unanswered yet. */
static int add_entry(run *r, uint64_t index)
{
	kt_tune_report *rep = r->rep;
	if (rep->nentries == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 64;
		kt_tune_entry *p = kt_realloc(rep->entries, cap * sizeof(*p));
		if (!p)
			return kt_error(KT_ENOMEM, "out of memory");
		rep->entries = p;
		r->cap = cap;
	}
	kt_tune_entry *e = &rep->entries[rep->nentries];
	memset(e, 0, sizeof(*e));
	kt_result_init(&e->result);
	e->index = index;
	e->param_idx = kt_calloc(r->m->nparams + 1, sizeof(uint32_t));
	e->values = kt_calloc(r->m->nparams + 1, sizeof(kt_value));
	rep->nentries++; /* counted now, so the report frees it on failure */
	if (!e->param_idx || !e->values)
		return kt_error(KT_ENOMEM, "out of memory");
	int rc = kt_space_get(r->space, index, e->param_idx);
	if (rc)
		return rc;
	for (size_t p = 0; p < r->m->nparams; p++)
		e->values[p] = r->m->params[p].values[e->param_idx[p]];
	if (!(e->key = kt_space_key(r->space, e->param_idx)))
		return kt_error(KT_ENOMEM, "out of memory");
	return kt_table_put(&r->seen, index_hash(index), rep->nentries - 1);
}

/* Evaluates entries [first, first + n) that the cache did not answer. */
static int evaluate(run *r, size_t *todo, size_t n, double strategy_s)
{
	const kt_model *m = r->m;
	kt_eval_request *reqs = kt_calloc(n + 1, sizeof(*reqs));
	kt_value *slots = kt_calloc(n * m->nsymbols + 1, sizeof(kt_value));
	kt_result *res = kt_calloc(n + 1, sizeof(*res));
	int rc = (!reqs || !slots || !res)
	             ? kt_error(KT_ENOMEM, "out of memory")
	             : 0;
	for (size_t i = 0; !rc && i < n; i++) {
		kt_tune_entry *e = &r->rep->entries[todo[i]];
		kt_result_init(&res[i]);
		reqs[i].param_idx = e->param_idx;
		reqs[i].slots = &slots[i * m->nsymbols];
		reqs[i].key = e->key;
		rc = kt_model_bind(&slots[i * m->nsymbols], m, e->param_idx,
		                   r->problem, r->device);
	}
	if (!rc)
		rc = r->b->ops->evaluate(r->b, reqs, n, res);
	for (size_t i = 0; !rc && i < n; i++) {
		kt_tune_entry *e = &r->rep->entries[todo[i]];
		res[i].strategy_s = strategy_s / (double)n;
		if (r->cache)
			rc = kt_cache_append(r->cache, e->key, e->values,
			                     &res[i]);
		e->result = res[i];
		kt_result_init(&res[i]); /* moved */
		r->rep->evaluated++;
	}
	for (size_t i = 0; res && i < n; i++)
		kt_result_release(&res[i]);
	kt_free(reqs);
	kt_free(slots);
	kt_free(res);
	return rc;
}

/* Answers new entries [first, end) from the cache or the backend. */
static int answer(run *r, size_t first, double strategy_s)
{
	size_t end = r->rep->nentries, n = 0;
	size_t *todo = kt_calloc(end - first + 1, sizeof(size_t));
	if (!todo)
		return kt_error(KT_ENOMEM, "out of memory");
	for (size_t i = first; i < end; i++) {
		kt_tune_entry *e = &r->rep->entries[i];
		const kt_record *rec =
		    r->cache ? kt_cache_find(r->cache, e->key) : NULL;
		if (!rec) {
			todo[n++] = i;
			continue;
		}
		int rc = kt_result_copy(&e->result, &rec->result);
		if (rc) {
			kt_free(todo);
			return rc;
		}
		e->from_cache = true;
		r->rep->cached++;
	}
	int rc = n ? evaluate(r, todo, n, strategy_s) : 0;
	kt_free(todo);
	if (!rc)
		r->answered = end;
	for (size_t i = first; !rc && i < end; i++) {
		const kt_tune_entry *e = &r->rep->entries[i];
		r->rep->counts[e->result.status]++;
		if (objective(&e->result) < INFINITY &&
		    (r->best < 0 ||
		     e->result.time_ms <
		         r->rep->entries[r->best].result.time_ms))
			r->best = (int64_t)i;
	}
	return rc;
}

static void report_progress(run *r, size_t first)
{
	if (!r->opt->progress)
		return;
	kt_tune_report *rep = r->rep;
	kt_tune_progress p = {
	    .visited = rep->nentries,
	    .total = r->budget,
	    .evaluated = rep->evaluated,
	    .cached = rep->cached,
	    .failed = rep->nentries - rep->counts[KT_STATUS_OK],
	    .best = r->best >= 0 ? &rep->entries[r->best] : NULL,
	    .last_batch = &rep->entries[first],
	    .nlast = rep->nentries - first,
	    .elapsed_s = now_s() - r->t0,
	    .eta_s = -1,
	};
	if (p.visited > 0 && p.visited < p.total)
		p.eta_s = p.elapsed_s / (double)p.visited *
		          (double)(p.total - p.visited);
	else if (p.visited >= p.total)
		p.eta_s = 0;
	double left = r->opt->max_seconds - p.elapsed_s;
	if (r->opt->max_seconds > 0 && (p.eta_s < 0 || p.eta_s > left))
		p.eta_s = left > 0 ? left : 0;
	r->opt->progress(&p, r->opt->progress_ud);
}

/* The default configuration: evaluated first, the reference. */
static int visit_default(run *r)
{
	int64_t d = kt_space_default_index(r->space);
	if (d < 0)
		return kt_error(
		    KT_EINVALID,
		    "the default configuration of '%s' violates a "
		    "constraint; it must be valid, it is the reference",
		    r->m->kernel);
	int rc = add_entry(r, (uint64_t)d);
	if (!rc)
		rc = answer(r, 0, 0);
	if (rc)
		return rc;
	const kt_tune_entry *e = &r->rep->entries[0];
	report_progress(r, 0);
	if (e->result.status != KT_STATUS_OK)
		return kt_error(
		    KT_EINVALID,
		    "the default configuration (%s) is not correct "
		    "(%s%s%s); it is the reference, so tuning stops",
		    e->key, kt_status_name(e->result.status),
		    e->result.message ? ": " : "",
		    e->result.message ? e->result.message : "");
	/* The strategy learns from the reference too; it never asked for it. */
	return kt_strategy_tell(r->strat, (uint64_t)d, objective(&e->result));
}

/* ---- the loop --------------------------------------------------------- */

/* Tells the strategy the objective of each asked configuration, in order. */
static int tell(run *r, const uint64_t *asked, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int64_t e = find_entry(r, asked[i]);
		if (e < 0)
			continue; /* beyond the budget: never visited */
		int rc = kt_strategy_tell(
		    r->strat, asked[i], objective(&r->rep->entries[e].result));
		if (rc)
			return rc;
	}
	return 0;
}

/* Why the run should stop before the next batch, or -1 to go on. */
static int should_stop(const run *r)
{
	if (r->opt->stop && *r->opt->stop)
		return KT_TUNE_INTERRUPTED;
	if (r->rep->nentries >= r->budget)
		return r->budget == r->rep->space_size ? KT_TUNE_EXHAUSTED
		                                       : KT_TUNE_BUDGET;
	if (r->opt->max_seconds > 0 && now_s() - r->t0 >= r->opt->max_seconds)
		return KT_TUNE_TIME;
	return -1;
}

/* One ask-answer-tell round; *stop set when the run ends with it. */
static int step(run *r, uint64_t *asked, size_t batch, size_t *stalls,
                int *stop)
{
	size_t n = 0, first = r->rep->nentries;
	double t = now_s();
	int rc = kt_strategy_ask(r->strat, asked, batch, &n);
	double strategy_s = now_s() - t;
	if (rc)
		return rc;
	if (n == 0) {
		*stop = KT_TUNE_EXHAUSTED;
		return 0;
	}
	for (size_t i = 0; i < n && !rc; i++)
		if (find_entry(r, asked[i]) < 0 && r->rep->nentries < r->budget)
			rc = add_entry(r, asked[i]);
	if (!rc)
		rc = answer(r, first, strategy_s);
	if (rc)
		return rc;
	*stalls = r->rep->nentries > first ? 0 : *stalls + 1;
	if (*stalls >= MAX_STALLS)
		*stop = KT_TUNE_STALLED;
	if (r->rep->nentries > first)
		report_progress(r, first);
	return tell(r, asked, n);
}

static int loop(run *r)
{
	size_t batch = r->opt->batch ? r->opt->batch : 1;
	uint64_t *asked = kt_calloc(batch, sizeof(uint64_t));
	if (!asked)
		return kt_error(KT_ENOMEM, "out of memory");
	size_t stalls = 0;
	int rc = 0, stop = -1;
	while (!rc && stop < 0) {
		stop = should_stop(r);
		if (stop < 0)
			rc = step(r, asked, batch, &stalls, &stop);
	}
	r->rep->stop = stop < 0 ? KT_TUNE_INTERRUPTED : (kt_tune_stop)stop;
	kt_free(asked);
	return rc;
}

static int write_t4(run *r)
{
	kt_tune_report *rep = r->rep;
	kt_t4_row *rows = kt_calloc(rep->nentries + 1, sizeof(*rows));
	if (!rows)
		return kt_error(KT_ENOMEM, "out of memory");
	for (size_t i = 0; i < rep->nentries; i++) {
		rows[i].values = rep->entries[i].values;
		rows[i].result = &rep->entries[i].result;
	}
	int rc = kt_t4_write(r->opt->t4_path, &r->info, r->b->ops->name, rows,
	                     rep->nentries);
	kt_free(rows);
	return rc;
}

/* Drops entries a failure left without a result: they were not visited. */
static void drop_unanswered(run *r)
{
	kt_tune_report *rep = r->rep;
	for (size_t i = r->answered; i < rep->nentries; i++) {
		kt_free(rep->entries[i].param_idx);
		kt_free(rep->entries[i].values);
		kt_free(rep->entries[i].key);
		kt_result_release(&rep->entries[i].result);
	}
	rep->nentries = r->answered;
}

static void tear_down(run *r)
{
	kt_strategy_free(r->strat);
	kt_cache_close(r->cache);
	kt_space_free(r->space);
	kt_results_info_release(&r->info);
	kt_table_release(&r->seen);
	kt_free(r->problem);
	kt_free(r->device);
}

int kt_tune_run(kt_tune_report **out, const kt_model *m, kt_backend *b,
                const kt_tune_options *opt)
{
	*out = NULL;
	kt_tune_options none = {0};
	run r = {.m = m,
	         .b = b,
	         .opt = opt ? opt : &none,
	         .best = -1,
	         .t0 = now_s()};
	if (!(r.rep = kt_calloc(1, sizeof(*r.rep))))
		return kt_error(KT_ENOMEM, "out of memory");
	int rc = set_up(&r);
	if (!rc)
		rc = visit_default(&r);
	if (!rc)
		rc = loop(&r);
	if (rc)
		r.rep->stop = KT_TUNE_ERROR;
	drop_unanswered(&r);
	r.rep->elapsed_s = now_s() - r.t0;
	r.rep->best = r.best >= 0 ? &r.rep->entries[r.best] : NULL;
	if (r.rep->nentries > 0 && r.opt->t4_path) {
		/* what went wrong first is the message to keep */
		char first[1024];
		snprintf(first, sizeof(first), "%s", kt_error_last());
		int wrc = write_t4(&r);
		if (rc)
			kt_error(rc, "%s", first);
		else
			rc = wrc;
	}
	tear_down(&r);
	if (rc && r.rep->nentries == 0) {
		kt_tune_report_free(r.rep);
		return rc;
	}
	*out = r.rep;
	return rc;
}

void kt_tune_report_free(kt_tune_report *rep)
{
	if (!rep)
		return;
	for (size_t i = 0; i < rep->nentries; i++) {
		kt_free(rep->entries[i].param_idx);
		kt_free(rep->entries[i].values);
		kt_free(rep->entries[i].key);
		kt_result_release(&rep->entries[i].result);
	}
	kt_free(rep->entries);
	kt_free(rep->strategy);
	kt_free(rep);
}
