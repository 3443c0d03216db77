/*
 * test_space.c - the constrained space against a brute-force enumeration of
 * the raw product, written here independently of tuner/space.c: many small
 * random spaces must agree on the count and on which configurations are
 * valid; get and index_of must be inverse; sampling must be uniform;
 * neighbours must be valid and complete.
 */
#include "check.h"
#include "tmodel.h"

#include "ktc/space.h"
#include "util/rng.h"

#include <math.h>
#include <stdlib.h>

#define BIN(op, a, b) E_BIN(KT_OP_##op, a, b)
#define I(v) E_INT(v)
#define S(name) E_SYM(name)

/* ---- brute force: the definition of a valid configuration ---- */

static bool reads_failed(const kt_model *m, const kt_expr *e,
                         const bool *failed)
{
	if (e->kind == KT_EXPR_SYMBOL &&
	    m->symbols[e->sym].kind == KT_SYM_SET &&
	    failed[m->symbols[e->sym].index])
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (reads_failed(m, e->args[i], failed))
			return true;
	return false;
}

/*
 * Valid: every constraint evaluates to non-zero; a constraint that fails to
 * evaluate, or reads a derived value that failed, does not hold.
 */
static bool brute_valid(const kt_model *m, const uint32_t *idx,
                        const kt_value *problem)
{
	kt_value slots[4 * TM_MAX];
	bool failed[TM_MAX] = {0};
	for (size_t p = 0; p < m->nparams; p++)
		slots[m->params[p].sym] = m->params[p].values[idx[p]];
	for (size_t i = 0; i < m->nproblems; i++)
		slots[m->problems[i].sym] =
		    problem
		        ? problem[i]
		        : m->problems[i].values[m->problems[i].default_index];
	for (size_t i = 0; i < m->ndevices; i++)
		slots[m->devices[i].sym] = m->devices[i].fallback;
	for (size_t i = 0; i < m->nsets; i++)
		failed[i] = reads_failed(m, m->sets[i].expr, failed) ||
		            kt_expr_eval(&slots[m->sets[i].sym],
		                         m->sets[i].expr, slots);
	for (size_t c = 0; c < m->nconstraints; c++) {
		kt_value v;
		if (reads_failed(m, m->constraints[c].expr, failed) ||
		    kt_expr_eval(&v, m->constraints[c].expr, slots))
			return false;
		if (v.is_float ? v.f == 0.0 : v.i == 0)
			return false;
	}
	return true;
}

/* Steps idx through the raw product; false after the last one. */
static bool next_raw(const kt_model *m, uint32_t *idx)
{
	for (size_t p = m->nparams; p-- > 0;) {
		if (++idx[p] < m->params[p].nvalues)
			return true;
		idx[p] = 0;
	}
	return false;
}

static uint64_t brute_count(const kt_model *m, const kt_value *problem)
{
	uint32_t idx[TM_MAX] = {0};
	uint64_t n = 0;
	for (size_t p = 0; p < m->nparams; p++)
		if (m->params[p].nvalues == 0)
			return 0;
	do
		n += brute_valid(m, idx, problem);
	while (next_raw(m, idx));
	return n;
}

/* ---- random small spaces ---- */

static const char *const names[] = {"A", "B", "C", "D", "E", "F", "G"};

static kt_expr *rand_operand(kt_rng *r, int np)
{
	switch (kt_rng_below(r, 5)) {
	case 0: return I((int64_t)kt_rng_below(r, 9));
	case 1: return S("N");
	default: return S(names[kt_rng_below(r, (uint64_t)np)]);
	}
}

static kt_expr *rand_constraint(kt_rng *r, int np)
{
	kt_expr *a = rand_operand(r, np), *b = rand_operand(r, np);
	kt_expr *c = rand_operand(r, np);
	switch (kt_rng_below(r, 9)) {
	case 0: return BIN(EQ, BIN(MOD, a, b), I(0)); /* may divide by zero */
	case 1: return BIN(LE, BIN(MUL, a, b), I(24));
	case 2: return BIN(GT, BIN(ADD, a, b), c);
	case 3: return BIN(LT, a, b);
	case 4: return BIN(BITAND, BIN(BITXOR, a, b), I(1));
	case 5:
		return BIN(AND, BIN(NE, b, I(0)),
		           BIN(EQ, BIN(MOD, a, b), I(0)));
	case 6: return BIN(GE, BIN(DIV, a, b), I(1));
	case 7: return BIN(LE, S("SET0"), I(30));
	default: return BIN(NE, E_CALL(KT_FN_MAX, 3, a, b, c), I(5));
	}
}

