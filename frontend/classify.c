/*
 * classify.c - what each literal inside a kernel means.
 *
 * A literal is tied to a launch value only when its context says so, not
 * by its value alone: the stride of a loop that starts at threadIdx.x, the
 * multiplier of blockIdx.x, a shared array with one slot per thread, the
 * bound of a loop over the block, `256 / 32` warps. A literal with the
 * right value in another context stays a literal, listed with a reason.
 * `#pragma unroll N` and `__launch_bounds__` are found in the kernel's
 * tokens (libclang has no cursor for them).
 */
#include "frontend/find.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------- for loops */

typedef struct for_parts {
	int init, cond, inc, body; /* nodes or -1 */
} for_parts;

/* Splits a ForStmt's children by the header's `;` tokens. */
static for_parts split_for(finder *F, int n)
{
	fe_ast *a = F->a;
	for_parts p = {-1, -1, -1, -1};
	CXToken *t = NULL;
	unsigned nt = 0;
	clang_tokenize(F->tu->tu, clang_getCursorExtent(a->n[n].cur), &t, &nt);
	uint32_t semi[2] = {0, 0}, close = 0;
	int depth = 0, ns = 0;
	for (unsigned i = 0; i < nt && !close; i++) {
		CXString s = clang_getTokenSpelling(F->tu->tu, t[i]);
		const char *sp = clang_getCString(s);
		uint32_t off;
		kt_fe_offset(F->tu, clang_getTokenLocation(F->tu->tu, t[i]),
		             &off);
		if (!strcmp(sp, "("))
			depth++;
		else if (!strcmp(sp, ")") && --depth == 0)
			close = off;
		else if (!strcmp(sp, ";") && depth == 1 && ns < 2)
			semi[ns++] = off;
		clang_disposeString(s);
	}
	clang_disposeTokens(F->tu->tu, t, nt);
	for (int c = a->n[n].first; c >= 0 && ns == 2; c = a->n[c].next) {
		uint32_t b = a->n[c].b;
		if (b < semi[0])
			p.init = c;
		else if (b < semi[1])
			p.cond = c;
		else if (b < close)
			p.inc = c;
		else
			p.body = c;
	}
	return p;
}

/* The kernel body's ForStmt nodes are few; each is split on demand. */
static bool in_part(const fe_ast *a, int part, int n)
{
	return part >= 0 && a->n[n].b >= a->n[part].b &&
	       a->n[n].e <= a->n[part].e;
}

/* True when x mentions threadIdx, directly or through a local variable
 * initialised from it (`lane = threadIdx.x % 16`). */
static bool thread_derived(const fe_ast *a, int x)
{
	if (x < 0)
		return false;
	if (fe_mentions(a, x, "threadIdx"))
		return true;
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *r = &a->n[i];
		if (r->kind == CXCursor_DeclRefExpr && r->ref >= 0 &&
		    a->n[r->ref].kind == CXCursor_VarDecl &&
		    r->b >= a->n[x].b && r->e <= a->n[x].e &&
		    a->n[r->ref].last >= 0 &&
		    fe_mentions(a, a->n[r->ref].last, "threadIdx"))
			return true;
	}
	return false;
}

/* ------------------------------------------------------------ context */

typedef struct ctx {
	const char *why; /* evidence when tied to the block */
	bool tied, blockidx, arith;
	bool half; /* the start of a halving loop over thread indices */
} ctx;

static int other_operand(const fe_ast *a, int p, int n)
{
	int l = fe_child(a, p, 0), r = fe_child(a, p, 1);
	if (l >= 0 && a->n[n].b >= a->n[l].b && a->n[n].e <= a->n[l].e)
		return r;
	return l;
}

static bool is_lhs(const fe_ast *a, int p, int n)
{
	int l = fe_child(a, p, 0);
	return l >= 0 && a->n[n].b >= a->n[l].b && a->n[n].e <= a->n[l].e;
}

/* An Add above a Mul chain whose other side mentions threadIdx. */
static bool beside_thread(const fe_ast *a, int p)
{
	for (int up = fe_up(a, p); up >= 0; p = up, up = fe_up(a, up)) {
		if (a->n[up].kind != CXCursor_BinaryOperator)
			return false;
		int op = a->n[up].op;
		if (op == CXBinaryOperator_Add &&
		    thread_derived(a, other_operand(a, up, p)))
			return true;
		if (op != CXBinaryOperator_Mul && op != CXBinaryOperator_Add)
			return false;
	}
	return false;
}

static bool var_is_array(const fe_ast *a, int var)
{
	CXType t = clang_getCursorType(a->n[var].cur);
	return t.kind == CXType_ConstantArray;
}

static bool is_shared(const fe_ast *a, int var)
{
	for (int c = a->n[var].first; c >= 0; c = a->n[c].next)
		if (a->n[c].kind == CXCursor_CUDASharedAttr)
			return true;
	return false;
}

/* Node n (under a DeclRefExpr or not) names variable v. */
static bool names_var(const fe_ast *a, int n, int v)
{
	n = fe_strip(a, n);
	return n >= 0 && a->n[n].kind == CXCursor_DeclRefExpr &&
	       a->n[n].ref == v;
}

/* Statement inc halves v: `v >>= 1`, `v /= 2`, `v = v / 2`, `v = v >> 1`. */
static bool halves(const fe_ast *a, int inc, int v)
{
	bool compound;
	int lhs = inc >= 0 ? fe_assign_lhs(a, inc, &compound) : -1;
	if (lhs < 0 || !names_var(a, lhs, v))
		return false;
	int r = fe_strip(a, fe_child(a, inc, 1));
	if (r < 0)
		return false;
	int op = a->n[inc].op;
	if (compound)
		return a->n[r].is_int && ((op == CXBinaryOperator_ShrAssign &&
		                           a->n[r].ival == 1) ||
		                          (op == CXBinaryOperator_DivAssign &&
		                           a->n[r].ival == 2));
	if (a->n[r].kind != CXCursor_BinaryOperator ||
	    !names_var(a, fe_child(a, r, 0), v))
		return false;
	int k = fe_strip(a, fe_child(a, r, 1));
	return k >= 0 && a->n[k].is_int &&
	       ((a->n[r].op == CXBinaryOperator_Shr && a->n[k].ival == 1) ||
	        (a->n[r].op == CXBinaryOperator_Div && a->n[k].ival == 2));
}

/* Somewhere under n, v is compared with a thread index (`threadIdx.x <
 * s`, `tid < s`). */
static bool compared_with_thread(const fe_ast *a, int n, int v)
{
	const fe_node *x = &a->n[n];
	if (x->kind == CXCursor_BinaryOperator &&
	    x->op >= CXBinaryOperator_LT && x->op <= CXBinaryOperator_NE) {
		int l = fe_child(a, n, 0), r = fe_child(a, n, 1);
		if ((names_var(a, l, v) && thread_derived(a, r)) ||
		    (names_var(a, r, v) && thread_derived(a, l)))
			return true;
	}
	for (int c = x->first; c >= 0; c = a->n[c].next)
		if (compared_with_thread(a, c, v))
			return true;
	return false;
}

/* Literal n is the whole start of loop fs's variable, which the loop
 * halves and compares with a thread index: a tree reduction's first
 * step over the block (`for (int s = 128; s > 0; s >>= 1) if
 * (threadIdx.x < s) ...`). */
