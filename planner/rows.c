/*
 * rows.c - the refactors the built-in planner proposes for "one block per
 * row" kernels (SGLang's and vLLM's activation, norm and quantisation
 * kernels): row_split, hoist_loads and launch_bounds; and pack_stores, for
 * any loop of a constant count that stores narrow elements one at a time.
 *
 * Such a kernel takes its row from blockIdx.x and walks the row's columns
 * with `for (T i = threadIdx.x; i < N; i += blockDim.x)`. The first two
 * refactors change which thread runs which iteration, or in what order a
 * thread runs its own, so both need the loop to be *elementwise*: every
 * write of an iteration lands on a local of that iteration or on `A[off +
 * i]` (and A is read only there), nothing is kept from one iteration to
 * the next, and no thread talks to another (no barrier, shuffle, vote or
 * atomic). Then any order and any assignment of iterations to threads
 * computes the same. Everything is read from the AST, never from names.
 */
#include "planner/planner.h"

#include <ctype.h>
#include <string.h>

typedef KT_VEC(kt_plan_access) accesses;

/* An atomic read-modify-write: CUDA's `atomicAdd(&c[k], 1)` and the
 * like, OpenCL C's `atomic_inc(&c[k])`, `atom_add(...)`. */
static bool is_atomic_name(const char *name)
{
	return !strncmp(name, "atomic", 6) || !strncmp(name, "atom_", 5);
}

/* Calls through which threads talk to each other; atomics only where
 * `atomics` is true. */
static bool talks_with(const fe_ast *a, int n, bool atomics)
{
	static const char *const calls[] = {
	    "__sync", "__shfl", "atomic", "__ballot", "__any", "__all",
	    "__match", "sync", "__activemask", "__reduce",
	    /* OpenCL C's */
	    "barrier", "work_group_", "sub_group_", "mem_fence", "atom_", NULL};
	for (const char *const *c = calls; *c; c++)
		if ((atomics || !is_atomic_name(*c)) && pl_has_call(a, n, *c))
			return true;
	return false;
}

static bool talks(const fe_ast *a, int n)
{
	return talks_with(a, n, true);
}

/* `for (T i = S; i < N; i += STEP) body`: i, N, body and the `+=`
 * (S, STEP and i's type left to the caller). */
static bool up_loop(const fe_ast *a, int fs, int *var, int *bound, int *body,
                    int *inc)
{
	if (a->n[fs].kind != CXCursor_ForStmt || fe_nchildren(a, fs) != 4)
		return false;
	int init = fe_child(a, fs, 0), cond = fe_strip(a, fe_child(a, fs, 1));
	int v = init >= 0 && a->n[init].kind == CXCursor_DeclStmt &&
	                fe_nchildren(a, init) == 1
	            ? a->n[init].first
	            : -1;
	*inc = fe_child(a, fs, 2);
	if (v < 0 || a->n[v].kind != CXCursor_VarDecl ||
	    fe_var_init(a, v) < 0 || cond < 0 ||
	    a->n[cond].kind != CXCursor_BinaryOperator ||
	    a->n[cond].op != CXBinaryOperator_LT || *inc < 0 ||
	    a->n[*inc].kind != CXCursor_CompoundAssignOperator ||
	    a->n[*inc].op != CXBinaryOperator_AddAssign)
		return false;
	int l = fe_strip(a, fe_child(a, cond, 0));
	int il = fe_strip(a, fe_child(a, *inc, 0));
	*bound = fe_child(a, cond, 1);
	*var = v;
	*body = fe_child(a, fs, 3);
	return l >= 0 && a->n[l].ref == v && il >= 0 && a->n[il].ref == v &&
	       *bound >= 0 && !fe_refers_to(a, *bound, v) && *body >= 0;
}

/* `for (T i = threadIdx.x; i < N; i += blockDim.x) body`: i, N, body. */
bool pl_column_loop(const fe_ast *a, int fs, int *var, int *bound, int *body)
{
	int inc;
	return up_loop(a, fs, var, bound, body, &inc) &&
	       fe_builtin(a, fe_var_init(a, *var), "threadIdx") == 'x' &&
	       fe_builtin(a, fe_child(a, inc, 1), "blockDim") == 'x';
}

/* What n writes (an assignment's left side, ++/--'s operand), or -1. */
static int written(const fe_ast *a, int n)
{
	bool compound;
	if (a->n[n].kind == CXCursor_UnaryOperator &&
	    a->n[n].op >= CXUnaryOperator_PostInc &&
	    a->n[n].op <= CXUnaryOperator_PreDec)
		return fe_strip(a, a->n[n].first);
	return fe_assign_lhs(a, n, &compound);
}

/* var itself is written after its declaration (not through it). */
static bool reassigned(const fe_ast *a, int var)
{
	for (size_t i = 0; i < a->len; i++) {
		int lhs = written(a, (int)i);
		if (lhs >= 0 && a->n[lhs].kind == CXCursor_DeclRefExpr &&
		    a->n[lhs].ref == var)
			return true;
	}
	return false;
}

/* Every declaration n refers to lies in body (a pointer into locals). */
static bool only_locals(const fe_ast *a, int n, int body)
{
	const fe_node *x = &a->n[n];
	if (x->kind == CXCursor_DeclRefExpr && x->ref >= 0 &&
	    a->n[x->ref].kind == CXCursor_VarDecl &&
	    !pl_inside(a, x->ref, body))
		return false;
	if (x->kind == CXCursor_DeclRefExpr && x->ref >= 0 &&
	    a->n[x->ref].kind == CXCursor_ParmDecl)
		return false;
	for (int c = x->first; c >= 0; c = a->n[c].next)
		if (!only_locals(a, c, body))
			return false;
	return true;
}

/* A write that stays inside the iteration: to a local of the body, or
 * through a pointer the body made to its own locals. */
static bool local_write(const fe_ast *a, int lhs, int body)
{
	int r = lhs;
	while (r >= 0 && (a->n[r].kind == CXCursor_ArraySubscriptExpr ||
	                  a->n[r].kind == CXCursor_MemberRefExpr ||
	                  (a->n[r].kind == CXCursor_UnaryOperator &&
	                   a->n[r].op == CXUnaryOperator_Deref)))
		r = fe_strip(a, a->n[r].first);
	if (r < 0 || a->n[r].kind != CXCursor_DeclRefExpr || a->n[r].ref < 0 ||
	    a->n[a->n[r].ref].kind != CXCursor_VarDecl ||
	    !pl_inside(a, a->n[r].ref, body))
		return false;
	int v = a->n[r].ref;
	if (clang_getCursorType(a->n[v].cur).kind != CXType_Pointer)
		return true;
	int init = fe_var_init(a, v);
	return init >= 0 && only_locals(a, init, body) && !reassigned(a, v);
}

/* A call that may write through a pointer or reference argument (an
 * assignment operator's left side is checked as a write instead). */
static bool call_may_write(const fe_ast *a, int n)
{
	bool compound;
	if (fe_assign_lhs(a, n, &compound) >= 0)
		return false;
	CXCursor f = clang_getCursorReferenced(a->n[n].cur);
	if (clang_Cursor_isNull(f)) {
		/* unresolved (a dependent call): no pointer, no address */
		for (int c = a->n[n].first; c >= 0; c = a->n[c].next) {
			int s = fe_strip(a, c);
			if (s >= 0 &&
			    ((a->n[s].kind == CXCursor_UnaryOperator &&
			      a->n[s].op == CXUnaryOperator_AddrOf) ||
			     clang_getCursorType(a->n[s].cur).kind ==
			         CXType_Pointer))
				return true;
		}
		return false;
	}
	if (clang_getCursorKind(f) == CXCursor_CXXMethod &&
	    !clang_CXXMethod_isConst(f) && !clang_CXXMethod_isStatic(f))
		return true;
	CXType t = clang_getCursorType(f);
	int na = clang_getNumArgTypes(t);
	for (int i = 0; i < na; i++) {
		CXType p = clang_getArgType(t, (unsigned)i);
		if ((p.kind == CXType_Pointer ||
		     p.kind == CXType_LValueReference ||
		     p.kind == CXType_RValueReference) &&
		    !clang_isConstQualifiedType(clang_getPointeeType(p)))
			return true;
	}
	return false;
}

static int find_access(const accesses *v, const char *name)
{
	for (size_t i = 0; i < v->len; i++)
		if (!strcmp(v->items[i].name, name))
			return (int)i;
	return -1;
}

/* A store `A[off + i]` to an array declared outside the body. */
static bool add_store(planner *P, accesses *st, int lhs, int var, int body)
{
	const fe_ast *a = P->a;
	int base = fe_strip(a, a->n[lhs].first);
	if (base < 0 || a->n[base].kind != CXCursor_DeclRefExpr ||
	    a->n[base].ref < 0 || pl_inside(a, a->n[base].ref, body))
		return false;
	const char *off = pl_offset_of(P, fe_child(a, lhs, 1), var);
	int k = off ? find_access(st, a->n[base].name) : -1;
	if (!off || (k >= 0 && strcmp(st->items[k].offset, off)))
		return false;
	kt_plan_access x = {pl_dup(P, a->n[base].name), off, false, true, NULL};
	if (k < 0 && kt_vec_push(st, x))
		P->oom = 1;
	return true;
}

static bool ends_iteration(const fe_ast *a, int n)
{
	enum CXCursorKind k = a->n[n].kind;
	return k == CXCursor_BreakStmt || k == CXCursor_ReturnStmt ||
	       k == CXCursor_GotoStmt;
}