static void rand_model(tmodel *t, kt_rng *r)
{
	static const int64_t ns[] = {12, 7};
	int np = 2 + (int)kt_rng_below(r, 5);
	tm_init(t);
	for (int p = 0; p < np; p++) {
		int64_t v[6];
		size_t n = 1 + kt_rng_below(r, 5);
		for (size_t i = 0; i < n; i++)
			v[i] = (int64_t)kt_rng_below(r, 10);
		tm_param(t, names[p], v, n, kt_rng_below(r, n));
	}
	tm_set(t, "SET0", BIN(MUL, rand_operand(r, np), rand_operand(r, np)));
	tm_problem(t, "N", ns, 2, 0);
	int nc = (int)kt_rng_below(r, 5);
	for (int c = 0; c < nc; c++)
		tm_constraint(t, "random", rand_constraint(r, np));
	tm_finish(t);
}

/* Every raw configuration is valid exactly when the space has it. */
static int check_against_brute_force(const kt_model *m, const kt_space *s)
{
	uint32_t idx[TM_MAX] = {0}, back[TM_MAX];
	int bad = 0;
	for (size_t p = 0; p < m->nparams; p++)
		if (m->params[p].nvalues == 0)
			return kt_space_count(s) != 0;
	do {
		int64_t i = kt_space_index_of(s, idx);
		bad += (i >= 0) != brute_valid(m, idx, NULL);
		if (i >= 0 && (kt_space_get(s, (uint64_t)i, back) ||
		               memcmp(back, idx, m->nparams * sizeof(*idx))))
			bad++;
	} while (next_raw(m, idx));
	return bad;
}

static void count_matches_brute_force_on_random_spaces(void)
{
	kt_rng r;
	kt_rng_seed(&r, 42);
	int built = 0, refused = 0;
	for (int trial = 0; trial < 400; trial++) {
		tmodel t;
		rand_model(&t, &r);
		kt_diags d;
		kt_diags_init(&d);
		kt_space *s = NULL;
		int rc = kt_space_build(&s, &t.m, NULL, NULL, &d);
		uint64_t want = brute_count(&t.m, NULL);
		if (rc == KT_EPARSE) {
			/* an expression failed wherever it was reached */
			CHECK_EQ_INT(want, 0);
			CHECK(d.errors > 0);
			refused++;
		} else {
			CHECK_EQ_INT(rc, 0);
			CHECK_EQ_INT(kt_space_count(s), want);
			CHECK_EQ_INT(check_against_brute_force(&t.m, s), 0);
			built++;
		}
		kt_space_free(s);
		kt_diags_release(&d);
		tm_free(&t);
	}
	CHECK(built > 300);
	CHECK(refused > 0);
}

/* ---- fixed spaces ---- */

static const int64_t p2[] = {1, 2, 4, 8, 16, 32, 64, 128};

/* BM, BN tied by BM * BN <= 1024 and BM >= BN; U free; V in a set. */
static const kt_model *tile_model(tmodel *t)
{
	static const int64_t us[] = {1, 2, 4}, vs[] = {0, 1}, ns[] = {4096};
	tm_init(t);
	tm_param(t, "BM", p2 + 3, 5, 2);
	tm_param(t, "U", us, 3, 0);
	tm_param(t, "BN", p2 + 3, 5, 1);
	tm_param(t, "V", vs, 2, 0);
	tm_set(t, "THREADS", BIN(DIV, BIN(MUL, S("BM"), S("BN")), I(4)));
	tm_problem(t, "N", ns, 1, 0);
	tm_device(t, "DEVICE_MAX_THREADS_PER_BLOCK", 1024);
	tm_constraint(t, "THREADS <= DEVICE_MAX_THREADS_PER_BLOCK",
	              BIN(LE, S("THREADS"), S("DEVICE_MAX_THREADS_PER_BLOCK")));
	tm_constraint(t, "BM >= BN", BIN(GE, S("BM"), S("BN")));
	tm_constraint(t, "N % BM == 0",
	              BIN(EQ, BIN(MOD, S("N"), S("BM")), I(0)));
	tm_constraint(t, "V == 0 || BN >= 16",
	              BIN(OR, BIN(EQ, S("V"), I(0)), BIN(GE, S("BN"), I(16))));
	return tm_finish(t);
}

