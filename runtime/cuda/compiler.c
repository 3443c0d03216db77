/*
 * runtime/cuda/compiler.c - NVRTC in compiler processes: each compile
 * thread of the parent drives one `__cuda-worker --compile` process, which
 * compiles what it is sent and answers with the cubin (or the log).
 *
 * Why processes and not only threads: NVRTC 13.0 is thread-safe but hardly
 * runs in parallel within one process. On an H200 host with 16 cores, 240
 * configurations of tests/cuda/silu_mul.kt.cu compiled in 25.7 s on one
 * thread, in 8.7 s on 16 threads and in 1.2 s on 16 processes
 * (docs/cuda-backend.md). A compiler that crashes costs one configuration
 * (`compile`, with the reason) and is started again.
 */
#include "runtime/backend_impl.h"
#include "runtime/cuda/backend.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { COMPILE_TIMEOUT_S = 600 };

static int put_source(kt_str *s, const kt_cu_source *src, const char *cache)
{
	int rc = kt_cu_put_str(s, src->text) | kt_cu_put_str(s, src->path) |
	         kt_cu_put_str(s, src->name_expr) |
	         kt_cu_put_str(s, src->arch) |
	         kt_cu_put_str(s, cache ? cache : "") |
	         kt_cu_put_u32(s, (uint32_t)src->ndefines);
	for (size_t i = 0; i < src->ndefines; i++)
		rc |= kt_cu_put_str(s, src->defines[i]);
	return rc ? kt_error(KT_ENOMEM, "out of memory") : 0;
}

static int put_binary(kt_str *s, const kt_cu_binary *b)
{
	int rc = kt_cu_put_u32(s, b->ok) | kt_cu_put_u32(s, b->cached) |
	         kt_cu_put_f64(s, b->seconds) | kt_cu_put_u64(s, b->key[0]) |
	         kt_cu_put_u64(s, b->key[1]) | kt_cu_put_str(s, b->lowered) |
	         kt_cu_put_bytes(s, b->image, b->size) |
	         kt_cu_put_str(s, b->log);
	return rc ? kt_error(KT_ENOMEM, "out of memory") : 0;
}

static int get_binary(kt_cu_binary *b, kt_cu_reader *r)
{
	*b = (kt_cu_binary){0};
	b->ok = kt_cu_get_u32(r) != 0;
	b->cached = kt_cu_get_u32(r) != 0;
	b->seconds = kt_cu_get_f64(r);
	b->key[0] = kt_cu_get_u64(r);
	b->key[1] = kt_cu_get_u64(r);
	const char *lowered = kt_cu_get_str(r);
	size_t n = 0;
	const void *image = kt_cu_get_bytes(r, &n);
	const char *log = kt_cu_get_str(r);
	if (r->bad)
		return kt_error(KT_EBACKEND, "malformed BINARY message");
	b->lowered = kt_strdup(lowered);
	b->log = kt_strdup(log);
	b->image = kt_malloc(n ? n : 1);
	if (!b->lowered || !b->log || !b->image) {
		kt_cu_binary_release(b);
		return kt_error(KT_ENOMEM, "out of memory");
	}
	memcpy(b->image, image, n);
	b->size = n;
	return 0;
}

/* One request in the compiler process. */
static int serve(int fd, kt_cu_reader *r)
{
	kt_cu_source src = {0};
	src.text = kt_cu_get_str(r);
	src.path = kt_cu_get_str(r);
	src.name_expr = kt_cu_get_str(r);
	src.arch = kt_cu_get_str(r);
	const char *cache = kt_cu_get_str(r);
	src.ndefines = kt_cu_get_u32(r);
	char **defs = kt_calloc(src.ndefines + 1, sizeof(char *));
	if (!defs)
		return kt_error(KT_ENOMEM, "out of memory");
	for (size_t i = 0; i < src.ndefines; i++)
		defs[i] = (char *)kt_cu_get_str(r);
	src.defines = defs;
	kt_cu_binary b = {0};
	int rc = r->bad ? kt_error(KT_EBACKEND, "malformed COMPILE message")
	                : kt_cu_compile(&b, &src, *cache ? cache : NULL);
	kt_str s = KT_STR_INIT;
	if (!rc)
		rc = put_binary(&s, &b);
	if (!rc)
		rc = kt_cu_send(fd, KT_CU_BINARY, &s);
	kt_str_release(&s);
	kt_cu_binary_release(&b);
	kt_free(defs);
	return rc;
}