/* n may stand in an iteration that any thread may run: it does not end
 * the iteration early, read the thread's place in the launch, or call
 * what may write through an argument. */
static bool iteration_node(const fe_ast *a, int n)
{
	const fe_node *x = &a->n[n];
	if (ends_iteration(a, n) ||
	    (x->kind == CXCursor_DeclRefExpr &&
	     (fe_mentions(a, n, "threadIdx") || fe_mentions(a, n, "blockDim") ||
	      fe_mentions(a, n, "gridDim"))))
		return false;
	return x->kind != CXCursor_CallExpr || !call_may_write(a, n);
}

/* The body's writes are elementwise; st gets the arrays it stores to,
 * with their offsets (`offset` "" for a bare `A[i]`). */
static bool elementwise(planner *P, int body, int var, accesses *st)
{
	const fe_ast *a = P->a;
	if (talks(a, body))
		return false;
	for (size_t i = 0; i < a->len; i++) {
		if (!pl_inside(a, (int)i, body))
			continue;
		if (!iteration_node(a, (int)i))
			return false;
		int lhs = written(a, (int)i);
		if (lhs < 0)
			continue;
		if (a->n[lhs].kind == CXCursor_DeclRefExpr &&
		    a->n[lhs].ref == var)
			return false;
		if (!local_write(a, lhs, body) &&
		    (a->n[lhs].kind != CXCursor_ArraySubscriptExpr ||
		     !add_store(P, st, lhs, var, body)))
			return false;
	}
	/* a stored array is used only as `A[off + i]`, its one offset */
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		int k = x->kind == CXCursor_DeclRefExpr &&
		                pl_inside(a, (int)i, body)
		            ? find_access(st, x->name)
		            : -1;
		if (k < 0)
			continue;
		int up = fe_up(a, (int)i);
		const char *off =
		    up >= 0 && a->n[up].kind == CXCursor_ArraySubscriptExpr &&
		            fe_strip(a, a->n[up].first) == (int)i
		        ? pl_offset_of(P, fe_child(a, up, 1), var)
		        : NULL;
		if (!off || strcmp(off, st->items[k].offset))
			return false;
	}
	return !P->oom;
}

/* -------------------------------------------------------- (d) row split */

/* `if (c) return;` with c the same for every thread of the block. */
static bool block_exit(const fe_ast *a, int s)
{
	if (a->n[s].kind != CXCursor_IfStmt || fe_nchildren(a, s) != 2)
		return false;
	int then = fe_child(a, s, 1);
	if (then >= 0 && a->n[then].kind == CXCursor_CompoundStmt &&
	    fe_nchildren(a, then) == 1)
		then = a->n[then].first;
	return then >= 0 && a->n[then].kind == CXCursor_ReturnStmt &&
	       a->n[then].first < 0 && !fe_mentions(a, s, "threadIdx");
}

/* The loop a top-level statement is (through a `#pragma unroll`), or -1. */
static int loop_of(const fe_ast *a, int s)
{
	if (a->n[s].kind == CXCursor_ForStmt)
		return s;
	/* libclang shows a loop under `#pragma unroll` as an unexposed
	 * statement holding it */
	if (a->n[s].kind == CXCursor_UnexposedStmt && fe_nchildren(a, s) == 1 &&
	    a->n[a->n[s].first].kind == CXCursor_ForStmt)
		return a->n[s].first;
	return -1;
}

/* n lies in the start or the step of one of the loops. */
static bool in_header(const fe_ast *a, int n, const int *loops, size_t nl)
{
	for (size_t i = 0; i < nl; i++) {
		int init = fe_child(a, loops[i], 0);
		int step = fe_child(a, fe_child(a, loops[i], 2), 1);
		if (pl_inside(a, n, init) || pl_inside(a, n, step))
			return true;
	}
	return false;
}

/* The kernel takes its row from blockIdx.x alone; threadIdx and
 * blockDim appear only in the column loops' headers. */
static bool row_kernel(const fe_ast *a, int body, const int *loops, size_t nl)
{
	bool row = false;
	if (pl_has_shared(a, body) || talks(a, body))
		return false;
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		if (x->kind != CXCursor_DeclRefExpr ||
		    !pl_inside(a, (int)i, body))
			continue;
		if (fe_mentions(a, (int)i, "gridDim"))
			return false;
		if (fe_mentions(a, (int)i, "blockIdx")) {
			/* `blockIdx.x`, `get_group_id(0)`: the use is the
			 * reference's parent */
			if (fe_builtin(a, fe_up(a, (int)i), "blockIdx") != 'x')
				return false;
			row = true;
		}
		if ((fe_mentions(a, (int)i, "threadIdx") ||
		     fe_mentions(a, (int)i, "blockDim")) &&
		    !in_header(a, (int)i, loops, nl))
			return false;
	}
	return row;
}

static bool is_dim3(const fe_ast *a, int n)
{
	CXString s = clang_getTypeSpelling(clang_getCursorType(a->n[n].cur));
	bool r = strstr(clang_getCString(s), "dim3") != NULL;
	clang_disposeString(s);
	return r;
}

/* The operand to make `dim3(G, SPLIT)`: the launch's grid when it is a
 * scalar, or the one argument of a one-dimensional `dim3 g(G)` that only
 * this launch uses. -1 otherwise. */
static int grid_x(const fe_ast *a, const fe_launch *L)
{
	int g = L->op[0] >= 0 ? fe_strip(a, L->op[0]) : -1;
	if (g < 0 || fe_dim3(a, g) >= 0 ||
	    (L->shared >= 0 && pl_inside(a, g, L->shared)))
		return -1;
	if (is_dim3(a, g) && a->n[g].kind == CXCursor_DeclRefExpr &&
	    a->n[g].ref >= 0) {
		int v = a->n[g].ref, uses = 0;
		for (size_t i = 0; i < a->len; i++)
			uses += a->n[i].kind == CXCursor_DeclRefExpr &&
			        a->n[i].ref == v;
		/* fe_strip takes a one-argument dim3(x) to x */
		g = uses == 1 && !fe_assigned(a, v)
		        ? fe_strip(a, fe_def_before(a, v, a->n[g].b))
		        : -1;
	}
	return g >= 0 && !is_dim3(a, g) && a->n[g].spelled && a->n[g].in_main
	           ? g
	           : -1;
}

/* The grid a split makes two-dimensional: the first launch's one-
 * dimensional grid operand (grid_x), or the grid of the user's `#pragma
 * kt launch` line when the kernel has no launch and that grid is one-
 * dimensional (*line then). False where there is neither. */
static bool split_grid(planner *P, const fe_kern *K, kt_range *grid, bool *line)
{
	int g = K->launches.len ? grid_x(P->a, &K->launches.items[0]) : -1;
	*line = !K->launches.len && K->pragma_launch &&
	        !memchr(P->f->tu->text + K->pgrid.begin.offset, ',',
	                K->pgrid.end.offset - K->pgrid.begin.offset);
	if (g < 0 && !*line)
		return false;
	*grid = *line ? K->pgrid : pl_range(P, g);
	return true;
}

static int row_split(planner *P, int k, const int *loops, size_t nl)
{
	const fe_ast *a = P->a;
	const fe_kern *K = &P->f->kernels.items[k];
	kt_range grid;
	bool line;
	if (!nl || !split_grid(P, K, &grid, &line) ||
	    !row_kernel(a, K->body, loops, nl))
		return KT_OK;
	static const int64_t v[] = {1, 2, 4, 8, 16, 32};
	int p = pl_add_param(P, pl_unique_name(P, "SPLIT", K->name),
	                     KT_ROLE_GRID, pl_dup(P, K->name), 1, v, 6);
	if (p < 0)
		return KT_ENOMEM;
	P->params.items[p].p.evidence =
	    pl_say(P,
	           "'%s' gives each block one row (blockIdx.x) and walks "
	           "its columns with block-strided loops",
	           K->name);
	for (size_t i = 0; i < nl; i++) {
		int var = a->n[fe_child(a, loops[i], 0)].first;
		kt_plan_refactor r = {
		    .kind = KT_REFACTOR_ROW_SPLIT,
		    .kernel = pl_dup(P, K->name),
		    .param = P->params.items[p].p.name,
		    .region = pl_range(P, loops[i]),
		    .index_var = pl_dup(P, a->n[var].name),
		    .grid = grid,
		    .launch = line ? -1 : 0, /* -1: a pragma's */
		    .note = "SPLIT blocks share a row along y: the column loop "
		            "starts at blockIdx.y * blockDim.x + threadIdx.x "
		            "and strides by blockDim.x * gridDim.y"};
		pl_add_refactor(P, r);
	}
	return P->oom ? KT_ENOMEM : KT_OK;
}

/* ------------------------------------------------------ (e) hoist loads */

/* n runs whenever its iteration does: no branch between it and body. */
static bool unconditional(const fe_ast *a, int n, int body)
{
	for (int p = a->n[n].parent; p >= 0 && p != body; p = a->n[p].parent) {
		enum CXCursorKind k = a->n[p].kind;
		if (k == CXCursor_IfStmt || k == CXCursor_ConditionalOperator ||
		    k == CXCursor_SwitchStmt || k == CXCursor_WhileStmt ||
		    k == CXCursor_DoStmt || k == CXCursor_ForStmt ||
		    (k == CXCursor_BinaryOperator &&
		     (a->n[p].op == CXBinaryOperator_LAnd ||
		      a->n[p].op == CXBinaryOperator_LOr)))
			return false;
	}
	return true;
}

