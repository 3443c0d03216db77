/*
 * extent.c - how far a kernel's accesses reach into a pointer argument,
 * from its body alone: the largest element index + 1 over every access
 * through the parameter and through the local pointers made from it
 * (`T *x = p + off`, `reinterpret_cast<uint4 *>(p + off)`, `&p[off]`),
 * written over the launch's host values.
 *
 * The design choice: a bound is derived, never guessed. Each integer
 * expression gets a span - an upper bound, a polynomial over launch values
 * (poly.h), and whether it is proven ≥ 0 - built from what bounds its
 * leaves: the grid and the block for blockIdx and threadIdx, a guard
 * (`for (...; i < E; ...)`, `if (i < E)`, `if (i >= E) return;`, `i < E ?
 * p[i] : v`) for a variable or a whole expression, the initialiser of a
 * variable nothing writes. Sums and products of terms ≥ 0 are bounded by
 * the bounds' sums and products. Signs come from the guards at the access
 * (`i < d / 8` with i ≥ 0 makes d ≥ 8) and from what the host function
 * checked before the launch (`if (tokens <= 0 || d % 8) return`). An
 * access counts only when every offset
 * on its way from the parameter is bounded and ≥ 0; a use that cannot be
 * followed (a pointer stored, passed to a function of the file, assigned
 * again, its address taken) leaves the whole length unproven.
 */
#include "planner/planner.h"
#include "planner/poly.h"

#include <stdlib.h>
#include <string.h>

typedef struct span {
	pl_poly hi; /* the value is at most hi (when has_hi) */
	bool has_hi;
	bool nonneg; /* the value is ≥ 0 */
	bool exact;  /* the value is hi itself */
} span;

/* An offset on the way to an access: expression node, counted in units
 * of `unit` buffer elements. */
typedef struct step {
	int node;
	int64_t unit;
} step;

#define MAX_STEPS 16
#define MAX_KEPT 6
#define MAX_DEPTH 24

typedef struct reach {
	planner *P;
	const fe_kern *K;
	const fe_launch *L;
	pl_names *problems;
	int64_t elem; /* bytes of the buffer's element, 0 when unknown */
	pl_atoms atoms;
	uint32_t rank[PL_ATOMS]; /* where an atom comes from: the order
	                            to print them in */
	int num[PL_ATOMS];       /* atom i is `num / den` (atoms -1, 0 */
	int64_t den[PL_ATOMS];   /* when it is not) */
	struct {
		int atom;
		int64_t by;
	} divisible[8]; /* what the host code checks divides */
	int ndivisible;
	uint32_t always; /* atoms ≥ 0 wherever the kernel runs */
	uint32_t mask;   /* atoms ≥ 0 where the access being bounded runs */
	step steps[MAX_STEPS];
	int nsteps;
	pl_poly kept[MAX_KEPT]; /* the accesses' ends none of the others
	                           is proven to exceed */
	uint32_t kept_mask[MAX_KEPT];
	int nkept, naccess, depth;
	int at; /* the access being bounded, or -1 */
	bool fail;
} reach;

static void span_of(reach *R, int n, span *s);

static bool is_int(CXType t)
{
	enum CXTypeKind k = clang_getCanonicalType(t).kind;
	return k >= CXType_Char_U && k <= CXType_Int128 && k != CXType_Bool;
}

static bool is_unsigned(CXType t)
{
	enum CXTypeKind k = clang_getCanonicalType(t).kind;
	return k >= CXType_Char_U && k <= CXType_UInt128 && k != CXType_Bool;
}

static CXType type_of(const fe_ast *a, int n)
{
	return clang_getCursorType(a->n[n].cur);
}

static bool is_cast(enum CXCursorKind k)
{
	return k == CXCursor_CStyleCastExpr ||
	       k == CXCursor_CXXStaticCastExpr ||
	       k == CXCursor_CXXReinterpretCastExpr ||
	       k == CXCursor_CXXConstCastExpr ||
	       k == CXCursor_CXXFunctionalCastExpr;
}

/* `x % y` with y of a type no wider than t: a remainder t holds (the
 * `int lane = gid % packs` of a long gid). */
static bool small_rem(const fe_ast *a, int n, CXType t)
{
	while (n >= 0 && a->n[n].kind == CXCursor_ParenExpr)
		n = a->n[n].first;
	if (n < 0 || a->n[n].kind != CXCursor_BinaryOperator ||
	    a->n[n].op != CXBinaryOperator_Rem)
		return false;
	int y = fe_child(a, n, 1);
	while (y >= 0 &&
	       (a->n[y].kind == CXCursor_UnexposedExpr ||
	        a->n[y].kind == CXCursor_ParenExpr) &&
	       fe_nchildren(a, y) == 1)
		y = a->n[y].first;
	CXType yt = type_of(a, y);
	return y >= 0 && is_int(yt) &&
	       clang_Type_getSizeOf(yt) <= clang_Type_getSizeOf(t);
}

/* Parentheses, and integer conversions that keep every value (to a type
 * at least as wide, or of a remainder that fits). */
static int strip_int(const fe_ast *a, int n)
{
	while (n >= 0) {
		enum CXCursorKind k = a->n[n].kind;
		int in =
		    k == CXCursor_ParenExpr || (k == CXCursor_UnexposedExpr &&
		                                fe_nchildren(a, n) == 1)
		        ? a->n[n].first
		    : is_cast(k) ? a->n[n].last
		                 : -1;
		if (in < 0)
			break;
		CXType to = type_of(a, n), from = type_of(a, in);
		if (k != CXCursor_ParenExpr &&
		    !(is_int(to) && is_int(from) &&
		      (clang_Type_getSizeOf(to) >= clang_Type_getSizeOf(from) ||
		       small_rem(a, in, to))))
			break;
		n = in;
	}
	return n;
}

/* x and y are the same expression: the same operators over the same
 * variables and literals. */
static bool same(const fe_ast *a, int x, int y)
{
	x = strip_int(a, x);
	y = strip_int(a, y);
	if (x < 0 || y < 0 || a->n[x].kind != a->n[y].kind)
		return false;
	const fe_node *p = &a->n[x], *q = &a->n[y];
	switch (p->kind) {
	case CXCursor_DeclRefExpr: return p->ref >= 0 && p->ref == q->ref;
	case CXCursor_IntegerLiteral:
		return p->is_int && q->is_int && p->ival == q->ival;
	case CXCursor_MemberRefExpr: {
		static const char *const b[] = {"threadIdx", "blockIdx",
		                                "blockDim", "gridDim"};
		for (size_t i = 0; i < sizeof(b) / sizeof(*b); i++)
			if (fe_builtin(a, x, b[i]))
				return fe_builtin(a, x, b[i]) ==
				       fe_builtin(a, y, b[i]);
		return false;
	}
	case CXCursor_BinaryOperator:
		return p->op == q->op &&
		       same(a, fe_child(a, x, 0), fe_child(a, y, 0)) &&
		       same(a, fe_child(a, x, 1), fe_child(a, y, 1));
	default: return false;
	}
}

