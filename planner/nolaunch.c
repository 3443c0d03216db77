/*
 * nolaunch.c - the launch of a kernel nobody in its file launches (a
 * header's kernel, a file whose host code lives elsewhere), from how its
 * body maps threads to work.
 *
 * The design choice: with no launch site the block size is free, so it
 * becomes a parameter (unless the body fixes it), and the grid is written
 * only where the body alone says how many blocks cover the work:
 *
 *   - a global index `blockIdx.x * blockDim.x + threadIdx.x` guarded by
 *     `< n`, or stepping by `blockDim.x * gridDim.x` (a grid-stride loop,
 *     correct at any grid): the ceil-div of n; with the y index guarded
 *     too, the same in two dimensions;
 *   - a row per block (`blockIdx.x` with a block-stride loop `j =
 *     threadIdx.x; ...; j += blockDim.x`): the rows, from a guard
 *     `row < rows` or, with none, a new problem variable.
 *
 * A launch line the file already has for the kernel is its launch
 * instead (pl_written_launch): its block literal becomes the parameter.
 *
 * Every integer scalar parameter the kernel never writes is a problem
 * variable of its own name (what the host would pass); buffer lengths then
 * come from the extent analysis over this synthesised launch, as they do
 * for a launched kernel. Anything else keeps the one `launch` need. The
 * thread-index vocabulary is read through builtin() only, so another
 * language's work-item functions can map there.
 */
#include "planner/planner.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ vocabulary */

enum { TID, BID, BDIM, GDIM };

/* 'x', 'y' or 'z' when n is the thread's index in its block (TID), the
 * block's in the grid (BID), the block's size (BDIM) or the grid's
 * (GDIM) along that dimension; else 0. The one place that reads CUDA's
 * built-in variables: OpenCL's get_local_id(d), get_group_id(d),
 * get_local_size(d) and get_num_groups(d) map here, and get_global_id(d)
 * in global_index(). */
static char builtin(const fe_ast *a, int n, int which)
{
	static const char *const names[] = {"threadIdx", "blockIdx", "blockDim",
	                                    "gridDim"};
	return fe_builtin(a, n, names[which]);
}

static bool is_int_type(CXType t)
{
	enum CXTypeKind k = clang_getCanonicalType(t).kind;
	return k >= CXType_Char_U && k <= CXType_Int128 && k != CXType_Bool;
}

/* Parentheses, implicit nodes and integer casts. */
static int strip(const fe_ast *a, int n)
{
	for (;;) {
		n = fe_strip(a, n);
		if (n < 0)
			return n;
		enum CXCursorKind k = a->n[n].kind;
		if ((k != CXCursor_CStyleCastExpr &&
		     k != CXCursor_CXXStaticCastExpr &&
		     k != CXCursor_CXXFunctionalCastExpr) ||
		    !is_int_type(clang_getCursorType(a->n[n].cur)))
			return n;
		n = a->n[n].last;
	}
}

/* The local variable n names, when the kernel never writes it, else -1. */
static int const_local(const fe_ast *a, const fe_kern *K, int n)
{
	n = strip(a, n);
	if (n < 0 || a->n[n].kind != CXCursor_DeclRefExpr)
		return -1;
	int v = a->n[n].ref;
	if (v < 0 || a->n[v].kind != CXCursor_VarDecl ||
	    !pl_inside(a, v, K->body) || pl_writes(a, K->body, v, -1))
		return -1;
	return v;
}

/* n is `x * y` with x and y (in either order) matching which0, which1
 * along dimension d. */
static bool product_of(const fe_ast *a, int n, int which0, int which1, char d)
{
	n = strip(a, n);
	if (n < 0 || a->n[n].kind != CXCursor_BinaryOperator ||
	    a->n[n].op != CXBinaryOperator_Mul)
		return false;
	int l = fe_child(a, n, 0), r = fe_child(a, n, 1);
	return (builtin(a, l, which0) == d && builtin(a, r, which1) == d) ||
	       (builtin(a, l, which1) == d && builtin(a, r, which0) == d);
}

