/*
 * strat_genetic.c - a genetic algorithm: a population of configurations,
 * tournament selection, uniform crossover of the parents' domain indices,
 * mutation to neighbouring configurations, and elitism. Each generation is
 * asked as one batch.
 *
 * The design choice: a child is always a valid configuration. Crossover
 * that breaks a constraint is redrawn with a new mask a few times and
 * otherwise falls back to a copy of the first parent; mutation walks only
 * to valid neighbours (kt_space_neighbors). A child already evaluated joins
 * the population with its recorded objective and costs no evaluation; when
 * a whole generation would cost nothing, random immigrants replace half of
 * it, so the search never stalls.
 */
#include "tuner/strategy_impl.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

typedef struct genetic_conf {
	int population;
	int elite;
	int tournament;
	double crossover;
	double mutation;
} genetic_conf;

const kt_setting kt_genetic_settings[] = {
    {"population", KT_SETTING_INT, offsetof(genetic_conf, population), 8, 2,
     100000, NULL, "configurations per generation"},
    {"elite", KT_SETTING_INT, offsetof(genetic_conf, elite), 2, 0, 100000, NULL,
     "best configurations carried into the next generation as they are"},
    {"tournament", KT_SETTING_INT, offsetof(genetic_conf, tournament), 3, 1,
     100, NULL, "contestants drawn for each parent; the best one wins"},
    {"crossover", KT_SETTING_REAL, offsetof(genetic_conf, crossover), 0.9, 0, 1,
     NULL,
     "probability that a child mixes two parents (otherwise it copies one)"},
    {"mutation", KT_SETTING_REAL, offsetof(genetic_conf, mutation), 0.15, 0, 1,
     NULL,
     "probability per parameter of a mutation, a move to a neighbouring "
     "configuration"},
    {0},
};

typedef struct genetic {
	kt_strategy_base base;
	genetic_conf conf;
	size_t size;   /* population size in use */
	uint64_t *pop; /* the current generation */
	double *score; /* their scores, once known */
	size_t npop;
	uint64_t *next; /* the generation being bred */
	size_t nnext;
	uint64_t *todo; /* members of pop not handed out yet */
	size_t ntodo, todo_at;
	uint32_t *a, *b, *child; /* parameter indices */
} genetic;

static bool in_list(const uint64_t *list, size_t n, uint64_t x)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == x)
			return true;
	return false;
}

/* Adds c to the generation being bred; new ones are asked for later. */
static int add_member(genetic *g, uint64_t c)
{
	int rc = kt_strategy_take(&g->base, c);
	if (rc < 0)
		return rc;
	if (rc == 1)
		g->todo[g->ntodo++] = c;
	g->next[g->nnext++] = c;
	return 0;
}

static uint64_t tournament(genetic *g)
{
	size_t best = kt_rng_below(&g->base.rng, g->npop);
	for (int t = 1; t < g->conf.tournament; t++) {
		size_t i = kt_rng_below(&g->base.rng, g->npop);
		if (g->score[i] < g->score[best])
			best = i;
	}
	return g->pop[best];
}

/* Uniform crossover of g->a and g->b into a valid configuration's index. */
static int64_t cross(genetic *g)
{
	kt_strategy_base *b = &g->base;
	for (int attempt = 0; attempt < 8; attempt++) {
		for (size_t p = 0; p < b->nparams; p++)
			g->child[p] =
			    kt_rng_below(&b->rng, 2) ? g->a[p] : g->b[p];
		int64_t c = kt_space_index_of(b->space, g->child);
		if (c >= 0)
			return c;
	}
	return -1;
}

static uint64_t mutate(genetic *g, uint64_t c)
{
	kt_strategy_base *b = &g->base;
	for (size_t p = 0; p < b->nparams; p++) {
		if (kt_rng_double(&b->rng) >= g->conf.mutation)
			continue;
		uint64_t m;
		bool adjacent = kt_rng_below(&b->rng, 2);
		if (kt_strategy_neighbor(b, c, adjacent, &m))
			c = m;
	}
	return c;
}

/* One child that is neither in the new generation nor pending. */
static int breed_child(genetic *g, uint64_t *out)
{
	kt_strategy_base *b = &g->base;
	uint64_t pa = tournament(g), pb = tournament(g), c = pa;
	int rc;
	if (kt_rng_double(&b->rng) < g->conf.crossover) {
		if ((rc = kt_space_get(b->space, pa, g->a)) ||
		    (rc = kt_space_get(b->space, pb, g->b)))
			return rc;
		int64_t x = cross(g);
		if (x >= 0)
			c = (uint64_t)x;
	}
	c = mutate(g, c);
	for (int t = 0; t < 8; t++) {
		kt_seen seen = kt_strategy_seen(b, c, NULL);
		if (!in_list(g->next, g->nnext, c) && seen != KT_SEEN_PENDING) {
			*out = c;
			return 1;
		}
		uint64_t m;
		if (!kt_strategy_neighbor(b, c, false, &m))
			break;
		c = m;
	}
	return kt_strategy_fresh(b, out);
}

