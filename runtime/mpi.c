/*
 * runtime/mpi.c - MPI for ktc: start-up, the messages of runtime/mpi.h, and
 * the loop of a rank other than 0 (kt_mpi_serve), which evaluates what
 * rank 0 sends it.
 *
 * The design choice a reader needs: rank 0 must outlive any other rank.
 * MPI's default error handler aborts the job on a dead peer, and a blocking
 * receive from a dead peer never returns, so communication errors return
 * (MPI_ERRORS_RETURN), rank 0 only ever polls (MPI_Iprobe) and a serving
 * rank says BEAT every second: a rank silent for longer than the pool's
 * rank timeout is lost, and what it held is handed to others. Whether the
 * job survives a dead rank at all is mpirun's decision (docs/scale.md).
 *
 * Outside mpirun (no Open MPI or PMIx environment) nothing calls MPI: ktc
 * is rank 0 of 1 and starts as fast as without MPI.
 */
#include "runtime/mpi.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef KTC_HAVE_MPI
#include <mpi.h>
#endif

enum { MAX_RANKS = 4096 };

static int rank_, size_ = 1;
static bool active_;
static int nlost;
static bool stopped; /* a serving rank got STOP */
/* how long one message may take once begun (kt_mpi_set_timeout) */
static double timeout_s_ = 30;
static unsigned char lost[MAX_RANKS];

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void nap(void)
{
	struct timespec ts = {0, 1000 * 1000};
	nanosleep(&ts, NULL);
}

/* ---- ranks ------------------------------------------------------------- */

int kt_mpi_rank(void)
{
	return rank_;
}

int kt_mpi_size(void)
{
	return size_;
}

bool kt_mpi_active(void)
{
	return active_;
}

int kt_mpi_lost(void)
{
	return nlost;
}

void kt_mpi_set_timeout(double s)
{
	if (s > 0)
		timeout_s_ = s;
}

bool kt_mpi_alive(int r)
{
	return r > 0 && r < size_ && r < MAX_RANKS && !lost[r];
}

void kt_mpi_mark_lost(int r)
{
	if (kt_mpi_alive(r)) {
		lost[r] = 1;
		nlost++;
	}
}

/* Whether an MPI launcher started this process (Open MPI, PMIx, MPICH). */
static bool under_mpirun(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") ||
	       getenv("PMI_RANK");
}

#ifdef KTC_HAVE_MPI

int kt_mpi_init(int *argc, char ***argv)
{
	if (!under_mpirun())
		return 0;
	int provided = 0;
	if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) !=
	    MPI_SUCCESS)
		return kt_error(KT_EBACKEND, "mpi: MPI_Init_thread failed");
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
	MPI_Comm_size(MPI_COMM_WORLD, &size_);
	active_ = size_ > 1;
	if (size_ > MAX_RANKS)
		return kt_error(KT_EUNSUPPORTED, "mpi: %d ranks; at most %d",
		                size_, MAX_RANKS);
	return 0;
}

/*
 * Waits for a request, for timeout_s at most: a message larger than the
 * eager limit needs its peer to take part, and a peer that died halfway
 * would otherwise hold this rank for ever. 0, or 1 after a timeout (the
 * request cancelled).
 */
static int finish_request(MPI_Request *req, double timeout_s)
{
	double t0 = now_s();
	int done = 0;
	while (MPI_Test(req, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
	       !done) {
		if (now_s() - t0 > timeout_s) {
			MPI_Cancel(req);
			MPI_Request_free(req);
			return 1;
		}
		nap();
	}
	return done ? 0 : 1;
}

int kt_mpi_send(int r, int type, const kt_str *payload)
{
	size_t len = payload ? payload->len : 0;
	if (len > INT32_MAX)
		return kt_error(KT_EINVALID, "mpi: a message of %zu bytes",
		                len);
	MPI_Request req;
	int rc = MPI_Isend(len ? payload->ptr : "", (int)len, MPI_BYTE, r, type,
	                   MPI_COMM_WORLD, &req);
	/* a serving rank waits for rank 0 for ever: rank 0's death ends the
	 * job, and a result given up would leave rank 0 waiting for it */
	if (rc == MPI_SUCCESS &&
	    !finish_request(&req, rank_ == 0 ? timeout_s_ : INFINITY))
		return 0;
	if (rank_ == 0)
		kt_mpi_mark_lost(r);
	return kt_error(KT_EBACKEND, "mpi: cannot send to rank %d", r);
}

int kt_mpi_poll(int *r, int *type, kt_str *payload)
{
	int flag = 0, count = 0;
	MPI_Status st;
	if (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag,
	               &st) != MPI_SUCCESS)
		return kt_error(KT_EBACKEND, "mpi: MPI_Iprobe failed");
	if (!flag)
		return 0;
	MPI_Get_count(&st, MPI_BYTE, &count);
	kt_str_clear(payload);
	int rc = kt_str_grow(payload, (size_t)count + 1);
	if (rc)
		return rc;
	MPI_Request req;
	if (MPI_Irecv(payload->ptr, count, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG,
	              MPI_COMM_WORLD, &req) != MPI_SUCCESS ||
	    finish_request(&req, rank_ == 0 ? timeout_s_ : INFINITY)) {
		/* a rank that died inside a message: lost, not fatal */
		if (rank_ == 0 && st.MPI_SOURCE != 0) {
			kt_mpi_mark_lost(st.MPI_SOURCE);
			return 0;
		}
		return kt_error(KT_EBACKEND, "mpi: cannot receive from rank %d",
		                st.MPI_SOURCE);
	}
	payload->len = (size_t)count;
	payload->ptr[count] = '\0';
	*r = st.MPI_SOURCE;
	*type = st.MPI_TAG;
	return 1;
}

