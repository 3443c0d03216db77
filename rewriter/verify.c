/*
 * verify.c - compiles a source text with nvcc (a child process writing PTX)
 * and with NVRTC (in process, many configurations on parallel threads), so
 * the rewriter can prove an annotated file before it keeps it.
 *
 * Design choice: every compile works on a text in memory, written to a
 * fresh temporary folder under the file's own name, with the original
 * file's folder on the include path. The original and the annotated file
 * are therefore compiled the same way, and nothing is ever written next to
 * the user's file. nvcc runs as a child process started with posix_spawn
 * (no shell), so two nvcc compiles and the NVRTC threads overlap. NVRTC
 * itself is driven by the CUDA backend's driver (runtime/cuda/nvrtc.h),
 * the one place its options, status and log are handled.
 */
#include "rewriter/rewriter.h"

#include "ktc/common.h"
#include "util/cuda.h"
#include "util/fs.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef KTC_HAVE_CUDA
#include "runtime/cuda/nvrtc.h"
#endif

/* Compiler logs are kept, but never without bound. */
#define LOG_MAX (1u << 20)

const char *kt_verify_cuda_root(const kt_verify_opts *o)
{
	if (o && o->cuda_root)
		return o->cuda_root;
	return kt_cuda_root();
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

static int make_tmpdir(char *dir, size_t cap)
{
	const char *t = getenv("TMPDIR");
	snprintf(dir, cap, "%s/ktc-verify-XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(dir))
		return kt_error(KT_EIO, "cannot create a temporary folder: %s",
		                strerror(errno));
	return 0;
}

static void remove_tmp(kt_nvcc_job *j)
{
	char path[4200];
	const char *names[] = {j->src_name, "out.ptx", "log.txt"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", j->dir, names[i]);
		unlink(path);
	}
	rmdir(j->dir);
}

/* argv of `nvcc -ptx -arch=ARCH -I<dir> FLAGS -DDEFS -o out.ptx -x cu SRC`. */
static int nvcc_argv(const char **argv, size_t cap, char *nvcc, char *arch,
                     char *incl, const kt_verify_opts *o,
                     const char *const *defs, size_t ndefs,
                     const kt_nvcc_job *j)
{
	size_t n = 0;
	if (o->nflags + ndefs + 10 > cap)
		return kt_error(KT_EINVALID, "too many compiler flags");
	snprintf(nvcc, 4096, "%s/bin/nvcc", kt_verify_cuda_root(o));
	snprintf(arch, 64, "-arch=%s",
	         o->arch ? o->arch : KT_CUDA_DEFAULT_ARCH);
	snprintf(incl, 4200, "-I%s", o->dir ? o->dir : ".");
	argv[n++] = nvcc;
	argv[n++] = "-ptx";
	argv[n++] = arch;
	argv[n++] = incl;
	for (size_t i = 0; i < o->nflags; i++)
		argv[n++] = o->flags[i];
	for (size_t i = 0; i < ndefs; i++)
		argv[n++] = defs[i];
	argv[n++] = "-o";
	argv[n++] = "out.ptx";
	argv[n++] = "-x"; /* a header (.cuh, .h) is CUDA too: nvcc goes by */
	argv[n++] = "cu"; /* the extension and refuses one it does not know */
	argv[n++] = j->src_name;
	argv[n] = NULL;
	return 0;
}

/*
 * Starts argv in dir with stdout and stderr to dir/log.txt. fork + exec
 * rather than posix_spawn: only the child may change folder, and the
 * parent has NVRTC threads running. The child calls only async-signal-safe
 * functions.
 */
static int spawn_in(pid_t *pid, const char *dir, const char **argv)
{
	char log[4200];
	snprintf(log, sizeof(log), "%s/log.txt", dir);
	pid_t p = fork();
	if (p < 0)
		return kt_error(KT_EIO, "cannot start '%s': %s", argv[0],
		                strerror(errno));
	if (p == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || chdir(dir) != 0 || dup2(fd, 1) < 0 ||
		    dup2(fd, 2) < 0)
			_exit(126);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	*pid = p;
	return 0;
}

int kt_nvcc_start(kt_nvcc_job *j, const kt_verify_opts *o, const char *text,
                  size_t len, const char *name, const char *const *defs,
                  size_t ndefs)
{
	memset(j, 0, sizeof(*j));
	kt_str_init(&j->ptx, 0);
	kt_str_init(&j->log, LOG_MAX);
	snprintf(j->src_name, sizeof(j->src_name), "%s", base_name(name));
	int rc = make_tmpdir(j->dir, sizeof(j->dir));
	if (rc)
		return rc;
	j->have_dir = 1;
	char path[4400];
	snprintf(path, sizeof(path), "%s/%s", j->dir, j->src_name);
	rc = kt_fs_write_atomic(path, text, len);
	const char *argv[512];
	char nvcc[4096], arch[64], incl[4200];
	if (!rc)
		rc = nvcc_argv(argv, 512, nvcc, arch, incl, o, defs, ndefs, j);
	if (!rc)
		rc = spawn_in(&j->pid, j->dir, argv);
	if (!rc)
		j->running = 1;
	snprintf(j->nvcc, sizeof(j->nvcc), "%s", nvcc);
	return rc;
}

static int read_into(kt_str *s, const char *dir, const char *file)
{
	char path[4400], *text = NULL;
	size_t len = 0;
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	int rc = kt_fs_read(&text, &len, path);
	if (!rc) {
		/* a log past its maximum is cut, not an error */
		size_t room = s->max ? s->max - s->len - 1 : len;
		rc = kt_str_add(s, text, len < room ? len : room);
	}
	kt_free(text);
	return rc;
}

int kt_nvcc_finish(kt_nvcc_job *j)
{
	int status = 0, rc = 0;
	if (!j->running)
		return kt_error(KT_EINVALID, "nvcc was not started");
	while (waitpid(j->pid, &status, 0) < 0)
		if (errno != EINTR)
			return kt_error(KT_EIO, "cannot wait for nvcc: %s",
			                strerror(errno));
	j->running = 0;
	read_into(&j->log, j->dir, "log.txt");
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return kt_error(KT_EUNSUPPORTED, "cannot run '%s'", j->nvcc);
	j->ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	if (j->ok)
		rc = read_into(&j->ptx, j->dir, "out.ptx");
	return rc;
}

void kt_nvcc_job_release(kt_nvcc_job *j)
{
	if (j->running) {
		int status;
		waitpid(j->pid, &status, 0);
		j->running = 0;
	}
	if (j->have_dir)
		remove_tmp(j);
	j->have_dir = 0;
	kt_str_release(&j->ptx);
	kt_str_release(&j->log);
}

int kt_nvcc_ptx(kt_nvcc_job *j, const kt_verify_opts *o, const char *text,
                size_t len, const char *name, const char *const *defs,
                size_t ndefs)
{
	int rc = kt_nvcc_start(j, o, text, len, name, defs, ndefs);
	return rc ? rc : kt_nvcc_finish(j);
}

/* ---- NVRTC ---- */

#ifdef KTC_HAVE_CUDA

/* nvcc's flags that mean the same to NVRTC: includes, macros, standard,
 * fast math (NVRTC 13 refuses --expt-relaxed-constexpr and
 * --extended-lambda as options it does not know). */
static int nvrtc_takes(const char *f)
{
	return !strncmp(f, "-I", 2) || !strncmp(f, "-D", 2) ||
	       !strncmp(f, "-U", 2) || !strncmp(f, "-std=", 5) ||
	       !strncmp(f, "--std=", 6) || !strcmp(f, "--use_fast_math");
}

typedef struct pool {
	const char *text, *name;
	kt_nvrtc_job *jobs;
	size_t n, next;
	pthread_mutex_t lock;
	char **common; /* the options every job shares */
	size_t ncommon;
} pool;

/* One job through the NVRTC driver; a failure to run is the job's log. */
static void nvrtc_one(pool *p, kt_nvrtc_job *j)
{
	const char **opts =
	    kt_calloc(p->ncommon + j->ndefines + 1, sizeof(*opts));
	size_t n = 0;
	kt_cu_nvrtc r = {0};
	if (!opts) {
		kt_str_adds(&j->log, "out of memory");
		return;
	}
	for (size_t i = 0; i < p->ncommon; i++)
		opts[n++] = p->common[i];
	for (size_t i = 0; i < j->ndefines; i++)
		opts[n++] = j->defines[i];
	if (j->quick)
		opts[n++] = "-G";
	else if (j->syntax)
		opts[n++] = "-fdevice-syntax-only";
	if (kt_cu_nvrtc_compile(&r, j->text ? j->text : p->text, p->name, opts,
	                        n, NULL, false))
		kt_str_adds(&j->log, kt_error_last());
	else
		kt_str_adds(&j->log, r.log);
	j->ok = r.ok;
	kt_cu_nvrtc_release(&r);
	kt_free(opts);
}

static void *worker(void *arg)
{
	pool *p = arg;
	for (;;) {
		pthread_mutex_lock(&p->lock);
		size_t i = p->next++;
		pthread_mutex_unlock(&p->lock);
		if (i >= p->n)
			return NULL;
		nvrtc_one(p, &p->jobs[i]);
	}
}

/* The driver's options for o (arch, folders), and nvcc's flags NVRTC
 * takes the same way. */
static int common_options(pool *p, const kt_verify_opts *o)
{
	int rc = kt_cu_nvrtc_options(&p->common, &p->ncommon, o->arch, o->dir,
	                             kt_verify_cuda_root(o));
	/* as `ktc tune` compiles (runtime/cuda/compile.c): an unannotated
	 * function NVRTC sees (a constexpr helper nvcc's
	 * --expt-relaxed-constexpr lets device code call) is a device one */
	if (!rc)
		rc = kt_cu_opt_push(&p->common, &p->ncommon, "%s",
		                    "-default-device");
	for (size_t i = 0; !rc && i < o->nflags; i++)
		if (nvrtc_takes(o->flags[i]))
			rc = kt_cu_opt_push(&p->common, &p->ncommon, "%s",
			                    o->flags[i]);
	return rc;
}

int kt_nvrtc_run(const kt_verify_opts *o, const char *text, const char *name,
                 kt_nvrtc_job *jobs, size_t n)
{
	pool p = {.text = text, .name = base_name(name), .jobs = jobs, .n = n};
	int rc = common_options(&p, o);
	if (rc)
		goto done;
	for (size_t i = 0; i < n; i++) {
		kt_str_init(&jobs[i].log, LOG_MAX);
		jobs[i].ok = 0;
	}
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t nt =
	    o->threads > 0 ? (size_t)o->threads : (size_t)(cpus > 0 ? cpus : 1);
	nt = nt > n ? n : nt;
	nt = nt > 64 ? 64 : nt;
	pthread_t th[64];
	size_t started = 0;
	pthread_mutex_init(&p.lock, NULL);
	for (; started + 1 < nt; started++)
		if (pthread_create(&th[started], NULL, worker, &p))
			break;
	worker(&p); /* this thread works too */
	for (size_t i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&p.lock);
done:
	kt_cu_opts_free(p.common, p.ncommon);
	return rc;
}

int kt_nvrtc_available(void)
{
	return 1;
}

#else

int kt_nvrtc_run(const kt_verify_opts *o, const char *text, const char *name,
                 kt_nvrtc_job *jobs, size_t n)
{
	return kt_error(KT_EUNSUPPORTED, "ktc was built without NVRTC");
}

int kt_nvrtc_available(void)
{
	return 0;
}

#endif

void kt_nvrtc_job_release(kt_nvrtc_job *j)
{
	kt_str_release(&j->log);
}