/* ----------------------------------------------------------- atoms */

static void unknown(span *s)
{
	pl_poly_const(&s->hi, 0);
	s->has_hi = s->nonneg = s->exact = false;
}

static void span_const(span *s, int64_t c)
{
	pl_poly_const(&s->hi, c);
	s->has_hi = s->exact = true;
	s->nonneg = c >= 0;
}

/* A value the launch fixes, written text (at host node `from`): a
 * number, or an atom (none when it names a tuning parameter: the length
 * would change with the configuration). always: it is ≥ 0 wherever the
 * kernel runs. */
static void span_value(reach *R, const char *text, int from, bool always,
                       span *s)
{
	char *end;
	long long v = strtoll(text, &end, 10);
	if (*text && !*end) {
		span_const(s, v);
		return;
	}
	int i = pl_names_param(R->P, text) ? -1 : pl_atom(&R->atoms, text);
	if (i < 0) {
		unknown(s);
		return;
	}
	R->rank[i] = R->P->a->n[from].b;
	if (always)
		R->always |= 1u << i;
	if (always)
		R->mask |= 1u << i;
	pl_poly_var(&s->hi, i);
	s->has_hi = s->exact = true;
	s->nonneg = R->mask >> i & 1;
}

static void divide(reach *R, const pl_poly *x, const pl_poly *y, bool nonneg,
                   span *s);

/* A host expression the launch passes: sums, differences, products and
 * quotients taken apart (so that `per_block * 16` over 16 is per_block),
 * the rest atoms. positive: the value is ≥ 1 where the kernel runs (a
 * launch dimension), and so is the atom of c * atom. */
static void host_value(reach *R, int n, bool positive, span *s)
{
	const fe_ast *a = R->P->a;
	int x = strip_int(a, n), op = x >= 0 ? a->n[x].op : -1;
	span l, r;
	unknown(s);
	if (x >= 0 && a->n[x].kind == CXCursor_BinaryOperator &&
	    (op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub ||
	     op == CXBinaryOperator_Mul || op == CXBinaryOperator_Div) &&
	    R->depth < MAX_DEPTH) {
		R->depth++;
		host_value(R, fe_child(a, x, 0), false, &l);
		host_value(R, fe_child(a, x, 1), false, &r);
		R->depth--;
		s->exact = l.exact && r.exact;
		s->nonneg = op != CXBinaryOperator_Sub && l.nonneg && r.nonneg;
		s->hi = l.hi;
		if (op == CXBinaryOperator_Div && s->exact)
			divide(R, &l.hi, &r.hi, s->nonneg, s);
		else if (op == CXBinaryOperator_Mul)
			pl_poly_mul(&s->hi, &r.hi);
		else
			pl_poly_add(&s->hi, &r.hi,
			            op == CXBinaryOperator_Sub ? -1 : 1);
		s->has_hi = s->exact = s->exact && !s->hi.bad;
	}
	kt_str e = KT_STR_INIT;
	if (!s->exact && pl_expr(R->P, n, &e, R->problems))
		span_value(R, e.ptr, n, positive, s);
	kt_str_release(&e);
	const pl_term *t = &s->hi.t[0];
	if (positive && s->exact && s->hi.n == 1 && t->c > 0 && t->deg == 1) {
		R->always |= 1u << t->atom[0];
		R->mask |= 1u << t->atom[0];
		s->nonneg = true;
	}
}

/* Dimension c of a launch synthesised from the body (no launch site):
 * its pragma expression, as a value the launch fixes. */
static void synth_dim(reach *R, int which, int c, span *s)
{
	const pl_synth *S = R->P->synth;
	const char *e = !S              ? NULL
	                : c >= S->ndims ? "1"
	                : which == 0    ? S->grid[c]
	                                : S->block[c];
	if (e)
		span_value(R, e, R->K->node, true, s);
}

/* Dimension c of the launch's grid (which 0) or block (1). */
static void launch_dim(reach *R, int which, int c, span *s)
{
	const fe_ast *a = R->P->a;
	unknown(s);
	if (!R->L) {
		synth_dim(R, which, c, s);
		return;
	}
	int op = R->L->op[which];
	if (op < 0 || R->L->shared >= 0)
		return;
	int d3 = fe_dim3(a, op);
	int x = d3 >= 0 ? fe_written(a, d3, c) : c == 0 ? op : -1;
	if (x < 0) {
		span_const(s, 1); /* a dimension not written is 1 */
		return;
	}
	/* through the implicit dim3(x) of a scalar operand */
	for (int k = 0; k < 3 && a->n[x].kind != CXCursor_BinaryOperator; k++)
		if (a->n[x].kind == CXCursor_CallExpr &&
		    !strcmp(a->n[x].name, "dim3") && fe_nwritten(a, x) == 1)
			x = fe_written(a, x, 0);
		else if (a->n[x].kind == CXCursor_UnexposedExpr &&
		         fe_nchildren(a, x) == 1)
			x = a->n[x].first;
	host_value(R, x, true, s);
	s->nonneg = true;
}

/* threadIdx, blockIdx (below the block and the grid), blockDim, gridDim
 * (the block and the grid). */
static bool builtin(reach *R, int n, span *s)
{
	static const char *const names[] = {"threadIdx", "blockIdx", "blockDim",
	                                    "gridDim"};
	for (int i = 0; i < 4; i++) {
		char c = fe_builtin(R->P->a, n, names[i]);
		if (!c)
			continue;
		launch_dim(R, i % 2 ? 0 : 1, c - 'x', s);
		if (i < 2 && s->has_hi) {
			pl_poly one;
			pl_poly_const(&one, 1);
			pl_poly_add(&s->hi, &one, -1);
		} else if (i < 2)
			unknown(s);
		s->nonneg = true;
		s->exact &= i >= 2;
		return true;
	}
	return false;
}

/* An integer parameter of the kernel that it never writes: what the
 * launch passes. */
static bool kernel_parm(reach *R, int var, span *s)
{
	const fe_ast *a = R->P->a;
	if (a->n[var].kind != CXCursor_ParmDecl ||
	    a->n[var].parent != R->K->node || !is_int(type_of(a, var)) ||
	    pl_writes(a, R->K->body, var, -1))
		return false;
	unknown(s);
	if (!R->L) { /* the problem variable a synthesised launch passes */
		int i = 0;
		for (int c = a->n[R->K->node].first; c >= 0 && c != var;
		     c = a->n[c].next)
			i += a->n[c].kind == CXCursor_ParmDecl;
		const pl_synth *S = R->P->synth;
		if (S && i < PL_SYNTH_ARGS && S->arg[i])
			span_value(R, S->arg[i], var, false, s);
	} else {
		int arg = pl_call_arg(R->P, R->L, var);
		if (arg >= 0)
			host_value(R, arg, false, s);
	}
	if (is_unsigned(type_of(a, var)))
		s->nonneg = true;
	return true;
}

