/*
 * reduce.c - the refactors of kernels that reduce over a block: warp_reduce
 * (a tree over a shared array becomes warp shuffles), warp_per_row (a
 * row-per-block kernel runs one row per warp, several rows per block) and
 * warp_scan (a prefix sum that thread 0 runs alone becomes a scan by the
 * first warp, 32 elements a step).
 *
 * All three write the new code here, as text (the refactor's `body`), from
 * the AST: the rewriter puts it beside the original under `#if`, so the
 * default is the kernel as written. warp_scan is offered for integer sums
 * only: their order does not change their bits, so its outputs are the
 * original's exactly. The one design choice: warp_per_row
 * is not a rewrite of the reduction but of the block. Each warp runs the
 * body as the original block of 32 threads would (threadIdx.x its lane,
 * blockDim.x 32, __syncthreads() a __syncwarp(), each shared variable one
 * copy per warp), so the kernel computes what it computes at a block of 32
 * threads, which its block-size parameter's domain holds; the block's
 * reduction then is the reduction of one warp.
 */
#include "planner/planner.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Something assigns var itself (`var = `, `var += `, ++/--). */
static bool rewritten(const fe_ast *a, int var)
{
	for (size_t i = 0; i < a->len; i++) {
		bool compound;
		int lhs = fe_assign_lhs(a, (int)i, &compound);
		if (a->n[i].kind == CXCursor_UnaryOperator &&
		    a->n[i].op >= CXUnaryOperator_PostInc &&
		    a->n[i].op <= CXUnaryOperator_PreDec)
			lhs = fe_strip(a, a->n[i].first);
		lhs = lhs >= 0 ? fe_strip(a, lhs) : -1;
		if (lhs >= 0 && a->n[lhs].kind == CXCursor_DeclRefExpr &&
		    a->n[lhs].ref == var)
			return true;
	}
	return false;
}

/* n is `threadIdx.x`, or a local initialised from it and never written. */
static bool is_tid(const fe_ast *a, int n)
{
	n = fe_strip(a, n);
	if (n < 0)
		return false;
	if (fe_builtin(a, n, "threadIdx") == 'x')
		return true;
	int v = a->n[n].kind == CXCursor_DeclRefExpr ? a->n[n].ref : -1;
	return v >= 0 && a->n[v].kind == CXCursor_VarDecl &&
	       fe_var_init(a, v) >= 0 && !rewritten(a, v) &&
	       fe_builtin(a, fe_strip(a, fe_var_init(a, v)), "threadIdx") ==
	           'x';
}

static bool same_tid(const fe_ast *a, int x, int y)
{
	x = fe_strip(a, x), y = fe_strip(a, y);
	if (x < 0 || y < 0 || !is_tid(a, x) || !is_tid(a, y))
		return false;
	return a->n[x].kind == a->n[y].kind &&
	       (a->n[x].kind != CXCursor_DeclRefExpr ||
	        a->n[x].ref == a->n[y].ref);
}

static bool is_ref(const fe_ast *a, int n, int var)
{
	n = n >= 0 ? fe_strip(a, n) : -1;
	return n >= 0 && a->n[n].kind == CXCursor_DeclRefExpr &&
	       a->n[n].ref == var;
}

static bool is_lit(const fe_ast *a, int n, int64_t v)
{
	n = n >= 0 ? fe_strip(a, n) : -1;
	return n >= 0 && a->n[n].is_int && a->n[n].ival == v;
}

/* The shared array `sub` subscripts (its VarDecl), or -1. */
static int sub_base(const fe_ast *a, int sub)
{
	sub = sub >= 0 ? fe_strip(a, sub) : -1;
	if (sub < 0 || a->n[sub].kind != CXCursor_ArraySubscriptExpr)
		return -1;
	int b = fe_strip(a, fe_child(a, sub, 0));
	return b >= 0 && a->n[b].kind == CXCursor_DeclRefExpr ? a->n[b].ref
	                                                      : -1;
}

/* The reduction's pattern, read from the loop. */
typedef struct tree {
	int sh;         /* the shared array's VarDecl */
	int tid;        /* the slot expression `sh[tid]` */
	const char *fn; /* the combining function, NULL for `+` */
	int sub;        /* the subscript `sh[tid]` (its type is the element) */
} tree;

/* `sh[tid]` (plus = false) or `sh[tid + s]` (plus = true). */
static bool slot(const fe_ast *a, int n, tree *t, int s, bool plus)
{
	int sub = fe_strip(a, n), base = sub_base(a, sub);
	if (base < 0 || (t->sh >= 0 && base != t->sh))
		return false;
	int idx = fe_strip(a, fe_child(a, sub, 1));
	if (idx < 0)
		return false;
	if (plus) {
		if (a->n[idx].kind != CXCursor_BinaryOperator ||
		    a->n[idx].op != CXBinaryOperator_Add)
			return false;
		int l = fe_child(a, idx, 0), r = fe_child(a, idx, 1);
		if (!(same_tid(a, l, t->tid) && is_ref(a, r, s)) &&
		    !(same_tid(a, r, t->tid) && is_ref(a, l, s)))
			return false;
	} else if (t->tid < 0 ? !is_tid(a, idx) : !same_tid(a, idx, t->tid)) {
		return false;
	}
	if (!plus)
		t->tid = idx, t->sub = sub;
	t->sh = base;
	return true;
}

/* `sh[tid] += sh[tid + s]`, `sh[tid] = sh[tid] + sh[tid + s]` or
 * `sh[tid] = f(sh[tid], sh[tid + s])` with f a max or min. */
static bool combine(const fe_ast *a, int st, int s, tree *t)
{
	static const char *const fns[] = {"fmaxf", "fminf", "fmax", "fmin",
	                                  "max",   "min",   NULL};
	st = fe_strip(a, st);
	if (st < 0 || fe_nchildren(a, st) != 2)
		return false;
	int l = fe_child(a, st, 0), r = fe_strip(a, fe_child(a, st, 1));
	if (a->n[st].kind == CXCursor_CompoundAssignOperator)
		return a->n[st].op == CXBinaryOperator_AddAssign &&
		       slot(a, l, t, s, false) && slot(a, r, t, s, true);
	if (a->n[st].kind != CXCursor_BinaryOperator ||
	    a->n[st].op != CXBinaryOperator_Assign || r < 0 ||
	    !slot(a, l, t, s, false))
		return false;
	int x, y;
	if (a->n[r].kind == CXCursor_BinaryOperator &&
	    a->n[r].op == CXBinaryOperator_Add) {
		x = fe_child(a, r, 0), y = fe_child(a, r, 1);
	} else if (a->n[r].kind == CXCursor_CallExpr &&
	           fe_nwritten(a, r) == 3) {
		const char *const *f = fns;
		while (*f && strcmp(*f, a->n[r].name ? a->n[r].name : ""))
			f++;
		if (!*f)
			return false;
		t->fn = *f;
		x = fe_written(a, r, 1), y = fe_written(a, r, 2);
	} else {
		return false;
	}
	return (slot(a, x, t, s, false) && slot(a, y, t, s, true)) ||
	       (slot(a, y, t, s, false) && slot(a, x, t, s, true));
}

static bool is_call(const fe_ast *a, int n, const char *name)
{
	n = n >= 0 ? fe_strip(a, n) : -1;
	return n >= 0 && a->n[n].kind == CXCursor_CallExpr && a->n[n].name &&
	       !strcmp(a->n[n].name, name);
}