static bool halving_start(finder *F, int n, const for_parts *fp)
{
	const fe_ast *a = F->a;
	int p = fe_up(a, n), v = -1;
	if (p >= 0 && a->n[p].kind == CXCursor_VarDecl &&
	    fe_strip(a, fe_var_init(a, p)) == n)
		v = p;
	bool compound;
	int lhs = p >= 0 ? fe_assign_lhs(a, p, &compound) : -1;
	if (v < 0 && lhs >= 0 && !compound &&
	    fe_strip(a, fe_child(a, p, 1)) == n &&
	    a->n[lhs].kind == CXCursor_DeclRefExpr)
		v = a->n[lhs].ref;
	return v >= 0 && halves(a, fp->inc, v) && fp->body >= 0 &&
	       (compared_with_thread(a, fp->body, v) ||
	        (fp->cond >= 0 && compared_with_thread(a, fp->cond, v)));
}

/* Node n reads memory: a subscript or a dereference under it. */
static bool loads(const fe_ast *a, int n)
{
	const fe_node *x = &a->n[n];
	if (x->kind == CXCursor_ArraySubscriptExpr ||
	    (x->kind == CXCursor_UnaryOperator &&
	     x->op == CXUnaryOperator_Deref))
		return true;
	for (int c = x->first; c >= 0; c = a->n[c].next)
		if (loads(a, c))
			return true;
	return false;
}

/* Array var is subscripted by a value read from memory (`s[data[i]]`,
 * histogram bins): its extent is the data's range, not the block's. */
static bool indexed_by_data(const fe_ast *a, int var)
{
	for (size_t i = 0; i < a->len; i++) {
		if (a->n[i].kind != CXCursor_ArraySubscriptExpr)
			continue;
		int base = fe_strip(a, fe_child(a, (int)i, 0));
		int idx = fe_child(a, (int)i, 1);
		if (base >= 0 && a->n[base].kind == CXCursor_DeclRefExpr &&
		    a->n[base].ref == var && idx >= 0 && loads(a, idx))
			return true;
	}
	return false;
}

/* Node n is the thread's index in its block: threadIdx.x, or a local
 * never written after its declaration that holds it (`tid`). */
static bool thread_index(const fe_ast *a, int n)
{
	n = fe_strip(a, n);
	if (n >= 0 && a->n[n].kind == CXCursor_DeclRefExpr &&
	    a->n[n].ref >= 0 && a->n[a->n[n].ref].kind == CXCursor_VarDecl &&
	    !fe_assigned(a, a->n[n].ref))
		n = fe_strip(a, fe_var_init(a, a->n[n].ref));
	return n >= 0 && fe_builtin(a, n, "threadIdx") == 'x';
}

/* Shared array var holds a slot per thread: some subscript of it is the
 * thread's index (`s[threadIdx.x]`, `s[tid]`), none reads memory. A
 * shared array of weights filled by a block-strided loop (`sw[c] =
 * w[c]`) counts data, whatever the block. */
static bool thread_slots(const fe_ast *a, int var)
{
	if (!is_shared(a, var) || indexed_by_data(a, var))
		return false;
	for (size_t i = 0; i < a->len; i++) {
		if (a->n[i].kind != CXCursor_ArraySubscriptExpr)
			continue;
		int base = fe_strip(a, fe_child(a, (int)i, 0));
		if (base >= 0 && a->n[base].kind == CXCursor_DeclRefExpr &&
		    a->n[base].ref == var &&
		    thread_index(a, fe_child(a, (int)i, 1)))
			return true;
	}
	return false;
}

/* Somewhere under n, loop variable v subscripts an array of a slot per
 * thread (`t += s[k]` over the block's partials). */
static bool walks_slots(const fe_ast *a, int n, int v)
{
	const fe_node *x = &a->n[n];
	if (x->kind == CXCursor_ArraySubscriptExpr) {
		int base = fe_strip(a, fe_child(a, n, 0));
		int idx = fe_strip(a, fe_child(a, n, 1));
		if (base >= 0 && idx >= 0 &&
		    a->n[base].kind == CXCursor_DeclRefExpr &&
		    a->n[base].ref >= 0 &&
		    a->n[idx].kind == CXCursor_DeclRefExpr &&
		    a->n[idx].ref == v && thread_slots(a, a->n[base].ref))
			return true;
	}
	for (int c = x->first; c >= 0; c = a->n[c].next)
		if (walks_slots(a, c, v))
			return true;
	return false;
}

/* The variable a for statement's init declares or assigns, or -1. */
static int loop_var(const fe_ast *a, int init)
{
	if (init < 0)
		return -1;
	if (a->n[init].kind == CXCursor_DeclStmt) {
		int v = a->n[init].first;
		return v >= 0 && a->n[v].kind == CXCursor_VarDecl ? v : -1;
	}
	bool compound;
	int lhs = fe_assign_lhs(a, init, &compound);
	return lhs >= 0 && a->n[lhs].kind == CXCursor_DeclRefExpr
	           ? a->n[lhs].ref
	           : -1;
}

static ctx loop_context(finder *F, int p, int n, int fs)
{
	fe_ast *a = F->a;
	ctx c = {0};
	for_parts fp = split_for(F, fs);
	bool thread = thread_derived(a, fp.init) || thread_derived(a, fp.body);
	if (in_part(a, fp.inc, n) && thread_derived(a, fp.init)) {
		c.tied = true;
		c.why = "the stride of a loop starting at threadIdx";
	} else if (in_part(a, fp.cond, n) && thread &&
	           (walks_slots(a, fp.body >= 0 ? fp.body : fs,
	                        loop_var(a, fp.init)) ||
	            (fp.body >= 0 && loop_var(a, fp.init) >= 0 &&
	             compared_with_thread(a, fp.body, loop_var(a, fp.init))))) {
		c.tied = true;
		c.why = "the bound of a loop over the block's threads";
	} else if (in_part(a, fp.init, n) &&
	           a->n[p].kind == CXCursor_BinaryOperator &&
	           a->n[p].op == CXBinaryOperator_Div && is_lhs(a, p, n)) {
		c.tied = thread;
		c.why = "the start of a reduction over the block (v / 2)";
	} else if (in_part(a, fp.init, n) && halving_start(F, n, &fp)) {
		c.half = true;
		c.why = "the start of a reduction over the block (half of "
		        "it, halved each step)";
	}
	c.arith = true;
	return c;
}

static ctx context_at(finder *F, int n);

/* A constant's initialiser means what the constant's uses mean. */
static ctx var_context(finder *F, int var)
{
	fe_ast *a = F->a;
	ctx c = {0};
	for (size_t i = 0; i < a->len && !c.tied; i++)
		if (a->n[i].kind == CXCursor_DeclRefExpr &&
		    a->n[i].ref == var) {
			ctx u = context_at(F, (int)i);
			c.arith |= u.arith;
			c.blockidx |= u.blockidx;
			if (u.tied)
				c = u;
		}
	return c;
}

static ctx context_of(finder *F, int n)
{
	fe_ast *a = F->a;
	int p = fe_up(a, n);
	if (p >= 0 && a->n[p].kind == CXCursor_VarDecl && !var_is_array(a, p) &&
	    clang_isConstQualifiedType(clang_getCursorType(a->n[p].cur)))
		return var_context(F, p);
	return context_at(F, n);
}