/* The kernel parameter a pointer comes from (through local pointers
 * initialised from one pointer), or -1. */
static int root_param(const fe_ast *a, int decl, int depth)
{
	if (decl < 0 || depth > 8)
		return -1;
	if (a->n[decl].kind == CXCursor_ParmDecl)
		return decl;
	int init = a->n[decl].kind == CXCursor_VarDecl && !reassigned(a, decl)
	               ? fe_var_init(a, decl)
	               : -1;
	int from = -1;
	for (size_t i = 0; init >= 0 && i < a->len; i++) {
		const fe_node *x = &a->n[i];
		if (x->kind != CXCursor_DeclRefExpr || x->ref < 0 ||
		    !pl_inside(a, (int)i, init) ||
		    clang_getCursorType(a->n[x->ref].cur).kind !=
		        CXType_Pointer)
			continue;
		if (from >= 0 && from != x->ref)
			return -1;
		from = x->ref;
	}
	return root_param(a, from, depth + 1);
}

/* Every stored array comes from a `__restrict__` kernel parameter: no
 * other pointer reaches its elements, so its loads may move. */
static bool stores_restrict(const fe_ast *a, const accesses *st, int body)
{
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		if (x->kind != CXCursor_DeclRefExpr ||
		    !pl_inside(a, (int)i, body) || find_access(st, x->name) < 0)
			continue;
		int p = root_param(a, x->ref, 0);
		if (p < 0 || !clang_isRestrictQualifiedType(
		                 clang_getCursorType(a->n[p].cur)))
			return false;
	}
	return true;
}

/* The pointer decl comes from a parameter other than those the loop
 * stores through: restrict says nothing of two pointers made from one
 * parameter (`in = buf; out = buf + n`), so such a load stays. */
static bool apart_from_stores(const fe_ast *a, int decl, const accesses *st,
                              int body)
{
	int root = root_param(a, decl, 0);
	for (size_t i = 0; root >= 0 && i < a->len; i++) {
		const fe_node *x = &a->n[i];
		if (x->kind == CXCursor_DeclRefExpr &&
		    pl_inside(a, (int)i, body) &&
		    find_access(st, x->name) >= 0 &&
		    root_param(a, x->ref, 0) == root)
			return false;
	}
	return root >= 0;
}

/* What a loop's hoisted loads must not alias: the arrays an elementwise
 * loop stores to (st, by name), or, for a loop of atomics (st NULL), the
 * declarations its writes and atomics reach (roots, see mem_root). */
typedef struct loop_writes {
	const accesses *st;
	KT_VEC(int) roots;
	int kbody; /* the kernel's body */
} loop_writes;

static bool pointer_like(CXType t)
{
	return t.kind == CXType_Pointer || t.kind == CXType_ConstantArray ||
	       t.kind == CXType_IncompleteArray ||
	       t.kind == CXType_VariableArray ||
	       t.kind == CXType_DependentSizedArray;
}

/* n is a pointer loaded from memory or returned by a call: `rows[r]`,
 * `*pp`, `s.p`, `f(p)` point elsewhere than their operand does. */
static bool loads_pointer(const fe_ast *a, int n)
{
	const fe_node *x = &a->n[n];
	bool loaded = x->kind == CXCursor_CallExpr ||
	              x->kind == CXCursor_ArraySubscriptExpr ||
	              x->kind == CXCursor_MemberRefExpr ||
	              (x->kind == CXCursor_UnaryOperator &&
	               x->op == CXUnaryOperator_Deref);
	return loaded && clang_getCursorType(x->cur).kind == CXType_Pointer;
}

/* An initialiser that only moves a pointer (arithmetic, casts, `&a[k]`):
 * no pointer in it is loaded. */
static bool moves_pointer(const fe_ast *a, int n)
{
	const fe_node *x = &a->n[n];
	if (loads_pointer(a, n))
		return false;
	for (int c = x->first; c >= 0; c = a->n[c].next)
		if (!moves_pointer(a, c))
			return false;
	return true;
}

/* The declaration whose memory a pointer or array declaration decl
 * reaches: a pointer parameter; an array or variable of its own; through
 * local pointers, never reassigned, that an initialiser makes from one
 * such declaration (`int *counts = smem + n`). -1 when not known. */
static int mem_root(const fe_ast *a, int decl, int depth)
{
	if (decl < 0 || depth > 8)
		return -1;
	CXType t = clang_getCursorType(a->n[decl].cur);
	if (a->n[decl].kind == CXCursor_ParmDecl)
		return t.kind == CXType_Pointer ? decl : -1;
	if (a->n[decl].kind != CXCursor_VarDecl ||
	    t.kind == CXType_LValueReference ||
	    t.kind == CXType_RValueReference)
		return -1;
	if (t.kind != CXType_Pointer)
		return decl;
	int init = reassigned(a, decl) ? -1 : fe_var_init(a, decl);
	if (init < 0 || !moves_pointer(a, init))
		return -1;
	int from = -1;
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		if (x->kind != CXCursor_DeclRefExpr || x->ref < 0 ||
		    !pl_inside(a, (int)i, init) ||
		    !pointer_like(clang_getCursorType(a->n[x->ref].cur)))
			continue;
		if (from >= 0 && from != x->ref)
			return -1;
		from = x->ref;
	}
	return mem_root(a, from, depth + 1);
}

/* Where a root's memory lies: global (a kernel parameter), shared (a
 * `__shared__` or `__local` variable), the thread's own (a variable of
 * the kernel); NONE for anything else (a file's `__device__` array). */
enum { SPACE_NONE, SPACE_GLOBAL, SPACE_SHARED, SPACE_THREAD };

static int space_of(const fe_ast *a, int root, int kbody)
{
	if (root < 0)
		return SPACE_NONE;
	if (a->n[root].kind == CXCursor_ParmDecl)
		/* a lambda's parameter may point anywhere */
		return pl_inside(a, root, kbody) ? SPACE_NONE : SPACE_GLOBAL;
	for (int c = a->n[root].first; c >= 0; c = a->n[c].next)
		if (a->n[c].kind == CXCursor_CUDASharedAttr)
			return SPACE_SHARED;
	enum CX_StorageClass sc = clang_Cursor_getStorageClass(a->n[root].cur);
	return pl_inside(a, root, kbody) && sc != CX_SC_Static &&
	               sc != CX_SC_Extern
	           ? SPACE_THREAD
	           : SPACE_NONE;
}

/* `extern __shared__ T s[]`: every such array starts at the block's
 * dynamic shared memory, so two of them alias. */
static bool dynamic_shared(const fe_ast *a, int root)
{
	return clang_Cursor_getStorageClass(a->n[root].cur) == CX_SC_Extern ||
	       clang_getCursorType(a->n[root].cur).kind ==
	           CXType_IncompleteArray;
}

/* No element reached from root l is one reached from root w: other
 * memory (global, shared, the thread's), two arrays of their own, or two
 * parameters one of which is `__restrict__` (an element read through it
 * is written through no other pointer). */
static bool apart(const fe_ast *a, int l, int w, int kbody)
{
	int sl = space_of(a, l, kbody), sw = space_of(a, w, kbody);
	if (sl == SPACE_NONE || sw == SPACE_NONE || l == w)
		return false;
	if (sl != sw)
		return true;
	switch (sl) {
	case SPACE_GLOBAL:
		return clang_isRestrictQualifiedType(
		           clang_getCursorType(a->n[l].cur)) ||
		       clang_isRestrictQualifiedType(
		           clang_getCursorType(a->n[w].cur));
	case SPACE_SHARED:
		return !dynamic_shared(a, l) && !dynamic_shared(a, w);
	default: return true;
	}
}

/* n reads no memory and calls nothing (its value cannot follow the
 * loop's atomics), and no variable it names is declared or written in
 * body (`i`, which the loop alone steps, aside). */
static bool steady(const fe_ast *a, int n, int body, int var)
{
	const fe_node *x = &a->n[n];
	if (x->kind == CXCursor_ArraySubscriptExpr ||
	    x->kind == CXCursor_CallExpr ||
	    (x->kind == CXCursor_UnaryOperator &&
	     x->op == CXUnaryOperator_Deref) ||
	    (x->kind == CXCursor_MemberRefExpr &&
	     !fe_builtin(a, n, "threadIdx") && !fe_builtin(a, n, "blockIdx") &&
	     !fe_builtin(a, n, "blockDim") && !fe_builtin(a, n, "gridDim")))
		return false;
	if (x->kind == CXCursor_MemberRefExpr)
		return true;
	if (x->kind == CXCursor_DeclRefExpr && x->ref >= 0 && x->ref != var &&
	    (pl_inside(a, x->ref, body) || pl_writes(a, body, x->ref, -1)))
		return false;
	for (int c = x->first; c >= 0; c = a->n[c].next)
		if (!steady(a, c, body, var))
			return false;
	return true;
}

/* Array decl, read at index idx in body, may be read before the body's
 * writes of earlier iterations. */
static bool movable(const fe_ast *a, int decl, int idx, int var,
                    const loop_writes *w, int body)
{
	if (w->st)
		return find_access(w->st, a->n[decl].name) < 0 &&
		       apart_from_stores(a, decl, w->st, body);
	int root = mem_root(a, decl, 0);
	if (space_of(a, root, w->kbody) == SPACE_NONE ||
	    !steady(a, idx, body, var))
		return false;
	for (size_t i = 0; i < w->roots.len; i++)
		if (!apart(a, root, w->roots.items[i], w->kbody))
			return false;
	return true;
}