int kt_cu_compiler_main(int fd)
{
	for (;;) {
		uint32_t type = 0;
		char *msg = NULL;
		size_t len = 0;
		int rc = kt_cu_recv(fd, &type, &msg, &len, 0);
		if (rc || type != KT_CU_COMPILE) {
			kt_free(msg);
			return rc == KT_CU_EOF || (!rc && type == KT_CU_QUIT)
			           ? 0
			           : 1;
		}
		kt_cu_reader r = {msg, len, 0, false};
		rc = serve(fd, &r);
		kt_free(msg);
		if (rc) {
			fprintf(stderr, "ktc: cuda compiler: %s\n",
			        kt_error_last());
			return 1;
		}
	}
}

/*
 * The compiler died or hung: the configuration fails to compile, unless it
 * was killed from outside (a user, the OOM killer): then the signal is
 * returned, for the caller to try again. A hung one is killed here.
 */
static int lost(kt_cu_compiler *c, kt_cu_binary *out, const char *what,
                bool hung)
{
	kt_str why = KT_STR_INIT;
	kt_str_addf(&why, "%s: ", what);
	if (hung)
		kill(c->pid, SIGKILL);
	int sig = kt_cu_reap(c->pid, "compiler", &why);
	close(c->fd);
	c->pid = 0;
	c->fd = -1;
	*out = (kt_cu_binary){0};
	out->log = kt_str_detach(&why);
	return hung || !kt_backend_killed_from_outside(sig) ? 0 : sig;
}

static int compile_once(kt_cu_compiler *c, kt_cu_binary *out,
                        const kt_cu_source *src, const char *cache_dir,
                        int *killed)
{
	int rc = c->pid ? 0 : kt_cu_spawn(&c->pid, &c->fd, true, c->exe);
	kt_str s = KT_STR_INIT;
	if (!rc)
		rc = put_source(&s, src, cache_dir);
	if (!rc)
		rc = kt_cu_send(c->fd, KT_CU_COMPILE, &s);
	kt_str_release(&s);
	if (rc) {
		if (c->pid)
			*killed = lost(
			    c, out, "cannot reach the compiler process", false);
		return out->log ? 0 : rc;
	}
	uint32_t type = 0;
	char *msg = NULL;
	size_t len = 0;
	rc = kt_cu_recv(c->fd, &type, &msg, &len, COMPILE_TIMEOUT_S);
	if (rc || type != KT_CU_BINARY) {
		bool hung = rc == KT_CU_TIMEOUT;
		*killed =
		    lost(c, out, hung ? "NVRTC did not finish" : "NVRTC failed",
		         hung);
		rc = 0;
	} else {
		kt_cu_reader r = {msg, len, 0, false};
		rc = get_binary(out, &r);
	}
	kt_free(msg);
	return rc;
}

/*
 * compile_once, again while the compiler process is killed from outside:
 * that is not the configuration's failure, and a third such death stops
 * the run instead of recording one (as the worker's, evaluate.c).
 */
int kt_cu_compiler_run(kt_cu_compiler *c, kt_cu_binary *out,
                       const kt_cu_source *src, const char *cache_dir)
{
	for (int tries = 0;; tries++) {
		int killed = 0;
		int rc = compile_once(c, out, src, cache_dir, &killed);
		if (rc || !killed)
			return rc;
		kt_cu_binary_release(out);
		*out = (kt_cu_binary){0};
		if (tries == 2)
			return kt_error(KT_EBACKEND,
			                "cuda: the compiler process was killed "
			                "from outside (signal %d) three times "
			                "compiling one configuration",
			                killed);
	}
}

void kt_cu_compilers_start(kt_cu_compiler *c, int n)
{
	for (int i = 0; c && i < n; i++)
		if (!c[i].pid &&
		    kt_cu_spawn(&c[i].pid, &c[i].fd, true, c[i].exe))
			c[i].pid = 0;
}

void kt_cu_compilers_stop(kt_cu_compiler *c, int n)
{
	for (int i = 0; c && i < n; i++)
		if (c[i].pid)
			kt_cu_send(c[i].fd, KT_CU_QUIT, NULL);
	for (int i = 0; c && i < n; i++) {
		if (!c[i].pid)
			continue;
		kt_cu_reap(c[i].pid, "compiler", NULL);
		close(c[i].fd);
		c[i].pid = 0;
		c[i].fd = -1;
	}
}
