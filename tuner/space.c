/*
 * space.c - the constrained search space of one model (ktc/space.h).
 *
 * Parameters that constraints tie together (directly or through derived
 * values) form a group; a parameter in no constraint is a group of its own
 * whose tuples are simply its values. Each group is enumerated once by
 * backtracking, in an order where every constraint is checked as soon as its
 * last parameter is bound, and its valid tuples are kept as one 64-bit code
 * each (a mixed-radix number over the group's domains, in enumeration
 * order). Backtracking visits values in domain order, so the codes come out
 * increasing: a tuple's index in its group is found by binary search, and
 * no sort is needed. A configuration's index is a mixed-radix number over
 * the groups' tuple counts, so count, get, index_of and uniform sampling
 * never enumerate the whole space.
 *
 * Expressions that fail to evaluate (division by zero...) for some bindings
 * make exactly those bindings invalid, with one warning per expression; one
 * that fails for every binding it is evaluated at is an error, and the build
 * fails. A derived value that fails makes every binding where a constraint
 * needs it invalid, whether or not the constraint would have short-circuited.
 */
#include "ktc/space.h"

#include "util/arena.h"
#include "util/rng.h"
#include "util/str.h"
#include "util/vec.h"

#include <string.h>

/* A group's tuples take 8 bytes each: this caps one group at 512 MiB. */
enum { MAX_TUPLES = 1 << 26 };
/* Bindings between two looks at the stop flag. */
enum { STOP_EVERY = 1 << 12 };

typedef struct group {
	int *params; /* in enumeration order */
	int n;
	uint64_t *stride; /* code = sum of idx[params[k]] * stride[k] */
	uint64_t *codes;  /* increasing; NULL: a lone unconstrained parameter */
	uint64_t count;
	/* what to evaluate once position k is bound: sets, then constraints */
	int **sets_at, *nsets_at;
	int **cons_at, *ncons_at;
} group;

struct kt_space {
	const kt_model *m;
	kt_arena arena;
	group *groups; /* ordered by their first parameter in model order */
	size_t ngroups;
	int *group_of;     /* per parameter */
	uint64_t *gstride; /* per group: weight of its tuple index */
	uint64_t count;
	double raw;
	int64_t default_index;
};

/* How one expression fared during the build. */
typedef struct tally {
	uint64_t ok, failed;
	char *message;        /* the first failure's */
	const kt_expr *where; /* its place */
	char *example;        /* the partial configuration it failed at */
} tally;

typedef struct builder {
	kt_space *s;
	const kt_model *m;
	kt_diags *diags;
	kt_arena tmp;
	kt_value *slots;
	uint32_t *idx;    /* current domain index per parameter */
	bool *set_dep;    /* nsets x nparams: set i depends on param p */
	bool *con_dep;    /* nconstraints x nparams */
	bool *con_sets;   /* nconstraints x nsets: constraint c reads set i */
	bool *set_needed; /* per set: some constraint reads it */
	int *set_ndeps, *con_ndeps;
	tally *set_tally, *con_tally;
	bool always_false; /* a constraint without parameters is false */
	KT_VEC(uint64_t) codes;
	uint64_t bindings, max_bindings; /* values bound while enumerating */
	volatile sig_atomic_t *stop;
	int errors;
	int err; /* an internal failure (memory, size), a limit, a stop */
} builder;

static void *tmp_alloc(builder *b, size_t n, size_t size)
{
	void *p = kt_arena_alloc(&b->tmp, n * size);
	if (!p)
		b->err = KT_ENOMEM;
	return p;
}

static void *keep_alloc(builder *b, size_t n, size_t size)
{
	void *p = kt_arena_alloc(&b->s->arena, n * size);
	if (!p)
		b->err = KT_ENOMEM;
	return p;
}

/* Marks what e refers to directly: parameters, and the sets it reads. */
static void refs(const builder *b, const kt_expr *e, bool *params, bool *sets)
{
	if (e->kind == KT_EXPR_SYMBOL && e->sym >= 0 &&
	    (size_t)e->sym < b->m->nsymbols) {
		const kt_symbol *sy = &b->m->symbols[e->sym];
		if (sy->kind == KT_SYM_PARAM)
			params[sy->index] = true;
		else if (sy->kind == KT_SYM_SET)
			sets[sy->index] = true;
	}
	for (int i = 0; i < e->nargs; i++)
		refs(b, e->args[i], params, sets);
}

