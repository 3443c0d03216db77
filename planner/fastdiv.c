/*
 * fastdiv.c - the fast_div refactor: an integer division or remainder in
 * a loop of the kernel, by a divisor the kernel never changes, becomes a
 * multiply-high by a magic number computed once (rewriter/fastdiv.h).
 *
 * Offered only where it is bit-exact and pays: the operation is of int or
 * unsigned int (32 bits; the helper is exact for every such dividend and
 * falls back to C's operator for a negative int or a divisor below 1),
 * the divisor is the same for the whole run but not a compile-time
 * constant (nvcc already multiplies by a constant's reciprocal), and the
 * division runs in a loop, with a dividend that changes there (else the
 * compiler divides once, before the loop). Floating
 * point is not this refactor: x / c is x * (1 / c) bit for bit only for
 * c a power of two. The one design choice: the magic numbers are
 * computed once, before the kernel's outermost statement that holds the
 * first division, so every divisor that names a local must name one of
 * the kernel's outer level, declared before that statement.
 */
#include "planner/planner.h"

#include <string.h>

/* How an expression depends on the run. */
enum {
	INV_CONST, /* literals, template parameters, enumerators, sizeof */
	INV_RUN,   /* also the kernel's scalar parameters, blockDim, gridDim,
	              locals of the kernel's outer level made of those */
	INV_NO     /* a thread or block index, a memory read, a call, a
	              variable that changes */
};

typedef struct inv_ctx {
	const fe_ast *a;
	int body;
	uint32_t decl_end; /* the end of the last outer local it names */
} inv_ctx;

static int worst(int x, int y)
{
	return x > y ? x : y;
}

static bool int_type(CXType t)
{
	t = clang_getCanonicalType(t);
	return t.kind >= CXType_Char_U && t.kind <= CXType_Int128 &&
	       t.kind != CXType_Char16 && t.kind != CXType_Char32 &&
	       t.kind != CXType_WChar && t.kind != CXType_Bool;
}

static int invariance(inv_ctx *c, int n, int depth);

/* A local of the kernel: of its outer level, never written, initialised
 * from what the run does not change. */
static int local_invariance(inv_ctx *c, int v, int depth)
{
	const fe_ast *a = c->a;
	int ds = a->n[v].parent;
	int init = fe_var_init(a, v);
	if (ds < 0 || a->n[ds].kind != CXCursor_DeclStmt ||
	    a->n[ds].parent != c->body || init < 0 ||
	    !int_type(clang_getCursorType(a->n[v].cur)) ||
	    pl_has_shared(a, v) || pl_writes(a, c->body, v, -1) ||
	    clang_Cursor_getStorageClass(a->n[v].cur) == CX_SC_Static)
		return INV_NO;
	int r = invariance(c, init, depth + 1);
	if (r == INV_RUN && a->n[ds].e > c->decl_end)
		c->decl_end = a->n[ds].e;
	return r;
}

static int ref_invariance(inv_ctx *c, int n, int depth)
{
	const fe_ast *a = c->a;
	int d = a->n[n].ref;
	if (d < 0)
		return INV_NO;
	switch (a->n[d].kind) {
	case CXCursor_NonTypeTemplateParameter:
	case CXCursor_EnumConstantDecl: return INV_CONST;
	case CXCursor_ParmDecl:
		return int_type(clang_getCursorType(a->n[d].cur)) &&
		               !pl_writes(a, c->body, d, -1)
		           ? INV_RUN
		           : INV_NO;
	case CXCursor_VarDecl:
		return pl_inside(a, d, c->body) ? local_invariance(c, d, depth)
		                                : INV_NO;
	default: return INV_NO;
	}
}

static int children_invariance(inv_ctx *c, int n, int depth)
{
	int r = INV_CONST;
	for (int k = c->a->n[n].first; k >= 0 && r != INV_NO;
	     k = c->a->n[k].next)
		r = worst(r, invariance(c, k, depth + 1));
	return r;
}

