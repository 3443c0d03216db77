/*
 * groups.c - threads_per_group and groups_per_block: a kernel that gives
 * each group of G consecutive threads (G a power of two up to the warp)
 * one piece of work, reduced across the group with xor shuffles
 * (per-token-group quantisation, a norm of short rows, the top-k of a
 * small row), gets G as a parameter TPG; where the host computes the
 * groups of a block as the largest power of two up to P that divides a
 * count (`n % 16 == 0 ? 16 : n % 8 == 0 ? 8 : ... : 1`), P becomes a
 * parameter GPB.
 *
 * Changing G is sound only where every use of it in the kernel has one
 * of the meanings below, and threadIdx.x appears only in the first two,
 * so the whole of the kernel's idea of a group moves with it:
 *   - `threadIdx.x % G`, the thread's lane in its group, in a local that
 *     is only the start of loops that step by G, or compared with 0 (no
 *     lane owns a fixed element: with fewer lanes one would be missed);
 *   - `threadIdx.x / G`, `blockDim.x / G`: the group, the block's groups;
 *   - the step G of those loops;
 *   - the start G / 2 of a loop `off > 0; off /= 2` (or `>>= 1`) over
 *     `__shfl_xor_sync(mask, v, off[, G])`, which reduces the group; the
 *     width argument G of such a shuffle.
 * Every shuffle of the kernel is one of those, or a step o < G of an
 * unrolled max or min (in the kernel or in a function of the file only
 * it calls), which becomes `o % TPG`: an xor by 0 from TPG up, the
 * lane's own value, which max and min keep (TPG then goes up to G only).
 * A shuffle's mask is not a literal narrower than the warp; one computed
 * from threadIdx is evaluated for the first threads and must hold each
 * thread's group. Each reduced value is combined by max or min
 * (idempotent), or summed from a literal zero (with more lanes than
 * work, the idle lanes give what they started with). `blockIdx.x * G`
 * where the launch's groups of a block are G too is theirs and stays.
 * The launch's block is `X * G` (directly or through a local), so the
 * block grows with the group and X, the groups of a block, stays.
 *
 * G may be written as a literal, an object-like macro whose body is the
 * literal, or a const variable the literal initialises: the edit goes
 * where the number is written, and every use of it in the kernel is
 * checked as above.
 */
#include "planner/planner.h"
#include "planner/poly.h"

#include <string.h>

typedef struct grp {
	planner *P;
	const fe_kern *K;
	int64_t G;
	int lane; /* the lane's local (VarDecl) */
	KT_VEC(kt_plan_edit) edits;
	int x; /* the launch block's other factor, the groups */
	int loops, shuffles;
	int64_t steps;   /* the offsets of unrolled shuffles, as bits */
	int64_t max_tpg; /* the largest TPG the code allows */
	const char *op;  /* pl_group_combines: the max or min the shuffles
	                    must combine with (NULL: any) */
	const char *why; /* why not offered, for the note; NULL when it is */
	int why_at;      /* the node the note points at */
} grp;

static bool pow2(int64_t v)
{
	return v > 0 && !(v & (v - 1));
}

static int lit_of(const fe_ast *a, int n, int64_t v)
{
	n = fe_strip(a, n);
	return n >= 0 && a->n[n].kind == CXCursor_IntegerLiteral &&
	               a->n[n].is_int && a->n[n].ival == v
	           ? n
	           : -1;
}

/* A const variable (file scope or local) initialised by a literal:
 * that literal's node, else -1. */
static int const_init(const fe_ast *a, int var)
{
	if (var < 0 || a->n[var].kind != CXCursor_VarDecl ||
	    !clang_isConstQualifiedType(clang_getCursorType(a->n[var].cur)) ||
	    fe_assigned(a, var))
		return -1;
	int init = fe_strip(a, fe_var_init(a, var));
	return init >= 0 && a->n[init].kind == CXCursor_IntegerLiteral ? init
	                                                               : -1;
}

/* Node n stands for the number G as the file writes it: a literal (its
 * own, or a macro's body), or a const variable a literal initialises.
 * *b, *e: where the number is written. */
static bool names_g(const fe_ast *a, int n, int64_t G, uint32_t *b, uint32_t *e)
{
	n = fe_strip(a, n);
	if (n < 0)
		return false;
	const fe_node *x = &a->n[n];
	if (x->kind == CXCursor_DeclRefExpr) {
		int l = const_init(a, x->ref);
		if (l < 0 || a->n[l].ival != G || !a->n[l].spelled ||
		    !a->n[l].in_main)
			return false;
		*b = a->n[l].b, *e = a->n[l].e;
		return true;
	}
	if (x->kind != CXCursor_IntegerLiteral || !x->is_int || x->ival != G ||
	    !x->in_main)
		return false;
	if (x->spelled) {
		*b = x->b, *e = x->e;
		return true;
	}
	int64_t v;
	return x->macro >= 0 && fe_macro_int(a, x->macro, &v, b, e) && v == G;
}

static bool fail(grp *g, int at, const char *why)
{
	if (!g->why)
		g->why = why, g->why_at = at;
	return false;
}

static bool tid_x(const fe_ast *a, int n)
{
	return fe_builtin(a, n, "threadIdx") == 'x';
}

/* `for (off = S; off > 0; off /= 2)` (or `off >= 1`, `off >>= 1`) whose
 * body xor-shuffles by off: the loop variable, else -1. */
static int halving_var(const fe_ast *a, int fs)
{
	if (a->n[fs].kind != CXCursor_ForStmt || fe_nchildren(a, fs) != 4)
		return -1;
	int init = fe_child(a, fs, 0), cond = fe_strip(a, fe_child(a, fs, 1));
	int inc = fe_child(a, fs, 2);
	int v = init >= 0 && a->n[init].kind == CXCursor_DeclStmt &&
	                fe_nchildren(a, init) == 1
	            ? a->n[init].first
	            : -1;
	if (v < 0 || a->n[v].kind != CXCursor_VarDecl || cond < 0 || inc < 0 ||
	    a->n[cond].kind != CXCursor_BinaryOperator ||
	    a->n[inc].kind != CXCursor_CompoundAssignOperator)
		return -1;
	int cl = fe_strip(a, fe_child(a, cond, 0));
	bool test = (a->n[cond].op == CXBinaryOperator_GT &&
	             lit_of(a, fe_child(a, cond, 1), 0) >= 0) ||
	            (a->n[cond].op == CXBinaryOperator_GE &&
	             lit_of(a, fe_child(a, cond, 1), 1) >= 0);
	bool step = (a->n[inc].op == CXBinaryOperator_DivAssign &&
	             lit_of(a, fe_child(a, inc, 1), 2) >= 0) ||
	            (a->n[inc].op == CXBinaryOperator_ShrAssign &&
	             lit_of(a, fe_child(a, inc, 1), 1) >= 0);
	int il = fe_strip(a, fe_child(a, inc, 0));
	return test && step && cl >= 0 && a->n[cl].ref == v && il >= 0 &&
	               a->n[il].ref == v
	           ? v
	           : -1;
}

