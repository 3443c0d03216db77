/*
 * build.c - turns a parsed block into a usable model: checks the names it
 * declares, builds the symbol table (parameters, sets, problems, then the
 * DEVICE_* constants it uses), resolves every name in every expression,
 * and computes which parameters each set and constraint depends on.
 *
 * Dependencies go through sets: a set may use only earlier sets, so one
 * pass in the order written sees every set's parameters before its users.
 */
#include "grammar/grammar.h"

#include <stdio.h>
#include <string.h>

typedef struct builder {
	gram *g;
	kt_model *m;
	size_t cap_symbols, cap_devices;
	bool *param_used; /* per parameter: used by the expression walked */
	bool *set_used;   /* per set: used by the expression walked */
	long cur_set;     /* the set being resolved, or -1 */
} builder;

static const char *const keywords[] = {
    "auto",         "bool",       "break",      "case",      "catch",
    "char",         "class",      "const",      "constexpr", "continue",
    "default",      "delete",     "do",         "double",    "else",
    "enum",         "extern",     "false",      "float",     "for",
    "goto",         "if",         "inline",     "int",       "long",
    "namespace",    "new",        "nullptr",    "operator",  "private",
    "protected",    "public",     "register",   "restrict",  "return",
    "short",        "signed",     "sizeof",     "static",    "struct",
    "switch",       "template",   "this",       "throw",     "true",
    "try",          "typedef",    "typename",   "union",     "unsigned",
    "using",        "virtual",    "void",       "volatile",  "while",
    "_Bool",        "__global__", "__device__", "__host__",  "__shared__",
    "__constant__", "__kernel",   "__local",    "__global",  "kernel",
    "global",       "local",
};
static const char *const builtins[] = {"threadIdx", "blockIdx", "blockDim",
                                       "gridDim", "warpSize"};

static bool in_list(const char *s, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s, list[i]))
			return true;
	return false;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* A declared name must not shadow something C, CUDA or ktc means. */
static void check_reserved(builder *b, const char *name, kt_loc loc)
{
	const char *why = NULL;
	if (!strncmp(name, "DEVICE_", 7))
		why = "names starting with DEVICE_ are device constants";
	else if (in_list(name, keywords, COUNT(keywords)))
		why = "it is a C, CUDA or OpenCL keyword";
	else if (in_list(name, builtins, COUNT(builtins)))
		why = "it is a CUDA built-in variable";
	else if (in_list(name, expr_func_names, expr_nfuncs))
		why = "it is a built-in function";
	if (why)
		gram_diag_at(b->g, KT_DIAG_ERROR, loc, (int)strlen(name),
		             "'%s' cannot be used as a name: %s", name, why);
}

static bool loc_before(kt_loc a, kt_loc b)
{
	return a.line < b.line || (a.line == b.line && a.col < b.col);
}

static kt_loc symbol_loc(const kt_model *m, int sym)
{
	const kt_symbol *s = &m->symbols[sym];
	switch (s->kind) {
	case KT_SYM_PARAM: return m->params[s->index].loc;
	case KT_SYM_SET: return m->sets[s->index].loc;
	case KT_SYM_PROBLEM: return m->problems[s->index].loc;
	default: return (kt_loc){0};
	}
}

/* Checks declared names and fills the symbol table with them. */
static void declare(builder *b, const char *name, kt_loc loc,
                    kt_symbol_kind kind, int index)
{
	kt_model *m = b->m;
	check_reserved(b, name, loc);
	for (size_t i = 0; i < m->nsymbols; i++) {
		if (strcmp(m->symbols[i].name, name))
			continue;
		kt_loc first = symbol_loc(m, (int)i);
		kt_loc dup = loc;
		if (loc_before(loc, first)) {
			dup = first;
			first = loc;
		}
		gram_diag_at(b->g, KT_DIAG_ERROR, dup, (int)strlen(name),
		             "duplicate name '%s'", name);
		gram_diag_at(b->g, KT_DIAG_NOTE, first, (int)strlen(name),
		             "'%s' is first defined here", name);
		break;
	}
	kt_symbol s = {.name = name, .kind = kind, .index = index};
	GRAM_PUSH(b->g, m->symbols, m->nsymbols, b->cap_symbols, s);
}

static void declare_all(builder *b)
{
	kt_model *m = b->m;
	for (size_t i = 0; i < m->nparams; i++) {
		m->params[i].sym = (int)m->nsymbols;
		declare(b, m->params[i].name, m->params[i].loc, KT_SYM_PARAM,
		        (int)i);
	}
	for (size_t i = 0; i < m->nsets; i++) {
		m->sets[i].sym = (int)m->nsymbols;
		declare(b, m->sets[i].name, m->sets[i].loc, KT_SYM_SET, (int)i);
	}
	for (size_t i = 0; i < m->nproblems; i++) {
		m->problems[i].sym = (int)m->nsymbols;
		declare(b, m->problems[i].name, m->problems[i].loc,
		        KT_SYM_PROBLEM, (int)i);
	}
}