static ctx context_at(finder *F, int n)
{
	fe_ast *a = F->a;
	ctx c = {0};
	int p = fe_up(a, n);
	if (p < 0)
		return c;
	const fe_node *P = &a->n[p];
	int fs = fe_ancestor(a, p, CXCursor_ForStmt);
	if (P->kind == CXCursor_VarDecl && var_is_array(a, p)) {
		c.tied = thread_slots(a, p);
		c.arith = true;
		c.why = "a shared array with one slot per thread";
		return c;
	}
	if (P->kind == CXCursor_BinaryOperator &&
	    P->op == CXBinaryOperator_Mul) {
		int o = other_operand(a, p, n);
		c.arith = true;
		/* blockIdx scaled by blockDim (`4 * (blockDim.x * blockIdx.y
		 * + threadIdx.x)`): a thread's share, the block's grows with
		 * it */
		if (fe_mentions(a, o, "blockIdx") &&
		    !fe_mentions(a, o, "blockDim")) {
			c.tied = c.blockidx = true;
			c.why = "blockIdx.x * v: where the block's work starts";
		} else if (fe_builtin(a, o, "gridDim")) {
			c.tied = true;
			c.why = "v * gridDim.x: the threads of the grid";
		} else if (beside_thread(a, p)) {
			c.tied = true;
			c.why = "k * v + threadIdx.x: a step of the block's "
			        "threads";
		}
		return c;
	}
	if (P->kind == CXCursor_BinaryOperator &&
	    (P->op == CXBinaryOperator_Div || P->op == CXBinaryOperator_Rem)) {
		int o = fe_strip(a, other_operand(a, p, n));
		if (is_lhs(a, p, n) && o >= 0 && a->n[o].is_int &&
		    a->n[o].ival == 32) {
			c.tied = c.arith = true;
			c.why = "v / 32: the warps of the block";
			return c;
		}
	}
	if (fs >= 0 && in_part(a, fs, p)) {
		ctx l = loop_context(F, p, n, fs);
		if (l.tied || l.half)
			return l;
	}
	if (P->kind == CXCursor_BinaryOperator &&
	    P->op >= CXBinaryOperator_LT && P->op <= CXBinaryOperator_NE &&
	    thread_derived(a, other_operand(a, p, n))) {
		c.tied = c.arith = true;
		c.why = "compared with threadIdx";
		return c;
	}
	c.arith = P->kind == CXCursor_BinaryOperator ||
	          P->kind == CXCursor_CompoundAssignOperator;
	return c;
}

/* ------------------------------------------------- template parameters */

/* Whether node n lies inside kernel k's body. */
static bool in_kernel(const finder *F, int k, int n)
{
	const fe_ast *a = F->a;
	int body = F->f->kernels.items[k].body;
	return body >= 0 && a->n[n].b >= a->n[body].b &&
	       a->n[n].e <= a->n[body].e;
}

const char *fe_tparam_block(finder *F, int k, int tparam)
{
	fe_ast *a = F->a;
	for (size_t i = 0; i < a->len; i++) {
		int n = (int)i, p = fe_up(a, n);
		if (a->n[i].kind != CXCursor_DeclRefExpr ||
		    a->n[i].ref != tparam || !in_kernel(F, k, n) || p < 0)
			continue;
		/* `blockIdx.x * P + threadIdx.x`: one element per thread, so
		 * P is the block's width (a tile `blockIdx.y * BM` that a
		 * thread walks with a stride of its own is not) */
		int up = fe_up(a, p);
		if (a->n[p].kind == CXCursor_BinaryOperator &&
		    a->n[p].op == CXBinaryOperator_Mul &&
		    fe_builtin(a, other_operand(a, p, n), "blockIdx") == 'x' &&
		    up >= 0 && a->n[up].kind == CXCursor_BinaryOperator &&
		    a->n[up].op == CXBinaryOperator_Add &&
		    fe_builtin(a, other_operand(a, up, p), "threadIdx") == 'x')
			return "blockIdx.x * v + threadIdx.x: one element per "
			       "thread";
		/* `i += P` of a loop that starts at threadIdx */
		int fs = fe_ancestor(a, p, CXCursor_ForStmt);
		if (fs >= 0 && in_part(a, fs, p)) {
			for_parts fp = split_for(F, fs);
			if (in_part(a, fp.inc, n) && fp.init >= 0 &&
			    fe_mentions(a, fp.init, "threadIdx") &&
			    !fe_mentions(a, fp.init, "blockIdx"))
				return "the stride of a loop starting at "
				       "threadIdx";
		}
	}
	return NULL;
}

bool fe_tparam_items(finder *F, int k, int tparam)
{
	fe_ast *a = F->a;
	for (size_t i = 0; i < a->len; i++) {
		if (a->n[i].kind != CXCursor_DeclRefExpr ||
		    a->n[i].ref != tparam || !in_kernel(F, k, (int)i))
			continue;
		int p = fe_up(a, (int)i);
		if (p >= 0 && a->n[p].kind == CXCursor_BinaryOperator &&
		    a->n[p].op == CXBinaryOperator_Mul &&
		    thread_derived(a, other_operand(a, p, (int)i)) &&
		    fe_mentions(a, other_operand(a, p, (int)i), "blockIdx"))
			return true;
	}
	return false;
}

/* -------------------------------------------------------------- sites */

static kt_site site_of(const fe_ast *a, int n)
{
	int p = fe_up(a, n);
	if (p >= 0 && a->n[p].kind == CXCursor_VarDecl) {
		if (var_is_array(a, p))
			return KT_SITE_ARRAY_DIM;
		CXType t = clang_getCursorType(a->n[p].cur);
		if (clang_isConstQualifiedType(t))
			return KT_SITE_CONSTEXPR;
	}
	if (p >= 0 && a->n[p].kind == CXCursor_DeclRefExpr)
		return KT_SITE_TEMPLATE_ARG;
	return KT_SITE_EXPR;
}

/* ------------------------------------------------------------ linking */

/* The target a literal in context c follows: its index, -1 for none, -2
 * when two roots fit (ambiguous). */
static int match_strength(finder *F, int k, int64_t v, ctx c, bool weak)
{
	int found = -1;
	for (size_t i = 0; i < F->targets.len; i++) {
		fe_target *t = &F->targets.items[i];
		if (t->kern != k || t->value != v || t->weak != weak)
			continue;
		bool fits = t->half         ? c.half
		            : t->block_only ? c.blockidx
		            : t->arith      ? c.arith
		                            : c.tied;
		if (!fits)
			continue;
		if (t->ambiguous)
			return -2;
		if (found >= 0 && F->targets.items[found].root != t->root)
			return -2;
		if (found < 0)
			found = (int)i;
	}
	return found;
}

static int match_target(finder *F, int k, int64_t v, ctx c)
{
	int m = match_strength(F, k, v, c, false);
	return m != -1 ? m : match_strength(F, k, v, c, true);
}

static void link_literal(finder *F, int k, int n, const fe_target *t,
                         const char *why)
{
	fe_ast *a = F->a;
	const kt_candidate *root = &F->items.items[t->root];
	kt_candidate kc = fe_cand_init();
	kc.kind = root->kind == KT_CAND_VECTOR  ? KT_CAND_LITERAL
	          : root->kind == KT_CAND_ITEMS ? KT_CAND_ITEMS
	                                        : KT_CAND_BLOCK_TIED;
	kc.role = root->role;
	kc.site = site_of(a, n);
	kc.range = kt_fe_make_range(F->tu, a->n[n].b, a->n[n].e);
	kc.value = a->n[n].ival;
	kc.kernel = F->f->kernels.items[k].name;
	kc.link = t->root;
	kc.with = t->with;
	kc.evidence = why;
	kc.rejected = root->rejected;
	kc.reason = root->reason;
	fe_cand cx = fe_cx_init();
	cx.node = n;
	cx.kern = k;
	fe_add(F, kc, cx);
}