/* Expression text e is ≥ 0 for every configuration: numbers and
 * parameters whose domains are ≥ 0 under `+`, `*`, `/`, `%`. */
static bool params_nonneg(const planner *P, const char *e)
{
	for (const char *c = e; *c;) {
		size_t n = strspn(c, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLM"
		                     "NOPQRSTUVWXYZ0123456789_");
		if (!n && !strchr(" ()+*/%", *c))
			return false;
		char name[128];
		if (n && (*c < '0' || *c > '9')) {
			if (n >= sizeof(name))
				return false;
			memcpy(name, c, n);
			name[n] = '\0';
			int p = pl_find_param(P, name);
			if (p < 0)
				return false;
			const kt_plan_param *q = &P->params.items[p].p;
			for (size_t i = 0; i < q->nvalues; i++)
				if (q->values[i] < 0)
					return false;
		}
		c += n ? n : 1;
	}
	return true;
}

/* A literal, or what stands for one: its value, unless it became a
 * tuning parameter, which has no bound (it changes with the
 * configuration) but is ≥ 0 when its domain is. */
static void literal(reach *R, int n, span *s)
{
	kt_str e = KT_STR_INIT;
	unknown(s);
	bool ok = pl_expr(R->P, n, &e, NULL);
	char *end;
	long long v = ok ? strtoll(e.ptr, &end, 10) : 0;
	if (ok && *e.ptr && !*end)
		span_const(s, v);
	else if (ok)
		s->nonneg = params_nonneg(R->P, e.ptr);
	kt_str_release(&e);
}

/* A template parameter of the kernel: the literal the launch gives it;
 * a tuning parameter has no bound (it changes with the configuration),
 * but is ≥ 0 when its domain is, or when its type is unsigned (`const
 * uint NUM_THREADS`, given a constant the host names: a value of that
 * type, never a wrapped one). */
static bool template_parm(reach *R, int n, span *s)
{
	const fe_ast *a = R->P->a;
	int tp = a->n[n].ref;
	if (a->n[tp].kind != CXCursor_NonTypeTemplateParameter)
		return false;
	int lit = R->L ? pl_template_lit(R->P, R->K, R->L, tp) : -1;
	int64_t v;
	if (lit < 0 && pl_fold(R->P, n, &v)) /* passed on by a host template */
		span_const(s, v);
	else
		literal(R, lit >= 0 ? lit : n, s);
	s->nonneg |= is_unsigned(type_of(a, tp));
	return true;
}

/* A variable of a const integer type whose value the compiler knows
 * (`constexpr int kGroup = 128`, `const int lanes = 16`). */
static bool constant(reach *R, int n, span *s)
{
	const fe_ast *a = R->P->a;
	CXType t = type_of(a, a->n[n].ref);
	if (a->n[a->n[n].ref].kind != CXCursor_VarDecl || !is_int(t) ||
	    !clang_isConstQualifiedType(t))
		return false;
	CXEvalResult r = clang_Cursor_Evaluate(a->n[a->n[n].ref].cur);
	bool ok = r && clang_EvalResult_getKind(r) == CXEval_Int;
	if (ok)
		span_const(s, clang_EvalResult_getAsLongLong(r));
	if (r)
		clang_EvalResult_dispose(r);
	/* in a template, where it depends on a template parameter: its
	 * value at the instantiation */
	int64_t v;
	if (!ok && (ok = pl_fold(R->P, n, &v)))
		span_const(s, v);
	return ok;
}

/* ------------------------------------------------------------ guards */

/* cond as `l < r` (strict) or `l <= r`, when it holds (negate: when it
 * fails). */
static bool compare(const fe_ast *a, int cond, bool negate, int *l, int *r,
                    bool *strict)
{
	cond = strip_int(a, cond);
	if (cond < 0 || a->n[cond].kind != CXCursor_BinaryOperator)
		return false;
	int op = a->n[cond].op, x = fe_child(a, cond, 0),
	    y = fe_child(a, cond, 1);
	if (negate)
		op = op == CXBinaryOperator_LT   ? CXBinaryOperator_GE
		     : op == CXBinaryOperator_LE ? CXBinaryOperator_GT
		     : op == CXBinaryOperator_GT ? CXBinaryOperator_LE
		     : op == CXBinaryOperator_GE ? CXBinaryOperator_LT
		                                 : -1;
	*strict = op == CXBinaryOperator_LT || op == CXBinaryOperator_GT;
	*l = op == CXBinaryOperator_LT || op == CXBinaryOperator_LE ? x : y;
	*r = *l == x ? y : x;
	return op == CXBinaryOperator_LT || op == CXBinaryOperator_LE ||
	       op == CXBinaryOperator_GT || op == CXBinaryOperator_GE;
}

/* What a comparison that holds tells: a bound on target (when target
 * is one side), or, with target -1, that the greater side is ≥ 1 (≥ 0)
 * when the smaller is ≥ 0. */
typedef bool (*on_fact)(reach *R, int l, int r, bool strict, int target,
                        span *out);

static bool stable(reach *R, int region, int e);

/* Every comparison that holds in cond (looking into `&&`; into `||`
 * when it fails instead), until fn returns true. */
static bool each_compare(reach *R, int cond, bool negate, on_fact fn,
                         int target, span *out)
{
	const fe_ast *a = R->P->a;
	cond = strip_int(a, cond);
	if (cond < 0)
		return false;
	if (a->n[cond].kind == CXCursor_BinaryOperator &&
	    a->n[cond].op ==
	        (negate ? CXBinaryOperator_LOr : CXBinaryOperator_LAnd))
		return each_compare(R, fe_child(a, cond, 0), negate, fn, target,
		                    out) ||
		       each_compare(R, fe_child(a, cond, 1), negate, fn, target,
		                    out);
	int v = cond;
	while ((a->n[v].kind == CXCursor_UnexposedExpr ||
	        a->n[v].kind == CXCursor_ParenExpr) &&
	       fe_nchildren(a, v) == 1)
		v = a->n[v].first;
	int var = a->n[v].kind == CXCursor_DeclRefExpr ? a->n[v].ref : -1;
	if (var >= 0 && a->n[var].kind == CXCursor_VarDecl &&
	    pl_inside(a, var, R->K->body) && fe_var_init(a, var) >= 0 &&
	    !pl_writes(a, R->K->body, var, -1) &&
	    stable(R, R->K->body, target) && R->depth < MAX_DEPTH) {
		/* `const bool live = row < n;`: what held where it was set
		 * holds wherever target is the same */
		R->depth++;
		bool found = each_compare(R, fe_var_init(a, var), negate, fn,
		                          target, out);
		R->depth--;
		return found;
	}
	int l, r;
	bool strict;
	return compare(a, cond, negate, &l, &r, &strict) &&
	       fn(R, l, r, strict, target, out);
}