/* "A, B, C": the known DEVICE_* names, in the arena (no malloc here: an
 * allocation failure unwinds, and would leak anything outside it). */
static const char *device_list(builder *b)
{
	size_t n = 1;
	for (size_t i = 0; i < kt_device_nconsts; i++)
		n += strlen(kt_device_consts[i].name) + 2;
	char *out = gram_alloc(b->g, n), *p = out;
	for (size_t i = 0; i < kt_device_nconsts; i++)
		p +=
		    sprintf(p, "%s%s", i ? ", " : "", kt_device_consts[i].name);
	return out;
}

static void unknown_device(builder *b, const kt_expr *e)
{
	const char *names[64];
	size_t n = kt_device_nconsts < 64 ? kt_device_nconsts : 64;
	for (size_t i = 0; i < n; i++)
		names[i] = kt_device_consts[i].name;
	const char *sug = gram_suggest(e->str, strlen(e->str), names, n);
	gram_diag_at(b->g, KT_DIAG_ERROR, e->loc, e->len,
	             "unknown device constant '%s'%s%s%s", e->str,
	             sug ? "; did you mean '" : "", sug ? sug : "",
	             sug ? "'?" : "");
	if (b->g->listed_devices)
		return;
	b->g->listed_devices = true;
	gram_diag_at(b->g, KT_DIAG_NOTE, (kt_loc){b->g->file, 0, 0}, 0,
	             "known device constants: %s", device_list(b));
}

/* The symbol of DEVICE_* constant k, added on first use. */
static int device_symbol(builder *b, int k)
{
	kt_model *m = b->m;
	for (size_t i = 0; i < m->ndevices; i++)
		if (m->devices[i].index == k)
			return m->devices[i].sym;
	kt_device_const d = {.name = kt_device_consts[k].name,
	                     .fallback = kt_int(kt_device_consts[k].fallback),
	                     .sym = (int)m->nsymbols,
	                     .index = k};
	GRAM_PUSH(b->g, m->devices, m->ndevices, b->cap_devices, d);
	kt_symbol s = {.name = d.name,
	               .kind = KT_SYM_DEVICE,
	               .index = (int)m->ndevices - 1};
	GRAM_PUSH(b->g, m->symbols, m->nsymbols, b->cap_symbols, s);
	return d.sym;
}

static void unknown_name(builder *b, const kt_expr *e, size_t ndeclared)
{
	kt_model *m = b->m;
	const char **names = gram_alloc(b->g, (ndeclared + 1) * sizeof(*names));
	for (size_t i = 0; i < ndeclared; i++)
		names[i] = m->symbols[i].name;
	const char *sug =
	    gram_suggest(e->str, strlen(e->str), names, ndeclared);
	gram_diag_at(b->g, KT_DIAG_ERROR, e->loc, e->len,
	             "unknown name '%s'%s%s%s", e->str,
	             sug ? "; did you mean '" : "", sug ? sug : "",
	             sug ? "'?" : "");
}

static void resolve_symbol(builder *b, kt_expr *e, size_t ndeclared)
{
	kt_model *m = b->m;
	if (!strncmp(e->str, "DEVICE_", 7)) {
		int k = gram_device_lookup(e->str, strlen(e->str));
		if (k < 0)
			unknown_device(b, e);
		else
			e->sym = device_symbol(b, k);
		return;
	}
	for (size_t i = 0; i < ndeclared; i++)
		if (!strcmp(m->symbols[i].name, e->str)) {
			e->sym = (int)i;
			break;
		}
	if (e->sym < 0) {
		unknown_name(b, e, ndeclared);
		return;
	}
	const kt_symbol *s = &m->symbols[e->sym];
	if (s->kind == KT_SYM_PARAM)
		b->param_used[s->index] = true;
	if (s->kind != KT_SYM_SET)
		return;
	b->set_used[s->index] = true;
	if (b->cur_set >= 0 && s->index == b->cur_set)
		gram_diag_at(b->g, KT_DIAG_ERROR, e->loc, e->len,
		             "set '%s' uses itself", e->str);
	else if (b->cur_set >= 0 && s->index > b->cur_set)
		gram_diag_at(b->g, KT_DIAG_ERROR, e->loc, e->len,
		             "set '%s' uses '%s', which is defined later "
		             "(line %d)",
		             m->sets[b->cur_set].name, e->str,
		             m->sets[s->index].loc.line);
}