int kt_mpi_finish(int status)
{
	if (!active_) {
		if (under_mpirun())
			MPI_Finalize();
		return status;
	}
	if (rank_ == 0)
		for (int r = 1; r < size_; r++)
			if (kt_mpi_alive(r))
				kt_mpi_send(r, KT_MPI_STOP, NULL);
	if (rank_ == 0 && nlost) {
		fflush(NULL);
		MPI_Abort(MPI_COMM_WORLD, status ? status : 1);
	}
	MPI_Finalize();
	return status;
}

#else /* no MPI in this build: rank 0 of 1, and mpirun is refused */

int kt_mpi_init(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *n = getenv("OMPI_COMM_WORLD_SIZE");
	if (under_mpirun() && !(n && !strcmp(n, "1")))
		return kt_error(KT_EUNSUPPORTED,
		                "this ktc was built without MPI; it cannot "
		                "run under mpirun");
	return 0;
}

int kt_mpi_send(int r, int type, const kt_str *payload)
{
	(void)r;
	(void)type;
	(void)payload;
	return kt_error(KT_EUNSUPPORTED, "this ktc was built without MPI");
}

int kt_mpi_poll(int *r, int *type, kt_str *payload)
{
	(void)r;
	(void)type;
	(void)payload;
	return 0;
}

int kt_mpi_finish(int status)
{
	return status;
}

#endif

/* ---- a rank other than 0 ----------------------------------------------- */

int kt_mpi_next_job(unsigned *job)
{
	kt_str msg = KT_STR_INIT;
	int r = 0, type = 0, rc = stopped ? -1 : 0;
	while (!rc) {
		rc = kt_mpi_poll(&r, &type, &msg);
		if (rc == 0) {
			nap();
			continue;
		}
		if (rc < 0)
			break;
		rc = 0;
		if (r != 0)
			continue;
		if (type == KT_MPI_STOP) {
			rc = -1;
			break;
		}
		if (type == KT_MPI_JOB && msg.len >= sizeof(uint32_t)) {
			uint32_t j;
			memcpy(&j, msg.ptr, sizeof(j));
			*job = j;
			break;
		}
	}
	kt_str_release(&msg);
	return rc < 0 ? -1 : 0;
}

/* What the evaluation thread of a serving rank is doing. */
typedef struct serve_work {
	kt_backend *b;
	int type; /* KT_MPI_PROBLEM or KT_MPI_EVAL */
	kt_str in, out;
	pthread_t thread;
	volatile int done; /* set by the thread, read by the main thread */
	bool running;
} serve_work;

static int serve_problem(serve_work *w)
{
	const kt_model *m = w->b->model;
	kt_value *problem = kt_calloc(m->nproblems + 1, sizeof(kt_value));
	kt_wire_reader rd;
	kt_wire_reader_init(&rd, &w->in);
	if (!problem)
		return kt_error(KT_ENOMEM, "out of memory");
	kt_wire_get(&rd, problem, m->nproblems * sizeof(kt_value));
	int rc = rd.bad ? kt_error(KT_EIO, "mpi: a corrupt problem")
	                : w->b->ops->set_problem(w->b, problem);
	kt_free(problem);
	return rc;
}

/* The requests of an EVAL message, in arrays freed together. */
typedef struct eval_in {
	kt_eval_request *reqs;
	uint32_t *idx;
	kt_value *slots;
	kt_result *res;
	size_t n;
} eval_in;

static int read_eval(eval_in *e, const kt_model *m, const kt_str *in)
{
	kt_wire_reader rd;
	kt_wire_reader_init(&rd, in);
	e->n = kt_wire_get_u32(&rd);
	size_t np = m->nparams, ns = m->nsymbols;
	if (rd.bad || e->n > in->len)
		return kt_error(KT_EIO, "mpi: a corrupt request");
	e->reqs = kt_calloc(e->n + 1, sizeof(*e->reqs));
	e->idx = kt_calloc(e->n * np + 1, sizeof(uint32_t));
	e->slots = kt_calloc(e->n * ns + 1, sizeof(kt_value));
	e->res = kt_calloc(e->n + 1, sizeof(kt_result));
	if (!e->reqs || !e->idx || !e->slots || !e->res)
		return kt_error(KT_ENOMEM, "out of memory");
	for (size_t i = 0; i < e->n; i++) {
		kt_result_init(&e->res[i]);
		kt_wire_get(&rd, &e->idx[i * np], np * sizeof(uint32_t));
		kt_wire_get(&rd, &e->slots[i * ns], ns * sizeof(kt_value));
		e->reqs[i].param_idx = &e->idx[i * np];
		e->reqs[i].slots = &e->slots[i * ns];
		e->reqs[i].key = kt_wire_get_str(&rd);
	}
	return rd.bad ? kt_error(KT_EIO, "mpi: a corrupt request") : 0;
}

