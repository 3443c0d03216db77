/* test_eval.c - expression evaluation (C semantics, errors) and binding. */
#include "check.h"
#include "tmodel.h"

#include <math.h>

static tmodel T;
static kt_value slots[8];

/* Symbols X (param), N (problem) bound to values for these tests. */
static void setup(void)
{
	tm_init(&T);
	static const int64_t xs[] = {0, 4, 8};
	static const int64_t ns[] = {100};
	tm_param(&T, "X", xs, 3, 1);
	tm_problem(&T, "N", ns, 1, 0);
	tm_finish(&T);
}

static kt_expr *sym(const char *name)
{
	kt_expr *e = E_SYM(name);
	tm_resolve(&T, e);
	return e;
}

static int64_t ival(kt_expr *e)
{
	kt_value v = kt_int(-999999);
	int rc = kt_expr_eval(&v, e, slots);
	CHECK_EQ_INT(rc, 0);
	CHECK(!v.is_float);
	return v.i;
}

static double fval(kt_expr *e)
{
	kt_value v = kt_int(0);
	CHECK_EQ_INT(kt_expr_eval(&v, e, slots), 0);
	CHECK(v.is_float);
	return v.is_float ? v.f : NAN;
}

/* Evaluation of e fails with KT_EINVALID, naming what in its message. */
static int fails_with(kt_expr *e, const char *what)
{
	kt_value v;
	const kt_expr *where = NULL;
	int rc = kt_expr_eval_where(&v, e, slots, &where);
	int ok = rc == KT_EINVALID && where != NULL &&
	         strstr(kt_error_last(), what) != NULL;
	if (!ok)
		fprintf(stderr, "  got rc %d, message '%s'\n", rc,
		        kt_error_last());
	return ok;
}

#define BIN(op, a, b) E_BIN(KT_OP_##op, a, b)
#define I(v) E_INT(v)
#define F(v) E_FLT(v)

static void integer_arithmetic_operators(void)
{
	CHECK_EQ_INT(ival(BIN(ADD, I(2), I(3))), 5);
	CHECK_EQ_INT(ival(BIN(SUB, I(2), I(3))), -1);
	CHECK_EQ_INT(ival(BIN(MUL, I(-4), I(3))), -12);
	CHECK_EQ_INT(ival(BIN(DIV, I(7), I(2))), 3);
	CHECK_EQ_INT(ival(BIN(MOD, I(7), I(3))), 1);
	CHECK_EQ_INT(ival(E_UN(KT_OP_NEG, I(5))), -5);
	CHECK_EQ_INT(ival(E_UN(KT_OP_PLUS, I(5))), 5);
	CHECK_EQ_INT(ival(E_UN(KT_OP_NOT, I(5))), 0);
	CHECK_EQ_INT(ival(E_UN(KT_OP_NOT, I(0))), 1);
	CHECK_EQ_INT(ival(E_UN(KT_OP_BITNOT, I(0))), -1);
}

static void division_and_modulo_truncate_toward_zero_like_c(void)
{
	CHECK_EQ_INT(ival(BIN(DIV, I(-7), I(2))), -3);
	CHECK_EQ_INT(ival(BIN(MOD, I(-7), I(2))), -1);
	CHECK_EQ_INT(ival(BIN(DIV, I(7), I(-2))), -3);
	CHECK_EQ_INT(ival(BIN(MOD, I(7), I(-2))), 1);
	CHECK_EQ_INT(ival(BIN(DIV, I(-7), I(-2))), 3);
	CHECK_EQ_INT(ival(BIN(MOD, I(-7), I(-2))), -1);
	CHECK_EQ_INT(ival(BIN(DIV, I(INT64_MIN), I(1))), INT64_MIN);
}

static void shifts_and_bit_operators(void)
{
	CHECK_EQ_INT(ival(BIN(SHL, I(1), I(10))), 1024);
	CHECK_EQ_INT(ival(BIN(SHL, I(-3), I(2))), -12);
	CHECK_EQ_INT(ival(BIN(SHL, I(1), I(62))), INT64_C(1) << 62);
	CHECK_EQ_INT(ival(BIN(SHR, I(1024), I(3))), 128);
	CHECK_EQ_INT(ival(BIN(SHR, I(-16), I(2))), -4);
	CHECK_EQ_INT(ival(BIN(SHR, I(5), I(63))), 0);
	CHECK_EQ_INT(ival(BIN(BITAND, I(12), I(10))), 8);
	CHECK_EQ_INT(ival(BIN(BITOR, I(12), I(10))), 14);
	CHECK_EQ_INT(ival(BIN(BITXOR, I(12), I(10))), 6);
}

