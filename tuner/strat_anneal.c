/*
 * strat_anneal.c - simulated annealing over the neighbours of the current
 * configuration, on log-time (so a temperature means a relative slowdown:
 * at T = 0.1 a move 10% slower is taken with probability 1/e).
 *
 * The design choice: proposals wait in a first-in first-out queue and are
 * judged in the order they were proposed, whenever their results come
 * back. A tuner that asks one at a time gets textbook annealing; one that
 * asks for a batch gets several neighbours of the current state, judged in
 * turn. The temperature falls geometrically with the evaluations told, from
 * t0 to t_end over one period; then the search restarts, alternately from
 * the best configuration seen and from a random one.
 */
#include "tuner/strategy_impl.h"

#include <math.h>
#include <stddef.h>

#include "util/vec.h"

typedef struct anneal_conf {
	double t0, t_end;
	int period;
	double adjacent;
	int tries;
} anneal_conf;

const kt_setting kt_annealing_settings[] = {
    {"t0", KT_SETTING_REAL, offsetof(anneal_conf, t0), 0.05, 1e-6, 100, NULL,
     "temperature at the start of a period, in log-time units"},
    {"t_end", KT_SETTING_REAL, offsetof(anneal_conf, t_end), 0.002, 1e-9, 100,
     NULL, "temperature at the end of a period"},
    {"period", KT_SETTING_INT, offsetof(anneal_conf, period), 0, 0, 1e9, NULL,
     "evaluations from t0 to t_end before a restart; 0: a third of the "
     "budget (at least 30), or 100 without a budget"},
    {"adjacent", KT_SETTING_REAL, offsetof(anneal_conf, adjacent), 0.7, 0, 1,
     NULL,
     "probability that a move goes to the next lower or higher value of "
     "one parameter (otherwise to any value of it)"},
    {"tries", KT_SETTING_INT, offsetof(anneal_conf, tries), 30, 1, 1e6, NULL,
     "neighbours drawn before the state counts as surrounded by visited "
     "configurations and the search jumps to a random one"},
    {0},
};

typedef struct anneal {
	kt_strategy_base base;
	anneal_conf conf;
	bool has_cur;
	uint64_t cur;
	double cur_score;
	uint64_t period;
	uint64_t period_start; /* ntold when the current period began */
	uint64_t restarts;
	KT_VEC(uint64_t) queue; /* proposals, judged in this order */
	size_t head;
} anneal;

static double temperature(const anneal *s)
{
	double f =
	    (double)(s->base.ntold - s->period_start) / (double)s->period;
	if (f > 1)
		f = 1;
	return s->conf.t0 * pow(s->conf.t_end / s->conf.t0, f);
}

/*
 * Metropolis: move to index if it is better, or by chance if worse. Without
 * a state (at the start, after a restart) any valid configuration is taken.
 */
static void judge(anneal *s, uint64_t index, double y)
{
	double sc = kt_strategy_score(y);
	if (sc == INFINITY)
		return;
	if (!s->has_cur || sc <= s->cur_score ||
	    kt_rng_double(&s->base.rng) <
	        exp(-(sc - s->cur_score) / temperature(s))) {
		s->has_cur = true;
		s->cur = index;
		s->cur_score = sc;
	}
}

/* At the end of a period: start again from the best, or from anywhere. */
static void maybe_restart(anneal *s)
{
	kt_strategy_base *b = &s->base;
	if (b->ntold - s->period_start < s->period)
		return;
	s->period_start = b->ntold;
	s->restarts++;
	if (s->restarts % 2 == 1 && b->ntold_valid) {
		s->cur = b->best_index;
		s->cur_score = kt_strategy_score(b->best);
		s->has_cur = true;
	} else {
		s->has_cur = false;
	}
}

/* One new neighbour of the state; 0 when none was found in conf.tries. */
static int next_move(anneal *s, uint64_t *out)
{
	kt_strategy_base *b = &s->base;
	for (int t = 0; t < s->conf.tries; t++) {
		bool adj = kt_rng_double(&b->rng) < s->conf.adjacent;
		uint64_t c;
		double y;
		if (!kt_strategy_neighbor(b, s->cur, adj, &c))
			continue;
		kt_seen seen = kt_strategy_seen(b, c, &y);
		if (seen == KT_SEEN_NEW) {
			*out = c;
			return 1;
		}
		if (seen == KT_SEEN_KNOWN)
			judge(s, c, y); /* a known move costs nothing */
	}
	return 0;
}

static int anneal_propose(kt_strategy_base *b, uint64_t *out, size_t max,
                          size_t *n)
{
	anneal *s = (anneal *)b;
	size_t k = 0;
	while (k < max) {
		uint64_t c;
		bool jump = !s->has_cur;
		int rc = jump ? 0 : next_move(s, &c);
		if (rc == 0) {
			/* Surrounded by visited configurations: jump. */
			jump = true;
			s->has_cur = false;
			rc = kt_strategy_fresh(b, &c);
		}
		if (rc <= 0) {
			*n = k;
			return rc;
		}
		if ((rc = kt_strategy_take(b, c)) < 0 ||
		    (rc = kt_vec_push(&s->queue, c)))
			return rc;
		out[k++] = c;
		if (jump)
			break; /* wait to hear where the search landed */
	}
	*n = k;
	return 0;
}

static int anneal_observe(kt_strategy_base *b, uint64_t index, double y)
{
	anneal *s = (anneal *)b;
	while (s->head < s->queue.len) {
		uint64_t c = s->queue.items[s->head];
		double v;
		if (kt_strategy_seen(b, c, &v) != KT_SEEN_KNOWN)
			break;
		judge(s, c, v);
		s->head++;
	}
	if (s->head == s->queue.len)
		s->head = s->queue.len = 0;
	maybe_restart(s);
	return 0;
}

static void anneal_release(kt_strategy_base *b)
{
	anneal *s = (anneal *)b;
	kt_vec_release(&s->queue);
}

static const kt_strategy_impl anneal_impl = {anneal_propose, anneal_observe,
                                             anneal_release};

static int anneal_create(kt_strategy **out, const kt_space *space,
                         const kt_strategy_options *opt)
{
	anneal_conf conf;
	*out = NULL;
	int rc = kt_settings_parse(&conf, kt_annealing_settings,
	                           kt_strategy_annealing.name, opt->settings);
	if (rc)
		return rc;
	kt_strategy_base *b;
	rc = kt_strategy_base_new(&b, sizeof(anneal), &kt_strategy_annealing,
	                          &anneal_impl, space, opt);
	if (rc)
		return rc;
	anneal *s = (anneal *)b;
	s->conf = conf;
	s->period = conf.period ? (uint64_t)conf.period
	            : opt->budget
	                ? (opt->budget / 3 > 30 ? opt->budget / 3 : 30)
	                : 100;
	*out = &b->pub;
	return 0;
}

const kt_strategy_ops kt_strategy_annealing = {
    "simulated_annealing",
    "annealing over neighbouring configurations, with restarts",
    anneal_create,
    kt_strategy_base_ask,
    kt_strategy_base_tell,
    kt_strategy_base_free,
};
