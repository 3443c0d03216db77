/*
 * gridfree.c - a kernel that serves any grid along one dimension: its
 * threads reach their work only through grid-stride loops (`for (i =
 * blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x *
 * gridDim.x)`), so any count of blocks covers the same work, and a grid
 * written as a literal (`<<<1024, 256>>>`) is a tuning knob.
 *
 * Design choice: a whitelist, as cap.c's for the block. blockIdx and
 * gridDim along the dimension may stand only in such a loop's start and
 * step, directly or through a local that holds one and is read nowhere
 * else; the loop's variable is written only by its step; and the loop's
 * body holds no barrier and no warp collective, since at another grid the
 * threads of one block or warp run different counts of iterations. A
 * partial result per block (`part[blockIdx.x]`), a first block's extra
 * work (`blockIdx.x == 0`), a device helper of the file reading the grid:
 * each keeps the grid as written.
 */
#include "frontend/find.h"

#include <string.h>

static bool is_mul(const fe_ast *a, int n)
{
	return n >= 0 && a->n[n].kind == CXCursor_BinaryOperator &&
	       a->n[n].op == CXBinaryOperator_Mul;
}

/* A local never written after its declaration whose initialiser is node
 * n's variable: the initialiser, else -1. */
static int const_local(const fe_ast *a, int n)
{
	n = fe_strip(a, n);
	if (n < 0 || a->n[n].kind != CXCursor_DeclRefExpr)
		return -1;
	int v = a->n[n].ref;
	if (v < 0 || a->n[v].kind != CXCursor_VarDecl || fe_assigned(a, v))
		return -1;
	return fe_var_init(a, v);
}

/* n is `u.d * w.d` for builtins u and w, either way round. */
static bool builtin_product(const fe_ast *a, int n, const char *u,
                            const char *w, char d)
{
	n = fe_strip(a, n);
	if (!is_mul(a, n))
		return false;
	int l = fe_child(a, n, 0), r = fe_child(a, n, 1);
	return (fe_builtin_expanded(a, l, u) == d &&
	        fe_builtin_expanded(a, r, w) == d) ||
	       (fe_builtin_expanded(a, l, w) == d &&
	        fe_builtin_expanded(a, r, u) == d);
}

/* n is the grid's stride along d: `blockDim.d * gridDim.d`, maybe
 * through a local. */
static bool grid_step(const fe_ast *a, int n, char d)
{
	for (int depth = 0; n >= 0 && depth < 4; depth++) {
		if (builtin_product(a, n, "blockDim", "gridDim", d))
			return true;
		n = const_local(a, n);
	}
	return false;
}

/* n is builtin u along d, maybe through a local. */
static bool builtin_through(const fe_ast *a, int n, const char *u, char d)
{
	for (int depth = 0; n >= 0 && depth < 4; depth++) {
		if (fe_builtin_expanded(a, n, u) == d)
			return true;
		n = const_local(a, n);
	}
	return false;
}

/* n is the thread's global index along d: `blockIdx.d * blockDim.d +
 * threadIdx.d` in any order, maybe through a local. */
static bool global_start(const fe_ast *a, int n, char d)
{
	for (int depth = 0; n >= 0 && depth < 4; depth++) {
		int s = fe_strip(a, n);
		if (s >= 0 && a->n[s].kind == CXCursor_BinaryOperator &&
		    a->n[s].op == CXBinaryOperator_Add) {
			int l = fe_child(a, s, 0), r = fe_child(a, s, 1);
			return (fe_builtin_expanded(a, l, "threadIdx") == d &&
			        builtin_product(a, r, "blockIdx", "blockDim",
			                        d)) ||
			       (fe_builtin_expanded(a, r, "threadIdx") == d &&
			        builtin_product(a, l, "blockIdx", "blockDim",
			                        d));
		}
		n = const_local(a, s);
	}
	return false;
}

/* A call under n (or in a function of the file it calls, to a depth)
 * that makes the threads of a block or a warp meet: a barrier, a
 * shuffle, a vote, a cooperative group's sync or reduce. */
