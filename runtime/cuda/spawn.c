/*
 * runtime/cuda/spawn.c - the worker process seen from the parent: start it
 * (posix_spawn of this same binary in its hidden worker mode, so the child
 * begins single-threaded with nothing inherited but the socket), open the
 * device, resend the problem after a restart, and the watchdog.
 *
 * The executable is kt_backend_options.worker_exe, else KTC_WORKER_EXE,
 * else the ktc installed with the library: a host program that links
 * libktc is not ktc, so /proc/self/exe is only right for the ktc CLI (which
 * passes it) and for programs that handle the worker mode themselves.
 */
#include "runtime/cuda/backend.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#ifndef KTC_WORKER_DEFAULT
#define KTC_WORKER_DEFAULT "/usr/local/bin/ktc"
#endif

const char *kt_cu_worker_exe(const kt_backend_options *o)
{
	const char *env = getenv("KTC_WORKER_EXE");
	return o && o->worker_exe && *o->worker_exe ? o->worker_exe
	       : env && *env                        ? env
	                                            : KTC_WORKER_DEFAULT;
}

int kt_cu_spawn(pid_t *out_pid, int *out_fd, bool compiler, const char *exe)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
		return kt_error(KT_EBACKEND, "socketpair: %s", strerror(errno));
	char *argv[] = {(char *)exe, "__cuda-worker",
	                compiler ? "--compile" : "3", compiler ? "3" : NULL,
	                NULL};
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, sv[1], 3);
	/* the worker's stdout is the parent's stderr: --json output stays clean
	 */
	posix_spawn_file_actions_adddup2(&fa, 2, 1);
	pid_t pid = 0;
	int err = posix_spawn(&pid, exe, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(sv[1]);
	if (err) {
		close(sv[0]);
		return kt_error(KT_EBACKEND,
		                "cannot start the CUDA worker '%s': %s", exe,
		                strerror(err));
	}
	*out_pid = pid;
	*out_fd = sv[0];
	return 0;
}