/* The type of a register holding subscript n, or NULL. */
static const char *reg_type(planner *P, int n)
{
	CXType t =
	    clang_getUnqualifiedType(clang_getCursorType(P->a->n[n].cur));
	CXString s = clang_getTypeSpelling(t);
	const char *r = clang_getCString(s);
	r = *r && !strstr(r, "type-parameter") && !strstr(r, "dependent") &&
	            clang_Type_getSizeOf(t) != CXTypeLayoutError_Invalid
	        ? pl_say(P, "%s", r)
	        : NULL;
	clang_disposeString(s);
	return r;
}

/* No declaration n refers to lies in body (loop-invariant but for i). */
static bool only_outside(const fe_ast *a, int n, int body)
{
	const fe_node *x = &a->n[n];
	if (x->kind == CXCursor_DeclRefExpr && x->ref >= 0 &&
	    pl_inside(a, x->ref, body))
		return false;
	for (int c = x->first; c >= 0; c = a->n[c].next)
		if (!only_outside(a, c, body))
			return false;
	return true;
}

/* The loads to hoist: `A[off + i]` of arrays the loop does not store to,
 * off the same for every iteration, read at least once unconditionally. */
static bool hoisted_loads(planner *P, int body, int var, const loop_writes *w,
                          accesses *ld)
{
	const fe_ast *a = P->a;
	for (size_t i = 0; i < a->len; i++) {
		if (a->n[i].kind != CXCursor_ArraySubscriptExpr ||
		    !pl_inside(a, (int)i, body) ||
		    !unconditional(a, (int)i, body))
			continue;
		int base = fe_strip(a, a->n[i].first), up = fe_up(a, (int)i);
		int idx = fe_child(a, (int)i, 1);
		const char *off = pl_offset_of(P, idx, var);
		if (!off || base < 0 ||
		    a->n[base].kind != CXCursor_DeclRefExpr ||
		    a->n[base].ref < 0 || pl_inside(a, a->n[base].ref, body) ||
		    !only_outside(a, idx, body) ||
		    !movable(a, a->n[base].ref, idx, var, w, body) ||
		    (up >= 0 && a->n[up].kind == CXCursor_UnaryOperator &&
		     a->n[up].op == CXUnaryOperator_AddrOf))
			continue;
		bool seen = false;
		for (size_t k = 0; k < ld->len && !seen; k++)
			seen = !strcmp(ld->items[k].name, a->n[base].name) &&
			       !strcmp(ld->items[k].offset, off);
		const char *type = seen ? NULL : reg_type(P, (int)i);
		kt_plan_access x = {pl_dup(P, a->n[base].name), off, true,
		                    false, type};
		if (type && kt_vec_push(ld, x))
			P->oom = 1;
	}
	return ld->len > 0 && !P->oom;
}

static kt_plan_access *plan_accesses(planner *P, const accesses *v)
{
	kt_plan_access *r = kt_plan_alloc(P->plan, v->len * sizeof(*r));
	if (!r) {
		P->oom = 1;
		return NULL;
	}
	for (size_t i = 0; i < v->len; i++) {
		r[i] = v->items[i];
		if (!*r[i].offset)
			r[i].offset = NULL;
	}
	return r;
}

/* A vectorize refactor of the plan rewrites loop fs already. */
static bool vectorized(const planner *P, kt_range loop)
{
	for (size_t i = 0; i < P->refactors.len; i++) {
		const kt_plan_refactor *r = &P->refactors.items[i];
		if (r->kind == KT_REFACTOR_VECTORIZE &&
		    r->region.begin.offset == loop.begin.offset)
			return true;
	}
	return false;
}

/* The hoist_loads refactor of loop fs with loads ld, of the kernel's one
 * ITEMS parameter (*param, made by the first). */
static int propose_hoist(planner *P, int k, int fs, int var, int bound,
                         const accesses *ld, int *param, const char *note,
                         const char *evidence)
{
	const fe_ast *a = P->a;
	const fe_kern *K = &P->f->kernels.items[k];
	static const int64_t v[] = {1, 2, 4, 8};
	if (*param < 0)
		*param = pl_add_param(P, pl_unique_name(P, "ITEMS", K->name),
		                      KT_ROLE_ITEMS_PER_THREAD,
		                      pl_dup(P, K->name), 1, v, 4);
	kt_plan_refactor r = {.kind = KT_REFACTOR_HOIST_LOADS,
	                      .kernel = pl_dup(P, K->name),
	                      .region = pl_range(P, fs),
	                      .index_var = pl_dup(P, a->n[var].name),
	                      .bound = pl_src(P, fe_strip(a, bound)),
	                      .arrays = plan_accesses(P, ld),
	                      .narrays = ld->len,
	                      .launch = -1,
	                      .note = note};
	if (*param < 0 || !r.arrays)
		return KT_ENOMEM;
	r.param = P->params.items[*param].p.name;
	P->params.items[*param].p.evidence = evidence;
	pl_add_refactor(P, r);
	return P->oom ? KT_ENOMEM : KT_OK;
}

static int hoist_loads(planner *P, int k, int fs, int var, int bound, int body,
                       const accesses *st, int *param)
{
	const fe_ast *a = P->a;
	accesses ld = {0};
	loop_writes w = {.st = st, .kbody = P->f->kernels.items[k].body};
	int rc = P->oom ? KT_ENOMEM : KT_OK;
	if (st->len && !vectorized(P, pl_range(P, fs)) &&
	    stores_restrict(a, st, body) &&
	    hoisted_loads(P, body, var, &w, &ld))
		rc = propose_hoist(
		    P, k, fs, var, bound, &ld, param,
		    "each thread loads ITEMS iterations' inputs into "
		    "registers before it computes and stores them",
		    pl_say(P,
		           "a block-strided elementwise loop of '%s': one "
		           "load in flight per thread",
		           P->f->kernels.items[k].name));
	kt_vec_release(&ld);
	return rc;
}

/* Of `p + k`, `p[k]` (or `k[p]`): the operand that is the pointer. */
static int pointer_operand(const fe_ast *a, int l, int r)
{
	if (l < 0 || r < 0 ||
	    pointer_like(clang_getCursorType(a->n[l].cur)) ==
	        pointer_like(clang_getCursorType(a->n[r].cur)))
		return -1;
	return pointer_like(clang_getCursorType(a->n[l].cur)) ? l : r;
}

/* The root of the memory an atomic's target or a write's left side
 * reaches (`&c[k]`, `c + k`, `c[k].m`, `*p`, through casts), or -1
 * where a pointer on the way is loaded. */
static int target_root(const fe_ast *a, int e)
{
	for (int depth = 0; depth < 32 && (e = fe_strip(a, e)) >= 0; depth++) {
		const fe_node *x = &a->n[e];
		int l = fe_child(a, e, 0), r = fe_child(a, e, 1);
		if (loads_pointer(a, e))
			return -1; /* `p->data[k]`, `rows[r][k]`: elsewhere */
		switch (x->kind) {
		case CXCursor_DeclRefExpr: return mem_root(a, x->ref, 0);
		case CXCursor_MemberRefExpr: e = x->first; break;
		case CXCursor_CStyleCastExpr:
		case CXCursor_CXXStaticCastExpr:
		case CXCursor_CXXReinterpretCastExpr:
		case CXCursor_CXXConstCastExpr: e = x->last; break;
		case CXCursor_UnaryOperator:
			if (x->op != CXUnaryOperator_AddrOf &&
			    x->op != CXUnaryOperator_Deref)
				return -1;
			e = x->first;
			break;
		case CXCursor_BinaryOperator:
			if (x->op != CXBinaryOperator_Add &&
			    x->op != CXBinaryOperator_Sub)
				return -1;
			e = pointer_operand(a, l, r);
			break;
		case CXCursor_ArraySubscriptExpr:
			e = pointer_operand(a, l, r);
			break;
		default: return -1;
		}
	}
	return -1;
}

/* The argument an atomic call updates (its first), or -1. */
static int atomic_target(const fe_ast *a, int call)
{
	int na = clang_Cursor_getNumArguments(a->n[call].cur);
	int nc = fe_nchildren(a, call);
	return na > 0 && nc >= na ? fe_child(a, call, nc - na) : -1;
}

/* A loop of atomics (a histogram's counting loop): at least one atomic,
 * no barrier, shuffle or vote, no break, return or goto, i not written;
 * every other write lands on a local of the iteration or on memory whose
 * root is known. w->roots gets the roots of the atomics' targets and of
 * the writes. */
static bool atomic_loop(planner *P, int body, int var, loop_writes *w)
{
	const fe_ast *a = P->a;
	bool atomics = false;
	if (talks_with(a, body, false))
		return false;
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		if (!pl_inside(a, (int)i, body))
			continue;
		if (ends_iteration(a, (int)i))
			return false;
		int target = -1;
		if (x->kind == CXCursor_CallExpr && is_atomic_name(x->name)) {
			target = atomic_target(a, (int)i);
			atomics = true;
			if (target < 0)
				return false;
		} else if (x->kind == CXCursor_CallExpr &&
		           call_may_write(a, (int)i)) {
			return false;
		} else {
			int lhs = written(a, (int)i);
			if (lhs < 0 || local_write(a, lhs, body))
				continue;
			if (a->n[lhs].kind == CXCursor_DeclRefExpr &&
			    a->n[lhs].ref == var)
				return false;
			target = lhs;
		}
		int root = target_root(a, target);
		if (space_of(a, root, w->kbody) == SPACE_NONE)
			return false;
		if (kt_vec_push(&w->roots, root)) {
			P->oom = 1;
			return false;
		}
	}
	return atomics;
}