/*
 * The parameters e depends on, directly or through sets (whose own
 * dependencies are already known: a set reads only earlier sets). Also
 * marks the sets it reads, transitively, in sets_read when not NULL.
 */
static void deps(builder *b, const kt_expr *e, bool *params, bool *sets_read)
{
	const kt_model *m = b->m;
	bool *sets = tmp_alloc(b, m->nsets + 1, sizeof(bool));
	if (!sets)
		return;
	refs(b, e, params, sets);
	for (size_t j = m->nsets; j-- > 0;) {
		if (!sets[j])
			continue;
		for (size_t p = 0; p < m->nparams; p++)
			params[p] |= b->set_dep[j * m->nparams + p];
		if (sets_read && !sets_read[j]) {
			sets_read[j] = true;
			refs(b, m->sets[j].expr, params, sets);
		}
	}
}

static int count_true(const bool *v, size_t n)
{
	int k = 0;
	for (size_t i = 0; i < n; i++)
		k += v[i];
	return k;
}

static void analyse(builder *b)
{
	const kt_model *m = b->m;
	size_t np = m->nparams;
	b->set_dep = tmp_alloc(b, m->nsets * np + 1, sizeof(bool));
	b->con_dep = tmp_alloc(b, m->nconstraints * np + 1, sizeof(bool));
	b->con_sets =
	    tmp_alloc(b, m->nconstraints * m->nsets + 1, sizeof(bool));
	b->set_needed = tmp_alloc(b, m->nsets + 1, sizeof(bool));
	b->set_ndeps = tmp_alloc(b, m->nsets + 1, sizeof(int));
	b->con_ndeps = tmp_alloc(b, m->nconstraints + 1, sizeof(int));
	if (b->err)
		return;
	for (size_t i = 0; i < m->nsets; i++) {
		deps(b, m->sets[i].expr, &b->set_dep[i * np], NULL);
		b->set_ndeps[i] = count_true(&b->set_dep[i * np], np);
	}
	for (size_t c = 0; c < m->nconstraints; c++) {
		bool *read = &b->con_sets[c * m->nsets];
		deps(b, m->constraints[c].expr, &b->con_dep[c * np], read);
		b->con_ndeps[c] = count_true(&b->con_dep[c * np], np);
		for (size_t i = 0; i < m->nsets; i++)
			b->set_needed[i] |= read[i];
	}
}

static void tally_fail(builder *b, tally *t, const kt_expr *where,
                       const group *g, int k)
{
	t->failed++;
	if (t->message)
		return;
	t->message = kt_strdup(kt_error_last());
	t->where = where;
	kt_str ex = KT_STR_INIT;
	for (int i = 0; g && i <= k; i++) {
		const kt_param *p = &b->m->params[g->params[i]];
		kt_value v = p->values[b->idx[g->params[i]]];
		kt_str_addf(&ex, "%s%s=", i ? ", " : "", p->name);
		if (v.is_float)
			kt_str_addf(&ex, "%.17g", v.f);
		else
			kt_str_addf(&ex, "%lld", (long long)v.i);
	}
	t->example = kt_str_detach(&ex);
}

/* Evaluates a set into its slot; false (and a tally) if it fails. */
static bool eval_set(builder *b, size_t i, const group *g, int k)
{
	const kt_set *st = &b->m->sets[i];
	const kt_expr *where;
	if (kt_expr_eval_where(&b->slots[st->sym], st->expr, b->slots,
	                       &where)) {
		tally_fail(b, &b->set_tally[i], where, g, k);
		return false;
	}
	b->set_tally[i].ok++;
	return true;
}

/* Evaluates a constraint: 1 holds, 0 false, -1 could not be evaluated. */
static int eval_con(builder *b, size_t c, const group *g, int k)
{
	kt_value v;
	const kt_expr *where;
	if (kt_expr_eval_where(&v, b->m->constraints[c].expr, b->slots,
	                       &where)) {
		tally_fail(b, &b->con_tally[c], where, g, k);
		return -1;
	}
	b->con_tally[c].ok++;
	return v.is_float ? v.f != 0.0 : v.i != 0;
}