static kt_space *build_ok(const kt_model *m, kt_diags *d)
{
	kt_space *s = NULL;
	kt_diags_init(d);
	CHECK_EQ_INT(kt_space_build(&s, m, NULL, NULL, d), 0);
	return s;
}

static void groups_follow_the_constraints(void)
{
	tmodel t;
	kt_diags d;
	const kt_model *m = tile_model(&t);
	kt_space *s = build_ok(m, &d);
	if (!s)
		return;
	CHECK_EQ_INT(kt_space_ngroups(s), 2);
	const int *params;
	uint64_t tuples;
	CHECK_EQ_INT(kt_space_group(s, 0, &params, &tuples), 3); /* BM, BN, V */
	CHECK_EQ_INT(kt_space_group(s, 1, &params, &tuples), 1);
	CHECK_EQ_INT(params[0], 1); /* U */
	CHECK_EQ_INT(tuples, 3);
	CHECK_EQ_INT(kt_space_count(s), brute_count(m, NULL));
	CHECK(kt_space_raw_size(s) == 5.0 * 3 * 5 * 2);
	CHECK_EQ_INT(check_against_brute_force(m, s), 0);
	CHECK_EQ_INT(d.len, 0);
	kt_space_free(s);
	kt_diags_release(&d);
	tm_free(&t);
}

static void get_and_index_of_are_inverse(void)
{
	tmodel t;
	kt_diags d;
	const kt_model *m = tile_model(&t);
	kt_space *s = build_ok(m, &d);
	uint32_t idx[4];
	for (uint64_t i = 0; s && i < kt_space_count(s); i++) {
		CHECK_EQ_INT(kt_space_get(s, i, idx), 0);
		CHECK_EQ_INT(kt_space_index_of(s, idx), (int64_t)i);
	}
	if (s)
		CHECK_EQ_INT(kt_space_get(s, kt_space_count(s), idx),
		             KT_EINVALID);
	idx[0] = 99;
	CHECK_EQ_INT(kt_space_index_of(s, idx), -1);
	kt_space_free(s);
	kt_diags_release(&d);
	tm_free(&t);
}

static void default_index_and_key(void)
{
	tmodel t;
	kt_diags d;
	const kt_model *m = tile_model(&t);
	kt_space *s = build_ok(m, &d);
	uint32_t idx[4];
	kt_model_default_config(m, idx);
	CHECK_EQ_INT(kt_space_default_index(s), kt_space_index_of(s, idx));
	CHECK(kt_space_default_index(s) >= 0);
	char *key = kt_space_key(s, idx);
	CHECK_EQ_STR(key, "BM=32,U=1,BN=16,V=0");
	kt_free(key);
	kt_space_free(s);
	kt_diags_release(&d);
	tm_free(&t);
}

static void key_prints_floats_exactly(void)
{
	tmodel t;
	kt_diags d;
	tm_init(&t);
	static const int64_t one[] = {3};
	kt_param *p = tm_param(&t, "ALPHA", one, 1, 0);
	p->values[0] = kt_float(0.1);
	tm_param(&t, "K", one, 1, 0);
	const kt_model *m = tm_finish(&t);
	kt_space *s = build_ok(m, &d);
	uint32_t idx[2] = {0, 0};
	char *key = kt_space_key(s, idx);
	CHECK_EQ_STR(key, "ALPHA=0.10000000000000001,K=3");
	kt_free(key);
	kt_space_free(s);
	kt_diags_release(&d);
	tm_free(&t);
}

