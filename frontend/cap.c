/*
 * cap.c - block sizes computed at run time from a clamp: `min(d / 8,
 * 1024)`, `d / 8 < 1024 ? d / 8 : 1024`, maybe rounded up to whole warps
 * (`(threads + 31) / 32 * 32`) and maybe through local variables. The cap
 * (1024) is the tuning knob when the kernel serves any block size.
 *
 * Design choice: a kernel launched with a block size that varies with the
 * problem must already work for every block size up to the cap, as long as
 * it reaches its elements only through blockDim.x-strided loops; so the
 * safety check is a whitelist of the contexts threadIdx.x may appear in
 * (such a loop's start, a lane or warp index, a comparison with 0 or 32),
 * and any literal equal to the cap in the kernel vetoes it. A cap above the
 * original needs more: no static shared array smaller than 32 elements (a
 * warp-count array must hold 32 warps) and no __launch_bounds__.
 */
#include "frontend/find.h"

#include <string.h>

/* ------------------------------------------------------------- the clamp */

/* A constant operand: one literal (maybe through a variable), its value. */
static bool constant(finder *F, int n, fe_leaves *lv)
{
	int64_t v;
	bool prod;
	size_t had = lv->len;
	if (!fe_eval(F, n, &v, lv, &prod) || lv->len != had + 1) {
		lv->len = had;
		return false;
	}
	return true;
}

/* Nodes written alike (`d / 8` twice). */
static bool same_text(const fe_ast *a, int p, int q)
{
	size_t lp, lq;
	const char *tp = fe_text(a, p, &lp), *tq = fe_text(a, q, &lq);
	return tp && tq && lp == lq && !memcmp(tp, tq, lp);
}

/* `A < C ? A : C` and its mirrors, or `min(A, C)`: the cap leaves (C's
 * literals) are appended; false when n is no such clamp. */
static bool clamp(finder *F, int n, fe_leaves *lv)
{
	fe_ast *a = F->a;
	const fe_node *x = &a->n[n];
	size_t had = lv->len;
	if (x->kind == CXCursor_CallExpr && fe_nwritten(a, n) == 3 &&
	    (!strcmp(x->name, "min") || !strcmp(x->name, "umin"))) {
		int p = fe_child(a, n, 1), q = fe_child(a, n, 2);
		bool ok = constant(F, p, lv) != constant(F, q, lv);
		if (!ok)
			lv->len = had;
		return ok;
	}
	if (x->kind != CXCursor_ConditionalOperator)
		return false;
	int cond = fe_strip(a, fe_child(a, n, 0));
	if (cond < 0 || a->n[cond].kind != CXCursor_BinaryOperator)
		return false;
	int op = a->n[cond].op;
	bool lt = op == CXBinaryOperator_LT || op == CXBinaryOperator_LE;
	if (!lt && op != CXBinaryOperator_GT && op != CXBinaryOperator_GE)
		return false;
	bool cl = constant(F, fe_child(a, cond, 0), lv);
	bool cr = constant(F, fe_child(a, cond, 1), lv);
	bool ct = constant(F, fe_child(a, n, 1), lv);
	bool ce = constant(F, fe_child(a, n, 2), lv);
	/* one side of each is the constant, the other the same expression;
	 * the branch taken when the left operand is the smaller is the
	 * then-branch for < */
	bool ok = cl != cr && ct != ce && ct == (lt ? cl : cr) &&
	          same_text(a, fe_child(a, cond, cl ? 1 : 0),
	                    fe_child(a, n, ct ? 2 : 1));
	for (size_t i = had + 1; ok && i < lv->len; i++)
		ok = lv->items[i].value == lv->items[had].value;
	if (!ok)
		lv->len = had;
	return ok;
}

/* Finds the one clamp of a block expression, through variables, casts,
 * parentheses and arithmetic with constants. */
static int find_clamp(finder *F, int n, fe_leaves *lv, int depth)
{
	fe_ast *a = F->a;
	n = fe_strip(a, n);
	if (n < 0 || depth > 16)
		return 0;
	const fe_node *x = &a->n[n];
	if (clamp(F, n, lv))
		return 1;
	if (x->kind == CXCursor_DeclRefExpr && x->ref >= 0 &&
	    a->n[x->ref].kind == CXCursor_VarDecl) {
		int def = fe_def_before(a, x->ref, x->b);
		return def >= 0 ? find_clamp(F, def, lv, depth + 1) : -1;
	}
	if (x->kind == CXCursor_ParenExpr)
		return find_clamp(F, x->first, lv, depth + 1);
	if (x->kind != CXCursor_BinaryOperator ||
	    (x->op != CXBinaryOperator_Add && x->op != CXBinaryOperator_Sub &&
	     x->op != CXBinaryOperator_Mul && x->op != CXBinaryOperator_Div))
		return x->kind == CXCursor_IntegerLiteral ? 0 : -1;
	int l = find_clamp(F, fe_child(a, n, 0), lv, depth + 1);
	int r = find_clamp(F, fe_child(a, n, 1), lv, depth + 1);
	return l < 0 || r < 0 ? -1 : l + r;
}

