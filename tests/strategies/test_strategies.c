/*
 * test_strategies.c - the search strategies: reproducible from the seed,
 * never asking twice or out of range, ending on tiny and all-invalid
 * spaces, batches, settings, and the model-based and local strategies
 * beating random search on a smooth function.
 *
 * Spaces come from real `#pragma kt` text through the parser and the space
 * builder, so the strategies see what `ktc tune` gives them.
 */
#include "check.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "ktc/space.h"
#include "ktc/strategy.h"
#include "tuner/strategy_gp.h"
#include "tuner/strategy_impl.h"

/* Five parameters, three constraints: the shape of a tiled kernel. */
static const char tiled_src[] =
    "#pragma kt param BX pow2(16, 512) default(64)\n"
    "#pragma kt param BY pow2(1, 16) default(4)\n"
    "#pragma kt param TX values(1, 2, 3, 4, 6, 8) default(1)\n"
    "#pragma kt param TY values(1, 2, 4, 8) default(1)\n"
    "#pragma kt param UNROLL values(0, 1, 2, 4) default(0)\n"
    "#pragma kt constraint BX * BY <= 1024\n"
    "#pragma kt constraint BX * BY >= 64\n"
    "#pragma kt constraint TX * TY <= 32\n"
    "__global__ void k(float *a) {}\n";

/* 34 configurations: (A + B) % 3 == 0 over 0..9 x 0..9. */
static const char small_src[] = "#pragma kt param A range(0, 9) default(0)\n"
                                "#pragma kt param B range(0, 9) default(0)\n"
                                "#pragma kt constraint (A + B) % 3 == 0\n"
                                "__global__ void k(float *a) {}\n";

static const char one_src[] = "#pragma kt param A values(7) default(7)\n"
                              "__global__ void k(float *a) {}\n";

typedef struct tspace {
	kt_template *t;
	kt_space *s;
	uint64_t count;
} tspace;

static bool tspace_open(tspace *ts, const char *src)
{
	kt_diags d;
	kt_diags_init(&d);
	ts->t = NULL;
	ts->s = NULL;
	int rc = kt_template_parse(&ts->t, "test.kt.cu", src, &d);
	if (!rc)
		rc = kt_space_build(&ts->s, kt_template_model(ts->t, NULL),
		                    NULL, NULL, &d);
	if (rc)
		kt_diags_print(&d, stderr, 0);
	kt_diags_release(&d);
	ts->count = rc ? 0 : kt_space_count(ts->s);
	return rc == 0;
}

static void tspace_close(tspace *ts)
{
	kt_space_free(ts->s);
	kt_template_free(ts->t);
}

/* An objective per configuration, precomputed. */
typedef struct landscape {
	double *y;
	uint64_t n;
	double best;
} landscape;

/*
 * A smooth function of the parameters' domain positions u in [0, 1]:
 * 1 + sum w_p (u_p - c_p)^2 with a fixed optimum c and weights w.
 */
static void smooth_landscape(landscape *l, const tspace *ts)
{
	static const double c[] = {0.7, 0.3, 0.55, 0.4, 0.8};
	static const double w[] = {3.0, 2.0, 2.5, 1.5, 1.0};
	const kt_model *m = kt_space_model(ts->s);
	uint32_t idx[8];
	l->n = ts->count;
	l->y = calloc(l->n, sizeof(double));
	l->best = INFINITY;
	for (uint64_t i = 0; i < l->n; i++) {
		kt_space_get(ts->s, i, idx);
		double f = 1;
		for (size_t p = 0; p < m->nparams && p < 5; p++) {
			double u =
			    (double)idx[p] / (double)(m->params[p].nvalues - 1);
			f += w[p] * (u - c[p]) * (u - c[p]);
		}
		l->y[i] = f;
		l->best = f < l->best ? f : l->best;
	}
}