/* `for (T s = blockDim.x / 2; s > 0; s >>= 1) { if (tid < s) sh[tid] OP=
 * sh[tid + s]; __syncthreads(); }` (`>> 1`, `/= 2` as well). */
static bool tree_loop(const fe_ast *a, int fs, tree *t)
{
	if (a->n[fs].kind != CXCursor_ForStmt || fe_nchildren(a, fs) != 4)
		return false;
	int init = fe_child(a, fs, 0), cond = fe_strip(a, fe_child(a, fs, 1));
	int inc = fe_strip(a, fe_child(a, fs, 2)), body = fe_child(a, fs, 3);
	int s = init >= 0 && a->n[init].kind == CXCursor_DeclStmt &&
	                fe_nchildren(a, init) == 1
	            ? a->n[init].first
	            : -1;
	int v = s >= 0 ? fe_strip(a, fe_var_init(a, s)) : -1;
	if (v < 0 || a->n[v].kind != CXCursor_BinaryOperator ||
	    fe_builtin(a, fe_strip(a, fe_child(a, v, 0)), "blockDim") != 'x' ||
	    !((a->n[v].op == CXBinaryOperator_Div &&
	       is_lit(a, fe_child(a, v, 1), 2)) ||
	      (a->n[v].op == CXBinaryOperator_Shr &&
	       is_lit(a, fe_child(a, v, 1), 1))))
		return false;
	if (cond < 0 || a->n[cond].kind != CXCursor_BinaryOperator ||
	    a->n[cond].op != CXBinaryOperator_GT ||
	    !is_ref(a, fe_child(a, cond, 0), s) ||
	    !is_lit(a, fe_child(a, cond, 1), 0))
		return false;
	if (inc < 0 || a->n[inc].kind != CXCursor_CompoundAssignOperator ||
	    !is_ref(a, fe_child(a, inc, 0), s) ||
	    !((a->n[inc].op == CXBinaryOperator_ShrAssign &&
	       is_lit(a, fe_child(a, inc, 1), 1)) ||
	      (a->n[inc].op == CXBinaryOperator_DivAssign &&
	       is_lit(a, fe_child(a, inc, 1), 2))))
		return false;
	if (body < 0 || a->n[body].kind != CXCursor_CompoundStmt ||
	    fe_nchildren(a, body) != 2 ||
	    !is_call(a, fe_child(a, body, 1), "__syncthreads"))
		return false;
	int ifs = fe_child(a, body, 0);
	if (a->n[ifs].kind != CXCursor_IfStmt || fe_nchildren(a, ifs) != 2)
		return false;
	int c = fe_strip(a, fe_child(a, ifs, 0)), then = fe_child(a, ifs, 1);
	if (then >= 0 && a->n[then].kind == CXCursor_CompoundStmt &&
	    fe_nchildren(a, then) == 1)
		then = a->n[then].first;
	*t = (tree){-1, -1, NULL, -1};
	if (c < 0 || a->n[c].kind != CXCursor_BinaryOperator ||
	    a->n[c].op != CXBinaryOperator_LT ||
	    !is_tid(a, fe_child(a, c, 0)) || !is_ref(a, fe_child(a, c, 1), s))
		return false;
	t->tid = fe_strip(a, fe_child(a, c, 0));
	return then >= 0 && combine(a, then, s, t);
}

/* Every use of the built-in `name` in body is its `.x`. */
static bool only_x(const fe_ast *a, int body, const char *name)
{
	for (size_t i = 0; i < a->len; i++)
		if (a->n[i].kind == CXCursor_DeclRefExpr &&
		    pl_inside(a, (int)i, body) &&
		    fe_mentions(a, (int)i, name) &&
		    fe_builtin(a, fe_up(a, (int)i), name) != 'x')
			return false;
	return true;
}

static bool is_shared(const fe_ast *a, int var)
{
	if (var < 0 || a->n[var].kind != CXCursor_VarDecl)
		return false;
	for (int c = a->n[var].first; c >= 0; c = a->n[c].next)
		if (a->n[c].kind == CXCursor_CUDASharedAttr)
			return true;
	return false;
}

/* sh is used only as `sh[...]`; after the loop only `sh[0]` is read. */
static bool uses_ok(const fe_ast *a, int body, int fs, int sh)
{
	for (size_t i = 0; i < a->len; i++) {
		if (a->n[i].kind != CXCursor_DeclRefExpr || a->n[i].ref != sh ||
		    !pl_inside(a, (int)i, body))
			continue;
		int sub = fe_up(a, (int)i);
		if (sub < 0 || sub_base(a, sub) != sh)
			return false;
		if (a->n[i].b >= a->n[fs].e &&
		    !is_lit(a, fe_child(a, sub, 1), 0))
			return false;
	}
	return true;
}

/* The launch's block is one-dimensional and a multiple of 32: a literal,
 * a product with such a literal (`(n + 31) / 32 * 32`), or the block-size
 * parameter whose every value is. */
static bool warp_multiple(planner *P, const fe_launch *L)
{
	const fe_ast *a = P->a;
	int x;
	int64_t yz;
	if (!pl_block_dims(P, L, &x, &yz, NULL) || yz != 1)
		return false;
	const fe_node *n = &a->n[x];
	if (n->kind == CXCursor_BinaryOperator && n->op == CXBinaryOperator_Mul)
		for (int k = 0; k < 2; k++) {
			int c = fe_strip(a, fe_child(a, x, k));
			if (c >= 0 && a->n[c].is_int && a->n[c].ival > 0 &&
			    a->n[c].ival % 32 == 0)
				return true;
		}
	for (size_t i = 0; i < P->params.len; i++) {
		const pl_param *q = &P->params.items[i];
		bool here = false, all = true;
		for (size_t u = 0; u < q->uses.len; u++)
			here |= q->uses.items[u].range.begin.offset == n->b &&
			        q->uses.items[u].range.end.offset == n->e;
		for (size_t v = 0; v < q->p.nvalues; v++)
			all &= q->p.values[v] > 0 && q->p.values[v] % 32 == 0;
		if (here)
			return all;
	}
	return n->is_int && n->ival > 0 && n->ival % 32 == 0;
}

/* The shuffle code in place of the tree: each warp reduces its slots with
 * __shfl_xor_sync, lane 0 stores the warp's value in slot w, then warp 0
 * reduces the slots with __shfl_down_sync and stores the total in slot 0,
 * where the loop left it. */
static const char *shuffle_code(planner *P, const tree *t, const char *type)
{
	const char *id = pl_src(P, t->tid);
	const char *f = t->fn ? t->fn : "";
	const char *a = t->fn ? "(kt_r, " : "kt_r + ";
	const char *b = t->fn ? ")" : "";
	const char *sh = P->a->n[t->sh].name;
	return pl_say(
	    P,
	    "{\n"
	    "\t%s kt_r = %s[%s];\n"
	    "\t__syncthreads();\n"
	    "\tfor (int kt_o = 16; kt_o > 0; kt_o >>= 1)\n"
	    "\t\tkt_r = %s%s__shfl_xor_sync(0xffffffffu, kt_r, kt_o)%s;\n"
	    "\tif (%s %% 32 == 0)\n"
	    "\t\t%s[%s / 32] = kt_r;\n"
	    "\t__syncthreads();\n"
	    "\tif (%s < 32) {\n"
	    "\t\tconst int kt_nw = blockDim.x / 32;\n"
	    "\t\tkt_r = %s[%s < kt_nw ? %s : 0];\n"
	    "\t\tfor (int kt_o = 16; kt_o > 0; kt_o >>= 1) {\n"
	    "\t\t\t%s kt_y = __shfl_down_sync(0xffffffffu, kt_r, kt_o);\n"
	    "\t\t\tif (%s + kt_o < kt_nw)\n"
	    "\t\t\t\tkt_r = %s%skt_y%s;\n"
	    "\t\t}\n"
	    "\t\tif (%s == 0)\n"
	    "\t\t\t%s[0] = kt_r;\n"
	    "\t}\n"
	    "\t__syncthreads();\n"
	    "}",
	    type, sh, id, f, a, b, id, sh, id, id, sh, id, id, type, id, f, a,
	    b, id, sh);
}