static void reject_literal(finder *F, int k, int n, kt_reason r,
                           const char *msg)
{
	fe_ast *a = F->a;
	kt_candidate kc = fe_cand_init();
	kc.kind = KT_CAND_LITERAL;
	kc.role = KT_ROLE_OTHER;
	kc.site = site_of(a, n);
	kc.range = kt_fe_make_range(F->tu, a->n[n].b, a->n[n].e);
	kc.value = a->n[n].is_int ? a->n[n].ival : 0;
	kc.is_float = a->n[n].is_float;
	kc.fvalue = a->n[n].fval;
	kc.kernel = k >= 0 ? F->f->kernels.items[k].name : NULL;
	kc.evidence = msg;
	kc.rejected = true;
	kc.reason = r;
	fe_cand cx = fe_cx_init();
	cx.node = n;
	cx.kern = k;
	fe_add(F, kc, cx);
}

/* The literal fits two roots: it is left alone, and so are the roots
 * (changing one of them would leave this literal wrong). */
static void reject_ambiguous(finder *F, int k, int n)
{
	const fe_node *x = &F->a->n[n];
	kt_pos p = kt_pos_at(F->tu->text, F->tu->len, x->b);
	for (size_t i = 0; i < F->targets.len; i++) {
		fe_target *t = &F->targets.items[i];
		kt_candidate *root = &F->items.items[t->root];
		if (t->kern != k || t->value != x->ival || root->rejected)
			continue;
		root->rejected = true;
		root->reason = KT_REASON_AMBIGUOUS;
		root->evidence = fe_say(F,
		                        "the kernel's %lld at %d:%d could "
		                        "follow this or another value",
		                        (long long)x->ival, p.line, p.col);
	}
	reject_literal(
	    F, k, n, KT_REASON_AMBIGUOUS,
	    fe_say(F, "%lld fits two tuning values here", (long long)x->ival));
}

static bool inside(const fe_ast *a, int n, int outer)
{
	return a->n[n].in_main && a->n[n].b >= a->n[outer].b &&
	       a->n[n].e <= a->n[outer].e;
}

/* Whether s contains the lower-case word w, ignoring the case of s. */
static bool has_word(const char *s, const char *w)
{
	char buf[128];
	size_t i = 0;
	for (; s && s[i] && i + 1 < sizeof(buf); i++)
		buf[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i]);
	buf[i] = 0;
	return strstr(buf, w) != NULL;
}

/* A constant named for a group: the data format's group size (fixed), or
 * threads per group (fixed when a shuffle reduction hard-codes it). */
static bool group_literal(finder *F, int n, kt_reason *r, const char **msg)
{
	fe_ast *a = F->a;
	int p = fe_up(a, n);
	if (p < 0 || a->n[p].kind != CXCursor_VarDecl || !a->n[n].is_int ||
	    !has_word(a->n[p].name, "group"))
		return false;
	const char *name = a->n[p].name, *where = NULL;
	if (!has_word(name, "thread") && !has_word(name, "lane")) {
		*r = KT_REASON_FORMAT_GROUP;
		*msg = fe_say(F,
		              "'%s': elements per group, fixed by the data "
		              "format (one scale per group)",
		              name);
	} else if (fe_shuffle_fixed(F, a->n[n].ival, &where)) {
		*r = KT_REASON_UNSAFE;
		*msg = fe_say(F,
		              "'%s': threads per group; the xor-shuffle "
		              "reduction in '%s' hard-codes offsets for %lld "
		              "lanes",
		              name, where, (long long)a->n[n].ival);
	} else {
		*r = KT_REASON_UNTIED;
		*msg = fe_say(F,
		              "'%s': threads per group, not tied to the "
		              "launch configuration",
		              name);
	}
	return true;
}

static void classify_literal(finder *F, int k, int n)
{
	fe_ast *a = F->a;
	const fe_node *x = &a->n[n];
	if (fe_cand_at(F, x->b) >= 0)
		return;
	if (x->is_int) {
		ctx c = context_of(F, n);
		int t = match_target(F, k, x->ival, c);
		if (t == -2) {
			reject_ambiguous(F, k, n);
			return;
		}
		if (t >= 0) {
			fe_target tt = F->targets.items[t];
			const kt_candidate *root = &F->items.items[tt.root];
			const char *why = c.why;
			if (root->kind == KT_CAND_VECTOR || !why)
				why = fe_say(F, "equals the %s %lld of %d:%d",
				             kt_role_name(root->role),
				             (long long)root->value,
				             root->range.begin.line,
				             root->range.begin.col);
			link_literal(F, k, n, &tt, why);
			return;
		}
	}
	kt_reason r;
	const char *msg;
	if (group_literal(F, n, &r, &msg) || fe_reject_reason(F, n, &r, &msg)) {
		reject_literal(F, k, n, r, msg);
		if (x->is_int && F->f->cx.len)
			F->f->cx.items[F->f->cx.len - 1].per_block =
			    context_of(F, n).blockidx;
	}
}

int fe_classify_kernel(finder *F, int k)
{
	fe_ast *a = F->a;
	int body = F->f->kernels.items[k].body;
	for (size_t i = 0; i < a->len && !F->oom; i++) {
		const fe_node *x = &a->n[i];
		if ((x->kind == CXCursor_IntegerLiteral ||
		     x->kind == CXCursor_FloatingLiteral) &&
		    x->spelled && inside(a, (int)i, body))
			classify_literal(F, k, (int)i);
	}
	return F->oom ? KT_ENOMEM : KT_OK;
}

/* -------------------------------------------------------- rejections */

static bool in_shuffle_call(const fe_ast *a, int n)
{
	int p = fe_up(a, n);
	return p >= 0 && a->n[p].kind == CXCursor_CallExpr &&
	       !strncmp(a->n[p].name, "__shfl", 6);
}

static bool has_call(const fe_ast *a, int n, const char *prefix)
{
	if (n < 0)
		return false;
	if (a->n[n].kind == CXCursor_CallExpr &&
	    !strncmp(a->n[n].name, prefix, strlen(prefix)))
		return true;
	for (int c = a->n[n].first; c >= 0; c = a->n[c].next)
		if (has_call(a, c, prefix))
			return true;
	return false;
}

/* n is in the init statement of the ForStmt fs. */
static bool in_for_init(const fe_ast *a, int fs, int n)
{
	int ds = fe_ancestor(a, n, CXCursor_DeclStmt);
	return ds >= 0 && a->n[ds].parent == fs;
}

static bool shifted(const fe_ast *a, int n)
{
	int p = fe_up(a, n);
	if (p < 0 || is_lhs(a, p, n))
		return false;
	int op = a->n[p].op;
	return (a->n[p].kind == CXCursor_BinaryOperator &&
	        (op == CXBinaryOperator_Shl || op == CXBinaryOperator_Shr)) ||
	       (a->n[p].kind == CXCursor_CompoundAssignOperator &&
	        (op == CXBinaryOperator_ShlAssign ||
	         op == CXBinaryOperator_ShrAssign));
}

