/*
 * strat_local.c - greedy iterated local search. From a start, descend: try
 * the neighbours of the current configuration (the next lower or higher
 * value of one parameter) and move to a better one, either the first found
 * (first improvement, in random order) or the best of all (best
 * improvement). At a local optimum, perturb the best optimum found so far
 * by a few random moves and descend again; after `patience` perturbations
 * that found nothing better, restart from a random configuration.
 *
 * The design choice: as in annealing, proposals are judged in the order
 * they were made, whenever their results arrive, so a batch of neighbours
 * is as natural as one at a time.
 */
#include "tuner/strategy_impl.h"

#include <math.h>
#include <stddef.h>

#include "util/vec.h"

enum { IMPROVE_FIRST, IMPROVE_BEST };
enum { HOOD_ADJACENT, HOOD_ALL };

typedef struct local_conf {
	int improvement;
	int neighborhood;
	int strength;
	int patience;
} local_conf;

const kt_setting kt_local_settings[] = {
    {"improvement", KT_SETTING_CHOICE, offsetof(local_conf, improvement),
     IMPROVE_FIRST, 0, 0, "first|best",
     "move to the first better neighbour found, or to the best of all"},
    {"neighborhood", KT_SETTING_CHOICE, offsetof(local_conf, neighborhood),
     HOOD_ADJACENT, 0, 0, "adjacent|all",
     "neighbours change one parameter to its next lower or higher value, "
     "or to any value"},
    {"strength", KT_SETTING_INT, offsetof(local_conf, strength), 3, 1, 1000,
     NULL, "random moves (to any value of one parameter) per perturbation"},
    {"patience", KT_SETTING_INT, offsetof(local_conf, patience), 4, 1, 1e6,
     NULL, "perturbations without a better optimum before a random restart"},
    {0},
};

typedef struct local_entry {
	uint64_t index;
	uint64_t from; /* the configuration whose neighbour it is */
	bool start;
} local_entry;

typedef struct local {
	kt_strategy_base base;
	local_conf conf;
	bool has_cur;
	uint64_t cur;
	double cur_score;
	uint64_t *hood; /* neighbours of cur, shuffled */
	size_t nhood, hood_at, hood_cap;
	size_t waiting; /* neighbours of cur asked and not yet judged */
	bool has_cand;  /* best improvement: the best neighbour so far */
	uint64_t cand;
	double cand_score;
	bool has_opt; /* the best local optimum found */
	uint64_t opt;
	double opt_score;
	int fails;
	KT_VEC(local_entry) queue;
	size_t head;
} local;

static int load_hood(local *s)
{
	kt_strategy_base *b = &s->base;
	bool adj = s->conf.neighborhood == HOOD_ADJACENT;
	size_t n =
	    kt_space_neighbors(b->space, s->cur, adj, s->hood, s->hood_cap);
	if (n > s->hood_cap) {
		uint64_t *p = kt_realloc(s->hood, n * sizeof(*p));
		if (!p)
			return kt_error(KT_ENOMEM,
			                "out of memory for neighbours");
		s->hood = p;
		s->hood_cap = n;
		n = kt_space_neighbors(b->space, s->cur, adj, s->hood, n);
	}
	for (size_t i = n; i > 1; i--) {
		size_t j = kt_rng_below(&b->rng, i);
		uint64_t t = s->hood[i - 1];
		s->hood[i - 1] = s->hood[j];
		s->hood[j] = t;
	}
	s->nhood = n;
	s->hood_at = 0;
	s->waiting = 0;
	s->has_cand = false;
	return 0;
}

static int move_to(local *s, uint64_t c, double sc)
{
	s->has_cur = true;
	s->cur = c;
	s->cur_score = sc;
	return load_hood(s);
}

/* Judges a neighbour of `from` whose objective is y. */
static int judge(local *s, uint64_t c, uint64_t from, double y)
{
	double sc = kt_strategy_score(y);
	bool of_cur = s->has_cur && from == s->cur;
	if (of_cur && s->waiting)
		s->waiting--;
	if (!s->has_cur || sc >= s->cur_score)
		return 0;
	if (s->conf.improvement == IMPROVE_BEST && of_cur) {
		if (!s->has_cand || sc < s->cand_score) {
			s->has_cand = true;
			s->cand = c;
			s->cand_score = sc;
		}
		return 0;
	}
	return move_to(s, c, sc);
}

