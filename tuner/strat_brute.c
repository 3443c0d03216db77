/*
 * strat_brute.c - brute force: every configuration in the space's index
 * order, each once; configurations already told (a resumed run) are
 * skipped, and the run ends when the space is exhausted.
 */
#include "tuner/strategy_impl.h"

typedef struct brute {
	kt_strategy_base base;
	uint64_t next;
} brute;

static int brute_propose(kt_strategy_base *b, uint64_t *out, size_t max,
                         size_t *n)
{
	brute *s = (brute *)b;
	size_t k = 0;
	while (k < max && s->next < b->count) {
		int rc = kt_strategy_take(b, s->next);
		if (rc < 0)
			return rc;
		if (rc == 1)
			out[k++] = s->next;
		s->next++;
	}
	*n = k;
	return 0;
}

static const kt_strategy_impl brute_impl = {brute_propose, NULL, NULL};

static int brute_create(kt_strategy **out, const kt_space *space,
                        const kt_strategy_options *opt)
{
	kt_strategy_base *b;
	*out = NULL;
	/* no settings: any given is an error, not silently ignored */
	int rc = kt_settings_parse(NULL, NULL, kt_strategy_brute_force.name,
	                           opt->settings);
	if (rc)
		return rc;
	rc = kt_strategy_base_new(&b, sizeof(brute), &kt_strategy_brute_force,
	                          &brute_impl, space, opt);
	if (!rc)
		*out = &b->pub;
	return rc;
}

const kt_strategy_ops kt_strategy_brute_force = {
    "brute_force",         "every configuration in the space's order",
    brute_create,          kt_strategy_base_ask,
    kt_strategy_base_tell, kt_strategy_base_free,
};