static bool bit_operand(const fe_ast *a, int n)
{
	int p = fe_up(a, n);
	return p >= 0 &&
	       (a->n[p].kind == CXCursor_BinaryOperator ||
	        a->n[p].kind == CXCursor_CompoundAssignOperator) &&
	       (a->n[p].op == CXBinaryOperator_And ||
	        a->n[p].op == CXBinaryOperator_Or ||
	        a->n[p].op == CXBinaryOperator_Xor ||
	        a->n[p].op == CXBinaryOperator_AndAssign ||
	        a->n[p].op == CXBinaryOperator_OrAssign ||
	        a->n[p].op == CXBinaryOperator_XorAssign);
}

static bool float_reason(const fe_node *x, kt_reason *r, const char **msg)
{
	double v = fabs(x->fval);
	if (v == 448.0 || v == 57344.0) {
		*r = KT_REASON_FP8_MAX;
		*msg = v == 448.0 ? "the largest float8 e4m3 value"
		                  : "the largest float8 e5m2 value";
		return true;
	}
	if (v > 0 && v <= 1e-3) {
		*r = KT_REASON_EPS;
		*msg = "a small constant of the computation (epsilon)";
		return true;
	}
	return false;
}

bool fe_reject_reason(finder *F, int n, kt_reason *r, const char **msg)
{
	fe_ast *a = F->a;
	const fe_node *x = &a->n[n];
	size_t len;
	const char *t = fe_text(a, n, &len);
	if (x->is_float)
		return float_reason(x, r, msg);
	if (!x->is_int)
		return false;
	int fs = fe_ancestor(a, n, CXCursor_ForStmt);
	if (x->ival >= -2 && x->ival <= 2)
		return false; /* 0, 1, 2: arithmetic, not worth a line */
	if (x->ival == 448 || x->ival == 57344) {
		*r = KT_REASON_FP8_MAX;
		*msg = "the largest float8 value";
	} else if (len > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
		*r = KT_REASON_MASK;
		*msg = "a bit mask";
	} else if (in_shuffle_call(a, n) || (fs >= 0 && in_for_init(a, fs, n) &&
	                                     has_call(a, fs, "__shfl"))) {
		*r = KT_REASON_SHUFFLE;
		*msg = "a lane offset of a warp shuffle reduction";
	} else if (shifted(a, n)) {
		*r = KT_REASON_SHIFT;
		*msg = "a shift amount";
	} else if (bit_operand(a, n)) {
		*r = KT_REASON_MASK;
		*msg = "a bit mask";
	} else if (x->ival == 32) {
		*r = KT_REASON_WARP_SIZE;
		*msg = "the warp size";
	} else {
		*r = KT_REASON_UNTIED;
		*msg = "not tied to the launch configuration";
	}
	return true;
}

bool fe_shuffle_fixed(finder *F, int64_t v, const char **where)
{
	fe_ast *a = F->a;
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		if (x->kind != CXCursor_CallExpr ||
		    strncmp(x->name, "__shfl_xor", 10))
			continue;
		int off = fe_strip(a, fe_child(a, (int)i, 3));
		if (off >= 0 && a->n[off].is_int && a->n[off].ival == v / 2 &&
		    v / 2 >= 1) {
			int fn = fe_ancestor(a, (int)i, CXCursor_FunctionDecl);
			*where = fn >= 0 ? a->n[fn].name : "?";
			return true;
		}
	}
	return false;
}

bool fe_warp_shuffles(finder *F, const char **where)
{
	fe_ast *a = F->a;
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		if (x->kind != CXCursor_CallExpr ||
		    strncmp(x->name, "__shfl", 6))
			continue;
		int fn = fe_ancestor(a, (int)i, CXCursor_FunctionDecl);
		if (fn < 0)
			fn = fe_ancestor(a, (int)i, CXCursor_FunctionTemplate);
		*where = fn >= 0 ? a->n[fn].name : "?";
		return true;
	}
	return false;
}

static bool is_kernel_fn(const finder *F, int fn)
{
	for (size_t k = 0; k < F->f->kernels.len; k++)
		if (F->f->kernels.items[k].node == fn)
			return true;
	return false;
}

/* In a __device__ function, or at file scope (a constant's value). */
static bool listed_outside_kernels(const finder *F, int n)
{
	const fe_ast *a = F->a;
	int fn = fe_ancestor(a, n, CXCursor_FunctionDecl);
	if (fn < 0)
		fn = fe_ancestor(a, n, CXCursor_FunctionTemplate);
	if (fn < 0)
		return fe_ancestor(a, n, CXCursor_VarDecl) >= 0;
	if (is_kernel_fn(F, fn))
		return false;
	for (int c = a->n[fn].first; c >= 0; c = a->n[c].next)
		if (a->n[c].kind == CXCursor_CUDADeviceAttr)
			return true;
	return false;
}

/* Literals in __device__ functions and file-scope constants, listed so a
 * reviewer sees why they were left alone. */
int fe_reject_device_fns(finder *F)
{
	fe_ast *a = F->a;
	for (size_t i = 0; i < a->len && !F->oom; i++) {
		const fe_node *x = &a->n[i];
		if (!(x->kind == CXCursor_IntegerLiteral ||
		      x->kind == CXCursor_FloatingLiteral) ||
		    !x->spelled || fe_cand_at(F, x->b) >= 0 ||
		    !listed_outside_kernels(F, (int)i))
			continue;
		kt_reason r;
		const char *msg;
		if (group_literal(F, (int)i, &r, &msg) ||
		    fe_reject_reason(F, (int)i, &r, &msg))
			reject_literal(F, -1, (int)i, r, msg);
	}
	return F->oom ? KT_ENOMEM : KT_OK;
}

/* #define NAME <integer> that no launch uses: a constant of the problem. */
int fe_reject_macros(finder *F)
{
	fe_ast *a = F->a;
	for (size_t i = 0; i < a->macros.len && !F->oom; i++) {
		int m = a->macros.items[i];
		int64_t v;
		uint32_t b, e;
		if (!fe_macro_int(a, m, &v, &b, &e) || fe_cand_at(F, b) >= 0 ||
		    (v >= -2 && v <= 2))
			continue;
		kt_candidate kc = fe_cand_init();
		kc.kind = KT_CAND_MACRO;
		kc.role = KT_ROLE_OTHER;
		kc.site = KT_SITE_MACRO;
		kc.range = kt_fe_make_range(F->tu, b, e);
		kc.value = v;
		kc.name = a->n[m].name;
		kc.rejected = true;
		kc.reason = v == 32 ? KT_REASON_WARP_SIZE : KT_REASON_UNTIED;
		kc.evidence = v == 32 ? "the warp size"
		                      : "no launch configuration uses it: a "
		                        "constant of the problem";
		fe_cand cx = fe_cx_init();
		cx.node = m;
		fe_add(F, kc, cx);
	}
	return F->oom ? KT_ENOMEM : KT_OK;
}

/* Candidate i's literal stands beside a thread index in one sum,
 * difference or comparison (`7 - threadIdx.y`, `threadIdx.x == 255`,
 * `threadIdx.x < 128`): a bound or an offset of the index, not a scale
 * (`threadIdx.x * 16`: a thread's elements). */
static bool beside_thread_index(finder *F, int i)
{
	const fe_ast *a = F->a;
	int n = F->f->cx.items[i].node;
	int up = n >= 0 ? fe_up(a, n) : -1;
	if (up < 0 || a->n[up].kind != CXCursor_BinaryOperator)
		return false;
	switch (a->n[up].op) {
	case CXBinaryOperator_Add:
	case CXBinaryOperator_Sub:
	case CXBinaryOperator_LT:
	case CXBinaryOperator_GT:
	case CXBinaryOperator_LE:
	case CXBinaryOperator_GE:
	case CXBinaryOperator_EQ:
	case CXBinaryOperator_NE: break;
	default: return false;
	}
	for (int c = a->n[up].first; c >= 0; c = a->n[c].next)
		if (fe_builtin(a, c, "threadIdx"))
			return true;
	return false;
}