static const char *type_of(planner *P, int n)
{
	CXString s = clang_getTypeSpelling(clang_getCursorType(P->a->n[n].cur));
	const char *r = pl_dup(P, clang_getCString(s));
	clang_disposeString(s);
	return r;
}

/* The loop is not inside another loop of the kernel (a slot read before it
 * could then run after it). */
static bool outermost(const fe_ast *a, int fs, int body)
{
	for (int p = a->n[fs].parent; p >= 0 && p != body; p = a->n[p].parent)
		if (a->n[p].kind == CXCursor_ForStmt ||
		    a->n[p].kind == CXCursor_WhileStmt ||
		    a->n[p].kind == CXCursor_DoStmt)
			return false;
	return true;
}

static int warp_reduce(planner *P, int k, int fs)
{
	const fe_ast *a = P->a;
	const fe_kern *K = &P->f->kernels.items[k];
	tree t;
	if (!tree_loop(a, fs, &t) || !is_shared(a, t.sh) ||
	    !outermost(a, fs, K->body) || !uses_ok(a, K->body, fs, t.sh) ||
	    !a->n[fs].spelled || !only_x(a, K->body, "threadIdx"))
		return KT_OK;
	for (size_t l = 0; l < K->launches.len; l++)
		if (!warp_multiple(P, &K->launches.items[l]))
			return KT_OK;
	if (!K->launches.len)
		return KT_OK;
	const char *type = type_of(P, t.sub);
	const char *code = type ? shuffle_code(P, &t, type) : NULL;
	static const int64_t v[] = {0, 1};
	int p = pl_add_param(P, pl_unique_name(P, "WARP_REDUCE", K->name),
	                     KT_ROLE_OTHER, pl_dup(P, K->name), 0, v, 2);
	if (p < 0 || !code)
		return KT_ENOMEM;
	P->params.items[p].p.evidence = pl_say(
	    P,
	    "'%s' reduces %s over the block with a tree of %s and a barrier "
	    "per step; its blocks are whole warps",
	    K->name, a->n[t.sh].name, t.fn ? t.fn : "+");
	kt_plan_refactor r = {
	    .kind = KT_REFACTOR_WARP_REDUCE,
	    .kernel = pl_dup(P, K->name),
	    .param = P->params.items[p].p.name,
	    .region = pl_range(P, fs),
	    .index_var = pl_src(P, t.tid),
	    .elem_type = type,
	    .body = code,
	    .launch = -1,
	    .note = "WARP_REDUCE = 1: warp shuffles, one shared slot per "
	            "warp, then one warp over the slots (a sum adds in "
	            "another order: compared with tolerance)"};
	pl_add_refactor(P, r);
	return P->oom ? KT_ENOMEM : KT_OK;
}

/* ----------------------------------------------------- a warp per row */

/* A substitution of the body's text: [b, e) becomes text. */
typedef struct sub_edit {
	uint32_t begin, end;
	const char *text;
} sub_edit;
typedef KT_VEC(sub_edit) text_edits;

static bool add_sub(planner *P, text_edits *v, uint32_t b, uint32_t e,
                    const char *with)
{
	sub_edit x = {b, e, with};
	if (!with || kt_vec_push(v, x)) {
		P->oom = 1;
		return false;
	}
	return true;
}

static int cmp_edit(const void *x, const void *y)
{
	const sub_edit *a = x, *b = y;
	return (a->begin > b->begin) - (a->begin < b->begin);
}

/* Calls a warp cannot stand in for its block through: the block-wide
 * barriers with a result, cooperative groups (which read the block's
 * shape themselves), and functions of the file that read the thread's
 * place or wait at a barrier. */
static bool block_call(const fe_ast *a, int c)
{
	const char *n = a->n[c].name ? a->n[c].name : "";
	if (!strncmp(n, "__syncthreads_", 14) || !strcmp(n, "sync") ||
	    !strncmp(n, "this_", 5) || strstr(n, "thread_block") ||
	    strstr(n, "tiled_partition"))
		return true;
	int d = a->n[c].ref;
	return d >= 0 &&
	       (fe_mentions(a, d, "threadIdx") ||
	        fe_mentions(a, d, "blockIdx") ||
	        fe_mentions(a, d, "blockDim") || fe_mentions(a, d, "gridDim") ||
	        pl_has_call(a, d, "__syncthreads") || pl_has_shared(a, d));
}

/* A use u of blockDim.x that only says how the block's threads share a
 * row: a column loop's step, the number of warps (`blockDim.x / 32`,
 * `>> 5`) or a tree's first step (`/ 2`, `>> 1`). */
static bool block_size_use(const fe_ast *a, int u)
{
	int p = fe_up(a, u), v, bound, body;
	if (p < 0)
		return false;
	if (a->n[p].kind == CXCursor_BinaryOperator &&
	    fe_strip(a, fe_child(a, p, 0)) == u)
		return (a->n[p].op == CXBinaryOperator_Div &&
		        (is_lit(a, fe_child(a, p, 1), 32) ||
		         is_lit(a, fe_child(a, p, 1), 2))) ||
		       (a->n[p].op == CXBinaryOperator_Shr &&
		        (is_lit(a, fe_child(a, p, 1), 5) ||
		         is_lit(a, fe_child(a, p, 1), 1)));
	int fs = a->n[p].parent;
	return a->n[p].kind == CXCursor_CompoundAssignOperator && fs >= 0 &&
	       fe_child(a, fs, 2) == p &&
	       pl_column_loop(a, fs, &v, &bound, &body);
}

/* A use n of the thread's index (threadIdx.x, or a local made from it)
 * that only names the thread within its row: a column loop's start, a
 * comparison, a slot of a shared array (`sh[tid]`, `sh[tid + s]`), a
 * lane or warp number (`% 32`, `/ 32`, `& 31`, `>> 5`, then used so), or
 * a local's initialiser whose every use is such. Not, for instance, an
 * index into global memory: a block of 32 threads would read other
 * elements there. */