/* The ForStmt whose only declaration is var, or -1. */
static int loop_of_var(const fe_ast *a, int var)
{
	int ds = a->n[var].parent;
	int fs = ds >= 0 ? a->n[ds].parent : -1;
	return fs >= 0 && a->n[fs].kind == CXCursor_ForStmt &&
	               fe_child(a, fs, 0) == ds
	           ? fs
	           : -1;
}

/* `for (i = lane; i < N; i += STEP)`: the `+=`'s step node, else -1. */
static int lane_loop_step(const grp *g, int fs)
{
	const fe_ast *a = g->P->a;
	if (fs < 0 || fe_nchildren(a, fs) != 4)
		return -1;
	int init = fe_child(a, fs, 0), inc = fe_child(a, fs, 2);
	int v = init >= 0 && a->n[init].kind == CXCursor_DeclStmt
	            ? a->n[init].first
	            : -1;
	int s = v >= 0 ? fe_strip(a, fe_var_init(a, v)) : -1;
	if (s < 0 || a->n[s].kind != CXCursor_DeclRefExpr ||
	    a->n[s].ref != g->lane || inc < 0 ||
	    a->n[inc].kind != CXCursor_CompoundAssignOperator ||
	    a->n[inc].op != CXBinaryOperator_AddAssign)
		return -1;
	int il = fe_strip(a, fe_child(a, inc, 0));
	return il >= 0 && a->n[il].ref == v ? fe_child(a, inc, 1) : -1;
}

/* blockIdx.x, maybe cast (`(int64_t)blockIdx.x`). */
static bool block_x(const fe_ast *a, int n)
{
	n = fe_strip(a, n);
	if (n >= 0 && a->n[n].kind == CXCursor_CStyleCastExpr)
		n = fe_strip(a, a->n[n].last);
	return n >= 0 && fe_builtin(a, n, "blockIdx") == 'x';
}

static bool add_edit(grp *g, uint32_t b, uint32_t e, const char *with)
{
	for (size_t i = 0; i < g->edits.len; i++)
		if (g->edits.items[i].range.begin.offset == b)
			return true; /* one number, several uses */
	planner *P = g->P;
	kt_plan_edit x = {kt_fe_make_range(P->f->tu, b, e),
	                  pl_say(P, "%.*s", (int)(e - b), P->c->text + b),
	                  with};
	if (kt_vec_push(&g->edits, x))
		P->oom = 1;
	return true;
}

/* A use of G in the kernel (n is the node that names it): one of the
 * meanings the file's comment lists. */
static bool g_use(grp *g, int n, uint32_t b, uint32_t e)
{
	const fe_ast *a = g->P->a;
	int up = fe_up(a, n);
	const fe_node *u = up >= 0 ? &a->n[up] : NULL;
	bool rhs = u && fe_strip(a, fe_child(a, up, 1)) == fe_strip(a, n);
	if (u && u->kind == CXCursor_BinaryOperator && rhs &&
	    u->op == CXBinaryOperator_Rem && tid_x(a, fe_child(a, up, 0))) {
		int v = fe_up(a, up);
		if (v < 0 || v != g->lane)
			return fail(
			    g, up,
			    "its lane (threadIdx.x %% G) is not the one "
			    "local the loops start from");
		return add_edit(g, b, e, "$");
	}
	if (u && u->kind == CXCursor_BinaryOperator && rhs &&
	    u->op == CXBinaryOperator_Div &&
	    (tid_x(a, fe_child(a, up, 0)) ||
	     fe_builtin(a, fe_child(a, up, 0), "blockDim") == 'x'))
		return add_edit(g, b, e, "$");
	if (u && u->kind == CXCursor_CompoundAssignOperator && rhs &&
	    lane_loop_step(g, fe_up(a, up)) >= 0) {
		g->loops++;
		return add_edit(g, b, e, "$");
	}
	/* the start of the halving loop written as `G / 2` */
	if (u && u->kind == CXCursor_BinaryOperator &&
	    u->op == CXBinaryOperator_Div && !rhs &&
	    lit_of(a, fe_child(a, up, 1), 2) >= 0 && fe_up(a, up) >= 0 &&
	    a->n[fe_up(a, up)].kind == CXCursor_VarDecl &&
	    loop_of_var(a, fe_up(a, up)) >= 0 &&
	    halving_var(a, loop_of_var(a, fe_up(a, up))) == fe_up(a, up))
		return add_edit(g, b, e, "$");
	/* `blockIdx.x * G` where the launch's groups of a block are G too:
	 * that number is theirs, and stays */
	int64_t xv;
	if (u && u->kind == CXCursor_BinaryOperator &&
	    u->op == CXBinaryOperator_Mul && g->x >= 0 &&
	    (block_x(a, fe_child(a, up, 0)) ||
	     block_x(a, fe_child(a, up, 1))) &&
	    pl_fold(g->P, g->x, &xv) && xv == g->G)
		return true;
	/* the width of a shuffle */
	if (u && u->kind == CXCursor_CallExpr &&
	    !strcmp(u->name, "__shfl_xor_sync") && fe_nchildren(a, up) == 5 &&
	    fe_strip(a, fe_child(a, up, 4)) == fe_strip(a, n))
		return add_edit(g, b, e, "$");
	return fail(g, n, "it has another use");
}

/* The value of expression n for the thread threadIdx.x = t: literals,
 * threadIdx.x, arithmetic, comparisons, `?:`, casts and the locals that
 * hold such an expression; false for anything else. */