/* Kernel k numbers its warps: `threadIdx.x / 32`, `tid >> 5`, `/
 * warpSize` (through locals). */
static bool warp_numbered(finder *F, int k)
{
	const fe_ast *a = F->a;
	const fe_node *b = &a->n[F->f->kernels.items[k].body];
	for (size_t i = 0; i < a->len; i++) {
		int e = fe_warp_division(a, (int)i);
		if (e >= 0 && a->n[i].b >= b->b && a->n[i].e <= b->e &&
		    thread_derived(a, e))
			return true;
	}
	return false;
}

/* Candidate i's literal counts slots or steps: a shared array's
 * dimension, or the bound in a for loop's condition. */
static bool counts_slots(finder *F, int i)
{
	const fe_ast *a = F->a;
	int n = F->f->cx.items[i].node;
	int p = n >= 0 ? fe_up(a, n) : -1;
	if (p < 0)
		return false;
	if (a->n[p].kind == CXCursor_VarDecl)
		return var_is_array(a, p) && is_shared(a, p);
	int fs = fe_ancestor(a, n, CXCursor_ForStmt);
	if (fs < 0)
		return false;
	for_parts fp = split_for(F, fs);
	return in_part(a, fp.cond, n);
}

/* A literal with a root's value that nothing ties to it, or, beside a
 * thread index, the value less one (the block's last thread) or half of
 * it (the first step of a reduction unrolled for that block: `if
 * (threadIdx.x < 128) s[threadIdx.x] += s[threadIdx.x + 128]`):
 * changing the root alone would break the kernel, so the root is left
 * alone. */
static void untied_twins(finder *F)
{
	for (size_t t = 0; t < F->targets.len; t++) {
		const fe_target *g = &F->targets.items[t];
		kt_candidate *root = &F->items.items[g->root];
		if (g->block_only || g->arith || g->half || root->rejected)
			continue;
		for (size_t i = 0; i < F->items.len; i++) {
			const kt_candidate *x = &F->items.items[i];
			/* the same value, or the block's share of the work
			 * (`blockIdx.x * 8`) fixed whatever the block size */
			bool share = F->f->cx.items[i].per_block &&
			             root->role == KT_ROLE_BLOCK_SIZE;
			bool last = x->value == g->value - 1 &&
			            beside_thread_index(F, (int)i);
			bool half = x->value * 2 == g->value &&
			            beside_thread_index(F, (int)i);
			bool warps = x->value > 1 &&
			             x->value * 32 == g->value &&
			             root->role == KT_ROLE_BLOCK_SIZE &&
			             F->f->cx.items[i].kern == g->kern &&
			             counts_slots(F, (int)i) &&
			             warp_numbered(F, g->kern);
			/* a block of one warp: a 32 taken for the warp size
			 * may be the block's own (a 32-wide tile) */
			bool warp_block = x->reason == KT_REASON_WARP_SIZE &&
			                  g->value == 32 && x->value == 32;
			if (x->kind != KT_CAND_LITERAL ||
			    (x->reason != KT_REASON_UNTIED && !warp_block) ||
			    (x->value != g->value && !share && !last && !half &&
			     !warps) ||
			    F->f->cx.items[i].kern != g->kern)
				continue;
			root->rejected = true;
			root->reason = KT_REASON_UNSAFE;
			root->evidence = fe_say(
			    F,
			    share  ? "the kernel's blockIdx.x * %s at %d:%d "
			             "fixes each block's work; changing the "
			             "block size alone would be wrong"
			    : last ? "the kernel's %s at %d:%d beside a thread "
			             "index is this value less one (the last "
			             "thread) with no tie to it; changing one "
			             "without the other would be wrong"
			    : half ? "the kernel's %s at %d:%d beside a thread "
			             "index is half this value (a reduction "
			             "unrolled for it) with no tie to it; "
			             "changing one without the other would be "
			             "wrong"
			    : warps
			        ? "the kernel's %s at %d:%d counts this "
			          "value's warps (a slot or a step per warp) "
			          "with no tie to it; changing one without "
			          "the other would be wrong"
			        : "the kernel's %s at %d:%d has this value "
			          "but no tie to it; changing one without "
			          "the other would be wrong",
			    x->text, x->range.begin.line, x->range.begin.col);
			break;
		}
	}
}

void fe_settle(finder *F)
{
	untied_twins(F);
	for (size_t i = 0; i < F->items.len; i++) {
		kt_candidate *c = &F->items.items[i];
		if (c->link < 0 || c->rejected)
			continue;
		const kt_candidate *root = &F->items.items[c->link];
		if (root->rejected) {
			c->rejected = true;
			c->reason = root->reason;
		}
	}
}

/* ------------------------------------------------------ items per thread */

/* A literal, or the literal initialising the const variable n names. */
static int const_literal(const fe_ast *a, int n)
{
	if (n >= 0 && a->n[n].kind == CXCursor_DeclRefExpr &&
	    a->n[n].ref >= 0 && a->n[a->n[n].ref].kind == CXCursor_VarDecl &&
	    clang_isConstQualifiedType(
	        clang_getCursorType(a->n[a->n[n].ref].cur)))
		n = fe_strip(a, a->n[a->n[n].ref].last);
	return n;
}

/* `for (k = 0; k < N; k++)` whose body indexes with k * B (+ threadIdx). */
static bool items_loop(finder *F, int fs, int k, int *lit)
{
	fe_ast *a = F->a;
	for_parts fp = split_for(F, fs);
	int cond = fe_strip(a, fp.cond);
	if (cond < 0 || a->n[cond].kind != CXCursor_BinaryOperator ||
	    a->n[cond].op != CXBinaryOperator_LT || fp.body < 0)
		return false;
	int var = fe_strip(a, fe_child(a, cond, 0));
	int bound = const_literal(a, fe_strip(a, fe_child(a, cond, 1)));
	if (var < 0 || bound < 0 || a->n[var].kind != CXCursor_DeclRefExpr ||
	    !a->n[bound].is_int || !a->n[bound].spelled || a->n[bound].ival < 2)
		return false;
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *m = &a->n[i];
		if (m->kind != CXCursor_BinaryOperator ||
		    m->op != CXBinaryOperator_Mul ||
		    !inside(a, (int)i, fp.body))
			continue;
		int l = fe_strip(a, fe_child(a, (int)i, 0));
		int r = fe_strip(a, fe_child(a, (int)i, 1));
		if (l < 0 || r < 0 || a->n[l].ref != a->n[var].ref ||
		    a->n[l].kind != CXCursor_DeclRefExpr)
			continue;
		bool step = fe_builtin(a, r, "blockDim") == 'x';
		for (size_t t = 0; t < F->targets.len && !step; t++)
			step = F->targets.items[t].kern == k &&
			       !F->targets.items[t].block_only &&
			       a->n[r].is_int &&
			       F->targets.items[t].value == a->n[r].ival;
		if (step && beside_thread(a, (int)i)) {
			*lit = bound;
			return true;
		}
	}
	return false;
}

