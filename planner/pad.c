/*
 * pad.c - pad_shared: a shared tile `T tile[A][B]` whose first index
 * follows threadIdx.x is read down a column, each thread B elements from
 * its neighbour: with B a multiple of the banks' count every thread of a
 * warp hits the same bank. PAD elements at the end of each row (`[B +
 * PAD]`) move the rows apart.
 *
 * The one precondition that matters: nothing may depend on B but the
 * subscripts. Every use of the tile must be a full subscript `tile[i][j]`
 * that is not an address (no `&tile[i][j]`, no `tile[i]` decaying to a
 * pointer, no sizeof), so only the distance between rows changes, which
 * the subscripts do not see. The parameter's default is the padding the
 * source writes (`B + P`: P becomes the parameter; `B`: 0, the rewriter
 * appends ` + PAD` to the extent, the refactor's region), so the default
 * is the original.
 */
#include "planner/planner.h"

#include <string.h>

/* The array's extents as written: libclang shows them as the
 * declaration's expression children, the inner one first (a class type's
 * construction, a call, comes after them); false unless exactly two. */
static bool extents(const fe_ast *a, int var, int *outer, int *inner)
{
	int e[3], n = 0;
	for (int c = a->n[var].first; c >= 0; c = a->n[c].next) {
		enum CXCursorKind k = a->n[c].kind;
		if (clang_isExpression(k) && k != CXCursor_CallExpr && n < 3)
			e[n++] = c;
	}
	if (n != 2)
		return false;
	*inner = e[0], *outer = e[1];
	return true;
}

static bool shared_2d(const fe_ast *a, int var)
{
	bool shared = false;
	for (int c = a->n[var].first; c >= 0; c = a->n[c].next)
		shared |= a->n[c].kind == CXCursor_CUDASharedAttr;
	CXType t = clang_getCursorType(a->n[var].cur);
	if (!shared || t.kind != CXType_ConstantArray)
		return false;
	CXType in = clang_getArrayElementType(t);
	return in.kind == CXType_ConstantArray &&
	       clang_getArrayElementType(in).kind != CXType_ConstantArray;
}

/* Some use of threadIdx.x lies in n. */
static bool reads_tid_x(const fe_ast *a, int n)
{
	for (size_t i = 0; i < a->len; i++)
		if (a->n[i].kind == CXCursor_DeclRefExpr &&
		    pl_inside(a, (int)i, n) &&
		    fe_mentions(a, (int)i, "threadIdx") &&
		    fe_builtin(a, fe_up(a, (int)i), "threadIdx") == 'x')
			return true;
	return false;
}

/* Every use of var is a full subscript `var[i][j]`, not an address; true
 * in *column when some first index reads threadIdx.x. */
static bool full_subscripts(const fe_ast *a, int body, int var, bool *column)
{
	*column = false;
	for (size_t i = 0; i < a->len; i++) {
		if (a->n[i].kind != CXCursor_DeclRefExpr ||
		    a->n[i].ref != var || !pl_inside(a, (int)i, body))
			continue;
		int s1 = fe_up(a, (int)i), s2 = s1 >= 0 ? fe_up(a, s1) : -1;
		if (s2 < 0 || a->n[s1].kind != CXCursor_ArraySubscriptExpr ||
		    a->n[s2].kind != CXCursor_ArraySubscriptExpr ||
		    fe_strip(a, fe_child(a, s1, 0)) != (int)i ||
		    fe_strip(a, fe_child(a, s2, 0)) != s1)
			return false;
		int up = fe_up(a, s2);
		if (up >= 0 && a->n[up].kind == CXCursor_UnaryOperator &&
		    a->n[up].op == CXUnaryOperator_AddrOf)
			return false;
		*column |= reads_tid_x(a, fe_child(a, s1, 1));
	}
	return true;
}

/* No parameter's use lies in [b, e). */
static bool no_use_in(const planner *P, uint32_t b, uint32_t e)
{
	for (size_t i = 0; i < P->params.len; i++) {
		const pl_param *q = &P->params.items[i];
		for (size_t u = 0; u < q->uses.len; u++)
			if (q->uses.items[u].range.begin.offset < e &&
			    q->uses.items[u].range.end.offset > b)
				return false;
	}
	return true;
}

static int pad_one(planner *P, int k, int var)
{
	const fe_ast *a = P->a;
	const fe_kern *K = &P->f->kernels.items[k];
	int outer, inner;
	bool column;
	if (!shared_2d(a, var) || !extents(a, var, &outer, &inner) ||
	    !full_subscripts(a, K->body, var, &column) || !column)
		return KT_OK;
	/* `B + P`: P becomes the parameter; `B`: the rewriter writes `B +
	 * PAD` (B may be another parameter's use) */
	int x = fe_strip(a, inner), lit = -1;
	int64_t def = 0;
	if (x >= 0 && a->n[x].kind == CXCursor_BinaryOperator &&
	    a->n[x].op == CXBinaryOperator_Add) {
		lit = fe_strip(a, fe_child(a, x, 1));
		def = lit >= 0 && a->n[lit].is_int ? a->n[lit].ival : -1;
		if (lit < 0 || def < 0 || def > 64 || !a->n[lit].spelled ||
		    !a->n[lit].in_main ||
		    !no_use_in(P, a->n[lit].b, a->n[lit].e))
			return KT_OK;
	}
	if (x < 0 || !a->n[x].spelled || !a->n[x].in_main)
		return KT_OK;
	int64_t v[3] = {0, 1, def};
	size_t nv = def > 1 ? 3 : 2;
	const char *name = pl_unique_name(P, "PAD", K->name);
	int p = pl_add_param(P, name, KT_ROLE_OTHER, pl_dup(P, K->name), def, v,
	                     nv);
	kt_plan_edit *e = lit >= 0 ? kt_plan_alloc(P->plan, sizeof(*e)) : NULL;
	if (p < 0 || (lit >= 0 && !e))
		return KT_ENOMEM;
	name = P->params.items[p].p.name;
	if (e) {
		e->range = pl_range(P, lit);
		e->text = pl_src(P, lit);
		e->with = name;
	}
	P->params.items[p].p.evidence =
	    pl_say(P,
	           "'%s' reads the shared tile '%s' down its columns (first "
	           "index from threadIdx.x); only its subscripts use it",
	           K->name, a->n[var].name);
	kt_plan_refactor r = {
	    .kind = KT_REFACTOR_PAD_SHARED,
	    .kernel = pl_dup(P, K->name),
	    .param = name,
	    .region = pl_range(P, x),
	    .edits = e,
	    .nedits = e ? 1 : 0,
	    .launch = -1,
	    .note = "PAD elements after each row of the tile: a column's "
	            "elements fall in other banks"};
	pl_add_refactor(P, r);
	return P->oom ? KT_ENOMEM : KT_OK;
}

int pl_pad_refactors(planner *P, int k)
{
	const fe_ast *a = P->a;
	int body = P->f->kernels.items[k].body, rc = KT_OK;
	for (size_t i = 0; i < a->len && !rc; i++)
		if (a->n[i].kind == CXCursor_VarDecl &&
		    pl_inside(a, (int)i, body))
			rc = pad_one(P, k, (int)i);
	return rc;
}