static void resolve(builder *b, kt_expr *e, size_t ndeclared)
{
	if (!e)
		return;
	if (e->kind == KT_EXPR_SYMBOL && e->sym < 0)
		resolve_symbol(b, e, ndeclared);
	for (int i = 0; i < e->nargs; i++)
		resolve(b, e->args[i], ndeclared);
}

/* Resolves e and returns the parameters it depends on, through sets. */
static int *resolve_deps(builder *b, kt_expr *e, int *nparams)
{
	kt_model *m = b->m;
	size_t ndeclared = m->nparams + m->nsets + m->nproblems;
	memset(b->param_used, 0, m->nparams * sizeof(bool));
	memset(b->set_used, 0, m->nsets * sizeof(bool));
	resolve(b, e, ndeclared);
	/* Earlier sets already hold their full lists; later ones are errors. */
	for (size_t s = 0; s < m->nsets; s++)
		for (int k = 0; b->set_used[s] && k < m->sets[s].nparams; k++)
			b->param_used[m->sets[s].params[k]] = true;
	int n = 0;
	for (size_t i = 0; i < m->nparams; i++)
		n += b->param_used[i];
	int *out = gram_alloc(b->g, ((size_t)n + 1) * sizeof(int));
	n = 0;
	for (size_t i = 0; i < m->nparams; i++)
		if (b->param_used[i])
			out[n++] = (int)i;
	*nparams = n;
	return out;
}

/* Whether e names a problem variable (after resolve_deps). */
static bool names_problem(const kt_model *m, const kt_expr *e)
{
	if (!e)
		return false;
	if (e->kind == KT_EXPR_SYMBOL && e->sym >= 0 &&
	    (size_t)e->sym < m->nsymbols &&
	    m->symbols[e->sym].kind == KT_SYM_PROBLEM)
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (names_problem(m, e->args[i]))
			return true;
	return false;
}

static void resolve_model(builder *b)
{
	kt_model *m = b->m;
	size_t nd = m->nparams + m->nsets + m->nproblems;
	for (size_t i = 0; i < m->nsets; i++) {
		b->cur_set = (long)i;
		m->sets[i].params =
		    resolve_deps(b, m->sets[i].expr, &m->sets[i].nparams);
	}
	b->cur_set = -1;
	for (size_t i = 0; i < m->nconstraints; i++) {
		kt_constraint *c = &m->constraints[i];
		int errors = b->g->diags->errors;
		c->params = resolve_deps(b, c->expr, &c->nparams);
		/* over problem variables alone it restricts the sizes (a
		 * host's precondition): no warning */
		if (c->expr && c->nparams == 0 &&
		    errors == b->g->diags->errors && !names_problem(m, c->expr))
			gram_diag_at(
			    b->g, KT_DIAG_WARNING, c->expr->loc, c->expr->len,
			    "constraint depends on no parameter and no "
			    "problem variable");
	}
	for (int i = 0; i < 3; i++) {
		resolve(b, m->launch.grid[i], nd);
		resolve(b, m->launch.block[i], nd);
	}
	resolve(b, m->launch.smem, nd);
	resolve(b, m->launch.pdl, nd);
	for (size_t i = 0; i < m->nargs; i++) {
		resolve(b, m->args[i].count, nd);
		resolve(b, m->args[i].value, nd);
	}
	resolve(b, m->objective.expr, nd);
	for (int i = 0; i < m->ntemplate_args; i++)
		resolve(b, m->template_args[i], nd);
}

static bool is_literal(const kt_expr *e)
{
	return e->kind == KT_EXPR_INT || e->kind == KT_EXPR_FLOAT;
}

static void eval_constant(builder *b, const kt_expr *e)
{
	kt_value v;
	const kt_expr *where = NULL;
	if (is_literal(e) || !kt_expr_eval_where(&v, e, NULL, &where))
		return;
	if (!where)
		where = e;
	gram_diag_at(b->g, KT_DIAG_ERROR, where->loc, where->len, "%s",
	             kt_error_last());
}

static bool divides(const kt_expr *e)
{
	return (e->kind == KT_EXPR_BINARY &&
	        (e->op == KT_OP_DIV || e->op == KT_OP_MOD)) ||
	       (e->kind == KT_EXPR_CALL && e->op == KT_FN_DIV_CEIL);
}

/* A divisor that is zero whatever the configuration. */
static void check_divisor(builder *b, const kt_expr *d)
{
	kt_value v;
	if (kt_expr_eval(&v, d, NULL) == 0 &&
	    (v.is_float ? v.f == 0.0 : v.i == 0))
		gram_diag_at(b->g, KT_DIAG_ERROR, d->loc, d->len,
		             "division by zero");
}

