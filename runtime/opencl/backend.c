/*
 * backend.c - the OpenCL backend as the tuner sees it (kt_backend_ops), and
 * the parent's side of the worker process: fork, watchdog, restart.
 *
 * The watchdog is a silence limit: while a configuration runs, the worker
 * reports every finished launch, so a configuration times out when one
 * launch takes longer than timeout_s (default 10 s; its first launch, which
 * PoCL spends compiling, gets OCL_JIT_MIN_S or more on top); while a batch
 * builds, OCL_BUILD_TIMEOUT_S. When the worker dies or falls silent, the
 * configuration it had announced (BEGIN) is charged with `runtime` or
 * `timeout`, and the rest of the batch goes to a fresh worker. A death
 * during the parallel build phase has no single culprit: the batch is then
 * sent again one configuration at a time. A worker killed from outside
 * (SIGKILL it did not get from the watchdog, SIGTERM: a user, the OOM
 * killer) charges nobody: what it had not finished is sent again, and a
 * worker that keeps being killed without finishing anything stops the run.
 */
#include "runtime/opencl/ocl.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runtime/backend_impl.h"

#define START_TIMEOUT_S 60.0 /* until the worker has opened the device */

typedef struct ocl_backend {
	kt_backend base;
	kt_backend_options opt;
	char *device; /* owned copy of opt.device */
	double timeout_s;
	int threads; /* build threads */
	pid_t pid;   /* 0: no worker */
	int fd;
	kt_device_info info;
	kt_value *devvals; /* m->ndevices */
	kt_value *problem; /* m->nproblems */
	bool have_problem; /* set_problem was called */
	kt_str msg;        /* the last message received */
	char why[160];     /* how the last worker ended */
	bool outside;      /* ... killed from outside: retried, not charged */
} ocl_backend;

/*
 * Ends the worker and says how it ended. A worker whose socket closed
 * (died) gets two seconds to finish dying before it is killed, so a signal
 * it died of is told apart from the watchdog's SIGKILL.
 */
static void worker_end(ocl_backend *b, bool died)
{
	int st = 0;
	pid_t r = 0;
	if (!b->pid)
		return;
	for (int i = 0; died && i < 200; i++) {
		while ((r = waitpid(b->pid, &st, WNOHANG)) < 0 &&
		       errno == EINTR)
			;
		if (r)
			break;
		struct timespec ts = {0, 10 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	if (r != b->pid) {
		kill(b->pid, SIGKILL);
		while (waitpid(b->pid, &st, 0) < 0 && errno == EINTR)
			;
		if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
			st = 0; /* ours */
	}
	b->outside = r == b->pid && WIFSIGNALED(st) &&
	             kt_backend_killed_from_outside(WTERMSIG(st));
	if (WIFSIGNALED(st))
		snprintf(b->why, sizeof(b->why), "killed by signal %d (%s)%s",
		         WTERMSIG(st), strsignal(WTERMSIG(st)),
		         b->outside ? " from outside" : "");
	else if (WIFEXITED(st) && r == b->pid)
		snprintf(b->why, sizeof(b->why), "exited with status %d",
		         WEXITSTATUS(st));
	else
		snprintf(b->why, sizeof(b->why), "stopped by the watchdog");
	close(b->fd);
	b->pid = 0;
	b->fd = -1;
}

static void worker_stop(ocl_backend *b)
{
	worker_end(b, false);
}

/* The error a FAIL message carries. */
static int worker_failed(ocl_backend *b)
{
	kt_wire_reader rd;
	kt_wire_reader_init(&rd, &b->msg);
	int code = -(int)kt_wire_get_u32(&rd);
	char *text = kt_wire_get_strdup(&rd);
	if (code >= 0 || code < KT_EINTERRUPTED)
		code = KT_EBACKEND;
	code = kt_error(code, "%s", text ? text : "opencl: worker failed");
	kt_free(text);
	return code;
}

/* Waits for `want`; FAIL, death and silence become errors. */
static int await(ocl_backend *b, uint32_t want, double timeout_s,
                 const char *doing)
{
	uint32_t type = 0;
	int rc;
	do /* progress messages only restart the clock */
		rc = ocl_recv(b->fd, &type, &b->msg, (int)(timeout_s * 1000));
	while (!rc && (type == OCL_MSG_BEAT || type == OCL_MSG_BUILT));
	if (!rc && type == want)
		return 0;
	if (!rc && type == OCL_MSG_FAIL)
		return worker_failed(b);
	worker_end(b, rc != 1);
	return kt_error(KT_EBACKEND, "opencl: the worker %s while %s",
	                rc == 1 ? "fell silent" : b->why, doing);
}

static int send_problem(ocl_backend *b)
{
	const kt_model *m = b->base.model;
	int rc = ocl_send(b->fd, OCL_MSG_PROBLEM, b->problem,
	                  m->nproblems * sizeof(kt_value));
	if (rc) {
		worker_stop(b);
		return kt_error(KT_EBACKEND, "opencl: the worker %s", b->why);
	}
	return await(b, OCL_MSG_READY, OCL_BUILD_TIMEOUT_S + b->timeout_s,
	             "running the default configuration");
}

static void child(ocl_backend *b, int fd)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL); /* a killed tuner takes it along */
	signal(SIGINT, SIG_IGN);          /* Ctrl-C is the parent's to handle */
	signal(SIGTERM, SIG_DFL);
	/* a faulting kernel ends the worker with its own signal, not with
	 * whatever handler the host process (or a sanitizer) installed */
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	signal(SIGFPE, SIG_DFL);
	signal(SIGILL, SIG_DFL);
	/* compiler chatter and kernel printf stay out of the tuner's output;
	 * what matters reaches the parent as messages */
	int null = open("/dev/null", O_WRONLY);
	if (null >= 0 && !getenv("KTC_OPENCL_VERBOSE"))
		dup2(null, STDERR_FILENO);
	dup2(null >= 0 ? null : STDERR_FILENO, STDOUT_FILENO);
	_exit(ocl_worker_main(b->base.model, &b->opt, fd, b->info.copy_gbs));
}