/* Sets and constraints that use no parameter: evaluated once. */
static void eval_fixed(builder *b)
{
	const kt_model *m = b->m;
	bool set_failed = false;
	for (size_t i = 0; i < m->nsets; i++)
		if (b->set_ndeps[i] == 0 && !eval_set(b, i, NULL, -1))
			set_failed = true;
	for (size_t c = 0; c < m->nconstraints; c++) {
		if (b->con_ndeps[c] != 0)
			continue;
		/* a failed set is an error already: the build will fail */
		int r = set_failed ? -1 : eval_con(b, c, NULL, -1);
		if (r != 1)
			b->always_false = true;
		if (r == 0)
			kt_diags_add(
			    b->diags, KT_DIAG_WARNING, m->file, m->source,
			    m->constraints[c].loc.line,
			    m->constraints[c].loc.col, 1,
			    "constraint '%s' is false for this problem "
			    "and device: no configuration is valid",
			    m->constraints[c].text);
	}
}

static int find(int *parent, int x)
{
	while (parent[x] != x)
		x = parent[x] = parent[parent[x]];
	return x;
}

static void unite(int *parent, int a, int b)
{
	a = find(parent, a);
	b = find(parent, b);
	if (a != b)
		parent[a > b ? a : b] = a < b ? a : b;
}

/* Union-find over the constraints' parameters; a root is its smallest. */
static int *tie_params(builder *b)
{
	const kt_model *m = b->m;
	size_t np = m->nparams;
	int *parent = tmp_alloc(b, np + 1, sizeof(int));
	if (!parent)
		return NULL;
	for (size_t p = 0; p < np; p++)
		parent[p] = (int)p;
	for (size_t c = 0; c < m->nconstraints; c++) {
		int first = -1;
		for (size_t p = 0; p < np; p++) {
			if (!b->con_dep[c * np + p])
				continue;
			if (first < 0)
				first = (int)p;
			else
				unite(parent, first, (int)p);
		}
	}
	for (size_t p = 0; p < np; p++)
		find(parent, (int)p);
	return parent;
}

/*
 * How urgently p should be bound next: the constraints it completes, then
 * those it shares with bound parameters, then all it appears in.
 */
static int score_param(const builder *b, const bool *placed, int p)
{
	const kt_model *m = b->m;
	size_t np = m->nparams;
	int completes = 0, touches = 0, total = 0;
	for (size_t c = 0; c < m->nconstraints; c++) {
		const bool *d = &b->con_dep[c * np];
		if (!d[p])
			continue;
		int missing = 0, bound = 0;
		for (size_t q = 0; q < np; q++) {
			if (!d[q] || (int)q == p)
				continue;
			if (placed[q])
				bound++;
			else
				missing++;
		}
		completes += missing == 0;
		touches += bound > 0;
		total++;
	}
	if (total > 999)
		total = 999;
	return completes * 1000000 + touches * 1000 + total;
}

/*
 * Most constrained first (greedy): each step binds the parameter with the
 * best score_param; ties go to the smaller domain, then to model order.
 */
static void order_group(builder *b, group *g)
{
	const kt_model *m = b->m;
	bool *placed = tmp_alloc(b, m->nparams + 1, sizeof(bool));
	int *order = keep_alloc(b, (size_t)g->n, sizeof(int));
	if (!placed || !order)
		return;
	for (int k = 0; k < g->n; k++) {
		int best = -1, best_score = -1;
		for (int i = 0; i < g->n; i++) {
			int p = g->params[i];
			if (placed[p])
				continue;
			int sc = score_param(b, placed, p);
			if (best < 0 || sc > best_score ||
			    (sc == best_score &&
			     m->params[p].nvalues < m->params[best].nvalues)) {
				best = p;
				best_score = sc;
			}
		}
		placed[best] = true;
		order[k] = best;
	}
	g->params = order;
}