static bool lane_use(const fe_ast *a, int n, int depth)
{
	int p = fe_up(a, n), v, bound, body;
	if (p < 0 || depth > 4)
		return false;
	const fe_node *x = &a->n[p];
	if (x->kind == CXCursor_VarDecl) {
		int fs = fe_ancestor(a, p, CXCursor_ForStmt);
		if (fs >= 0 && fe_child(a, fs, 0) == x->parent &&
		    pl_column_loop(a, fs, &v, &bound, &body) && v == p)
			return true;
		if (rewritten(a, p))
			return false;
		for (size_t i = 0; i < a->len; i++)
			if (a->n[i].kind == CXCursor_DeclRefExpr &&
			    a->n[i].ref == p && !lane_use(a, (int)i, depth + 1))
				return false;
		return true;
	}
	if (x->kind == CXCursor_ArraySubscriptExpr)
		return is_shared(a, sub_base(a, p)) &&
		       fe_strip(a, fe_child(a, p, 1)) == n;
	if (x->kind != CXCursor_BinaryOperator)
		return false;
	switch (x->op) {
	case CXBinaryOperator_LT:
	case CXBinaryOperator_GT:
	case CXBinaryOperator_LE:
	case CXBinaryOperator_GE:
	case CXBinaryOperator_EQ:
	case CXBinaryOperator_NE: return true;
	case CXBinaryOperator_Add: {
		int up = fe_up(a, p);
		return up >= 0 &&
		       a->n[up].kind == CXCursor_ArraySubscriptExpr &&
		       is_shared(a, sub_base(a, up));
	}
	case CXBinaryOperator_Rem:
	case CXBinaryOperator_Div:
	case CXBinaryOperator_And:
	case CXBinaryOperator_Shr:
		return fe_strip(a, fe_child(a, p, 0)) == n &&
		       (is_lit(a, fe_child(a, p, 1), 32) ||
		        is_lit(a, fe_child(a, p, 1), 31) ||
		        is_lit(a, fe_child(a, p, 1), 5)) &&
		       lane_use(a, p, depth + 1);
	default: return false;
	}
}

/* The grid does not follow the block: no block-size parameter in it, no
 * variable the block operand names. */
static bool grid_apart(planner *P, const fe_launch *L)
{
	const fe_ast *a = P->a;
	int g = L->op[0] >= 0 ? fe_strip(a, L->op[0]) : -1;
	int b = L->op[1] >= 0 ? fe_strip(a, L->op[1]) : -1;
	if (g < 0 || b < 0)
		return false;
	for (size_t i = 0; i < P->params.len; i++) {
		const pl_param *q = &P->params.items[i];
		for (size_t u = 0; u < q->uses.len; u++)
			if (q->uses.items[u].range.begin.offset >= a->n[g].b &&
			    q->uses.items[u].range.end.offset <= a->n[g].e)
				return false;
	}
	for (size_t i = 0; i < a->len; i++)
		if (a->n[i].kind == CXCursor_DeclRefExpr && a->n[i].ref >= 0 &&
		    pl_inside(a, (int)i, b) && fe_refers_to(a, g, a->n[i].ref))
			return false;
	return true;
}

/* The substitutions that make the body a warp's: false where the kernel
 * reads anything of its block but blockIdx.x, threadIdx.x and blockDim.x,
 * has dynamic shared memory, a call of block_call or assembly. */
static bool warp_edits(planner *P, int body, const char *name, text_edits *v)
{
	const fe_ast *a = P->a;
	static const char *const b[] = {"blockIdx", "threadIdx", "blockDim",
	                                "gridDim"};
	static const char *const with[] = {"kt_row", "kt_lane", "32u", NULL};
	bool row = false;
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		if (!pl_inside(a, (int)i, body))
			continue;
		if (x->kind == CXCursor_AsmStmt ||
		    (x->kind == CXCursor_CallExpr && block_call(a, (int)i)))
			return false;
		/* what a macro writes is not rewritten: refused */
		bool sync = x->kind == CXCursor_CallExpr && x->name &&
		            !strcmp(x->name, "__syncthreads");
		if (sync &&
		    (!x->spelled || !add_sub(P, v, x->b, x->e, "__syncwarp()")))
			return false;
		if (x->kind == CXCursor_VarDecl && is_shared(a, (int)i)) {
			/* dynamic shared memory: its size is the launch's */
			CXType t = clang_getCursorType(x->cur);
			uint32_t at;
			if (t.kind == CXType_IncompleteArray)
				return false;
			/* the name as written here (not by a macro) */
			if (!kt_fe_offset(
			        a->tu, clang_getCursorLocation(x->cur), &at) ||
			    at + strlen(x->name) > a->tu->len ||
			    strncmp(a->tu->text + at, x->name,
			            strlen(x->name)) ||
			    !add_sub(P, v, at + (uint32_t)strlen(x->name),
			             at + (uint32_t)strlen(x->name),
			             pl_say(P, "[%s]", name)))
				return false;
		}
		if (x->kind != CXCursor_DeclRefExpr)
			continue;
		if (is_shared(a, x->ref) &&
		    (!x->spelled || !add_sub(P, v, x->e, x->e, "[kt_warp]")))
			return false;
		for (int k = 0; k < 4; k++) {
			if (!fe_mentions(a, (int)i, b[k]))
				continue;
			int u = fe_up(a, (int)i);
			if (!with[k] || fe_builtin(a, u, b[k]) != 'x' ||
			    !a->n[u].spelled)
				return false;
			row |= k == 0;
			if ((k == 2 && !block_size_use(a, u)) ||
			    (k == 1 && !lane_use(a, u, 0)))
				return false;
			if (!add_sub(P, v, a->n[u].b, a->n[u].e, with[k]))
				return false;
		}
	}
	return row;
}

/* The body's text from its `{` with the substitutions, the warp's row
 * and lane declared first; rows past the grid's (the grid keeps one block
 * per row: gridDim.x is the row count) end at once. */
static const char *warp_body(planner *P, int body, const char *name,
                             text_edits *v)
{
	size_t len;
	const char *t = fe_text(P->a, body, &len);
	uint32_t at = P->a->n[body].b;
	kt_str s = KT_STR_INIT;
	qsort(v->items, v->len, sizeof(sub_edit), cmp_edit);
	kt_str_addf(&s,
	            "{\n\tconst unsigned kt_warp = threadIdx.x / 32u, "
	            "kt_lane = threadIdx.x %% 32u;\n\tconst unsigned kt_row = "
	            "blockIdx.x * %s + kt_warp;\n\tif (kt_row >= gridDim.x)\n"
	            "\t\treturn;",
	            name);
	size_t from = 1;
	for (size_t i = 0; i < v->len; i++) {
		size_t b = v->items[i].begin - at;
		if (b < from) { /* overlapping: not rewritten */
			kt_str_release(&s);
			return NULL;
		}
		kt_str_addf(&s, "%.*s%s", (int)(b - from), t + from,
		            v->items[i].text);
		from = v->items[i].end - at;
	}
	kt_str_addf(&s, "%.*s", (int)(len - from), t + from);
	const char *r = s.ptr ? pl_dup(P, s.ptr) : NULL;
	kt_str_release(&s);
	return r;
}

/* The kernel's block-size parameter where the launch's block is it (or a
 * clamp at it, frontend/cap.c) and its domain holds 32: the kernel is
 * tuned, so known to run, at a block of one warp. NULL otherwise. */
static const char *warp_block(planner *P, const fe_kern *K, const fe_launch *L)
{
	int x;
	int64_t yz;
	if (!pl_block_dims(P, L, &x, &yz, NULL) || yz != 1)
		return NULL;
	const fe_node *n = &P->a->n[x];
	for (size_t i = 0; i < P->params.len; i++) {
		const pl_param *q = &P->params.items[i];
		bool here = L->capped, w = false;
		if (q->p.role != KT_ROLE_BLOCK_SIZE ||
		    strcmp(q->p.kernel, K->name))
			continue;
		for (size_t u = 0; u < q->uses.len; u++)
			here |= q->uses.items[u].range.begin.offset >= n->b &&
			        q->uses.items[u].range.end.offset <= n->e;
		for (size_t v = 0; v < q->p.nvalues; v++)
			w |= q->p.values[v] == 32;
		if (here && w)
			return q->p.name;
	}
	return NULL;
}