static void sampling_is_uniform(void)
{
	tmodel t;
	kt_diags d;
	const kt_model *m = tile_model(&t);
	kt_space *s = build_ok(m, &d);
	uint64_t n = s ? kt_space_count(s) : 0;
	CHECK(n > 10 && n < 200);
	if (!(n > 10 && n < 200))
		return;
	enum { DRAWS = 200000 };
	uint32_t *hits = calloc(n, sizeof(*hits));
	kt_rng r;
	kt_rng_seed(&r, 7);
	for (int i = 0; i < DRAWS; i++)
		hits[kt_space_sample(s, &r)]++;
	double expect = (double)DRAWS / (double)n, chi2 = 0;
	for (uint64_t i = 0; i < n; i++)
		chi2 += (hits[i] - expect) * (hits[i] - expect) / expect;
	/* dof = n - 1; mean n - 1, sd sqrt(2(n - 1)): allow 5 sd */
	CHECK(chi2 < (double)(n - 1) + 5.0 * sqrt(2.0 * (double)(n - 1)));
	free(hits);
	kt_space_free(s);
	kt_diags_release(&d);
	tm_free(&t);
}

/* Brute-force neighbour count: valid configs one parameter away. */
static size_t brute_neighbors(const kt_model *m, const uint32_t *idx,
                              bool adjacent)
{
	uint32_t c[TM_MAX];
	size_t n = 0;
	for (size_t p = 0; p < m->nparams; p++) {
		for (uint32_t v = 0; v < m->params[p].nvalues; v++) {
			long diff = (long)v - (long)idx[p];
			if (v == idx[p] || (adjacent && labs(diff) != 1))
				continue;
			memcpy(c, idx, m->nparams * sizeof(*c));
			c[p] = v;
			n += brute_valid(m, c, NULL);
		}
	}
	return n;
}

static int differing(const kt_model *m, const uint32_t *a, const uint32_t *b,
                     long *step)
{
	int n = 0;
	for (size_t p = 0; p < m->nparams; p++)
		if (a[p] != b[p]) {
			n++;
			*step = labs((long)a[p] - (long)b[p]);
		}
	return n;
}

static void neighbors_are_valid_and_complete(void)
{
	tmodel t;
	kt_diags d;
	const kt_model *m = tile_model(&t);
	kt_space *s = build_ok(m, &d);
	uint32_t a[4], b[4];
	uint64_t out[64];
	for (uint64_t i = 0; s && i < kt_space_count(s); i++) {
		kt_space_get(s, i, a);
		for (int adj = 0; adj < 2; adj++) {
			size_t n = kt_space_neighbors(s, i, adj, out, 64);
			CHECK_EQ_INT(n, brute_neighbors(m, a, adj));
			for (size_t k = 0; k < n && k < 64; k++) {
				long step = 0;
				CHECK(out[k] < kt_space_count(s));
				CHECK_EQ_INT(kt_space_get(s, out[k], b), 0);
				CHECK_EQ_INT(differing(m, a, b, &step), 1);
				CHECK(!adj || step == 1);
			}
		}
	}
	/* max limits what is written, not what is counted */
	size_t all = kt_space_neighbors(s, 0, false, out, 64);
	CHECK_EQ_INT(kt_space_neighbors(s, 0, false, out, 1), all);
	kt_space_free(s);
	kt_diags_release(&d);
	tm_free(&t);
}

static void problem_values_change_the_space(void)
{
	tmodel t;
	kt_diags d;
	const kt_model *m = tile_model(&t);
	kt_value n[] = {kt_int(48)}; /* N % BM == 0 only for BM = 8, 16 */
	kt_space *s = NULL;
	kt_diags_init(&d);
	CHECK_EQ_INT(kt_space_build(&s, m, n, NULL, &d), 0);
	CHECK_EQ_INT(kt_space_count(s), brute_count(m, n));
	CHECK_EQ_INT(kt_space_default_index(s), -1); /* BM = 32 is out */
	CHECK_EQ_INT(d.warnings, 1);
	kt_space_free(s);
	kt_diags_release(&d);
	tm_free(&t);
}

static void device_values_change_the_space(void)
{
	tmodel t;
	kt_diags d;
	const kt_model *m = tile_model(&t);
	kt_value small[] = {kt_int(16)}, big[] = {kt_int(1 << 20)};
	kt_space *s1 = NULL, *s2 = NULL;
	kt_diags_init(&d);
	CHECK_EQ_INT(kt_space_build(&s1, m, NULL, small, &d), 0);
	CHECK_EQ_INT(kt_space_build(&s2, m, NULL, big, &d), 0);
	CHECK(kt_space_count(s1) < kt_space_count(s2));
	kt_space_free(s1);
	kt_space_free(s2);
	kt_diags_release(&d);
	tm_free(&t);
}