static int invariance(inv_ctx *c, int n, int depth)
{
	const fe_ast *a = c->a;
	if (n < 0 || depth > 24)
		return INV_NO;
	const fe_node *x = &a->n[n];
	switch (x->kind) {
	case CXCursor_IntegerLiteral:
	case CXCursor_CharacterLiteral:
	case CXCursor_UnaryExpr: /* sizeof, alignof */ return INV_CONST;
	case CXCursor_DeclRefExpr: return ref_invariance(c, n, depth);
	case CXCursor_MemberRefExpr:
		return fe_builtin(a, n, "blockDim") ||
		               fe_builtin(a, n, "gridDim")
		           ? INV_RUN
		           : INV_NO;
	case CXCursor_BinaryOperator:
		if (x->op == CXBinaryOperator_Comma ||
		    x->op == CXBinaryOperator_Assign)
			return INV_NO;
		return children_invariance(c, n, depth);
	case CXCursor_UnaryOperator:
		if (x->op != CXUnaryOperator_Plus &&
		    x->op != CXUnaryOperator_Minus &&
		    x->op != CXUnaryOperator_Not &&
		    x->op != CXUnaryOperator_LNot)
			return INV_NO;
		return children_invariance(c, n, depth);
	case CXCursor_ParenExpr:
	case CXCursor_UnexposedExpr:
	case CXCursor_CStyleCastExpr:
	case CXCursor_ConditionalOperator:
		return children_invariance(c, n, depth);
	default: return INV_NO;
	}
}

/* The innermost loop of the kernel's body that runs n once per iteration
 * (its body, or a `for`'s test or step; not a `for`'s first part), or
 * -1. */
static int loop_of(const fe_ast *a, int body, int n)
{
	for (int up = a->n[n].parent; up >= 0 && up != body;
	     n = up, up = a->n[up].parent) {
		enum CXCursorKind k = a->n[up].kind;
		if (k == CXCursor_WhileStmt || k == CXCursor_DoStmt)
			return up;
		if (k == CXCursor_ForStmt &&
		    (fe_nchildren(a, up) < 4 || fe_child(a, up, 0) != n))
			return up;
	}
	return -1;
}

/* n's value changes from one iteration of loop to the next: it names a
 * variable the loop writes, or reads memory or calls (which may); else
 * the compiler computes it, and the division, once before the loop. */
static bool varies_in(const fe_ast *a, int loop, int n, int depth)
{
	if (n < 0 || depth > 24)
		return true;
	enum CXCursorKind k = a->n[n].kind;
	if (k == CXCursor_DeclRefExpr && a->n[n].ref >= 0 &&
	    pl_writes(a, loop, a->n[n].ref, -1))
		return true;
	if (k == CXCursor_ArraySubscriptExpr || k == CXCursor_CallExpr ||
	    (k == CXCursor_UnaryOperator &&
	     a->n[n].op == CXUnaryOperator_Deref))
		return true;
	for (int c = a->n[n].first; c >= 0; c = a->n[c].next)
		if (varies_in(a, loop, c, depth + 1))
			return true;
	return false;
}

/* The statement of the kernel's outer level that holds n, or -1. */
static int outer_stmt(const fe_ast *a, int body, int n)
{
	while (n >= 0 && a->n[n].parent != body)
		n = a->n[n].parent;
	return n;
}

static void note(planner *P, int n, const char *fmt, const char *what)
{
	kt_range r = pl_range(P, n);
	kt_diags_add(P->d, KT_DIAG_NOTE, P->c->path, P->c->text, r.begin.line,
	             r.begin.col, (int)(r.end.offset - r.begin.offset), fmt,
	             what);
}

static bool wide(CXType t)
{
	enum CXTypeKind k = clang_getCanonicalType(t).kind;
	return k == CXType_Long || k == CXType_ULong || k == CXType_LongLong ||
	       k == CXType_ULongLong || k == CXType_Int128 ||
	       k == CXType_UInt128;
}

/* A division the refactor rewrites; the end of the last outer local its
 * divisor names in *decl_end. */