static int worker_start_once(ocl_backend *b)
{
	b->outside = false;
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return kt_error(KT_EBACKEND, "opencl: socketpair: %s",
		                strerror(errno));
	fflush(NULL); /* the child must not write the parent's buffers twice */
	pid_t pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return kt_error(KT_EBACKEND, "opencl: fork: %s",
		                strerror(errno));
	}
	if (pid == 0) {
		close(sv[0]);
		child(b, sv[1]);
	}
	close(sv[1]);
	b->pid = pid;
	b->fd = sv[0];
	int rc = await(b, OCL_MSG_HELLO, START_TIMEOUT_S, "opening the device");
	if (rc) {
		worker_stop(b);
		return rc;
	}
	memcpy(&b->info, b->msg.ptr,
	       b->msg.len < sizeof(b->info) ? b->msg.len : sizeof(b->info));
	ocl_device_values(b->devvals, b->base.model, &b->info);
	return b->have_problem ? send_problem(b) : 0;
}

/* A worker killed from outside while it started is started again. */
static int worker_start(ocl_backend *b)
{
	int rc = worker_start_once(b);
	for (int i = 0; rc && b->outside && i < 2; i++)
		rc = worker_start_once(b);
	return rc;
}

static int op_device_info(kt_backend *kb, kt_device_info *out)
{
	*out = ((ocl_backend *)kb)->info;
	return 0;
}

static int op_set_problem(kt_backend *kb, const kt_value *problem)
{
	ocl_backend *b = (ocl_backend *)kb;
	const kt_model *m = kb->model;
	for (size_t i = 0; i < m->nproblems; i++)
		b->problem[i] = kt_model_problem_value(m, problem, i);
	b->have_problem = true;
	if (!b->pid)
		return worker_start(b);
	return send_problem(b);
}

/* One batch sent to a worker and what has come back of it. */
typedef struct batch_run {
	const kt_eval_request *reqs;
	kt_result *results;
	bool *done;
	const uint32_t *ids;
	size_t n;
	int64_t current; /* the configuration in its run phase, or -1 */
	double extra;    /* more time for the launch that may compile */
	bool building;   /* no configuration has reached its run phase */
	size_t finished; /* results that came back or were charged */
} batch_run;

/* u32 n, u32 threads, then per configuration: u32 id, slots, key. */
static int send_batch(ocl_backend *b, const batch_run *rd, int threads)
{
	const kt_model *m = b->base.model;
	kt_value *bound = kt_calloc(m->nsymbols + 1, sizeof(kt_value));
	kt_str s = KT_STR_INIT;
	int rc = bound ? 0 : kt_error(KT_ENOMEM, "out of memory");
	if (!rc)
		rc = kt_wire_put_u32(&s, (uint32_t)rd->n);
	if (!rc)
		rc = kt_wire_put_u32(&s, (uint32_t)threads);
	for (size_t i = 0; i < rd->n && !rc; i++) {
		const kt_eval_request *q = &rd->reqs[rd->ids[i]];
		const kt_value *slots = q->slots;
		if (!slots) {
			rc = kt_model_bind(bound, m, q->param_idx, b->problem,
			                   b->devvals);
			slots = bound;
		}
		if (!rc)
			rc = kt_wire_put_u32(&s, rd->ids[i]);
		if (!rc)
			rc = kt_str_add(&s, slots,
			                m->nsymbols * sizeof(kt_value));
		if (!rc)
			rc = kt_wire_put_str(&s, q->key);
	}
	if (!rc && ocl_send(b->fd, OCL_MSG_BATCH, s.ptr, s.len))
		rc = 1; /* the worker is gone: its death is read next */
	kt_str_release(&s);
	kt_free(bound);
	return rc;
}