/* The thread's global index along d: `blockIdx.d * blockDim.d +
 * threadIdx.d` (operands in any order, any integer type), or a local the
 * kernel never writes that is initialised so. */
static bool global_index(const fe_ast *a, const fe_kern *K, int n, char d)
{
	int v = const_local(a, K, n);
	if (v >= 0)
		return global_index(a, K, fe_var_init(a, v), d);
	n = strip(a, n);
	if (n < 0 || a->n[n].kind != CXCursor_BinaryOperator ||
	    a->n[n].op != CXBinaryOperator_Add)
		return false;
	int l = fe_child(a, n, 0), r = fe_child(a, n, 1);
	return (builtin(a, l, TID) == d && product_of(a, r, BID, BDIM, d)) ||
	       (builtin(a, r, TID) == d && product_of(a, l, BID, BDIM, d));
}

/* `blockIdx.d`, or a local the kernel never writes initialised so. */
static bool block_index(const fe_ast *a, const fe_kern *K, int n, char d)
{
	int v = const_local(a, K, n);
	if (v >= 0)
		return block_index(a, K, fe_var_init(a, v), d);
	return builtin(a, n, BID) == d;
}

/* `threadIdx.d`, or a local the kernel never writes initialised so. */
static bool thread_index(const fe_ast *a, const fe_kern *K, int n, char d)
{
	int v = const_local(a, K, n);
	if (v >= 0)
		return thread_index(a, K, fe_var_init(a, v), d);
	return builtin(a, n, TID) == d;
}

/* Some node under n is the built-in which along d (0: any). */
static bool mentions(const fe_ast *a, int n, int which, char d)
{
	char c = builtin(a, n, which);
	if (c && (!d || c == d))
		return true;
	for (int k = a->n[n].first; k >= 0; k = a->n[k].next)
		if (mentions(a, k, which, d))
			return true;
	return false;
}

/* ------------------------------------------------------------ the body */

/* An integer parameter of the kernel it never writes, named by n. */
static int size_parm(const fe_ast *a, const fe_kern *K, int n)
{
	n = strip(a, n);
	if (n < 0 || a->n[n].kind != CXCursor_DeclRefExpr)
		return -1;
	int p = a->n[n].ref;
	if (p < 0 || a->n[p].kind != CXCursor_ParmDecl ||
	    a->n[p].parent != K->node ||
	    !is_int_type(clang_getCursorType(a->n[p].cur)) ||
	    pl_writes(a, K->body, p, -1))
		return -1;
	return p;
}

typedef bool (*index_fn)(const fe_ast *, const fe_kern *, int, char);

/* cond (negated when neg) says `x < P` for an index x that is(…, d)
 * accepts: P's parameter, or -1. Conjunctions are searched. */
static int bound_in(const fe_ast *a, const fe_kern *K, int cond, bool neg,
                    index_fn is, char d)
{
	cond = strip(a, cond);
	if (cond < 0 || a->n[cond].kind != CXCursor_BinaryOperator)
		return -1;
	int op = a->n[cond].op, l = fe_child(a, cond, 0),
	    r = fe_child(a, cond, 1);
	if (op == (neg ? CXBinaryOperator_LOr : CXBinaryOperator_LAnd)) {
		int p = bound_in(a, K, l, neg, is, d);
		return p >= 0 ? p : bound_in(a, K, r, neg, is, d);
	}
	int lt = neg ? CXBinaryOperator_GE : CXBinaryOperator_LT,
	    gt = neg ? CXBinaryOperator_LE : CXBinaryOperator_GT;
	if (op == lt && is(a, K, l, d))
		return size_parm(a, K, r);
	if (op == gt && is(a, K, r, d))
		return size_parm(a, K, l);
	return -1;
}

