/*
 * ktc/space.h - the constrained search space of one model, for one problem
 * instance and one device.
 *
 * Built without enumerating the raw product: parameters that constraints
 * tie together form groups; each group is enumerated by backtracking in an
 * order where every constraint is checked as soon as its last parameter is
 * bound; independent groups multiply. A configuration is then a mixed-radix
 * index over the groups' valid tuples, so counting, indexing and uniform
 * sampling cost no enumeration of the whole space.
 *
 * A configuration is an array of domain indices, one per parameter
 * (uint32_t param_idx[nparams]); its value is params[p].values[param_idx[p]].
 */
#ifndef KTC_SPACE_H
#define KTC_SPACE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "ktc/diag.h"
#include "ktc/model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kt_space kt_space;
struct kt_rng;

/*
 * Builds the space of m for the given problem values (NULL: defaults) and
 * device values (NULL: fallbacks). An expression that fails to evaluate
 * (division by zero...) becomes a diagnostic at its place; an empty space
 * is not an error (kt_space_count is 0), but the default configuration
 * violating a constraint is reported as a warning.
 */
KT_API int kt_space_build(kt_space **out, const kt_model *m,
                          const kt_value *problem, const kt_value *device,
                          kt_diags *diags);

/* The default bound on a build, 2^25 values bound while enumerating: a
 * few seconds; tests/space/big.kt.cu needs about 550000. */
#define KT_SPACE_MAX_BINDINGS 33554432ULL

/* Bounds on building a space: kt_space_build uses the defaults. */
typedef struct kt_space_limits {
	/*
	 * Values bound while enumerating groups (the backtracking's steps,
	 * valid or not) before the build gives up; 0: KT_SPACE_MAX_BINDINGS,
	 * UINT64_MAX: no bound. A count, not a time, so that whether a space
	 * builds does not depend on the machine or its load.
	 */
	uint64_t max_bindings;
	/* set asynchronously (a signal handler) to abandon the build */
	volatile sig_atomic_t *stop;
} kt_space_limits;

/*
 * kt_space_build within limits (NULL: KT_SPACE_MAX_BINDINGS, no stop flag).
 * A build that reaches max_bindings or sees *stop set returns
 * KT_EINTERRUPTED, with kt_error() saying how far it got.
 */
KT_API int kt_space_build_limited(kt_space **out, const kt_model *m,
                                  const kt_value *problem,
                                  const kt_value *device,
                                  const kt_space_limits *limits,
                                  kt_diags *diags);
KT_API void kt_space_free(kt_space *s);

KT_API const kt_model *kt_space_model(const kt_space *s);
/* Number of valid configurations. */
KT_API uint64_t kt_space_count(const kt_space *s);
/* Size of the raw product of all domains (as a double: it may overflow). */
KT_API double kt_space_raw_size(const kt_space *s);
/* The index-th valid configuration, 0 <= index < count. */
KT_API int kt_space_get(const kt_space *s, uint64_t index, uint32_t *param_idx);
/* Index of a configuration, or -1 if it violates a constraint. */
KT_API int64_t kt_space_index_of(const kt_space *s, const uint32_t *param_idx);
/* A uniformly random valid configuration's index; count must be > 0. */
KT_API uint64_t kt_space_sample(const kt_space *s, struct kt_rng *rng);
/*
 * Valid neighbours of a configuration: those that differ in exactly one
 * parameter. adjacent: only the next lower or higher value in the domain's
 * order; otherwise any value. Writes up to max indices, returns how many
 * exist (which may exceed max).
 */
KT_API size_t kt_space_neighbors(const kt_space *s, uint64_t index,
                                 bool adjacent, uint64_t *out, size_t max);
/* Index of the default configuration, or -1 if it is not valid. */
KT_API int64_t kt_space_default_index(const kt_space *s);

/*
 * Groups, for display: how many, and which parameters each holds (in the
 * order they are bound while the group is enumerated). Groups are ordered
 * by their first parameter as written; the first group varies slowest in
 * the configuration index.
 */
KT_API size_t kt_space_ngroups(const kt_space *s);
KT_API size_t kt_space_group(const kt_space *s, size_t g, const int **params,
                             uint64_t *valid_tuples);

/* "NAME=V,NAME=V" for a configuration (kt_free the result). */
KT_API char *kt_space_key(const kt_space *s, const uint32_t *param_idx);

#ifdef __cplusplus
}
#endif
#endif
