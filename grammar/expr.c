/*
 * expr.c - the expression language of `#pragma kt` lines: C's operators
 * with C's precedence, integer and float constants, names and a few
 * functions; and kt_expr_format, which writes an expression back as C.
 *
 * Parsing is precedence climbing over one table of binary operators; names
 * stay unresolved here (sym = -1) because a directive may use a parameter
 * declared further down the block: build.c resolves them all at once.
 */
#include "grammar/grammar.h"

#include "util/num.h"
#include "util/str.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const expr_func_names[] = {
    [KT_FN_MIN] = "min",           [KT_FN_MAX] = "max",
    [KT_FN_DIV_CEIL] = "div_ceil", [KT_FN_LOG2] = "log2",
    [KT_FN_POW2] = "pow2",         [KT_FN_ABS] = "abs",
    [KT_FN_FLOOR] = "floor",       [KT_FN_CEIL] = "ceil",
    [KT_FN_ROUND] = "round",       [KT_FN_FLOAT] = "float",
    [KT_FN_INT] = "int",
};
const size_t expr_nfuncs = sizeof(expr_func_names) / sizeof(expr_func_names[0]);

/* Binary operators: token, kt_op, precedence (higher binds tighter). */
static const struct binop {
	int punct;
	kt_op op;
	int prec;
	const char *spell;
} binops[] = {
    {P_OR, KT_OP_OR, 1, "||"},   {P_AND, KT_OP_AND, 2, "&&"},
    {'|', KT_OP_BITOR, 3, "|"},  {'^', KT_OP_BITXOR, 4, "^"},
    {'&', KT_OP_BITAND, 5, "&"}, {P_EQ, KT_OP_EQ, 6, "=="},
    {P_NE, KT_OP_NE, 6, "!="},   {'<', KT_OP_LT, 7, "<"},
    {P_LE, KT_OP_LE, 7, "<="},   {'>', KT_OP_GT, 7, ">"},
    {P_GE, KT_OP_GE, 7, ">="},   {P_SHL, KT_OP_SHL, 8, "<<"},
    {P_SHR, KT_OP_SHR, 8, ">>"}, {'+', KT_OP_ADD, 9, "+"},
    {'-', KT_OP_SUB, 9, "-"},    {'*', KT_OP_MUL, 10, "*"},
    {'/', KT_OP_DIV, 10, "/"},   {'%', KT_OP_MOD, 10, "%"},
};
enum { PREC_COND = 0, PREC_UNARY = 11, PREC_PRIMARY = 12 };

static const struct binop *find_binop(const lexer *lx)
{
	if (lx->tok.kind != TOK_PUNCT)
		return NULL;
	for (size_t i = 0; i < sizeof(binops) / sizeof(binops[0]); i++)
		if (binops[i].punct == lx->tok.punct)
			return &binops[i];
	return NULL;
}

static const struct binop *binop_of(kt_op op)
{
	for (size_t i = 0; i < sizeof(binops) / sizeof(binops[0]); i++)
		if (binops[i].op == op)
			return &binops[i];
	return NULL;
}

typedef struct eparser {
	lexer *lx;
	bool allow_string;
	int depth;
	int nodes;
	bool too_long; /* reported once */
} eparser;

static kt_expr *parse_cond(eparser *p);

static kt_expr *new_expr(eparser *p, kt_expr_kind kind, size_t off)
{
	/* A long chain "1+1+...+1" is a tree as deep as it is long, and every
	 * walk over it (here, in the evaluator) recurses: so it is bounded. */
	if (++p->nodes > GRAM_MAX_NODES && !p->too_long) {
		p->too_long = true;
		gram_diag(p->lx->g, KT_DIAG_ERROR, p->lx->prev_end, 1,
		          "expression is too long (more than %d terms)",
		          GRAM_MAX_NODES);
	}
	kt_expr *e = gram_alloc(p->lx->g, sizeof(*e));
	e->kind = kind;
	e->sym = -1;
	e->loc = gram_loc(p->lx->g, off);
	return e;
}

/* Sets e's length from its start to the end of the last token read. */
static kt_expr *finish(eparser *p, kt_expr *e, size_t off)
{
	size_t end = p->lx->prev_end;
	e->len = end > off ? (int)(end - off) : 1;
	/* A continuation line would put the end on another line. */
	kt_loc last = gram_loc(p->lx->g, end > off ? end - 1 : off);
	if (last.line != e->loc.line) {
		const char *t = p->lx->g->text + off;
		e->len = (int)strcspn(t, "\r\n");
		if (e->len > 0 && t[e->len - 1] == '\\')
			e->len--;
		if (e->len < 1)
			e->len = 1;
	}
	return e;
}

