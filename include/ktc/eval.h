/*
 * ktc/eval.h - the evaluation interface every backend implements (CUDA,
 * OpenCL, and the simulation backend that answers from recorded results).
 *
 * The tuner hands a backend a batch of configurations of one problem
 * instance; the backend compiles them (in parallel where it can), runs,
 * verifies against the default configuration, times them, and fills one
 * kt_result per configuration. A configuration that fails costs only its own
 * result (status != KT_STATUS_OK); the return code of evaluate is for
 * failures of the backend itself (the device disappeared), which stop a run.
 */
#ifndef KTC_EVAL_H
#define KTC_EVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktc/common.h"
#include "ktc/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Why a configuration is invalid; the names are T4's `invalidity` values. */
typedef enum kt_status {
	KT_STATUS_OK,          /* "correct" */
	KT_STATUS_COMPILE,     /* "compile" */
	KT_STATUS_RUNTIME,     /* "runtime" */
	KT_STATUS_CORRECTNESS, /* "correctness" */
	KT_STATUS_CONSTRAINTS, /* "constraints" */
	KT_STATUS_TIMEOUT,     /* "timeout" */
} kt_status;

KT_API const char *kt_status_name(kt_status s);
/* Parses a T4 invalidity name; -1 if unknown. */
KT_API int kt_status_parse(const char *name);

enum { KT_MAX_MEASURES = 24 };

/* A named number that comes with a result: registers, GB/s, occupancy... */
typedef struct kt_measure {
	char name[40];
	char unit[16];
	double value;
} kt_measure;

typedef struct kt_result {
	kt_status status;
	double time_ms;      /* the objective: median kernel time in ms */
	double spread;       /* (p90 - p10) / median of the timed runs */
	double *runtimes_ms; /* every timed run, kt_malloc'd; may be NULL */
	size_t nruntimes;
	/* seconds spent per phase, as T4's `times` */
	double compile_s, verify_s, benchmark_s, framework_s, strategy_s;
	double timestamp; /* unix seconds when the evaluation finished */
	kt_measure measures[KT_MAX_MEASURES];
	size_t nmeasures;
	char *message; /* kt_malloc'd: compile log excerpt, error text */
} kt_result;

KT_API void kt_result_init(kt_result *r);
KT_API void kt_result_release(kt_result *r);
KT_API int kt_result_add_measure(kt_result *r, const char *name, double value,
                                 const char *unit);
/* The measure called name, or NULL. */
KT_API const kt_measure *kt_result_measure(const kt_result *r,
                                           const char *name);

/* What a backend tells about its device; fills the DEVICE_* constants. */
typedef struct kt_device_info {
	char name[128];   /* "NVIDIA H100 80GB HBM3", "pthread-cpu (PoCL)" */
	char backend[16]; /* "cuda", "opencl", "sim" */
	char driver[64];
	char runtime[64]; /* CUDA/NVRTC or OpenCL version */
	char arch[32];    /* "sm_90a" */
	double copy_gbs;  /* measured device copy bandwidth; 0 if unknown */
	/* values for kt_device_consts[i], by the same index */
	int64_t consts[64];
	bool has_const[64];
} kt_device_info;

/* One configuration to evaluate. */
typedef struct kt_eval_request {
	const uint32_t *param_idx; /* domain index per parameter */
	const kt_value *slots;     /* kt_model_bind of it, for this problem */
	const char *key;           /* "NAME=V,NAME=V", the cache key */
} kt_eval_request;

typedef struct kt_backend kt_backend;

typedef struct kt_backend_ops {
	const char *name;
	int (*device_info)(kt_backend *b, kt_device_info *out);
	/*
	 * Selects the problem instance that following evaluate calls use
	 * (values for each kt_model.problems entry); the backend prepares the
	 * reference outputs of the default configuration for it.
	 */
	int (*set_problem)(kt_backend *b, const kt_value *problem);
	int (*evaluate)(kt_backend *b, const kt_eval_request *reqs, size_t n,
	                kt_result *results);
	void (*free)(kt_backend *b);
} kt_backend_ops;

struct kt_backend {
	const kt_backend_ops *ops;
	const kt_model *model;
};

/* Options common to all backends; each backend reads what applies. */
typedef struct kt_backend_options {
	const char *from;      /* sim: the recorded results file */
	const char *device;    /* which device (index or name) */
	const char *cache_dir; /* compiled binaries */
	int compile_threads;   /* 0: one per core */
	int timed_runs;        /* 0: the backend's default (>= 30) */
	int warmup_runs;
	double timeout_s;  /* per configuration; 0: the default */
	bool profile;      /* collect hardware counters */
	bool compile_only; /* compile, do not run */
	uint64_t seed;     /* input data */
	/* check every configuration also on inputs with NaN, +-Inf,
	 * subnormals and -0 mixed into its float buffers (one element in
	 * 32): a rewrite must treat them as the original does */
	bool specials;
	double sim_delay_ms; /* sim: sleep per evaluation (for tests) */
	/* cuda: the program started as the worker and compiler processes
	 * (`EXE __cuda-worker ...`, which must call kt_cuda_worker_main).
	 * NULL: $KTC_WORKER_EXE, else the ktc installed with this library
	 * (the ktc CLI passes itself, "/proc/self/exe"). */
	const char *worker_exe;
} kt_backend_options;

/* Opens the backend called name ("sim", "cuda", "opencl"). */
KT_API int kt_backend_open(kt_backend **out, const char *name,
                           const kt_model *m, const kt_backend_options *opt);
KT_API void kt_backend_free(kt_backend *b);
/* The names built into this binary, comma-separated. */
KT_API const char *kt_backend_names(void);

/*
 * The CUDA backend's worker process: the hidden command `ktc __cuda-worker
 * FD` that the backend starts (posix_spawn of kt_backend_options.worker_exe,
 * by default the installed ktc), so the CUDA context never lives in the
 * tuning process. A host program that is its own worker (worker_exe
 * "/proc/self/exe") calls this first in main when argv[1] is
 * "__cuda-worker"; argv[0] is then "__cuda-worker".
 * Returns the exit status. Built in where KTC_HAVE_CUDA is defined.
 */
KT_API int kt_cuda_worker_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