/* A literal of kernel k's body follows the block size as a count of
 * threads (`for (s = 128; ...)`, `tid < 256`): the warp's copy of the body
 * would keep the block's value where 32 stands. A shared array's extent
 * (`s[256]`) is only larger than the warp needs. */
static bool body_ties_block(const planner *P, int k)
{
	const fe_ast *a = P->a;
	const fe_node *b = &a->n[P->f->kernels.items[k].body];
	for (size_t i = 0; i < P->c->len; i++) {
		const kt_candidate *x = &P->c->items[i];
		if (!x->rejected && x->role == KT_ROLE_BLOCK_SIZE &&
		    x->site != KT_SITE_ARRAY_DIM &&
		    P->f->cx.items[i].kern == k &&
		    x->range.begin.offset >= b->b &&
		    x->range.end.offset <= b->e)
			return true;
	}
	return false;
}

static int warp_per_row(planner *P, int k)
{
	const fe_ast *a = P->a;
	const fe_kern *K = &P->f->kernels.items[k];
	const char *blk = K->launches.len == 1
	                      ? warp_block(P, K, &K->launches.items[0])
	                      : NULL;
	if (!blk || !pl_has_call(a, K->body, "__syncthreads") ||
	    !grid_apart(P, &K->launches.items[0]) || body_ties_block(P, k))
		return KT_OK;
	const fe_launch *L = &K->launches.items[0];
	const char *name = pl_unique_name(P, "WARP_ROWS", K->name);
	text_edits v = {0};
	const char *body = name && warp_edits(P, K->body, name, &v)
	                       ? warp_body(P, K->body, name, &v)
	                       : NULL;
	kt_vec_release(&v);
	int op = L->op[1] >= 0 ? fe_strip(a, L->op[1]) : -1;
	if (P->oom)
		return KT_ENOMEM;
	/* the plan's check of the body (a `#pragma` other than unroll in
	 * the kernel, say): not proposed rather than an invalid plan */
	char why[300];
	size_t olen;
	const char *orig = fe_text(a, K->body, &olen);
	if (!body || op < 0 || !a->n[op].spelled || !a->n[op].in_main ||
	    kt_plan_body_check(body, strlen(body), orig, olen, why,
	                       sizeof(why)))
		return KT_OK;
	static const int64_t vals[] = {0, 1, 2, 4, 8, 16, 32};
	int p = pl_add_param(P, name, KT_ROLE_PER_BLOCK, pl_dup(P, K->name), 0,
	                     vals, 7);
	if (p < 0)
		return KT_ENOMEM;
	P->params.items[p].p.evidence = pl_say(
	    P,
	    "'%s' gives each block one row (blockIdx.x) and reduces over the "
	    "block with barriers; its block size may be one warp (%s = 32)",
	    K->name, blk);
	kt_plan_refactor r = {
	    .kind = KT_REFACTOR_WARP_PER_ROW,
	    .kernel = pl_dup(P, K->name),
	    .param = P->params.items[p].p.name,
	    .region = pl_range(P, K->body),
	    .body = body,
	    .block = pl_range(P, op),
	    .launch = 0,
	    .note = "WARP_ROWS > 0: blocks of 32 * WARP_ROWS threads, a warp "
	            "per row as a block of 32 threads would run it (its own "
	            "shared memory, __syncwarp); the grid stays one block per "
	            "row, the blocks past the last row's end at once"};
	pl_add_constraint(P, pl_say(P, "32 * %s <= %s", name, blk));
	pl_add_refactor(P, r);
	return P->oom ? KT_ENOMEM : KT_OK;
}

/* ------------------------------------------------ a warp-wide scan */

/* Types a warp shuffle moves as they are (int and wider integers). */
static bool shuffle_int(CXType t)
{
	switch (clang_getCanonicalType(t).kind) {
	case CXType_Int:
	case CXType_UInt:
	case CXType_Long:
	case CXType_ULong:
	case CXType_LongLong:
	case CXType_ULongLong: return true;
	default: return false;
	}
}

static bool int_type(CXType t)
{
	enum CXTypeKind k = clang_getCanonicalType(t).kind;
	return k >= CXType_Bool && k <= CXType_Int128;
}

static CXType node_type(const fe_ast *a, int n)
{
	return clang_getCursorType(a->n[n].cur);
}

/* Functions a scan's term may call: they compute and change nothing. */
static bool pure_builtin(const char *n)
{
	static const char *const ok[] = {"min",   "max",   "abs",
	                                 "umin",  "umax",  "llmin",
	                                 "llmax", "__ldg", NULL};
	for (const char *const *p = ok; *p; p++)
		if (!strcmp(n, *p))
			return true;
	return false;
}

static bool pure(const fe_ast *a, int n, int own, int depth);

/* var is declared inside node own. */
static bool under(const fe_ast *a, int var, int own)
{
	for (int p = var; own >= 0 && p >= 0; p = a->n[p].parent)
		if (p == own)
			return true;
	return false;
}

/* A function of the translation unit that changes nothing but its own
 * locals (its body known). */
static bool pure_fn(const fe_ast *a, int d, int depth)
{
	if (d < 0 || depth < 0 || a->n[d].kind != CXCursor_FunctionDecl)
		return false;
	for (int c = a->n[d].first; c >= 0; c = a->n[c].next)
		if (a->n[c].kind == CXCursor_CompoundStmt)
			return pure(a, c, d, depth);
	return false;
}

/* Node x changes nothing outside the locals of `own` (-1: none): no
 * assignment or ++/-- but to such a local, no call but to a pure
 * function, no assembly. */
static bool changes_nothing(const fe_ast *a, int x, int own, int depth)
{
	const fe_node *n = &a->n[x];
	bool compound;
	int lhs = fe_assign_lhs(a, x, &compound);
	if (n->kind == CXCursor_UnaryOperator &&
	    n->op >= CXUnaryOperator_PostInc && n->op <= CXUnaryOperator_PreDec)
		lhs = n->first;
	if (lhs >= 0) {
		lhs = fe_strip(a, lhs);
		return lhs >= 0 && a->n[lhs].kind == CXCursor_DeclRefExpr &&
		       under(a, a->n[lhs].ref, own);
	}
	if (n->kind == CXCursor_AsmStmt || n->kind == CXCursor_MSAsmStmt)
		return false;
	if (n->kind != CXCursor_CallExpr || (n->name && pure_builtin(n->name)))
		return true;
	return pure_fn(a, n->ref, depth - 1);
}

/* Nothing in the subtree of n changes anything outside own's locals. */
static bool pure(const fe_ast *a, int n, int own, int depth)
{
	if (!changes_nothing(a, n, own, depth))
		return false;
	for (int c = a->n[n].first; c >= 0; c = a->n[c].next)
		if (!pure(a, c, own, depth))
			return false;
	return true;
}

/* n has the same value in every thread of the block: no thread index in
 * it, nor in the locals it reads (each set once, from such a value). */
static bool uniform_but(const fe_ast *a, int n, int except, int depth)
{
	if (depth < 0 || fe_mentions(a, n, "threadIdx"))
		return false;
	for (size_t i = 0; i < a->len; i++) {
		if (a->n[i].kind != CXCursor_DeclRefExpr ||
		    !pl_inside(a, (int)i, n))
			continue;
		int v = a->n[i].ref;
		if (v < 0 || v == except || a->n[v].kind != CXCursor_VarDecl)
			continue; /* a parameter, a function, an enumerator */
		if (is_shared(a, v) || fe_var_init(a, v) < 0)
			continue; /* memory: read alike by every thread */
		if (rewritten(a, v) ||
		    !uniform_but(a, fe_var_init(a, v), -1, depth - 1))
			return false;
	}
	return true;
}

