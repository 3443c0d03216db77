/*
 * reduce.c - the refactors of kernels that reduce over a block through
 * shared memory: warp_reduce (a tree over a shared array becomes warp
 * shuffles) and warp_per_row (a row-per-block kernel runs one row per
 * warp, several rows per block).
 *
 * Both write the new code here, as text (the refactor's `body`), from the
 * AST: the rewriter puts it beside the original under `#if`, so the
 * default is the kernel as written. The one design choice: warp_per_row
 * is not a rewrite of the reduction but of the block. Each warp runs the
 * body as the original block of 32 threads would (threadIdx.x its lane,
 * blockDim.x 32, __syncthreads() a __syncwarp(), each shared variable one
 * copy per warp), so the kernel computes what it computes at a block of 32
 * threads, which its block-size parameter's domain holds; the block's
 * reduction then is the reduction of one warp.
 */
#include "planner/planner.h"

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
	if (!pl_block_dims(P, L, &x, &yz) || yz != 1)
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
	if (!pl_block_dims(P, L, &x, &yz) || yz != 1)
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

static int warp_per_row(planner *P, int k)
{
	const fe_ast *a = P->a;
	const fe_kern *K = &P->f->kernels.items[k];
	const char *blk = K->launches.len == 1
	                      ? warp_block(P, K, &K->launches.items[0])
	                      : NULL;
	if (!blk || !pl_has_call(a, K->body, "__syncthreads") ||
	    !grid_apart(P, &K->launches.items[0]))
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

int pl_reduce_refactors(planner *P, int k)
{
	const fe_ast *a = P->a;
	int body = P->f->kernels.items[k].body, rc = KT_OK;
	for (size_t i = 0; i < a->len && !rc; i++)
		if (a->n[i].kind == CXCursor_ForStmt &&
		    pl_inside(a, (int)i, body))
			rc = warp_reduce(P, k, (int)i);
	return rc ? rc : warp_per_row(P, k);
}