/* Nothing in region writes a variable of expression e. */
static bool stable(reach *R, int region, int e)
{
	const fe_ast *a = R->P->a;
	if (e < 0)
		return true;
	for (size_t i = 0; i < a->len; i++)
		if (a->n[i].kind == CXCursor_DeclRefExpr &&
		    pl_inside(a, (int)i, e) && a->n[i].ref >= 0 &&
		    pl_writes(a, region, a->n[i].ref, -1))
			return false;
	return true;
}

/* `return;`, `continue;` or `break;`, alone or in braces: the rest of
 * the block does not run. */
static bool only_return(const fe_ast *a, int s)
{
	if (a->n[s].kind == CXCursor_CompoundStmt && fe_nchildren(a, s) == 1)
		s = a->n[s].first;
	return (a->n[s].kind == CXCursor_ReturnStmt && a->n[s].first < 0) ||
	       a->n[s].kind == CXCursor_ContinueStmt ||
	       a->n[s].kind == CXCursor_BreakStmt;
}

/* Every comparison that holds at node at: the conditions of the `if`,
 * `for` and `?:` around it, and the failed conditions of an `if (C)
 * return;` before it in an enclosing block; innermost first, where
 * target (if any) keeps its value, until fn returns true. */
static bool each_fact(reach *R, int at, on_fact fn, int target, span *out)
{
	const fe_ast *a = R->P->a;
	for (int c = at, s = a->n[at].parent; s >= 0 && c != R->K->body;
	     c = s, s = a->n[s].parent) {
		const fe_node *x = &a->n[s];
		int cond = -1;
		if (x->kind == CXCursor_ForStmt && fe_nchildren(a, s) == 4 &&
		    c == fe_child(a, s, 3))
			cond = fe_child(a, s, 1);
		else if ((x->kind == CXCursor_IfStmt ||
		          x->kind == CXCursor_ConditionalOperator) &&
		         fe_nchildren(a, s) >= 2 && c == fe_child(a, s, 1))
			cond = x->first;
		if (cond >= 0 && stable(R, c, target) &&
		    each_compare(R, cond, false, fn, target, out))
			return true;
		if (x->kind != CXCursor_CompoundStmt)
			continue;
		for (int t = x->first; t >= 0 && t != c; t = a->n[t].next) {
			if (a->n[t].kind != CXCursor_IfStmt ||
			    fe_nchildren(a, t) != 2 ||
			    !only_return(a, fe_child(a, t, 1)))
				continue;
			bool ok = true;
			for (int u = a->n[t].next; ok && u >= 0;
			     u = a->n[u].next)
				ok = stable(R, u, target);
			if (ok && each_compare(R, a->n[t].first, true, fn,
			                       target, out))
				return true;
		}
	}
	return false;
}

/* `target < r`: target ≤ r's bound - 1. */
static bool bound_fact(reach *R, int l, int r, bool strict, int target,
                       span *out)
{
	if (!same(R->P->a, l, target))
		return false;
	span b;
	span_of(R, r, &b);
	if (!b.has_hi)
		return false;
	out->hi = b.hi;
	if (strict) {
		pl_poly one;
		pl_poly_const(&one, 1);
		pl_poly_add(&out->hi, &one, -1);
	}
	out->has_hi = !out->hi.bad;
	return out->has_hi;
}

/* e ≥ 1 (strict) or ≥ 0: what follows for the kernel parameters in it
 * (`n / 8 ≥ 1` gives n ≥ 8; `x * y ≥ 1` with y ≥ 0 gives x, y ≥ 1). */
static void mark(reach *R, int e, bool strict)
{
	const fe_ast *a = R->P->a;
	e = strip_int(a, e);
	if (e < 0 || R->depth >= MAX_DEPTH)
		return;
	const fe_node *x = &a->n[e];
	span l, r;
	int var = x->kind == CXCursor_DeclRefExpr ? x->ref : -1;
	if (var >= 0 && kernel_parm(R, var, &l)) {
		if (l.exact && l.hi.n == 1 && l.hi.t[0].deg == 1 &&
		    l.hi.t[0].c == 1)
			R->mask |= 1u << l.hi.t[0].atom[0];
		return;
	}
	R->depth++;
	if (var >= 0 && a->n[var].kind == CXCursor_VarDecl &&
	    pl_inside(a, var, R->K->body) &&
	    !pl_writes(a, R->K->body, var, -1) && fe_var_init(a, var) >= 0)
		mark(R, fe_var_init(a, var), strict);
	if (x->kind == CXCursor_BinaryOperator) {
		int p = fe_child(a, e, 0), q = fe_child(a, e, 1);
		span_of(R, p, &l);
		span_of(R, q, &r);
		int64_t c = 0;
		bool pos = r.exact && pl_poly_is_const(&r.hi, &c) && c > 0;
		if (x->op == CXBinaryOperator_Div && strict && pos)
			mark(R, p, true);
		if (x->op == CXBinaryOperator_Mul && pos)
			mark(R, p, strict);
		else if (x->op == CXBinaryOperator_Mul && strict &&
		         (l.nonneg || r.nonneg)) {
			mark(R, p, true);
			mark(R, q, true);
		}
	}
	R->depth--;
}

static bool sign_fact(reach *R, int l, int r, bool strict, int target,
                      span *out)
{
	(void)target;
	(void)out;
	span s;
	span_of(R, l, &s);
	if (s.nonneg)
		mark(R, r, strict);
	return false; /* every fact */
}

/* ------------------------------------------------------------- spans */

/* A for loop whose initialiser declares var and whose increment only
 * raises it (`i++`, `++i`, `i += E` with E ≥ 0): the loop, else -1. */
static int rising_loop(reach *R, int var)
{
	const fe_ast *a = R->P->a;
	int decl = a->n[var].parent;
	int loop = decl >= 0 ? a->n[decl].parent : -1;
	if (loop < 0 || a->n[loop].kind != CXCursor_ForStmt ||
	    fe_nchildren(a, loop) != 4 || fe_child(a, loop, 0) != decl)
		return -1;
	int inc = strip_int(a, fe_child(a, loop, 2));
	const fe_node *x = &a->n[inc];
	int lhs = strip_int(a, x->first);
	if (lhs < 0 || a->n[lhs].kind != CXCursor_DeclRefExpr ||
	    a->n[lhs].ref != var)
		return -1;
	if (x->kind == CXCursor_UnaryOperator &&
	    (x->op == CXUnaryOperator_PostInc ||
	     x->op == CXUnaryOperator_PreInc))
		return loop;
	if (x->kind != CXCursor_CompoundAssignOperator ||
	    x->op != CXBinaryOperator_AddAssign)
		return -1;
	span s;
	span_of(R, fe_child(a, inc, 1), &s);
	return s.nonneg ? loop : -1;
}

