/*
 * ktc/strategy.h - search strategies behind one ask/tell interface.
 *
 * The tuner asks a strategy for configurations (space indices), evaluates
 * them, and tells it each objective (lower is better; INFINITY for an
 * invalid configuration). A strategy may hand out several configurations
 * before it hears back (a batch for parallel compilation); it must never
 * depend on wall-clock time, only on its seed and what it was told, so that
 * a run is reproducible and a killed run replays to the same state.
 * The tuner answers repeated configurations from its own record and counts
 * only new evaluations against the budget.
 */
#ifndef KTC_STRATEGY_H
#define KTC_STRATEGY_H

#include <stddef.h>
#include <stdint.h>

#include "ktc/space.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kt_strategy kt_strategy;

typedef struct kt_strategy_options {
	uint64_t seed;
	uint64_t
	    budget; /* evaluations the tuner intends to allow; 0: unknown */
	/* strategy-specific settings as "name=value" pairs, NULL-terminated */
	const char *const *settings;
} kt_strategy_options;

typedef struct kt_strategy_ops {
	const char *name;
	const char *summary;
	int (*create)(kt_strategy **out, const kt_space *space,
	              const kt_strategy_options *opt);
	/*
	 * Writes up to max configuration indices to out and their number to
	 * *n. *n == 0 means the strategy has nothing more to propose (the
	 * space is exhausted for brute force and random search).
	 */
	int (*ask)(kt_strategy *s, uint64_t *out, size_t max, size_t *n);
	int (*tell)(kt_strategy *s, uint64_t index, double objective);
	void (*free)(kt_strategy *s);
} kt_strategy_ops;

struct kt_strategy {
	const kt_strategy_ops *ops;
};

/* The built-in strategies, NULL-terminated. */
extern KT_API const kt_strategy_ops *const kt_strategies[];
KT_API const kt_strategy_ops *kt_strategy_find(const char *name);

KT_API int kt_strategy_create(kt_strategy **out, const char *name,
                              const kt_space *space,
                              const kt_strategy_options *opt);
static inline int kt_strategy_ask(kt_strategy *s, uint64_t *out, size_t max,
                                  size_t *n)
{
	return s->ops->ask(s, out, max, n);
}
static inline int kt_strategy_tell(kt_strategy *s, uint64_t index,
                                   double objective)
{
	return s->ops->tell(s, index, objective);
}
KT_API void kt_strategy_free(kt_strategy *s);

#ifdef __cplusplus
}
#endif
#endif