int fe_find_items(finder *F, int k)
{
	fe_ast *a = F->a;
	int body = F->f->kernels.items[k].body;
	for (size_t i = 0; i < a->len && !F->oom; i++) {
		int lit;
		if (a->n[i].kind != CXCursor_ForStmt ||
		    !inside(a, (int)i, body) ||
		    !items_loop(F, (int)i, k, &lit) ||
		    fe_cand_at(F, a->n[lit].b) >= 0)
			continue;
		kt_candidate kc = fe_cand_init();
		int up = fe_up(a, lit);
		kc.kind = KT_CAND_ITEMS;
		kc.role = KT_ROLE_ITEMS_PER_THREAD;
		kc.site = up >= 0 && a->n[up].kind == CXCursor_VarDecl
		              ? KT_SITE_CONSTEXPR
		              : KT_SITE_EXPR;
		kc.name = kc.site == KT_SITE_CONSTEXPR ? a->n[up].name : NULL;
		kc.range = kt_fe_make_range(F->tu, a->n[lit].b, a->n[lit].e);
		kc.value = a->n[lit].ival;
		kc.kernel = F->f->kernels.items[k].name;
		kc.evidence =
		    "the trip count of a loop whose index steps by the "
		    "block size: items per thread";
		fe_cand cx = fe_cx_init();
		cx.node = lit;
		cx.kern = k;
		cx.loop = (int)i;
		int c = fe_add(F, kc, cx);
		fe_target t = {.value = kc.value,
		               .root = c,
		               .with = "$",
		               .block_only = true,
		               .kern = k};
		if (c >= 0 && kt_vec_push(&F->targets, t))
			F->oom = 1;
	}
	return F->oom ? KT_ENOMEM : KT_OK;
}

/* --------------------------------------------------- tokens: pragmas */

static unsigned tok_line(kt_tu *tu, CXToken t)
{
	unsigned line;
	clang_getSpellingLocation(clang_getTokenLocation(tu->tu, t), NULL,
	                          &line, NULL, NULL);
	return line;
}

static int next_loop(const fe_ast *a, int body, uint32_t after)
{
	int best = -1;
	for (size_t i = 0; i < a->len; i++)
		if (a->n[i].kind == CXCursor_ForStmt &&
		    inside(a, (int)i, body) && a->n[i].b > after &&
		    (best < 0 || a->n[i].b < a->n[best].b))
			best = (int)i;
	return best;
}

static void add_unroll(finder *F, int k, CXToken lit, int body)
{
	kt_range r;
	if (!kt_fe_range(F->tu, clang_getTokenExtent(F->tu->tu, lit), &r) ||
	    fe_cand_at(F, r.begin.offset) >= 0)
		return;
	char *t = kt_fe_token_text(F->tu, lit);
	char *end = NULL;
	long long v = t ? strtoll(t, &end, 0) : 0;
	bool ok = t && end != t && (!*end || strchr("uUlL", *end));
	kt_free(t);
	if (!ok || v < 1)
		return;
	kt_candidate kc = fe_cand_init();
	kc.kind = KT_CAND_UNROLL;
	kc.role = KT_ROLE_UNROLL;
	kc.site = KT_SITE_PRAGMA_UNROLL;
	kc.range = r;
	kc.value = v;
	kc.kernel = F->f->kernels.items[k].name;
	kc.evidence = body == F->f->kernels.items[k].body
	                  ? "#pragma unroll N on a loop of the kernel"
	                  : "#pragma unroll N on a loop of a __device__ "
	                    "function the kernel calls";
	fe_cand cx = fe_cx_init();
	cx.kern = k;
	cx.loop = next_loop(F->a, body, r.begin.offset);
	fe_add(F, kc, cx);
}

static bool tok_is(kt_tu *tu, CXToken t, const char *s)
{
	CXString x = clang_getTokenSpelling(tu->tu, t);
	bool r = !strcmp(clang_getCString(x), s);
	clang_disposeString(x);
	return r;
}

/* `__launch_bounds__(N, ...)`: N is the most threads a block may have;
 * it follows the block size it equals. N is a literal or a macro whose
 * body is one (`CUDA_QUANTIZE_BLOCK_SIZE` from a header): the macro's
 * expansion then follows the block as the launch's does. */
static void add_launch_bounds(finder *F, int k, CXToken tok)
{
	kt_range r;
	if (!kt_fe_range(F->tu, clang_getTokenExtent(F->tu->tu, tok), &r) ||
	    fe_cand_at(F, r.begin.offset) >= 0)
		return;
	char *t = kt_fe_token_text(F->tu, tok);
	char *end = NULL;
	int64_t v = 0;
	bool ok, macro = clang_getTokenKind(tok) == CXToken_Identifier;
	if (macro) {
		ok = t && fe_expansion_int(F->a, r.begin.offset, &v);
	} else {
		v = t ? strtoll(t, &end, 0) : 0;
		ok = t && end != t && (!*end || strchr("uUlL", *end));
	}
	const char *name = macro && ok ? fe_say(F, "%s", t) : NULL;
	kt_free(t);
	if (!ok)
		return;
	ctx c = {.tied = true,
	         .why = "__launch_bounds__: the most threads a "
	                "block may have"};
	int m = match_target(F, k, v, c);
	kt_candidate kc = fe_cand_init();
	kc.kind = KT_CAND_LAUNCH_BOUNDS;
	kc.role = KT_ROLE_OTHER;
	kc.site = KT_SITE_LAUNCH_BOUNDS;
	kc.range = r;
	kc.value = v;
	kc.kernel = F->f->kernels.items[k].name;
	kc.name = name;
	kc.evidence = c.why;
	if (m >= 0) {
		const fe_target *g = &F->targets.items[m];
		kc.role = F->items.items[g->root].role;
		kc.link = g->root;
		kc.with = g->with;
	} else {
		kc.rejected = true;
		kc.reason = m == -2 ? KT_REASON_AMBIGUOUS : KT_REASON_UNTIED;
		kc.evidence = "__launch_bounds__ with a value the launch does "
		              "not use";
	}
	fe_add(F, kc, fe_cx_init());
}

/* The value of `__launch_bounds__(`'s first argument from token t[i]:
 * a product of integer literals and macros whose bodies are one, up to
 * the `,` or `)` that ends it; 0 for any other expression. */
static int64_t bounds_value(finder *F, const CXToken *t, unsigned i,
                            unsigned nt)
{
	kt_tu *tu = F->tu;
	int64_t v = 1;
	for (bool factor = true; i < nt; i++, factor = !factor) {
		if (!factor) {
			if (tok_is(tu, t[i], ",") || tok_is(tu, t[i], ")"))
				return v;
			if (!tok_is(tu, t[i], "*"))
				return 0;
			continue;
		}
		int64_t f = 0;
		kt_range r;
		char *x = kt_fe_token_text(tu, t[i]);
		char *end = NULL;
		bool ok = x && kt_fe_range(
		                   tu, clang_getTokenExtent(tu->tu, t[i]), &r);
		if (ok && clang_getTokenKind(t[i]) == CXToken_Identifier)
			ok = fe_expansion_int(F->a, r.begin.offset, &f);
		else if (ok && clang_getTokenKind(t[i]) == CXToken_Literal) {
			f = strtoll(x, &end, 0);
			ok = end != x && (!*end || strchr("uUlL", *end));
		} else
			ok = false;
		kt_free(x);
		if (!ok || f <= 0 || f > 65536 || v > 65536)
			return 0;
		v *= f;
	}
	return 0;
}

