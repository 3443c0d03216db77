/*
 * strat_random.c - random search: configurations drawn uniformly without
 * replacement. The draw is the base's sparse shuffle of the index range,
 * which is uniform over valid configurations because indices and valid
 * configurations correspond one to one; it runs dry exactly when the space
 * is exhausted.
 */
#include "tuner/strategy_impl.h"

static int random_propose(kt_strategy_base *b, uint64_t *out, size_t max,
                          size_t *n)
{
	size_t k = 0;
	while (k < max) {
		int rc = kt_strategy_fresh(b, &out[k]);
		if (rc < 0)
			return rc;
		if (rc == 0)
			break;
		rc = kt_strategy_take(b, out[k]);
		if (rc < 0)
			return rc;
		k++;
	}
	*n = k;
	return 0;
}

static const kt_strategy_impl random_impl = {random_propose, NULL, NULL};

static int random_create(kt_strategy **out, const kt_space *space,
                         const kt_strategy_options *opt)
{
	kt_strategy_base *b;
	*out = NULL;
	/* no settings: any given is an error, not silently ignored */
	int rc = kt_settings_parse(NULL, NULL, kt_strategy_random.name,
	                           opt->settings);
	if (rc)
		return rc;
	rc =
	    kt_strategy_base_new(&b, sizeof(kt_strategy_base),
	                         &kt_strategy_random, &random_impl, space, opt);
	if (!rc)
		*out = &b->pub;
	return rc;
}

const kt_strategy_ops kt_strategy_random = {
    "random",
    "uniform random sampling without replacement",
    random_create,
    kt_strategy_base_ask,
    kt_strategy_base_tell,
    kt_strategy_base_free,
};
