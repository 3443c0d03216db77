/*
 * eval.c - evaluating the expressions of a space model against slot values,
 * and binding a configuration to slots.
 *
 * Integers follow C on a 64-bit int64_t exactly where C is defined, and fail
 * (KT_EINVALID) where C would be undefined: division or modulo by zero,
 * INT64_MIN / -1, signed overflow, shifts outside [0, 63]. The design choice
 * a reader needs: a failure reports the innermost sub-expression that failed
 * (kt_expr_eval_where), so the space builder can put a diagnostic with a
 * caret under exactly that part of the pragma.
 */
#include "ktc/model.h"

#include "grammar/grammar.h"

#include "util/str.h"

#include <math.h>
#include <string.h>

typedef struct evalctx {
	const kt_value *slots;
	const kt_expr **where;
} evalctx;

static int eval(evalctx *c, const kt_expr *e, kt_value *out);

static const char *op_text(int op)
{
	static const char *const names[] = {
	    [KT_OP_NEG] = "-",    [KT_OP_PLUS] = "+",  [KT_OP_NOT] = "!",
	    [KT_OP_BITNOT] = "~", [KT_OP_MUL] = "*",   [KT_OP_DIV] = "/",
	    [KT_OP_MOD] = "%",    [KT_OP_ADD] = "+",   [KT_OP_SUB] = "-",
	    [KT_OP_SHL] = "<<",   [KT_OP_SHR] = ">>",  [KT_OP_LT] = "<",
	    [KT_OP_LE] = "<=",    [KT_OP_GT] = ">",    [KT_OP_GE] = ">=",
	    [KT_OP_EQ] = "==",    [KT_OP_NE] = "!=",   [KT_OP_BITAND] = "&",
	    [KT_OP_BITXOR] = "^", [KT_OP_BITOR] = "|", [KT_OP_AND] = "&&",
	    [KT_OP_OR] = "||",
	};
	if (op < 0 || (size_t)op >= sizeof(names) / sizeof(names[0]))
		return "?";
	return names[op];
}

static const char *fn_name(int fn)
{
	return fn >= 0 && (size_t)fn < expr_nfuncs ? expr_func_names[fn] : "?";
}

/* The expression as C text, for messages; parenthesised where nested. */
static void show(kt_str *s, const kt_expr *e, bool nested)
{
	switch (e->kind) {
	case KT_EXPR_INT: kt_str_addf(s, "%lld", (long long)e->lit.i); return;
	case KT_EXPR_FLOAT: kt_str_addf(s, "%g", e->lit.f); return;
	case KT_EXPR_STRING: kt_str_addf(s, "\"%s\"", e->str); return;
	case KT_EXPR_SYMBOL: kt_str_adds(s, e->str ? e->str : "?"); return;
	case KT_EXPR_UNARY:
		kt_str_adds(s, op_text(e->op));
		show(s, e->args[0], true);
		return;
	case KT_EXPR_CALL:
		kt_str_addf(s, "%s(", fn_name(e->op));
		for (int i = 0; i < e->nargs; i++) {
			kt_str_adds(s, i ? ", " : "");
			show(s, e->args[i], false);
		}
		kt_str_addc(s, ')');
		return;
	default: break;
	}
	kt_str_adds(s, nested ? "(" : "");
	show(s, e->args[0], true);
	if (e->kind == KT_EXPR_COND) {
		kt_str_adds(s, " ? ");
		show(s, e->args[1], true);
		kt_str_adds(s, " : ");
		show(s, e->args[2], true);
	} else {
		kt_str_addf(s, " %s ", op_text(e->op));
		show(s, e->args[1], true);
	}
	kt_str_adds(s, nested ? ")" : "");
}

/* Fails evaluation at e: "division by zero in 'N / BLOCK'". */
static int fail(evalctx *c, const kt_expr *e, const char *what)
{
	kt_str s = KT_STR_INIT;
	show(&s, e, false);
	if (c->where)
		*c->where = e;
	kt_error(KT_EINVALID, "%s in '%s'", what, s.ptr);
	kt_str_release(&s);
	return KT_EINVALID;
}

static bool truthy(kt_value v)
{
	return v.is_float ? v.f != 0.0 : v.i != 0;
}