/* A local integer variable: its initialiser's span when nothing writes
 * it, its sign when a loop only raises it from there (the bound then
 * comes from a guard, span_at). */
static void local_span(reach *R, int var, span *s)
{
	const fe_ast *a = R->P->a;
	unknown(s);
	if (a->n[var].kind != CXCursor_VarDecl ||
	    !pl_inside(a, var, R->K->body) || !is_int(type_of(a, var)))
		return;
	int init = fe_var_init(a, var), loop = rising_loop(R, var);
	span i;
	unknown(&i);
	if (init >= 0)
		span_of(R, init, &i);
	if (loop >= 0 && !pl_writes(a, R->K->body, var, fe_child(a, loop, 2))) {
		s->nonneg = i.nonneg;
	} else if (init >= 0 && !pl_writes(a, R->K->body, var, -1)) {
		*s = i;
	}
}

/* Polynomial p as an operand: in parentheses unless a name or number. */
static void operand(reach *R, const pl_poly *p, kt_str *out)
{
	kt_str e = KT_STR_INIT;
	pl_poly_print(p, &R->atoms, &e);
	pl_operand(e.ptr, out);
	kt_str_release(&e);
}

/* x / y (y > 0, the division truncating) as an atom, ≥ 0 when x is
 * (nonneg). */
static void divide(reach *R, const pl_poly *x, const pl_poly *y, bool nonneg,
                   span *s)
{
	if (nonneg && pl_poly_div(&s->hi, x, y)) {
		s->has_hi = true;
		s->nonneg = nonneg;
		return;
	}
	kt_str e = KT_STR_INIT;
	operand(R, x, &e);
	kt_str_adds(&e, " / ");
	operand(R, y, &e);
	int i = pl_atom(&R->atoms, e.ptr);
	kt_str_release(&e);
	int64_t c;
	if (i >= 0) {
		R->rank[i] = UINT32_MAX / 2 + (uint32_t)i; /* after */
		R->num[i] = x->n == 1 && x->t[0].c == 1 && x->t[0].deg == 1
		                ? x->t[0].atom[0]
		                : -1;
		R->den[i] = pl_poly_is_const(y, &c) ? c : 0;
		R->mask |= (uint32_t)nonneg << i;
	}
	pl_poly_var(&s->hi, i);
	s->has_hi = !s->hi.bad;
	s->nonneg = nonneg;
}

/* The span of a binary operation from its operands'. */
static void binary_span(reach *R, int n, span *s)
{
	const fe_ast *a = R->P->a;
	span x, y;
	span_of(R, fe_child(a, n, 0), &x);
	span_of(R, fe_child(a, n, 1), &y);
	int64_t c = 0;
	bool yc = y.exact && pl_poly_is_const(&y.hi, &c);
	int op = a->n[n].op;
	if (op == CXBinaryOperator_Shl && yc && c >= 0 && c < 32) {
		pl_poly_const(&y.hi, (int64_t)1 << c);
		op = CXBinaryOperator_Mul;
	}
	if (op == CXBinaryOperator_Shr && yc && c >= 0 && c < 32 &&
	    x.nonneg) { /* a negative x rounds down, not to 0 */
		c = (int64_t)1 << c;
		op = CXBinaryOperator_Div;
	}
	unknown(s);
	switch (op) {
	case CXBinaryOperator_Add:
		s->hi = x.hi;
		pl_poly_add(&s->hi, &y.hi, 1);
		s->has_hi = x.has_hi && y.has_hi;
		s->nonneg = x.nonneg && y.nonneg;
		s->exact = x.exact && y.exact;
		break;
	case CXBinaryOperator_Sub:
		if (is_unsigned(type_of(a, n)))
			break; /* it wraps */
		s->hi = x.hi;
		pl_poly_add(&s->hi, &y.hi, -1);
		s->has_hi = x.has_hi && y.exact;
		s->exact = x.exact && y.exact;
		break;
	case CXBinaryOperator_Mul:
		s->hi = x.hi;
		pl_poly_mul(&s->hi, &y.hi);
		s->exact = x.exact && y.exact;
		s->nonneg = x.nonneg && y.nonneg;
		s->has_hi = x.has_hi && y.has_hi &&
		            (s->exact || s->nonneg || (x.exact && x.nonneg) ||
		             (y.exact && y.nonneg));
		break;
	case CXBinaryOperator_Div:
		if (!yc && y.exact && y.nonneg && x.nonneg && x.has_hi) {
			divide(R, &x.hi, &y.hi, true,
			       s); /* by a launch value */
			s->exact = x.exact;
			break;
		}
		s->nonneg = yc && c > 0 && x.nonneg;
		if (!yc || c <= 0 || !x.has_hi || (!x.nonneg && !x.exact))
			break;
		s->exact = x.exact;
		s->has_hi = true;
		int64_t v;
		if (pl_poly_is_const(&x.hi, &v)) {
			span_const(s, v / c);
			s->nonneg = x.nonneg;
			s->exact = x.exact;
			break;
		}
		pl_poly_const(&y.hi, c);
		divide(R, &x.hi, &y.hi, x.nonneg, s);
		s->exact = x.exact;
		break;
	case CXBinaryOperator_Rem:
		if (!y.nonneg || (!x.nonneg && !is_unsigned(type_of(a, n))))
			break;
		if (y.exact) {
			span_const(s, -1);
			pl_poly_add(&s->hi, &y.hi, 1);
			s->exact = false;
		}
		s->nonneg = true;
		break;
	case CXBinaryOperator_And:
		if ((yc && c >= 0) || (x.nonneg && y.nonneg && x.has_hi)) {
			s->hi = yc && c >= 0 ? y.hi : x.hi;
			s->has_hi = s->nonneg = true;
		}
		break;
	default: break;
	}
	s->has_hi &= !s->hi.bad;
}

/* r += t (a term whose atoms may have been rewritten: products again). */
static void add_term(pl_poly *r, const pl_term *t)
{
	pl_poly m;
	pl_poly_const(&m, t->c);
	for (int k = 0; k < t->deg; k++) {
		pl_poly v;
		pl_poly_var(&v, t->atom[k]);
		pl_poly_mul(&m, &v);
	}
	pl_poly_add(r, &m, 1);
}

/* d ≥ 0 given the atoms of mask are: every coefficient ≥ 0, once each
 * term -k * c * (x / c) * m (x ≥ 0) is replaced by the smaller -k * x *
 * m (c * (x / c) ≤ x). */
