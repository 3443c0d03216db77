/*
 * tmodel.h - space models built by hand for the eval and space tests, so
 * they need no pragma parser. Expressions are trees made with E_* helpers;
 * names stay unresolved until tm_finish, which lays out the symbols the
 * way the parser does (params, sets, problems, devices) and fills every
 * set's and constraint's transitive parameter list.
 */
#ifndef KTC_TESTS_TMODEL_H
#define KTC_TESTS_TMODEL_H

#include "ktc/model.h"
#include "util/arena.h"

#include <stdarg.h>
#include <string.h>

enum { TM_MAX = 32 };

typedef struct tmodel {
	kt_arena arena;
	kt_model m;
	kt_param params[TM_MAX];
	kt_set sets[TM_MAX];
	kt_constraint cons[TM_MAX];
	kt_problem probs[TM_MAX];
	kt_device_const devs[TM_MAX];
	kt_symbol syms[4 * TM_MAX];
} tmodel;

static kt_arena *tm_cur_; /* the model the E_* helpers allocate in */

static inline void tm_init(tmodel *t)
{
	memset(t, 0, sizeof(*t));
	t->m.file = "test.kt.cu";
	t->m.kernel = "k";
	t->m.params = t->params;
	t->m.sets = t->sets;
	t->m.constraints = t->cons;
	t->m.problems = t->probs;
	t->m.devices = t->devs;
	t->m.symbols = t->syms;
	tm_cur_ = &t->arena;
}

static inline void tm_free(tmodel *t)
{
	kt_arena_release(&t->arena);
}

static inline kt_expr *tm_node(kt_expr_kind kind, int op, int nargs)
{
	kt_expr *e = kt_arena_alloc(tm_cur_, sizeof(*e));
	e->kind = kind;
	e->op = op;
	e->sym = -1;
	e->nargs = nargs;
	e->args =
	    kt_arena_alloc(tm_cur_, sizeof(kt_expr *) * (size_t)(nargs + 1));
	e->loc.line = 1;
	e->loc.col = 1;
	e->len = 1;
	return e;
}

static inline kt_expr *E_INT(int64_t v)
{
	kt_expr *e = tm_node(KT_EXPR_INT, 0, 0);
	e->lit = kt_int(v);
	return e;
}

static inline kt_expr *E_FLT(double v)
{
	kt_expr *e = tm_node(KT_EXPR_FLOAT, 0, 0);
	e->lit = kt_float(v);
	return e;
}

static inline kt_expr *E_SYM(const char *name)
{
	kt_expr *e = tm_node(KT_EXPR_SYMBOL, 0, 0);
	e->str = name;
	return e;
}

static inline kt_expr *E_UN(int op, kt_expr *a)
{
	kt_expr *e = tm_node(KT_EXPR_UNARY, op, 1);
	e->args[0] = a;
	return e;
}

static inline kt_expr *E_BIN(int op, kt_expr *a, kt_expr *b)
{
	kt_expr *e = tm_node(KT_EXPR_BINARY, op, 2);
	e->args[0] = a;
	e->args[1] = b;
	return e;
}

static inline kt_expr *E_COND(kt_expr *c, kt_expr *a, kt_expr *b)
{
	kt_expr *e = tm_node(KT_EXPR_COND, 0, 3);
	e->args[0] = c;
	e->args[1] = a;
	e->args[2] = b;
	return e;
}

static inline kt_expr *E_CALL(int fn, int nargs, ...)
{
	kt_expr *e = tm_node(KT_EXPR_CALL, fn, nargs);
	va_list ap;
	va_start(ap, nargs);
	for (int i = 0; i < nargs; i++)
		e->args[i] = va_arg(ap, kt_expr *);
	va_end(ap);
	return e;
}

/* Puts e at line:col with len columns, for diagnostics tests. */
static inline kt_expr *E_AT(kt_expr *e, int line, int col, int len)
{
	e->loc.line = line;
	e->loc.col = col;
	e->len = len;
	return e;
}

static inline kt_value *tm_values(const int64_t *v, size_t n)
{
	kt_value *out = kt_arena_alloc(tm_cur_, sizeof(kt_value) * (n + 1));
	for (size_t i = 0; i < n; i++)
		out[i] = kt_int(v[i]);
	return out;
}