/* A start: a perturbation of the best optimum, or a random configuration. */
static int next_start(local *s, uint64_t *out)
{
	kt_strategy_base *b = &s->base;
	if (s->has_opt && s->fails < s->conf.patience) {
		uint64_t c = s->opt;
		for (int t = 0; t < 4 * s->conf.strength; t++) {
			for (int k = 0; k < s->conf.strength; k++)
				kt_strategy_neighbor(b, c, false, &c);
			if (kt_strategy_seen(b, c, NULL) == KT_SEEN_NEW) {
				*out = c;
				return 1;
			}
			c = s->opt;
		}
	}
	s->fails = 0;
	return kt_strategy_fresh(b, out);
}

/* cur is a local optimum: remember it, and leave it. */
static void at_optimum(local *s)
{
	if (!s->has_opt || s->cur_score < s->opt_score) {
		s->has_opt = true;
		s->opt = s->cur;
		s->opt_score = s->cur_score;
		s->fails = 0;
	} else {
		s->fails++;
	}
	s->has_cur = false;
}

static int push(local *s, uint64_t c, uint64_t from, bool start)
{
	local_entry e = {c, from, start};
	int rc = kt_strategy_take(&s->base, c);
	if (rc < 0)
		return rc;
	return kt_vec_push(&s->queue, e);
}

/* The next new neighbour of cur to ask for; 0 when none is left to ask. */
static int next_neighbor(local *s, uint64_t *out)
{
	while (s->has_cur && s->hood_at < s->nhood) {
		uint64_t c = s->hood[s->hood_at++];
		double y;
		kt_seen seen = kt_strategy_seen(&s->base, c, &y);
		if (seen == KT_SEEN_NEW) {
			*out = c;
			return 1;
		}
		if (seen == KT_SEEN_KNOWN) {
			s->waiting++;
			int rc = judge(s, c, s->cur, y);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* Neighbourhood done: move to the best candidate, or it is an optimum. */
static int settle(local *s)
{
	if (!s->has_cur || s->hood_at < s->nhood || s->waiting)
		return 0;
	if (s->has_cand)
		return move_to(s, s->cand, s->cand_score);
	at_optimum(s);
	return 0;
}

static int local_propose(kt_strategy_base *b, uint64_t *out, size_t max,
                         size_t *n)
{
	local *s = (local *)b;
	int rc = 0;
	*n = 0;
	while (*n < max) {
		uint64_t c;
		if (!s->has_cur) {
			if (s->head < s->queue.len)
				break; /* a start is on its way */
			if ((rc = next_start(s, &c)) <= 0 ||
			    (rc = push(s, c, c, true)))
				break;
			out[(*n)++] = c;
			break;
		}
		if ((rc = next_neighbor(s, &c)) < 0)
			break;
		if (rc == 0) {
			if (s->waiting || (rc = settle(s)))
				break; /* results are on their way */
			continue; /* moved on, or at an optimum: a new start */
		}
		if ((rc = push(s, c, s->cur, false)))
			break;
		s->waiting++;
		out[(*n)++] = c;
	}
	return rc < 0 ? rc : 0;
}

static int local_observe(kt_strategy_base *b, uint64_t index, double y)
{
	local *s = (local *)b;
	int rc = 0;
	while (!rc && s->head < s->queue.len) {
		local_entry e = s->queue.items[s->head];
		double v;
		if (kt_strategy_seen(b, e.index, &v) != KT_SEEN_KNOWN)
			break;
		s->head++;
		if (e.start && !s->has_cur) {
			double sc = kt_strategy_score(v);
			if (sc < INFINITY)
				rc = move_to(s, e.index, sc);
			else
				s->fails++;
		} else {
			rc = judge(s, e.index, e.from, v);
		}
		if (!rc)
			rc = settle(s);
	}
	if (s->head == s->queue.len)
		s->head = s->queue.len = 0;
	return rc;
}

static void local_release(kt_strategy_base *b)
{
	local *s = (local *)b;
	kt_free(s->hood);
	kt_vec_release(&s->queue);
}

static const kt_strategy_impl local_impl = {local_propose, local_observe,
                                            local_release};

static int local_create(kt_strategy **out, const kt_space *space,
                        const kt_strategy_options *opt)
{
	local_conf conf;
	*out = NULL;
	int rc = kt_settings_parse(&conf, kt_local_settings,
	                           kt_strategy_local.name, opt->settings);
	if (rc)
		return rc;
	kt_strategy_base *b;
	rc = kt_strategy_base_new(&b, sizeof(local), &kt_strategy_local,
	                          &local_impl, space, opt);
	if (rc)
		return rc;
	((local *)b)->conf = conf;
	*out = &b->pub;
	return 0;
}

const kt_strategy_ops kt_strategy_local = {
    "local_search",
    "greedy iterated local search: descents, perturbations, restarts",
    local_create,
    kt_strategy_base_ask,
    kt_strategy_base_tell,
    kt_strategy_base_free,
};