/* n is positive: a product of `blockDim.*`, `gridDim.*` and positive
 * literals, or a variable never reassigned that one initialises (`const
 * int stride = gridDim.x * blockDim.x;`). */
static bool positive_step(const fe_ast *a, int n, int depth)
{
	n = fe_strip(a, n);
	if (n < 0 || depth > 4)
		return false;
	const fe_node *x = &a->n[n];
	if (x->is_int)
		return x->ival > 0;
	if (x->kind == CXCursor_MemberRefExpr)
		return fe_builtin(a, n, "blockDim") ||
		       fe_builtin(a, n, "gridDim");
	if (x->kind == CXCursor_BinaryOperator && x->op == CXBinaryOperator_Mul)
		return positive_step(a, fe_child(a, n, 0), depth) &&
		       positive_step(a, fe_child(a, n, 1), depth);
	if (x->kind == CXCursor_CStyleCastExpr)
		return positive_step(a, x->last, depth);
	return x->kind == CXCursor_DeclRefExpr && x->ref >= 0 &&
	       a->n[x->ref].kind == CXCursor_VarDecl &&
	       !fe_assigned(a, x->ref) && !reassigned(a, x->ref) &&
	       positive_step(a, fe_var_init(a, x->ref), depth + 1);
}

static bool index_type(enum CXTypeKind t)
{
	switch (t) {
	case CXType_Short:
	case CXType_UShort:
	case CXType_Int:
	case CXType_UInt:
	case CXType_Long:
	case CXType_ULong:
	case CXType_LongLong:
	case CXType_ULongLong: return true;
	default: return false;
	}
}

/* `for (T i = a; i < N; i += s) body` with i an integer and s positive
 * (a block's or a grid's stride): i, N, body. */
static bool strided_loop(const fe_ast *a, int fs, int *var, int *bound,
                         int *body)
{
	int inc;
	return up_loop(a, fs, var, bound, body, &inc) &&
	       index_type(clang_getCursorType(a->n[*var].cur).kind) &&
	       positive_step(a, fe_child(a, inc, 1), 0);
}

/* Loop fs (not inside a loop hoisted already) is a block- or grid-strided
 * loop of atomics whose loads read memory that nothing the loop writes
 * reaches. */
static int hoist_atomics(planner *P, int k, int fs, int *param)
{
	const fe_ast *a = P->a;
	int var, bound, body;
	for (size_t i = 0; i < P->refactors.len; i++) {
		const kt_plan_refactor *r = &P->refactors.items[i];
		if (r->kind == KT_REFACTOR_HOIST_LOADS &&
		    a->n[fs].b >= r->region.begin.offset &&
		    a->n[fs].e <= r->region.end.offset)
			return KT_OK;
	}
	if (!strided_loop(a, fs, &var, &bound, &body) ||
	    vectorized(P, pl_range(P, fs)))
		return KT_OK;
	loop_writes w = {.kbody = P->f->kernels.items[k].body};
	accesses ld = {0};
	int rc = KT_OK;
	if (atomic_loop(P, body, var, &w) &&
	    steady(a, fe_strip(a, bound), body, var) &&
	    hoisted_loads(P, body, var, &w, &ld))
		rc = propose_hoist(
		    P, k, fs, var, bound, &ld, param,
		    "each thread loads ITEMS iterations' inputs into "
		    "registers before their atomics",
		    pl_say(P,
		           "a strided loop of atomics of '%s': one load in "
		           "flight per thread",
		           P->f->kernels.items[k].name));
	kt_vec_release(&ld);
	kt_vec_release(&w.roots);
	return rc ? rc : P->oom ? KT_ENOMEM : KT_OK;
}

/* ---------------------------------------------------- (f) launch bounds */

/* The kernel already has launch bounds, or an attribute that may be. */
static bool has_bounds(const fe_ast *a, const fe_kern *K)
{
	size_t len;
	const char *t = fe_text(a, K->node, &len);
	size_t head = K->loc > a->n[K->node].b ? K->loc - a->n[K->node].b : 0;
	for (size_t i = 0; i + 6 <= head && i < len; i++)
		if (!strncmp(t + i, "bounds", 6) ||
		    !strncmp(t + i, "maxnreg", 7))
			return true;
	for (int c = a->n[K->node].first; c >= 0; c = a->n[c].next)
		if (a->n[c].kind == CXCursor_UnexposedAttr)
			return true;
	return false;
}

/* Some use of parameter p (any, with p < 0) lies in node n. */
static bool param_use_in(const planner *P, int n, int p)
{
	const fe_node *x = &P->a->n[n];
	for (size_t i = 0; i < P->params.len; i++) {
		const pl_param *q = &P->params.items[i];
		for (size_t u = 0; (p < 0 || (size_t)p == i) && u < q->uses.len;
		     u++)
			if (q->uses.items[u].range.begin.offset >= x->b &&
			    q->uses.items[u].range.end.offset <= x->e)
				return true;
	}
	return false;
}

/* The parameter whose `#define` (a macro site) gives literal n, or -1. */
static int macro_param(const planner *P, int n)
{
	const fe_ast *a = P->a;
	int m = a->n[n].macro;
	if (!a->n[n].is_int || m < 0 || !a->n[m].name)
		return -1;
	for (size_t i = 0; i < P->params.len; i++) {
		const pl_param *q = &P->params.items[i];
		for (size_t u = 0; u < q->uses.len; u++)
			if (q->uses.items[u].site == KT_SITE_MACRO &&
			    !strcmp(q->p.name, a->n[m].name))
				return (int)i;
	}
	return -1;
}

/*
 * The first launch's block: its x operand, and the product of its other
 * dims where they are literals no parameter replaces (else false). With
 * yzs, a dim written as a macro a parameter tunes counts too: its name
 * goes into *yzs (`NAME` or `A * B`, NULL for none) and not into *yz.
 */
bool pl_block_dims(planner *P, const fe_launch *L, int *x, int64_t *yz,
                   const char **yzs)
{
	const fe_ast *a = P->a;
	int op = L->op[1] >= 0 ? fe_strip(a, L->op[1]) : -1;
	int d = op >= 0 ? fe_dim3(a, op) : -1;
	*yz = 1;
	if (yzs)
		*yzs = NULL;
	if (d < 0 && op >= 0 && is_dim3(a, op) &&
	    a->n[op].kind == CXCursor_DeclRefExpr && a->n[op].ref >= 0)
		op = fe_strip(a, fe_def_before(a, a->n[op].ref, a->n[op].b));
	*x = d >= 0 ? fe_strip(a, fe_written(a, d, 0)) : op;
	for (int k = 1, c; d >= 0 && (c = fe_written(a, d, k)) >= 0; k++) {
		c = fe_strip(a, c);
		int mp = c >= 0 ? macro_param(P, c) : -1;
		if (mp >= 0 && yzs) {
			const char *name = P->params.items[mp].p.name;
			*yzs = *yzs ? pl_say(P, "%s * %s", *yzs, name) : name;
			continue;
		}
		if (c < 0 || !a->n[c].is_int || mp >= 0 ||
		    param_use_in(P, c, -1))
			return false;
		*yz *= a->n[c].ival;
	}
	/* a local holding the block size (`int threads = 256;`) */
	if (*x >= 0 && a->n[*x].kind == CXCursor_DeclRefExpr &&
	    a->n[*x].ref >= 0 && a->n[a->n[*x].ref].kind == CXCursor_VarDecl &&
	    !reassigned(a, a->n[*x].ref))
		*x = fe_strip(a, fe_var_init(a, a->n[*x].ref));
	return *x >= 0 && !is_dim3(a, *x);
}

/* Expression n as the template spells it when that is parameters and
 * the warp size only (`NUM_WARPS_PER_BLOCK * 32`: the count of warps a
 * parameter tunes, through a local), else NULL. */
static const char *params_only(planner *P, int n)
{
	kt_str e = KT_STR_INIT;
	pl_names problems = {0};
	bool ok = pl_expr(P, n, &e, &problems) && problems.len == 0 && e.ptr;
	for (const char *c = ok ? e.ptr : ""; ok && *c;) {
		size_t w = 0;
		while (isalnum((unsigned char)c[w]) || c[w] == '_')
			w++;
		if (w && !isdigit((unsigned char)*c)) {
			char name[128];
			ok = w < sizeof(name);
			if (ok) {
				memcpy(name, c, w);
				name[w] = 0;
				ok = pl_find_param(P, name) >= 0;
			}
			c += w;
		} else if (w) {
			/* the warp size alone: another number may be one a
			 * later refactor makes a parameter (threads per
			 * group's 16 in `groups * 16`), which a bound
			 * written now would not follow */
			ok = w == 2 && !strncmp(c, "32", 2);
			c += w;
		} else {
			ok = strchr(" ()+-*/", *c) != NULL;
			c++;
		}
	}
	const char *r = ok ? pl_say(P, "%s", e.ptr) : NULL;
	kt_str_release(&e);
	kt_vec_release(&problems);
	return r;
}

/*
 * The most threads a block of the first launch has, as an expression:
 * the kernel's one block-size parameter where the block's x is that
 * parameter (or a clamp at it, `d / 8 < CAP ? d / 8 : CAP` rounded up to
 * whole warps), a macro a parameter tunes, an expression of parameters
 * and the warp size (a count of warps times 32), or the block's literal
 * size;
 * times the block's other dims (literals, macros parameters tune). NULL
 * where it is not known.
 */
