/*
 * runtime/cuda/evaluate.c - a batch of configurations: evaluate each at
 * every checked size, compile them on a pool of threads, and hand each to
 * the worker as soon as its cubins are ready, in request order, so NVRTC
 * works on later configurations while the GPU measures earlier ones.
 *
 * With one compile thread (compile_threads = 1) nothing overlaps: each
 * configuration is compiled, then run, then the next; that is the baseline
 * the pipeline is measured against.
 */
#include "runtime/cuda/backend.h"

#include "ktc/results.h"
#include "runtime/backend_impl.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

typedef struct job {
	kt_cu_cfg cfg;
	kt_cu_binary bin;
	int rc;
	bool done;
	uint32_t size; /* index into b->sizes */
	size_t same;   /* the job of the same request (offset from its first)
	                  with the same source and options, whose cubin this
	                  one uses; SIZE_MAX if none */
} job;

/* The cubin job i of a request (jobs: the request's first) runs. */
static const kt_cu_binary *job_bin(const job *jobs, size_t i)
{
	return jobs[i].same != SIZE_MAX ? &jobs[jobs[i].same].bin
	                                : &jobs[i].bin;
}

static bool same_source(const kt_cu_cfg *a, const kt_cu_cfg *b)
{
	if (a->ndefines != b->ndefines || strcmp(a->name_expr, b->name_expr))
		return false;
	for (size_t i = 0; i < a->ndefines; i++)
		if (strcmp(a->defines[i], b->defines[i]))
			return false;
	return true;
}

/* One request's plan: its jobs and, when already decided, its status. */
typedef struct plan {
	size_t first, njobs;
	bool decided; /* status known before compiling */
} plan;

typedef struct pool {
	kt_cu_backend *b;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	job *jobs;
	size_t njobs, next;
	bool stop;
	pthread_t *threads;
	struct slot *slots;
	int nthreads;
} pool;

/* What one compile thread gets: the pool and its compiler process. */
typedef struct slot {
	pool *p;
	kt_cu_compiler *cc;
} slot;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void set_status(kt_result *r, kt_status st, const char *msg)
{
	r->status = st;
	kt_free(r->message);
	r->message = msg && *msg ? kt_strdup(msg) : NULL;
}

/* ---- planning ---------------------------------------------------------- */

static bool same_counts(const kt_model *m, const kt_cu_cfg *a,
                        const kt_cu_cfg *ref, kt_str *why)
{
	for (size_t i = 0; i < m->nargs; i++) {
		if (!m->args[i].count || a->counts[i] == ref->counts[i])
			continue;
		kt_str_addf(why,
		            "buffer '%s' has %llu elements with this "
		            "configuration, %llu with the default: its "
		            "outputs cannot be compared",
		            m->args[i].name, (unsigned long long)a->counts[i],
		            (unsigned long long)ref->counts[i]);
		return false;
	}
	return true;
}

/*
 * Evaluates request r at size z into j. Returns 1 when the job is usable,
 * 0 when not (at the tuned size the result then says why).
 */
static int plan_size(kt_cu_backend *b, const kt_eval_request *q, uint32_t z,
                     job *j, kt_result *res)
{
	const kt_model *m = b->base.model;
	kt_cu_size *s = &b->sizes[z];
	kt_str why = KT_STR_INIT;
	kt_status st = KT_STATUS_OK;
	char lim[256];
	if (kt_cu_cfg_make(&j->cfg, m, q->param_idx, s->problem, b->devvals,
	                   b->total_mem)) {
		st = KT_STATUS_CONSTRAINTS;
		kt_str_addf(&why, "at %s: %s", s->label, kt_error_last());
	} else if (j->cfg.violated) {
		st = KT_STATUS_CONSTRAINTS;
		kt_str_addf(&why, "violates '%s' at %s", j->cfg.violated,
		            s->label);
	} else if (kt_cu_cfg_limits(&j->cfg, b->attrs, lim, sizeof(lim))) {
		st = KT_STATUS_CONSTRAINTS;
		kt_str_addf(&why, "%s", lim);
	} else if (!same_counts(m, &j->cfg, &s->ref, &why)) {
		st = KT_STATUS_CORRECTNESS;
	}
	if (st != KT_STATUS_OK) {
		if (z == 0)
			set_status(res, st, why.ptr);
		kt_cu_cfg_release(&j->cfg);
	}
	kt_str_release(&why);
	j->size = z;
	return st == KT_STATUS_OK;
}

