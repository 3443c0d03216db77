/*
 * runtime/pool.c - the pool backend (ktc/pool.h): one member per local
 * worker (a backend of its own, on a thread of its own while a batch runs)
 * and one per other MPI rank (served by the main thread, which alone talks
 * MPI).
 *
 * The design choice a reader needs: a batch is a list of configurations
 * each in one of three states (waiting, in hand, done). A member takes a
 * chunk of waiting ones, and the chunk comes back done, or, when the
 * member fails, waiting again for the others. The batch's results are
 * filled in place, so the tuner sees them in its own order however they
 * were spread, and a configuration's result never depends on who ran it
 * except for its timing and its "device" and "rank" measurements.
 *
 * Compiles are shared through the backends' own means: CUDA members use
 * one binary cache folder (a configuration compiled once is loaded by any
 * member), and the cores are divided among the members' compile threads.
 */
#include "runtime/mpi.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_RANK_TIMEOUT_S 30.0
#define HELLO_TIMEOUT_S 120.0 /* a rank opening its devices */
enum { MAX_DEVICES = 256 };
enum { WAITING, IN_HAND, DONE };

typedef struct pool pool;

typedef struct member {
	pool *p;
	kt_backend *b; /* local; NULL for a rank */
	int rank;      /* 0: this process */
	int device;    /* index among its host's members */
	unsigned workers;
	bool dead;
	size_t *ids; /* the chunk in hand */
	size_t n;
	bool busy;    /* a rank with a chunk (or a problem) in hand */
	bool started; /* a local thread to join */
	bool running; /* ... still running */
	pthread_t thread_id;
	double heard; /* when a rank was last heard from */
} member;

