/*
 * runtime/cuda/worker.h - the worker process that owns the CUDA context:
 * its state, shared by worker.c (device, problem, reference) and
 * worker_eval.c (one configuration: load, check, time).
 *
 * Design choice: the worker keeps, per problem size and per input seed, a
 * pristine device copy of every input and a host copy of the reference's
 * outputs, so each check restores inputs with a device-to-device copy and
 * compares on the host without running the reference again.
 */
#ifndef KTC_RUNTIME_CUDA_WORKER_H
#define KTC_RUNTIME_CUDA_WORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktc/eval.h"
#include "runtime/cuda/driver.h"
#include "runtime/cuda/proto.h"
#include "runtime/verify.h"
#include "util/str.h"

/* Bytes before and after each buffer, filled with a pattern and checked
 * after each run: a write just outside a buffer is caught as `runtime`. */
enum { KT_CU_GUARD = 4096, KT_CU_GUARD_BYTE = 0xa7 };

typedef struct kt_cu_buf {
	CUdeviceptr base, ptr; /* allocation, and the buffer past its guard */
	size_t bytes;
} kt_cu_buf;

/* One problem size the checks run at; instance 0 is the one tuned. */
typedef struct kt_cu_inst {
	char label[160];  /* "N=524289", for messages */
	uint64_t *counts; /* elements per argument (0 for scalars) */
	size_t nseeds;
	size_t nspecial;       /* the last seeds have NaN, Inf, subnormals */
	kt_cu_buf *bufs;       /* per argument */
	CUdeviceptr *pristine; /* [seed * nargs + arg]: inputs as generated */
	void **ref;            /* [seed * nargs + arg]: reference outputs */
	/* [seed * nargs + arg]: the same on the device, or 0 (no memory):
	 * an output with the reference's bytes needs no copy to the host */
	CUdeviceptr *ref_dev;
	/* per argument: the outputs of the configuration being timed, as
	 * its checked run left them (seed 0), or 0: a timed run whose
	 * outputs have the same bytes needs no compare on the host */
	CUdeviceptr *verified;
} kt_cu_inst;

typedef struct kt_cu_worker {
	kt_cu_driver d;
	int fd;
	bool loaded, open, broken; /* broken: the context is lost, exit */
	CUdevice dev;
	CUcontext ctx;
	CUstream stream;
	int attrs[KT_CU_NATTRS];
	CUdeviceptr flush, sink; /* the L2 flush reads flush */
	size_t flush_bytes;
	CUmodule flush_mod;
	CUfunction flush_fn;
	CUfunction same_fn;  /* ktc_same: where two buffers differ */
	CUdeviceptr same_at; /* its answer: the first differing byte */
	CUevent *events;
	size_t nevents;
	bool profile;
	char profile_note[512]; /* why counters are off; sent once */
	bool note_sent;
	struct kt_cu_profiler *profiler;
	double last_beat;

	kt_cu_arg *args;
	size_t nargs;
	uint64_t seed;
	kt_cu_inst *inst;
	size_t ninst;
	void **host; /* per argument: scratch for reading outputs back */
	size_t *host_cap;
} kt_cu_worker;

/* A loaded configuration. */
typedef struct kt_cu_prog {
	CUmodule mod;
	CUfunction fn;
	int regs, smem_static, local_bytes, max_threads;
} kt_cu_prog;

/* The value of attribute a (a CUdevice_attribute in kt_cu_attrs). */
int kt_cu_attr(const kt_cu_worker *w, int a);

/* Sends PROGRESS when the last message is older than half a second. */
int kt_cu_beat(kt_cu_worker *w);

/*
 * Loads a launch's module: 0 and a status (OK, CONSTRAINTS when the
 * configuration exceeds the device or the kernel's limits, RUNTIME when
 * the image does not load) with why filled; negative on a lost context.
 */
int kt_cu_prog_load(kt_cu_worker *w, kt_cu_prog *p, const kt_cu_launch *l,
                    kt_status *st, kt_str *why);
void kt_cu_prog_unload(kt_cu_worker *w, kt_cu_prog *p);

/*
 * One run for checking at instance in with input seed k: inputs restored,
 * outputs poisoned with the byte of check `check`, guards reset, launch,
 * wait, guards checked, outputs read into w->host. Status and why as above.
 */
int kt_cu_check_run(kt_cu_worker *w, kt_cu_inst *in, size_t k, unsigned check,
                    const kt_cu_prog *p, const kt_cu_launch *l, bool to_host,
                    kt_status *st, kt_str *why);

/* "input seed 1", or what the special inputs are, for messages. */
const char *kt_cu_seed_name(const kt_cu_inst *in, size_t k, char *buf,
                            size_t size);

/* Queues guard resets, inputs of seed k and poisoned outputs. */
CUresult kt_cu_prepare(kt_cu_worker *w, kt_cu_inst *in, size_t k,
                       unsigned check);
/* Launches l on the worker's stream with in's buffers. */
CUresult kt_cu_launch_on(kt_cu_worker *w, kt_cu_inst *in, const kt_cu_prog *p,
                         const kt_cu_launch *l);

/* kt_verify_compare on several threads for long outputs. */
bool kt_cu_compare(kt_verify_report *rep, const void *got, const void *want,
                   kt_type t, size_t n, const kt_tolerance *tol);

/* Compares n bytes at a and b on the device (both 16-byte aligned):
 * *first is the first byte that differs, n when none does. */
CUresult kt_cu_same(kt_cu_worker *w, CUdeviceptr a, CUdeviceptr b, size_t n,
                    size_t *first);

/* Output argument a of in against ref, its expected bytes on the device
 * (0: none there): *same when the bytes are equal; otherwise the output
 * is read back into w->host[a], for a compare with the tolerances. */
CUresult kt_cu_output_vs(kt_cu_worker *w, const kt_cu_inst *in, size_t a,
                         CUdeviceptr ref, bool *same);

/* Queues an L2 flush: a kernel that reads twice the L2's size. */
CUresult kt_cu_flush(kt_cu_worker *w);

/* Handles EVAL: replies with RESULT (and PROGRESS on the way). */
int kt_cu_eval(kt_cu_worker *w, kt_cu_reader *r);

/* Sends FAIL with code (negative KT_E*) and the last error message. */
int kt_cu_reply_fail(kt_cu_worker *w, int code);

double kt_cu_now(void);

#endif