/* The outcome of one driven run. */
typedef struct trace {
	uint64_t seq[4096];
	size_t n;
	bool valid; /* every index in range, none asked twice */
	bool ended; /* ask said nothing more (before the budget ran out) */
	size_t
	    to_target; /* evaluations until within 5% of the best; 0: never */
} trace;

typedef struct drive_opts {
	const char *name;
	uint64_t seed;
	const char *const *settings;
	size_t budget;
	size_t batch;
	bool pipelined; /* ask the next batch before telling the last */
	bool stop_at_target;
} drive_opts;

static int told(kt_strategy *s, const landscape *l, uint64_t i, trace *t,
                double *best)
{
	double y = l ? l->y[i] : INFINITY;
	if (y < *best)
		*best = y;
	if (l && !t->to_target && *best <= 1.05 * l->best)
		t->to_target = t->n;
	return kt_strategy_tell(s, i, y);
}

/* Records asked indices; returns false when ask said nothing more. */
static bool ask_some(kt_strategy *s, const drive_opts *o, trace *t, bool *seen,
                     uint64_t count, uint64_t *buf, size_t *nbuf)
{
	size_t max = o->batch ? o->batch : 1, n = 0;
	if (max > o->budget - t->n)
		max = o->budget - t->n;
	if (kt_strategy_ask(s, buf, max, &n) != 0 || n > max)
		t->valid = false;
	for (size_t k = 0; k < n && t->n < o->budget; k++) {
		if (buf[k] >= count || seen[buf[k]])
			t->valid = false;
		else
			seen[buf[k]] = true;
		t->seq[t->n++] = buf[k];
	}
	*nbuf = n;
	return n > 0;
}

static void drive(trace *t, const tspace *ts, const landscape *l,
                  const drive_opts *o)
{
	kt_strategy *s = NULL;
	kt_strategy_options so = {o->seed, o->budget, o->settings};
	bool *seen = calloc(ts->count + 1, 1);
	uint64_t a[64], b[64];
	size_t na = 0, nb = 0;
	double best = INFINITY;
	t->n = 0;
	t->valid = true;
	t->ended = false;
	t->to_target = 0;
	CHECK_EQ_INT(kt_strategy_create(&s, o->name, ts->s, &so), 0);
	if (!s)
		goto done;
	if (o->pipelined && !ask_some(s, o, t, seen, ts->count, a, &na)) {
		t->ended = true;
		goto done;
	}
	while (t->n < o->budget) {
		bool got = ask_some(s, o, t, seen, ts->count, b, &nb);
		/* pipelined: tell the older batch now, keep the newer one out
		 */
		uint64_t *tell = o->pipelined ? a : b;
		size_t ntell = o->pipelined ? na : nb;
		for (size_t k = 0; k < ntell; k++)
			told(s, l, tell[k], t, &best);
		if (o->pipelined) {
			memcpy(a, b, nb * sizeof(*b));
			na = nb;
		}
		if (!got) {
			t->ended = true;
			break;
		}
		if (o->stop_at_target && t->to_target)
			break;
	}
done:
	kt_strategy_free(s);
	free(seen);
}

static const char *const all_names[] = {
    "brute_force", "random",       "simulated_annealing",
    "genetic",     "local_search", "bayes",
};
enum { NSTRAT = sizeof(all_names) / sizeof(all_names[0]) };