int kt_cu_reap(pid_t pid, const char *what, kt_str *why)
{
	int status = 0;
	pid_t r = 0;
	for (int i = 0; i < 200 && (r = waitpid(pid, &status, WNOHANG)) == 0;
	     i++) {
		struct timespec ts = {0, 10 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	bool ours = r == 0;
	if (r == 0) {
		kill(pid, SIGKILL);
		r = waitpid(pid, &status, 0);
	}
	if (why && r == pid) {
		if (WIFSIGNALED(status))
			kt_str_addf(
			    why, "the %s process died of signal %d (%s)", what,
			    WTERMSIG(status), strsignal(WTERMSIG(status)));
		else
			kt_str_addf(why, "the %s process exited with status %d",
			            what, WEXITSTATUS(status));
	}
	return r == pid && !ours && WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

/* How the worker ended, for messages; reaps it. */
static void reap(kt_cu_backend *b, kt_str *why)
{
	b->died_of = kt_cu_reap(b->pid, "worker", why);
	close(b->fd);
	b->fd = -1;
	b->pid = 0;
	b->problem_sent = false;
	b->quit_sent = false;
}

void kt_cu_worker_quit(kt_cu_backend *b)
{
	if (b->pid && !b->quit_sent)
		kt_cu_send(b->fd, KT_CU_QUIT, NULL);
	b->quit_sent = b->pid != 0;
}

void kt_cu_worker_stop(kt_cu_backend *b)
{
	if (!b->pid)
		return;
	kt_cu_worker_quit(b);
	reap(b, NULL);
}

static void kill_worker(kt_cu_backend *b)
{
	kill(b->pid, SIGKILL);
	reap(b, NULL);
	b->died_of = 0; /* the watchdog's SIGKILL, not one from outside */
}

int kt_cu_worker_wait(kt_cu_backend *b, uint32_t *type, char **msg, size_t *len,
                      kt_str *why)
{
	for (;;) {
		int rc = kt_cu_recv(b->fd, type, msg, len, b->timeout_s);
		if (rc == KT_CU_TIMEOUT) {
			kt_str_addf(why,
			            "no answer from the GPU within %g s (a "
			            "kernel that does not finish?)",
			            b->timeout_s);
			kill_worker(b);
			return rc;
		}
		if (rc == KT_CU_EOF) {
			reap(b, why);
			return rc;
		}
		if (rc)
			return rc;
		if (*type != KT_CU_PROGRESS)
			return 0;
		kt_free(*msg);
		*msg = NULL;
	}
}

int kt_cu_read_fail(kt_cu_reader *r)
{
	int code = -(int)kt_cu_get_u32(r);
	const char *msg = kt_cu_get_str(r);
	return kt_error(code < 0 ? code : KT_EBACKEND, "%s", msg);
}

static void read_info(kt_cu_backend *b, kt_cu_reader *r, bool measure)
{
	snprintf(b->info.name, sizeof(b->info.name), "%s", kt_cu_get_str(r));
	snprintf(b->info.driver, sizeof(b->info.driver), "%s",
	         kt_cu_get_str(r));
	b->total_mem = kt_cu_get_u64(r); /* caps each buffer */
	double gbs = kt_cu_get_f64(r);
	if (measure)
		b->info.copy_gbs = gbs;
	for (int i = 0; i < KT_CU_NATTRS; i++)
		b->attrs[i] = (int)(int64_t)kt_cu_get_u64(r);
}

static int open_device(kt_cu_backend *b, bool measure)
{
	kt_str s = KT_STR_INIT;
	int rc = kt_cu_put_str(&s, b->device) |
	         kt_cu_put_u32(&s, b->opt.profile) | kt_cu_put_u32(&s, measure);
	rc = rc ? kt_error(KT_ENOMEM, "out of memory")
	        : kt_cu_send(b->fd, KT_CU_OPEN, &s);
	kt_str_release(&s);
	if (rc)
		return rc;
	uint32_t type = 0;
	char *msg = NULL;
	size_t len = 0;
	kt_str why = KT_STR_INIT;
	rc = kt_cu_worker_wait(b, &type, &msg, &len, &why);
	kt_cu_reader r = {msg, len, 0, false};
	if (rc > 0)
		rc = kt_error(KT_EBACKEND,
		              "the CUDA worker failed to start: %s", why.ptr);
	else if (!rc && type == KT_CU_FAIL)
		rc = kt_cu_read_fail(&r);
	else if (!rc && type != KT_CU_INFO)
		rc = kt_error(KT_EBACKEND, "the CUDA worker answered %u", type);
	else if (!rc)
		read_info(b, &r, measure);
	if (!rc && r.bad)
		rc = kt_error(KT_EBACKEND, "malformed INFO message");
	kt_free(msg);
	kt_str_release(&why);
	return rc;
}

int kt_cu_worker_start(kt_cu_backend *b, bool measure)
{
	int rc = kt_cu_spawn(&b->pid, &b->fd, false, b->exe);
	if (!rc)
		rc = open_device(b, measure);
	if (rc && b->pid)
		kill_worker(b);
	return rc;
}

int kt_cu_worker_ready(kt_cu_backend *b)
{
	int rc = b->pid ? 0 : kt_cu_worker_start(b, false);
	if (rc || b->problem_sent || !b->problem_msg.len)
		return rc;
	rc = kt_cu_send(b->fd, KT_CU_PROBLEM, &b->problem_msg);
	/* the compiler processes start while the worker sets the problem up
	 * (inputs, references): the first batch then finds them running */
	if (!rc)
		kt_cu_compilers_start(b->compilers, b->threads);
	uint32_t type = 0;
	char *msg = NULL;
	size_t len = 0;
	kt_str why = KT_STR_INIT;
	if (!rc)
		rc = kt_cu_worker_wait(b, &type, &msg, &len, &why);
	kt_cu_reader r = {msg, len, 0, false};
	if (rc > 0)
		rc = kt_error(KT_EBACKEND, "setting up the problem: %s",
		              why.ptr);
	else if (!rc && type == KT_CU_FAIL)
		rc = kt_cu_read_fail(&r);
	else if (!rc && type != KT_CU_READY)
		rc = kt_error(KT_EBACKEND, "the CUDA worker answered %u", type);
	kt_free(msg);
	kt_str_release(&why);
	if (rc && b->pid)
		kill_worker(b);
	b->problem_sent = rc == 0;
	return rc;
}
