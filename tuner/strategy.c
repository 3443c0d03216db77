/*
 * strategy.c - the registry of search strategies and the base they share.
 *
 * The base keeps the record of every configuration asked and its
 * objective. It asks the strategy for new configurations and, when the
 * strategy has none to offer (it waits for results, or its neighbourhood is
 * used up), fills in random unvisited ones, so no strategy can stall a run
 * or ask for the same configuration twice.
 */
#include "tuner/strategy_impl.h"

#include <math.h>
#include <string.h>

#include "ktc/common.h"
#include "util/str.h"

const kt_strategy_ops *const kt_strategies[] = {
    &kt_strategy_brute_force,
    &kt_strategy_random,
    &kt_strategy_annealing,
    &kt_strategy_genetic,
    &kt_strategy_local,
    &kt_strategy_bayes,
    NULL,
};

/* Short names people type. */
static const struct {
	const char *alias, *name;
} aliases[] = {
    {"brute", "brute_force"},
    {"sa", "simulated_annealing"},
    {"annealing", "simulated_annealing"},
    {"ga", "genetic"},
    {"ils", "local_search"},
    {"local", "local_search"},
    {"bo", "bayes"},
};

const kt_strategy_ops *kt_strategy_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcmp(name, aliases[i].alias))
			name = aliases[i].name;
	for (size_t i = 0; kt_strategies[i]; i++)
		if (!strcmp(kt_strategies[i]->name, name))
			return kt_strategies[i];
	return NULL;
}

const kt_setting *kt_strategy_settings(const kt_strategy_ops *ops)
{
	if (ops == &kt_strategy_annealing)
		return kt_annealing_settings;
	if (ops == &kt_strategy_genetic)
		return kt_genetic_settings;
	if (ops == &kt_strategy_local)
		return kt_local_settings;
	if (ops == &kt_strategy_bayes)
		return kt_bayes_settings;
	return NULL;
}

int kt_strategy_create(kt_strategy **out, const char *name,
                       const kt_space *space, const kt_strategy_options *opt)
{
	*out = NULL;
	const kt_strategy_ops *ops = kt_strategy_find(name);
	if (!ops) {
		kt_str list = KT_STR_INIT;
		for (size_t i = 0; kt_strategies[i]; i++)
			kt_str_addf(&list, "%s%s", i ? ", " : "",
			            kt_strategies[i]->name);
		int rc =
		    kt_error(KT_ENOTFOUND, "unknown strategy '%s' (known: %s)",
		             name ? name : "", list.ptr);
		kt_str_release(&list);
		return rc;
	}
	kt_strategy_options none = {0};
	return ops->create(out, space, opt ? opt : &none);
}

void kt_strategy_free(kt_strategy *s)
{
	if (s)
		s->ops->free(s);
}

int kt_strategy_base_new(kt_strategy_base **out, size_t size,
                         const kt_strategy_ops *ops,
                         const kt_strategy_impl *impl, const kt_space *space,
                         const kt_strategy_options *opt)
{
	*out = NULL;
	const kt_model *m = kt_space_model(space);
	kt_strategy_base *b = kt_calloc(1, size);
	if (!b)
		return kt_error(KT_ENOMEM, "out of memory for a strategy");
	b->nparams = m->nparams;
	b->nvalues = kt_calloc(m->nparams ? m->nparams : 1, sizeof(uint32_t));
	if (!b->nvalues) {
		kt_free(b);
		return kt_error(KT_ENOMEM, "out of memory for a strategy");
	}
	for (size_t p = 0; p < m->nparams; p++)
		b->nvalues[p] = (uint32_t)m->params[p].nvalues;
	b->pub.ops = ops;
	b->impl = impl;
	b->space = space;
	b->count = kt_space_count(space);
	b->budget = opt->budget;
	b->best = INFINITY;
	kt_rng_seed(&b->rng, opt->seed);
	kt_sampler_init(&b->fresh, b->count);
	*out = b;
	return 0;
}