static void each_strategy_is_reproducible_from_its_seed(void)
{
	tspace ts;
	landscape l;
	CHECK(tspace_open(&ts, tiled_src));
	if (!ts.s)
		return;
	smooth_landscape(&l, &ts);
	static trace t1, t2, t3;
	for (int i = 0; i < NSTRAT; i++) {
		drive_opts o = {all_names[i], 7, NULL, 80, 1, false, false};
		drive(&t1, &ts, &l, &o);
		drive(&t2, &ts, &l, &o);
		o.seed = 8;
		drive(&t3, &ts, &l, &o);
		CHECK(t1.valid && t2.valid && t3.valid);
		CHECK_EQ_INT(t1.n, 80);
		bool differs = t1.n != t3.n ||
		               memcmp(t1.seq, t3.seq, t1.n * sizeof(t1.seq[0]));
		if (i == 0)
			CHECK(!differs); /* brute force ignores the seed */
		else if (!differs)
			CHECK_EQ_STR(all_names[i], "differs with the seed");
		if (t1.n != t2.n ||
		    memcmp(t1.seq, t2.seq, t1.n * sizeof(t1.seq[0])))
			CHECK_EQ_STR(all_names[i], "same with the same seed");
	}
	free(l.y);
	tspace_close(&ts);
}

static void brute_force_walks_the_space_in_order_once(void)
{
	tspace ts;
	CHECK(tspace_open(&ts, tiled_src));
	if (!ts.s)
		return;
	static trace t;
	drive_opts o = {"brute_force", 1, NULL, 4096, 7, false, false};
	drive(&t, &ts, NULL, &o);
	CHECK(t.valid && t.ended);
	CHECK_EQ_INT(t.n, ts.count);
	for (size_t i = 0; i < t.n; i++)
		if (t.seq[i] != i)
			CHECK_EQ_INT(t.seq[i], i);
	tspace_close(&ts);
}

static void random_draws_every_configuration_exactly_once(void)
{
	const char *srcs[] = {small_src, tiled_src};
	for (int k = 0; k < 2; k++) {
		tspace ts;
		CHECK(tspace_open(&ts, srcs[k]));
		if (!ts.s)
			continue;
		static trace t;
		drive_opts o = {"random", 3, NULL, 4096, 5, false, false};
		drive(&t, &ts, NULL, &o);
		CHECK(t.valid && t.ended); /* valid: no index twice */
		CHECK_EQ_INT(t.n, ts.count);
		bool ordered = true;
		for (size_t i = 0; i < t.n; i++)
			ordered = ordered && t.seq[i] == i;
		CHECK(!ordered);
		tspace_close(&ts);
	}
}

/* Uniform: over many seeds, each of 34 configurations comes first ~1/34. */
static void random_first_draw_is_uniform(void)
{
	tspace ts;
	CHECK(tspace_open(&ts, small_src));
	if (!ts.s)
		return;
	CHECK_EQ_INT(ts.count, 34);
	int hits[34] = {0};
	for (uint64_t seed = 0; seed < 3400; seed++) {
		kt_strategy *s;
		kt_strategy_options so = {seed, 0, NULL};
		uint64_t i = 99;
		size_t n = 0;
		CHECK_EQ_INT(kt_strategy_create(&s, "random", ts.s, &so), 0);
		kt_strategy_ask(s, &i, 1, &n);
		if (n == 1 && i < 34)
			hits[i]++;
		kt_strategy_free(s);
	}
	for (int i = 0; i < 34; i++)
		CHECK(hits[i] > 50 && hits[i] < 160); /* mean 100, sd ~10 */
	tspace_close(&ts);
}

/* No strategy asks twice, so each one exhausts a small space exactly. */
static void every_strategy_exhausts_a_small_space_exactly(void)
{
	tspace ts;
	landscape l;
	CHECK(tspace_open(&ts, small_src));
	if (!ts.s)
		return;
	smooth_landscape(&l, &ts);
	static trace t;
	for (int i = 0; i < NSTRAT; i++) {
		for (size_t batch = 1; batch <= 4; batch += 3) {
			drive_opts o = {all_names[i], 5,     NULL, 4096,
			                batch,        false, false};
			drive(&t, &ts, &l, &o);
			CHECK(t.valid && t.ended);
			if (t.n != ts.count)
				CHECK_EQ_STR(all_names[i], "exhausted exactly");
		}
	}
	free(l.y);
	tspace_close(&ts);
}