static void comparisons_and_logic_give_zero_or_one(void)
{
	CHECK_EQ_INT(ival(BIN(LT, I(2), I(3))), 1);
	CHECK_EQ_INT(ival(BIN(LE, I(3), I(3))), 1);
	CHECK_EQ_INT(ival(BIN(GT, I(2), I(3))), 0);
	CHECK_EQ_INT(ival(BIN(GE, I(2), I(3))), 0);
	CHECK_EQ_INT(ival(BIN(EQ, I(3), I(3))), 1);
	CHECK_EQ_INT(ival(BIN(NE, I(3), I(3))), 0);
	CHECK_EQ_INT(ival(BIN(EQ, I(3), F(3.0))), 1);
	CHECK_EQ_INT(ival(BIN(LT, F(2.5), I(3))), 1);
	CHECK_EQ_INT(ival(BIN(AND, I(7), I(-2))), 1);
	CHECK_EQ_INT(ival(BIN(AND, I(7), I(0))), 0);
	CHECK_EQ_INT(ival(BIN(OR, I(0), I(9))), 1);
	CHECK_EQ_INT(ival(BIN(OR, I(0), F(0.0))), 0);
	CHECK_EQ_INT(ival(BIN(AND, F(0.5), I(1))), 1);
}

static void logic_and_conditional_short_circuit(void)
{
	kt_expr *boom = BIN(DIV, I(1), I(0));
	CHECK_EQ_INT(ival(BIN(AND, I(0), boom)), 0);
	CHECK_EQ_INT(ival(BIN(OR, I(1), boom)), 1);
	CHECK_EQ_INT(ival(E_COND(I(1), I(2), boom)), 2);
	CHECK_EQ_INT(ival(E_COND(I(0), boom, I(3))), 3);
	CHECK(fails_with(BIN(AND, I(1), boom), "division by zero"));
}

static void mixed_arithmetic_is_float(void)
{
	CHECK(fval(BIN(ADD, I(1), F(0.5))) == 1.5);
	CHECK(fval(BIN(DIV, I(7), F(2.0))) == 3.5);
	CHECK(fval(BIN(MUL, F(1.5), F(2.0))) == 3.0);
	CHECK(fval(BIN(SUB, F(1.0), I(3))) == -2.0);
	CHECK(fval(E_UN(KT_OP_NEG, F(2.5))) == -2.5);
	CHECK(fval(E_CALL(KT_FN_MIN, 2, I(3), F(4.5))) == 3.0);
}

static void functions(void)
{
	CHECK_EQ_INT(ival(E_CALL(KT_FN_MIN, 3, I(5), I(-2), I(9))), -2);
	CHECK_EQ_INT(ival(E_CALL(KT_FN_MAX, 3, I(5), I(-2), I(9))), 9);
	CHECK_EQ_INT(ival(E_CALL(KT_FN_MAX, 1, I(4))), 4);
	CHECK(fval(E_CALL(KT_FN_MAX, 2, I(5), F(4.5))) == 5.0);
	CHECK_EQ_INT(ival(E_CALL(KT_FN_DIV_CEIL, 2, I(7), I(2))), 4);
	CHECK_EQ_INT(ival(E_CALL(KT_FN_DIV_CEIL, 2, I(8), I(2))), 4);
	CHECK_EQ_INT(ival(E_CALL(KT_FN_DIV_CEIL, 2, I(-7), I(2))), -3);
	CHECK_EQ_INT(ival(E_CALL(KT_FN_DIV_CEIL, 2, I(-7), I(-2))), 4);
	CHECK_EQ_INT(ival(E_CALL(KT_FN_LOG2, 1, I(1))), 0);
	CHECK_EQ_INT(ival(E_CALL(KT_FN_LOG2, 1, I(1023))), 9);
	CHECK_EQ_INT(ival(E_CALL(KT_FN_LOG2, 1, I(1024))), 10);
	CHECK(fval(E_CALL(KT_FN_LOG2, 1, F(8.0))) == 3.0);
	CHECK_EQ_INT(ival(E_CALL(KT_FN_POW2, 1, I(0))), 1);
	CHECK_EQ_INT(ival(E_CALL(KT_FN_POW2, 1, I(62))), INT64_C(1) << 62);
	CHECK_EQ_INT(ival(E_CALL(KT_FN_ABS, 1, I(-5))), 5);
	CHECK(fval(E_CALL(KT_FN_ABS, 1, F(-2.5))) == 2.5);
	CHECK(fval(E_CALL(KT_FN_FLOOR, 1, F(-2.5))) == -3.0);
	CHECK(fval(E_CALL(KT_FN_CEIL, 1, F(-2.5))) == -2.0);
	CHECK(fval(E_CALL(KT_FN_ROUND, 1, F(2.5))) == 3.0);
	CHECK_EQ_INT(ival(E_CALL(KT_FN_FLOOR, 1, I(7))), 7);
	CHECK(fval(E_CALL(KT_FN_FLOAT, 1, I(7))) == 7.0);
	CHECK_EQ_INT(ival(E_CALL(KT_FN_INT, 1, F(-2.9))), -2);
	CHECK_EQ_INT(ival(E_CALL(KT_FN_INT, 1, I(12))), 12);
}