static void error_here(eparser *p, const char *what)
{
	lexer *lx = p->lx;
	if (lx->tok.kind != TOK_BAD)
		gram_diag(lx->g, KT_DIAG_ERROR, lx->tok.off, lx->tok.len,
		          "expected %s, found %s", what, lex_describe(lx));
}

static int find_func(const char *s, size_t n)
{
	for (size_t i = 0; i < expr_nfuncs; i++)
		if (strlen(expr_func_names[i]) == n &&
		    !memcmp(expr_func_names[i], s, n))
			return (int)i;
	return -1;
}

static bool arity_ok(int fn, int n)
{
	switch (fn) {
	case KT_FN_MIN:
	case KT_FN_MAX: return n >= 2;
	case KT_FN_DIV_CEIL: return n == 2;
	default: return n == 1;
	}
}

static const char *arity_text(int fn)
{
	switch (fn) {
	case KT_FN_MIN:
	case KT_FN_MAX: return "at least 2 arguments";
	case KT_FN_DIV_CEIL: return "2 arguments";
	default: return "1 argument";
	}
}

/* args = "(" [ cond { "," cond } ] ")" */
static bool parse_args(eparser *p, kt_expr *call, size_t open_off)
{
	lexer *lx = p->lx;
	size_t cap = 0;
	lex_next(lx); /* "(" */
	if (lex_is(lx, ')')) {
		lex_next(lx);
		return true;
	}
	for (;;) {
		kt_expr *a = parse_cond(p);
		if (!a)
			return false;
		GRAM_PUSH(lx->g, call->args, call->nargs, cap, a);
		if (lex_is(lx, ','))
			lex_next(lx);
		else if (lex_is(lx, ')')) {
			lex_next(lx);
			return true;
		} else {
			error_here(p, "',' or ')'");
			if (lx->tok.kind == TOK_EOL)
				gram_diag(lx->g, KT_DIAG_NOTE, open_off, 1,
				          "to match this '('");
			return false;
		}
	}
}

/* call = FUNC args */
static kt_expr *parse_call(eparser *p, int fn, size_t off)
{
	lexer *lx = p->lx;
	kt_expr *e = new_expr(p, KT_EXPR_CALL, off);
	e->op = fn;
	size_t open_off = lx->tok.off;
	if (!parse_args(p, e, open_off))
		return NULL;
	finish(p, e, off);
	if (!arity_ok(fn, e->nargs)) {
		gram_diag_at(lx->g, KT_DIAG_ERROR, e->loc, e->len,
		             "'%s' takes %s, %d given", expr_func_names[fn],
		             arity_text(fn), e->nargs);
		return NULL;
	}
	return e;
}

/* name = IDENT [ args ] : a function call or a symbol */
static kt_expr *parse_name(eparser *p)
{
	lexer *lx = p->lx;
	size_t off = lx->tok.off, len = lx->tok.len;
	const char *s = lx->g->text + off;
	lex_next(lx);
	int fn = find_func(s, len);
	if (lex_is(lx, '(')) {
		if (fn >= 0)
			return parse_call(p, fn, off);
		const char *sug =
		    gram_suggest(s, len, expr_func_names, expr_nfuncs);
		gram_diag(lx->g, KT_DIAG_ERROR, off, len,
		          "unknown function '%.*s'%s%s%s", (int)len, s,
		          sug ? "; did you mean '" : "", sug ? sug : "",
		          sug ? "'?" : "");
		return NULL;
	}
	if (fn >= 0) {
		gram_diag(lx->g, KT_DIAG_ERROR, lx->tok.off, lx->tok.len,
		          "expected '(' after function '%.*s', found %s",
		          (int)len, s, lex_describe(lx));
		return NULL;
	}
	kt_expr *e = new_expr(p, KT_EXPR_SYMBOL, off);
	e->str = gram_strndup(lx->g, s, len);
	return finish(p, e, off);
}

/* primary = INT | FLOAT | STRING | name | "(" cond ")" */
static kt_expr *parse_primary(eparser *p)
{
	lexer *lx = p->lx;
	size_t off = lx->tok.off;
	kt_expr *e;
	switch (lx->tok.kind) {
	case TOK_INT:
		e = new_expr(p, KT_EXPR_INT, off);
		e->lit = kt_int(lx->tok.ival);
		lex_next(lx);
		return finish(p, e, off);
	case TOK_FLOAT:
		e = new_expr(p, KT_EXPR_FLOAT, off);
		e->lit = kt_float(lx->tok.fval);
		lex_next(lx);
		return finish(p, e, off);
	case TOK_STRING:
		if (!p->allow_string) {
			gram_diag(lx->g, KT_DIAG_ERROR, off, lx->tok.len,
			          "a string is allowed only in 'kernel "
			          "template(...)'");
			return NULL;
		}
		e = new_expr(p, KT_EXPR_STRING, off);
		e->str = lx->tok.str;
		lex_next(lx);
		return finish(p, e, off);
	case TOK_IDENT: return parse_name(p);
	default: break;
	}
	if (!lex_is(lx, '(')) {
		error_here(p, "an expression");
		return NULL;
	}
	lex_next(lx);
	e = parse_cond(p);
	if (!e)
		return NULL;
	if (!lex_is(lx, ')')) {
		error_here(p, "')'");
		gram_diag(lx->g, KT_DIAG_NOTE, off, 1, "to match this '('");
		return NULL;
	}
	lex_next(lx);
	return e;
}