static bool uniform(const fe_ast *a, int n, int depth)
{
	return uniform_but(a, n, -1, depth);
}

/* `threadIdx.x == 0` (either way round, or a local made from it), or
 * `!threadIdx.x`. */
static bool thread_zero(const fe_ast *a, int c)
{
	c = fe_strip(a, c);
	if (c < 0)
		return false;
	if (a->n[c].kind == CXCursor_UnaryOperator &&
	    a->n[c].op == CXUnaryOperator_LNot)
		return is_tid(a, a->n[c].first);
	if (a->n[c].kind != CXCursor_BinaryOperator ||
	    a->n[c].op != CXBinaryOperator_EQ)
		return false;
	int l = fe_child(a, c, 0), r = fe_child(a, c, 1);
	return (is_tid(a, l) && is_lit(a, r, 0)) ||
	       (is_tid(a, r) && is_lit(a, l, 0));
}

/* Every thread of the block reaches statement s of the kernel's body:
 * it is one of the body's own statements, and each return before it is
 * under `if`s whose conditions are the same in every thread. */
static bool reached_by_all(const fe_ast *a, int body, int s)
{
	if (a->n[s].parent != body)
		return false;
	for (size_t i = 0; i < a->len; i++) {
		if (a->n[i].kind != CXCursor_ReturnStmt ||
		    !pl_inside(a, (int)i, body) || a->n[i].b >= a->n[s].b)
			continue;
		for (int p = a->n[i].parent; p != body; p = a->n[p].parent) {
			if (p < 0 || (a->n[p].kind != CXCursor_IfStmt &&
			              a->n[p].kind != CXCursor_CompoundStmt))
				return false;
			if (a->n[p].kind == CXCursor_IfStmt &&
			    (!uniform(a, fe_child(a, p, 0), 4) ||
			     !pure(a, fe_child(a, p, 0), -1, 2)))
				return false;
		}
	}
	return true;
}

/* The constant c of index `i`, `i + c`, `c + i` or `i - c`. */
static bool index_offset(const fe_ast *a, int n, int i, int64_t *c)
{
	n = fe_strip(a, n);
	if (is_ref(a, n, i)) {
		*c = 0;
		return true;
	}
	if (n < 0 || a->n[n].kind != CXCursor_BinaryOperator)
		return false;
	int l = fe_strip(a, fe_child(a, n, 0)),
	    r = fe_strip(a, fe_child(a, n, 1));
	if (l < 0 || r < 0)
		return false;
	if (a->n[n].op == CXBinaryOperator_Add && is_ref(a, l, i) &&
	    a->n[r].is_int)
		*c = a->n[r].ival;
	else if (a->n[n].op == CXBinaryOperator_Add && is_ref(a, r, i) &&
	         a->n[l].is_int)
		*c = a->n[l].ival;
	else if (a->n[n].op == CXBinaryOperator_Sub && is_ref(a, l, i) &&
	         a->n[r].is_int)
		*c = -a->n[r].ival;
	else
		return false;
	return true;
}

/* The scan a loop runs, read from the AST. */
typedef struct scan {
	int loop, var, lo, cond; /* the loop, its variable, start, test */
	int out;  /* the element written: `A[X1]` (recurrence), `A[X]` */
	int prev; /* recurrence: `A[X0]`, the element one before; else -1 */
	int term; /* the term added per element */
	int acc;  /* accumulator form: the variable summed into; else -1 */
	bool exclusive; /* accumulator form: stored before the term is added */
	CXType type;    /* what is summed: the element's or accumulator's */
} scan;

/* An assignment `A[X] = ...`: the subscript, and A's declaration. */
static int stored_elem(const fe_ast *a, int st, int *base)
{
	st = fe_strip(a, st);
	if (st < 0 || a->n[st].kind != CXCursor_BinaryOperator ||
	    a->n[st].op != CXBinaryOperator_Assign)
		return -1;
	int l = fe_strip(a, fe_child(a, st, 0));
	*base = sub_base(a, l);
	return *base >= 0 ? l : -1;
}

/* `A[X1] = A[X0] + E` (or `E + A[X0]`), X1 one past X0. */
static bool recurrence(const fe_ast *a, int st, scan *s)
{
	int base, out = stored_elem(a, st, &base);
	int rhs = out >= 0 ? fe_strip(a, fe_child(a, fe_strip(a, st), 1)) : -1;
	if (rhs < 0 || a->n[rhs].kind != CXCursor_BinaryOperator ||
	    a->n[rhs].op != CXBinaryOperator_Add)
		return false;
	int64_t c1, c0;
	if (!index_offset(a, fe_child(a, out, 1), s->var, &c1))
		return false;
	for (int k = 0; k < 2; k++) {
		int p = fe_strip(a, fe_child(a, rhs, k));
		if (sub_base(a, p) != base ||
		    !index_offset(a, fe_child(a, p, 1), s->var, &c0) ||
		    c1 != c0 + 1)
			continue;
		s->out = out, s->prev = p, s->acc = -1;
		s->term = fe_child(a, rhs, 1 - k);
		s->type = node_type(a, out);
		return !fe_refers_to(a, s->term, base);
	}
	return false;
}

/* `{ A[X] = s; s += E; }` (exclusive) or `{ s += E; A[X] = s; }`. */
static bool accumulation(const fe_ast *a, int x, int y, scan *s)
{
	for (int k = 0; k < 2; k++) {
		int add = fe_strip(a, k ? y : x), put = k ? x : y;
		int base, out = stored_elem(a, put, &base);
		if (add < 0 || out < 0 ||
		    a->n[add].kind != CXCursor_CompoundAssignOperator ||
		    a->n[add].op != CXBinaryOperator_AddAssign)
			continue;
		int acc = fe_strip(a, fe_child(a, add, 0));
		if (acc < 0 || a->n[acc].kind != CXCursor_DeclRefExpr ||
		    !is_ref(a, fe_child(a, fe_strip(a, put), 1), a->n[acc].ref))
			continue;
		s->acc = a->n[acc].ref, s->out = out, s->prev = -1;
		s->term = fe_child(a, add, 1);
		s->exclusive = k == 1;
		s->type = node_type(a, s->acc);
		return !fe_refers_to(a, s->term, base) &&
		       !fe_refers_to(a, s->term, s->acc) &&
		       !fe_refers_to(a, fe_child(a, out, 1), s->acc);
	}
	return false;
}

/* `for (T i = LO; i < HI; i++)` (`<=`, `++i`, `i += 1`) whose body is a
 * recurrence or an accumulation. */