/* Position in g's order at which every parameter in dep is bound. */
static int last_pos(const group *g, const bool *dep)
{
	int last = -1;
	for (int k = 0; k < g->n; k++)
		if (dep[g->params[k]])
			last = k;
	return last;
}

/* The group of a set or constraint: that of its parameters. */
static int item_group(const builder *b, const bool *dep)
{
	for (size_t p = 0; p < b->m->nparams; p++)
		if (dep[p])
			return b->s->group_of[p];
	return -1;
}

/* Files each of n items (sets or constraints) of group gi at its position. */
static void place_items(builder *b, group *g, int gi, const bool *dep,
                        const bool *wanted, size_t n, int **at, int *nat)
{
	size_t np = b->m->nparams;
	for (int k = 0; k < g->n; k++)
		if (!(at[k] = keep_alloc(b, n + 1, sizeof(int))))
			return;
	for (size_t i = 0; i < n; i++) {
		const bool *d = &dep[i * np];
		if ((wanted && !wanted[i]) || item_group(b, d) != gi)
			continue;
		int k = last_pos(g, d);
		at[k][nat[k]++] = (int)i;
	}
}

/* Strides of the group's codes, and what to evaluate at each position. */
static void plan_group(builder *b, group *g, int gi)
{
	const kt_model *m = b->m;
	size_t n = (size_t)g->n;
	g->sets_at = keep_alloc(b, n, sizeof(int *));
	g->nsets_at = keep_alloc(b, n, sizeof(int));
	g->cons_at = keep_alloc(b, n, sizeof(int *));
	g->ncons_at = keep_alloc(b, n, sizeof(int));
	g->stride = keep_alloc(b, n, sizeof(uint64_t));
	if (b->err)
		return;
	uint64_t stride = 1;
	for (int k = g->n - 1; k >= 0; k--) {
		g->stride[k] = stride;
		if (__builtin_mul_overflow(
		        stride, (uint64_t)m->params[g->params[k]].nvalues,
		        &stride)) {
			b->err = kt_error(KT_EINVALID,
			                  "%d parameters tied together by "
			                  "constraints have a raw product "
			                  "above 2^64",
			                  g->n);
			return;
		}
	}
	place_items(b, g, gi, b->set_dep, b->set_needed, m->nsets, g->sets_at,
	            g->nsets_at);
	place_items(b, g, gi, b->con_dep, NULL, m->nconstraints, g->cons_at,
	            g->ncons_at);
}

/* Evaluates what position k completes; true if the binding is still valid. */
static bool check_pos(builder *b, const group *g, int k)
{
	for (int i = 0; i < g->nsets_at[k]; i++)
		if (!eval_set(b, (size_t)g->sets_at[k][i], g, k))
			return false;
	for (int i = 0; i < g->ncons_at[k]; i++)
		if (eval_con(b, (size_t)g->cons_at[k][i], g, k) != 1)
			return false;
	return true;
}

/* The raw product of g's domains, for messages. */
static double group_raw(const builder *b, const group *g)
{
	double raw = 1.0;
	for (int k = 0; k < g->n; k++)
		raw *= (double)b->m->params[g->params[k]].nvalues;
	return raw;
}

/*
 * The bound on the build: a count of bindings, not seconds, so that whether
 * a space builds does not depend on the machine or its load. The stop flag
 * (a signal) is read every STOP_EVERY bindings.
 */
static bool stop_binding(builder *b, const group *g)
{
	const char *kernel = b->m->kernel ? b->m->kernel : "kernel";
	bool over = b->bindings >= b->max_bindings;
	if (!over && (++b->bindings % STOP_EVERY || !b->stop || !*b->stop))
		return false;
	b->err = kt_error(
	    KT_EINTERRUPTED,
	    "%s the space of '%s' after binding %llu values: %d parameters "
	    "tied by constraints have %.3g combinations, %llu valid found "
	    "so far%s",
	    over ? "stopped building" : "interrupted while building", kernel,
	    (unsigned long long)b->bindings, g->n, group_raw(b, g),
	    (unsigned long long)b->codes.len,
	    over ? "; narrow their domains or split the constraints that "
	           "tie them, or raise the limit on bindings"
	         : "");
	return true;
}