static void every_strategy_ends_on_a_one_configuration_space(void)
{
	tspace ts;
	CHECK(tspace_open(&ts, one_src));
	if (!ts.s)
		return;
	CHECK_EQ_INT(ts.count, 1);
	static trace t;
	for (int i = 0; i < NSTRAT; i++) {
		drive_opts o = {all_names[i], 1, NULL, 100, 1, false, false};
		drive(&t, &ts, NULL, &o);
		CHECK(t.valid && t.ended);
		CHECK_EQ_INT(t.n, 1);
	}
	tspace_close(&ts);
}

/* Every objective invalid (INFINITY): the search still ends, exactly. */
static void every_strategy_ends_when_everything_is_invalid(void)
{
	tspace ts;
	CHECK(tspace_open(&ts, tiled_src));
	if (!ts.s)
		return;
	static trace t;
	for (int i = 0; i < NSTRAT; i++) {
		drive_opts o = {all_names[i], 2, NULL, 4096, 1, false, false};
		drive(&t, &ts, NULL, &o);
		CHECK(t.valid && t.ended);
		if (t.n != ts.count)
			CHECK_EQ_STR(all_names[i], "ended after every config");
	}
	tspace_close(&ts);
}

/* Asking the next batch before the last one is told (parallel compiles). */
static void every_strategy_copes_with_results_that_lag(void)
{
	tspace ts;
	landscape l;
	CHECK(tspace_open(&ts, tiled_src));
	if (!ts.s)
		return;
	smooth_landscape(&l, &ts);
	static trace t;
	for (int i = 0; i < NSTRAT; i++) {
		drive_opts o = {all_names[i], 9, NULL, 120, 4, true, false};
		drive(&t, &ts, &l, &o);
		CHECK(t.valid);
		CHECK_EQ_INT(t.n, 120);
	}
	free(l.y);
	tspace_close(&ts);
}

static void strategies_are_found_by_name_and_alias(void)
{
	for (int i = 0; i < NSTRAT; i++)
		CHECK(kt_strategy_find(all_names[i]) != NULL);
	CHECK(kt_strategy_find("ga") == kt_strategy_find("genetic"));
	CHECK(kt_strategy_find("bo") == kt_strategy_find("bayes"));
	CHECK(kt_strategy_find("ils") == kt_strategy_find("local_search"));
	CHECK(kt_strategy_find("sa") ==
	      kt_strategy_find("simulated_annealing"));
	CHECK(kt_strategy_find("hill") == NULL);
	tspace ts;
	CHECK(tspace_open(&ts, small_src));
	if (!ts.s)
		return;
	kt_strategy *s = NULL;
	CHECK_EQ_INT(kt_strategy_create(&s, "hill", ts.s, NULL), KT_ENOTFOUND);
	CHECK(strstr(kt_error_last(), "unknown strategy 'hill'") != NULL);
	CHECK(s == NULL);
	tspace_close(&ts);
}

static void settings_are_parsed_and_checked(void)
{
	tspace ts;
	CHECK(tspace_open(&ts, small_src));
	if (!ts.s)
		return;
	kt_strategy *s = NULL;
	const char *good[] = {"population=8", "elite=1", "mutation=0.5", NULL};
	kt_strategy_options so = {1, 0, good};
	CHECK_EQ_INT(kt_strategy_create(&s, "genetic", ts.s, &so), 0);
	kt_strategy_free(s);
	const char *unknown[] = {"populaton=8", NULL};
	so.settings = unknown;
	CHECK_EQ_INT(kt_strategy_create(&s, "genetic", ts.s, &so),
	             KT_ENOTFOUND);
	CHECK(strstr(kt_error_last(),
	             "unknown setting 'populaton' for strategy 'genetic'"));
	const char *range[] = {"population=1", NULL};
	so.settings = range;
	CHECK_EQ_INT(kt_strategy_create(&s, "genetic", ts.s, &so), KT_EINVALID);
	CHECK(strstr(kt_error_last(), "setting 'population'") != NULL);
	const char *word[] = {"improvement=steepest", NULL};
	so.settings = word;
	CHECK_EQ_INT(kt_strategy_create(&s, "local_search", ts.s, &so),
	             KT_EINVALID);
	CHECK(strstr(kt_error_last(), "first|best") != NULL);
	const char *noeq[] = {"kernel", NULL};
	so.settings = noeq;
	CHECK_EQ_INT(kt_strategy_create(&s, "bayes", ts.s, &so), KT_EINVALID);
	const char *none[] = {"t0=1", NULL};
	so.settings = none;
	CHECK_EQ_INT(kt_strategy_create(&s, "random", ts.s, &so), KT_ENOTFOUND);
	CHECK(s == NULL);
	tspace_close(&ts);
}