static void symbols_read_their_slots(void)
{
	slots[0] = kt_int(8);
	slots[1] = kt_int(100);
	CHECK_EQ_INT(ival(BIN(MOD, sym("N"), sym("X"))), 4);
}

static void each_error_fails_with_its_message(void)
{
	CHECK(fails_with(BIN(DIV, I(1), I(0)), "division by zero"));
	CHECK(fails_with(BIN(MOD, I(1), I(0)), "modulo by zero"));
	CHECK(fails_with(BIN(DIV, F(1.0), I(0)), "division by zero"));
	CHECK(fails_with(BIN(DIV, I(INT64_MIN), I(-1)), "overflow"));
	CHECK(fails_with(BIN(MOD, I(INT64_MIN), I(-1)), "overflow"));
	CHECK(fails_with(BIN(ADD, I(INT64_MAX), I(1)), "overflow"));
	CHECK(fails_with(BIN(SUB, I(INT64_MIN), I(1)), "overflow"));
	CHECK(fails_with(BIN(MUL, I(INT64_C(1) << 40), I(INT64_C(1) << 30)),
	                 "overflow"));
	CHECK(fails_with(E_UN(KT_OP_NEG, I(INT64_MIN)), "overflow"));
	CHECK(fails_with(BIN(SHL, I(1), I(64)), "shift count out of range"));
	CHECK(fails_with(BIN(SHR, I(1), I(-1)), "shift count out of range"));
	CHECK(fails_with(BIN(SHL, I(1), I(63)), "overflow"));
	CHECK(fails_with(BIN(MOD, F(5.0), I(2)), "'%' needs integers"));
	CHECK(fails_with(BIN(BITAND, F(5.0), I(2)), "bit operator on a float"));
	CHECK(fails_with(E_UN(KT_OP_BITNOT, F(1.0)), "needs an integer"));
	CHECK(fails_with(E_CALL(KT_FN_LOG2, 1, I(0)), "not positive"));
	CHECK(fails_with(E_CALL(KT_FN_LOG2, 1, I(-8)), "not positive"));
	CHECK(fails_with(E_CALL(KT_FN_POW2, 1, I(63)), "out of range"));
	CHECK(fails_with(E_CALL(KT_FN_POW2, 1, I(-1)), "out of range"));
	CHECK(fails_with(E_CALL(KT_FN_ABS, 1, I(INT64_MIN)), "overflow"));
	CHECK(fails_with(E_CALL(KT_FN_INT, 1, F(1e30)), "out of the range"));
	CHECK(fails_with(E_CALL(KT_FN_DIV_CEIL, 2, I(3), I(0)),
	                 "division by zero"));
	CHECK(fails_with(E_CALL(KT_FN_MIN, 0), "wrong number of arguments"));
	kt_expr *s = tm_node(KT_EXPR_STRING, 0, 0);
	s->str = "half";
	CHECK(fails_with(s, "a string is not a number"));
}