static bool is_return(const fe_ast *a, int s)
{
	if (a->n[s].kind == CXCursor_CompoundStmt && fe_nchildren(a, s) == 1)
		s = a->n[s].first;
	return a->n[s].kind == CXCursor_ReturnStmt;
}

/* The parameter that bounds an index is() accepts along d: an `if (x <
 * P)` or `x < P ? ... : ...` around work or an `if (x >= P) return;`
 * anywhere in the body, or -1. */
static int guard(const fe_ast *a, const fe_kern *K, index_fn is, char d)
{
	for (size_t i = 0; i < a->len; i++) {
		if ((a->n[i].kind != CXCursor_IfStmt &&
		     a->n[i].kind != CXCursor_ConditionalOperator) ||
		    !pl_inside(a, (int)i, K->body))
			continue;
		int cond = fe_child(a, (int)i, 0),
		    then = fe_child(a, (int)i, 1);
		int p = then >= 0 && is_return(a, then)
		            ? bound_in(a, K, cond, true, is, d)
		            : bound_in(a, K, cond, false, is, d);
		if (p >= 0)
			return p;
	}
	return -1;
}

/* The variable a for statement's init sets and its value: `T v = E` or
 * `v = E`. */
static int loop_init(const fe_ast *a, int fs, int *val)
{
	int init = fe_child(a, fs, 0);
	if (init < 0)
		return -1;
	if (a->n[init].kind == CXCursor_DeclStmt) {
		int v = a->n[init].first;
		*val = v >= 0 ? fe_var_init(a, v) : -1;
		return v >= 0 && a->n[v].kind == CXCursor_VarDecl ? v : -1;
	}
	bool compound;
	int lhs = fe_assign_lhs(a, init, &compound);
	lhs = lhs >= 0 ? strip(a, lhs) : -1;
	if (lhs < 0 || compound || a->n[lhs].kind != CXCursor_DeclRefExpr)
		return -1;
	*val = fe_child(a, init, 1);
	return a->n[lhs].ref;
}

/* The for statement steps its variable v by a stride step() accepts. */
static bool steps_by(const fe_ast *a, int fs, int v,
                     bool (*step)(const fe_ast *, int))
{
	int inc = fe_child(a, fs, 2);
	bool compound;
	int lhs = inc >= 0 ? fe_assign_lhs(a, inc, &compound) : -1;
	lhs = lhs >= 0 ? strip(a, lhs) : -1;
	return lhs >= 0 && compound &&
	       a->n[inc].op == CXBinaryOperator_AddAssign &&
	       a->n[lhs].kind == CXCursor_DeclRefExpr && a->n[lhs].ref == v &&
	       step(a, fe_child(a, inc, 1));
}

static bool grid_stride(const fe_ast *a, int n)
{
	return product_of(a, n, BDIM, GDIM, 'x');
}

static bool block_stride(const fe_ast *a, int n)
{
	return builtin(a, n, BDIM) == 'x';
}

/* `for (i = global x; i < P; i += blockDim.x * gridDim.x)`: P, or -1. */
static int grid_stride_loop(const fe_ast *a, const fe_kern *K)
{
	for (size_t i = 0; i < a->len; i++) {
		int fs = (int)i, val = -1;
		if (a->n[fs].kind != CXCursor_ForStmt ||
		    fe_nchildren(a, fs) != 4 || !pl_inside(a, fs, K->body))
			continue;
		int v = loop_init(a, fs, &val);
		if (v < 0 || val < 0 || !global_index(a, K, val, 'x') ||
		    !steps_by(a, fs, v, grid_stride))
			continue;
		int cond = strip(a, fe_child(a, fs, 1));
		if (cond >= 0 && a->n[cond].kind == CXCursor_BinaryOperator &&
		    a->n[cond].op == CXBinaryOperator_LT) {
			int l = strip(a, fe_child(a, cond, 0));
			if (l >= 0 && a->n[l].kind == CXCursor_DeclRefExpr &&
			    a->n[l].ref == v)
				return size_parm(a, K, fe_child(a, cond, 1));
		}
	}
	return -1;
}