struct pool {
	kt_backend base;
	kt_backend_ops ops; /* named as the members' backend */
	member *mem;
	size_t nmem;
	kt_device_info info;
	double rank_timeout_s;
	bool mpi;
	int *joined; /* ranks told about this job */
	size_t njoined;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	/* the batch in progress */
	const kt_eval_request *reqs;
	kt_result *res;
	unsigned char *state;
	size_t n, ndone, chunk;
	kt_str msg;
	const kt_model *m;
	char why[512]; /* why the last member was lost */
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static size_t live_workers(const pool *p)
{
	size_t n = 0;
	for (size_t i = 0; i < p->nmem; i++)
		n += p->mem[i].dead ? 0 : p->mem[i].workers;
	return n;
}

static void op_free(kt_backend *kb);

size_t kt_pool_members(const kt_backend *b)
{
	return b && b->ops && b->ops->free == op_free
	           ? live_workers((const pool *)b)
	           : 1;
}

/* ---- handing out chunks --------------------------------------------- */

/* Takes up to max waiting configurations into mb's hand (under mu). */
static size_t take(pool *p, member *mb, size_t max)
{
	mb->n = 0;
	for (size_t i = 0; i < p->n && mb->n < max; i++)
		if (p->state[i] == WAITING) {
			p->state[i] = IN_HAND;
			mb->ids[mb->n++] = i;
		}
	return mb->n;
}

/* A member that failed: what it held waits for the others (under mu). */
static void drop(pool *p, member *mb, const char *why)
{
	for (size_t i = 0; i < mb->n; i++)
		if (p->state[mb->ids[i]] == IN_HAND)
			p->state[mb->ids[i]] = WAITING;
	if (!mb->dead)
		snprintf(p->why, sizeof(p->why), "%s", why);
	if (!mb->dead)
		fprintf(stderr,
		        "ktc: %s %d is lost (%s); its %zu configurations "
		        "in hand go to the others\n",
		        mb->rank ? "rank" : "worker",
		        mb->rank ? mb->rank : mb->device, why, mb->n);
	mb->dead = true;
	mb->busy = false;
	mb->n = 0;
	pthread_cond_broadcast(&p->cv);
}

/* Stores a finished result where the tuner expects it (under mu). */
static void store(pool *p, const member *mb, size_t id, kt_result *r)
{
	kt_result_release(&p->res[id]);
	p->res[id] = *r;
	kt_result_init(r);
	if (mb->rank == 0)
		kt_result_add_measure(&p->res[id], "device", mb->device,
		                      "index");
	if (p->mpi)
		kt_result_add_measure(&p->res[id], "rank", mb->rank, "index");
	p->state[id] = DONE;
	p->ndone++;
}

/* ---- local members ---------------------------------------------------- */

/* Evaluates the chunk in hand; 0, or the backend's error (mu not held). */
static int run_chunk(member *mb, kt_result *res)
{
	pool *p = mb->p;
	kt_eval_request *sub = kt_calloc(mb->n + 1, sizeof(*sub));
	if (!sub)
		return kt_error(KT_ENOMEM, "out of memory");
	for (size_t i = 0; i < mb->n; i++) {
		sub[i] = p->reqs[mb->ids[i]];
		kt_result_init(&res[i]);
	}
	int rc = mb->b->ops->evaluate(mb->b, sub, mb->n, res);
	kt_free(sub);
	return rc;
}

static void *local_thread(void *arg)
{
	member *mb = arg;
	pool *p = mb->p;
	kt_result *res = kt_calloc(p->n + 1, sizeof(kt_result));
	pthread_mutex_lock(&p->mu);
	while (res && !mb->dead && take(p, mb, p->chunk)) {
		pthread_mutex_unlock(&p->mu);
		int rc = run_chunk(mb, res);
		pthread_mutex_lock(&p->mu);
		if (rc)
			drop(p, mb, kt_error_last());
		for (size_t i = 0; !rc && i < mb->n; i++)
			store(p, mb, mb->ids[i], &res[i]);
		for (size_t i = 0; i < mb->n; i++)
			kt_result_release(&res[i]);
		mb->n = 0;
		pthread_cond_broadcast(&p->cv);
	}
	if (!res)
		drop(p, mb, "out of memory");
	mb->running = false;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	kt_free(res);
	return NULL;
}

/* Starts a thread for each idle live local member while work waits, and
 * joins those that ended (under mu). */
static void tend_locals(pool *p, size_t waiting)
{
	for (size_t i = 0; i < p->nmem; i++) {
		member *mb = &p->mem[i];
		if (mb->rank || mb->running)
			continue;
		if (mb->started) {
			pthread_join(mb->thread_id, NULL);
			mb->started = false;
		}
		if (mb->dead || !waiting)
			continue;
		mb->running = mb->started = true;
		if (pthread_create(&mb->thread_id, NULL, local_thread, mb)) {
			mb->running = mb->started = false;
			drop(p, mb, "cannot start a thread");
		}
	}
}

/* ---- remote members --------------------------------------------------- */

static member *member_of_rank(pool *p, int r)
{
	for (size_t i = 0; i < p->nmem; i++)
		if (p->mem[i].rank == r && r > 0)
			return &p->mem[i];
	return NULL;
}

static void lose_rank(pool *p, member *mb, const char *why)
{
	kt_mpi_mark_lost(mb->rank);
	drop(p, mb, why);
}

/* EVAL: n, then per configuration its parameter indices, slots and key. */
static int send_chunk(pool *p, member *mb)
{
	const kt_model *m = p->m;
	kt_str s = KT_STR_INIT;
	int rc = kt_wire_put_u32(&s, (uint32_t)mb->n);
	for (size_t i = 0; !rc && i < mb->n; i++) {
		const kt_eval_request *q = &p->reqs[mb->ids[i]];
		rc = kt_wire_put(&s, q->param_idx,
		                 m->nparams * sizeof(uint32_t));
		if (!rc)
			rc = kt_wire_put(&s, q->slots,
			                 m->nsymbols * sizeof(kt_value));
		if (!rc)
			rc = kt_wire_put_str(&s, q->key);
	}
	if (!rc)
		rc = kt_mpi_send(mb->rank, KT_MPI_EVAL, &s);
	kt_str_release(&s);
	return rc;
}

static void take_results(pool *p, member *mb)
{
	kt_wire_reader rd;
	kt_wire_reader_init(&rd, &p->msg);
	int rc = (int)kt_wire_get_u32(&rd);
	const char *why = kt_wire_get_str(&rd);
	uint32_t n = kt_wire_get_u32(&rd);
	if (rc || rd.bad || n != mb->n) {
		drop(p, mb, rc ? why : "a corrupt answer");
		return;
	}
	kt_result *res = kt_calloc(n + 1, sizeof(kt_result));
	for (size_t i = 0; res && i < n; i++)
		kt_result_init(&res[i]);
	for (size_t i = 0; res && !rc && i < n; i++)
		rc = kt_wire_get_result(&rd, &res[i]);
	if (!res || rc) {
		drop(p, mb, res ? kt_error_last() : "out of memory");
	} else {
		for (size_t i = 0; i < n; i++)
			store(p, mb, mb->ids[i], &res[i]);
		mb->n = 0;
		mb->busy = false;
	}
	for (size_t i = 0; res && i < n; i++)
		kt_result_release(&res[i]);
	kt_free(res);
}

/* Reads what the ranks said; a READY is counted in *ready. */
static int poll_ranks(pool *p, size_t *ready)
{
	int r = 0, type = 0, got;
	while ((got = kt_mpi_poll(&r, &type, &p->msg)) == 1) {
		member *mb = member_of_rank(p, r);
		if (!mb || mb->dead)
			continue;
		mb->heard = now_s();
		pthread_mutex_lock(&p->mu);
		if (type == KT_MPI_RESULTS && mb->busy && mb->n)
			take_results(p, mb);
		else if (type == KT_MPI_READY && mb->busy) {
			kt_wire_reader rd;
			kt_wire_reader_init(&rd, &p->msg);
			int rc = (int)kt_wire_get_u32(&rd);
			const char *why = kt_wire_get_str(&rd);
			mb->busy = false;
			if (rc)
				drop(p, mb, why);
			else if (ready)
				(*ready)++;
		}
		pthread_mutex_unlock(&p->mu);
	}
	return got;
}

/* Ranks silent for longer than the rank timeout are lost. */
static void check_silence(pool *p)
{
	double t = now_s();
	char why[96];
	for (size_t i = 0; i < p->nmem; i++) {
		member *mb = &p->mem[i];
		if (!mb->rank || mb->dead || t - mb->heard < p->rank_timeout_s)
			continue;
		snprintf(why, sizeof(why), "silent for %.0f s", t - mb->heard);
		pthread_mutex_lock(&p->mu);
		lose_rank(p, mb, why);
		pthread_mutex_unlock(&p->mu);
	}
}

/* Hands a chunk to each idle live rank while work waits. */
static void feed_ranks(pool *p)
{
	for (size_t i = 0; i < p->nmem; i++) {
		member *mb = &p->mem[i];
		if (!mb->rank || mb->dead || mb->busy)
			continue;
		pthread_mutex_lock(&p->mu);
		size_t k = take(p, mb, p->chunk * mb->workers);
		pthread_mutex_unlock(&p->mu);
		if (!k)
			return;
		mb->busy = true;
		if (send_chunk(p, mb)) {
			pthread_mutex_lock(&p->mu);
			lose_rank(p, mb, kt_error_last());
			pthread_mutex_unlock(&p->mu);
		}
	}
}

/* ---- the backend -------------------------------------------------------- */

static size_t count_state(const pool *p, int st)
{
	size_t n = 0;
	for (size_t i = 0; i < p->n; i++)
		n += p->state[i] == st;
	return n;
}

static bool any_remote(const pool *p)
{
	for (size_t i = 0; i < p->nmem; i++)
		if (p->mem[i].rank && !p->mem[i].dead)
			return true;
	return false;
}

/* Waits a millisecond, or until a local thread says something (under mu). */
static void wait_a_little(pool *p)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 1000 * 1000;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_cond_timedwait(&p->cv, &p->mu, &ts);
}