static inline kt_param *tm_param(tmodel *t, const char *name, const int64_t *v,
                                 size_t n, size_t def)
{
	kt_param *p = &t->params[t->m.nparams++];
	p->name = name;
	p->values = tm_values(v, n);
	p->nvalues = n;
	p->default_index = def;
	return p;
}

static inline void tm_set(tmodel *t, const char *name, kt_expr *e)
{
	kt_set *s = &t->sets[t->m.nsets++];
	s->name = name;
	s->expr = e;
}

static inline void tm_constraint(tmodel *t, const char *text, kt_expr *e)
{
	kt_constraint *c = &t->cons[t->m.nconstraints++];
	c->text = text;
	c->expr = e;
	c->loc = e->loc;
}

static inline void tm_problem(tmodel *t, const char *name, const int64_t *v,
                              size_t n, size_t def)
{
	kt_problem *p = &t->probs[t->m.nproblems++];
	p->name = name;
	p->values = tm_values(v, n);
	p->nvalues = n;
	p->default_index = def;
}

static inline void tm_device(tmodel *t, const char *name, int64_t fallback)
{
	kt_device_const *d = &t->devs[t->m.ndevices++];
	d->name = name;
	d->fallback = kt_int(fallback);
}

static inline void tm_resolve(tmodel *t, kt_expr *e)
{
	if (e->kind == KT_EXPR_SYMBOL)
		for (size_t i = 0; i < t->m.nsymbols; i++)
			if (!strcmp(t->syms[i].name, e->str))
				e->sym = (int)i;
	for (int i = 0; i < e->nargs; i++)
		tm_resolve(t, e->args[i]);
}

/* Parameters e uses, directly or through sets (already filled). */
static inline void tm_deps(tmodel *t, const kt_expr *e, bool *use)
{
	if (e->kind == KT_EXPR_SYMBOL && e->sym >= 0) {
		const kt_symbol *s = &t->syms[e->sym];
		if (s->kind == KT_SYM_PARAM)
			use[s->index] = true;
		if (s->kind == KT_SYM_SET)
			for (int i = 0; i < t->sets[s->index].nparams; i++)
				use[t->sets[s->index].params[i]] = true;
	}
	for (int i = 0; i < e->nargs; i++)
		tm_deps(t, e->args[i], use);
}

static inline int *tm_list(tmodel *t, const kt_expr *e, int *n)
{
	bool use[TM_MAX] = {0};
	int *list = kt_arena_alloc(&t->arena, sizeof(int) * TM_MAX);
	tm_deps(t, e, use);
	*n = 0;
	for (size_t p = 0; p < t->m.nparams; p++)
		if (use[p])
			list[(*n)++] = (int)p;
	return list;
}

static inline void tm_sym(tmodel *t, const char *name, kt_symbol_kind k,
                          size_t index, int *sym)
{
	kt_symbol *s = &t->syms[t->m.nsymbols];
	s->name = name;
	s->kind = k;
	s->index = (int)index;
	*sym = (int)t->m.nsymbols++;
}

static inline const kt_model *tm_finish(tmodel *t)
{
	for (size_t i = 0; i < t->m.nparams; i++)
		tm_sym(t, t->params[i].name, KT_SYM_PARAM, i,
		       &t->params[i].sym);
	for (size_t i = 0; i < t->m.nsets; i++)
		tm_sym(t, t->sets[i].name, KT_SYM_SET, i, &t->sets[i].sym);
	for (size_t i = 0; i < t->m.nproblems; i++)
		tm_sym(t, t->probs[i].name, KT_SYM_PROBLEM, i,
		       &t->probs[i].sym);
	for (size_t i = 0; i < t->m.ndevices; i++)
		tm_sym(t, t->devs[i].name, KT_SYM_DEVICE, i, &t->devs[i].sym);
	for (size_t i = 0; i < t->m.nsets; i++) {
		tm_resolve(t, t->sets[i].expr);
		t->sets[i].params =
		    tm_list(t, t->sets[i].expr, &t->sets[i].nparams);
	}
	for (size_t i = 0; i < t->m.nconstraints; i++) {
		tm_resolve(t, t->cons[i].expr);
		t->cons[i].params =
		    tm_list(t, t->cons[i].expr, &t->cons[i].nparams);
	}
	return &t->m;
}

#endif
