/*
 * ktc/wisdom.h - a kernel's tuning results at many shapes, as one small
 * JSON file (docs/deploy.md): the device it was measured on, the template
 * it belongs to, and per shape (problem values) the best configuration,
 * its time and the default configuration's time.
 *
 * `ktc tune --problem T=1,64,4096 --wisdom FILE` writes it; the runtime
 * library (ktc/rt.h) and `ktc export` read it and pick a configuration for
 * a launch's shape (kt_wisdom_select). It depends on nothing above the
 * grammar, so the runtime links it without the tuner.
 */
#ifndef KTC_WISDOM_H
#define KTC_WISDOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktc/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One tuned shape. */
typedef struct kt_wisdom_shape {
	kt_value *problem; /* one per kt_wisdom.problem_names */
	kt_value *best;    /* one per kt_wisdom.param_names */
	double time_ms;    /* best's time */
	double default_ms; /* the default configuration's time */
} kt_wisdom_shape;

typedef struct kt_wisdom {
	char *template_path;    /* as given to ktc tune (recorded) */
	uint64_t template_hash; /* kt_hash of the template's text */
	char *kernel;
	char *objective; /* "cold" or "graph" */
	char device[128];
	char arch[32]; /* "sm_90a" */
	char compute_capability[16];
	char driver[64];
	char **param_names;
	size_t nparams;
	char **problem_names;
	size_t nproblems;
	kt_wisdom_shape *shapes; /* in the order they were tuned */
	size_t nshapes;
} kt_wisdom;

/* An empty wisdom for m (names copied from it); kt_wisdom_free it. */
KT_API int kt_wisdom_new(kt_wisdom **out, const kt_model *m,
                         const char *template_path, uint64_t template_hash,
                         const char *objective);
/* Adds or replaces (same problem values) a shape; values are copied. */
KT_API int kt_wisdom_set(kt_wisdom *w, const kt_value *problem,
                         const kt_value *best, double time_ms,
                         double default_ms);
/* Writes w as JSON atomically; numbers read back bit for bit. */
KT_API int kt_wisdom_write(const kt_wisdom *w, const char *path);
/* Parses text (name for messages); errors name the field at fault. */
KT_API int kt_wisdom_parse(kt_wisdom **out, const char *text, const char *name);
KT_API int kt_wisdom_load(kt_wisdom **out, const char *path);
KT_API void kt_wisdom_free(kt_wisdom *w);

typedef enum kt_wisdom_match {
	KT_WISDOM_EXACT,   /* a shape with these problem values */
	KT_WISDOM_NEAREST, /* the nearest tuned shape */
	KT_WISDOM_DEFAULT, /* another device, or no shape: the default */
} kt_wisdom_match;

KT_API const char *kt_wisdom_match_name(kt_wisdom_match m);

/*
 * The shape whose configuration a launch of problem (one value per
 * problem name) on device (its name; NULL: any) should use: the exact
 * shape, else the nearest (the smallest sum over problem variables of
 * |log2(a) - log2(b)|; ties go to the smaller shape), else none. A wisdom
 * measured on another device, or with no shapes, gives KT_WISDOM_DEFAULT
 * and *shape SIZE_MAX.
 */
KT_API kt_wisdom_match kt_wisdom_select(const kt_wisdom *w, const char *device,
                                        const kt_value *problem, size_t *shape);

/* The distance kt_wisdom_select uses between two shapes of n values:
 * sum of |log2(a) - log2(b)| (values below 1 count as 1). */
KT_API double kt_wisdom_distance(const kt_value *a, const kt_value *b,
                                 size_t n);

#ifdef __cplusplus
}
#endif
#endif