/* Each documented setting is accepted at its default, by name. */
static void every_setting_is_accepted_at_its_default(void)
{
	tspace ts;
	CHECK(tspace_open(&ts, small_src));
	if (!ts.s)
		return;
	for (size_t i = 0; kt_strategies[i]; i++) {
		const kt_setting *t = kt_strategy_settings(kt_strategies[i]);
		for (; t && t->name; t++) {
			char buf[128];
			if (t->kind == KT_SETTING_CHOICE)
				snprintf(buf, sizeof(buf), "%s=%.*s", t->name,
				         (int)strcspn(t->choices, "|"),
				         t->choices);
			else
				snprintf(buf, sizeof(buf), "%s=%g", t->name,
				         t->def);
			const char *set[] = {buf, NULL};
			kt_strategy_options so = {1, 0, set};
			kt_strategy *s = NULL;
			if (kt_strategy_create(&s, kt_strategies[i]->name, ts.s,
			                       &so) != 0)
				CHECK_EQ_STR(buf, "accepted");
			kt_strategy_free(s);
		}
	}
	tspace_close(&ts);
}

/* The genetic algorithm hands out a whole generation in one ask. */
static void genetic_asks_a_generation_at_once(void)
{
	tspace ts;
	CHECK(tspace_open(&ts, tiled_src));
	if (!ts.s)
		return;
	const char *set[] = {"population=12", NULL};
	kt_strategy_options so = {4, 0, set};
	kt_strategy *s = NULL;
	uint64_t buf[64];
	size_t n = 0;
	CHECK_EQ_INT(kt_strategy_create(&s, "genetic", ts.s, &so), 0);
	CHECK_EQ_INT(kt_strategy_ask(s, buf, 64, &n), 0);
	CHECK_EQ_INT(n, 12);
	for (size_t i = 0; i < n; i++)
		kt_strategy_tell(s, buf[i], 1.0 + (double)buf[i]);
	CHECK_EQ_INT(kt_strategy_ask(s, buf, 64, &n), 0);
	CHECK(n >= 1 && n <= 10); /* 12 minus 2 elites, less known children */
	kt_strategy_free(s);
	tspace_close(&ts);
}

static void sampler_serves_huge_ranges_without_repeats(void)
{
	kt_sampler sm;
	kt_rng rng;
	kt_imap got = {0};
	kt_rng_seed(&rng, 1);
	kt_sampler_init(&sm, 1000000000000ULL);
	for (int i = 0; i < 5000; i++) {
		uint64_t x = 0;
		CHECK_EQ_INT(kt_sampler_next(&sm, &rng, &x), 1);
		CHECK(x < 1000000000000ULL);
		CHECK(!kt_imap_get(&got, x, NULL));
		kt_imap_put(&got, x, 1);
	}
	CHECK(sm.swaps.len <= 5000);
	kt_sampler_release(&sm);
	kt_imap_release(&got);
	kt_sampler_init(&sm, 3);
	uint64_t x, sum = 0;
	for (int i = 0; i < 3; i++) {
		CHECK_EQ_INT(kt_sampler_next(&sm, &rng, &x), 1);
		sum += x;
	}
	CHECK_EQ_INT(sum, 3);
	CHECK_EQ_INT(kt_sampler_next(&sm, &rng, &x), 0);
	kt_sampler_release(&sm);
}