static void charge(batch_run *rd, uint32_t id, kt_status st, const char *msg)
{
	kt_result *r = &rd->results[id];
	kt_free(r->message);
	r->status = st;
	r->message = kt_strdup(msg);
	r->timestamp = ocl_wall_clock();
	rd->done[id] = true;
	rd->finished++;
}

/*
 * The worker died, or fell silent for `silent` seconds (0: it died): charge
 * who caused it, if anyone.
 */
static void lost(ocl_backend *b, batch_run *rd, double silent)
{
	char msg[256];
	worker_end(b, silent == 0);
	if (!silent && b->outside)
		return; /* nobody's fault: what it ran is sent again */
	if (rd->current >= 0) {
		if (silent)
			snprintf(msg, sizeof(msg),
			         "timeout: a launch took longer than %g s",
			         silent);
		else
			snprintf(msg, sizeof(msg),
			         "the worker running it was %s", b->why);
		charge(rd, (uint32_t)rd->current,
		       silent > 0 ? KT_STATUS_TIMEOUT : KT_STATUS_RUNTIME, msg);
	} else if (rd->building && rd->n == 1) {
		if (silent)
			snprintf(msg, sizeof(msg),
			         "timeout: the build took longer than %g s",
			         silent);
		else
			snprintf(msg, sizeof(msg), "the OpenCL compiler was %s",
			         b->why);
		charge(rd, rd->ids[0],
		       silent > 0 ? KT_STATUS_TIMEOUT : KT_STATUS_COMPILE, msg);
	}
}

static int take_result(batch_run *rd, const kt_str *msg)
{
	kt_wire_reader r;
	uint32_t id;
	kt_result tmp;
	kt_result_init(&tmp);
	kt_wire_reader_init(&r, msg);
	id = kt_wire_get_u32(&r);
	int rc = kt_wire_get_result(&r, &tmp);
	bool known = false;
	for (size_t i = 0; i < rd->n; i++)
		known |= rd->ids[i] == id;
	if (!rc && (!known || rd->done[id]))
		rc = kt_error(KT_EIO, "opencl: unexpected result from worker");
	if (rc) {
		kt_result_release(&tmp);
		return rc;
	}
	kt_result_release(&rd->results[id]);
	rd->results[id] = tmp;
	rd->done[id] = true;
	rd->finished++;
	rd->current = -1;
	rd->building = false;
	return 0;
}

/* 0: the batch is done; 1: the worker was lost; negative: an error. */
static int run_round(ocl_backend *b, batch_run *rd)
{
	for (;;) {
		uint32_t type = 0, id = 0;
		double limit = rd->building ? OCL_BUILD_TIMEOUT_S
		                            : b->timeout_s + rd->extra;
		int rc = ocl_recv(b->fd, &type, &b->msg, (int)(limit * 1000));
		if (rc == 1 || rc == KT_EIO) {
			lost(b, rd, rc == 1 ? limit : 0);
			return 1;
		}
		if (rc)
			return rc;
		switch (type) {
		case OCL_MSG_BUILT: break;
		case OCL_MSG_BEAT: rd->extra = 0; break;
		case OCL_MSG_FIRST:
			if (b->msg.len == sizeof(double))
				memcpy(&rd->extra, b->msg.ptr, sizeof(double));
			break;
		case OCL_MSG_BEGIN:
			memcpy(&id, b->msg.ptr, b->msg.len >= 4 ? 4 : 0);
			rd->current = id;
			rd->building = false;
			break;
		case OCL_MSG_RESULT:
			if ((rc = take_result(rd, &b->msg)))
				return rc;
			break;
		case OCL_MSG_DONE: return 0;
		case OCL_MSG_FAIL: return worker_failed(b);
		default:
			return kt_error(KT_EIO, "opencl: unexpected message %u",
			                type);
		}
	}
}

/* Configurations not done yet: all of them, or the first when serial. */
static size_t pending(const bool *done, size_t n, bool serial, uint32_t *ids)
{
	size_t k = 0;
	for (size_t i = 0; i < n && !(serial && k); i++)
		if (!done[i])
			ids[k++] = (uint32_t)i;
	return k;
}

/*
 * Sends what is not done until all is: a lost worker is replaced, a build
 * phase that killed it is retried one configuration at a time, and a
 * worker that keeps dying without finishing anything stops the run.
 */