static bool offered(planner *P, int body, int n, uint32_t *decl_end)
{
	const fe_ast *a = P->a;
	const fe_node *x = &a->n[n];
	if (x->kind != CXCursor_BinaryOperator ||
	    (x->op != CXBinaryOperator_Div && x->op != CXBinaryOperator_Rem) ||
	    fe_nchildren(a, n) != 2 || !x->in_main)
		return false;
	int loop = loop_of(a, body, n);
	if (loop < 0 || !varies_in(a, loop, fe_child(a, n, 0), 0))
		return false;
	CXType t = clang_getCursorType(x->cur);
	enum CXTypeKind k = clang_getCanonicalType(t).kind;
	if (k != CXType_Int && k != CXType_UInt && !wide(t))
		return false; /* floating point: not exact, not offered */
	inv_ctx c = {a, body, 0};
	if (invariance(&c, fe_child(a, n, 1), 0) != INV_RUN)
		return false;
	if (wide(t)) {
		note(P, n,
		     "'%s' is a 64-bit division: fast_div rewrites 32-bit "
		     "ones only",
		     pl_src(P, n));
		return false;
	}
	if (!x->spelled) {
		note(P, n,
		     "'%s' is in a macro's expansion: fast_div cannot rewrite "
		     "it there",
		     pl_src(P, n));
		return false;
	}
	*decl_end = c.decl_end;
	return !pl_text_taken(P, x->b, x->e);
}

typedef KT_VEC(int) int_vec;

/* The divisions of kernel k the refactor rewrites, in source order,
 * those inside another left out; the latest outer local they name. */
static int collect(planner *P, int k, int_vec *v, uint32_t *decl_end)
{
	const fe_ast *a = P->a;
	int body = P->f->kernels.items[k].body;
	for (size_t i = 0; i < a->len; i++) {
		uint32_t de = 0;
		if (!pl_inside(a, (int)i, body) ||
		    (v->len && pl_inside(a, (int)i, v->items[v->len - 1])) ||
		    !offered(P, body, (int)i, &de))
			continue;
		if (kt_vec_push(v, (int)i))
			return KT_ENOMEM;
		*decl_end = de > *decl_end ? de : *decl_end;
	}
	return KT_OK;
}

static int fast_div(planner *P, int k, const int_vec *v, uint32_t decl_end)
{
	const fe_ast *a = P->a;
	const fe_kern *K = &P->f->kernels.items[k];
	size_t first = 0;
	int anchor = -1;
	/* the magic numbers go before the first outer statement holding a
	 * division that comes after every local the divisors name */
	for (; first < v->len && anchor < 0; first++) {
		int s = outer_stmt(a, K->body, v->items[first]);
		if (s >= 0 && a->n[s].b >= decl_end)
			anchor = s;
	}
	if (anchor < 0)
		return KT_OK;
	first--;
	const char *t = P->c->text;
	for (uint32_t p = a->n[anchor].b; p > 0 && t[p - 1] != '\n'; p--)
		if (t[p - 1] != ' ' && t[p - 1] != '\t')
			return KT_OK; /* the statement does not start its line
			               */
	static const int64_t vals[] = {0, 1};
	int p = pl_add_param(P, pl_unique_name(P, "FAST_DIV", K->name),
	                     KT_ROLE_OTHER, pl_dup(P, K->name), 0, vals, 2);
	size_t n = v->len - first;
	kt_plan_edit *e = kt_plan_alloc(P->plan, n * sizeof(*e));
	if (p < 0 || P->oom || !e)
		return KT_ENOMEM;
	const char *name = P->params.items[p].p.name;
	for (size_t i = 0; i < n; i++)
		e[i] = (kt_plan_edit){pl_range(P, v->items[first + i]),
		                      pl_src(P, v->items[first + i]), name};
	P->params.items[p].p.evidence = pl_say(
	    P,
	    "'%s' divides by a value that its run never changes, in a loop "
	    "(%s): a multiply-high by a magic number computed once is "
	    "exact for 32-bit integers",
	    K->name, e[0].text);
	kt_plan_refactor r = {
	    .kind = KT_REFACTOR_FAST_DIV,
	    .kernel = pl_dup(P, K->name),
	    .param = name,
	    .region = pl_range(P, anchor),
	    .edits = e,
	    .nedits = n,
	    .launch = -1,
	    .note = "FAST_DIV = 1: each division by an invariant divisor is "
	            "a multiply-high by a magic number computed once "
	            "(Granlund-Montgomery), C's operator for a negative int "
	            "or a divisor below 1: the same bits"};
	pl_add_refactor(P, r);
	return P->oom ? KT_ENOMEM : KT_OK;
}

int pl_fastdiv_refactors(planner *P, int k)
{
	int_vec v = {0};
	uint32_t decl_end = 0;
	int rc = collect(P, k, &v, &decl_end);
	if (!rc && v.len)
		rc = fast_div(P, k, &v, decl_end);
	kt_vec_release(&v);
	return rc;
}
