/*
 * ktc/results.h - results on disk: the append-only cache (JSON lines) and
 * T4 result files (the autotuning community's JSON format), and reading
 * either back (the simulation backend answers from them).
 *
 * The cache is the durable record of a tuning run: a header line saying what
 * the results are about (template, kernel, problem, device), then one line
 * per finished evaluation, written and fsync'd as soon as it is known, so a
 * run killed at any moment loses at most the line being written. Reading
 * drops a truncated last line. docs/results-format.md describes both files.
 */
#ifndef KTC_RESULTS_H
#define KTC_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktc/eval.h"
#include "ktc/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A deep copy of src (runtimes and message included). */
KT_API int kt_result_copy(kt_result *dst, const kt_result *src);

/* What a set of results is about; any field may be empty when unknown. */
typedef struct kt_results_info {
	char *ktc_version;
	char *template_path;
	uint64_t template_hash; /* kt_hash of the template's text; 0: unknown */
	char *kernel;
	char **problem_names; /* one per problem variable */
	kt_value *problem;
	size_t nproblems;
	kt_device_info device; /* device.name "" when unknown */
	char **param_names;    /* the order of kt_record.values */
	size_t nparams;
	/* checked also on inputs with special values (kt_backend_options) */
	bool specials;
	/* T4 metadata only: */
	char *strategy;
	uint64_t seed;
	char *synthetic; /* a synthetic landscape's kind, else NULL */
} kt_results_info;

/* Fills info from a model (names, problem values, device) ; kt_free'd by
 * kt_results_info_release. problem NULL: the problems' defaults. */
KT_API int kt_results_info_from_model(kt_results_info *info, const kt_model *m,
                                      const kt_value *problem,
                                      const kt_device_info *device);
KT_API void kt_results_info_release(kt_results_info *info);

/* One evaluated configuration. */
typedef struct kt_record {
	char *key;        /* "NAME=V,..." (cache files); NULL in T4 files */
	kt_value *values; /* one per kt_results_info.param_names */
	kt_result result;
} kt_record;

typedef enum kt_results_format {
	KT_RESULTS_CACHE, /* ktc's cache, JSON lines */
	KT_RESULTS_T4,    /* one T4 JSON document */
} kt_results_format;

/* A results file read into memory. */
typedef struct kt_results {
	kt_results_format format;
	kt_results_info info;
	kt_record *records;
	size_t nrecords, cap;
	size_t dropped; /* cache: a truncated last line that was ignored */
	size_t
	    good_bytes; /* cache: bytes up to the end of the last good line */
} kt_results;

/* Reads a cache or T4 file (told apart by content). */
KT_API int kt_results_load(kt_results **out, const char *path);
KT_API void kt_results_free(kt_results *r);
/* The best correct record (the smallest finite median time), or NULL. */
KT_API const kt_record *kt_results_best(const kt_results *r);
/* rec's value of each parameter of m (m->nparams into out), found by name;
 * KT_EINVALID when the results have none for one. */
KT_API int kt_results_config(kt_value *out, const kt_results *r,
                             const kt_record *rec, const kt_model *m);

/*
 * The cache of one tuning set-up. kt_cache_open reads an existing file at
 * path (its records become kt_cache_find answers) and checks that its
 * header matches want: the same template hash, kernel, problem values and
 * device name. A mismatch is an error naming the difference, unless
 * force_new, which moves the old file to PATH.old and starts afresh. The file
 * is locked (fcntl) while open, so two runs cannot interleave their lines.
 */
typedef struct kt_cache kt_cache;

KT_API int kt_cache_open(kt_cache **out, const char *path,
                         const kt_results_info *want, bool force_new);
/* Records read at open plus those appended since, in file order. */
KT_API const kt_results *kt_cache_results(const kt_cache *c);
/* The record of key, or NULL. */
KT_API const kt_record *kt_cache_find(const kt_cache *c, const char *key);
/* Appends one line (values: one per parameter) and fsyncs it. */
KT_API int kt_cache_append(kt_cache *c, const char *key, const kt_value *values,
                           const kt_result *r);
KT_API void kt_cache_close(kt_cache *c);

/* One row of a T4 file. */
typedef struct kt_t4_row {
	const kt_value *values; /* one per info.param_names */
	const kt_result *result;
} kt_t4_row;

/*
 * Writes a T4 file (schema_version "1.0.0") atomically: the rows in order,
 * and metadata from info (device, problem, strategy, seed, synthetic).
 * backend names the backend that produced the rows.
 */
KT_API int kt_t4_write(const char *path, const kt_results_info *info,
                       const char *backend, const kt_t4_row *rows, size_t n);

#ifdef __cplusplus
}
#endif
#endif