static void enumerate(builder *b, const group *g, int k, uint64_t code)
{
	if (k == g->n) {
		if (b->codes.len >= MAX_TUPLES)
			b->err = kt_error(KT_EINVALID,
			                  "%d parameters tied together by "
			                  "constraints have more than %d valid "
			                  "combinations",
			                  g->n, MAX_TUPLES);
		else if (kt_vec_push(&b->codes, code))
			b->err = KT_ENOMEM;
		return;
	}
	const kt_param *p = &b->m->params[g->params[k]];
	for (size_t v = 0; v < p->nvalues && !b->err; v++) {
		if (stop_binding(b, g))
			return;
		b->slots[p->sym] = p->values[v];
		b->idx[g->params[k]] = (uint32_t)v;
		if (check_pos(b, g, k))
			enumerate(b, g, k + 1, code + v * g->stride[k]);
	}
}

/* Groups from the union-find roots, in model order of their first member. */
static void make_groups(builder *b, const int *root)
{
	kt_space *s = b->s;
	size_t np = b->m->nparams;
	s->group_of = keep_alloc(b, np + 1, sizeof(int));
	s->groups = keep_alloc(b, np + 1, sizeof(group));
	if (b->err)
		return;
	for (size_t p = 0; p < np; p++) {
		if (root[p] == (int)p)
			s->group_of[p] = (int)s->ngroups++;
		else
			s->group_of[p] = s->group_of[root[p]];
		s->groups[s->group_of[p]].n++;
	}
	for (size_t g = 0; g < s->ngroups; g++) {
		s->groups[g].params =
		    keep_alloc(b, (size_t)s->groups[g].n, sizeof(int));
		s->groups[g].n = 0;
	}
	if (b->err)
		return;
	for (size_t p = 0; p < np; p++) {
		group *g = &s->groups[s->group_of[p]];
		g->params[g->n++] = (int)p;
	}
}

static bool has_constraints(const group *g)
{
	for (int k = 0; k < g->n; k++)
		if (g->ncons_at[k] > 0)
			return true;
	return false;
}

/* Orders, plans and enumerates every group; counts the lone ones. */
static void fill_groups(builder *b)
{
	kt_space *s = b->s;
	for (size_t gi = 0; gi < s->ngroups && !b->err; gi++) {
		group *g = &s->groups[gi];
		order_group(b, g);
		plan_group(b, g, (int)gi);
		if (b->err)
			return;
		if (!has_constraints(g)) {
			g->count = b->m->params[g->params[0]].nvalues;
			continue;
		}
		b->codes.len = 0;
		enumerate(b, g, 0, 0);
		g->codes = b->codes.items;
		g->count = b->codes.len;
		b->codes.items = NULL;
		b->codes.len = b->codes.cap = 0;
	}
}

/* The mixed radix over groups; the first group varies slowest. */
static void combine(builder *b)
{
	kt_space *s = b->s;
	bool empty = b->always_false;
	s->gstride = keep_alloc(b, s->ngroups + 1, sizeof(uint64_t));
	if (!s->gstride)
		return;
	for (size_t g = 0; g < s->ngroups; g++)
		empty |= s->groups[g].count == 0;
	if (empty)
		return;
	uint64_t total = 1;
	for (size_t g = s->ngroups; g-- > 0;) {
		s->gstride[g] = total;
		if (__builtin_mul_overflow(total, s->groups[g].count, &total) ||
		    total > (uint64_t)INT64_MAX) {
			b->err = kt_error(KT_EINVALID,
			                  "the space has more than 2^63 valid "
			                  "configurations");
			return;
		}
	}
	s->count = total;
}