static bool lane_value(const fe_ast *a, int n, int64_t t, int64_t *v, int depth)
{
	n = fe_strip(a, n);
	if (n < 0 || depth > 16)
		return false;
	const fe_node *x = &a->n[n];
	int64_t l, r;
	if (x->is_int) {
		*v = x->ival;
		return true;
	}
	if (fe_builtin(a, n, "threadIdx") == 'x') {
		*v = t;
		return true;
	}
	switch (x->kind) {
	case CXCursor_CStyleCastExpr:
	case CXCursor_ParenExpr: return lane_value(a, x->last, t, v, depth + 1);
	case CXCursor_DeclRefExpr:
		return x->ref >= 0 && a->n[x->ref].kind == CXCursor_VarDecl &&
		       !fe_assigned(a, x->ref) &&
		       lane_value(a, fe_var_init(a, x->ref), t, v, depth + 1);
	case CXCursor_UnaryOperator:
		if (!lane_value(a, x->first, t, &l, depth + 1))
			return false;
		*v = x->op == CXUnaryOperator_Not     ? ~l
		     : x->op == CXUnaryOperator_LNot  ? !l
		     : x->op == CXUnaryOperator_Minus ? -l
		                                      : l;
		return x->op == CXUnaryOperator_Not ||
		       x->op == CXUnaryOperator_LNot ||
		       x->op == CXUnaryOperator_Minus ||
		       x->op == CXUnaryOperator_Plus;
	case CXCursor_ConditionalOperator:
		return lane_value(a, fe_child(a, n, 0), t, &l, depth + 1) &&
		       lane_value(a, fe_child(a, n, l ? 1 : 2), t, v,
		                  depth + 1);
	case CXCursor_BinaryOperator:
		if (!lane_value(a, fe_child(a, n, 0), t, &l, depth + 1) ||
		    !lane_value(a, fe_child(a, n, 1), t, &r, depth + 1))
			return false;
		switch (x->op) {
		case CXBinaryOperator_Add: *v = l + r; return true;
		case CXBinaryOperator_Sub: *v = l - r; return true;
		case CXBinaryOperator_Mul: *v = l * r; return true;
		case CXBinaryOperator_Div: *v = r ? l / r : 0; return r != 0;
		case CXBinaryOperator_Rem: *v = r ? l % r : 0; return r != 0;
		case CXBinaryOperator_And: *v = l & r; return true;
		case CXBinaryOperator_Or: *v = l | r; return true;
		case CXBinaryOperator_Xor: *v = l ^ r; return true;
		case CXBinaryOperator_Shl:
			*v = r >= 0 && r < 63 ? l << r : 0;
			return r >= 0 && r < 63;
		case CXBinaryOperator_Shr:
			*v = r >= 0 && r < 63 ? l >> r : 0;
			return r >= 0 && r < 63;
		case CXBinaryOperator_LT: *v = l < r; return true;
		case CXBinaryOperator_GT: *v = l > r; return true;
		case CXBinaryOperator_LE: *v = l <= r; return true;
		case CXBinaryOperator_GE: *v = l >= r; return true;
		case CXBinaryOperator_EQ: *v = l == r; return true;
		case CXBinaryOperator_NE: *v = l != r; return true;
		case CXBinaryOperator_LAnd: *v = l && r; return true;
		case CXBinaryOperator_LOr: *v = l || r; return true;
		default: return false;
		}
	default: return false;
	}
}

/* n reads threadIdx, itself or through the initialiser of a local. */
static bool tid_dependent(const fe_ast *a, int n, int depth)
{
	if (n < 0 || depth > 16)
		return false;
	const fe_node *x = &a->n[n];
	if (x->kind == CXCursor_DeclRefExpr && !strcmp(x->name, "threadIdx"))
		return true;
	if (x->kind == CXCursor_DeclRefExpr && x->ref >= 0 &&
	    a->n[x->ref].kind == CXCursor_VarDecl &&
	    tid_dependent(a, fe_var_init(a, x->ref), depth + 1))
		return true;
	for (int c = x->first; c >= 0; c = a->n[c].next)
		if (tid_dependent(a, c, depth + 1))
			return true;
	return false;
}

/* A mask computed from threadIdx (`threadIdx.x % 32 >= 16 ? 0xffff0000 :
 * 0x0000ffff`, SGLang's half warp) holds, for every thread of the first
 * warps, every lane of the thread's aligned group of G: then it holds
 * those of any smaller power-of-two group too. */
static bool mask_holds_groups(const fe_ast *a, int m, int64_t G)
{
	for (int64_t t = 0; t < 128; t++) {
		int64_t v;
		if (!lane_value(a, m, t, &v, 0))
			return false;
		uint64_t want = ((1ull << G) - 1) << ((t % 32) / G * G);
		if (((uint64_t)v & 0xffffffffull & want) != want)
			return false;
	}
	return true;
}

/* How the shuffle's value v is combined: max or min (`v = fmaxf(v,
 * shfl)`: COMB_IDEM), a sum (`v += shfl`, `v = v + shfl`) from a literal
 * zero (COMB_SUM), else COMB_NONE. */
enum { COMB_NONE, COMB_IDEM, COMB_SUM };
static int combine_kind(const grp *g, int call)
{
	const fe_ast *a = g->P->a;
	int val = fe_strip(a, fe_child(a, call, 2));
	if (val < 0 || a->n[val].kind != CXCursor_DeclRefExpr ||
	    a->n[val].ref < 0)
		return COMB_NONE;
	int v = a->n[val].ref, asg = fe_up(a, call), lhs = -1;
	bool compound = false;
	int combine = call;
	while (asg >= 0 && (lhs = fe_assign_lhs(a, asg, &compound)) < 0 &&
	       a->n[asg].kind != CXCursor_CompoundStmt)
		combine = asg, asg = fe_up(a, asg);
	if (lhs < 0 || a->n[lhs].kind != CXCursor_DeclRefExpr ||
	    a->n[lhs].ref != v)
		return COMB_NONE;
	bool sum = compound && a->n[asg].op == CXBinaryOperator_AddAssign &&
	           combine == call;
	if (!compound && combine != call) {
		const fe_node *c = &a->n[combine];
		if (c->kind == CXCursor_BinaryOperator &&
		    c->op == CXBinaryOperator_Add)
			sum = true;
		else if (c->kind == CXCursor_CallExpr &&
		         (!strcmp(c->name, "fmaxf") ||
		          !strcmp(c->name, "fminf") ||
		          !strcmp(c->name, "fmax") ||
		          !strcmp(c->name, "fmin") || !strcmp(c->name, "max") ||
		          !strcmp(c->name, "min")))
			return COMB_IDEM;
		else
			return COMB_NONE;
	} else if (!sum)
		return COMB_NONE;
	int init = fe_strip(a, fe_var_init(a, v));
	return init >= 0 && ((a->n[init].is_int && a->n[init].ival == 0) ||
	                     (a->n[init].is_float && a->n[init].fval == 0))
	           ? COMB_SUM
	           : COMB_NONE;
}

/* The shuffle's value is combined by a call named g->op (`v =
 * fmaxf(v, shfl)`). */
static bool combines_with(const grp *g, int call)
{
	const fe_ast *a = g->P->a;
	int up = fe_up(a, call);
	return combine_kind(g, call) == COMB_IDEM && up >= 0 &&
	       a->n[up].kind == CXCursor_CallExpr &&
	       !strcmp(a->n[up].name, g->op);
}