/* Runs the batch until every configuration is done or no member is left. */
static int spread(pool *p)
{
	int rc = 0;
	pthread_mutex_lock(&p->mu);
	while (p->ndone < p->n) {
		size_t waiting = count_state(p, WAITING);
		if (!live_workers(p) && !count_state(p, IN_HAND)) {
			rc = kt_error(KT_EBACKEND,
			              "every device of the run is lost; the "
			              "last: %s",
			              p->why);
			break;
		}
		tend_locals(p, waiting);
		if (any_remote(p)) {
			pthread_mutex_unlock(&p->mu);
			feed_ranks(p);
			rc = poll_ranks(p, NULL);
			check_silence(p);
			pthread_mutex_lock(&p->mu);
			if (rc < 0)
				break;
		}
		if (p->ndone < p->n)
			wait_a_little(p);
	}
	for (size_t i = 0; i < p->nmem; i++) /* the threads end as work does */
		while (p->mem[i].running)
			pthread_cond_wait(&p->cv, &p->mu);
	tend_locals(p, 0);
	pthread_mutex_unlock(&p->mu);
	return rc < 0 ? rc : 0;
}

static int op_evaluate(kt_backend *kb, const kt_eval_request *reqs, size_t n,
                       kt_result *results)
{
	pool *p = (pool *)kb;
	for (size_t i = 0; i < n; i++)
		kt_result_init(&results[i]);
	size_t w = live_workers(p);
	p->reqs = reqs;
	p->res = results;
	p->n = n;
	p->ndone = 0;
	p->chunk = w ? (n + w - 1) / w : n;
	p->state = kt_calloc(n + 1, 1);
	int rc = p->state ? 0 : kt_error(KT_ENOMEM, "out of memory");
	for (size_t i = 0; !rc && i < p->nmem; i++) {
		kt_free(p->mem[i].ids);
		p->mem[i].n = 0;
		if (!(p->mem[i].ids = kt_calloc(n + 1, sizeof(size_t))))
			rc = kt_error(KT_ENOMEM, "out of memory");
	}
	if (!rc)
		rc = spread(p);
	kt_free(p->state);
	p->state = NULL;
	return rc;
}