/* How many statements under n step v by `v += blockDim.x`, or -1 when
 * anything else under n changes v. */
static int block_steps(const fe_ast *a, int n, int v)
{
	const fe_node *x = &a->n[n];
	bool compound;
	int lhs = fe_assign_lhs(a, n, &compound);
	lhs = lhs >= 0 ? strip(a, lhs) : -1;
	if (lhs >= 0 && a->n[lhs].kind == CXCursor_DeclRefExpr &&
	    a->n[lhs].ref == v)
		return compound && x->op == CXBinaryOperator_AddAssign &&
		               block_stride(a, fe_child(a, n, 1))
		           ? 1
		           : -1;
	int m = x->kind == CXCursor_UnaryOperator ? strip(a, x->first) : -1;
	if (m >= 0 && a->n[m].kind == CXCursor_DeclRefExpr &&
	    a->n[m].ref == v && x->op >= CXUnaryOperator_PostInc &&
	    x->op <= CXUnaryOperator_PreDec)
		return -1;
	int count = 0;
	for (int c = x->first; c >= 0; c = a->n[c].next) {
		int k = block_steps(a, c, v);
		if (k < 0)
			return -1;
		count += k;
	}
	return count;
}

/* `for (j = threadIdx.x; ...; j += blockDim.x)` in the body, or the same
 * with the step in the loop's body (`for (i = col; i < n;) { ... i +=
 * blockDim.x; }`, nothing else changing i). */
static bool block_stride_loop(const fe_ast *a, const fe_kern *K)
{
	for (size_t i = 0; i < a->len; i++) {
		int fs = (int)i, val = -1, nc = fe_nchildren(a, fs);
		if (a->n[fs].kind != CXCursor_ForStmt || nc < 3 ||
		    !pl_inside(a, fs, K->body))
			continue;
		int v = loop_init(a, fs, &val);
		if (v < 0 || val < 0 || !thread_index(a, K, val, 'x'))
			continue;
		if (nc == 4 && steps_by(a, fs, v, block_stride))
			return true;
		int body = fe_child(a, fs, nc - 1);
		if (nc == 3 && a->n[body].kind == CXCursor_CompoundStmt &&
		    block_steps(a, body, v) > 0)
			return true;
	}
	return false;
}

/* Some expression of the body is the global index along d. */
static bool uses_global(const fe_ast *a, const fe_kern *K, char d)
{
	for (size_t i = 0; i < a->len; i++)
		if (a->n[i].kind == CXCursor_BinaryOperator &&
		    pl_inside(a, (int)i, K->body) &&
		    global_index(a, K, (int)i, d))
			return true;
	return false;
}

/* ------------------------------------------------------- the block size */

static void push(int64_t *v, size_t *n, int64_t x)
{
	for (size_t i = 0; i < *n; i++)
		if (v[i] == x)
			return;
	v[(*n)++] = x;
}

static int cmp_i64(const void *x, const void *y)
{
	int64_t p = *(const int64_t *)x, q = *(const int64_t *)y;
	return p < q ? -1 : p > q;
}

/* The largest block `__launch_bounds__(N, ...)` allows (the frontend's
 * candidate at that site), 0 when the kernel has none. */
static int64_t bounds_max(const planner *P, const fe_kern *K)
{
	for (size_t i = 0; i < P->c->len; i++)
		if (P->c->items[i].site == KT_SITE_LAUNCH_BOUNDS &&
		    P->c->items[i].kernel &&
		    !strcmp(P->c->items[i].kernel, K->name) &&
		    P->c->items[i].value > 0)
			return P->c->items[i].value;
	return 0;
}

/* Node n involves threadIdx.x: directly, or through a local the kernel
 * never writes. */