/* Every shuffle in region (the kernel's body, or a function it calls)
 * reduces a group: an xor shuffle, with a mask that is not a literal
 * narrower than the warp, by a halving loop's variable that starts at G
 * / 2, or by a literal o below G of an unrolled max or min: o becomes
 * `o % TPG`, o itself below TPG and 0 from TPG up (both powers of two):
 * an xor by 0 is the lane's own value, which max and min keep. */
static bool shuffles_reduce(grp *g, int body)
{
	const fe_ast *a = g->P->a;
	for (size_t i = 0; i < a->len; i++) {
		if (a->n[i].kind != CXCursor_CallExpr ||
		    !pl_inside(a, (int)i, body) ||
		    strncmp(a->n[i].name, "__shfl", 6))
			continue;
		int c = (int)i;
		if (strcmp(a->n[c].name, "__shfl_xor_sync") ||
		    fe_nchildren(a, c) < 4)
			return fail(g, c,
			            "a shuffle other than an xor "
			            "reduction of the group");
		int m = fe_strip(a, fe_child(a, c, 1));
		if (m >= 0 && a->n[m].is_int && a->n[m].ival != 0xffffffff)
			return fail(g, c,
			            "a shuffle's mask is a literal "
			            "narrower than the warp");
		if (m >= 0 && tid_dependent(a, m, 0)) {
			if (!mask_holds_groups(a, m, g->G))
				return fail(g, c,
				            "a shuffle's mask, computed from "
				            "threadIdx, leaves out lanes of a "
				            "thread's group");
			/* it holds G-lane groups, not wider ones */
			g->max_tpg = g->max_tpg < g->G ? g->max_tpg : g->G;
		}
		int off = fe_strip(a, fe_child(a, c, 3));
		int64_t o = off >= 0 && a->n[off].is_int ? a->n[off].ival : 0;
		if (pow2(o) && o < g->G && a->n[off].spelled &&
		    a->n[off].in_main) {
			if (combine_kind(g, c) != COMB_IDEM ||
			    (g->op && !combines_with(g, c)))
				return fail(
				    g, c,
				    "an unrolled shuffle whose value is "
				    "not a max or a min");
			add_edit(g, a->n[off].b, a->n[off].e,
			         pl_say(g->P, "(%lld %% $)", (long long)o));
			g->steps |= o;
			g->max_tpg = g->G;
			g->shuffles++;
			continue;
		}
		int v = off >= 0 && a->n[off].kind == CXCursor_DeclRefExpr
		            ? a->n[off].ref
		            : -1;
		int fs = v >= 0 ? loop_of_var(a, v) : -1;
		if (fs < 0 || halving_var(a, fs) != v)
			return fail(g, c, "a shuffle not in a halving loop");
		int s = fe_strip(a, fe_var_init(a, v));
		uint32_t b, e;
		if (lit_of(a, s, g->G / 2) >= 0 && a->n[s].spelled &&
		    a->n[s].in_main)
			add_edit(g, a->n[s].b, a->n[s].e, "($ / 2)");
		else if (!(s >= 0 && a->n[s].kind == CXCursor_BinaryOperator &&
		           a->n[s].op == CXBinaryOperator_Div &&
		           names_g(a, fe_child(a, s, 0), g->G, &b, &e) &&
		           lit_of(a, fe_child(a, s, 1), 2) >= 0))
			return fail(g, c,
			            "a shuffle loop that does not start "
			            "at half the group");
		if (combine_kind(g, c) == COMB_NONE ||
		    (g->op && !combines_with(g, c)))
			return fail(g, c,
			            "a shuffle whose value is not a "
			            "max, a min or a sum from zero");
		g->shuffles++;
	}
	return true;
}

/* The k-th parameter (from 0) of function f is never read. */
static bool unused_param(const fe_ast *a, int f, int k)
{
	int p = -1;
	for (int c = a->n[f].first, i = 0; c >= 0 && p < 0; c = a->n[c].next)
		if (a->n[c].kind == CXCursor_ParmDecl && i++ == k)
			p = c;
	if (p < 0)
		return false;
	for (size_t i = 0; i < a->len; i++)
		if (a->n[i].kind == CXCursor_DeclRefExpr && a->n[i].ref == p)
			return false;
	return true;
}

/* Inside n, threadIdx is read only to make shuffles' masks: within a
 * shuffle's first argument, or in the initialiser of a local that is
 * only ever such an argument. */
static bool threadidx_in_masks(const fe_ast *a, int n)
{
	for (size_t i = 0; i < a->len; i++) {
		if (a->n[i].kind != CXCursor_DeclRefExpr ||
		    strcmp(a->n[i].name, "threadIdx") ||
		    !pl_inside(a, (int)i, n))
			continue;
		int up = (int)i, var = -1;
		bool in_mask = false;
		for (; up >= 0 && up != n && !in_mask && var < 0;
		     up = a->n[up].parent) {
			int p = a->n[up].parent;
			in_mask = p >= 0 && a->n[p].kind == CXCursor_CallExpr &&
			          !strncmp(a->n[p].name, "__shfl", 6) &&
			          fe_child(a, p, 1) == up;
			if (a->n[up].kind == CXCursor_VarDecl)
				var = up;
		}
		if (in_mask)
			continue;
		if (var < 0 || fe_assigned(a, var))
			return false;
		for (size_t k = 0; k < a->len; k++) {
			if (a->n[k].kind != CXCursor_DeclRefExpr ||
			    a->n[k].ref != var)
				continue;
			int q = a->n[k].parent;
			while (q >= 0 && a->n[q].kind == CXCursor_UnexposedExpr)
				q = a->n[q].parent;
			int arg = q >= 0 ? a->n[k].parent : -1;
			if (q < 0 || a->n[q].kind != CXCursor_CallExpr ||
			    strncmp(a->n[q].name, "__shfl", 6) ||
			    !(fe_child(a, q, 1) == (int)k ||
			      fe_child(a, q, 1) == arg))
				return false;
		}
	}
	return true;
}

/* The functions of the file the kernel calls that shuffle or read
 * threadIdx: each reduces the group with shuffles (shuffles_reduce),
 * reads no threadIdx, and only this kernel calls it (its edits are the
 * kernel's). */
static bool group_fns(grp *g, int body)
{
	const fe_ast *a = g->P->a;
	for (size_t i = 0; i < a->len; i++) {
		if (a->n[i].kind != CXCursor_CallExpr ||
		    !pl_inside(a, (int)i, body) || a->n[i].ref < 0)
			continue;
		int f = a->n[i].ref;
		if (!a->n[f].in_main || a->n[f].first < 0 ||
		    (!pl_has_call(a, f, "__shfl") &&
		     !fe_mentions(a, f, "threadIdx")))
			continue;
		if (!threadidx_in_masks(a, f))
			return fail(g, (int)i,
			            "it calls a function that reads threadIdx "
			            "other than for a shuffle's mask");
		for (size_t k = 0; k < a->len; k++)
			if (a->n[k].kind == CXCursor_CallExpr &&
			    a->n[k].ref == f && !pl_inside(a, (int)k, body))
				return fail(
				    g, (int)k,
				    "a function that reduces its group is "
				    "called from elsewhere too");
		if (!shuffles_reduce(g, f))
			return false;
	}
	return true;
}