static bool scan_loop(const fe_ast *a, int fs, scan *s)
{
	if (a->n[fs].kind != CXCursor_ForStmt || fe_nchildren(a, fs) != 4)
		return false;
	int init = fe_child(a, fs, 0), cond = fe_strip(a, fe_child(a, fs, 1));
	int inc = fe_strip(a, fe_child(a, fs, 2)), body = fe_child(a, fs, 3);
	*s = (scan){.loop = fs, .var = -1, .acc = -1, .prev = -1};
	if (init < 0 || a->n[init].kind != CXCursor_DeclStmt ||
	    fe_nchildren(a, init) != 1)
		return false;
	s->var = a->n[init].first;
	s->lo = fe_var_init(a, s->var);
	if (s->lo < 0 || !int_type(node_type(a, s->var)) || cond < 0 ||
	    a->n[cond].kind != CXCursor_BinaryOperator ||
	    (a->n[cond].op != CXBinaryOperator_LT &&
	     a->n[cond].op != CXBinaryOperator_LE) ||
	    !is_ref(a, fe_child(a, cond, 0), s->var) || inc < 0)
		return false;
	s->cond = cond;
	bool step = (a->n[inc].kind == CXCursor_UnaryOperator &&
	             (a->n[inc].op == CXUnaryOperator_PostInc ||
	              a->n[inc].op == CXUnaryOperator_PreInc)) ||
	            (a->n[inc].kind == CXCursor_CompoundAssignOperator &&
	             a->n[inc].op == CXBinaryOperator_AddAssign &&
	             is_lit(a, fe_child(a, inc, 1), 1));
	if (!step || !is_ref(a, a->n[inc].first, s->var) || body < 0)
		return false;
	int n = a->n[body].kind == CXCursor_CompoundStmt ? fe_nchildren(a, body)
	                                                 : 1;
	int x = n == 1 && a->n[body].kind == CXCursor_CompoundStmt
	            ? a->n[body].first
	            : body;
	if (n == 1 ? !recurrence(a, x, s)
	           : n != 2 || a->n[body].kind != CXCursor_CompoundStmt ||
	                 !accumulation(a, fe_child(a, body, 0),
	                               fe_child(a, body, 1), s))
		return false;
	return int_type(node_type(a, s->term)) && shuffle_int(s->type);
}

/* The thread-0 statement's parts around the scan loop: the text before
 * it (the accumulator's declaration left out) and after it. */
typedef struct around {
	const char *pre, *post, *acc_decl;
} around;

/* Statement st of the thread-0 block is a declaration that something
 * of the block at or after offset from reads. */
static bool decl_read_later(const fe_ast *a, int st, int block, uint32_t from)
{
	if (a->n[st].kind != CXCursor_DeclStmt)
		return false;
	for (int v = a->n[st].first; v >= 0; v = a->n[v].next)
		for (size_t i = 0; i < a->len; i++)
			if (a->n[i].kind == CXCursor_DeclRefExpr &&
			    a->n[i].ref == v && pl_inside(a, (int)i, block) &&
			    a->n[i].b >= from)
				return true;
	return false;
}

/* n reads memory (an element, a dereference, a member, a call's result,
 * a shared variable): its value may be what thread 0 has just written. */
static bool reads_memory(const fe_ast *a, int n)
{
	const fe_node *x = &a->n[n];
	if (x->kind == CXCursor_ArraySubscriptExpr ||
	    x->kind == CXCursor_MemberRefExpr || x->kind == CXCursor_CallExpr ||
	    (x->kind == CXCursor_UnaryOperator &&
	     x->op == CXUnaryOperator_Deref) ||
	    (x->kind == CXCursor_DeclRefExpr && is_shared(a, x->ref)))
		return true;
	for (int c = x->first; c >= 0; c = a->n[c].next)
		if (reads_memory(a, c))
			return true;
	return false;
}

static bool jumps(const fe_ast *a, int n)
{
	enum CXCursorKind k = a->n[n].kind;
	if (k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt ||
	    k == CXCursor_BreakStmt || k == CXCursor_ContinueStmt)
		return true;
	for (int c = a->n[n].first; c >= 0; c = a->n[c].next)
		if (jumps(a, c))
			return true;
	return false;
}

/* The statements in [b, e) of the file (a `;` that ends the statement
 * before b left out) as lines indented by three tabs, their own
 * indentation relative to the first's kept, in plan memory; "" for none,
 * NULL where a preprocessor line is among them (new code may not hold
 * one). */
static const char *slice(planner *P, uint32_t b, uint32_t e)
{
	const char *t = P->a->tu->text;
	while (b < e && (t[b] == ';' || isspace((unsigned char)t[b])))
		b++;
	while (e > b && isspace((unsigned char)t[e - 1]))
		e--;
	if (memchr(t + b, '#', e - b))
		return NULL;
	uint32_t ls = b, cut;
	while (ls > 0 && t[ls - 1] != '\n')
		ls--;
	cut = b - ls; /* the first line's indentation */
	kt_str out = KT_STR_INIT;
	int rc = 0;
	for (uint32_t k = b; k < e && !rc;) {
		const char *nl = memchr(t + k, '\n', e - k);
		uint32_t end = nl ? (uint32_t)(nl - t) : e;
		rc = kt_str_addf(&out, "\t\t\t%.*s\n", (int)(end - k), t + k);
		k = end + 1;
		for (uint32_t c = 0;
		     k < e && c < cut && (t[k] == '\t' || t[k] == ' '); c++)
			k++;
	}
	if (out.len)
		out.ptr[--out.len] = 0;
	const char *r = rc ? NULL : pl_say(P, "%s", out.len ? out.ptr : "");
	kt_str_release(&out);
	return r;
}

/* The statements around the loop run by thread 0 alone, as text: none
 * may jump, and no declaration there may be read after the loop (each
 * part is put in its own `if`), but the accumulator's. */
static bool split_around(planner *P, int block, const scan *s, around *w)
{
	const fe_ast *a = P->a;
	*w = (around){"", "", NULL};
	if (block == s->loop)
		return true;
	int accd = s->acc >= 0 ? a->n[s->acc].parent : -1;
	uint32_t pb = a->n[block].b + 1, pe = a->n[s->loop].b;
	for (int c = a->n[block].first; c >= 0; c = a->n[c].next) {
		if (c == s->loop)
			continue;
		if (jumps(a, c) || (a->n[c].b < pe && c != accd &&
		                    decl_read_later(a, c, block, pe)))
			return false;
		if (c == accd && (fe_nchildren(a, c) != 1 || a->n[c].b < pb))
			return false;
	}
	const char *t = a->tu->text;
	if (accd >= 0) {
		/* the accumulator: declared before the loop, its initial value
		 * read from nothing the thread-0 part writes, every thread
		 * declares it where the loop starts */
		int init = fe_var_init(a, s->acc);
		if (init < 0 || !uniform(a, init, 4) || !pure(a, init, -1, 2) ||
		    reads_memory(a, init))
			return false;
		for (size_t i = 0; i < a->len; i++)
			if (a->n[i].kind == CXCursor_DeclRefExpr &&
			    a->n[i].ref == s->acc && a->n[i].b >= pb &&
			    a->n[i].e <= pe)
				return false;
		uint32_t de = a->n[accd].e;
		const char *x = slice(P, pb, a->n[accd].b);
		const char *y = slice(P, de, pe);
		w->pre = x && y
		             ? pl_say(P, "%s%s%s", x, *x && *y ? "\n" : "", y)
		             : NULL;
		w->acc_decl = pl_say(P, "%s %s = %s;", type_of(P, s->acc),
		                     a->n[s->acc].name, pl_src(P, init));
	} else {
		w->pre = slice(P, pb, pe);
	}
	uint32_t end = a->n[block].e;
	while (end > a->n[s->loop].e && t[end - 1] != '}')
		end--;
	w->post = slice(P, a->n[s->loop].e, end > 0 ? end - 1 : end);
	return w->pre && w->post;
}

/* The scan's expressions (start, test, term, the element's index) are
 * the same in every thread but for the loop's variable, and pure; the
 * test reads neither the output nor the accumulator. */