static void unconstrained_space_is_the_raw_product(void)
{
	tmodel t;
	kt_diags d;
	tm_init(&t);
	tm_param(&t, "A", p2, 8, 0);
	tm_param(&t, "B", p2, 5, 0);
	tm_param(&t, "C", p2, 3, 0);
	const kt_model *m = tm_finish(&t);
	kt_space *s = build_ok(m, &d);
	CHECK_EQ_INT(kt_space_count(s), 120);
	CHECK_EQ_INT(kt_space_ngroups(s), 3);
	uint32_t idx[3];
	kt_space_get(s, 0, idx);
	CHECK(idx[0] == 0 && idx[1] == 0 && idx[2] == 0);
	kt_space_get(s, 119, idx);
	CHECK(idx[0] == 7 && idx[1] == 4 && idx[2] == 2);
	kt_space_free(s);
	kt_diags_release(&d);
	tm_free(&t);
}

static void false_constraint_without_parameters_empties_the_space(void)
{
	tmodel t;
	kt_diags d;
	static const int64_t ns[] = {100};
	tm_init(&t);
	tm_param(&t, "A", p2, 4, 0);
	tm_problem(&t, "N", ns, 1, 0);
	tm_constraint(&t, "N > 1000", E_AT(BIN(GT, S("N"), I(1000)), 4, 23, 8));
	const kt_model *m = tm_finish(&t);
	kt_space *s = build_ok(m, &d);
	CHECK_EQ_INT(kt_space_count(s), 0);
	CHECK_EQ_INT(kt_space_default_index(s), -1);
	CHECK(d.warnings >= 1 && d.errors == 0);
	CHECK(d.len > 0 && strstr(d.items[0].message, "'N > 1000' is false"));
	CHECK_EQ_INT(d.items[0].line, 4);
	kt_space_free(s);
	kt_diags_release(&d);
	tm_free(&t);
}

static void contradictory_constraints_give_an_empty_space(void)
{
	tmodel t;
	kt_diags d;
	tm_init(&t);
	tm_param(&t, "A", p2, 8, 0);
	tm_param(&t, "B", p2, 8, 0);
	tm_constraint(&t, "A < B", BIN(LT, S("A"), S("B")));
	tm_constraint(&t, "B < A", BIN(LT, S("B"), S("A")));
	const kt_model *m = tm_finish(&t);
	kt_space *s = build_ok(m, &d);
	CHECK_EQ_INT(kt_space_count(s), 0);
	CHECK(d.warnings >= 1 && d.errors == 0);
	uint64_t out[4];
	CHECK_EQ_INT(kt_space_neighbors(s, 0, false, out, 4), 0);
	kt_space_free(s);
	kt_diags_release(&d);
	tm_free(&t);
}

static void division_by_zero_in_some_configurations_warns(void)
{
	tmodel t;
	kt_diags d;
	static const int64_t xs[] = {0, 3, 4}, ns[] = {12};
	tm_init(&t);
	tm_param(&t, "X", xs, 3, 2);
	tm_problem(&t, "N", ns, 1, 0);
	kt_expr *mod = E_AT(BIN(MOD, S("N"), S("X")), 7, 23, 5);
	tm_constraint(&t, "N % X == 0", BIN(EQ, mod, I(0)));
	const kt_model *m = tm_finish(&t);
	kt_space *s = build_ok(m, &d);
	CHECK_EQ_INT(kt_space_count(s), 2);
	CHECK_EQ_INT(d.errors, 0);
	CHECK_EQ_INT(d.warnings, 1);
	if (d.len == 1) {
		CHECK_EQ_INT(d.items[0].line, 7);
		CHECK_EQ_INT(d.items[0].col, 23);
		CHECK_EQ_INT(d.items[0].len, 5);
		CHECK_EQ_STR(
		    d.items[0].message,
		    "modulo by zero in 'N % X' when X=0; configurations "
		    "where it fails are left out of the space");
	}
	kt_space_free(s);
	kt_diags_release(&d);
	tm_free(&t);
}

