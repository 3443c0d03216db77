/*
 * runtime/cuda/backend.h - the parent side of the CUDA backend: the state
 * shared by backend.c (open, device, problem), spawn.c (the worker process
 * and its watchdog) and evaluate.c (compile threads feeding the worker).
 *
 * The parent never initialises CUDA: it compiles with NVRTC, evaluates the
 * model's expressions, and talks to a worker process (`ktc __cuda-worker`)
 * that owns the context. A configuration that kills or hangs the worker
 * costs that configuration; the worker is started again with the same
 * problem and the run goes on.
 */
#ifndef KTC_RUNTIME_CUDA_BACKEND_H
#define KTC_RUNTIME_CUDA_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ktc/eval.h"
#include "runtime/cuda/compile.h"
#include "runtime/cuda/config.h"
#include "runtime/cuda/proto.h"
#include "util/str.h"

/* Defaults; each has an option or documented reason. */
#define KT_CU_TIMED_RUNS 30
#define KT_CU_WARMUP_RUNS 5
#define KT_CU_TIMEOUT_S 10.0
#define KT_CU_GRAPH_BELOW_MS 0.1 /* kernels faster than this: graph replay */
/* The graph objective: launches back to back in one graph, per timed run */
#define KT_CU_GRAPH_BATCH 20
#define KT_CU_SEEDS_TUNED 2 /* input seeds checked at the tuned size */

/* A compiler process (runtime/cuda/compiler.c); pid 0 when not running. */
typedef struct kt_cu_compiler {
	pid_t pid;
	int fd;
	const char *exe; /* the program to start (kt_cu_worker_exe) */
} kt_cu_compiler;

/*
 * Compiles src in compiler process c (started if needed). A crash or hang
 * of NVRTC gives out->ok false with the reason in out->log. Negative only
 * when no compiler process can be started or reached.
 */
int kt_cu_compiler_run(kt_cu_compiler *c, kt_cu_binary *out,
                       const kt_cu_source *src, const char *cache_dir);
/* Starts those of the n compiler processes of c that do not run, so the
 * first batch does not wait for them (a failed start is left to the
 * compile that needs the process, which reports it). */
void kt_cu_compilers_start(kt_cu_compiler *c, int n);
/* Ends the n compiler processes of c: QUIT to each, then each reaped, so
 * they exit side by side rather than one after another. */
void kt_cu_compilers_stop(kt_cu_compiler *c, int n);
/* The compiler process's loop (`__cuda-worker --compile FD`). */
int kt_cu_compiler_main(int fd);

/* A problem size the checks run at; [0] is the tuned one. */
typedef struct kt_cu_size {
	kt_value *problem;
	char label[160];
	kt_cu_cfg ref;    /* the default configuration there */
	kt_cu_binary bin; /* its cubin */
	uint32_t nseeds;
	uint32_t nspecial; /* the last seeds: NaN, Inf, subnormals mixed in */
} kt_cu_size;

typedef struct kt_cu_backend {
	kt_backend base;
	kt_backend_options opt;
	char *device, *cache_dir;
	char *exe; /* kt_cu_worker_exe, owned */
	int timed_runs, warmup_runs, threads;
	double timeout_s;
	bool graph; /* the graph objective (kt_backend_options.objective) */

	kt_device_info info;
	int attrs[KT_CU_NATTRS];
	char arch[32];
	kt_value *devvals; /* per model DEVICE_* constant */

	pid_t pid; /* the worker, or 0 */
	int fd;
	kt_str problem_msg; /* PROBLEM as last sent, for a restarted worker */
	bool problem_sent;  /* the running worker has it */
	bool quit_sent;     /* the running worker was sent QUIT */
	int died_of;        /* the signal the last worker died of, or 0 */
	uint64_t total_mem; /* the device's memory (cuDeviceTotalMem) */
	bool note_printed;

	kt_cu_compiler *compilers; /* one per compile thread */

	kt_cu_size *sizes;
	size_t nsizes;
	uint32_t *default_idx;
} kt_cu_backend;

/* The worker program: o->worker_exe, else $KTC_WORKER_EXE, else the ktc
 * installed with this library (KTC_WORKER_DEFAULT). */
const char *kt_cu_worker_exe(const kt_backend_options *o);
/*
 * Starts exe as `__cuda-worker 3` (the GPU worker) or `__cuda-worker
 * --compile 3` (a compiler process), the socket on fd 3.
 */
int kt_cu_spawn(pid_t *pid, int *fd, bool compiler, const char *exe);
/*
 * Waits for (or kills) a child; why (may be NULL) gets how it ended.
 * Returns the signal it died of on its own (0: it exited, or was killed
 * here).
 */
int kt_cu_reap(pid_t pid, const char *what, kt_str *why);

/* Starts the worker and opens the device (measure: copy bandwidth too). */
int kt_cu_worker_start(kt_cu_backend *b, bool measure);
/* Asks the worker to end (QUIT) without waiting: it frees its problem and
 * exits while the caller does other work; kt_cu_worker_stop then reaps it. */
void kt_cu_worker_quit(kt_cu_backend *b);
/* Ends the worker: QUIT (unless kt_cu_worker_quit sent it), then a kill if
 * it does not go. */
void kt_cu_worker_stop(kt_cu_backend *b);
/* Starts a worker if none runs and sends it the problem if it lacks it. */
int kt_cu_worker_ready(kt_cu_backend *b);

/*
 * Waits for the worker's answer to a request, through PROGRESS messages,
 * each gap bounded by the timeout. Returns 0 with the message, or
 * KT_CU_TIMEOUT / KT_CU_EOF after which the worker has been stopped (with
 * why describing the end), or a negative error.
 */
int kt_cu_worker_wait(kt_cu_backend *b, uint32_t *type, char **msg, size_t *len,
                      kt_str *why);

/* The error a FAIL message carries, set as the last error; returns its code. */
int kt_cu_read_fail(kt_cu_reader *r);

/* Compiles one configuration's source at one size: in compiler process
 * cc, or in this process when cc is NULL. */
int kt_cu_compile_cfg(kt_cu_binary *bin, const kt_cu_backend *b,
                      const kt_cu_cfg *c, kt_cu_compiler *cc);

/* The launch of configuration c compiled to bin (pointers into both). */
void kt_cu_launch_of(kt_cu_launch *l, const kt_cu_cfg *c,
                     const kt_cu_binary *bin);

int kt_cu_evaluate(kt_backend *base, const kt_eval_request *reqs, size_t n,
                   kt_result *results);

#endif
