/*
 * strat_bayes.c - Bayesian optimisation: a Gaussian process models
 * log-time over the configurations (one feature per parameter: its domain
 * index scaled to [0, 1]), and the next configuration is the one with the
 * largest expected improvement over the best seen.
 *
 * The design choices: invalid configurations are given the worst valid
 * value seen, so the model learns to avoid their region instead of ignoring
 * it; the expected improvement is maximised over every unvisited
 * configuration when the space is small, and otherwise over a random pool
 * plus all neighbours of the best few; a batch (or results still pending)
 * is filled by the "kriging believer": a chosen configuration joins the
 * model with its predicted value before the next one is chosen. The
 * training set is capped (the best half and the newest half), so a long run
 * does not slow down as n^3.
 */
#include "tuner/strategy_impl.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "tuner/strategy_gp.h"
#include "util/vec.h"

typedef struct bayes_conf {
	int init;
	int pool;
	int exhaustive;
	int max_train;
	int refit;
	int kernel;
	double xi;
} bayes_conf;

const kt_setting kt_bayes_settings[] = {
    {"init", KT_SETTING_INT, offsetof(bayes_conf, init), 0, 0, 1e6, NULL,
     "random configurations before the model is used; 0: 2 per parameter, "
     "at least 5"},
    {"pool", KT_SETTING_INT, offsetof(bayes_conf, pool), 1000, 1, 1e7, NULL,
     "random candidates scored per choice in a large space"},
    {"exhaustive", KT_SETTING_INT, offsetof(bayes_conf, exhaustive), 5000, 0,
     1e8, NULL,
     "spaces up to this many configurations score every unvisited one"},
    {"max_train", KT_SETTING_INT, offsetof(bayes_conf, max_train), 160, 8, 4000,
     NULL, "most observations the model is trained on"},
    {"refit", KT_SETTING_INT, offsetof(bayes_conf, refit), 5, 1, 1e6, NULL,
     "new observations between two fits of the length scales and noise"},
    {"kernel", KT_SETTING_CHOICE, offsetof(bayes_conf, kernel), KT_GP_MATERN52,
     0, 0, "matern52|rbf", "covariance function"},
    {"xi", KT_SETTING_REAL, offsetof(bayes_conf, xi), 0.01, 0, 10, NULL,
     "exploration margin of the expected improvement, in standard "
     "deviations of the observed log-times"},
    {0},
};

typedef struct bayes_obs {
	uint64_t index;
	double score; /* log-time; INFINITY when invalid */
} bayes_obs;

typedef struct bayes {
	kt_strategy_base base;
	bayes_conf conf;
	size_t d;
	KT_VEC(bayes_obs) obs;    /* every objective told, in order */
	KT_VEC(uint64_t) pending; /* asked by this strategy, not told */
	kt_gp gp;
	double *tx, *ty; /* training set being assembled */
	size_t ntrain;
	uint32_t *cfg;
	double *feat; /* features of every configuration, or NULL */
	double ymean, ystd, fbest; /* standardisation, best standardised y */
	size_t fitted_at;          /* observations at the last hyper fit */
	bool tuned;
	uint64_t *cand;
	size_t ncand, cand_cap;
} bayes;

/* Features of configuration index: domain positions scaled to [0, 1]. */
static int features(bayes *s, uint64_t index, double *out)
{
	kt_strategy_base *b = &s->base;
	if (s->feat) {
		memcpy(out, &s->feat[index * s->d], s->d * sizeof(double));
		return 0;
	}
	int rc = kt_space_get(b->space, index, s->cfg);
	if (rc)
		return rc;
	for (size_t p = 0; p < s->d; p++)
		out[p] = b->nvalues[p] > 1
		             ? (double)s->cfg[p] / (double)(b->nvalues[p] - 1)
		             : 0.0;
	return 0;
}

static int add_train(bayes *s, uint64_t index, double y)
{
	int rc = features(s, index, &s->tx[s->ntrain * s->d]);
	if (rc)
		return rc;
	s->ty[s->ntrain++] = y;
	return 0;
}