/* The lane's uses: loop starts of loops stepping by G, `lane == 0`. */
static bool lane_uses(grp *g, int body)
{
	const fe_ast *a = g->P->a;
	for (size_t i = 0; i < a->len; i++) {
		if (a->n[i].kind != CXCursor_DeclRefExpr ||
		    a->n[i].ref != g->lane || !pl_inside(a, (int)i, body))
			continue;
		int up = fe_up(a, (int)i);
		if (up >= 0 && a->n[up].kind == CXCursor_VarDecl) {
			int step = lane_loop_step(g, loop_of_var(a, up));
			uint32_t b, e;
			if (step >= 0 && names_g(a, step, g->G, &b, &e))
				continue;
			return fail(g, (int)i,
			            "the lane starts a loop that does not step "
			            "by the group");
		}
		if (up >= 0 && a->n[up].kind == CXCursor_BinaryOperator &&
		    (a->n[up].op == CXBinaryOperator_EQ ||
		     a->n[up].op == CXBinaryOperator_NE) &&
		    (lit_of(a, fe_child(a, up, 0), 0) >= 0 ||
		     lit_of(a, fe_child(a, up, 1), 0) >= 0))
			continue;
		/* an argument the called function never reads (SGLang's
		 * GroupReduceMax(val, tid)) */
		int call = up;
		while (call >= 0 && a->n[call].kind == CXCursor_UnexposedExpr)
			call = a->n[call].parent;
		int k = -1;
		for (int w = 1;
		     call >= 0 && a->n[call].kind == CXCursor_CallExpr &&
		     w < fe_nwritten(a, call) && k < 0;
		     w++)
			if (fe_strip(a, fe_written(a, call, w)) == (int)i)
				k = w - 1;
		if (k >= 0 && a->n[call].ref >= 0 &&
		    a->n[a->n[call].ref].in_main &&
		    unused_param(a, a->n[call].ref, k))
			continue;
		return fail(g, (int)i,
		            "the lane is used other than to start "
		            "the group's loops or to pick lane 0");
	}
	return true;
}

/* Where G is written once for several uses (a macro, a const
 * variable), every use lies in the kernel or in the launch's block
 * expression `blk`: else the edit would change other code too. */
static bool confined(grp *g, int blk)
{
	const fe_ast *a = g->P->a;
	for (size_t k = 0; k < g->edits.len; k++) {
		uint32_t at = g->edits.items[k].range.begin.offset;
		for (size_t i = 0; i < a->len; i++) {
			uint32_t b, e;
			const fe_node *x = &a->n[i];
			if ((x->kind != CXCursor_IntegerLiteral &&
			     x->kind != CXCursor_DeclRefExpr) ||
			    (x->spelled && x->b == at) ||
			    !names_g(a, (int)i, g->G, &b, &e) || b != at ||
			    pl_inside(a, (int)i, g->K->body) ||
			    (blk >= 0 && pl_inside(a, (int)i, blk)))
				continue;
			return fail(
			    g, (int)i,
			    "the number is written once for code outside "
			    "the kernel and its launch's block too");
		}
	}
	return true;
}

/* A launch's block operand through locals and a one-dimensional `dim3
 * block(threads)`: the expression that computes it. */
static int block_expr(const fe_ast *a, const fe_launch *L)
{
	int n = L->op[1] >= 0 ? fe_strip(a, L->op[1]) : -1;
	for (int hop = 0; n >= 0 && hop < 4; hop++) {
		if (a->n[n].kind == CXCursor_DeclRefExpr && a->n[n].ref >= 0 &&
		    a->n[a->n[n].ref].kind == CXCursor_VarDecl)
			n = fe_strip(a,
			             fe_def_before(a, a->n[n].ref, a->n[n].b));
		else if (a->n[n].kind == CXCursor_CallExpr &&
		         !strcmp(a->n[n].name, "dim3") &&
		         fe_nwritten(a, n) >= 1 &&
		         (fe_nwritten(a, n) < 2 ||
		          lit_of(a, fe_written(a, n, 1), 1) >= 0) &&
		         (fe_nwritten(a, n) < 3 ||
		          lit_of(a, fe_written(a, n, 2), 1) >= 0))
			n = fe_strip(a, fe_written(a, n, 0));
		else
			break;
	}
	return n;
}

/* The launch's block `X * G` (through locals, block_expr): the node
 * naming G and X; false when it is not that. */
static bool block_of_groups(grp *g, const fe_launch *L, int *gn, int *x)
{
	const fe_ast *a = g->P->a;
	int n = block_expr(a, L);
	if (n < 0 || a->n[n].kind != CXCursor_BinaryOperator ||
	    a->n[n].op != CXBinaryOperator_Mul)
		return false;
	/* both factors may be G (`groups_per_block * 16`, 16 groups of
	 * 16): the one written as the kernel's lane writes G, else the
	 * literal */
	uint32_t b[2], e[2], lb = 0, le;
	bool is[2];
	int lg = fe_strip(a, fe_child(a, fe_var_init(a, g->lane), 1));
	names_g(a, lg, g->G, &lb, &le);
	for (int k = 0; k < 2; k++)
		is[k] = names_g(a, fe_child(a, n, k), g->G, &b[k], &e[k]);
	int k = !is[0] && !is[1] ? -1 : !is[0] ? 1 : !is[1] ? 0 : -2;
	for (int j = 0; k == -2 && j < 2; j++)
		if (b[j] == lb)
			k = j;
	for (int j = 0; k == -2 && j < 2; j++)
		if (a->n[fe_strip(a, fe_child(a, n, j))].kind ==
		    CXCursor_IntegerLiteral)
			k = j;
	if (k < 0)
		return false;
	*gn = fe_child(a, n, k);
	*x = fe_child(a, n, 1 - k);
	return add_edit(g, b[k], e[k], "$");
}

/* `E % P == 0`, P a literal power of two from 2: P, and E in *e; else
 * 0. */