static void gp_interpolates_and_is_unsure_far_away(void)
{
	kt_gp g;
	double x[8], y[8];
	for (int i = 0; i < 8; i++) {
		x[i] = i / 7.0;
		y[i] = sin(6 * x[i]);
	}
	CHECK_EQ_INT(kt_gp_init(&g, KT_GP_MATERN52, 1, 16), 0);
	CHECK_EQ_INT(kt_gp_set(&g, x, y, 8), 0);
	CHECK_EQ_INT(kt_gp_tune(&g, 2), 0);
	double mean, var, q = 3.5 / 7.0;
	kt_gp_predict(&g, &q, &mean, &var);
	CHECK(fabs(mean - sin(6 * q)) < 0.1);
	double near_var = var, far = 3.0;
	kt_gp_predict(&g, &far, &mean, &var);
	CHECK(var > 10 * near_var);
	kt_gp_release(&g);
}

/* Evaluations to within 5% of the optimum, summed over seeds. */
static double mean_to_target(const char *name, const tspace *ts,
                             const landscape *l, int seeds)
{
	static trace t;
	double sum = 0;
	for (int seed = 1; seed <= seeds; seed++) {
		drive_opts o = {name, (uint64_t)seed, NULL, 4096,
		                1,    false,          true};
		drive(&t, ts, l, &o);
		CHECK(t.valid && t.to_target > 0);
		sum += (double)t.to_target;
	}
	return sum / seeds;
}

/*
 * The smooth function has 5% of its optimum in a small corner of the
 * space; the guided strategies must find it in under a third of random
 * search's evaluations, on average over 30 seeds. The runs are seeded, so
 * the test is deterministic; the margin (measured ratios are 0.06 to 0.13)
 * keeps it from failing on a harmless change of a random sequence, while
 * a strategy that stops using what it learns fails it.
 */
static void guided_strategies_beat_random_on_a_smooth_function(void)
{
	tspace ts;
	landscape l;
	CHECK(tspace_open(&ts, tiled_src));
	if (!ts.s)
		return;
	smooth_landscape(&l, &ts);
	double rnd = mean_to_target("random", &ts, &l, 30);
	const char *guided[] = {"simulated_annealing", "genetic",
	                        "local_search", "bayes"};
	for (int i = 0; i < 4; i++) {
		double m = mean_to_target(guided[i], &ts, &l, 30);
		printf("%-20s %6.1f evaluations (random %.1f)\n", guided[i], m,
		       rnd);
		if (!(m < rnd / 3))
			CHECK_EQ_STR(guided[i], "under a third of random's");
	}
	free(l.y);
	tspace_close(&ts);
}

int main(void)
{
	RUN(each_strategy_is_reproducible_from_its_seed);
	RUN(brute_force_walks_the_space_in_order_once);
	RUN(random_draws_every_configuration_exactly_once);
	RUN(random_first_draw_is_uniform);
	RUN(every_strategy_exhausts_a_small_space_exactly);
	RUN(every_strategy_ends_on_a_one_configuration_space);
	RUN(every_strategy_ends_when_everything_is_invalid);
	RUN(every_strategy_copes_with_results_that_lag);
	RUN(strategies_are_found_by_name_and_alias);
	RUN(settings_are_parsed_and_checked);
	RUN(every_setting_is_accepted_at_its_default);
	RUN(genetic_asks_a_generation_at_once);
	RUN(sampler_serves_huge_ranges_without_repeats);
	RUN(gp_interpolates_and_is_unsure_far_away);
	RUN(guided_strategies_beat_random_on_a_smooth_function);
	return check_summary();
}