static bool nonneg(const reach *R, const pl_poly *d, uint32_t mask)
{
	pl_poly r;
	pl_poly_const(&r, 0);
	r.bad = d->bad;
	for (int i = 0; i < d->n; i++) {
		pl_term t = d->t[i];
		bool blind = false; /* a factor of unknown sign */
		for (int k = 0; k < t.deg; k++)
			blind |= !(mask >> t.atom[k] & 1);
		for (int k = 0; k < t.deg && t.c < 0 && !blind; k++) {
			int x = R->num[t.atom[k]];
			int64_t c = R->den[t.atom[k]];
			if (x >= 0 && c > 0 && t.c % c == 0 &&
			    (mask >> x & 1)) {
				t.c /= c;
				t.atom[k] = (uint8_t)x;
			}
		}
		add_term(&r, &t);
	}
	return pl_poly_nonneg(&r, mask);
}

/* The greater of two bounds, when one is proven the greater. */
static bool larger(reach *R, const pl_poly *x, const pl_poly *y, pl_poly *out)
{
	pl_poly d = *x;
	pl_poly_add(&d, y, -1);
	if (nonneg(R, &d, R->mask)) {
		*out = *x;
		return true;
	}
	pl_poly_const(&d, 0);
	pl_poly_add(&d, y, 1);
	pl_poly_add(&d, x, -1);
	if (nonneg(R, &d, R->mask)) {
		*out = *y;
		return true;
	}
	return false;
}

static void span_at(reach *R, int n, span *s)
{
	const fe_ast *a = R->P->a;
	const fe_node *x = &a->n[n];
	unknown(s);
	if (x->kind == CXCursor_IntegerLiteral && x->is_int)
		literal(R, n, s);
	else if ((x->kind == CXCursor_MemberRefExpr ||
	          x->kind == CXCursor_UnexposedExpr) &&
	         builtin(R, n, s))
		return;
	else if (x->kind == CXCursor_DeclRefExpr && x->ref >= 0) {
		if (!kernel_parm(R, x->ref, s) && !template_parm(R, n, s) &&
		    !constant(R, n, s))
			local_span(R, x->ref, s);
		else if (s->exact)
			return; /* a constant: no guard bounds it closer */
	} else if (x->kind == CXCursor_BinaryOperator)
		binary_span(R, n, s);
	else if (x->kind == CXCursor_ConditionalOperator &&
	         fe_nchildren(a, n) == 3) {
		span p, q;
		span_of(R, fe_child(a, n, 1), &p);
		span_of(R, fe_child(a, n, 2), &q);
		s->nonneg = p.nonneg && q.nonneg;
		s->has_hi =
		    p.has_hi && q.has_hi && larger(R, &p.hi, &q.hi, &s->hi);
	}
	if (x->kind != CXCursor_DeclRefExpr &&
	    x->kind != CXCursor_BinaryOperator)
		return;
	/* a guard bounds the expression itself: the tighter bound, as a
	 * rule (`x < cols` over x's initialiser) */
	span g;
	unknown(&g);
	/* an offset computed before the access (`src = p + row * E` then
	 * `live ? src[j] : 0`): the access's guards bound it too where
	 * nothing in the kernel changes it */
	bool before =
	    R->at >= 0 && !pl_inside(a, n, R->at) && stable(R, R->K->body, n);
	if (each_fact(R, n, bound_fact, n, &g) ||
	    (before && each_fact(R, R->at, bound_fact, n, &g))) {
		s->hi = g.hi;
		s->has_hi = true;
		s->exact = false;
	}
}

static void span_of(reach *R, int n, span *s)
{
	n = strip_int(R->P->a, n);
	unknown(s);
	if (n < 0 || R->depth >= MAX_DEPTH)
		return;
	R->depth++;
	span_at(R, n, s);
	R->depth--;
}

/* ------------------------------------------------------ host checks */

/* A condition the host code checked failed before the launch: `0 < x`
 * (`x <= 0` failed) makes x ≥ 1 where the kernel runs, `x % c` (or `x
 * % c != 0`) makes c divide x. */
static void host_fails(reach *R, int cond)
{
	const fe_ast *a = R->P->a;
	cond = fe_strip(a, cond);
	if (cond < 0 || a->n[cond].kind != CXCursor_BinaryOperator)
		return;
	const fe_node *x = &a->n[cond];
	int l, r, lit;
	bool strict;
	kt_str e = KT_STR_INIT;
	if (x->op == CXBinaryOperator_LOr) {
		host_fails(R, fe_child(a, cond, 0));
		host_fails(R, fe_child(a, cond, 1));
	} else if (compare(a, cond, true, &l, &r, &strict)) {
		lit = fe_strip(a, l);
		if (lit >= 0 && a->n[lit].is_int &&
		    a->n[lit].ival >= (strict ? -1 : 0) &&
		    pl_expr(R->P, r, &e, NULL) &&
		    !pl_names_param(R->P, e.ptr)) {
			int i = pl_atom(&R->atoms, e.ptr);
			R->always |= i >= 0 ? 1u << i : 0;
		}
	} else {
		int rem = cond, zero = -1;
		if (x->op == CXBinaryOperator_NE) {
			rem = fe_strip(a, fe_child(a, cond, 0));
			zero = fe_strip(a, fe_child(a, cond, 1));
		}
		int c = rem >= 0 && a->n[rem].kind == CXCursor_BinaryOperator &&
		                a->n[rem].op == CXBinaryOperator_Rem
		            ? fe_strip(a, fe_child(a, rem, 1))
		            : -1;
		bool by = c >= 0 && a->n[c].is_int && a->n[c].ival > 0 &&
		          (zero < 0 || (a->n[zero].is_int && !a->n[zero].ival));
		int i = by && pl_expr(R->P, fe_child(a, rem, 0), &e, NULL)
		            ? pl_atom(&R->atoms, e.ptr)
		            : -1;
		if (i >= 0 && R->ndivisible < 8) {
			R->divisible[R->ndivisible].atom = i;
			R->divisible[R->ndivisible++].by = a->n[c].ival;
		}
	}
	kt_str_release(&e);
}

/* `return` alone or with a value, maybe in braces. */
static bool returns(const fe_ast *a, int s)
{
	if (a->n[s].kind == CXCursor_CompoundStmt && fe_nchildren(a, s) == 1)
		s = a->n[s].first;
	return a->n[s].kind == CXCursor_ReturnStmt;
}

/* The checks of the host function before the launch: `if (C) return
 * ...;` in a block around the launch, nothing after it writing C's
 * variables. */