static bool collective(const fe_ast *a, int n, int depth)
{
	static const char *const names[] = {
	    "__syncthreads", "__syncwarp", "__shfl",  "__ballot",
	    "__all",         "__any",      "__match", "__reduce",
	    "sync",          "reduce",     "barrier", "tiled_partition",
	};
	const fe_node *x = &a->n[n];
	if (x->kind == CXCursor_CallExpr && x->name) {
		for (size_t i = 0; i < sizeof names / sizeof *names; i++)
			if (strstr(x->name, names[i]))
				return true;
		int f = depth < 3 ? fe_callee(a, n) : -1;
		if (f >= 0 && a->n[f].in_main && collective(a, f, depth + 1))
			return true;
	}
	for (int c = x->first; c >= 0; c = a->n[c].next)
		if (collective(a, c, depth))
			return true;
	return false;
}

/* Node n lies under node m (a macro's expansion gives all its nodes one
 * extent: the tree, not the offsets, says where each stands). */
static bool under(const fe_ast *a, int n, int m)
{
	for (; n >= 0; n = a->n[n].parent)
		if (n == m)
			return true;
	return false;
}

/* Node n writes variable v (an assignment or ++/--). */
static bool writes(const fe_ast *a, int n, int v)
{
	const fe_node *x = &a->n[n];
	bool compound;
	int w = x->kind == CXCursor_UnaryOperator &&
	                x->op >= CXUnaryOperator_PostInc &&
	                x->op <= CXUnaryOperator_PreDec
	            ? fe_strip(a, x->first)
	            : fe_assign_lhs(a, n, &compound);
	w = w >= 0 ? fe_strip(a, w) : -1;
	return w >= 0 && a->n[w].kind == CXCursor_DeclRefExpr &&
	       a->n[w].ref == v;
}

/* The loop whose head holds node n, where it walks the grid along d: the
 * for statement, else -1. `for (T i = START; ...; i += STEP)` with i
 * written nowhere else, and either START the thread's global index and
 * STEP the grid's threads (*per_thread set: each thread of a block may
 * run another count of iterations), or START `blockIdx.d` and STEP
 * `gridDim.d` (a block per item: every thread of a block runs the same
 * iterations). */
static int stride_loop(const fe_ast *a, int n, char d, bool *per_thread)
{
	int p = a->n[n].parent;
	while (p >= 0 && a->n[p].kind != CXCursor_ForStmt)
		p = a->n[p].parent;
	if (p < 0 || fe_nchildren(a, p) != 4)
		return -1;
	int init = fe_child(a, p, 0), inc = fe_child(a, p, 2);
	bool in_head = under(a, n, init) || under(a, n, inc);
	int v = a->n[init].kind == CXCursor_DeclStmt ? a->n[init].first : -1;
	if (!in_head || v < 0 || a->n[v].kind != CXCursor_VarDecl)
		return -1;
	int start = fe_var_init(a, v), step = fe_child(a, inc, 1);
	bool compound;
	int lhs = fe_assign_lhs(a, inc, &compound);
	if (start < 0 || step < 0 || !compound ||
	    a->n[inc].op != CXBinaryOperator_AddAssign || lhs < 0 ||
	    a->n[lhs].kind != CXCursor_DeclRefExpr || a->n[lhs].ref != v)
		return -1;
	if (global_start(a, start, d) && grid_step(a, step, d))
		*per_thread = true;
	else if (builtin_through(a, start, "blockIdx", d) &&
	         builtin_through(a, step, "gridDim", d))
		*per_thread = false;
	else
		return -1;
	for (size_t i = 0; i < a->len; i++)
		if ((int)i != inc && writes(a, (int)i, v))
			return -1;
	return p;
}

/* Node n (a builtin, or a read of a local holding the start or the step)
 * stands where the grid does not matter: in a grid-stride loop's head, or
 * in the initialiser of a local that is read only there. */
static bool free_use(const fe_ast *a, int body, int n, char d, int depth)
{
	if (depth > 4)
		return false;
	bool per_thread = false;
	int fs = stride_loop(a, n, d, &per_thread);
	if (fs >= 0)
		return !per_thread || (!collective(a, fe_child(a, fs, 3), 0) &&
		                       !collective(a, fe_child(a, fs, 1), 0));
	int v = fe_ancestor(a, n, CXCursor_VarDecl);
	if (v < 0 || fe_assigned(a, v) || !under(a, v, body))
		return false;
	int reads = 0;
	for (size_t i = 0; i < a->len; i++) {
		if (a->n[i].kind != CXCursor_DeclRefExpr || a->n[i].ref != v)
			continue;
		if (!free_use(a, body, (int)i, d, depth + 1))
			return false;
		reads++;
	}
	return reads > 0;
}