static bool involves_tid(const fe_ast *a, const fe_kern *K, int n, int depth)
{
	if (builtin(a, n, TID) == 'x')
		return true;
	int v = depth < 8 && a->n[n].kind == CXCursor_DeclRefExpr
	            ? const_local(a, K, n)
	            : -1;
	int init = v >= 0 ? fe_var_init(a, v) : -1;
	if (init >= 0 && involves_tid(a, K, init, depth + 1))
		return true;
	for (int c = a->n[n].first; c >= 0; c = a->n[c].next)
		if (involves_tid(a, K, c, depth))
			return true;
	return false;
}

/* The most threads a subscript idx of an S-element array lets a block
 * have: S for `threadIdx.x` itself (*slot: one slot per thread), S * K
 * for `threadIdx.x / K` or `>> k` (a slot per warp), S for any other
 * index involving threadIdx.x (no more threads than slots, to be safe),
 * 0 for an index that does not. */
static int64_t slot_bound(const fe_ast *a, const fe_kern *K, int idx, int64_t S,
                          bool *slot)
{
	*slot = false;
	if (thread_index(a, K, idx, 'x')) {
		*slot = true;
		return S;
	}
	int x = strip(a, idx);
	int r = x >= 0 && a->n[x].kind == CXCursor_BinaryOperator
	            ? strip(a, fe_child(a, x, 1))
	            : -1;
	int64_t k = r >= 0 && a->n[r].is_int ? a->n[r].ival : 0;
	if (k > 0 && k <= 1024 && thread_index(a, K, fe_child(a, x, 0), 'x')) {
		if (a->n[x].op == CXBinaryOperator_Div)
			return S * k;
		if (a->n[x].op == CXBinaryOperator_Shr && k < 16)
			return S << k;
	}
	return involves_tid(a, K, idx, 0) ? S : 0;
}

/* The most threads the kernel's constant-size `__shared__` arrays let a
 * block have, over their subscripts that involve threadIdx.x (0: none
 * does); *slot when that bound is an array with a slot per thread. */
static int64_t shared_bound(const fe_ast *a, const fe_kern *K, bool *slot)
{
	int64_t best = 0;
	*slot = false;
	for (size_t i = 0; i < a->len; i++) {
		if (a->n[i].kind != CXCursor_ArraySubscriptExpr ||
		    !pl_inside(a, (int)i, K->body))
			continue;
		int base = strip(a, fe_child(a, (int)i, 0));
		int v = base >= 0 && a->n[base].kind == CXCursor_DeclRefExpr
		            ? a->n[base].ref
		            : -1;
		if (v < 0 || a->n[v].kind != CXCursor_VarDecl ||
		    !pl_has_shared(a, v))
			continue;
		CXType t = clang_getCursorType(a->n[v].cur);
		bool s;
		int64_t b = t.kind == CXType_ConstantArray
		                ? slot_bound(a, K, fe_child(a, (int)i, 1),
		                             clang_getArraySize(t), &s)
		                : 0;
		if (b > 0 && (!best || b < best || (b == best && s))) {
			best = b;
			*slot = s;
		}
	}
	return best;
}

/* Some call under n exchanges values within a warp (`__shfl*`,
 * `__reduce_*_sync`), itself or in a function of the file it calls. */
static bool warp_exchange(const fe_ast *a, int n, int depth)
{
	const fe_node *x = &a->n[n];
	if (x->kind == CXCursor_CallExpr && x->name &&
	    (!strncmp(x->name, "__shfl", 6) ||
	     !strncmp(x->name, "__reduce_", 9)))
		return true;
	int body = x->kind == CXCursor_CallExpr && x->ref >= 0 && depth < 4
	               ? a->n[x->ref].last
	               : -1;
	if (body >= 0 && a->n[body].kind == CXCursor_CompoundStmt &&
	    warp_exchange(a, body, depth + 1))
		return true;
	for (int c = x->first; c >= 0; c = a->n[c].next)
		if (warp_exchange(a, c, depth))
			return true;
	return false;
}

/* A loop of the body that starts at blockDim.x and halves (a tree
 * reduction over the block): the block must be a power of two. */