static int plan_all(kt_cu_backend *b, const kt_eval_request *reqs, size_t n,
                    kt_result *res, plan *plans, job **jobs, size_t *njobs)
{
	job *all = kt_calloc(n * b->nsizes + 1, sizeof(job));
	if (!all)
		return kt_error(KT_ENOMEM, "out of memory");
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		plans[i].first = k;
		for (uint32_t z = 0; z < b->nsizes; z++) {
			int ok = plan_size(b, &reqs[i], z, &all[k], &res[i]);
			if (!ok && z == 0) {
				plans[i].decided = true;
				break;
			}
			all[k].same = SIZE_MAX;
			/* sizes differ in set values at most: one compile each
			 */
			for (size_t o = plans[i].first; ok && o < k; o++)
				if (all[o].same == SIZE_MAX &&
				    same_source(&all[o].cfg, &all[k].cfg)) {
					all[k].same = o - plans[i].first;
					all[k].done = true;
				}
			k +=
			    ok; /* a size the config cannot run at is skipped */
		}
		plans[i].njobs = k - plans[i].first;
	}
	*jobs = all;
	*njobs = k;
	return 0;
}

/* ---- the compile pool --------------------------------------------------- */

static void *compile_loop(void *arg)
{
	pool *p = ((slot *)arg)->p;
	kt_cu_compiler *cc = ((slot *)arg)->cc;
	for (;;) {
		pthread_mutex_lock(&p->mu);
		size_t i = p->next;
		bool quit = p->stop || i >= p->njobs;
		if (!quit)
			p->next++;
		pthread_mutex_unlock(&p->mu);
		if (quit)
			return NULL;
		job *j = &p->jobs[i];
		if (j->same != SIZE_MAX)
			continue;
		int rc = kt_cu_compile_cfg(&j->bin, p->b, &j->cfg, cc);
		pthread_mutex_lock(&p->mu);
		j->rc = rc ? rc : 0;
		j->done = true;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
}

static int pool_start(pool *p)
{
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	int want =
	    p->b->threads < (int)p->njobs ? p->b->threads : (int)p->njobs;
	if (want <= 1)
		return 0; /* sequential: jobs are compiled when they are needed
		           */
	p->threads = kt_calloc((size_t)want, sizeof(pthread_t));
	p->slots = kt_calloc((size_t)want, sizeof(slot));
	if (!p->threads || !p->slots)
		return kt_error(KT_ENOMEM, "out of memory");
	for (; p->nthreads < want; p->nthreads++) {
		p->slots[p->nthreads] =
		    (slot){p, &p->b->compilers[p->nthreads]};
		if (pthread_create(&p->threads[p->nthreads], NULL, compile_loop,
		                   &p->slots[p->nthreads]))
			break;
	}
	return 0;
}

/* Waits for jobs [first, first + n); compiles them itself if no thread does. */
static int pool_wait(pool *p, size_t first, size_t n)
{
	int rc = 0;
	for (size_t i = first; i < first + n; i++) {
		job *j = &p->jobs[i];
		if (!p->nthreads && j->same == SIZE_MAX) {
			rc = kt_cu_compile_cfg(&j->bin, p->b, &j->cfg, NULL);
			j->done = true;
			j->rc = rc;
		}
		pthread_mutex_lock(&p->mu);
		while (!j->done)
			pthread_cond_wait(&p->cv, &p->mu);
		pthread_mutex_unlock(&p->mu);
		if (j->rc)
			return kt_error(j->rc, "compiling: %s",
			                kt_error_last());
	}
	return rc;
}

static void pool_stop(pool *p)
{
	pthread_mutex_lock(&p->mu);
	p->stop = true;
	pthread_mutex_unlock(&p->mu);
	for (int i = 0; i < p->nthreads; i++)
		pthread_join(p->threads[i], NULL);
	kt_free(p->threads);
	kt_free(p->slots);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
}

/* ---- running on the worker ---------------------------------------------- */

static int send_eval(kt_cu_backend *b, const job *jobs, size_t n)
{
	const kt_model *m = b->base.model;
	kt_str s = KT_STR_INIT;
	int rc = kt_cu_put_u32(&s, (uint32_t)n) |
	         kt_cu_put_u32(&s, (uint32_t)b->timed_runs) |
	         kt_cu_put_u32(&s, (uint32_t)b->warmup_runs) |
	         kt_cu_put_f64(&s, KT_CU_GRAPH_BELOW_MS) |
	         kt_cu_put_u32(&s, b->graph ? KT_CU_GRAPH_BATCH : 0);
	for (size_t i = 0; !rc && i < n; i++) {
		kt_cu_launch l;
		kt_cu_launch_of(&l, &jobs[i].cfg, job_bin(jobs, i));
		rc = kt_cu_put_u32(&s, jobs[i].size) |
		     kt_cu_put_launch(&s, &l, m->nargs);
	}
	rc = rc ? kt_error(KT_ENOMEM, "out of memory")
	        : kt_cu_send(b->fd, KT_CU_EVAL, &s);
	kt_str_release(&s);
	return rc;
}

static double percentile(const double *sorted, size_t n, double q)
{
	double x = q * (double)(n - 1);
	size_t i = (size_t)x;
	if (i + 1 >= n)
		return sorted[n - 1];
	return sorted[i] + (x - (double)i) * (sorted[i + 1] - sorted[i]);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void summarise_times(kt_result *res)
{
	if (!res->nruntimes)
		return;
	double *t = kt_malloc(res->nruntimes * sizeof(double));
	if (!t)
		return;
	memcpy(t, res->runtimes_ms, res->nruntimes * sizeof(double));
	qsort(t, res->nruntimes, sizeof(double), cmp_double);
	res->time_ms = percentile(t, res->nruntimes, 0.5);
	res->spread = (percentile(t, res->nruntimes, 0.9) -
	               percentile(t, res->nruntimes, 0.1)) /
	              res->time_ms;
	kt_free(t);
}

static void objective_measures(kt_cu_backend *b, const job *j, kt_result *res)
{
	const kt_model *m = b->base.model;
	if (res->status != KT_STATUS_OK || !(res->time_ms > 0) ||
	    j->cfg.work < 0)
		return;
	double per_s = j->cfg.work / (res->time_ms * 1e-3);
	if (m->objective.kind == KT_OBJ_BANDWIDTH) {
		kt_result_add_measure(res, "bandwidth", per_s / 1e9, "GB/s");
		if (b->info.copy_gbs > 0)
			kt_result_add_measure(res, "bandwidth_fraction",
			                      per_s / 1e9 / b->info.copy_gbs,
			                      "");
	} else if (m->objective.kind == KT_OBJ_FLOPS) {
		kt_result_add_measure(res, "gflops", per_s / 1e9, "GFLOP/s");
	}
}

static void note_once(kt_cu_backend *b, const char *note, kt_result *res)
{
	if (!*note || b->note_printed)
		return;
	fprintf(stderr, "ktc: cuda: --profile: %s\n", note);
	b->note_printed = true;
	if (!res->message)
		res->message = kt_strdup(note);
}

static void read_result(kt_cu_backend *b, kt_cu_reader *r, kt_result *res)
{
	uint32_t st = kt_cu_get_u32(r);
	const char *msg = kt_cu_get_str(r);
	set_status(res,
	           st <= KT_STATUS_TIMEOUT ? (kt_status)st : KT_STATUS_RUNTIME,
	           msg);
	res->verify_s = kt_cu_get_f64(r);
	res->benchmark_s = kt_cu_get_f64(r);
	res->framework_s = kt_cu_get_f64(r);
	uint32_t nt = kt_cu_get_u32(r);
	if (nt && !r->bad &&
	    (res->runtimes_ms = kt_calloc(nt, sizeof(double)))) {
		res->nruntimes = nt;
		for (uint32_t i = 0; i < nt; i++)
			res->runtimes_ms[i] = kt_cu_get_f64(r);
	}
	uint32_t nm = kt_cu_get_u32(r);
	for (uint32_t i = 0; i < nm && !r->bad; i++) {
		const char *name = kt_cu_get_str(r), *unit = kt_cu_get_str(r);
		kt_result_add_measure(res, name, kt_cu_get_f64(r), unit);
	}
	note_once(b, kt_cu_get_str(r), res);
	if (r->bad)
		set_status(res, KT_STATUS_RUNTIME, "malformed RESULT message");
	summarise_times(res);
}

/* Runs one configuration's jobs on the worker; fills res. */
static int run_once(kt_cu_backend *b, const job *jobs, size_t n, kt_result *res)
{
	int rc = kt_cu_worker_ready(b);
	if (rc)
		return rc; /* no worker, no device: the run cannot go on */
	double t0 = now_s();
	rc = send_eval(b, jobs, n);
	uint32_t type = 0;
	char *msg = NULL;
	size_t len = 0;
	kt_str why = KT_STR_INIT;
	if (!rc)
		rc = kt_cu_worker_wait(b, &type, &msg, &len, &why);
	kt_cu_reader r = {msg, len, 0, false};
	if (rc == KT_CU_TIMEOUT || rc == KT_CU_EOF) {
		set_status(res,
		           rc == KT_CU_TIMEOUT ? KT_STATUS_TIMEOUT
		                               : KT_STATUS_RUNTIME,
		           why.ptr);
	} else if (rc < 0 || type != KT_CU_RESULT) {
		if (rc >= 0 && type == KT_CU_FAIL)
			kt_cu_read_fail(&r);
		else if (rc >= 0)
			kt_error(KT_EBACKEND, "the CUDA worker answered %u",
			         type);
		set_status(res, KT_STATUS_RUNTIME, kt_error_last());
		kt_cu_worker_stop(b);
	} else {
		read_result(b, &r, res);
		if (res->status == KT_STATUS_RUNTIME)
			kt_cu_worker_stop(
			    b); /* it exits: its context is lost */
	}
	double wall = now_s() - t0;
	res->framework_s +=
	    fmax(0, wall - res->verify_s - res->benchmark_s - res->framework_s);
	kt_free(msg);
	kt_str_release(&why);
	return 0;
}

/*
 * run_once, again while the worker is killed from outside (a user, the OOM
 * killer): that is not the configuration's failure, and a third such death
 * stops the run instead of recording one.
 */
static int run_one(kt_cu_backend *b, const job *jobs, size_t n, kt_result *res)
{
	kt_result before;
	int rc = kt_result_copy(&before, res);
	for (int tries = 0; !rc; tries++) {
		b->died_of = 0;
		rc = run_once(b, jobs, n, res);
		if (rc || !kt_backend_killed_from_outside(b->died_of))
			break;
		if (tries == 2) {
			rc = kt_error(
			    KT_EBACKEND,
			    "cuda: the worker was killed from outside "
			    "three times running one configuration (%s)",
			    res->message ? res->message : "");
			break;
		}
		kt_result_release(res);
		rc = kt_result_copy(res, &before);
	}
	kt_result_release(&before);
	return rc;
}

static double unix_now(void)
{
	struct timeval tv;
	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

/* Compiled: a status for compile errors, the compile time, the cubins. */
static bool compiled(const job *jobs, size_t n, kt_result *res)
{
	for (size_t i = 0; i < n; i++) {
		if (jobs[i].same != SIZE_MAX)
			continue;
		res->compile_s += jobs[i].bin.seconds;
		if (!jobs[i].bin.ok) {
			set_status(res, KT_STATUS_COMPILE, jobs[i].bin.log);
			return false;
		}
	}
	kt_result_add_measure(res, "cubin_cached", n && jobs[0].bin.cached, "");
	return true;
}

static int run_all(kt_cu_backend *b, pool *p, const plan *plans, size_t n,
                   kt_result *res)
{
	int rc = 0;
	for (size_t i = 0; !rc && i < n; i++) {
		if (!plans[i].decided) {
			const job *j = &p->jobs[plans[i].first];
			rc = pool_wait(p, plans[i].first, plans[i].njobs);
			if (!rc && compiled(j, plans[i].njobs, &res[i]) &&
			    !b->opt.compile_only) {
				rc = run_one(b, j, plans[i].njobs, &res[i]);
				objective_measures(b, j, &res[i]);
			}
		}
		res[i].timestamp = unix_now();
	}
	return rc;
}

int kt_cu_evaluate(kt_backend *base, const kt_eval_request *reqs, size_t n,
                   kt_result *res)
{
	kt_cu_backend *b = (kt_cu_backend *)base;
	if (!b->nsizes)
		return kt_error(KT_EINVALID,
		                "cuda: evaluate before set_problem");
	plan *plans = kt_calloc(n + 1, sizeof(plan));
	pool p = {.b = b};
	int rc = plans ? plan_all(b, reqs, n, res, plans, &p.jobs, &p.njobs)
	               : kt_error(KT_ENOMEM, "out of memory");
	if (!rc)
		rc = pool_start(&p);
	if (!rc)
		rc = run_all(b, &p, plans, n, res);
	if (p.jobs) {
		pool_stop(&p);
		for (size_t i = 0; i < p.njobs; i++) {
			kt_cu_cfg_release(&p.jobs[i].cfg);
			kt_cu_binary_release(&p.jobs[i].bin);
		}
	}
	kt_free(p.jobs);
	kt_free(plans);
	return rc;
}