static int64_t divides(const fe_ast *a, int c, int *e)
{
	c = fe_strip(a, c);
	if (c < 0 || a->n[c].kind != CXCursor_BinaryOperator ||
	    a->n[c].op != CXBinaryOperator_EQ ||
	    lit_of(a, fe_child(a, c, 1), 0) < 0)
		return 0;
	int r = fe_strip(a, fe_child(a, c, 0));
	int p = r >= 0 && a->n[r].kind == CXCursor_BinaryOperator &&
	                a->n[r].op == CXBinaryOperator_Rem
	            ? fe_strip(a, fe_child(a, r, 1))
	            : -1;
	if (p < 0 || !a->n[p].is_int || !pow2(a->n[p].ival) || a->n[p].ival < 2)
		return 0;
	*e = fe_strip(a, fe_child(a, r, 0));
	return a->n[p].ival;
}

/* Nodes written alike (`n` in every step of a ladder). */
static bool same_text(const fe_ast *a, int x, int y)
{
	size_t l1, l2;
	const char *t1 = fe_text(a, x, &l1), *t2 = fe_text(a, y, &l2);
	return t1 && t2 && l1 == l2 && !memcmp(t1, t2, l1);
}

/* `E % P == 0 ? P : E % (P/2) == 0 ? P/2 : ... : 1` down to 2 then 1,
 * P at least 4: P, and E in *e. */
static int64_t ladder(const fe_ast *a, int n, int *e)
{
	n = fe_strip(a, n);
	if (n < 0 || a->n[n].kind != CXCursor_ConditionalOperator)
		return 0;
	int64_t P = divides(a, fe_child(a, n, 0), e);
	if (!P || lit_of(a, fe_child(a, n, 1), P) < 0)
		return 0;
	int f = fe_child(a, n, 2), e2;
	if (P == 2)
		return lit_of(a, f, 1) >= 0 ? 2 : 0;
	return ladder(a, f, &e2) == P / 2 && same_text(a, *e, e2) ? P : 0;
}

/* `X = v;` (braced or not) with X var: true. */
static bool sets_to(const fe_ast *a, int s, int var, int64_t v)
{
	if (s >= 0 && a->n[s].kind == CXCursor_CompoundStmt &&
	    fe_nchildren(a, s) == 1)
		s = a->n[s].first;
	s = fe_strip(a, s);
	if (s < 0 || a->n[s].kind != CXCursor_BinaryOperator ||
	    a->n[s].op != CXBinaryOperator_Assign)
		return false;
	int l = fe_strip(a, fe_child(a, s, 0));
	return l >= 0 && a->n[l].kind == CXCursor_DeclRefExpr &&
	       a->n[l].ref == var && lit_of(a, fe_child(a, s, 1), v) >= 0;
}

/* How many times var is written other than by its initialiser, or -1
 * where it is written other than by `=` or has its address taken. */
static int writes_of(const fe_ast *a, int var)
{
	int k = 0;
	for (size_t i = 0; i < a->len; i++) {
		if (a->n[i].kind != CXCursor_DeclRefExpr || a->n[i].ref != var)
			continue;
		int up = fe_up(a, (int)i);
		if (up < 0)
			continue;
		const fe_node *u = &a->n[up];
		bool lhs = fe_strip(a, fe_child(a, up, 0)) == (int)i;
		if (u->kind == CXCursor_BinaryOperator &&
		    u->op == CXBinaryOperator_Assign && lhs)
			k++;
		else if ((u->kind == CXCursor_CompoundAssignOperator && lhs) ||
		         (u->kind == CXCursor_UnaryOperator &&
		          u->op != CXUnaryOperator_Minus &&
		          u->op != CXUnaryOperator_Plus &&
		          u->op != CXUnaryOperator_Not &&
		          u->op != CXUnaryOperator_LNot))
			return -1;
	}
	return k;
}

int64_t pl_chain_ladder(const fe_ast *a, int var, int *e, int *ifs)
{
	if (var < 0 || a->n[var].kind != CXCursor_VarDecl ||
	    lit_of(a, fe_var_init(a, var), 1) < 0)
		return 0;
	int stmt = a->n[var].parent;
	if (stmt < 0 || a->n[stmt].kind != CXCursor_DeclStmt ||
	    a->n[stmt].first != var || a->n[var].next >= 0)
		return 0;
	int s = a->n[stmt].next;
	*ifs = s;
	int64_t top = 0, want = 0;
	int n = 0, e0 = -1;
	while (s >= 0 && a->n[s].kind == CXCursor_IfStmt) {
		int nc = fe_nchildren(a, s), ei = -1;
		int64_t P =
		    nc == 2 || nc == 3 ? divides(a, fe_child(a, s, 0), &ei) : 0;
		/* each step half the one before, E written alike in each */
		if (!P || (want && P != want) ||
		    !sets_to(a, fe_child(a, s, 1), var, P) ||
		    (e0 >= 0 && !same_text(a, e0, ei)))
			return 0;
		e0 = ei;
		if (!top)
			top = P;
		want = P / 2;
		n++;
		s = nc == 3 ? fe_child(a, s, 2) : -1;
		if (want == 1 && s >= 0) { /* `else X = 1;` */
			if (!sets_to(a, s, var, 1))
				return 0;
			n++;
			s = -1;
		}
		if (want == 1)
			break;
	}
	if (want != 1 || s >= 0 || top < 4 || writes_of(a, var) != n)
		return 0;
	*e = e0;
	return top;
}

/* X, the block's groups: a ladder (through a local), as written in the
 * file, not in a macro, or the if-chain that sets the local (its `X =
 * ...` then in the refactor's index_var): the GPB refactor. */