static const char *max_threads(planner *P, const fe_kern *K)
{
	const fe_launch *L = &K->launches.items[0];
	int p = -1, n = 0, x;
	int64_t yz;
	const char *yzs;
	for (size_t i = 0; i < P->params.len; i++) {
		const kt_plan_param *q = &P->params.items[i].p;
		if (q->role == KT_ROLE_BLOCK_SIZE &&
		    !strcmp(q->kernel, K->name))
			p = (int)i, n++;
	}
	if (n > 1 || !pl_block_dims(P, L, &x, &yz, &yzs) || yz <= 0)
		return NULL;
	const fe_node *xn = &P->a->n[x];
	/* a block written as a macro that a parameter tunes (`#define
	 * BLOCK 256` guarded): that parameter's */
	int mp = macro_param(P, x);
	const char *xs;
	if (mp >= 0) {
		xs = P->params.items[mp].p.name;
	} else if (n == 0 && !xn->is_int) { /* `num_warps * 32` */
		if (!(xs = params_only(P, x)))
			return NULL;
	} else if (n == 0) { /* a literal block */
		if (xn->ival <= 0 || param_use_in(P, x, -1))
			return NULL;
		xs = pl_say(P, "%lld", (long long)(xn->ival * yz));
		yz = 1;
	} else {
		const pl_param *q = &P->params.items[p];
		bool exact = false;
		for (size_t u = 0; u < q->uses.len; u++) {
			const kt_plan_use *use = &q->uses.items[u];
			exact |= use->range.begin.offset == xn->b &&
			         use->range.end.offset == xn->e && use->with &&
			         !strcmp(use->with, q->p.name);
		}
		/* a clamp's cap is the block-size parameter (frontend/cap.c) */
		if (!exact && !L->capped)
			return NULL;
		xs = q->p.name;
	}
	if (yz != 1)
		xs = pl_say(P, "%s * %lld", xs, (long long)yz);
	return yzs ? pl_say(P, "%s * %s", xs, yzs) : xs;
}

/* The kernel's name in its definition: the attribute goes before it. */
static kt_range kernel_name(const planner *P, const fe_kern *K)
{
	return kt_fe_make_range(P->f->tu, K->loc,
	                        K->loc + (uint32_t)strlen(K->name));
}

static int launch_bounds(planner *P, int k)
{
	const fe_kern *K = &P->f->kernels.items[k];
	const char *mt =
	    K->launches.len && !has_bounds(P->a, K) ? max_threads(P, K) : NULL;
	if (!mt)
		return KT_OK;
	static const int64_t v[] = {0, 1, 2, 4};
	int p = pl_add_param(P, pl_unique_name(P, "MIN_BLOCKS", K->name),
	                     KT_ROLE_OTHER, pl_dup(P, K->name), 0, v, 4);
	if (p < 0)
		return KT_ENOMEM;
	kt_plan_refactor r = {
	    .kind = KT_REFACTOR_LAUNCH_BOUNDS,
	    .kernel = pl_dup(P, K->name),
	    .param = P->params.items[p].p.name,
	    .max_threads = mt,
	    .launch = -1,
	    .note = "__launch_bounds__(max_threads, MIN_BLOCKS) when "
	            "MIN_BLOCKS > 0: ptxas keeps registers low enough for "
	            "MIN_BLOCKS blocks per multiprocessor"};
	r.region = kernel_name(P, K);
	P->params.items[p].p.evidence =
	    pl_say(P,
	           "'%s' has no launch bounds; its blocks have at most %s "
	           "threads",
	           K->name, mt);
	pl_add_constraint(P, pl_say(P, "%s * %s <= DEVICE_MAX_THREADS_PER_SM",
	                            mt, P->params.items[p].p.name));
	pl_add_refactor(P, r);
	return P->oom ? KT_ENOMEM : KT_OK;
}

/* ---------------------------------------------------- (h) cluster split */

/*
 * A row kernel that *reduces* its row (a sum kept across a column loop,
 * then a block reduction through shared memory and shuffles) cannot be
 * split over blocks that do not talk. Over a thread-block cluster
 * (sm_90) they can: every column loop of the kernel is split as row_split
 * splits it, and right after a loop that sums, each thread adds its
 * partial sum to those of the threads of the same index in the cluster's
 * other blocks through distributed shared memory (ranks in order, so
 * every block gets the same bits). From there on each block holds what
 * the one block of the original held, and the code between the loops
 * runs in every block of the cluster as it ran in the one. That needs:
 *
 * - every loop the same mapping of iterations to threads (all top-level
 *   column loops are split), and a thread reading in a loop only the
 *   elements its own iterations wrote (an array stored in a loop is
 *   accessed only in loops, at subscripts among its stores');
 * - the code outside the loops the same in every block: no atomics, no
 *   thread-dependent return, no block index but blockIdx.x, no gridDim;
 * - a sum starting from a literal zero, added to only by `s += e` in its
 *   one loop (each block's zero start adds nothing to the others').
 *
 * Names of shared memory are taken as distinct arrays (`float *a = smem,
 * *b = smem + 32`, the idiom of one extern array carved in two).
 */

typedef struct csum {
	int var, loop;
} csum;

typedef struct cacc {
	int var;           /* the array: a parameter or a local */
	const char *index; /* its subscript, the loop's index as `@` */
	bool store;
} cacc;

typedef struct cscan {
	KT_VEC(csum) sums;
	KT_VEC(cacc) accs;
} cscan;

/* The variable an access goes through: the base of `A[k]`, `*p`, `p->f`
 * (through casts), or -1. */
static int access_base(const fe_ast *a, int n)
{
	int b = -1;
	if (a->n[n].kind == CXCursor_ArraySubscriptExpr ||
	    (a->n[n].kind == CXCursor_UnaryOperator &&
	     a->n[n].op == CXUnaryOperator_Deref))
		b = fe_strip(a, a->n[n].first);
	else if (a->n[n].kind == CXCursor_MemberRefExpr && a->n[n].first >= 0 &&
	         clang_getCursorType(a->n[a->n[n].first].cur).kind ==
	             CXType_Pointer)
		b = fe_strip(a, a->n[n].first);
	while (b >= 0 && a->n[b].kind != CXCursor_DeclRefExpr &&
	       a->n[b].first >= 0 &&
	       (a->n[b].kind == CXCursor_CXXReinterpretCastExpr ||
	        a->n[b].kind == CXCursor_CXXStaticCastExpr ||
	        a->n[b].kind == CXCursor_CStyleCastExpr ||
	        a->n[b].kind == CXCursor_UnexposedExpr ||
	        a->n[b].kind == CXCursor_ParenExpr))
		b = a->n[b].last;
	return b >= 0 && a->n[b].kind == CXCursor_DeclRefExpr ? a->n[b].ref
	                                                      : -1;
}

/* A subscript's text with the loop's index `@` and no blanks. */
static const char *index_text(planner *P, int idx, int var)
{
	const char *t = pl_src(P, idx), *name = P->a->n[var].name;
	size_t nl = strlen(name);
	kt_str s = KT_STR_INIT;
	for (const char *p = t; p && *p;) {
		bool word = (isalpha((unsigned char)*p) || *p == '_') &&
		            (p == t ||
		             !(isalnum((unsigned char)p[-1]) || p[-1] == '_'));
		if (word && !strncmp(p, name, nl) &&
		    !(isalnum((unsigned char)p[nl]) || p[nl] == '_')) {
			kt_str_addc(&s, '@');
			p += nl;
		} else if (!isspace((unsigned char)*p))
			kt_str_addc(&s, *p++);
		else
			p++;
	}
	const char *r = s.ptr ? pl_dup(P, s.ptr) : NULL;
	kt_str_release(&s);
	if (!r)
		P->oom = 1;
	return r;
}

static bool arithmetic(CXType t)
{
	t = clang_getCanonicalType(t);
	return t.kind >= CXType_Char_U && t.kind <= CXType_LongDouble &&
	       t.kind != CXType_Bool;
}

/* The literal zero a declaration starts from. */
static bool starts_at_zero(const fe_ast *a, int var)
{
	int init = fe_var_init(a, var);
	init = init >= 0 ? fe_strip(a, init) : -1;
	return init >= 0 && ((a->n[init].is_int && a->n[init].ival == 0) ||
	                     (a->n[init].is_float && a->n[init].fval == 0));
}

/* A column loop whose iterations are independent but for sums; its
 * sums and array accesses go into sc. */
