/*
 * ocl.h - what the files of the OpenCL backend share, in the order a
 * configuration flows through them: backend.c (the parent: kt_backend ops,
 * the worker process and its watchdog), wire.c (messages between the two),
 * worker.c (the worker: context, problem buffers, batches), build.c
 * (programs built in parallel threads), run.c (launch, verification,
 * timing), device.c (platform and device selection, DEVICE_* constants).
 * Buffer contents and output comparison are runtime/buffers.h and
 * runtime/verify.h, shared with the CUDA backend.
 *
 * The one design choice: the parent process never calls OpenCL. A forked
 * worker owns the context, so a configuration that crashes (SIGSEGV on PoCL
 * from an out-of-bounds access) or hangs kills only the worker; the parent
 * records that one configuration and forks a new worker.
 */
#ifndef KTC_RUNTIME_OPENCL_OCL_H
#define KTC_RUNTIME_OPENCL_OCL_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "ktc/eval.h"
#include "util/rng.h"
#include "util/str.h"
#include "runtime/wire.h"

/* Defaults of the options a caller leaves at 0. */
enum {
	OCL_DEFAULT_RUNS = 30,  /* timed runs per configuration */
	OCL_DEFAULT_WARMUP = 2, /* untimed runs before them */
	OCL_MIN_RUNS = 5,       /* timed runs kept when the time budget ends */
};
#define OCL_DEFAULT_TIMEOUT_S 10.0 /* one launch; see backend.c */
#define OCL_BENCH_BUDGET_S 2.0     /* timed runs stop after this much */
#define OCL_BUILD_TIMEOUT_S 120.0  /* silence allowed while building */
/*
 * PoCL compiles a kernel for its work-group size at its first launch, which
 * may take longer than the build itself: that launch gets this much more
 * time, or four times the build's, whichever is more.
 */
#define OCL_JIT_MIN_S 5.0

/* Seconds on the monotonic clock (durations), and since 1970 (timestamps). */
static inline double ocl_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static inline double ocl_wall_clock(void)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* --- wire.c: framed messages over a socket pair ---------------------- */

typedef enum ocl_msg {
	OCL_MSG_HELLO = 1, /* w->p: kt_device_info; the worker is ready */
	OCL_MSG_FAIL,      /* w->p: text; the worker cannot go on */
	OCL_MSG_PROBLEM,   /* p->w: kt_value per problem variable */
	OCL_MSG_READY,     /* w->p: problem buffers and reference are ready */
	OCL_MSG_BATCH,     /* p->w: configurations to evaluate */
	OCL_MSG_BUILT,     /* w->p: one program finished building (progress) */
	OCL_MSG_BEGIN,     /* w->p: u32 id; the run phase of a config starts */
	OCL_MSG_BEAT,      /* w->p: one launch finished (progress) */
	OCL_MSG_FIRST,     /* w->p: double s; the next launch may compile */
	OCL_MSG_RESULT,    /* w->p: u32 id + packed kt_result */
	OCL_MSG_DONE,      /* w->p: the batch is finished */
	OCL_MSG_QUIT,      /* p->w: exit */
} ocl_msg;

/* Sends one message; never raises SIGPIPE. */
int ocl_send(int fd, uint32_t type, const void *data, size_t len);
/*
 * Receives one message into payload (cleared first). Waits at most
 * timeout_ms for it to start (negative: forever). Returns 0, 1 when the
 * time ran out, KT_EIO when the peer is gone or the stream is corrupt.
 */
int ocl_recv(int fd, uint32_t *type, kt_str *payload, int timeout_ms);

/* --- device.c: platforms, devices, errors ---------------------------- */

/* "CL_OUT_OF_RESOURCES" for -5; "CL error -1234" for codes it does not know. */
const char *ocl_strerror(cl_int err);
/* kt_error(KT_EBACKEND, "opencl: WHAT failed: CL_...") */
int ocl_fail(cl_int err, const char *what);