static int eval_unary(evalctx *c, const kt_expr *e, kt_value *out)
{
	kt_value a;
	int rc = eval(c, e->args[0], &a);
	if (rc)
		return rc;
	switch (e->op) {
	case KT_OP_PLUS: *out = a; return 0;
	case KT_OP_NOT: *out = kt_int(!truthy(a)); return 0;
	case KT_OP_NEG:
		if (a.is_float) {
			*out = kt_float(-a.f);
			return 0;
		}
		if (a.i == INT64_MIN)
			return fail(c, e, "integer overflow");
		*out = kt_int(-a.i);
		return 0;
	case KT_OP_BITNOT:
		if (a.is_float)
			return fail(c, e, "'~' needs an integer");
		*out = kt_int(~a.i);
		return 0;
	default: return fail(c, e, "unknown operator");
	}
}

static int arith_float(evalctx *c, const kt_expr *e, double a, double b,
                       kt_value *out)
{
	switch (e->op) {
	case KT_OP_ADD: *out = kt_float(a + b); return 0;
	case KT_OP_SUB: *out = kt_float(a - b); return 0;
	case KT_OP_MUL: *out = kt_float(a * b); return 0;
	case KT_OP_DIV:
		if (b == 0.0)
			return fail(c, e, "division by zero");
		*out = kt_float(a / b);
		return 0;
	case KT_OP_LT: *out = kt_int(a < b); return 0;
	case KT_OP_LE: *out = kt_int(a <= b); return 0;
	case KT_OP_GT: *out = kt_int(a > b); return 0;
	case KT_OP_GE: *out = kt_int(a >= b); return 0;
	case KT_OP_EQ: *out = kt_int(a == b); return 0;
	case KT_OP_NE: *out = kt_int(a != b); return 0;
	default:
		return fail(c, e,
		            e->op == KT_OP_MOD ? "'%' needs integers"
		                               : "bit operator on a float");
	}
}

static int shift(evalctx *c, const kt_expr *e, int64_t a, int64_t b,
                 kt_value *out)
{
	if (b < 0 || b > 63)
		return fail(c, e, "shift count out of range [0, 63]");
	if (e->op == KT_OP_SHR) {
		*out =
		    kt_int(a >> b); /* arithmetic, as gcc and clang define it */
		return 0;
	}
	/* a << b is a * 2^b: fine for negative a, an error if it overflows */
	int64_t r = (int64_t)((uint64_t)a << b);
	if ((r >> b) != a)
		return fail(c, e, "integer overflow");
	*out = kt_int(r);
	return 0;
}

static int arith_int(evalctx *c, const kt_expr *e, int64_t a, int64_t b,
                     kt_value *out)
{
	int64_t r = 0;
	switch (e->op) {
	case KT_OP_ADD:
		if (__builtin_add_overflow(a, b, &r))
			return fail(c, e, "integer overflow");
		break;
	case KT_OP_SUB:
		if (__builtin_sub_overflow(a, b, &r))
			return fail(c, e, "integer overflow");
		break;
	case KT_OP_MUL:
		if (__builtin_mul_overflow(a, b, &r))
			return fail(c, e, "integer overflow");
		break;
	case KT_OP_DIV:
	case KT_OP_MOD:
		if (b == 0)
			return fail(c, e,
			            e->op == KT_OP_DIV ? "division by zero"
			                               : "modulo by zero");
		if (a == INT64_MIN && b == -1)
			return fail(c, e, "integer overflow");
		r = e->op == KT_OP_DIV ? a / b : a % b;
		break;
	case KT_OP_SHL:
	case KT_OP_SHR: return shift(c, e, a, b, out);
	case KT_OP_LT: r = a < b; break;
	case KT_OP_LE: r = a <= b; break;
	case KT_OP_GT: r = a > b; break;
	case KT_OP_GE: r = a >= b; break;
	case KT_OP_EQ: r = a == b; break;
	case KT_OP_NE: r = a != b; break;
	case KT_OP_BITAND: r = a & b; break;
	case KT_OP_BITXOR: r = a ^ b; break;
	case KT_OP_BITOR: r = a | b; break;
	default: return fail(c, e, "unknown operator");
	}
	*out = kt_int(r);
	return 0;
}