/* Which observations train the model: all, or the best and the newest. */
static void pick_training(bayes *s, bool *use)
{
	size_t n = s->obs.len, cap = (size_t)s->conf.max_train;
	for (size_t i = 0; i < n; i++)
		use[i] = n <= cap || i >= n - cap / 2;
	if (n <= cap)
		return;
	for (size_t k = 0, taken = cap / 2; taken < cap && k < n; k++) {
		/* the best not yet used; n is bounded by the run, cap is small
		 */
		size_t best = n;
		for (size_t i = 0; i < n; i++)
			if (!use[i] &&
			    (best == n ||
			     s->obs.items[i].score < s->obs.items[best].score))
				best = i;
		if (best == n)
			break;
		use[best] = true;
		taken++;
	}
}

/* Standardised targets of the chosen observations; invalid -> worst. */
static int build_training(bayes *s, bool *use)
{
	double worst = -INFINITY, sum = 0, sum2 = 0;
	size_t nv = 0;
	pick_training(s, use);
	for (size_t i = 0; i < s->obs.len; i++) {
		double y = s->obs.items[i].score;
		if (use[i] && y < INFINITY) {
			worst = y > worst ? y : worst;
			sum += y;
			sum2 += y * y;
			nv++;
		}
	}
	s->ntrain = 0;
	if (nv == 0)
		return 0;
	s->ymean = sum / (double)nv;
	double var = sum2 / (double)nv - s->ymean * s->ymean;
	s->ystd = var > 1e-12 ? sqrt(var) : 1.0;
	s->fbest = INFINITY;
	for (size_t i = 0; i < s->obs.len; i++) {
		if (!use[i])
			continue;
		double y = s->obs.items[i].score;
		double z = ((y < INFINITY ? y : worst) - s->ymean) / s->ystd;
		if (y < INFINITY && z < s->fbest)
			s->fbest = z;
		int rc = add_train(s, s->obs.items[i].index, z);
		if (rc)
			return rc;
	}
	return 0;
}

/* Fits the model to the observations (and believed pending ones). */
static int fit(bayes *s)
{
	bool *use = kt_calloc(s->obs.len ? s->obs.len : 1, sizeof(bool));
	if (!use)
		return kt_error(KT_ENOMEM, "out of memory for a model");
	int rc = build_training(s, use);
	kt_free(use);
	if (rc || s->ntrain == 0)
		return rc;
	if ((rc = kt_gp_set(&s->gp, s->tx, s->ty, s->ntrain)))
		return rc;
	if (!s->tuned || s->obs.len >= s->fitted_at + (size_t)s->conf.refit) {
		s->fitted_at = s->obs.len;
		/* later fits start from the last winner: one sweep will do */
		if ((rc = kt_gp_tune(&s->gp, s->tuned ? 1 : 2)))
			return rc;
		s->tuned = true;
	}
	/* Results still on their way count as what the model predicts. */
	double *x = &s->tx[s->ntrain * s->d];
	size_t believe = s->gp.cap - s->ntrain;
	if (believe > s->pending.len)
		believe = s->pending.len;
	for (size_t i = 0; i < believe; i++) {
		double mean, var;
		if ((rc = features(s, s->pending.items[i], x)))
			return rc;
		kt_gp_predict(&s->gp, x, &mean, &var);
		s->ty[s->ntrain] = mean;
		s->ntrain++;
		x += s->d;
	}
	return believe ? kt_gp_set(&s->gp, s->tx, s->ty, s->ntrain) : 0;
}

static double expected_improvement(double best, double mean, double var)
{
	double sd = sqrt(var);
	double z = (best - mean) / sd;
	double cdf = 0.5 * erfc(-z / sqrt(2.0));
	double pdf = exp(-0.5 * z * z) * 0.3989422804014327; /* 1/sqrt(2 pi) */
	return (best - mean) * cdf + sd * pdf;
}

static int add_cand(bayes *s, uint64_t c)
{
	if (kt_strategy_seen(&s->base, c, NULL) != KT_SEEN_NEW)
		return 0;
	if (s->ncand == s->cand_cap) {
		size_t cap = s->cand_cap ? 2 * s->cand_cap : 1024;
		uint64_t *p = kt_realloc(s->cand, cap * sizeof(*p));
		if (!p)
			return kt_error(KT_ENOMEM,
			                "out of memory for candidates");
		s->cand = p;
		s->cand_cap = cap;
	}
	s->cand[s->ncand++] = c;
	return 0;
}