static int groups_per_block(grp *g, int x, int tpg)
{
	planner *P = g->P;
	const fe_ast *a = P->a;
	int n = fe_strip(a, x), var = -1, ifs = -1;
	if (n >= 0 && a->n[n].kind == CXCursor_DeclRefExpr &&
	    a->n[n].ref >= 0 && a->n[a->n[n].ref].kind == CXCursor_VarDecl) {
		var = a->n[n].ref;
		n = fe_strip(a, fe_def_before(a, var, a->n[n].b));
	}
	int e;
	int64_t top = n >= 0 ? ladder(a, n, &e) : 0;
	if (!top && var >= 0 && (top = pl_chain_ladder(a, var, &e, &ifs)))
		n = ifs;
	else
		var = -1;
	if (top < 4 || n < 0 || !a->n[n].spelled || !a->n[n].in_main)
		return KT_OK;
	int64_t v[12];
	size_t nv = 0;
	for (int64_t w = 1; w <= 64; w *= 2)
		v[nv++] = w;
	if (top > 64)
		v[nv++] = top;
	const fe_kern *K = g->K;
	int p = pl_add_param(P, pl_unique_name(P, "GPB", K->name),
	                     KT_ROLE_OTHER, pl_dup(P, K->name), top, v, nv);
	kt_plan_edit *ed = kt_plan_alloc(P->plan, sizeof(*ed));
	if (p < 0 || !ed)
		return KT_ENOMEM;
	const char *name = P->params.items[p].p.name;
	const char *et = pl_src(P, e);
	kt_str op = KT_STR_INIT; /* E as an operand: `(a * b)`, `groups` */
	pl_operand(et, &op);
	const char *E = pl_say(P, "%s", op.ptr ? op.ptr : et);
	kt_str_release(&op);
	CXString ts = clang_getTypeSpelling(
	    clang_getCursorType(a->n[var >= 0 ? var : n].cur));
	const char *type = pl_say(P, "%s", clang_getCString(ts));
	clang_disposeString(ts);
	ed->range = pl_range(P, n);
	ed->text = pl_src(P, n);
	ed->with = name;
	P->params.items[p].p.evidence = pl_say(
	    P,
	    "'%s''s launch gives a block the largest power of two up to %lld "
	    "that divides '%s', the groups of %s threads",
	    K->name, (long long)top, et, pl_src(P, tpg));
	kt_plan_refactor r = {
	    .kind = KT_REFACTOR_GROUPS_PER_BLOCK,
	    .kernel = pl_dup(P, K->name),
	    .param = name,
	    .region = pl_range(P, n),
	    .edits = ed,
	    .nedits = 1,
	    .index_var = var >= 0 ? pl_dup(P, a->n[var].name) : NULL,
	    .bound = E,
	    .elem_type = type,
	    .launch = 0,
	    .note = "GPB: a block takes the largest power of two up to GPB "
	            "that divides the count (the original's ladder at its "
	            "top)"};
	pl_add_refactor(P, r);
	return P->oom ? KT_ENOMEM : KT_OK;
}

/* The lane local of the kernel: `L = threadIdx.x % G` with G a power of
 * two from 2 to 32 (as names_g reads it); -1 when there is none. */
static int find_lane(grp *g, int body)
{
	const fe_ast *a = g->P->a;
	for (size_t i = 0; i < a->len; i++) {
		if (a->n[i].kind != CXCursor_VarDecl ||
		    !pl_inside(a, (int)i, body))
			continue;
		int r = fe_strip(a, fe_var_init(a, (int)i));
		if (r < 0 || a->n[r].kind != CXCursor_BinaryOperator ||
		    a->n[r].op != CXBinaryOperator_Rem ||
		    !tid_x(a, fe_child(a, r, 0)))
			continue;
		int n = fe_strip(a, fe_child(a, r, 1));
		int64_t G = n < 0 ? 0
		            : a->n[n].kind == CXCursor_DeclRefExpr
		                ? -1
		                : a->n[n].ival;
		if (G == -1 && const_init(a, a->n[n].ref) >= 0)
			G = a->n[const_init(a, a->n[n].ref)].ival;
		uint32_t b, e;
		if (pow2(G) && G >= 2 && G <= 32 && names_g(a, n, G, &b, &e)) {
			g->G = G;
			return (int)i;
		}
	}
	return -1;
}

/* Every node in the kernel that names G is a use g_use accepts. */
static bool every_use(grp *g, int body)
{
	const fe_ast *a = g->P->a;
	for (size_t i = 0; i < a->len; i++) {
		uint32_t b, e;
		if (!pl_inside(a, (int)i, body) ||
		    (a->n[i].kind != CXCursor_IntegerLiteral &&
		     a->n[i].kind != CXCursor_DeclRefExpr) ||
		    !names_g(a, (int)i, g->G, &b, &e))
			continue;
		/* another parameter's (the groups of a block, 16 too):
		 * that parameter gives it its meaning */
		if (pl_text_taken(g->P, b, e) &&
		    a->n[i].kind == CXCursor_IntegerLiteral && a->n[i].spelled)
			continue;
		/* a const local that holds G is its declaration, not a use */
		int up = fe_up(a, (int)i);
		if (up >= 0 && a->n[up].kind == CXCursor_VarDecl &&
		    const_init(a, up) == (int)i)
			continue;
		/* bytes, not threads: the 16 of `16 / sizeof(T)`, a vector's
		 * elements (a literal, not a name that may be G's) */
		if (a->n[i].kind == CXCursor_IntegerLiteral && up >= 0 &&
		    a->n[up].kind == CXCursor_BinaryOperator &&
		    a->n[up].op == CXBinaryOperator_Div &&
		    fe_strip(a, fe_child(a, up, 0)) == (int)i &&
		    fe_strip(a, fe_child(a, up, 1)) >= 0 &&
		    a->n[fe_strip(a, fe_child(a, up, 1))].kind ==
		        CXCursor_UnaryExpr)
			continue;
		if (!g_use(g, (int)i, b, e))
			return false;
	}
	return true;
}

static void note(planner *P, int n, const char *why, int64_t G)
{
	kt_range r = pl_range(P, n);
	char msg[256];
	snprintf(msg, sizeof msg,
	         "a group of %lld threads per task is not made a parameter "
	         "(threads_per_group): %s",
	         (long long)G, why);
	kt_diags_add(P->d, KT_DIAG_NOTE, P->c->path, P->c->text, r.begin.line,
	             r.begin.col, (int)(r.end.offset - r.begin.offset), "%s",
	             msg);
}

/* Every threadIdx.x of the kernel is the lane's `% G` or the group's
 * `/ G`: a group index spelled otherwise (`threadIdx.x >> 4`) would not
 * follow TPG. */
static bool tid_is_lane_or_group(grp *g, int body)
{
	const fe_ast *a = g->P->a;
	for (size_t i = 0; i < a->len; i++) {
		if (a->n[i].kind != CXCursor_MemberRefExpr ||
		    !pl_inside(a, (int)i, body) || !tid_x(a, (int)i))
			continue;
		int up = fe_up(a, (int)i);
		uint32_t b, e;
		if (up >= 0 && a->n[up].kind == CXCursor_BinaryOperator &&
		    (a->n[up].op == CXBinaryOperator_Rem ||
		     a->n[up].op == CXBinaryOperator_Div) &&
		    fe_strip(a, fe_child(a, up, 0)) == (int)i &&
		    names_g(a, fe_child(a, up, 1), g->G, &b, &e))
			continue;
		return fail(g, (int)i,
		            "threadIdx.x is used other than for the lane (% G) "
		            "and the group (/ G)");
	}
	return true;
}

/* Every check of the file's comment on g's kernel (its lane found):
 * the launch's factors in *gn (G) and g->x; false with g->why set. */