/* A cooperative groups call that reads the block's place in the grid or
 * the grid's size. */
static bool grid_call(const char *name)
{
	static const char *const names[] = {
	    "group_index", "block_index", "block_rank", "num_blocks",
	    "dim_blocks",  "this_grid",   "grid_dim",
	};
	for (size_t i = 0; name && i < sizeof names / sizeof *names; i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

static bool kernel_fn(const fe_ast *a, int fn)
{
	for (int c = a->n[fn].first; c >= 0; c = a->n[c].next)
		if (a->n[c].kind == CXCursor_CUDAGlobalAttr)
			return true;
	return false;
}

const char *fe_grid_free(finder *F, int k, char d)
{
	const fe_ast *a = F->a;
	if (a->tu->opencl)
		return "an OpenCL kernel";
	const fe_kern *K = &F->f->kernels.items[k];
	bool looped = false;
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		/* the grid's position through cooperative groups */
		if (x->kind == CXCursor_CallExpr && under(a, (int)i, K->body) &&
		    grid_call(x->name))
			return fe_say(F, "'%s' calls '%s'", K->name, x->name);
		if (x->kind != CXCursor_MemberRefExpr)
			continue;
		bool grid = fe_builtin_expanded(a, (int)i, "blockIdx") == d ||
		            fe_builtin_expanded(a, (int)i, "gridDim") == d;
		if (!grid)
			continue;
		bool inside = under(a, (int)i, K->body);
		if (!inside) {
			/* a device helper of the file that reads the grid */
			int fn = fe_ancestor(a, (int)i, CXCursor_FunctionDecl);
			if (fn < 0)
				fn = fe_ancestor(a, (int)i,
				                 CXCursor_FunctionTemplate);
			if (x->in_main && fn >= 0 && fn != K->node &&
			    !kernel_fn(a, fn))
				return fe_say(F, "a function of the file reads "
				                 "the grid's position");
			continue;
		}
		if (!free_use(a, K->body, (int)i, d, 0))
			return fe_say(F,
			              "'%s' reads blockIdx.%c or gridDim.%c "
			              "outside the head of a grid-stride "
			              "loop whose body meets no barrier",
			              K->name, d, d);
		looped = true;
	}
	return looped ? NULL : "no grid-stride loop";
}

bool fe_indexed_along(finder *F, int k, char d)
{
	const fe_ast *a = F->a;
	const fe_kern *K = &F->f->kernels.items[k];
	bool indexed = false;
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		if (!under(a, (int)i, K->body))
			continue;
		if (x->kind == CXCursor_MemberRefExpr &&
		    fe_builtin_expanded(a, (int)i, "gridDim") == d)
			return false;
		indexed = indexed || (x->kind == CXCursor_BinaryOperator &&
		                      x->op == CXBinaryOperator_Add &&
		                      global_start(a, (int)i, d));
	}
	return indexed;
}

bool fe_index_loops(finder *F, int k, char d)
{
	const fe_ast *a = F->a;
	const fe_kern *K = &F->f->kernels.items[k];
	bool any = false;
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		if (x->kind != CXCursor_BinaryOperator ||
		    x->op != CXBinaryOperator_Add ||
		    !under(a, (int)i, K->body) || !global_start(a, (int)i, 'x'))
			continue;
		/* `for (T v = <the index>; ...)` */
		int v = fe_up(a, (int)i);
		int ds = v >= 0 && a->n[v].kind == CXCursor_VarDecl
		             ? a->n[v].parent
		             : -1;
		int fs = ds >= 0 ? a->n[ds].parent : -1;
		if (fs < 0 || a->n[fs].kind != CXCursor_ForStmt ||
		    fe_child(a, fs, 0) != ds)
			return false;
		any = true;
	}
	return any;
}

bool fe_global_warps(finder *F, int k)
{
	const fe_ast *a = F->a;
	const fe_kern *K = &F->f->kernels.items[k];
	for (size_t i = 0; i < a->len; i++) {
		int e = fe_warp_division(a, (int)i);
		if (e >= 0 && under(a, (int)i, K->body) &&
		    global_start(a, e, 'x'))
			return true;
	}
	return false;
}