/*
 * Picks the device spec names: NULL or "" for the first device of the first
 * platform, "P:D" for platform P's device D, anything else for the first
 * device whose name (or its platform's name) contains spec.
 */
int ocl_device_select(cl_platform_id *platform, cl_device_id *device,
                      const char *spec);
/* Name, versions and the DEVICE_* constants of kt_device_consts. */
void ocl_device_describe(kt_device_info *info, cl_platform_id platform,
                         cl_device_id device);
/* Values for m->devices[] from info (fallbacks where info has none). */
void ocl_device_values(kt_value *out, const kt_model *m,
                       const kt_device_info *info);

/* --- build.c: programs, one per configuration ------------------------ */

typedef struct ocl_build {
	const kt_value *slots; /* in: the configuration */
	cl_program program;    /* out: NULL when the build failed */
	char *log;             /* out: kt_malloc'd message on failure */
	double seconds;
} ocl_build;

/* "-D KTC_TUNING=1", then "-D NAME=V" for every parameter and derived
 * value of m in slots, then -I the template's folder. */
int ocl_build_options(kt_str *out, const kt_model *m, const kt_value *slots);
/* Called after each build finishes, from the thread that built it. */
typedef void (*ocl_build_done_fn)(void *ud, size_t i);
/* Builds b[0..n) on threads threads (<= 1: on the calling thread). */
void ocl_build_all(cl_context ctx, cl_device_id dev, const kt_model *m,
                   ocl_build *b, size_t n, int threads, ocl_build_done_fn done,
                   void *ud);
void ocl_build_release(ocl_build *b);

/* --- worker.c and run.c: the worker process -------------------------- */

/* Launch geometry: global = grid * block in each dimension. */
typedef struct ocl_geom {
	cl_uint dims;
	size_t global[3], local[3];
} ocl_geom;

/* A kernel argument of the current problem. */
/*
 * A buffer argument lives inside a larger allocation, with guard bytes
 * before and after it that a kernel writing just outside would change.
 */
#define OCL_GUARD_BYTE 0xA7

typedef struct ocl_arg {
	const kt_arg *a;
	size_t count; /* elements (buffers) */
	size_t bytes;
	cl_mem whole;    /* buffers: guard, the argument, guard */
	cl_mem mem;      /* the argument: a sub-buffer of whole */
	void *input;     /* in/inout: contents of the current check */
	void *ref, *got; /* out/inout: reference and candidate outputs */
} ocl_arg;

typedef struct ocl_worker {
	const kt_model *m;
	const kt_backend_options *opt;
	int fd;
	cl_platform_id platform;
	cl_device_id device;
	cl_context ctx;
	cl_command_queue queue;
	kt_device_info info;
	size_t max_wg;       /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
	size_t guard;        /* bytes of guard on each side of a buffer */
	size_t max_items[3]; /* CL_DEVICE_MAX_WORK_ITEM_SIZES */
	kt_value *devvals;   /* m->ndevices */
	kt_value *problem;   /* m->nproblems; NULL until PROBLEM */
	kt_value *ref_slots; /* the default configuration, bound */
	cl_kernel ref_kernel;
	cl_program ref_program;
	ocl_geom ref_geom;
	ocl_arg *args; /* m->nargs */
	cl_mem flush;  /* overwritten before each timed run; or NULL */
	size_t flush_bytes;
	int runs, warmup;
	unsigned checks; /* verifications so far: picks the poison */
} ocl_worker;

/*
 * The worker's main loop on socket fd; returns the process exit status.
 * copy_gbs: the device's copy bandwidth if known, else <= 0 to measure it.
 */
int ocl_worker_main(const kt_model *m, const kt_backend_options *opt, int fd,
                    double copy_gbs);

/* Evaluates one built configuration; r->status says how it went. */
void ocl_run_config(ocl_worker *w, const kt_value *slots, const char *key,
                    cl_program program, kt_result *r);
/* Sets up and runs the default configuration once: set_problem's check. */
int ocl_run_reference(ocl_worker *w);

#endif