/*
 * A part of an expression that uses no name has one value whatever the
 * configuration: it is evaluated now, so `1 << 70` or `N / (2 - 2)` is
 * reported at parse time. Returns whether e is such a part; evaluates the
 * largest ones only, so one mistake gives one diagnostic.
 */
static bool check_constants(builder *b, const kt_expr *e)
{
	bool constant = e->kind != KT_EXPR_SYMBOL && e->kind != KT_EXPR_STRING;
	bool *arg_const = gram_alloc(b->g, (size_t)e->nargs + 1);
	for (int i = 0; i < e->nargs; i++)
		constant &= arg_const[i] = check_constants(b, e->args[i]);
	for (int i = 0; !constant && i < e->nargs; i++)
		if (arg_const[i])
			eval_constant(b, e->args[i]);
	if (divides(e) && arg_const[1])
		check_divisor(b, e->args[1]);
	return constant;
}

static void check_constants_of(builder *b, const kt_expr *e)
{
	if (e && check_constants(b, e))
		eval_constant(b, e);
}

static void check_all_constants(builder *b)
{
	kt_model *m = b->m;
	for (size_t i = 0; i < m->nsets; i++)
		check_constants_of(b, m->sets[i].expr);
	for (size_t i = 0; i < m->nconstraints; i++)
		check_constants_of(b, m->constraints[i].expr);
	for (int i = 0; i < 3; i++) {
		check_constants_of(b, m->launch.grid[i]);
		check_constants_of(b, m->launch.block[i]);
	}
	check_constants_of(b, m->launch.smem);
	check_constants_of(b, m->launch.pdl);
	for (size_t i = 0; i < m->nargs; i++) {
		check_constants_of(b, m->args[i].count);
		check_constants_of(b, m->args[i].value);
	}
	check_constants_of(b, m->objective.expr);
	for (int i = 0; i < m->ntemplate_args; i++)
		check_constants_of(b, m->template_args[i]);
}

/* Argument names: unique, and not the name of a parameter's macro. */
static void check_args(builder *b)
{
	kt_model *m = b->m;
	for (size_t i = 0; i < m->nargs; i++) {
		const kt_arg *a = &m->args[i];
		int len = (int)strlen(a->name);
		check_reserved(b, a->name, a->loc);
		for (size_t j = 0; j < i; j++) {
			if (strcmp(m->args[j].name, a->name))
				continue;
			gram_diag_at(b->g, KT_DIAG_ERROR, a->loc, len,
			             "duplicate argument '%s'", a->name);
			gram_diag_at(b->g, KT_DIAG_NOTE, m->args[j].loc, len,
			             "'%s' is first declared here", a->name);
			break;
		}
		for (size_t j = 0; j < m->nparams; j++) {
			if (strcmp(m->params[j].name, a->name))
				continue;
			gram_diag_at(b->g, KT_DIAG_ERROR, a->loc, len,
			             "argument '%s' has the name of a "
			             "parameter, whose macro would replace it",
			             a->name);
			break;
		}
	}
}

/* A launch that may start before the previous kernel on its stream ends
 * must wait for it before it reads what that kernel wrote: a file with
 * `pdl(...)` and no wait in its code would race unseen (the graph
 * objective checks no output). Code outside comments is looked at, not
 * proven to reach the wait. */
static void check_pdl(builder *b)
{
	const kt_expr *e = b->m->launch.pdl;
	if (!e)
		return;
	static const char *const waits[] = {"griddepcontrol.wait",
	                                    "cudaGridDependencySynchronize"};
	const char *t = b->g->text;
	size_t n = b->g->textlen;
	for (size_t p = 0; p < n;) {
		size_t c = gram_skip_comment(t, n, p);
		if (c != p) {
			p = c;
			continue;
		}
		for (size_t w = 0; w < 2; w++) {
			size_t len = strlen(waits[w]);
			if (p + len <= n && !memcmp(t + p, waits[w], len))
				return;
		}
		p++;
	}
	gram_diag_at(b->g, KT_DIAG_ERROR, e->loc, e->len,
	             "pdl(...) lets the kernel start before the previous "
	             "one on its stream ends, but no code of the file waits "
	             "for it: call cudaGridDependencySynchronize() (or "
	             "asm(\"griddepcontrol.wait;\")) before the kernel reads "
	             "memory another kernel writes");
}

void build_model(gram *g, kt_model *m)
{
	builder b = {.g = g, .m = m, .cur_set = -1};
	b.param_used = gram_alloc(g, m->nparams + 1);
	b.set_used = gram_alloc(g, m->nsets + 1);
	declare_all(&b);
	resolve_model(&b);
	check_all_constants(&b);
	check_args(&b);
	check_pdl(&b);
}
