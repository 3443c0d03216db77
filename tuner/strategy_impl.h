/*
 * strategy_impl.h - what the search strategies share inside tuner/: a
 * common base (space facts, a seeded generator, the record of every
 * configuration asked and its objective), an index map, a sampler of
 * configurations without replacement, and "name=value" settings tables.
 *
 * The design choice: the base, not each strategy, owns the record of what
 * was asked. A strategy hands out only configurations it never asked before
 * (a repeat is answered from the record, without asking), and when it has
 * nothing new to offer the base fills in a random unvisited configuration.
 * So every ask makes progress, and a run ends after at most count
 * evaluations however a strategy behaves.
 */
#ifndef KTC_TUNER_STRATEGY_IMPL_H
#define KTC_TUNER_STRATEGY_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktc/strategy.h"
#include "util/rng.h"

/* A map from uint64_t to uint64_t, open addressing; KT_IMAP_EMPTY is no key. */
#define KT_IMAP_EMPTY UINT64_MAX
typedef struct kt_imap {
	uint64_t *keys;
	uint64_t *vals;
	size_t cap; /* a power of two, or 0 */
	size_t len;
} kt_imap;

int kt_imap_put(kt_imap *m, uint64_t key, uint64_t val);
bool kt_imap_get(const kt_imap *m, uint64_t key, uint64_t *val);
void kt_imap_release(kt_imap *m);

/*
 * Draws 0..count-1 in a uniformly random order, each exactly once: a
 * Fisher-Yates shuffle whose permutation is kept sparse (only the swapped
 * positions are stored), so memory grows with the draws, not with count.
 */
typedef struct kt_sampler {
	uint64_t count;
	uint64_t drawn;
	kt_imap swaps;
} kt_sampler;

void kt_sampler_init(kt_sampler *s, uint64_t count);
/* 1 and *out set when drawn, 0 when every index was drawn, < 0 on error. */
int kt_sampler_next(kt_sampler *s, kt_rng *rng, uint64_t *out);
void kt_sampler_release(kt_sampler *s);

/* A strategy's settings, as a table the parser and the docs both read. */
typedef enum kt_setting_kind {
	KT_SETTING_INT,    /* an int field */
	KT_SETTING_REAL,   /* a double field */
	KT_SETTING_CHOICE, /* an int field: the index of the word in choices */
} kt_setting_kind;

typedef struct kt_setting {
	const char *name;
	kt_setting_kind kind;
	size_t offset; /* of the field in the strategy's settings struct */
	double def, lo, hi;
	const char *choices; /* CHOICE: words separated by '|' */
	const char *help;
} kt_setting;

/* Sets every field to its default, then applies "name=value" pairs. */
int kt_settings_parse(void *conf, const kt_setting *table, const char *strategy,
                      const char *const *settings);

/* How one strategy plugs into the shared base. */
typedef struct kt_strategy_base kt_strategy_base;
typedef struct kt_strategy_impl {
	/*
	 * Writes up to max new configurations (each taken with
	 * kt_strategy_take) and their number to *n. *n == 0 is allowed: the
	 * base then offers random unvisited configurations.
	 */
	int (*propose)(kt_strategy_base *b, uint64_t *out, size_t max,
	               size_t *n);
	/* A configuration the strategy proposed has its objective. */
	int (*observe)(kt_strategy_base *b, uint64_t index, double y);
	void (*release)(kt_strategy_base *b);
} kt_strategy_impl;

/* The lookup result for one configuration in the record. */
typedef enum kt_seen {
	KT_SEEN_NEW,     /* never asked */
	KT_SEEN_PENDING, /* asked, objective not told yet */
	KT_SEEN_KNOWN,   /* told */
} kt_seen;

struct kt_strategy_base {
	kt_strategy pub;
	const kt_strategy_impl *impl;
	const kt_space *space;
	uint64_t count; /* valid configurations */
	size_t nparams;
	uint32_t *nvalues; /* domain size per parameter */
	uint64_t budget;   /* from the options; 0: unknown */
	kt_rng rng;
	kt_imap record; /* index -> objective bits (NaN while pending) */
	uint64_t nasked, ntold;
	kt_sampler fresh;
	uint64_t best_index; /* valid only when ntold_valid > 0 */
	double best;         /* INFINITY until a valid objective is told */
	uint64_t ntold_valid;
	uint64_t *scratch; /* neighbour lists */
	size_t nscratch;
};

/*
 * Allocates a strategy of size bytes (its struct starts with the base) and
 * fills the base; *out is the base, or NULL on failure.
 */
int kt_strategy_base_new(kt_strategy_base **out, size_t size,
                         const kt_strategy_ops *ops,
                         const kt_strategy_impl *impl, const kt_space *space,
                         const kt_strategy_options *opt);
int kt_strategy_base_ask(kt_strategy *s, uint64_t *out, size_t max, size_t *n);
int kt_strategy_base_tell(kt_strategy *s, uint64_t index, double objective);
void kt_strategy_base_free(kt_strategy *s);

/* What the record says of index; *y is its objective when KNOWN. */
kt_seen kt_strategy_seen(const kt_strategy_base *b, uint64_t index, double *y);
/* Marks index as asked: 1 if it was new, 0 if not, < 0 on error. */
int kt_strategy_take(kt_strategy_base *b, uint64_t index);
/*
 * A uniformly random configuration never asked before (not taken): 1 and
 * *out set, 0 when every configuration was asked, < 0 on error.
 */
int kt_strategy_fresh(kt_strategy_base *b, uint64_t *out);
/* A random neighbour (adjacent or any value) of index; false if none. */
bool kt_strategy_neighbor(kt_strategy_base *b, uint64_t index, bool adjacent,
                          uint64_t *out);
/* The objective on a log scale, which is what the strategies compare. */
double kt_strategy_score(double objective);

/* Each strategy's settings table (docs and `--help` read them). */
const kt_setting *kt_strategy_settings(const kt_strategy_ops *ops);

extern const kt_strategy_ops kt_strategy_brute_force;
extern const kt_strategy_ops kt_strategy_random;
extern const kt_strategy_ops kt_strategy_annealing;
extern const kt_strategy_ops kt_strategy_genetic;
extern const kt_strategy_ops kt_strategy_local;
extern const kt_strategy_ops kt_strategy_bayes;

extern const kt_setting kt_annealing_settings[];
extern const kt_setting kt_genetic_settings[];
extern const kt_setting kt_local_settings[];
extern const kt_setting kt_bayes_settings[];

#endif