static void host_checks(reach *R)
{
	const fe_ast *a = R->P->a;
	int fn = R->L ? R->L->host_fn : -1;
	if (fn < 0 || R->L->shared >= 0)
		return;
	for (int c = R->L->call, s = a->n[c].parent; s >= 0 && c != fn;
	     c = s, s = a->n[s].parent) {
		if (a->n[s].kind != CXCursor_CompoundStmt)
			continue;
		for (int t = a->n[s].first; t >= 0 && t != c;
		     t = a->n[t].next) {
			if (a->n[t].kind != CXCursor_IfStmt ||
			    fe_nchildren(a, t) != 2 ||
			    !returns(a, fe_child(a, t, 1)))
				continue;
			/* the statements from there to the launch's */
			bool ok = true;
			for (int u = a->n[t].next; ok && u >= 0;
			     u = a->n[u].next) {
				ok = stable(R, u, a->n[t].first);
				if (u == c)
					break;
			}
			if (ok)
				host_fails(R, a->n[t].first);
		}
	}
}

/* Where the host checked that c divides x, c * (x / c) is x. */
static void exact_division(reach *R, pl_poly *p)
{
	pl_poly r;
	pl_poly_const(&r, 0);
	r.bad = p->bad;
	for (int i = 0; i < p->n; i++) {
		pl_term t = p->t[i];
		for (int k = 0; k < t.deg; k++) {
			int n = R->num[t.atom[k]];
			int64_t by = R->den[t.atom[k]];
			bool known = false;
			for (int j = 0; j < R->ndivisible; j++)
				known |= R->divisible[j].atom == n && by > 0 &&
				         R->divisible[j].by % by == 0;
			if (n >= 0 && known && by > 0 && t.c % by == 0) {
				t.c /= by;
				t.atom[k] = (uint8_t)n;
			}
		}
		add_term(&r, &t);
	}
	*p = r;
}

/* --------------------------------------------------------- accesses */

/* Keeps end (found where mask holds) unless a kept end is proven as
 * large; drops the kept ends it is proven to exceed. */
static void keep(reach *R, const pl_poly *end)
{
	for (int k = 0; k < R->nkept; k++) {
		pl_poly d = R->kept[k];
		pl_poly_add(&d, end, -1);
		if (nonneg(R, &d, R->mask))
			return;
	}
	int w = 0;
	for (int k = 0; k < R->nkept; k++) {
		pl_poly d = *end;
		pl_poly_add(&d, &R->kept[k], -1);
		if (nonneg(R, &d, R->kept_mask[k]))
			continue;
		R->kept[w] = R->kept[k];
		R->kept_mask[w++] = R->kept_mask[k];
	}
	R->nkept = w;
	if (R->nkept == MAX_KEPT) {
		R->fail = true;
		return;
	}
	R->kept[R->nkept] = *end;
	R->kept_mask[R->nkept++] = R->mask;
}

/* An element access at node at, `unit` buffer elements wide, through
 * the steps so far. */
static void access(reach *R, int at, int64_t unit)
{
	R->mask = R->always;
	span s;
	for (int pass = 0; pass < 2; pass++) /* a fact may need another */
		each_fact(R, at, sign_fact, -1, &s);
	pl_poly end;
	pl_poly_const(&end, unit);
	R->at = at;
	for (int k = 0; k < R->nsteps && !R->fail; k++) {
		span_of(R, R->steps[k].node, &s);
		if (!s.has_hi || !s.nonneg)
			R->fail = true;
		pl_poly_add(&end, &s.hi, R->steps[k].unit);
	}
	R->at = -1;
	exact_division(R, &end);
	R->fail |= end.bad;
	R->naccess++;
	if (!R->fail)
		keep(R, &end);
}

static bool push(reach *R, int node, int64_t unit)
{
	if (R->nsteps == MAX_STEPS)
		return false;
	R->steps[R->nsteps++] = (step){node, unit};
	return true;
}

typedef struct layout {
	long long size, align;
	bool bad;
} layout;

static enum CXVisitorResult add_field(CXCursor c, CXClientData data)
{
	layout *l = data;
	CXType t = clang_getCursorType(c);
	long long s = clang_Type_getSizeOf(t), al = clang_Type_getAlignOf(t);
	if (s <= 0 || al <= 0 || clang_Cursor_isBitField(c)) {
		l->bad = true;
		return CXVisit_Break;
	}
	l->size = (l->size + al - 1) / al * al + s;
	l->align = al > l->align ? al : l->align;
	return CXVisit_Continue;
}

/* An alignment the record's declaration asks for (`struct __align__(16)
 * ldg_t`): its number, 0 for none, -1 when one cannot be read. */
static long long declared_align(const planner *P, CXCursor decl)
{
	long long align = 0;
	CXToken *t = NULL;
	unsigned nt = 0;
	CXTranslationUnit tu = P->f->tu->tu;
	clang_tokenize(tu, clang_getCursorExtent(decl), &t, &nt);
	for (unsigned i = 0; i + 2 < nt && align >= 0; i++) {
		CXString sp = clang_getTokenSpelling(tu, t[i]);
		const char *s = clang_getCString(sp);
		bool attr = !strcmp(s, "__align__") || !strcmp(s, "alignas") ||
		            !strcmp(s, "aligned");
		clang_disposeString(sp);
		if (!attr)
			continue;
		CXString v = clang_getTokenSpelling(tu, t[i + 2]);
		char *end;
		long long a = strtoll(clang_getCString(v), &end, 10);
		align = *end || a <= 0 ? -1 : a > align ? a : align;
		clang_disposeString(v);
	}
	clang_disposeTokens(tu, t, nt);
	return align;
}

/* The size of type e where clang's layout has none: a record declared in
 * a template (`struct ldg_t { float f[ELTS]; }` in a kernel template),
 * laid out as the compiler lays it out (fields in order, each at its
 * alignment, the whole rounded up to the largest alignment, the
 * declared one included); 0 when that is not known. */
static long long record_size(const planner *P, CXType e)
{
	CXCursor decl = clang_getTypeDeclaration(e);
	if (clang_getCursorKind(decl) != CXCursor_StructDecl)
		return 0;
	layout l = {0, 1, false};
	clang_Type_visitFields(e, add_field, &l);
	long long da = declared_align(P, decl);
	if (l.bad || l.size <= 0 || da < 0)
		return 0;
	long long al = da > l.align ? da : l.align;
	return (l.size + al - 1) / al * al;
}

/* The view node n gives of the buffer (a pointer type): the same
 * elements, or elements a whole number of buffer elements wide (*unit);
 * false for anything else. */
static bool view(reach *R, int n, CXType *elem, int64_t *unit)
{
	CXType t = clang_getCanonicalType(type_of(R->P->a, n));
	if (t.kind != CXType_Pointer)
		return false;
	CXType e = clang_getUnqualifiedType(
	    clang_getCanonicalType(clang_getPointeeType(t)));
	if (clang_equalTypes(e, *elem))
		return true;
	long long s = clang_Type_getSizeOf(e);
	if (s <= 0 && e.kind != CXType_Void)
		s = record_size(R->P, e);
	if (e.kind == CXType_Void || s <= 0 || R->elem <= 0 || s % R->elem)
		return false;
	*elem = e;
	*unit = s / R->elem;
	return true;
}