/* n without parentheses and casts, through a variable's definition. */
static int through(finder *F, int n)
{
	fe_ast *a = F->a;
	for (int depth = 0; depth < 16; depth++) {
		n = fe_strip(a, n);
		if (n >= 0 && a->n[n].kind == CXCursor_ParenExpr)
			n = a->n[n].first;
		else if (n >= 0 && a->n[n].kind == CXCursor_DeclRefExpr &&
		         a->n[n].ref >= 0 &&
		         a->n[a->n[n].ref].kind == CXCursor_VarDecl)
			n = fe_def_before(a, a->n[n].ref, a->n[n].b);
		else
			return n;
	}
	return -1;
}

static bool is_op(const fe_ast *a, int n, int op, int64_t rhs)
{
	int r = n >= 0 ? fe_strip(a, fe_child(a, n, 1)) : -1;
	return n >= 0 && a->n[n].kind == CXCursor_BinaryOperator &&
	       a->n[n].op == op && r >= 0 && a->n[r].is_int &&
	       a->n[r].kind == CXCursor_IntegerLiteral && a->n[r].ival == rhs;
}

/* The clamp alone or rounded up to whole warps, `(x + 31) / 32 * 32`: the
 * block size is at most the cap (a multiple of 32). */
static bool bounded(finder *F, int n)
{
	fe_ast *a = F->a;
	n = through(F, n);
	fe_leaves lv = {0};
	bool alone = n >= 0 && clamp(F, n, &lv);
	kt_vec_release(&lv);
	if (alone)
		return true;
	if (!is_op(a, n, CXBinaryOperator_Mul, 32))
		return false;
	int d = through(F, fe_child(a, n, 0));
	if (!is_op(a, d, CXBinaryOperator_Div, 32))
		return false;
	int s = through(F, fe_child(a, d, 0));
	if (!is_op(a, s, CXBinaryOperator_Add, 31))
		return false;
	int c = through(F, fe_child(a, s, 0));
	alone = c >= 0 && clamp(F, c, &lv);
	kt_vec_release(&lv);
	return alone;
}

bool fe_block_cap(finder *F, int n, fe_leaves *caps, bool *bounded_by_cap)
{
	bool ok = find_clamp(F, n, caps, 0) == 1;
	if (!ok)
		caps->len = 0;
	*bounded_by_cap = ok && bounded(F, n);
	return ok;
}

/* ------------------------------------------- a kernel for any block size */

/* `for (T i = threadIdx.x; ...; i += blockDim.x)`: var's loop strides by
 * the block. */
static bool block_strided_loop(const fe_ast *a, int var)
{
	int ds = a->n[var].parent;
	int fs = ds >= 0 ? a->n[ds].parent : -1;
	if (fs < 0 || a->n[fs].kind != CXCursor_ForStmt ||
	    fe_child(a, fs, 0) != ds || fe_nchildren(a, fs) != 4)
		return false;
	int inc = fe_child(a, fs, 2);
	bool compound;
	int lhs = fe_assign_lhs(a, inc, &compound);
	return compound && a->n[inc].op == CXBinaryOperator_AddAssign &&
	       lhs >= 0 && a->n[lhs].kind == CXCursor_DeclRefExpr &&
	       a->n[lhs].ref == var &&
	       fe_builtin(a, fe_child(a, inc, 1), "blockDim") == 'x';
}

/* The literal operand of binary node p beside child t, or -1. */
static int64_t other_literal(const fe_ast *a, int p, int t)
{
	int o = fe_child(a, p, 0) == t ? fe_child(a, p, 1) : fe_child(a, p, 0);
	o = fe_strip(a, o);
	return o >= 0 && a->n[o].kind == CXCursor_IntegerLiteral &&
	               a->n[o].is_int
	           ? a->n[o].ival
	           : -1;
}

/* Node n is `blockIdx.x * blockDim.x` (either way round). */
static bool block_offset(const fe_ast *a, int n)
{
	n = fe_strip(a, n);
	if (n < 0 || a->n[n].kind != CXCursor_BinaryOperator ||
	    a->n[n].op != CXBinaryOperator_Mul)
		return false;
	int l = fe_child(a, n, 0), r = fe_child(a, n, 1);
	return (fe_builtin(a, l, "blockIdx") == 'x' &&
	        fe_builtin(a, r, "blockDim") == 'x') ||
	       (fe_builtin(a, l, "blockDim") == 'x' &&
	        fe_builtin(a, r, "blockIdx") == 'x');
}

/* threadIdx.x at node t is added to `blockIdx.x * blockDim.x`: the
 * global index, which serves any block size whose grid covers the work. */
static bool global_index(const fe_ast *a, int t)
{
	int p = fe_up(a, t);
	if (p < 0 || a->n[p].kind != CXCursor_BinaryOperator ||
	    a->n[p].op != CXBinaryOperator_Add)
		return false;
	bool left = fe_strip(a, fe_child(a, p, 0)) == t;
	return block_offset(a, fe_child(a, p, left ? 1 : 0));
}