static bool scan_exprs_ok(const fe_ast *a, const scan *s)
{
	int base = sub_base(a, s->out);
	int e[] = {s->lo, s->cond, s->term, fe_child(a, s->out, 1), s->prev};
	for (size_t k = 0; k < sizeof(e) / sizeof(e[0]); k++)
		if (e[k] >= 0 &&
		    (!uniform_but(a, e[k], s->var, 4) || !pure(a, e[k], -1, 2)))
			return false;
	return !fe_refers_to(a, s->cond, base) &&
	       (s->acc < 0 || !fe_refers_to(a, s->cond, s->acc));
}

static const char *canon_type(planner *P, CXType t)
{
	CXString s = clang_getTypeSpelling(clang_getCanonicalType(t));
	const char *r = pl_dup(P, clang_getCString(s));
	clang_disposeString(s);
	return r;
}

/* The new code: thread 0 runs what came before the loop, the first warp
 * scans 32 elements a step (shuffles; the carry from lane 31), thread 0
 * runs what came after. An integer sum in another order is the same sum
 * (two's complement wraps alike), so the outputs are the original's. */
static const char *scan_code(planner *P, const scan *s, const around *w)
{
	const fe_ast *a = P->a;
	const char *T = canon_type(P, s->type);
	const char *I = canon_type(P, node_type(a, s->var));
	const char *c = s->acc >= 0 ? a->n[s->acc].name : "kt_c";
	const char *carry =
	    s->acc >= 0
	        ? w->acc_decl
	        : pl_say(P, "%s kt_c = 0;\n\t\tbool kt_first = true;", T);
	const char *first =
	    s->acc >= 0 ? ""
	                : pl_say(P,
	                         "\t\t\tif (kt_first) {\n"
	                         "\t\t\t\tkt_c = __shfl_sync(0xffffffffu, "
	                         "threadIdx.x == 0 ? (%s)(%s) : (%s)0, 0);\n"
	                         "\t\t\t\tkt_first = false;\n"
	                         "\t\t\t}\n",
	                         T, pl_src(P, s->prev), T);
	const char *pre =
	    *w->pre
	        ? pl_say(P, "\t\tif (threadIdx.x == 0) {\n%s\n\t\t}\n", w->pre)
	        : "";
	const char *post =
	    *w->post
	        ? pl_say(P, "\t\tif (threadIdx.x == 0) {\n%s\n\t\t}\n", w->post)
	        : "";
	return pl_say(P,
	              "{\n"
	              "\tif (threadIdx.x < 32) {\n"
	              "%s"
	              "\t\t__syncwarp();\n"
	              "\t\t%s\n"
	              "\t\tfor (%s kt_b = (%s);; kt_b += 32) {\n"
	              "\t\t\tconst %s %s = kt_b + (%s)threadIdx.x;\n"
	              "\t\t\tconst bool kt_in = %s;\n"
	              "\t\t\tif (!__shfl_sync(0xffffffffu, (int)kt_in, 0))\n"
	              "\t\t\t\tbreak;\n"
	              "%s"
	              "\t\t\tconst %s kt_e = kt_in ? (%s)(%s) : (%s)0;\n"
	              "\t\t\t%s kt_v = kt_e;\n"
	              "\t\t\tfor (int kt_o = 1; kt_o < 32; kt_o <<= 1) {\n"
	              "\t\t\t\tconst %s kt_u = __shfl_up_sync(0xffffffffu, "
	              "kt_v, kt_o);\n"
	              "\t\t\t\tif ((int)threadIdx.x >= kt_o)\n"
	              "\t\t\t\t\tkt_v += kt_u;\n"
	              "\t\t\t}\n"
	              "\t\t\tif (kt_in)\n"
	              "\t\t\t\t%s = %s + %s;\n"
	              "\t\t\t%s += __shfl_sync(0xffffffffu, kt_v, 31);\n"
	              "\t\t}\n"
	              "\t\t__syncwarp();\n"
	              "%s"
	              "\t}\n"
	              "}",
	              pre, carry, I, pl_src(P, s->lo), I, a->n[s->var].name, I,
	              pl_src(P, s->cond), first, T, T, pl_src(P, s->term), T, T,
	              T, pl_src(P, s->out), c,
	              s->exclusive ? "(kt_v - kt_e)" : "kt_v", c, post);
}

/* The scan loop directly in the thread-0 statement's block, or the
 * statement itself. */
static bool find_scan(const fe_ast *a, int then, scan *s)
{
	if (a->n[then].kind != CXCursor_CompoundStmt)
		return scan_loop(a, then, s);
	for (int c = a->n[then].first; c >= 0; c = a->n[c].next)
		if (scan_loop(a, c, s))
			return true;
	return false;
}

static int warp_scan(planner *P, int k, int ifs)
{
	const fe_ast *a = P->a;
	const fe_kern *K = &P->f->kernels.items[k];
	scan s;
	around w;
	if (a->n[ifs].kind != CXCursor_IfStmt || fe_nchildren(a, ifs) != 2 ||
	    !a->n[ifs].spelled || !thread_zero(a, fe_child(a, ifs, 0)) ||
	    !reached_by_all(a, K->body, ifs) ||
	    !only_x(a, K->body, "threadIdx") || !K->launches.len)
		return KT_OK;
	int then = fe_child(a, ifs, 1);
	if (!find_scan(a, then, &s) || !scan_exprs_ok(a, &s) ||
	    !split_around(P, then, &s, &w))
		return KT_OK;
	for (size_t l = 0; l < K->launches.len; l++)
		if (!warp_multiple(P, &K->launches.items[l]))
			return KT_OK;
	const char *code = scan_code(P, &s, &w);
	static const int64_t v[] = {0, 1};
	int p = pl_add_param(P, pl_unique_name(P, "WARP_SCAN", K->name),
	                     KT_ROLE_OTHER, pl_dup(P, K->name), 0, v, 2);
	if (p < 0 || P->oom)
		return KT_ENOMEM;
	P->params.items[p].p.evidence = pl_say(
	    P,
	    "'%s' sums %s into %s in one thread, one element a step, while "
	    "the block's other threads wait; its blocks are whole warps",
	    K->name, pl_src(P, s.term),
	    a->n[sub_base(a, s.out)].name ? a->n[sub_base(a, s.out)].name
	                                  : "?");
	kt_plan_refactor r = {
	    .kind = KT_REFACTOR_WARP_SCAN,
	    .kernel = pl_dup(P, K->name),
	    .param = P->params.items[p].p.name,
	    .region = pl_range(P, ifs),
	    .index_var = pl_dup(P, a->n[s.var].name),
	    .elem_type = canon_type(P, s.type),
	    .body = code,
	    .launch = -1,
	    .note = "WARP_SCAN = 1: the block's first warp scans 32 elements "
	            "a step with shuffles (an integer sum: the same in any "
	            "order, compared exactly)"};
	pl_add_refactor(P, r);
	return P->oom ? KT_ENOMEM : KT_OK;
}

int pl_reduce_refactors(planner *P, int k)
{
	const fe_ast *a = P->a;
	int body = P->f->kernels.items[k].body, rc = KT_OK;
	for (size_t i = 0; i < a->len && !rc; i++)
		if (a->n[i].kind == CXCursor_ForStmt &&
		    pl_inside(a, (int)i, body))
			rc = warp_reduce(P, k, (int)i);
		else if (a->n[i].kind == CXCursor_IfStmt &&
		         a->n[i].parent == body)
			rc = warp_scan(P, k, (int)i);
	return rc ? rc : warp_per_row(P, k);
}