static bool sound(grp *g, int *gn)
{
	const fe_ast *a = g->P->a;
	const fe_kern *K = g->K;
	int body = K->body, x = -1;
	/* several launches (a dispatch over types, a macro expanded per
	 * branch) all with the one block expression: one edit serves them */
	bool one = K->launches.len >= 1;
	for (size_t i = 0; one && i < K->launches.len; i++)
		one = K->launches.items[i].shared < 0 &&
		      block_expr(a, &K->launches.items[i]) ==
		          block_expr(a, &K->launches.items[0]);
	if (!one || !block_of_groups(g, &K->launches.items[0], gn, &x))
		return fail(g, g->lane,
		            "its launch's block is not the groups of a block "
		            "times the group");
	g->x = x;
	if (fe_assigned(a, g->lane))
		return fail(g, g->lane, "the lane is assigned");
	if (!tid_is_lane_or_group(g, body) || !every_use(g, body) ||
	    !lane_uses(g, body) || !shuffles_reduce(g, body) ||
	    !group_fns(g, body) || !confined(g, fe_up(a, *gn)))
		return false;
	if (g->steps && g->steps != g->G - 1)
		return fail(g, g->lane,
		            "its unrolled shuffles do not take every step "
		            "below the group");
	if (!g->loops || !g->shuffles)
		return fail(g, g->lane,
		            "no loop of the lane's that steps by the group, "
		            "or no shuffle reduction of the group");
	for (size_t i = 0; i < g->edits.len; i++)
		if (pl_text_taken(g->P, g->edits.items[i].range.begin.offset,
		                  g->edits.items[i].range.end.offset))
			return fail(g, g->lane,
			            "another parameter edits its text");
	return true;
}

/* The TPG parameter and its refactor, the edits' `$` its name. */
static int add_tpg(grp *g)
{
	planner *P = g->P;
	const fe_kern *K = g->K;
	int64_t v[6];
	size_t nv = 0;
	for (int64_t w = 2; w <= g->max_tpg; w *= 2)
		v[nv++] = w;
	int p = pl_add_param(P, pl_unique_name(P, "TPG", K->name),
	                     KT_ROLE_OTHER, pl_dup(P, K->name), g->G, v, nv);
	kt_plan_edit *ed = kt_plan_alloc(P->plan, g->edits.len * sizeof(*ed));
	if (p < 0 || !ed)
		return KT_ENOMEM;
	const char *name = P->params.items[p].p.name;
	for (size_t i = 0; i < g->edits.len; i++) {
		ed[i] = g->edits.items[i];
		kt_str w = KT_STR_INIT;
		for (const char *c = ed[i].with; *c; c++)
			if (*c == '$')
				kt_str_adds(&w, name);
			else
				kt_str_addc(&w, *c);
		ed[i].with = pl_say(P, "%s", w.ptr ? w.ptr : "");
		kt_str_release(&w);
	}
	P->params.items[p].p.evidence = pl_say(
	    P,
	    "'%s' gives each group of %lld threads one task (lane "
	    "threadIdx.x %% %lld, loops stepping by it, an xor-shuffle "
	    "reduction from %lld); the launch's block is groups times it",
	    K->name, (long long)g->G, (long long)g->G, (long long)g->G / 2);
	kt_plan_refactor r = {
	    .kind = KT_REFACTOR_THREADS_PER_GROUP,
	    .kernel = pl_dup(P, K->name),
	    .param = name,
	    .region = pl_range(P, K->body),
	    .edits = ed,
	    .nedits = g->edits.len,
	    .launch = 0,
	    .note = "TPG threads per group: the lane, the group, the loops' "
	            "step, the shuffle reduction and the block follow it"};
	pl_add_refactor(P, r);
	return P->oom ? KT_ENOMEM : KT_OK;
}

int pl_group_refactors(planner *P, int k)
{
	const fe_kern *K = &P->f->kernels.items[k];
	grp g = {.P = P, .K = K, .x = -1, .max_tpg = 32};
	g.lane = find_lane(&g, K->body);
	if (g.lane < 0 || P->a->tu->opencl)
		return KT_OK;
	int gn = -1;
	bool ok = sound(&g, &gn);
	/* a warp's lane (G = 32) is most often a block reduction's, not a
	 * group's: no note for it */
	if (!ok && !P->oom && g.why && g.G < 32)
		note(P, g.why_at, g.why, g.G);
	int rc = ok && !P->oom ? add_tpg(&g) : P->oom ? KT_ENOMEM : KT_OK;
	kt_vec_release(&g.edits);
	if (rc || !ok)
		return rc;
	return g.x >= 0 ? groups_per_block(&g, g.x, gn) : KT_OK;
}

bool pl_group_combines(planner *P, int body, int var, int64_t S, const char *op,
                       uint32_t after)
{
	const fe_ast *a = P->a;
	if (!pow2(S) || S < 2 || S > 32)
		return false;
	int n = -1;
	for (size_t i = 0; i < a->len && n < 0; i++)
		if (a->n[i].kind == CXCursor_DeclRefExpr &&
		    a->n[i].ref == var && a->n[i].b >= after &&
		    pl_inside(a, (int)i, body))
			n = (int)i;
	if (n < 0)
		return false;
	grp g = {.P = P, .G = S, .x = -1, .max_tpg = 32, .op = op};
	int region = -1;
	/* in a halving loop of the body: the loop (its start S / 2) */
	for (int up = a->n[n].parent; up >= 0 && up != body && region < 0;
	     up = a->n[up].parent)
		if (a->n[up].kind == CXCursor_ForStmt &&
		    halving_var(a, up) >= 0)
			region = up;
	/* `var = f(var)`: f's unrolled shuffles */
	bool compound = false;
	int asg = n, lhs = -1;
	while (region < 0 && asg >= 0 &&
	       (lhs = fe_assign_lhs(a, asg, &compound)) < 0 &&
	       a->n[asg].kind != CXCursor_CompoundStmt)
		asg = fe_up(a, asg);
	int call = region < 0 && lhs >= 0 && a->n[lhs].ref == var && !compound
	               ? fe_strip(a, fe_child(a, asg, 1))
	               : -1;
	int f = call >= 0 && a->n[call].kind == CXCursor_CallExpr
	            ? a->n[call].ref
	            : -1;
	int arg = f >= 0 && fe_nwritten(a, call) >= 2
	              ? fe_strip(a, fe_written(a, call, 1))
	              : -1;
	for (int w = 2; arg >= 0 && w < fe_nwritten(a, call); w++)
		if (!unused_param(a, f, w - 1))
			arg = -1;
	if (f >= 0 && a->n[f].in_main && a->n[f].first >= 0 && arg >= 0 &&
	    a->n[arg].kind == CXCursor_DeclRefExpr && a->n[arg].ref == var)
		region = f;
	bool ok = region >= 0 && threadidx_in_masks(a, region) &&
	          pl_has_call(a, region, "__shfl") &&
	          shuffles_reduce(&g, region) &&
	          (g.steps == S - 1 ||
	           (!g.steps && a->n[region].kind == CXCursor_ForStmt));
	kt_vec_release(&g.edits);
	return ok && !P->oom;
}