static int serve_eval(serve_work *w)
{
	eval_in e = {0};
	int rc = read_eval(&e, w->b->model, &w->in);
	if (!rc)
		rc = w->b->ops->evaluate(w->b, e.reqs, e.n, e.res);
	/* the answer: rc, why, n, the results */
	int prc = kt_wire_put_u32(&w->out, (uint32_t)rc);
	if (!prc)
		prc = kt_wire_put_str(&w->out, rc ? kt_error_last() : "");
	if (!prc)
		prc = kt_wire_put_u32(&w->out, rc ? 0 : (uint32_t)e.n);
	for (size_t i = 0; !prc && !rc && i < e.n; i++)
		prc = kt_wire_put_result(&w->out, &e.res[i]);
	for (size_t i = 0; e.res && i < e.n; i++)
		kt_result_release(&e.res[i]);
	kt_free(e.reqs);
	kt_free(e.idx);
	kt_free(e.slots);
	kt_free(e.res);
	return prc;
}

static void *serve_thread(void *arg)
{
	serve_work *w = arg;
	if (w->type == KT_MPI_PROBLEM) {
		int rc = serve_problem(w);
		kt_wire_put_u32(&w->out, (uint32_t)rc);
		kt_wire_put_str(&w->out, rc ? kt_error_last() : "");
	} else if (serve_eval(w)) {
		kt_str_clear(&w->out); /* out of memory: an answer saying so */
		kt_wire_put_u32(&w->out, (uint32_t)KT_ENOMEM);
		kt_wire_put_str(&w->out, "out of memory");
		kt_wire_put_u32(&w->out, 0);
	}
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static int work_start(serve_work *w, int type)
{
	kt_str_clear(&w->out);
	w->type = type;
	w->done = 0;
	if (pthread_create(&w->thread, NULL, serve_thread, w))
		return kt_error(KT_EBACKEND, "mpi: cannot start a thread");
	w->running = true;
	return 0;
}

/* Sends the answer of finished work. */
static int work_finish(serve_work *w)
{
	if (!w->running || !__atomic_load_n(&w->done, __ATOMIC_ACQUIRE))
		return 0;
	pthread_join(w->thread, NULL);
	w->running = false;
	return kt_mpi_send(
	    0, w->type == KT_MPI_PROBLEM ? KT_MPI_READY : KT_MPI_RESULTS,
	    &w->out);
}

static int say_hello(kt_backend *b, const char *why)
{
	kt_device_info info;
	memset(&info, 0, sizeof(info));
	int rc = b ? b->ops->device_info(b, &info) : KT_EBACKEND;
	kt_str s = KT_STR_INIT;
	int prc = kt_wire_put_u32(&s, (uint32_t)rc);
	if (!prc)
		prc = kt_wire_put_str(&s,
		                      rc ? (why ? why : kt_error_last()) : "");
	if (!prc)
		prc = kt_wire_put_u32(&s, b ? (uint32_t)kt_pool_members(b) : 0);
	if (!prc)
		prc = kt_wire_put(&s, &info, sizeof(info));
	if (!prc)
		prc = kt_mpi_send(0, KT_MPI_HELLO, &s);
	kt_str_release(&s);
	return prc;
}

int kt_mpi_serve(kt_backend *b, const char *why)
{
	serve_work w = {.b = b};
	kt_str msg = KT_STR_INIT;
	int rc = say_hello(b, why), r = 0, type = 0;
	double beat = now_s();
	while (!rc) {
		if ((rc = work_finish(&w)))
			break;
		if (now_s() - beat >= KT_MPI_BEAT_S) {
			beat = now_s();
			if ((rc = kt_mpi_send(0, KT_MPI_BEAT, NULL)))
				break;
		}
		int got = kt_mpi_poll(&r, &type, &msg);
		if (got < 0) {
			rc = got;
			break;
		}
		if (!got || r != 0) {
			nap();
			continue;
		}
		if (type == KT_MPI_STOP)
			stopped = true;
		if (type == KT_MPI_END || type == KT_MPI_STOP)
			break;
		if ((type == KT_MPI_PROBLEM || type == KT_MPI_EVAL) && b &&
		    !w.running) {
			kt_str_clear(&w.in);
			if (!(rc = kt_str_add(&w.in, msg.ptr, msg.len)))
				rc = work_start(&w, type);
		}
	}
	if (w.running)
		pthread_join(w.thread, NULL);
	kt_str_release(&w.in);
	kt_str_release(&w.out);
	kt_str_release(&msg);
	return rc;
}