static bool halving_over_block(const fe_ast *a, const fe_kern *K)
{
	for (size_t i = 0; i < a->len; i++) {
		int fs = (int)i;
		if (a->n[fs].kind != CXCursor_ForStmt ||
		    fe_nchildren(a, fs) != 4 || !pl_inside(a, fs, K->body))
			continue;
		int init = fe_child(a, fs, 0), inc = fe_child(a, fs, 2);
		int op = inc >= 0 ? a->n[inc].op : -1;
		if (init >= 0 && mentions(a, init, BDIM, 'x') &&
		    (op == CXBinaryOperator_ShrAssign ||
		     op == CXBinaryOperator_DivAssign))
			return true;
	}
	return false;
}

/*
 * The block's x size: a parameter over its domain, or the one size the
 * body fixes (S->block[0] a number then), and the parameter's index (-1
 * for none). A kernel that exchanges values by warp shuffles (its own or
 * a helper's of the file) and shares nothing works within one warp; a
 * shared array bounds the block by the threads its subscripts allow, and
 * one with a slot per thread, with no halving loop, is written for its
 * size alone. given: the default the file's own launch line says, or 0.
 */
static int block_x(planner *P, const fe_kern *K, pl_synth *S, int64_t given)
{
	const fe_ast *a = P->a;
	int64_t max = 1024, def = 256, v[64];
	size_t n = 0;
	bool shared = pl_has_shared(a, K->body), slot;
	int64_t slots = shared_bound(a, K, &slot), bound = bounds_max(P, K);
	bool pow2 = halving_over_block(a, K);
	if (!shared && warp_exchange(a, K->body, 0))
		max = def = 32;
	if (slots > 0 && slots < max)
		max = slots;
	if (slot && slots <= 1024)
		def = slots;
	if (bound > 0 && bound < max)
		max = def = bound;
	if (slot && !pow2)
		n = 0; /* a reduction written for that one size */
	else if (pow2)
		for (int64_t b = 32; b <= max; b *= 2)
			push(v, &n, b);
	else
		for (int64_t b = 32; b <= max; b += 32)
			push(v, &n, b);
	if (def > max)
		def = max;
	if (given > 0)
		def = given; /* the file's own launch line says it */
	if (n < 2) {
		S->block[0] = pl_say(P, "%lld", (long long)def);
		return -1;
	}
	push(v, &n, def);
	qsort(v, n, sizeof(*v), cmp_i64);
	const char *name = pl_unique_name(P, "BLOCK_SIZE", K->name);
	int p = pl_add_param(P, name, KT_ROLE_BLOCK_SIZE, K->name, def, v, n);
	if (p >= 0)
		S->block[0] = name;
	return p;
}

/* 2-D: x and y sizes as powers of two up to 64, at most 1024 threads. */
static void block_xy(planner *P, const fe_kern *K, pl_synth *S)
{
	int64_t v[] = {1, 2, 4, 8, 16, 32, 64};
	const char *x = pl_unique_name(P, "BLOCK_SIZE", K->name);
	if (pl_add_param(P, x, KT_ROLE_BLOCK_SIZE, K->name, 16, v, 7) < 0)
		return;
	const char *y = pl_unique_name(P, "BLOCK_SIZE_Y", K->name);
	if (pl_add_param(P, y, KT_ROLE_BLOCK_SIZE, K->name, 16, v, 7) < 0)
		return;
	pl_add_constraint(P, pl_say(P, "%s * %s <= 1024", x, y));
	S->block[0] = x;
	S->block[1] = y;
}

/* ------------------------------------------------------------- problems */

static void add_problem(planner *P, pl_names *problems, const char *name)
{
	for (size_t i = 0; i < problems->len; i++)
		if (!strcmp(problems->items[i], name))
			return;
	if (kt_vec_push(problems, name))
		P->oom = 1;
}