/* unary = ( "-" | "+" | "!" | "~" ) unary | primary */
static kt_expr *parse_unary(eparser *p)
{
	lexer *lx = p->lx;
	static const struct {
		int punct;
		kt_op op;
	} ops[] = {{'-', KT_OP_NEG},
	           {'+', KT_OP_PLUS},
	           {'!', KT_OP_NOT},
	           {'~', KT_OP_BITNOT}};
	for (size_t i = 0; i < 4; i++) {
		if (!lex_is(lx, ops[i].punct))
			continue;
		size_t off = lx->tok.off;
		lex_next(lx);
		if (++p->depth > GRAM_MAX_DEPTH) {
			gram_diag(lx->g, KT_DIAG_ERROR, off, 1,
			          "expression is nested too deeply");
			return NULL;
		}
		kt_expr *a = parse_unary(p);
		p->depth--;
		if (!a)
			return NULL;
		kt_expr *e = new_expr(p, KT_EXPR_UNARY, off);
		e->op = ops[i].op;
		e->args = gram_alloc(lx->g, sizeof(*e->args));
		e->args[0] = a;
		e->nargs = 1;
		return finish(p, e, off);
	}
	return parse_primary(p);
}

/* binary(min) = unary { BINOP binary(prec + 1) }, for BINOP.prec >= min */
static kt_expr *parse_binary(eparser *p, int min_prec)
{
	lexer *lx = p->lx;
	size_t off = lx->tok.off;
	kt_expr *lhs = parse_unary(p);
	const struct binop *b;
	while (lhs && (b = find_binop(lx)) && b->prec >= min_prec) {
		lex_next(lx);
		kt_expr *rhs = parse_binary(p, b->prec + 1);
		if (!rhs)
			return NULL;
		kt_expr *e = new_expr(p, KT_EXPR_BINARY, off);
		e->op = b->op;
		e->args = gram_alloc(lx->g, 2 * sizeof(*e->args));
		e->args[0] = lhs;
		e->args[1] = rhs;
		e->nargs = 2;
		lhs = finish(p, e, off);
	}
	return lhs;
}

/* cond = binary(1) [ "?" cond ":" cond ] */
static kt_expr *parse_cond(eparser *p)
{
	lexer *lx = p->lx;
	size_t off = lx->tok.off;
	if (++p->depth > GRAM_MAX_DEPTH) {
		gram_diag(lx->g, KT_DIAG_ERROR, off, lx->tok.len,
		          "expression is nested too deeply");
		return NULL;
	}
	kt_expr *c = parse_binary(p, 1), *e = c;
	if (c && lex_is(lx, '?')) {
		lex_next(lx);
		kt_expr *a = parse_cond(p);
		kt_expr *b =
		    a && lex_expect(lx, ':', "':'") ? parse_cond(p) : NULL;
		e = NULL;
		if (b) {
			e = new_expr(p, KT_EXPR_COND, off);
			e->args = gram_alloc(lx->g, 3 * sizeof(*e->args));
			e->args[0] = c;
			e->args[1] = a;
			e->args[2] = b;
			e->nargs = 3;
			finish(p, e, off);
		}
	}
	p->depth--;
	return e;
}

kt_expr *expr_parse(lexer *lx, bool allow_string)
{
	eparser p = {.lx = lx, .allow_string = allow_string};
	kt_expr *e = parse_cond(&p);
	return p.too_long ? NULL : e;
}

/* --- formatting ------------------------------------------------------ */

static int prec_of(const kt_expr *e)
{
	switch (e->kind) {
	case KT_EXPR_BINARY: return binop_of((kt_op)e->op)->prec;
	case KT_EXPR_COND: return PREC_COND;
	case KT_EXPR_UNARY: return PREC_UNARY;
	case KT_EXPR_INT: return e->lit.i < 0 ? PREC_UNARY : PREC_PRIMARY;
	case KT_EXPR_FLOAT:
		return signbit(e->lit.f) ? PREC_UNARY : PREC_PRIMARY;
	default: return PREC_PRIMARY;
	}
}

static int format_float(kt_str *s, double d)
{
	char buf[KT_NUM_MAX];
	kt_num_float_literal(buf, sizeof(buf), d);
	return kt_str_adds(s, buf);
}