static int evaluate_all(ocl_backend *b, batch_run *rd, uint32_t *ids, size_t n)
{
	bool serial = false;
	int stalls = 0;
	size_t k;
	while ((k = pending(rd->done, n, serial, ids))) {
		int rc = b->pid ? 0 : worker_start(b);
		if (rc)
			return rc;
		rd->ids = ids;
		rd->n = k;
		rd->current = -1;
		rd->extra = 0;
		rd->building = true;
		rd->finished = 0;
		rc = send_batch(b, rd, serial ? 1 : b->threads);
		if (rc == 0)
			rc = run_round(b, rd);
		else if (rc == 1)
			lost(b, rd, 0);
		if (rc < 0) { /* the conversation is lost: start afresh later */
			worker_stop(b);
			return rc;
		}
		if (rc == 0 || rd->finished) {
			stalls = 0;
		} else if (rd->building && !serial) {
			serial = true;
		} else if (++stalls > 2) {
			return kt_error(KT_EBACKEND,
			                "opencl: the worker keeps failing (%s)",
			                b->why);
		}
	}
	return 0;
}

static int op_evaluate(kt_backend *kb, const kt_eval_request *reqs, size_t n,
                       kt_result *results)
{
	ocl_backend *b = (ocl_backend *)kb;
	batch_run rd = {.reqs = reqs, .results = results};
	uint32_t *ids = kt_calloc(n + 1, sizeof(uint32_t));
	rd.done = kt_calloc(n + 1, sizeof(bool));
	int rc = 0;
	for (size_t i = 0; i < n; i++)
		kt_result_init(&results[i]);
	if (!ids || !rd.done)
		rc = kt_error(KT_ENOMEM, "out of memory");
	else if (!b->have_problem)
		rc = op_set_problem(kb, NULL);
	if (!rc)
		rc = evaluate_all(b, &rd, ids, n);
	kt_free(ids);
	kt_free(rd.done);
	return rc;
}

static void op_free(kt_backend *kb)
{
	ocl_backend *b = (ocl_backend *)kb;
	if (!b)
		return;
	worker_stop(b);
	kt_str_release(&b->msg);
	kt_free(b->device);
	kt_free(b->devvals);
	kt_free(b->problem);
	kt_free(b);
}

static const kt_backend_ops ocl_ops = {
    .name = "opencl",
    .device_info = op_device_info,
    .set_problem = op_set_problem,
    .evaluate = op_evaluate,
    .free = op_free,
};

/* What the OpenCL backend cannot run, said before any work starts. */
static int check_model(const kt_model *m)
{
	if (!m->launch.present)
		return kt_error(KT_EINVALID,
		                "%s: kernel '%s' has no '#pragma kt launch'",
		                m->file, m->kernel);
	if (m->launch.smem)
		return kt_error(
		    KT_EUNSUPPORTED,
		    "%s:%d: launch smem() has no meaning in OpenCL: "
		    "declare __local arrays sized by parameters",
		    m->file, m->launch.loc.line);
	if (m->launch.pdl)
		return kt_error(KT_EUNSUPPORTED,
		                "%s:%d: launch pdl() is a CUDA launch "
		                "attribute; OpenCL has none",
		                m->file, m->launch.loc.line);
	return 0;
}

int kt_backend_opencl_open(kt_backend **out, const kt_model *m,
                           const kt_backend_options *opt)
{
	static const kt_backend_options none;
	*out = NULL;
	int rc = check_model(m);
	if (rc)
		return rc;
	ocl_backend *b = kt_calloc(1, sizeof(*b));
	if (!b)
		return kt_error(KT_ENOMEM, "out of memory");
	b->base.ops = &ocl_ops;
	b->base.model = m;
	b->opt = opt ? *opt : none;
	b->device = opt && opt->device ? kt_strdup(opt->device) : NULL;
	b->opt.device = b->device;
	b->timeout_s =
	    b->opt.timeout_s > 0 ? b->opt.timeout_s : OCL_DEFAULT_TIMEOUT_S;
	b->threads = b->opt.compile_threads > 0
	                 ? b->opt.compile_threads
	                 : (int)sysconf(_SC_NPROCESSORS_ONLN);
	b->fd = -1;
	kt_str_init(&b->msg, 0);
	b->devvals = kt_calloc(m->ndevices + 1, sizeof(kt_value));
	b->problem = kt_calloc(m->nproblems + 1, sizeof(kt_value));
	rc = b->devvals && b->problem ? worker_start(b)
	                              : kt_error(KT_ENOMEM, "out of memory");
	if (rc) {
		op_free(&b->base);
		return rc;
	}
	*out = &b->base;
	return 0;
}