void pl_synth_args(planner *P, const fe_kern *K, pl_synth *S,
                   pl_names *problems)
{
	const fe_ast *a = P->a;
	int i = 0;
	memset(S, 0, sizeof(*S));
	for (int c = a->n[K->node].first; c >= 0 && i < PL_SYNTH_ARGS;
	     c = a->n[c].next) {
		if (a->n[c].kind != CXCursor_ParmDecl)
			continue;
		CXType t = clang_getCursorType(a->n[c].cur);
		if (is_int_type(t) && !pl_writes(a, K->body, c, -1) &&
		    a->n[c].name && *a->n[c].name) {
			S->arg[i] = a->n[c].name;
			add_problem(P, problems, a->n[c].name);
		}
		i++;
	}
}

/* The grid's x over a bound parameter p: the ceil-div by the block. */
static const char *ceil_div(planner *P, const fe_ast *a, int p,
                            const char *block)
{
	return pl_say(P, "(%s + %s - 1) / %s", a->n[p].name, block, block);
}

/* A name for a new problem variable: base, unless the kernel's parameters
 * or the problems have it. */
static const char *new_problem(planner *P, const fe_kern *K, pl_names *problems,
                               const char *base)
{
	const fe_ast *a = P->a;
	kt_str s = KT_STR_INIT;
	for (int k = 1; k < 100; k++) {
		kt_str_clear(&s);
		kt_str_addf(&s, k == 1 ? "%s" : "%s_%d", base, k);
		bool taken = pl_find_param(P, s.ptr) >= 0;
		for (size_t i = 0; i < problems->len; i++)
			taken |= !strcmp(problems->items[i], s.ptr);
		for (int c = a->n[K->node].first; c >= 0; c = a->n[c].next)
			taken |= a->n[c].kind == CXCursor_ParmDecl &&
			         !strcmp(a->n[c].name, s.ptr);
		if (!taken)
			break;
	}
	const char *r = pl_say(P, "%s", s.ptr);
	kt_str_release(&s);
	add_problem(P, problems, r);
	return r;
}

bool pl_synth_launch(planner *P, const fe_kern *K, pl_synth *S,
                     pl_names *problems)
{
	const fe_ast *a = P->a;
	if (mentions(a, K->body, TID, 'z') || mentions(a, K->body, BID, 'z'))
		return false;
	bool has_y =
	    mentions(a, K->body, TID, 'y') || mentions(a, K->body, BID, 'y');
	int px = guard(a, K, global_index, 'x');
	if (px < 0 && !has_y)
		px = grid_stride_loop(a, K);
	if (px >= 0 && has_y) {
		/* a shared tile fixes a 2-D block in ways not read here */
		int py = guard(a, K, global_index, 'y');
		if (py < 0 || mentions(a, K->body, GDIM, 0) ||
		    pl_has_shared(a, K->body))
			return false;
		block_xy(P, K, S);
		if (!S->block[1])
			return false;
		S->ndims = 2;
		S->grid[0] = ceil_div(P, a, px, S->block[0]);
		S->grid[1] = ceil_div(P, a, py, S->block[1]);
		return true;
	}
	if (has_y)
		return false;
	if (px >= 0) {
		block_x(P, K, S, 0);
		S->ndims = 1;
		S->grid[0] = ceil_div(P, a, px, S->block[0]);
		return S->block[0] != NULL;
	}
	/* a row per block */
	if (!mentions(a, K->body, BID, 'x') || mentions(a, K->body, GDIM, 0) ||
	    uses_global(a, K, 'x') || !block_stride_loop(a, K))
		return false;
	int pr = guard(a, K, block_index, 'x');
	block_x(P, K, S, 0);
	S->ndims = 1;
	S->grid[0] =
	    pr >= 0 ? a->n[pr].name : new_problem(P, K, problems, "rows");
	return S->block[0] != NULL;
}

/* ----------------------------------------------- the file's own launch */

typedef struct word {
	size_t b, e; /* a number's or a name's bytes, else one character */
	bool num, name;
} word;