static int format_string(kt_str *s, const char *str)
{
	int rc = kt_str_addc(s, '"');
	for (; !rc && *str; str++) {
		if (*str == '"' || *str == '\\')
			rc = kt_str_addc(s, '\\');
		if (!rc && *str == '\n')
			rc = kt_str_adds(s, "\\n");
		else if (!rc && *str == '\t')
			rc = kt_str_adds(s, "\\t");
		else if (!rc)
			rc = kt_str_addc(s, *str);
	}
	return rc ? rc : kt_str_addc(s, '"');
}

static int format_sub(kt_str *s, const kt_expr *e, const kt_model *m, int need);

/* Whether writing operand a right after unary e would make "--" or "++". */
static bool glues(const kt_expr *e, const kt_expr *a)
{
	bool a_neg = (a->kind == KT_EXPR_UNARY && a->op == KT_OP_NEG) ||
	             (a->kind == KT_EXPR_INT && a->lit.i < 0) ||
	             (a->kind == KT_EXPR_FLOAT && signbit(a->lit.f));
	bool a_plus = a->kind == KT_EXPR_UNARY && a->op == KT_OP_PLUS;
	return (e->op == KT_OP_NEG && a_neg) || (e->op == KT_OP_PLUS && a_plus);
}

static int format_node(kt_str *s, const kt_expr *e, const kt_model *m)
{
	static const char *const unops[] = {"-", "+", "!", "~"};
	int rc = 0;
	switch (e->kind) {
	case KT_EXPR_INT: return kt_str_addf(s, "%lld", (long long)e->lit.i);
	case KT_EXPR_FLOAT: return format_float(s, e->lit.f);
	case KT_EXPR_STRING: return format_string(s, e->str ? e->str : "");
	case KT_EXPR_SYMBOL:
		if (m && e->sym >= 0 && (size_t)e->sym < m->nsymbols)
			return kt_str_adds(s, m->symbols[e->sym].name);
		return kt_str_adds(s, e->str ? e->str : "?");
	case KT_EXPR_UNARY:
		rc = kt_str_adds(s,
		                 e->op >= 0 && e->op < 4 ? unops[e->op] : "?");
		return rc ? rc
		          : format_sub(s, e->args[0], m,
		                       glues(e, e->args[0]) ? PREC_PRIMARY
		                                            : PREC_UNARY);
	case KT_EXPR_BINARY: {
		const struct binop *b = binop_of((kt_op)e->op);
		if (!b)
			return kt_error(KT_EINVALID, "bad operator %d", e->op);
		rc = format_sub(s, e->args[0], m, b->prec);
		if (!rc)
			rc = kt_str_addf(s, " %s ", b->spell);
		return rc ? rc : format_sub(s, e->args[1], m, b->prec + 1);
	}
	case KT_EXPR_COND:
		rc = format_sub(s, e->args[0], m, PREC_COND + 1);
		if (!rc)
			rc = kt_str_adds(s, " ? ");
		if (!rc)
			rc = format_sub(s, e->args[1], m, PREC_COND);
		if (!rc)
			rc = kt_str_adds(s, " : ");
		return rc ? rc : format_sub(s, e->args[2], m, PREC_COND);
	case KT_EXPR_CALL:
		if (e->op < 0 || (size_t)e->op >= expr_nfuncs)
			return kt_error(KT_EINVALID, "bad function %d", e->op);
		rc = kt_str_addf(s, "%s(", expr_func_names[e->op]);
		for (int i = 0; !rc && i < e->nargs; i++) {
			if (i)
				rc = kt_str_adds(s, ", ");
			if (!rc)
				rc = format_sub(s, e->args[i], m, PREC_COND);
		}
		return rc ? rc : kt_str_addc(s, ')');
	}
	return kt_error(KT_EINVALID, "bad expression kind %d", (int)e->kind);
}

/* Writes e, in parentheses when it binds less tightly than need. */
static int format_sub(kt_str *s, const kt_expr *e, const kt_model *m, int need)
{
	bool paren = prec_of(e) < need;
	int rc = paren ? kt_str_addc(s, '(') : 0;
	if (!rc)
		rc = format_node(s, e, m);
	if (!rc && paren)
		rc = kt_str_addc(s, ')');
	return rc;
}

int kt_expr_format(char **out, const kt_expr *e, const kt_model *m)
{
	kt_str s = KT_STR_INIT;
	*out = NULL;
	if (!e)
		return kt_error(KT_EINVALID, "no expression to format");
	int rc = format_sub(&s, e, m, PREC_COND);
	if (!rc && !(*out = kt_str_detach(&s)))
		rc = kt_error(KT_ENOMEM, "out of memory");
	kt_str_release(&s);
	return rc;
}