/* Whether tokens t[i..] are `#pragma unroll N` on one line. */
static bool unroll_at(kt_tu *tu, const CXToken *t, unsigned nt, unsigned i)
{
	return i + 3 < nt && tok_is(tu, t[i], "#") &&
	       tok_is(tu, t[i + 1], "pragma") &&
	       tok_is(tu, t[i + 2], "unroll") &&
	       clang_getTokenKind(t[i + 3]) == CXToken_Literal &&
	       tok_line(tu, t[i + 3]) == tok_line(tu, t[i]);
}

/* A function of the file, for the device only (not __host__ too, where
 * the host compiler would read its pragmas), that a call in body
 * enters: its body, else -1. */
static int device_callee_body(const fe_ast *a, int call)
{
	int f = fe_callee(a, call);
	if (f < 0 || !a->n[f].in_main ||
	    (a->n[f].kind != CXCursor_FunctionDecl &&
	     a->n[f].kind != CXCursor_FunctionTemplate))
		return -1;
	bool device = false, host = false, global = false;
	for (int c = a->n[f].first; c >= 0; c = a->n[c].next) {
		device |= a->n[c].kind == CXCursor_CUDADeviceAttr;
		host |= a->n[c].kind == CXCursor_CUDAHostAttr;
		global |= a->n[c].kind == CXCursor_CUDAGlobalAttr;
	}
	int body = a->n[f].last;
	return device && !host && !global && body >= 0 &&
	               a->n[body].kind == CXCursor_CompoundStmt
	           ? body
	           : -1;
}

/* `#pragma unroll N` in the __device__ functions of the file that kernel
 * k's body calls, through `depth` more calls: a loop of the kernel as
 * much as one in its body (a helper two kernels call is the first's). */
static void helper_unrolls(finder *F, int k, int body, int depth)
{
	fe_ast *a = F->a;
	kt_tu *tu = F->tu;
	for (size_t i = 0; i < a->len && depth > 0; i++) {
		if (a->n[i].kind != CXCursor_CallExpr ||
		    !inside(a, (int)i, body))
			continue;
		int hb = device_callee_body(a, (int)i);
		if (hb < 0 || hb == body)
			continue;
		CXToken *t = NULL;
		unsigned nt = 0;
		clang_tokenize(tu->tu,
		               kt_fe_source_range(tu, a->n[hb].b, a->n[hb].e),
		               &t, &nt);
		for (unsigned j = 0; j < nt; j++)
			if (unroll_at(tu, t, nt, j))
				add_unroll(F, k, t[j + 3], hb);
		clang_disposeTokens(tu->tu, t, nt);
		helper_unrolls(F, k, hb, depth - 1);
	}
}

/* Token-level: `#pragma unroll N` in the body and in the device
 * functions it calls, `__launch_bounds__(N)` before it (libclang has
 * cursors for neither). */
int fe_find_pragmas(finder *F, int k)
{
	fe_ast *a = F->a;
	kt_tu *tu = F->tu;
	CXToken *t = NULL;
	unsigned nt = 0;
	const fe_node *kn = &a->n[F->f->kernels.items[k].node];
	clang_tokenize(tu->tu, kt_fe_source_range(tu, kn->b, kn->e), &t, &nt);
	for (unsigned i = 0; i + 3 < nt; i++) {
		if (unroll_at(tu, t, nt, i))
			add_unroll(F, k, t[i + 3], F->f->kernels.items[k].body);
		if (tok_is(tu, t[i], "__launch_bounds__") &&
		    tok_is(tu, t[i + 1], "(") &&
		    (clang_getTokenKind(t[i + 2]) == CXToken_Literal ||
		     clang_getTokenKind(t[i + 2]) == CXToken_Identifier)) {
			add_launch_bounds(F, k, t[i + 2]);
			F->f->kernels.items[k].bounds =
			    bounds_value(F, t, i + 2, nt);
		}
	}
	clang_disposeTokens(tu->tu, t, nt);
	if (!tu->opencl && F->f->kernels.items[k].body >= 0)
		helper_unrolls(F, k, F->f->kernels.items[k].body, 3);
	return F->oom ? KT_ENOMEM : KT_OK;
}

/* ------------------------------------------------------ vector widths */

static bool vector_type_name(const char *s)
{
	static const char *const names[] = {
	    "uint4",  "int4",    "float4",     "uint2",     "int2",
	    "float2", "double2", "ulonglong2", "longlong2", "ushort4",
	    "short4", "uchar4",  "char4",      NULL};
	for (const char *const *n = names; *n; n++)
		if (!strcmp(*n, s))
			return true;
	return false;
}

static void add_vector(finder *F, int k, int cast, CXType vec, CXType elem)
{
	fe_ast *a = F->a;
	long long vs = clang_Type_getSizeOf(vec),
	          es = clang_Type_getSizeOf(elem);
	if (vs <= 0 || es <= 0 || vs <= es || vs % es)
		return;
	CXString vn = clang_getTypeSpelling(vec),
	         en = clang_getTypeSpelling(elem);
	kt_candidate kc = fe_cand_init();
	kc.kind = KT_CAND_VECTOR;
	kc.role = KT_ROLE_VECTOR_WIDTH;
	kc.site = KT_SITE_EXPR;
	kc.range = kt_fe_make_range(F->tu, a->n[cast].b, a->n[cast].e);
	kc.value = vs / es;
	kc.kernel = F->f->kernels.items[k].name;
	kc.rejected = true;
	kc.reason = KT_REASON_UNSAFE;
	kc.evidence =
	    fe_say(F,
	           "'%s' accesses fix %lld bytes (%lld x %s); a "
	           "width parameter needs the vectorize refactor",
	           clang_getCString(vn), vs, vs / es, clang_getCString(en));
	clang_disposeString(vn);
	clang_disposeString(en);
	fe_cand cx = fe_cx_init();
	cx.node = cast;
	cx.kern = k;
	int c = fe_add(F, kc, cx);
	fe_target t = {.value = kc.value,
	               .root = c,
	               .with = "$",
	               .arith = true,
	               .kern = k};
	if (c >= 0 && kt_vec_push(&F->targets, t))
		F->oom = 1;
}

int fe_find_vectors(finder *F, int k)
{
	fe_ast *a = F->a;
	int body = F->f->kernels.items[k].body;
	for (size_t i = 0; i < a->len && !F->oom; i++) {
		if (a->n[i].kind != CXCursor_CXXReinterpretCastExpr ||
		    !inside(a, (int)i, body))
			continue;
		CXType to =
		    clang_getPointeeType(clang_getCursorType(a->n[i].cur));
		/* a cast to a reference (or to a type a template argument
		 * names) has no pointee: libclang crashes on its spelling */
		if (to.kind == CXType_Invalid)
			continue;
		CXString s = clang_getTypeSpelling(
		    clang_getCanonicalType(clang_getUnqualifiedType(to)));
		bool vec =
		    vector_type_name(clang_getCString(s)) ||
		    vector_type_name(
		        clang_getCString(s) +
		        (strncmp(clang_getCString(s), "struct ", 7) ? 0 : 7));
		clang_disposeString(s);
		int from = fe_strip(F->a, a->n[i].last);
		if (!vec || from < 0)
			continue;
		CXType ft =
		    clang_getPointeeType(clang_getCursorType(a->n[from].cur));
		bool seen = false;
		for (size_t c = 0; c < F->items.len; c++)
			seen |= F->items.items[c].kind == KT_CAND_VECTOR &&
			        F->f->cx.items[c].kern == k;
		if (!seen && ft.kind != CXType_Invalid)
			add_vector(F, k, (int)i, to, ft);
	}
	return F->oom ? KT_ENOMEM : KT_OK;
}