static int op_device_info(kt_backend *kb, kt_device_info *out)
{
	*out = ((pool *)kb)->info;
	return 0;
}

/* Waits until every rank sent READY or was lost. */
static int await_ready(pool *p, size_t want)
{
	size_t ready = 0;
	while (ready < want && any_remote(p)) {
		size_t busy = 0;
		for (size_t i = 0; i < p->nmem; i++)
			busy +=
			    p->mem[i].rank && p->mem[i].busy && !p->mem[i].dead;
		if (!busy)
			break;
		int rc = poll_ranks(p, &ready);
		if (rc < 0)
			return rc;
		check_silence(p);
		struct timespec ts = {0, 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	return 0;
}

static int op_set_problem(kt_backend *kb, const kt_value *problem)
{
	pool *p = (pool *)kb;
	const kt_model *m = kb->model;
	kt_value *values = kt_calloc(m->nproblems + 1, sizeof(kt_value));
	if (!values)
		return kt_error(KT_ENOMEM, "out of memory");
	for (size_t i = 0; i < m->nproblems; i++)
		values[i] = kt_model_problem_value(m, problem, i);
	kt_str s = KT_STR_INIT;
	int rc = kt_wire_put(&s, values, m->nproblems * sizeof(kt_value));
	size_t sent = 0;
	for (size_t i = 0; !rc && i < p->nmem; i++) {
		member *mb = &p->mem[i];
		if (!mb->rank || mb->dead)
			continue;
		if (kt_mpi_send(mb->rank, KT_MPI_PROBLEM, &s)) {
			lose_rank(p, mb, kt_error_last());
			continue;
		}
		mb->busy = true;
		sent++;
	}
	kt_str_release(&s);
	int first = 0;
	char why[512] = "";
	for (size_t i = 0; !rc && i < p->nmem; i++) {
		member *mb = &p->mem[i];
		if (mb->rank || mb->dead)
			continue;
		int lrc = mb->b->ops->set_problem(mb->b, values);
		if (lrc && !first) {
			first = lrc;
			snprintf(why, sizeof(why), "%s", kt_error_last());
		}
		if (lrc)
			drop(p, mb, kt_error_last());
	}
	if (!rc)
		rc = await_ready(p, sent);
	kt_free(values);
	if (!rc && !live_workers(p))
		rc = first ? kt_error(first, "%s", why)
		           : kt_error(KT_EBACKEND, "no device is left");
	return rc;
}

/* Ends the job on the ranks that were told about it. */
static void end_job(pool *p)
{
	for (size_t i = 0; i < p->njoined; i++)
		if (kt_mpi_alive(p->joined[i]))
			kt_mpi_send(p->joined[i], KT_MPI_END, NULL);
	p->njoined = 0;
}

static void op_free(kt_backend *kb)
{
	pool *p = (pool *)kb;
	if (!p)
		return;
	end_job(p);
	for (size_t i = 0; i < p->nmem; i++) {
		kt_backend_free(p->mem[i].b);
		kt_free(p->mem[i].ids);
	}
	kt_free(p->mem);
	kt_free(p->joined);
	kt_str_release(&p->msg);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
	kt_free(p);
}

/* ---- opening ------------------------------------------------------------ */

static int add_member(pool *p, kt_backend *b, int rank, int device,
                      unsigned workers)
{
	member *mem = kt_realloc(p->mem, (p->nmem + 1) * sizeof(*mem));
	if (!mem)
		return kt_error(KT_ENOMEM, "out of memory");
	p->mem = mem; /* no thread runs while members are added */
	member *mb = &p->mem[p->nmem++];
	memset(mb, 0, sizeof(*mb));
	mb->p = p;
	mb->b = b;
	mb->rank = rank;
	mb->device = device;
	mb->workers = workers;
	mb->heard = now_s();
	return 0;
}

/* The backend's name for its i-th device, for "all". */
static bool nth_device(char *out, size_t cap, const char *backend, int i)
{
	if (!strcmp(backend, "cuda"))
		snprintf(out, cap, "%d", i);
	else if (!strcmp(backend, "opencl"))
		snprintf(out, cap, "0:%d", i);
	else
		return i == 0 && (snprintf(out, cap, "%s", ""), true);
	return true;
}

static int open_one(pool *p, const kt_pool_options *o, const char *device,
                    int threads)
{
	kt_backend_options bo = o->base;
	bo.device = device && *device ? device : o->base.device;
	if (!bo.compile_threads)
		bo.compile_threads = threads;
	kt_backend *b = NULL;
	int rc = kt_backend_open(&b, o->backend, p->m, &bo);
	if (rc)
		return rc;
	int workers = o->workers_per_device > 0 ? o->workers_per_device : 1;
	for (int w = 0; w < workers && !rc; w++) {
		kt_backend *wb = b;
		if (w > 0 && (rc = kt_backend_open(&wb, o->backend, p->m, &bo)))
			break;
		rc = add_member(p, wb, 0, (int)p->nmem, 1);
		if (rc)
			kt_backend_free(wb);
	}
	return rc;
}

/* The devices of -devices, as a list of names (one empty: the default). */
static int split_devices(char **names, size_t *n, char *list)
{
	*n = 0;
	char *save = NULL;
	for (char *t = strtok_r(list, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		if (*n == MAX_DEVICES)
			return kt_error(KT_EINVALID, "more than %d devices",
			                MAX_DEVICES);
		names[(*n)++] = t;
	}
	if (!*n)
		return kt_error(KT_EINVALID, "an empty device list");
	return 0;
}

static int open_locals(pool *p, const kt_pool_options *o)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int wpd = o->workers_per_device > 0 ? o->workers_per_device : 1;
	if (!o->devices || strcmp(o->devices, "all")) {
		char *copy = kt_strdup(o->devices ? o->devices : "");
		char *names[MAX_DEVICES];
		size_t n = 1;
		names[0] = copy;
		int rc = copy ? 0 : kt_error(KT_ENOMEM, "out of memory");
		if (!rc && o->devices)
			rc = split_devices(names, &n, copy);
		int threads = (int)(cores / (long)(n * (size_t)wpd));
		for (size_t i = 0; !rc && i < n; i++)
			rc =
			    open_one(p, o, names[i], threads > 0 ? threads : 1);
		kt_free(copy);
		return rc;
	}
	/* "all": device 0, 1, ... until the backend has no more */
	char name[32];
	int rc = 0;
	for (int i = 0; !rc && nth_device(name, sizeof(name), o->backend, i);
	     i++) {
		rc = open_one(p, o, name, 0);
		if (rc == KT_ENOTFOUND && i > 0)
			return 0;
	}
	return rc;
}

/* One run tunes for one device model. */
static int check_models(pool *p)
{
	int rc = 0;
	for (size_t i = 0; !rc && i < p->nmem; i++) {
		kt_device_info d;
		if ((rc = p->mem[i].b->ops->device_info(p->mem[i].b, &d)))
			break;
		if (i == 0)
			p->info = d;
		else if (strcmp(d.name, p->info.name))
			rc = kt_error(KT_EINVALID,
			              "the devices are of different models "
			              "(worker 0: '%s', worker %zu: '%s'); a "
			              "run tunes for one model: choose devices "
			              "of one model with --devices",
			              p->info.name, i, d.name);
	}
	return rc;
}

/* Rank 0: tells the other ranks about the job and adds those that can
 * take part. */
static int join_ranks(pool *p, const kt_pool_options *o)
{
	int size = kt_mpi_size();
	kt_str s = KT_STR_INIT;
	int rc = kt_wire_put_u32(&s, o->job);
	p->joined = kt_calloc((size_t)size + 1, sizeof(int));
	if (!rc && !p->joined)
		rc = kt_error(KT_ENOMEM, "out of memory");
	for (int r = 1; !rc && r < size; r++)
		if (kt_mpi_alive(r) && !kt_mpi_send(r, KT_MPI_JOB, &s))
			p->joined[p->njoined++] = r;
	kt_str_release(&s);
	size_t answered = 0;
	double t0 = now_s();
	unsigned char *seen = kt_calloc((size_t)size + 1, 1);
	if (!rc && !seen)
		rc = kt_error(KT_ENOMEM, "out of memory");
	while (!rc && answered < p->njoined &&
	       now_s() - t0 < HELLO_TIMEOUT_S + p->rank_timeout_s) {
		int r = 0, type = 0;
		int got = kt_mpi_poll(&r, &type, &p->msg);
		if (got < 0)
			rc = got;
		if (got <= 0) {
			struct timespec ts = {0, 1000 * 1000};
			nanosleep(&ts, NULL);
			continue;
		}
		if (type != KT_MPI_HELLO || r <= 0 || r >= size || seen[r])
			continue;
		seen[r] = 1;
		answered++;
		kt_wire_reader rd;
		kt_wire_reader_init(&rd, &p->msg);
		int hrc = (int)kt_wire_get_u32(&rd);
		const char *why = kt_wire_get_str(&rd);
		unsigned workers = kt_wire_get_u32(&rd);
		kt_device_info d;
		kt_wire_get(&rd, &d, sizeof(d));
		if (hrc || rd.bad || !workers)
			fprintf(stderr, "ktc: rank %d takes no part: %s\n", r,
			        rd.bad ? "a corrupt answer" : why);
		else if (strcmp(d.name, p->info.name))
			fprintf(stderr,
			        "ktc: rank %d takes no part: its device is "
			        "'%s', not '%s' (a run tunes for one model)\n",
			        r, d.name, p->info.name);
		else
			rc = add_member(p, NULL, r, 0, workers);
	}
	for (size_t i = 0; !rc && i < p->njoined; i++)
		if (!seen[p->joined[i]]) {
			fprintf(stderr,
			        "ktc: rank %d did not answer; it is lost\n",
			        p->joined[i]);
			kt_mpi_mark_lost(p->joined[i]);
		}
	kt_free(seen);
	return rc;
}

int kt_pool_open(kt_backend **out, const kt_model *m,
                 const kt_pool_options *opt)
{
	*out = NULL;
	pool *p = kt_calloc(1, sizeof(*p));
	if (!p)
		return kt_error(KT_ENOMEM, "out of memory");
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	kt_str_init(&p->msg, 0);
	p->m = m;
	p->mpi = opt->mpi && kt_mpi_active() && kt_mpi_rank() == 0;
	p->rank_timeout_s = opt->rank_timeout_s > 0 ? opt->rank_timeout_s
	                                            : DEFAULT_RANK_TIMEOUT_S;
	kt_mpi_set_timeout(p->rank_timeout_s);
	int rc = open_locals(p, opt);
	if (!rc)
		rc = check_models(p);
	if (!rc) {
		p->ops = *p->mem[0].b->ops;
		p->ops.device_info = op_device_info;
		p->ops.set_problem = op_set_problem;
		p->ops.evaluate = op_evaluate;
		p->ops.free = op_free;
		p->base.ops = &p->ops;
		p->base.model = m;
	}
	if (!rc && p->mpi)
		rc = join_ranks(p, opt);
	if (rc) {
		op_free(&p->base);
		return rc;
	}
	*out = &p->base;
	return 0;
}