static void report(builder *b, const tally *t, kt_loc at, int len)
{
	const kt_model *m = b->m;
	if (!t->failed)
		return;
	if (t->where && t->where->loc.line > 0) {
		at = t->where->loc;
		len = t->where->len;
	}
	bool all = t->ok == 0;
	const char *ex = t->example ? t->example : "";
	const char *msg = t->message ? t->message : "cannot evaluate";
	if (all && ex[0])
		kt_diags_add(b->diags, KT_DIAG_ERROR, m->file, m->source,
		             at.line, at.col, len,
		             "%s for every configuration (e.g. %s)", msg, ex);
	else if (all)
		kt_diags_add(b->diags, KT_DIAG_ERROR, m->file, m->source,
		             at.line, at.col, len, "%s", msg);
	else
		kt_diags_add(b->diags, KT_DIAG_WARNING, m->file, m->source,
		             at.line, at.col, len,
		             "%s when %s; configurations where it fails are "
		             "left out of the space",
		             msg, ex);
	b->errors += all;
}

static void report_all(builder *b)
{
	const kt_model *m = b->m;
	for (size_t i = 0; i < m->nsets; i++)
		report(b, &b->set_tally[i], m->sets[i].loc, 1);
	for (size_t c = 0; c < m->nconstraints; c++)
		report(b, &b->con_tally[c], m->constraints[c].loc, 1);
}

/* Says which constraints the (invalid) default configuration violates. */
static void explain_default(builder *b)
{
	const kt_model *m = b->m;
	bool *failed = tmp_alloc(b, m->nsets + 1, sizeof(bool));
	char *key = kt_space_key(b->s, b->idx);
	for (size_t p = 0; failed && p < m->nparams; p++)
		b->slots[m->params[p].sym] = m->params[p].values[b->idx[p]];
	for (size_t i = 0; failed && i < m->nsets; i++)
		if (b->set_ndeps[i] > 0 && b->set_needed[i])
			failed[i] =
			    kt_expr_eval(&b->slots[m->sets[i].sym],
			                 m->sets[i].expr, b->slots) != 0;
	for (size_t c = 0; failed && key && c < m->nconstraints; c++) {
		const kt_constraint *k = &m->constraints[c];
		bool blocked = false;
		kt_value v = kt_int(1);
		for (size_t i = 0; i < m->nsets; i++)
			blocked |= failed[i] && b->con_sets[c * m->nsets + i];
		if (b->con_ndeps[c] == 0 ||
		    (!blocked && !kt_expr_eval(&v, k->expr, b->slots) &&
		     (v.is_float ? v.f != 0.0 : v.i != 0)))
			continue;
		kt_loc at = k->expr->loc.line > 0 ? k->expr->loc : k->loc;
		kt_diags_add(b->diags, KT_DIAG_WARNING, m->file, m->source,
		             at.line, at.col, k->expr->len,
		             "the default configuration (%s) violates "
		             "constraint '%s'",
		             key, k->text ? k->text : "");
	}
	kt_free(key);
}

static void find_default(builder *b)
{
	kt_space *s = b->s;
	const kt_model *m = b->m;
	kt_model_default_config(m, b->idx);
	for (size_t p = 0; p < m->nparams; p++)
		if (b->idx[p] >= m->params[p].nvalues)
			b->idx[p] = 0; /* an empty domain: the space is empty */
	s->default_index = s->count ? kt_space_index_of(s, b->idx) : -1;
	if (s->default_index < 0 && b->errors == 0 && !b->always_false &&
	    s->raw > 0)
		explain_default(b);
	if (s->count == 0 && b->errors == 0)
		kt_diags_add(b->diags, KT_DIAG_WARNING, m->file, m->source,
		             m->kernel_loc.line, m->kernel_loc.col, 1,
		             "no configuration of '%s' satisfies its "
		             "constraints",
		             m->kernel ? m->kernel : "kernel");
}

static void fill_slots(builder *b, const kt_value *problem,
                       const kt_value *device)
{
	const kt_model *m = b->m;
	b->slots = tmp_alloc(b, m->nsymbols + 1, sizeof(kt_value));
	b->idx = tmp_alloc(b, m->nparams + 1, sizeof(uint32_t));
	b->set_tally = tmp_alloc(b, m->nsets + 1, sizeof(tally));
	b->con_tally = tmp_alloc(b, m->nconstraints + 1, sizeof(tally));
	if (b->err)
		return;
	for (size_t i = 0; i < m->nproblems; i++)
		b->slots[m->problems[i].sym] =
		    kt_model_problem_value(m, problem, i);
	for (size_t i = 0; i < m->ndevices; i++)
		b->slots[m->devices[i].sym] =
		    device ? device[i] : m->devices[i].fallback;
}