static void division_by_zero_everywhere_is_an_error(void)
{
	tmodel t;
	kt_diags d;
	static const int64_t xs[] = {1, 2};
	tm_init(&t);
	tm_param(&t, "X", xs, 2, 0);
	tm_constraint(&t, "X / 0 < 3",
	              BIN(LT, E_AT(BIN(DIV, S("X"), I(0)), 2, 23, 5), I(3)));
	const kt_model *m = tm_finish(&t);
	kt_space *s = NULL;
	kt_diags_init(&d);
	CHECK_EQ_INT(kt_space_build(&s, m, NULL, NULL, &d), KT_EPARSE);
	CHECK(s == NULL);
	CHECK_EQ_INT(d.errors, 1);
	if (d.len == 1)
		CHECK_EQ_STR(d.items[0].message,
		             "division by zero in 'X / 0' for every "
		             "configuration (e.g. X=1)");
	kt_diags_release(&d);
	tm_free(&t);
}

static void failing_set_without_parameters_is_an_error(void)
{
	tmodel t;
	kt_diags d;
	static const int64_t ns[] = {0};
	tm_init(&t);
	tm_param(&t, "X", p2, 2, 0);
	tm_set(&t, "PER", BIN(DIV, I(64), S("N")));
	tm_problem(&t, "N", ns, 1, 0);
	tm_constraint(&t, "X <= PER", BIN(LE, S("X"), S("PER")));
	const kt_model *m = tm_finish(&t);
	kt_space *s = NULL;
	kt_diags_init(&d);
	CHECK_EQ_INT(kt_space_build(&s, m, NULL, NULL, &d), KT_EPARSE);
	CHECK_EQ_INT(d.errors, 1);
	kt_diags_release(&d);
	tm_free(&t);
}

static void invalid_default_is_a_warning_naming_the_constraint(void)
{
	tmodel t;
	kt_diags d;
	tm_init(&t);
	tm_param(&t, "A", p2, 8, 7);
	tm_constraint(&t, "A <= 64", BIN(LE, S("A"), I(64)));
	const kt_model *m = tm_finish(&t);
	kt_space *s = build_ok(m, &d);
	CHECK_EQ_INT(kt_space_count(s), 7);
	CHECK_EQ_INT(kt_space_default_index(s), -1);
	CHECK_EQ_INT(d.warnings, 1);
	if (d.len == 1)
		CHECK_EQ_STR(d.items[0].message,
		             "the default configuration (A=128) violates "
		             "constraint 'A <= 64'");
	kt_space_free(s);
	kt_diags_release(&d);
	tm_free(&t);
}

/* A chain of constraints over 6 parameters, 8^6 raw: built by pruning. */
static void chained_group_counts_like_brute_force(void)
{
	tmodel t;
	kt_diags d;
	tm_init(&t);
	for (int p = 0; p < 6; p++)
		tm_param(&t, names[p], p2, 8, 0);
	for (int p = 0; p + 1 < 6; p++)
		tm_constraint(&t, "chain",
		              BIN(LE, S(names[p]), S(names[p + 1])));
	tm_constraint(
	    &t, "product",
	    BIN(LE, BIN(MUL, BIN(MUL, S("A"), S("C")), S("F")), I(4096)));
	const kt_model *m = tm_finish(&t);
	kt_space *s = build_ok(m, &d);
	CHECK_EQ_INT(kt_space_ngroups(s), 1);
	CHECK_EQ_INT(kt_space_count(s), brute_count(m, NULL));
	CHECK_EQ_INT(check_against_brute_force(m, s), 0);
	kt_space_free(s);
	kt_diags_release(&d);
	tm_free(&t);
}

/* An allocator that fails the nth allocation and counts live blocks. */
static long fail_at, alloc_count, live;

static void *failing_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	(void)ud;
	(void)osize;
	if (nsize == 0) {
		live -= ptr != NULL;
		free(ptr);
		return NULL;
	}
	if (++alloc_count == fail_at)
		return NULL;
	void *p = realloc(ptr, nsize);
	live += p && !ptr;
	return p;
}