static word next_word(const char *t, size_t p, size_t end)
{
	while (p < end && (t[p] == ' ' || t[p] == '\t'))
		p++;
	word w = {p, p < end ? p + 1 : p, false, false};
	bool digit = p < end && t[p] >= '0' && t[p] <= '9';
	bool ident = p < end && (isalpha((unsigned char)t[p]) || t[p] == '_');
	if (digit || ident) {
		while (w.e < end &&
		       (isalnum((unsigned char)t[w.e]) || t[w.e] == '_'))
			w.e++;
		w.num = digit;
		w.name = ident;
	}
	return w;
}

static bool word_is(const char *t, word w, const char *s)
{
	return w.e - w.b == strlen(s) && !strncmp(t + w.b, s, w.e - w.b);
}

static int64_t word_value(const char *t, word w)
{
	int64_t v = 0;
	for (size_t i = w.b; i < w.e; i++) {
		if (t[i] < '0' || t[i] > '9' || v > 1 << 20)
			return -1;
		v = v * 10 + (t[i] - '0');
	}
	return v;
}

static void add_use(planner *P, int p, size_t b, size_t e, const char *with)
{
	pl_param *pp = &P->params.items[p];
	kt_plan_use u = {
	    .range = kt_fe_make_range(P->f->tu, (uint32_t)b, (uint32_t)e),
	    .text = pl_say(P, "%.*s", (int)(e - b), P->c->text + b),
	    .with = with,
	    .site = KT_SITE_EXPR,
	    .launch = -1,
	    .evidence = "the block size of the file's own launch line"};
	if (kt_vec_push(&pp->uses, u))
		P->oom = 1;
}

/* The launch line the file has for K (a line of its block), where its
 * block is one integer literal B: B becomes the block-size parameter, as a
 * host launch's literal does, with the grid's B and B - 1 following it. */
void pl_written_launch(planner *P, const fe_kern *K)
{
	const char *t = P->c->text;
	for (size_t i = 0; i < P->nwritten; i++) {
		const kt_pragma_text *l = &P->written[i];
		word w = next_word(t, l->body, l->end);
		if (l->kernel_len != strlen(K->name) ||
		    strncmp(t + l->kernel, K->name, l->kernel_len) ||
		    !word_is(t, w, "launch") ||
		    memchr(t + l->body, '\\', l->end - l->body))
			continue;
		word lit[8], blk = {0, 0, false, false};
		size_t nlit = 0, nblk = 0;
		int depth = 0;
		bool grid = false, block = false;
		for (word x = next_word(t, w.e, l->end); x.b < l->end;
		     x = next_word(t, x.e, l->end)) {
			if (!depth && x.name) {
				grid = word_is(t, x, "grid");
				block = word_is(t, x, "block");
			}
			bool paren = t[x.b] == '(' || t[x.b] == ')';
			depth += t[x.b] == '(' ? 1 : t[x.b] == ')' ? -1 : 0;
			if (block && depth && !paren && nblk++ == 0)
				blk = x;
			if (grid && x.num && nlit < 8)
				lit[nlit++] = x;
		}
		if (nblk != 1 || !blk.num)
			return;
		int64_t b = word_value(t, blk);
		pl_synth S;
		memset(&S, 0, sizeof(S));
		int p = b >= 32 && b <= 1024 && b % 32 == 0
		            ? block_x(P, K, &S, b)
		            : -1;
		if (p < 0)
			return;
		const char *name = P->params.items[p].p.name;
		add_use(P, p, blk.b, blk.e, name);
		for (size_t k = 0; k < nlit; k++) {
			int64_t v = word_value(t, lit[k]);
			if (v == b)
				add_use(P, p, lit[k].b, lit[k].e, name);
			else if (v == b - 1)
				add_use(P, p, lit[k].b, lit[k].e,
				        pl_say(P, "(%s - 1)", name));
		}
		return;
	}
}