void kt_strategy_base_free(kt_strategy *s)
{
	kt_strategy_base *b = (kt_strategy_base *)s;
	if (!b)
		return;
	if (b->impl->release)
		b->impl->release(b);
	kt_imap_release(&b->record);
	kt_sampler_release(&b->fresh);
	kt_free(b->nvalues);
	kt_free(b->scratch);
	kt_free(b);
}

kt_seen kt_strategy_seen(const kt_strategy_base *b, uint64_t index, double *y)
{
	uint64_t bits;
	if (!kt_imap_get(&b->record, index, &bits))
		return KT_SEEN_NEW;
	double v;
	memcpy(&v, &bits, sizeof(v));
	if (isnan(v))
		return KT_SEEN_PENDING;
	if (y)
		*y = v;
	return KT_SEEN_KNOWN;
}

static int record_put(kt_strategy_base *b, uint64_t index, double v)
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof(bits));
	return kt_imap_put(&b->record, index, bits);
}

int kt_strategy_take(kt_strategy_base *b, uint64_t index)
{
	if (index >= b->count)
		return kt_error(KT_EINVALID, "configuration %llu out of range",
		                (unsigned long long)index);
	if (kt_imap_get(&b->record, index, NULL))
		return 0;
	int rc = record_put(b, index, NAN);
	if (rc)
		return rc;
	b->nasked++;
	return 1;
}

int kt_strategy_fresh(kt_strategy_base *b, uint64_t *out)
{
	for (;;) {
		uint64_t i;
		int rc = kt_sampler_next(&b->fresh, &b->rng, &i);
		if (rc <= 0)
			return rc;
		if (!kt_imap_get(&b->record, i, NULL)) {
			*out = i;
			return 1;
		}
	}
}

bool kt_strategy_neighbor(kt_strategy_base *b, uint64_t index, bool adjacent,
                          uint64_t *out)
{
	size_t n = kt_space_neighbors(b->space, index, adjacent, b->scratch,
	                              b->nscratch);
	if (n > b->nscratch) {
		uint64_t *p = kt_realloc(b->scratch, n * sizeof(*p));
		if (!p)
			return false;
		b->scratch = p;
		b->nscratch = n;
		n = kt_space_neighbors(b->space, index, adjacent, b->scratch,
		                       b->nscratch);
	}
	if (n == 0)
		return false;
	*out = b->scratch[kt_rng_below(&b->rng, n)];
	return true;
}

double kt_strategy_score(double objective)
{
	if (isnan(objective) || objective == INFINITY)
		return INFINITY;
	/* Below every log of a positive double, and still ordered. */
	return objective > 0 ? log(objective) : objective - 1e4;
}

int kt_strategy_base_ask(kt_strategy *s, uint64_t *out, size_t max, size_t *n)
{
	kt_strategy_base *b = (kt_strategy_base *)s;
	*n = 0;
	if (max == 0)
		return 0;
	size_t k = 0;
	int rc = b->impl->propose(b, out, max, &k);
	if (rc)
		return rc;
	/* The strategy waits or is stuck: keep the run going at random. */
	if (k == 0) {
		rc = kt_strategy_fresh(b, &out[0]);
		if (rc < 0)
			return rc;
		if (rc == 1) {
			rc = kt_strategy_take(b, out[0]);
			if (rc < 0)
				return rc;
			k = 1;
		}
	}
	*n = k;
	return 0;
}

int kt_strategy_base_tell(kt_strategy *s, uint64_t index, double objective)
{
	kt_strategy_base *b = (kt_strategy_base *)s;
	if (isnan(objective))
		objective = INFINITY;
	kt_seen seen = kt_strategy_seen(b, index, NULL);
	if (seen == KT_SEEN_KNOWN)
		return 0; /* told twice: the first answer stands */
	if (seen == KT_SEEN_NEW) {
		int rc = kt_strategy_take(b, index);
		if (rc < 0)
			return rc;
	}
	int rc = record_put(b, index, objective);
	if (rc)
		return rc;
	b->ntold++;
	if (objective < INFINITY) {
		b->ntold_valid++;
		if (objective < b->best) {
			b->best = objective;
			b->best_index = index;
		}
	}
	return b->impl->observe ? b->impl->observe(b, index, objective) : 0;
}