static void sort_by_score(genetic *g)
{
	/* Insertion sort: populations are small, and it is stable. */
	for (size_t i = 1; i < g->npop; i++) {
		uint64_t x = g->pop[i];
		double s = g->score[i];
		size_t j = i;
		for (; j > 0 && g->score[j - 1] > s; j--) {
			g->pop[j] = g->pop[j - 1];
			g->score[j] = g->score[j - 1];
		}
		g->pop[j] = x;
		g->score[j] = s;
	}
}

/* Random configurations for the rest of the generation being bred. */
static int immigrate(genetic *g, size_t upto)
{
	while (g->nnext < upto) {
		uint64_t c;
		int rc = kt_strategy_fresh(&g->base, &c);
		if (rc <= 0)
			return rc;
		if ((rc = add_member(g, c)))
			return rc;
	}
	return 0;
}

static void start_generation(genetic *g)
{
	uint64_t *t = g->pop;
	g->pop = g->next;
	g->npop = g->nnext;
	g->next = t;
	g->nnext = 0;
	g->todo_at = 0;
}

static int breed(genetic *g)
{
	int rc;
	g->ntodo = g->todo_at = 0;
	g->nnext = 0;
	sort_by_score(g);
	for (size_t i = 0; i < (size_t)g->conf.elite && i < g->npop; i++)
		if (g->score[i] < INFINITY)
			g->next[g->nnext++] = g->pop[i];
	while (g->nnext < g->size) {
		uint64_t c;
		if ((rc = breed_child(g, &c)) < 0)
			return rc;
		if (rc == 0)
			break;
		if ((rc = add_member(g, c)))
			return rc;
	}
	if (g->ntodo == 0) {
		g->nnext = g->nnext / 2;
		if ((rc = immigrate(g, g->size)))
			return rc;
	}
	start_generation(g);
	return 0;
}

/* Every member's objective is known: scores filled, true. */
static bool generation_known(genetic *g)
{
	for (size_t i = 0; i < g->npop; i++) {
		double y;
		if (kt_strategy_seen(&g->base, g->pop[i], &y) != KT_SEEN_KNOWN)
			return false;
		g->score[i] = kt_strategy_score(y);
	}
	return true;
}

static int genetic_propose(kt_strategy_base *b, uint64_t *out, size_t max,
                           size_t *n)
{
	genetic *g = (genetic *)b;
	int rc;
	*n = 0;
	if (g->npop == 0) {
		if ((rc = immigrate(g, g->size)))
			return rc;
		start_generation(g);
	} else if (g->todo_at == g->ntodo && generation_known(g)) {
		if ((rc = breed(g)))
			return rc;
	}
	while (*n < max && g->todo_at < g->ntodo)
		out[(*n)++] = g->todo[g->todo_at++];
	return 0;
}

static void genetic_release(kt_strategy_base *b)
{
	genetic *g = (genetic *)b;
	kt_free(g->pop);
	kt_free(g->score);
	kt_free(g->next);
	kt_free(g->todo);
	kt_free(g->a);
	kt_free(g->b);
	kt_free(g->child);
}

static const kt_strategy_impl genetic_impl = {genetic_propose, NULL,
                                              genetic_release};

static int genetic_alloc(genetic *g)
{
	size_t np = g->base.nparams ? g->base.nparams : 1;
	g->pop = kt_calloc(g->size, sizeof(uint64_t));
	g->score = kt_calloc(g->size, sizeof(double));
	g->next = kt_calloc(g->size, sizeof(uint64_t));
	g->todo = kt_calloc(g->size, sizeof(uint64_t));
	g->a = kt_calloc(np, sizeof(uint32_t));
	g->b = kt_calloc(np, sizeof(uint32_t));
	g->child = kt_calloc(np, sizeof(uint32_t));
	if (!g->pop || !g->score || !g->next || !g->todo || !g->a || !g->b ||
	    !g->child)
		return kt_error(KT_ENOMEM, "out of memory for a population");
	return 0;
}

static int genetic_create(kt_strategy **out, const kt_space *space,
                          const kt_strategy_options *opt)
{
	genetic_conf conf;
	*out = NULL;
	int rc = kt_settings_parse(&conf, kt_genetic_settings,
	                           kt_strategy_genetic.name, opt->settings);
	if (rc)
		return rc;
	if (conf.elite >= conf.population)
		return kt_error(KT_EINVALID,
		                "setting 'elite' of strategy 'genetic' must be "
		                "below the population (%d)",
		                conf.population);
	kt_strategy_base *b;
	rc = kt_strategy_base_new(&b, sizeof(genetic), &kt_strategy_genetic,
	                          &genetic_impl, space, opt);
	if (rc)
		return rc;
	genetic *g = (genetic *)b;
	g->conf = conf;
	g->size = (size_t)conf.population;
	if ((rc = genetic_alloc(g))) {
		kt_strategy_base_free(&b->pub);
		return rc;
	}
	*out = &b->pub;
	return 0;
}

const kt_strategy_ops kt_strategy_genetic = {
    "genetic",
    "a genetic algorithm: tournaments, uniform crossover, mutation, elitism",
    genetic_create,
    kt_strategy_base_ask,
    kt_strategy_base_tell,
    kt_strategy_base_free,
};