static void error_names_the_failing_subexpression(void)
{
	kt_expr *div = E_AT(BIN(DIV, sym("N"), sym("X")), 3, 24, 5);
	kt_expr *e = BIN(GT, BIN(ADD, I(1), div), I(2));
	const kt_expr *where = NULL;
	kt_value v;
	slots[0] = kt_int(0);
	slots[1] = kt_int(100);
	CHECK_EQ_INT(kt_expr_eval_where(&v, e, slots, &where), KT_EINVALID);
	CHECK(where == div);
	CHECK_EQ_STR(kt_error_last(), "division by zero in 'N / X'");
	kt_expr *nested = BIN(MOD, BIN(ADD, sym("N"), I(1)), sym("X"));
	CHECK_EQ_INT(kt_expr_eval(&v, nested, slots), KT_EINVALID);
	CHECK_EQ_STR(kt_error_last(), "modulo by zero in '(N + 1) % X'");
}

static void bind_fills_params_problems_devices_then_sets(void)
{
	tmodel t;
	tm_init(&t);
	static const int64_t xs[] = {16, 32, 64}, ns[] = {1000, 4096};
	tm_param(&t, "X", xs, 3, 2);
	tm_set(&t, "S",
	       BIN(ADD, BIN(MUL, E_SYM("X"), E_SYM("N")),
	           E_SYM("DEVICE_SM_COUNT")));
	tm_set(&t, "T", BIN(MUL, E_SYM("S"), I(2)));
	tm_problem(&t, "N", ns, 2, 1);
	tm_device(&t, "DEVICE_SM_COUNT", 132);
	const kt_model *m = tm_finish(&t);
	kt_value sl[5];
	uint32_t idx[1];
	kt_model_default_config(m, idx);
	CHECK_EQ_INT(idx[0], 2);
	CHECK_EQ_INT(kt_model_bind(sl, m, idx, NULL, NULL), 0);
	CHECK_EQ_INT(sl[0].i, 64);
	CHECK_EQ_INT(sl[1].i, 64 * 4096 + 132);
	CHECK_EQ_INT(sl[2].i, 2 * (64 * 4096 + 132));
	kt_value prob[] = {kt_int(1000)}, dev[] = {kt_int(8)};
	idx[0] = 0;
	CHECK_EQ_INT(kt_model_bind(sl, m, idx, prob, dev), 0);
	CHECK_EQ_INT(sl[1].i, 16 * 1000 + 8);
	CHECK_EQ_INT(sl[3].i, 1000);
	CHECK_EQ_INT(sl[4].i, 8);
	idx[0] = 3;
	CHECK_EQ_INT(kt_model_bind(sl, m, idx, NULL, NULL), KT_EINVALID);
	tm_free(&t);
}

static void bind_reports_a_failing_set(void)
{
	tmodel t;
	tm_init(&t);
	static const int64_t xs[] = {0, 2};
	tm_param(&t, "X", xs, 2, 0);
	tm_set(&t, "S", BIN(DIV, I(10), E_SYM("X")));
	const kt_model *m = tm_finish(&t);
	kt_value sl[2];
	uint32_t idx[1] = {0};
	CHECK_EQ_INT(kt_model_bind(sl, m, idx, NULL, NULL), KT_EINVALID);
	CHECK_EQ_STR(kt_error_last(), "division by zero in '10 / X'");
	idx[0] = 1;
	CHECK_EQ_INT(kt_model_bind(sl, m, idx, NULL, NULL), 0);
	CHECK_EQ_INT(sl[1].i, 5);
	tm_free(&t);
}

int main(void)
{
	setup();
	RUN(integer_arithmetic_operators);
	RUN(division_and_modulo_truncate_toward_zero_like_c);
	RUN(shifts_and_bit_operators);
	RUN(comparisons_and_logic_give_zero_or_one);
	RUN(logic_and_conditional_short_circuit);
	RUN(mixed_arithmetic_is_float);
	RUN(functions);
	RUN(symbols_read_their_slots);
	RUN(each_error_fails_with_its_message);
	RUN(error_names_the_failing_subexpression);
	tm_free(&T);
	RUN(bind_fills_params_problems_devices_then_sets);
	RUN(bind_reports_a_failing_set);
	return check_summary();
}