static void free_tallies(tally *t, size_t n)
{
	for (size_t i = 0; t && i < n; i++) {
		kt_free(t[i].message);
		kt_free(t[i].example);
	}
}

static void run(builder *b, const kt_value *problem, const kt_value *device)
{
	fill_slots(b, problem, device);
	if (!b->err)
		analyse(b);
	if (!b->err)
		eval_fixed(b);
	int *root = b->err ? NULL : tie_params(b);
	if (root)
		make_groups(b, root);
	bool fixed_failed = false;
	for (size_t i = 0; !b->err && i < b->m->nsets; i++)
		fixed_failed |= b->set_tally[i].failed > 0;
	for (size_t c = 0; !b->err && c < b->m->nconstraints; c++)
		fixed_failed |= b->con_tally[c].failed > 0;
	if (!b->err && !fixed_failed && !b->always_false)
		fill_groups(b);
	if (!b->err)
		combine(b);
	if (!b->err)
		report_all(b);
	if (!b->err && b->errors == 0)
		find_default(b);
}

int kt_space_build(kt_space **out, const kt_model *m, const kt_value *problem,
                   const kt_value *device, kt_diags *diags)
{
	return kt_space_build_limited(out, m, problem, device, NULL, diags);
}

int kt_space_build_limited(kt_space **out, const kt_model *m,
                           const kt_value *problem, const kt_value *device,
                           const kt_space_limits *limits, kt_diags *diags)
{
	builder b = {.m = m, .diags = diags};
	int rc = 0;
	b.max_bindings = limits && limits->max_bindings ? limits->max_bindings
	                                                : KT_SPACE_MAX_BINDINGS;
	b.stop = limits ? limits->stop : NULL;
	*out = NULL;
	b.s = kt_calloc(1, sizeof(*b.s));
	if (!b.s)
		return kt_error(KT_ENOMEM, "out of memory");
	b.s->m = m;
	b.s->default_index = -1;
	b.s->raw = 1.0;
	for (size_t p = 0; p < m->nparams; p++)
		b.s->raw *= (double)m->params[p].nvalues;
	run(&b, problem, device);
	if (b.err)
		rc = b.err == KT_ENOMEM ? kt_error(KT_ENOMEM, "out of memory")
		                        : b.err;
	else if (b.errors)
		rc = kt_error(KT_EPARSE, "cannot build the space of '%s'",
		              m->kernel ? m->kernel : "kernel");
	free_tallies(b.set_tally, m->nsets);
	free_tallies(b.con_tally, m->nconstraints);
	kt_vec_release(&b.codes);
	kt_arena_release(&b.tmp);
	if (rc)
		kt_space_free(b.s);
	else
		*out = b.s;
	return rc;
}

void kt_space_free(kt_space *s)
{
	if (!s)
		return;
	for (size_t g = 0; g < s->ngroups; g++)
		kt_free(s->groups[g].codes);
	kt_arena_release(&s->arena);
	kt_free(s);
}

const kt_model *kt_space_model(const kt_space *s)
{
	return s->m;
}
uint64_t kt_space_count(const kt_space *s)
{
	return s->count;
}
double kt_space_raw_size(const kt_space *s)
{
	return s->raw;
}
int64_t kt_space_default_index(const kt_space *s)
{
	return s->default_index;
}
size_t kt_space_ngroups(const kt_space *s)
{
	return s->ngroups;
}

size_t kt_space_group(const kt_space *s, size_t g, const int **params,
                      uint64_t *valid_tuples)
{
	if (g >= s->ngroups)
		return 0;
	if (params)
		*params = s->groups[g].params;
	if (valid_tuples)
		*valid_tuples = s->groups[g].count;
	return (size_t)s->groups[g].n;
}

/* Writes the t-th valid tuple of g into param_idx. */
static void decode(const kt_space *s, const group *g, uint64_t t,
                   uint32_t *param_idx)
{
	uint64_t code = g->codes ? g->codes[t] : t;
	for (int k = 0; k < g->n; k++) {
		int p = g->params[k];
		param_idx[p] =
		    (uint32_t)(code / g->stride[k] % s->m->params[p].nvalues);
	}
}