static int eval_binary(evalctx *c, const kt_expr *e, kt_value *out)
{
	kt_value a, b;
	int rc = eval(c, e->args[0], &a);
	if (rc)
		return rc;
	/* && and || short-circuit as in C: `X != 0 && N % X == 0` is safe */
	if (e->op == KT_OP_AND || e->op == KT_OP_OR) {
		if (truthy(a) == (e->op == KT_OP_OR)) {
			*out = kt_int(e->op == KT_OP_OR);
			return 0;
		}
		if ((rc = eval(c, e->args[1], &b)))
			return rc;
		*out = kt_int(truthy(b));
		return 0;
	}
	if ((rc = eval(c, e->args[1], &b)))
		return rc;
	if (a.is_float || b.is_float)
		return arith_float(c, e, kt_value_as_double(a),
		                   kt_value_as_double(b), out);
	return arith_int(c, e, a.i, b.i, out);
}

/* min and max of any number of arguments; one float makes a float. */
static int min_max(evalctx *c, const kt_expr *e, const kt_value *v,
                   kt_value *out)
{
	bool is_max = e->op == KT_FN_MAX, any_float = v[0].is_float;
	kt_value best = v[0];
	for (int i = 1; i < e->nargs; i++) {
		bool better;
		any_float |= v[i].is_float;
		if (!v[i].is_float && !best.is_float) {
			better = is_max ? v[i].i > best.i : v[i].i < best.i;
		} else {
			double x = kt_value_as_double(v[i]);
			double y = kt_value_as_double(best);
			better = is_max ? x > y : x < y;
		}
		if (better)
			best = v[i];
	}
	*out = any_float ? kt_float(kt_value_as_double(best)) : best;
	return 0;
}

/* Rounds toward positive infinity for any signs, as its name says. */
static int div_ceil(evalctx *c, const kt_expr *e, kt_value a, kt_value b,
                    kt_value *out)
{
	if (a.is_float || b.is_float)
		return fail(c, e, "div_ceil needs integers");
	if (b.i == 0)
		return fail(c, e, "division by zero");
	if (a.i == INT64_MIN && b.i == -1)
		return fail(c, e, "integer overflow");
	int64_t q = a.i / b.i;
	if (a.i % b.i != 0 && ((a.i < 0) == (b.i < 0)))
		q++;
	*out = kt_int(q);
	return 0;
}

static int log2_pow2(evalctx *c, const kt_expr *e, kt_value a, kt_value *out)
{
	if (e->op == KT_FN_POW2) {
		if (a.is_float)
			return fail(c, e, "pow2 needs an integer");
		if (a.i < 0 || a.i > 62)
			return fail(c, e, "pow2 argument out of range [0, 62]");
		*out = kt_int((int64_t)1 << a.i);
		return 0;
	}
	if (a.is_float) {
		if (!(a.f > 0.0))
			return fail(c, e,
			            "log2 of a value that is not positive");
		*out = kt_float(log2(a.f));
		return 0;
	}
	if (a.i <= 0)
		return fail(c, e, "log2 of a value that is not positive");
	*out = kt_int(63 - __builtin_clzll((unsigned long long)a.i));
	return 0;
}

/* abs, floor, ceil, round, float, int: one argument each. */
static int unary_fn(evalctx *c, const kt_expr *e, kt_value a, kt_value *out)
{
	switch (e->op) {
	case KT_FN_ABS:
		if (a.is_float)
			*out = kt_float(fabs(a.f));
		else if (a.i == INT64_MIN)
			return fail(c, e, "integer overflow");
		else
			*out = kt_int(a.i < 0 ? -a.i : a.i);
		return 0;
	case KT_FN_FLOOR:
		*out = a.is_float ? kt_float(floor(a.f)) : a;
		return 0;
	case KT_FN_CEIL: *out = a.is_float ? kt_float(ceil(a.f)) : a; return 0;
	case KT_FN_ROUND:
		*out = a.is_float ? kt_float(round(a.f)) : a;
		return 0;
	case KT_FN_FLOAT: *out = kt_float(kt_value_as_double(a)); return 0;
	case KT_FN_INT:
		if (!a.is_float) {
			*out = a;
			return 0;
		}
		/* truncation toward zero, as a C cast; 2^63 is out of range */
		if (!(a.f > -9223372036854775809.0 &&
		      a.f < 9223372036854775808.0))
			return fail(c, e, "value out of the range of int");
		*out = kt_int((int64_t)a.f);
		return 0;
	default: return log2_pow2(c, e, a, out);
	}
}