/* threadIdx.x at node t stands where any block size serves. */
static bool agnostic_use(const fe_ast *a, int t)
{
	int p = fe_up(a, t);
	if (p < 0)
		return false;
	if (a->n[p].kind == CXCursor_VarDecl)
		return block_strided_loop(a, p);
	if (a->n[p].kind != CXCursor_BinaryOperator)
		return false;
	bool left = fe_strip(a, fe_child(a, p, 0)) == t;
	int64_t v = other_literal(a, p, t);
	switch (a->n[p].op) {
	case CXBinaryOperator_Rem:                         /* lane */
	case CXBinaryOperator_Div: return left && v == 32; /* warp */
	case CXBinaryOperator_And: return v == 31;
	case CXBinaryOperator_Shr: return left && v == 5;
	case CXBinaryOperator_EQ: return v == 0;
	case CXBinaryOperator_LT: return left && v == 32;
	default: return false;
	}
}

static bool is_shared_var(const fe_ast *a, int var)
{
	for (int c = a->n[var].first; c >= 0; c = a->n[c].next)
		if (a->n[c].kind == CXCursor_CUDASharedAttr)
			return true;
	return false;
}

/* A __device__ function that is not a kernel. */
static bool device_helper(const fe_ast *a, int fn)
{
	bool device = false;
	for (int c = a->n[fn].first; c >= 0; c = a->n[c].next) {
		if (a->n[c].kind == CXCursor_CUDAGlobalAttr)
			return false;
		device |= a->n[c].kind == CXCursor_CUDADeviceAttr;
	}
	return device;
}

static bool has_launch_bounds(finder *F, const fe_kern *K)
{
	kt_tu *tu = F->tu;
	CXToken *t = NULL;
	unsigned nt = 0;
	bool found = false;
	clang_tokenize(
	    tu->tu,
	    kt_fe_source_range(tu, F->a->n[K->node].b, F->a->n[K->body].b), &t,
	    &nt);
	for (unsigned i = 0; i < nt && !found; i++) {
		CXString s = clang_getTokenSpelling(tu->tu, t[i]);
		found = !strcmp(clang_getCString(s), "__launch_bounds__");
		clang_disposeString(s);
	}
	clang_disposeTokens(tu->tu, t, nt);
	return found;
}

/* What in [b, e) stops a block size other than the original's, or NULL;
 * *small: a static shared array under 32 elements. */
static const char *blocker(finder *F, uint32_t b, uint32_t e, int64_t cap,
                           bool kernel, bool *small, bool *indexed)
{
	fe_ast *a = F->a;
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		if (!x->in_main || x->b < b || x->e > e)
			continue;
		if (kernel && x->kind == CXCursor_IntegerLiteral && x->is_int &&
		    x->ival == cap)
			return fe_say(F, "the kernel's literal %lld",
			              (long long)cap);
		char d = x->kind == CXCursor_MemberRefExpr
		             ? fe_builtin(a, (int)i, "threadIdx")
		             : 0;
		if (d == 'x' && kernel && global_index(a, (int)i)) {
			*indexed = true;
			continue;
		}
		if (d && (d != 'x' || !kernel || !agnostic_use(a, (int)i)))
			return "a use of threadIdx that assumes a block size";
		if (x->kind == CXCursor_VarDecl && is_shared_var(a, (int)i)) {
			CXType t = clang_getCursorType(x->cur);
			*small |= t.kind == CXType_ConstantArray &&
			          clang_getNumElements(t) < 32;
		}
	}
	return NULL;
}

bool fe_indexed_cover(finder *F, int k)
{
	const fe_ast *a = F->a;
	const fe_node *body = &a->n[F->f->kernels.items[k].body];
	bool indexed = false;
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		if (!x->in_main || x->b < body->b || x->e > body->e ||
		    x->kind != CXCursor_MemberRefExpr)
			continue;
		if (fe_builtin(a, (int)i, "gridDim") == 'x')
			return false;
		indexed =
		    indexed || (fe_builtin(a, (int)i, "threadIdx") == 'x' &&
		                global_index(a, (int)i));
	}
	return indexed;
}

const char *fe_any_block_size(finder *F, int k, int64_t cap, int64_t *max,
                              bool *indexed)
{
	const fe_kern *K = &F->f->kernels.items[k];
	bool small = false;
	*indexed = false;
	const char *why = blocker(F, F->a->n[K->body].b, F->a->n[K->body].e,
	                          cap, true, &small, indexed);
	/* device helpers see threadIdx too: none of them may use it */
	for (size_t i = 0; !why && i < F->a->len; i++) {
		const fe_node *x = &F->a->n[i];
		if ((x->kind == CXCursor_FunctionDecl ||
		     x->kind == CXCursor_FunctionTemplate) &&
		    x->in_main && device_helper(F->a, (int)i))
			why =
			    blocker(F, x->b, x->e, cap, false, &small, indexed);
	}
	*max = small || has_launch_bounds(F, K) ? cap : 1024;
	return why;
}