static bool summing(planner *P, int kbody, int fs, int var, int body, cscan *sc)
{
	const fe_ast *a = P->a;
	if (talks(a, body))
		return false;
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		if (!pl_inside(a, (int)i, body))
			continue;
		if (!iteration_node(a, (int)i))
			return false;
		int base = access_base(a, (int)i);
		if (base >= 0 && !pl_inside(a, base, body)) {
			int up = fe_up(a, (int)i);
			bool store = up >= 0 && written(a, up) == (int)i;
			if (x->kind != CXCursor_ArraySubscriptExpr)
				return false; /* `*p`, `p->f` of an outer p */
			cacc c = {base,
			          index_text(P, fe_child(a, (int)i, 1), var),
			          store};
			if (!c.index || kt_vec_push(&sc->accs, c)) {
				P->oom = 1;
				return false;
			}
		}
		int lhs = written(a, (int)i);
		if (lhs < 0)
			continue;
		if (a->n[lhs].kind == CXCursor_DeclRefExpr &&
		    a->n[lhs].ref == var)
			return false;
		if (local_write(a, lhs, body) ||
		    a->n[lhs].kind == CXCursor_ArraySubscriptExpr)
			continue;
		/* `s += e` on a local of the kernel's own block */
		int v =
		    a->n[lhs].kind == CXCursor_DeclRefExpr ? a->n[lhs].ref : -1;
		int ds = v >= 0 ? a->n[v].parent : -1;
		if (x->kind != CXCursor_CompoundAssignOperator ||
		    x->op != CXBinaryOperator_AddAssign || v < 0 ||
		    a->n[v].kind != CXCursor_VarDecl || ds < 0 ||
		    a->n[ds].parent != kbody ||
		    !arithmetic(clang_getCursorType(a->n[v].cur)) ||
		    !starts_at_zero(a, v))
			return false;
		bool seen = false;
		for (size_t k = 0; k < sc->sums.len; k++) {
			if (sc->sums.items[k].var == v &&
			    sc->sums.items[k].loop != fs)
				return false; /* summed by two loops */
			seen |= sc->sums.items[k].var == v;
		}
		if (!seen && kt_vec_push(&sc->sums, ((csum){v, fs}))) {
			P->oom = 1;
			return false;
		}
	}
	/* a sum is only added to in its loop */
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		if (x->kind != CXCursor_DeclRefExpr ||
		    !pl_inside(a, (int)i, body))
			continue;
		for (size_t k = 0; k < sc->sums.len; k++) {
			int up = fe_up(a, (int)i);
			if (sc->sums.items[k].var == x->ref &&
			    !(up >= 0 &&
			      a->n[up].kind ==
			          CXCursor_CompoundAssignOperator &&
			      fe_strip(a, a->n[up].first) == (int)i))
				return false;
		}
	}
	return !P->oom;
}

/* n lies in one of the split loops. */
static bool in_loops(const fe_ast *a, int n, const int *loops, size_t nl)
{
	for (size_t i = 0; i < nl; i++)
		if (pl_inside(a, n, loops[i]))
			return true;
	return false;
}

/* The same array to the rules above: one variable, or two pointers from
 * one kernel parameter. */
static bool same_array(const fe_ast *a, int u, int v)
{
	if (u == v)
		return true;
	int pu = root_param(a, u, 0), pv = root_param(a, v, 0);
	return pu >= 0 && pu == pv;
}

/* Every access to an array a loop stores to is in a loop, through the
 * stored variable, at one of its stores' subscripts. */
static bool accesses_stay(const fe_ast *a, int body, const cscan *sc,
                          const int *loops, size_t nl)
{
	for (size_t s = 0; s < sc->accs.len; s++) {
		const cacc *st = &sc->accs.items[s];
		if (!st->store)
			continue;
		for (size_t k = 0; k < sc->accs.len; k++) {
			const cacc *x = &sc->accs.items[k];
			if (!same_array(a, x->var, st->var))
				continue;
			if (x->var != st->var)
				return false;
			bool found = false;
			for (size_t j = 0; j < sc->accs.len && !found; j++)
				found =
				    sc->accs.items[j].store &&
				    sc->accs.items[j].var == x->var &&
				    !strcmp(sc->accs.items[j].index, x->index);
			if (!found)
				return false;
		}
		for (size_t i = 0; i < a->len; i++) {
			int b = access_base(a, (int)i);
			if (b >= 0 && pl_inside(a, (int)i, body) &&
			    !in_loops(a, (int)i, loops, nl) &&
			    same_array(a, b, st->var))
				return false;
		}
	}
	return true;
}

/* The code outside the loops runs alike in every block of a cluster. */
static bool cluster_uniform(const fe_ast *a, int body, const int *loops,
                            size_t nl)
{
	/* a return only as a whole-block exit before the first loop */
	for (int s = a->n[body].first; s >= 0; s = a->n[s].next) {
		if (s == loops[0] || pl_inside(a, loops[0], s))
			break;
		if (block_exit(a, s))
			continue;
		for (size_t i = 0; i < a->len; i++)
			if (a->n[i].kind == CXCursor_ReturnStmt &&
			    pl_inside(a, (int)i, s))
				return false;
	}
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		if (!pl_inside(a, (int)i, body))
			continue;
		int top = (int)i;
		while (top >= 0 && a->n[top].parent != body)
			top = a->n[top].parent;
		if (x->kind == CXCursor_ReturnStmt &&
		    !(top >= 0 && block_exit(a, top) &&
		      a->n[top].b < a->n[loops[0]].b))
			return false;
		if (x->kind == CXCursor_DeclRefExpr &&
		    (fe_mentions(a, (int)i, "gridDim") ||
		     fe_mentions(a, (int)i, "clusterDim") ||
		     (fe_mentions(a, (int)i, "blockIdx") &&
		      fe_builtin(a, fe_up(a, (int)i), "blockIdx") != 'x')))
			return false;
		if (x->kind == CXCursor_CallExpr && x->name &&
		    is_atomic_name(x->name))
			return false;
	}
	return true;
}

static int cluster_split(planner *P, int k)
{
	const fe_ast *a = P->a;
	const fe_kern *K = &P->f->kernels.items[k];
	kt_range grid;
	bool line;
	if (a->tu->opencl || K->launches.len > 1 ||
	    !split_grid(P, K, &grid, &line))
		return KT_OK;
	int loops[16], vars[16];
	size_t nl = 0;
	cscan sc = {0};
	bool ok = true;
	for (int s = a->n[K->body].first; s >= 0 && ok; s = a->n[s].next) {
		int fs = loop_of(a, s), var, bound, body;
		if (fs < 0 || !pl_column_loop(a, fs, &var, &bound, &body))
			continue;
		ok = nl < 16 && summing(P, K->body, fs, var, body, &sc);
		if (ok) {
			vars[nl] = var;
			loops[nl++] = fs;
		}
	}
	/* a column loop elsewhere (in an `if`) would not be split */
	for (size_t i = 0; ok && i < a->len; i++) {
		int var, bound, body;
		ok = !(a->n[i].kind == CXCursor_ForStmt &&
		       pl_inside(a, (int)i, K->body) &&
		       !in_loops(a, (int)i, loops, nl) &&
		       pl_column_loop(a, (int)i, &var, &bound, &body));
	}
	ok = ok && nl > 0 && sc.sums.len > 0 &&
	     accesses_stay(a, K->body, &sc, loops, nl) &&
	     cluster_uniform(a, K->body, loops, nl);
	int p = -1;
	if (ok && !P->oom) {
		static const int64_t v[] = {1, 2, 4, 8};
		p = pl_add_param(P, pl_unique_name(P, "CLUSTER", K->name),
		                 KT_ROLE_GRID, pl_dup(P, K->name), 1, v, 4);
	}
	if (p >= 0) {
		const char *name = P->params.items[p].p.name;
		P->params.items[p].p.evidence = pl_say(
		    P,
		    "'%s' gives each block one row (blockIdx.x) and sums "
		    "it in block-strided loops before a block reduction",
		    K->name);
		pl_add_constraint(
		    P, pl_say(P, "%s == 1 || DEVICE_CC_MAJOR >= 9", name));
		for (size_t i = 0; i < nl; i++) {
			size_t ns = 0;
			kt_plan_access *sums = kt_arena_alloc(
			    P->plan->arena,
			    (sc.sums.len ? sc.sums.len : 1) * sizeof(*sums));
			if (!sums) {
				P->oom = 1;
				break;
			}
			for (size_t j = 0; j < sc.sums.len; j++) {
				const csum *c = &sc.sums.items[j];
				if (c->loop != loops[i])
					continue;
				CXString ts = clang_getTypeSpelling(
				    clang_getCursorType(a->n[c->var].cur));
				sums[ns++] = (kt_plan_access){
				    pl_dup(P, a->n[c->var].name), NULL, false,
				    false, pl_dup(P, clang_getCString(ts))};
				clang_disposeString(ts);
			}
			kt_plan_refactor r = {
			    .kind = KT_REFACTOR_CLUSTER_SPLIT,
			    .kernel = pl_dup(P, K->name),
			    .param = name,
			    .region = pl_range(P, loops[i]),
			    .index_var = pl_dup(P, a->n[vars[i]].name),
			    .arrays = ns ? sums : NULL,
			    .narrays = ns,
			    .grid = grid,
			    .launch = line ? -1 : 0,
			    .block = kernel_name(P, K),
			    .note =
			        "CLUSTER blocks of a cluster share a row "
			        "along y: the column loop starts at "
			        "blockIdx.y * blockDim.x + threadIdx.x and "
			        "strides by blockDim.x * gridDim.y; each sum "
			        "is added up over the cluster through "
			        "distributed shared memory after its loop"};
			pl_add_refactor(P, r);
		}
	}
	kt_vec_release(&sc.sums);
	kt_vec_release(&sc.accs);
	return P->oom || (ok && p < 0) ? KT_ENOMEM : KT_OK;
}

/* ------------------------------------------------------------- the rows */

/* s writes something: an assignment, ++/--, or a call that may write
 * through an argument (a split block would do it once more). */
/* ------------------------------------------------------ (g) pack stores */

/* `for (T k = 0; k < N; k++)` (or `++k`, `k += 1`) with N an integer
 * constant and k not written in the body: k, N, body. */
