/*
 * runtime/cuda/compile.h - NVRTC compilation of one configuration of a
 * template to a cubin, with an on-disk cache.
 *
 * NVRTC needs no GPU and no CUDA context, so the parent process compiles
 * (in many threads) while the worker process measures; only the cubin
 * bytes cross over to the worker.
 */
#ifndef KTC_RUNTIME_CUDA_COMPILE_H
#define KTC_RUNTIME_CUDA_COMPILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/cuda/nvrtc.h"

/* What to compile: the template text with its macro values. */
typedef struct kt_cu_source {
	const char *text;      /* the whole template file */
	const char *path;      /* for messages, and -I of its folder */
	const char *name_expr; /* "scale<256, float>": the kernel to find */
	const char *arch;      /* "sm_90a" */
	char **defines;        /* "NAME=VALUE" each, passed as -D */
	size_t ndefines;
	/* more for the cache key (the runtime library: the device and the
	 * driver); NULL: nothing, and the key is the tuner's */
	const char *salt;
} kt_cu_source;

typedef struct kt_cu_binary {
	bool ok;     /* compiled; otherwise log says why */
	char *image; /* the cubin */
	size_t size;
	char *lowered;   /* the kernel's mangled name in the cubin */
	char *log;       /* NVRTC's log (warnings on success), may be "" */
	bool cached;     /* answered from the disk cache */
	double seconds;  /* wall time spent, cache lookups included */
	uint64_t key[2]; /* the cache key */
} kt_cu_binary;

/*
 * Compiles src (or reads it from cache_dir when cache_dir is not NULL).
 * A compile error is not a failure: it returns 0 with out->ok false and the
 * log. Failures of NVRTC itself or of memory return a negative code.
 */
int kt_cu_compile(kt_cu_binary *out, const kt_cu_source *src,
                  const char *cache_dir);
void kt_cu_binary_release(kt_cu_binary *b);

/* The NVRTC options used for src, in order ("-arch=sm_90a", ...). */
int kt_cu_options(char ***opts, size_t *nopts, const kt_cu_source *src);
void kt_cu_options_free(char **opts, size_t nopts);

/*
 * The cache key: a 128-bit hash of the source text, every option (the -D
 * values and the architecture among them), the name expression, NVRTC's
 * version, the cache format's version and src->salt when there is one.
 */
void kt_cu_cache_key(uint64_t key[2], const kt_cu_source *src, char **opts,
                     size_t nopts);

#endif