/* Neighbours (any value of one parameter) of the best few observations. */
static int add_neighbors_of_best(bayes *s, int few)
{
	kt_strategy_base *b = &s->base;
	uint64_t last = UINT64_MAX;
	for (int k = 0; k < few; k++) {
		/* the k-th best, found by a scan: observations are few */
		size_t pick = s->obs.len;
		double bound = k ? s->obs.items[last].score : -INFINITY;
		for (size_t i = 0; i < s->obs.len; i++) {
			double y = s->obs.items[i].score;
			if (y < INFINITY &&
			    (y > bound || (y == bound && i > last)) &&
			    (pick == s->obs.len ||
			     y < s->obs.items[pick].score))
				pick = i;
		}
		if (pick == s->obs.len)
			break;
		last = pick;
		size_t n = kt_space_neighbors(
		    b->space, s->obs.items[pick].index, false, NULL, 0);
		if (n > b->nscratch) {
			uint64_t *p = kt_realloc(b->scratch, n * sizeof(*p));
			if (!p)
				return kt_error(KT_ENOMEM, "out of memory");
			b->scratch = p;
			b->nscratch = n;
		}
		n = kt_space_neighbors(b->space, s->obs.items[pick].index,
		                       false, b->scratch, n);
		for (size_t i = 0; i < n; i++) {
			int rc = add_cand(s, b->scratch[i]);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static int gather_candidates(bayes *s)
{
	kt_strategy_base *b = &s->base;
	int rc;
	s->ncand = 0;
	if (b->count <= (uint64_t)s->conf.exhaustive) {
		for (uint64_t c = 0; c < b->count; c++)
			if ((rc = add_cand(s, c)))
				return rc;
		return 0;
	}
	for (int i = 0; i < s->conf.pool; i++)
		if ((rc = add_cand(s, kt_space_sample(b->space, &b->rng))))
			return rc;
	return add_neighbors_of_best(s, 5);
}

typedef struct ranked {
	double
	    bound; /* expected improvement if the variance were the prior's */
	size_t i;  /* position in the candidate list */
} ranked;

static int by_bound(const void *a, const void *b)
{
	const ranked *x = a, *y = b;
	if (x->bound != y->bound)
		return x->bound > y->bound ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* Every candidate's mean, and the bound its expected improvement obeys. */
static int rank_candidates(bayes *s, ranked *r, double *x)
{
	for (size_t i = 0; i < s->ncand; i++) {
		int rc = features(s, s->cand[i], x);
		if (rc)
			return rc;
		r[i].i = i;
		r[i].bound = expected_improvement(s->fbest - s->conf.xi,
		                                  kt_gp_mean(&s->gp, x), 1.0);
	}
	qsort(r, s->ncand, sizeof(*r), by_bound);
	return 0;
}

/*
 * The candidate of largest expected improvement; 0 when there is none.
 * The posterior variance never exceeds the prior's (1), and expected
 * improvement grows with the variance, so candidates are scored in the
 * order of that bound and the scan stops once the bound falls below the
 * best found: the same choice as scoring all, at a fraction of the O(n^2)
 * variance computations.
 */
static int choose(bayes *s, uint64_t *out)
{
	double *x = &s->tx[s->ntrain * s->d];
	double best_ei = -1;
	size_t best = 0;
	int rc = gather_candidates(s);
	if (rc || s->ncand == 0)
		return rc;
	ranked *r = kt_malloc(s->ncand * sizeof(*r));
	if (!r)
		return kt_error(KT_ENOMEM, "out of memory for candidates");
	if ((rc = rank_candidates(s, r, x)))
		goto done;
	for (size_t k = 0; k < s->ncand && r[k].bound >= best_ei; k++) {
		double mean, var;
		if ((rc = features(s, s->cand[r[k].i], x)))
			goto done;
		kt_gp_predict(&s->gp, x, &mean, &var);
		double ei =
		    expected_improvement(s->fbest - s->conf.xi, mean, var);
		if (ei > best_ei || (ei == best_ei && r[k].i < best)) {
			best_ei = ei;
			best = r[k].i;
		}
	}
	*out = s->cand[best];
	rc = 1;
done:
	kt_free(r);
	return rc;
}

/* Asks for c, and counts it as pending for the believer. */
static int ask_for(bayes *s, uint64_t c)
{
	int rc = kt_strategy_take(&s->base, c);
	if (rc < 0)
		return rc;
	return kt_vec_push(&s->pending, c);
}

static int bayes_propose(kt_strategy_base *b, uint64_t *out, size_t max,
                         size_t *n)
{
	bayes *s = (bayes *)b;
	int rc = 0;
	*n = 0;
	while (*n < max) {
		uint64_t c;
		if (b->ntold_valid == 0 || b->nasked < (uint64_t)s->conf.init) {
			rc = kt_strategy_fresh(b, &c);
		} else {
			if ((rc = fit(s)))
				return rc;
			rc = s->ntrain ? choose(s, &c)
			               : kt_strategy_fresh(b, &c);
		}
		if (rc <= 0 || (rc = ask_for(s, c)))
			break;
		out[(*n)++] = c;
	}
	return rc < 0 ? rc : 0;
}

static int bayes_observe(kt_strategy_base *b, uint64_t index, double y)
{
	bayes *s = (bayes *)b;
	for (size_t i = 0; i < s->pending.len; i++) {
		if (s->pending.items[i] == index) {
			s->pending.items[i] =
			    s->pending.items[--s->pending.len];
			break;
		}
	}
	bayes_obs o = {index, kt_strategy_score(y)};
	return kt_vec_push(&s->obs, o);
}

static void bayes_release(kt_strategy_base *b)
{
	bayes *s = (bayes *)b;
	kt_vec_release(&s->obs);
	kt_vec_release(&s->pending);
	kt_gp_release(&s->gp);
	kt_free(s->tx);
	kt_free(s->ty);
	kt_free(s->cfg);
	kt_free(s->feat);
	kt_free(s->cand);
}

static const kt_strategy_impl bayes_impl = {bayes_propose, bayes_observe,
                                            bayes_release};

/* Features of the whole space, when it is small enough to score whole. */
static int cache_features(bayes *s)
{
	kt_strategy_base *b = &s->base;
	if (b->count > (uint64_t)s->conf.exhaustive)
		return 0;
	double *f =
	    kt_calloc((size_t)b->count * (s->d ? s->d : 1), sizeof(double));
	if (!f)
		return kt_error(KT_ENOMEM, "out of memory for features");
	for (uint64_t c = 0; c < b->count; c++) {
		int rc = features(s, c, &f[c * s->d]);
		if (rc) {
			kt_free(f);
			return rc;
		}
	}
	s->feat = f;
	return 0;
}

static int bayes_setup(bayes *s, const bayes_conf *conf)
{
	size_t d = s->base.nparams, cap = (size_t)conf->max_train;
	s->conf = *conf;
	s->d = d;
	if (s->conf.init == 0)
		s->conf.init = d * 2 > 5 ? (int)(d * 2) : 5;
	/* room for the training set, pending believers, and one candidate */
	size_t room = cap + 64;
	int rc = kt_gp_init(&s->gp, conf->kernel, d, room);
	if (rc)
		return rc;
	s->tx = kt_calloc((room + 1) * (d ? d : 1), sizeof(double));
	s->ty = kt_calloc(room + 1, sizeof(double));
	s->cfg = kt_calloc(d ? d : 1, sizeof(uint32_t));
	if (!s->tx || !s->ty || !s->cfg)
		return kt_error(KT_ENOMEM, "out of memory for a model");
	return cache_features(s);
}

static int bayes_create(kt_strategy **out, const kt_space *space,
                        const kt_strategy_options *opt)
{
	bayes_conf conf;
	*out = NULL;
	int rc = kt_settings_parse(&conf, kt_bayes_settings,
	                           kt_strategy_bayes.name, opt->settings);
	if (rc)
		return rc;
	kt_strategy_base *b;
	rc = kt_strategy_base_new(&b, sizeof(bayes), &kt_strategy_bayes,
	                          &bayes_impl, space, opt);
	if (rc)
		return rc;
	if ((rc = bayes_setup((bayes *)b, &conf))) {
		kt_strategy_base_free(&b->pub);
		return rc;
	}
	*out = &b->pub;
	return 0;
}

const kt_strategy_ops kt_strategy_bayes = {
    "bayes",
    "Bayesian optimisation: a Gaussian process and expected improvement",
    bayes_create,
    kt_strategy_base_ask,
    kt_strategy_base_tell,
    kt_strategy_base_free,
};