/* Index of param_idx's tuple within g, or -1 if it is not valid. */
static int64_t lookup(const kt_space *s, const group *g,
                      const uint32_t *param_idx)
{
	uint64_t code = 0;
	for (int k = 0; k < g->n; k++) {
		int p = g->params[k];
		if (param_idx[p] >= s->m->params[p].nvalues)
			return -1;
		code += param_idx[p] * g->stride[k];
	}
	if (!g->codes)
		return code < g->count ? (int64_t)code : -1;
	uint64_t lo = 0, hi = g->count;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (g->codes[mid] < code)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->count && g->codes[lo] == code ? (int64_t)lo : -1;
}

int kt_space_get(const kt_space *s, uint64_t index, uint32_t *param_idx)
{
	if (index >= s->count)
		return kt_error(
		    KT_EINVALID, "configuration %llu out of range (%llu valid)",
		    (unsigned long long)index, (unsigned long long)s->count);
	for (size_t g = 0; g < s->ngroups; g++) {
		decode(s, &s->groups[g], index / s->gstride[g], param_idx);
		index %= s->gstride[g];
	}
	return 0;
}

int64_t kt_space_index_of(const kt_space *s, const uint32_t *param_idx)
{
	uint64_t index = 0;
	if (s->count == 0)
		return -1;
	for (size_t g = 0; g < s->ngroups; g++) {
		int64_t t = lookup(s, &s->groups[g], param_idx);
		if (t < 0)
			return -1;
		index += (uint64_t)t * s->gstride[g];
	}
	return (int64_t)index;
}

uint64_t kt_space_sample(const kt_space *s, struct kt_rng *rng)
{
	return s->count ? kt_rng_below(rng, s->count) : 0;
}

/* Tries every allowed other value of parameter p; counts valid ones. */
static size_t neighbors_of(const kt_space *s, uint64_t index, int p,
                           bool adjacent, uint32_t *idx, uint64_t *out,
                           size_t max, size_t n)
{
	const group *g = &s->groups[s->group_of[p]];
	uint64_t stride = s->gstride[s->group_of[p]];
	uint64_t rest = index - (uint64_t)lookup(s, g, idx) * stride;
	uint32_t cur = idx[p], nvalues = (uint32_t)s->m->params[p].nvalues;
	for (uint32_t v = 0; v < nvalues; v++) {
		if (v == cur || (adjacent && v + 1 != cur && v != cur + 1))
			continue;
		idx[p] = v;
		int64_t t = lookup(s, g, idx);
		if (t >= 0 && n < max)
			out[n] = rest + (uint64_t)t * stride;
		n += t >= 0;
	}
	idx[p] = cur;
	return n;
}

size_t kt_space_neighbors(const kt_space *s, uint64_t index, bool adjacent,
                          uint64_t *out, size_t max)
{
	size_t n = 0;
	uint32_t *idx = kt_malloc((s->m->nparams + 1) * sizeof(uint32_t));
	if (!idx || kt_space_get(s, index, idx)) {
		kt_free(idx);
		return 0;
	}
	for (size_t p = 0; p < s->m->nparams; p++)
		n = neighbors_of(s, index, (int)p, adjacent, idx, out, max, n);
	kt_free(idx);
	return n;
}

char *kt_space_key(const kt_space *s, const uint32_t *param_idx)
{
	const kt_model *m = s->m;
	kt_str k = KT_STR_INIT;
	int rc = 0;
	for (size_t p = 0; p < m->nparams && !rc; p++) {
		kt_value v = m->params[p].values[param_idx[p]];
		rc = kt_str_addf(&k, "%s%s=", p ? "," : "", m->params[p].name);
		if (!rc && v.is_float)
			rc = kt_str_addf(&k, "%.17g", v.f);
		else if (!rc)
			rc = kt_str_addf(&k, "%lld", (long long)v.i);
	}
	if (rc) {
		kt_str_release(&k);
		return NULL;
	}
	return kt_str_detach(&k);
}