static int eval_call(evalctx *c, const kt_expr *e, kt_value *out)
{
	enum { MAX_ARGS = 16 };
	kt_value v[MAX_ARGS];
	int want = e->op == KT_FN_DIV_CEIL ? 2 : 1;
	bool nary = e->op == KT_FN_MIN || e->op == KT_FN_MAX;
	if (e->op < KT_FN_MIN || e->op > KT_FN_INT)
		return fail(c, e, "unknown function");
	if (nary ? (e->nargs < 1 || e->nargs > MAX_ARGS) : e->nargs != want)
		return fail(c, e, "wrong number of arguments");
	for (int i = 0; i < e->nargs; i++) {
		int rc = eval(c, e->args[i], &v[i]);
		if (rc)
			return rc;
	}
	if (nary)
		return min_max(c, e, v, out);
	if (e->op == KT_FN_DIV_CEIL)
		return div_ceil(c, e, v[0], v[1], out);
	return unary_fn(c, e, v[0], out);
}

static int eval(evalctx *c, const kt_expr *e, kt_value *out)
{
	switch (e->kind) {
	case KT_EXPR_INT:
	case KT_EXPR_FLOAT: *out = e->lit; return 0;
	case KT_EXPR_SYMBOL:
		if (e->sym < 0)
			return fail(c, e, "unresolved name");
		*out = c->slots[e->sym];
		return 0;
	case KT_EXPR_UNARY: return eval_unary(c, e, out);
	case KT_EXPR_BINARY: return eval_binary(c, e, out);
	case KT_EXPR_COND: {
		kt_value cond;
		int rc = eval(c, e->args[0], &cond);
		if (rc)
			return rc;
		return eval(c, e->args[truthy(cond) ? 1 : 2], out);
	}
	case KT_EXPR_CALL: return eval_call(c, e, out);
	case KT_EXPR_STRING: return fail(c, e, "a string is not a number");
	}
	return fail(c, e, "unknown expression");
}

int kt_expr_eval_where(kt_value *out, const kt_expr *e, const kt_value *slots,
                       const kt_expr **where)
{
	evalctx c = {.slots = slots, .where = where};
	if (where)
		*where = NULL;
	return eval(&c, e, out);
}

int kt_expr_eval(kt_value *out, const kt_expr *e, const kt_value *slots)
{
	return kt_expr_eval_where(out, e, slots, NULL);
}

kt_value kt_model_problem_value(const kt_model *m, const kt_value *problem,
                                size_t i)
{
	const kt_problem *pr = &m->problems[i];
	return problem ? problem[i] : pr->values[pr->default_index];
}

void kt_model_default_config(const kt_model *m, uint32_t *param_idx)
{
	for (size_t p = 0; p < m->nparams; p++)
		param_idx[p] = (uint32_t)m->params[p].default_index;
}

int kt_model_bind(kt_value *slots, const kt_model *m, const uint32_t *param_idx,
                  const kt_value *problem, const kt_value *device)
{
	for (size_t p = 0; p < m->nparams; p++) {
		const kt_param *pa = &m->params[p];
		if (param_idx[p] >= pa->nvalues)
			return kt_error(KT_EINVALID,
			                "value index %u out of range for '%s'",
			                param_idx[p], pa->name);
		slots[pa->sym] = pa->values[param_idx[p]];
	}
	for (size_t i = 0; i < m->nproblems; i++)
		slots[m->problems[i].sym] =
		    kt_model_problem_value(m, problem, i);
	for (size_t i = 0; i < m->ndevices; i++)
		slots[m->devices[i].sym] =
		    device ? device[i] : m->devices[i].fallback;
	/* sets last: they may use problem and device values */
	for (size_t i = 0; i < m->nsets; i++) {
		int rc = kt_expr_eval(&slots[m->sets[i].sym], m->sets[i].expr,
		                      slots);
		if (rc)
			return rc;
	}
	return 0;
}