static void walk(reach *R, int n, CXType elem, int64_t unit);

/* A local pointer initialised with the view: every use of it, when
 * nothing writes it or takes its address. */
static void alias(reach *R, int var, CXType elem, int64_t unit)
{
	const fe_ast *a = R->P->a;
	if (a->n[var].kind != CXCursor_VarDecl ||
	    !pl_inside(a, var, R->K->body) ||
	    pl_writes(a, R->K->body, var, -1) || !view(R, var, &elem, &unit) ||
	    R->depth >= MAX_DEPTH) {
		R->fail = true;
		return;
	}
	R->depth++;
	for (size_t i = 0; i < a->len && !R->fail; i++)
		if (a->n[i].kind == CXCursor_DeclRefExpr && a->n[i].ref == var)
			walk(R, (int)i, elem, unit);
	R->depth--;
}

/* Sum s, of pointer p and an offset, is a pointer: its type says so, or,
 * in a template where libclang gives a sum over a dependent pointee no
 * type (`in + row * d` with `const T *in`), p's does. */
static bool pointer_sum(const fe_ast *a, int s, int p)
{
	CXType t = clang_getCanonicalType(type_of(a, s));
	if (t.kind == CXType_Pointer)
		return true;
	return (t.kind == CXType_Dependent || t.kind == CXType_Unexposed ||
	        t.kind == CXType_Invalid) &&
	       clang_getCanonicalType(type_of(a, p)).kind == CXType_Pointer;
}

/* One step up from pointer expression n (a view of elem, unit buffer
 * elements each): the parent n leads to, or -1 when the use ends here
 * (an access recorded, a comparison, or a failure). */
static int up(reach *R, int n, CXType *elem, int64_t *unit)
{
	const fe_ast *a = R->P->a;
	int s = a->n[n].parent;
	if (s < 0) {
		R->fail = true;
		return -1;
	}
	const fe_node *x = &a->n[s];
	if (x->kind == CXCursor_ParenExpr)
		return s;
	if (x->kind == CXCursor_UnexposedExpr || is_cast(x->kind)) {
		if (clang_getCanonicalType(type_of(a, s)).kind == CXType_Bool)
			return -1; /* `if (p)` */
		R->fail |= !view(R, s, elem, unit);
		return R->fail ? -1 : s;
	}
	switch (x->kind) {
	case CXCursor_BinaryOperator:
		if (x->op >= CXBinaryOperator_LT &&
		    x->op <= CXBinaryOperator_NE)
			return -1; /* compared, not accessed */
		if (x->op == CXBinaryOperator_Add && pointer_sum(a, s, n) &&
		    push(R, fe_child(a, s, fe_child(a, s, 0) == n), *unit))
			return s;
		break;
	case CXCursor_ArraySubscriptExpr: {
		if (x->first != n || !push(R, fe_child(a, s, 1), *unit))
			break;
		int p = a->n[s].parent;
		while (p >= 0 && a->n[p].kind == CXCursor_ParenExpr)
			p = a->n[p].parent;
		if (p >= 0 && a->n[p].kind == CXCursor_UnaryOperator &&
		    a->n[p].op == CXUnaryOperator_AddrOf)
			return p; /* `&p[i]`: a pointer again */
		access(R, s, *unit);
		return -1;
	}
	case CXCursor_UnaryOperator:
		if (x->op != CXUnaryOperator_Deref)
			break;
		access(R, s, *unit);
		return -1;
	case CXCursor_MemberRefExpr:
		if (x->first != n)
			break;
		access(R, s, *unit); /* `p->field` */
		return -1;
	case CXCursor_CallExpr:
		/* handed as it is to a function declared outside the file,
		 * not a member (`__ldg(p + i)`, `atomicAdd(&p[i], v)`): one
		 * element */
		if (x->first == n || x->ref >= 0 ||
		    a->n[x->first].kind == CXCursor_MemberRefExpr)
			break;
		access(R, s, *unit);
		return -1;
	case CXCursor_VarDecl:
		if (fe_var_init(a, s) == n) {
			alias(R, s, *elem, *unit);
			return -1;
		}
		break;
	default: break;
	}
	R->fail = true;
	return -1;
}

/* Follows one use of a pointer into the buffer to where it ends. */
static void walk(reach *R, int n, CXType elem, int64_t unit)
{
	int steps = R->nsteps;
	while (n >= 0 && !R->fail)
		n = up(R, n, &elem, &unit);
	R->nsteps = steps;
}

/* The kept ends, the largest of them: atoms in the order of their
 * sources (the grid before the arguments, as the launch writes them). */
static void print_kept(reach *R, kt_str *out)
{
	int order[PL_ATOMS], map[PL_ATOMS];
	pl_atoms sorted = {R->atoms.n, {0}};
	for (int i = 0; i < R->atoms.n; i++) {
		int k = i;
		for (; k > 0 && R->rank[order[k - 1]] > R->rank[i]; k--)
			order[k] = order[k - 1];
		order[k] = i;
	}
	for (int k = 0; k < R->atoms.n; k++) {
		map[order[k]] = k;
		sorted.text[k] = R->atoms.text[order[k]];
	}
	if (R->nkept > 1)
		kt_str_adds(out, "max(");
	for (int k = 0; k < R->nkept; k++) {
		pl_poly_rename(&R->kept[k], map);
		if (k)
			kt_str_adds(out, ", ");
		pl_poly_print(&R->kept[k], &sorted, out);
	}
	if (R->nkept > 1)
		kt_str_addc(out, ')');
}

bool pl_body_len(planner *P, const fe_kern *K, const fe_launch *L, int parm,
                 int64_t elem, kt_str *out, pl_names *problems)
{
	const fe_ast *a = P->a;
	reach R = {.P = P,
	           .K = K,
	           .L = L,
	           .problems = problems,
	           .elem = elem,
	           .at = -1};
	CXType t = clang_getCanonicalType(type_of(a, parm));
	CXType e = clang_getUnqualifiedType(
	    clang_getCanonicalType(clang_getPointeeType(t)));
	if (t.kind != CXType_Pointer || pl_writes(a, K->body, parm, -1))
		return false;
	for (int i = 0; i < PL_ATOMS; i++)
		R.num[i] = -1;
	host_checks(&R);
	for (size_t i = 0; i < a->len && !R.fail; i++)
		if (a->n[i].kind == CXCursor_DeclRefExpr &&
		    a->n[i].ref == parm) {
			if (!pl_inside(a, (int)i, K->body))
				R.fail = true;
			else
				walk(&R, (int)i, e, 1);
		}
	bool ok = !R.fail && R.naccess > 0 && R.nkept > 0;
	if (ok)
		print_kept(&R, out);
	pl_atoms_release(&R.atoms);
	return ok;
}