static void every_allocation_failure_is_survived(void)
{
	tmodel t;
	const kt_model *m = tile_model(&t);
	static const int64_t gs[] = {0, 2};
	tm_param(&t, "G", gs, 2, 1); /* a warning: N % G divides by zero */
	tm_constraint(&t, "N % G == 0",
	              BIN(EQ, BIN(MOD, S("N"), S("G")), I(0)));
	t.m.nsymbols = 0;
	m = tm_finish(&t);
	int failures = 0;
	for (fail_at = 1; fail_at < 10000; fail_at++) {
		kt_diags d;
		kt_space *s = NULL;
		uint32_t idx[8] = {0};
		uint64_t out[16];
		alloc_count = live = 0;
		kt_set_allocator(failing_alloc, NULL);
		kt_diags_init(&d);
		int rc = kt_space_build(&s, m, NULL, NULL, &d);
		if (!rc) {
			kt_free(kt_space_key(s, idx));
			kt_space_neighbors(s, 0, false, out, 16);
		}
		kt_space_free(s);
		kt_diags_release(&d);
		kt_set_allocator(NULL, NULL);
		CHECK(rc == 0 || rc == KT_ENOMEM);
		CHECK(rc != 0 || s != NULL);
		CHECK_EQ_INT(live, 0);
		failures += rc == KT_ENOMEM;
		if (alloc_count < fail_at)
			break; /* every allocation has been failed once */
	}
	CHECK(failures > 3);
	tm_free(&t);
}

/* 30 two-valued parameters that only all zeros satisfy: 2^31 bindings. */
static const kt_model *thirty_tied(tmodel *t)
{
	static const char *const tied[] = {
	    "A0", "A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9",
	    "B0", "B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9",
	    "C0", "C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9"};
	static const int64_t bits[] = {0, 1};
	tm_init(t);
	kt_expr *sum = I(0);
	for (int i = 0; i < 30; i++) {
		tm_param(t, tied[i], bits, 2, 0);
		sum = BIN(ADD, sum, S(tied[i]));
	}
	tm_constraint(t, "sum == 0", BIN(EQ, sum, I(0)));
	return tm_finish(t);
}

static void build_stops_at_its_limit_on_bindings(void)
{
	tmodel t;
	kt_diags d;
	kt_space *s = NULL;
	const kt_model *m = thirty_tied(&t);
	kt_space_limits lim = {.max_bindings = 100000};
	kt_diags_init(&d);
	CHECK_EQ_INT(kt_space_build_limited(&s, m, NULL, NULL, &lim, &d),
	             KT_EINTERRUPTED);
	CHECK(s == NULL);
	CHECK(strstr(kt_error_last(),
	             "stopped building the space of 'k' after binding 100000 "
	             "values: 30 parameters tied by constraints have "
	             "1.07e+09 combinations, 1 valid found so far") != NULL);
	kt_diags_release(&d);
	tm_free(&t);
}

static void build_stops_when_asked(void)
{
	tmodel t;
	kt_diags d;
	kt_space *s = NULL;
	const kt_model *m = thirty_tied(&t);
	volatile sig_atomic_t stop = 1; /* as a signal handler leaves it */
	kt_space_limits lim = {.max_bindings = UINT64_MAX, .stop = &stop};
	kt_diags_init(&d);
	CHECK_EQ_INT(kt_space_build_limited(&s, m, NULL, NULL, &lim, &d),
	             KT_EINTERRUPTED);
	CHECK(s == NULL);
	CHECK(strstr(kt_error_last(),
	             "interrupted while building the space "
	             "of 'k' after binding 4096 values") != NULL);
	kt_diags_release(&d);
	tm_free(&t);
}

int main(void)
{
	RUN(count_matches_brute_force_on_random_spaces);
	RUN(groups_follow_the_constraints);
	RUN(get_and_index_of_are_inverse);
	RUN(default_index_and_key);
	RUN(key_prints_floats_exactly);
	RUN(sampling_is_uniform);
	RUN(neighbors_are_valid_and_complete);
	RUN(problem_values_change_the_space);
	RUN(device_values_change_the_space);
	RUN(unconstrained_space_is_the_raw_product);
	RUN(false_constraint_without_parameters_empties_the_space);
	RUN(contradictory_constraints_give_an_empty_space);
	RUN(division_by_zero_in_some_configurations_warns);
	RUN(division_by_zero_everywhere_is_an_error);
	RUN(failing_set_without_parameters_is_an_error);
	RUN(invalid_default_is_a_warning_naming_the_constraint);
	RUN(chained_group_counts_like_brute_force);
	RUN(every_allocation_failure_is_survived);
	RUN(build_stops_at_its_limit_on_bindings);
	RUN(build_stops_when_asked);
	return check_summary();
}