static bool counted_loop(const fe_ast *a, int fs, int *var, int64_t *count,
                         int *body)
{
	if (a->n[fs].kind != CXCursor_ForStmt || fe_nchildren(a, fs) != 4)
		return false;
	int init = fe_child(a, fs, 0), cond = fe_strip(a, fe_child(a, fs, 1));
	int inc = fe_strip(a, fe_child(a, fs, 2));
	int v = init >= 0 && a->n[init].kind == CXCursor_DeclStmt &&
	                fe_nchildren(a, init) == 1
	            ? a->n[init].first
	            : -1;
	int start = v >= 0 && a->n[v].kind == CXCursor_VarDecl
	                ? fe_strip(a, fe_var_init(a, v))
	                : -1;
	if (start < 0 || !a->n[start].is_int || a->n[start].ival != 0 ||
	    cond < 0 || a->n[cond].kind != CXCursor_BinaryOperator ||
	    a->n[cond].op != CXBinaryOperator_LT || inc < 0)
		return false;
	int l = fe_strip(a, fe_child(a, cond, 0));
	int n = fe_strip(a, fe_child(a, cond, 1));
	int iv = fe_strip(a, a->n[inc].first);
	bool step = (a->n[inc].kind == CXCursor_UnaryOperator &&
	             (a->n[inc].op == CXUnaryOperator_PostInc ||
	              a->n[inc].op == CXUnaryOperator_PreInc)) ||
	            (a->n[inc].kind == CXCursor_CompoundAssignOperator &&
	             a->n[inc].op == CXBinaryOperator_AddAssign &&
	             fe_strip(a, fe_child(a, inc, 1)) >= 0 &&
	             a->n[fe_strip(a, fe_child(a, inc, 1))].is_int &&
	             a->n[fe_strip(a, fe_child(a, inc, 1))].ival == 1);
	*var = v;
	*body = fe_child(a, fs, 3);
	if (l < 0 || a->n[l].ref != v || n < 0 || !a->n[n].is_int || !step ||
	    iv < 0 || a->n[iv].ref != v || *body < 0 ||
	    pl_writes(a, *body, v, -1))
		return false;
	*count = a->n[n].ival;
	return true;
}

/* No declaration inside loop that n refers to, but var. */
static bool invariant_but(const fe_ast *a, int n, int loop, int var)
{
	const fe_node *x = &a->n[n];
	if (x->kind == CXCursor_DeclRefExpr && x->ref >= 0 && x->ref != var &&
	    pl_inside(a, x->ref, loop))
		return false;
	for (int c = x->first; c >= 0; c = a->n[c].next)
		if (!invariant_but(a, c, loop, var))
			return false;
	return true;
}

/* The one store of the body to memory outside the loop, `A[off + k]` or
 * `A[off + k].m`, every iteration, as a plain assignment: its subscript;
 * -1 when the body has none, more, or other writes that leave it (a
 * local of the kernel is a register and may be written). */
static int the_store(const fe_ast *a, int fs, int body, int var)
{
	int store = -1;
	if (talks(a, body))
		return -1;
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		if (!pl_inside(a, (int)i, body))
			continue;
		if (ends_iteration(a, (int)i) ||
		    x->kind == CXCursor_ContinueStmt ||
		    (x->kind == CXCursor_CallExpr && call_may_write(a, (int)i)))
			return -1;
		int lhs = written(a, (int)i);
		if (lhs < 0 || local_write(a, lhs, body))
			continue;
		int ref =
		    a->n[lhs].kind == CXCursor_DeclRefExpr ? a->n[lhs].ref : -1;
		if (ref >= 0 && ref != var &&
		    a->n[ref].kind == CXCursor_VarDecl &&
		    clang_getCursorType(a->n[ref].cur).kind !=
		        CXType_LValueReference)
			continue; /* a register of the kernel */
		bool compound = true;
		bool assign = fe_assign_lhs(a, (int)i, &compound) >= 0;
		int s = lhs;
		if (a->n[s].kind == CXCursor_MemberRefExpr)
			s = fe_strip(a, a->n[s].first);
		if (store >= 0 || !assign || compound || s < 0 ||
		    a->n[s].kind != CXCursor_ArraySubscriptExpr ||
		    !unconditional(a, (int)i, fs))
			return -1;
		store = s;
	}
	if (store < 0)
		return -1;
	int base = fe_strip(a, a->n[store].first);
	int root = base >= 0 && a->n[base].kind == CXCursor_DeclRefExpr
	               ? root_param(a, a->n[base].ref, 0)
	               : -1;
	/* restrict: no load of the loop reads an element stored earlier */
	if (root < 0 ||
	    !clang_isRestrictQualifiedType(
	        clang_getCursorType(a->n[root].cur)) ||
	    pl_inside(a, a->n[base].ref, fs) ||
	    !invariant_but(a, fe_child(a, store, 1), fs, var))
		return -1;
	/* the loop reads or writes the array nowhere else */
	for (size_t i = 0; i < a->len; i++)
		if (a->n[i].kind == CXCursor_DeclRefExpr &&
		    a->n[i].ref == a->n[base].ref && (int)i != base &&
		    pl_inside(a, (int)i, fs))
			return -1;
	return store;
}

/*
 * (g) A loop of a constant count whose one store per iteration writes
 * elements narrower than the vector the count makes (an unrolled quantiser
 * writing eight fp8 bytes one at a time): each byte store is its own
 * instruction and memory transaction. Packed, the loop writes registers
 * and one 4-, 8- or 16-byte store follows.
 */
static int pack_stores(planner *P, int k, int fs)
{
	const fe_ast *a = P->a;
	const fe_kern *K = &P->f->kernels.items[k];
	int var, body;
	int64_t n;
	if (!counted_loop(a, fs, &var, &n, &body) || n < 2 || n > 16)
		return KT_OK;
	int store = the_store(a, fs, body, var);
	const char *off =
	    store >= 0 ? pl_offset_of(P, fe_child(a, store, 1), var) : NULL;
	if (!off)
		return KT_OK;
	long long size =
	    clang_Type_getSizeOf(clang_getCursorType(a->n[store].cur));
	long long bytes = n * size;
	const char *type = reg_type(P, store);
	if (size <= 0 || size > 4 ||
	    (bytes != 4 && bytes != 8 && bytes != 16) || !type)
		return P->oom ? KT_ENOMEM : KT_OK;
	static const int64_t v[] = {0, 1};
	int pi = pl_add_param(P, pl_unique_name(P, "PACK", K->name),
	                      KT_ROLE_OTHER, pl_dup(P, K->name), 0, v, 2);
	int base = fe_strip(a, a->n[store].first);
	kt_plan_access *arr = kt_plan_alloc(P->plan, sizeof(*arr));
	if (pi < 0 || !arr)
		return KT_ENOMEM;
	*arr = (kt_plan_access){pl_dup(P, a->n[base].name), *off ? off : NULL,
	                        false, true, NULL};
	kt_plan_refactor r = {
	    .kind = KT_REFACTOR_PACK_STORES,
	    .kernel = pl_dup(P, K->name),
	    .param = P->params.items[pi].p.name,
	    .region = pl_range(P, fs),
	    .index_var = pl_dup(P, a->n[var].name),
	    .bound = pl_say(P, "%lld", (long long)n),
	    .elem_type = type,
	    .elem_size = (int)size,
	    .arrays = arr,
	    .narrays = 1,
	    .launch = -1,
	    .note = pl_say(P,
	                   "the loop writes its %lld elements of %lld "
	                   "bytes to registers, then one %lld-byte store",
	                   (long long)n, size, bytes)};
	P->params.items[pi].p.evidence =
	    pl_say(P,
	           "'%s' stores %lld-byte elements of '%s' one at a time in a "
	           "loop of %lld",
	           K->name, size, a->n[base].name, (long long)n);
	pl_add_refactor(P, r);
	return P->oom ? KT_ENOMEM : KT_OK;
}

static bool writes(const fe_ast *a, int s)
{
	for (size_t i = 0; i < a->len; i++)
		if (pl_inside(a, (int)i, s) &&
		    (written(a, (int)i) >= 0 ||
		     (a->n[i].kind == CXCursor_CallExpr &&
		      call_may_write(a, (int)i))))
			return true;
	return false;
}

int pl_row_refactors(planner *P, int k)
{
	const fe_ast *a = P->a;
	const fe_kern *K = &P->f->kernels.items[k];
	int loops[16], items = -1, rc = KT_OK;
	size_t nl = 0;
	bool all = true; /* every top-level statement may run per split */
	for (int s = a->n[K->body].first; s >= 0 && !rc; s = a->n[s].next) {
		int fs = loop_of(a, s), var, bound, body;
		accesses st = {0};
		bool col = fs >= 0 &&
		           pl_column_loop(a, fs, &var, &bound, &body) &&
		           elementwise(P, body, var, &st);
		if (col)
			rc = hoist_loads(P, k, fs, var, bound, body, &st,
			                 &items);
		kt_vec_release(&st);
		if (col && nl < 16)
			loops[nl++] = fs;
		else if (!(a->n[s].kind == CXCursor_DeclStmt &&
		           !writes(a, s)) &&
		         !block_exit(a, s) && a->n[s].kind != CXCursor_NullStmt)
			all = false;
	}
	/* loops of atomics, at any depth (not elementwise: no row split) */
	for (size_t i = 0; i < a->len && !rc; i++)
		if (a->n[i].kind == CXCursor_ForStmt &&
		    pl_inside(a, (int)i, K->body))
			rc = hoist_atomics(P, k, (int)i, &items);
	if (!rc && all)
		rc = row_split(P, k, loops, nl);
	if (!rc)
		rc = cluster_split(P, k);
	for (size_t i = 0; i < a->len && !rc; i++)
		if (a->n[i].kind == CXCursor_ForStmt &&
		    pl_inside(a, (int)i, K->body))
			rc = pack_stores(P, k, (int)i);
	return rc ? rc : launch_bounds(P, k);
}
