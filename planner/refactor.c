/*
 * refactor.c - the semantic refactors the built-in planner proposes, and
 * the constraints that keep a kernel's parameters consistent.
 *
 * A refactor is proposed only where its shape is recognised exactly; the
 * rewriter generates the code and verifies it. The planner gives the
 * places (ranges) and the facts (index variable, bound, element type and
 * size, arrays and how they are indexed).
 *
 *  (b) vectorize: `for (i = threadIdx.x; i < N; i += STRIDE) A[off + i] =
 *      f(B[off + i], ...)` with every subscript `off + i` (or `i`) and one
 *      element size: a VEC parameter, vectors of VEC elements.
 *  (c) items_per_thread: `int i = blockIdx.x * blockDim.x + threadIdx.x;`
 *      then `if (i < n)` or `if (i >= n) return;` and no other return:
 *      each thread takes ITEMS_PER_THREAD elements.
 */
#include "planner/planner.h"

#include <ctype.h>
#include <string.h>

bool pl_has_call(const fe_ast *a, int n, const char *name)
{
	if (a->n[n].kind == CXCursor_CallExpr &&
	    !strncmp(a->n[n].name, name, strlen(name)))
		return true;
	for (int c = a->n[n].first; c >= 0; c = a->n[c].next)
		if (pl_has_call(a, c, name))
			return true;
	return false;
}

bool pl_has_shared(const fe_ast *a, int n)
{
	if (a->n[n].kind == CXCursor_CUDASharedAttr)
		return true;
	for (int c = a->n[n].first; c >= 0; c = a->n[c].next)
		if (pl_has_shared(a, c))
			return true;
	return false;
}

static int first_stmt(const fe_ast *a, int body, enum CXCursorKind k)
{
	for (int c = a->n[body].first; c >= 0; c = a->n[c].next)
		if (a->n[c].kind == k)
			return c;
	return -1;
}

const char *pl_src(planner *P, int n)
{
	size_t len;
	const char *t = fe_text(P->a, n, &len);
	return pl_say(P, "%.*s", (int)len, t);
}

void pl_add_refactor(planner *P, kt_plan_refactor r)
{
	/* OpenCL C: a refactor whose code cannot be spelled there is not
	 * proposed, nor the parameter made for it just before */
	if (P->a->tu->opencl && kt_refactor_not_in_opencl(r.kind)) {
		size_t n = P->params.len;
		if (n && !strcmp(P->params.items[n - 1].p.name, r.param))
			P->params.len--;
		return;
	}
	if (kt_vec_push(&P->refactors, r))
		P->oom = 1;
}

/* -------------------------------------------------- (c) items per thread */

static bool thread_index(const fe_ast *a, int n);

/* `T i = blockIdx.x * blockDim.x + threadIdx.x;` (or * BLOCK literal). */
static int index_decl(const fe_ast *a, int body, int *var)
{
	int ds = first_stmt(a, body, CXCursor_DeclStmt);
	if (ds < 0 || fe_nchildren(a, ds) != 1)
		return -1;
	int v = a->n[ds].first;
	int init =
	    v >= 0 && a->n[v].kind == CXCursor_VarDecl ? a->n[v].last : -1;
	if (init < 0 || !thread_index(a, init))
		return -1;
	*var = v;
	return ds;
}

/* `return;` alone or in braces. */
static bool bare_return(const fe_ast *a, int s)
{
	if (s >= 0 && a->n[s].kind == CXCursor_CompoundStmt &&
	    fe_nchildren(a, s) == 1)
		s = a->n[s].first;
	return s >= 0 && a->n[s].kind == CXCursor_ReturnStmt &&
	       a->n[s].first < 0;
}

/*
 * The body's first `if` guards the index var with a kernel parameter n:
 * `if (i < n) ...` (or `n > i`), or `if (i >= n) return;` (or `n <= i`)
 * with no else; the bound's node or -1. *ret is the early return's
 * statement, -1 for the first form. Items run in increasing order of
 * the index, so once one is past n every later one is: the early return
 * ends the thread's work exactly where it ended before.
 */
static int guard_bound(const fe_ast *a, int body, int var, int *ret)
{
	int ifs = first_stmt(a, body, CXCursor_IfStmt);
	int cond = ifs >= 0 ? fe_strip(a, a->n[ifs].first) : -1;
	*ret = -1;
	if (cond < 0 || a->n[cond].kind != CXCursor_BinaryOperator)
		return -1;
	int l = fe_strip(a, fe_child(a, cond, 0));
	int r = fe_strip(a, fe_child(a, cond, 1));
	if (l < 0 || r < 0)
		return -1;
	int op = a->n[cond].op;
	bool early = op == CXBinaryOperator_GE || op == CXBinaryOperator_LE;
	if (op == CXBinaryOperator_GT || op == CXBinaryOperator_LE) {
		int t = l; /* `n > i`, `n <= i`: the index on the right */
		l = r;
		r = t;
	} else if (op != CXBinaryOperator_LT && op != CXBinaryOperator_GE) {
		return -1;
	}
	if (early) {
		int then = fe_child(a, ifs, 1);
		if (fe_nchildren(a, ifs) != 2 || !bare_return(a, then))
			return -1;
		*ret = then;
	}
	if (a->n[l].ref != var || a->n[r].kind != CXCursor_DeclRefExpr ||
	    a->n[r].ref < 0 || a->n[a->n[r].ref].kind != CXCursor_ParmDecl)
		return -1;
	return r;
}

/* A `return` in body other than the one inside `except` (or -1): it
 * would end the thread's later items too. */
static bool other_return(const fe_ast *a, int body, int except)
{
	for (size_t i = 0; i < a->len; i++)
		if (a->n[i].kind == CXCursor_ReturnStmt &&
		    pl_inside(a, (int)i, body) &&
		    (except < 0 || !pl_inside(a, (int)i, except)))
			return true;
	return false;
}

static bool reassigned(const fe_ast *a, int body, int var)
{
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		bool compound;
		int lhs = fe_assign_lhs(a, (int)i, &compound);
		if (x->kind == CXCursor_UnaryOperator &&
		    x->op <= CXUnaryOperator_PreDec)
			lhs = fe_strip(a, x->first);
		if (lhs >= 0 && pl_inside(a, (int)i, body) &&
		    a->n[lhs].ref == var)
			return true;
	}
	return false;
}

static bool is_dim3(const fe_ast *a, int n)
{
	/* `const dim3 grid{...}` too */
	CXType t = clang_getUnqualifiedType(
	    clang_getCanonicalType(clang_getCursorType(a->n[n].cur)));
	CXString s = clang_getTypeSpelling(t);
	bool r = !strcmp(clang_getCString(s), "dim3");
	clang_disposeString(s);
	return r;
}

/* The grid operand the items refactor shrinks: the first launch's (a
 * scalar written in the file), or the grid of the user's `#pragma kt
 * launch` line where no code launches the kernel. */
static bool items_grid(planner *P, const fe_kern *K, kt_range *out)
{
	const fe_ast *a = P->a;
	if (!K->launches.len) {
		*out = K->pgrid;
		return K->pragma_launch;
	}
	if (K->launches.items[0].op[0] < 0)
		return false;
	/* the operand itself, inside a one-argument dim3(...) */
	int grid = fe_strip(a, K->launches.items[0].op[0]);
	int shared = K->launches.items[0].shared;
	if (grid < 0 || (shared >= 0 && pl_inside(a, grid, shared)) ||
	    is_dim3(a, grid))
		return false; /* `dim3 + ITEMS` would not compile */
	if (!a->n[grid].spelled)
		return false; /* written in a macro: no place to edit it */
	*out = pl_range(P, grid);
	return true;
}

static int items_refactor(planner *P, int k)
{
	const fe_ast *a = P->a;
	const fe_kern *K = &P->f->kernels.items[k];
	int var = -1, body = K->body;
	int ds = index_decl(a, body, &var);
	int ret = -1;
	int bound = ds >= 0 ? guard_bound(a, body, var, &ret) : -1;
	kt_range grid;
	if (bound < 0 || other_return(a, body, ret) ||
	    pl_has_call(a, body, "__syncthreads") ||
	    pl_has_call(a, body, "barrier") || pl_has_shared(a, body) ||
	    reassigned(a, body, var) ||
	    first_stmt(a, body, CXCursor_ForStmt) >= 0 ||
	    !items_grid(P, K, &grid))
		return KT_OK;
	static const int64_t v[] = {1, 2, 4, 8};
	int p =
	    pl_add_param(P, pl_unique_name(P, "ITEMS_PER_THREAD", K->name),
	                 KT_ROLE_ITEMS_PER_THREAD, pl_dup(P, K->name), 1, v, 4);
	if (p < 0)
		return KT_ENOMEM;
	kt_plan_refactor r = {
	    .kind = KT_REFACTOR_ITEMS_PER_THREAD,
	    .kernel = pl_dup(P, K->name),
	    .param = P->params.items[p].p.name,
	    .region = pl_range(P, body),
	    .index_var = pl_dup(P, a->n[var].name),
	    .index_decl = pl_range(P, ds),
	    .bound = pl_src(P, bound),
	    .grid = grid,
	    .launch = K->launches.len ? 0 : -1, /* -1: a pragma's */
	    .note = "one element per thread: each thread takes "
	            "ITEMS_PER_THREAD elements, a grid's width apart, and "
	            "the grid shrinks by as much"};
	P->params.items[p].p.evidence = pl_say(P,
	                                       "'%s' handles one element "
	                                       "per thread",
	                                       K->name);
	pl_add_refactor(P, r);
	return P->oom ? KT_ENOMEM : KT_OK;
}

/* ---------------------------------------------------------- (b) vectorize */

typedef KT_VEC(kt_plan_access) accesses;

/* `off + i` or `i`: the offset's text ("" for none), or NULL. */
const char *pl_offset_of(planner *P, int idx, int var)
{
	const fe_ast *a = P->a;
	idx = fe_strip(a, idx);
	if (idx < 0)
		return NULL;
	if (a->n[idx].kind == CXCursor_DeclRefExpr && a->n[idx].ref == var)
		return "";
	if (a->n[idx].kind != CXCursor_BinaryOperator ||
	    a->n[idx].op != CXBinaryOperator_Add)
		return NULL;
	int r = fe_strip(a, fe_child(a, idx, 1));
	int l = fe_child(a, idx, 0);
	if (r < 0 || a->n[r].ref != var || fe_refers_to(a, l, var))
		return NULL;
	return pl_src(P, fe_strip(a, l));
}

static bool add_access(planner *P, accesses *v, int sub, bool store,
                       const char **off, long long *es)
{
	const fe_ast *a = P->a;
	int base = fe_strip(a, a->n[sub].first);
	if (base < 0 || a->n[base].kind != CXCursor_DeclRefExpr)
		return false;
	CXType t = clang_getCursorType(a->n[sub].cur);
	long long size = clang_Type_getSizeOf(t);
	/* elements of several sizes (bf16 in, fp8 out): each array's type
	 * goes with it, *es is the largest (it bounds the vector width) */
	if (size <= 0 || (size & (size - 1)) || size > 16)
		return false;
	*es = size > *es ? size : *es;
	CXString ts = clang_getTypeSpelling(clang_getUnqualifiedType(t));
	const char *type = pl_say(P, "%s", clang_getCString(ts));
	clang_disposeString(ts);
	for (size_t i = 0; i < v->len; i++)
		if (!strcmp(v->items[i].name, a->n[base].name)) {
			v->items[i].load |= !store;
			v->items[i].store |= store;
			return !strcmp(v->items[i].type, type);
		}
	kt_plan_access x = {pl_dup(P, a->n[base].name),
	                    *off && **off ? *off : NULL, !store, store, type};
	if (kt_vec_push(v, x))
		P->oom = 1;
	return true;
}

/* Assignment n is `r = F(r, E)` with F a max or a min, r a variable
 * declared outside body that E does not name: r, else -1; *op: F. */
static int max_min_into(const fe_ast *a, int n, int body, const char **op)
{
	bool compound;
	int lhs = fe_assign_lhs(a, n, &compound);
	int r = lhs >= 0 && a->n[lhs].kind == CXCursor_DeclRefExpr
	            ? a->n[lhs].ref
	            : -1;
	int c = fe_strip(a, fe_child(a, n, 1));
	if (r < 0 || compound || a->n[r].kind != CXCursor_VarDecl ||
	    pl_inside(a, r, body) || c < 0 ||
	    a->n[c].kind != CXCursor_CallExpr || fe_nchildren(a, c) != 3 ||
	    (strcmp(a->n[c].name, "fmaxf") && strcmp(a->n[c].name, "fminf") &&
	     strcmp(a->n[c].name, "max") && strcmp(a->n[c].name, "min")))
		return -1;
	int x = fe_strip(a, fe_child(a, c, 1));
	if (x < 0 || a->n[x].kind != CXCursor_DeclRefExpr || a->n[x].ref != r ||
	    fe_refers_to(a, fe_child(a, c, 2), r))
		return -1;
	*op = a->n[c].name;
	return r;
}

/* Every subscript in body is `off + i` with one off and one element size;
 * i is used nowhere else. The loop stores elements, or (*red, when not
 * NULL) takes the max or min of them into one variable, *red (-1 for
 * none), by *op. */
static bool element_loop(planner *P, int body, int var, accesses *v,
                         const char **off, long long *es, int *red,
                         const char **op)
{
	const fe_ast *a = P->a;
	*off = NULL;
	bool stores = false;
	if (red)
		*red = -1;
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		if (!pl_inside(a, (int)i, body))
			continue;
		bool compound;
		int lhs = fe_assign_lhs(a, (int)i, &compound);
		/* a local of the body is the iteration's own (`v =
		 * fminf(v, hi)`); one from outside, a reduction: not
		 * elementwise */
		bool own = lhs >= 0 && a->n[lhs].kind == CXCursor_DeclRefExpr &&
		           a->n[lhs].ref >= 0 &&
		           a->n[a->n[lhs].ref].kind == CXCursor_VarDecl &&
		           pl_inside(a, a->n[lhs].ref, body);
		int r = lhs >= 0 && !own && red && *red < 0
		            ? max_min_into(a, (int)i, body, op)
		            : -1;
		if (r >= 0) {
			*red = r;
			continue;
		}
		if (lhs >= 0 && !own &&
		    (compound || a->n[lhs].kind != CXCursor_ArraySubscriptExpr))
			return false;
		if (own)
			continue;
		stores |= lhs >= 0;
		if (x->kind == CXCursor_DeclRefExpr && x->ref == var) {
			int up = fe_up(a, (int)i);
			int sub = up >= 0 && a->n[up].kind ==
			                         CXCursor_ArraySubscriptExpr
			              ? up
			          : up >= 0 ? fe_up(a, up)
			                    : -1;
			if (sub < 0 ||
			    a->n[sub].kind != CXCursor_ArraySubscriptExpr)
				return false;
		}
		if (x->kind != CXCursor_ArraySubscriptExpr)
			continue;
		const char *o = pl_offset_of(P, fe_child(a, (int)i, 1), var);
		if (!o || (*off && strcmp(o, *off)))
			return false;
		*off = o;
		int up = fe_up(a, (int)i);
		bool store =
		    up >= 0 && fe_assign_lhs(a, up, &compound) == (int)i;
		if (!add_access(P, v, (int)i, store, off, es))
			return false;
	}
	/* the reduced variable: only in its one `r = F(r, E)` */
	int uses = 0;
	for (size_t i = 0; red && *red >= 0 && i < a->len; i++)
		uses += a->n[i].kind == CXCursor_DeclRefExpr &&
		        a->n[i].ref == *red && pl_inside(a, (int)i, body);
	if (red && *red >= 0 && uses != 2)
		return false;
	return (stores || (red && *red >= 0)) && v->len > 0 && *off;
}

/* Expressions x and y are the same text, or name the same declaration
 * or a literal of the same value. */
static int value_of(const fe_ast *a, int n);

static bool same_value(const fe_ast *a, int x, int y)
{
	x = value_of(a, x), y = value_of(a, y);
	if (x < 0 || y < 0)
		return false;
	if (a->n[x].is_int && a->n[y].is_int)
		return a->n[x].ival == a->n[y].ival;
	if (a->n[x].kind == CXCursor_DeclRefExpr &&
	    a->n[y].kind == CXCursor_DeclRefExpr)
		return a->n[x].ref >= 0 && a->n[x].ref == a->n[y].ref;
	size_t lx, ly;
	const char *tx = fe_text(a, x, &lx), *ty = fe_text(a, y, &ly);
	return lx && lx == ly && !memcmp(tx, ty, lx);
}

/* The loop's start covers [0, step) once across the threads that run
 * it: threadIdx.x, or a group's lane (`lane = threadIdx.x % S`, a local
 * never assigned) with the step S. */
/* n through explicit casts and the initialiser of a local that nothing
 * assigns (`const int idx = ...`). */
static int value_of(const fe_ast *a, int n)
{
	for (int k = 0; k < 4; k++) {
		n = fe_strip(a, n);
		if (n >= 0 && a->n[n].kind == CXCursor_CStyleCastExpr)
			n = a->n[n].last;
		else if (n >= 0 && a->n[n].kind == CXCursor_DeclRefExpr &&
		         a->n[n].ref >= 0 &&
		         a->n[a->n[n].ref].kind == CXCursor_VarDecl &&
		         !fe_assigned(a, a->n[n].ref) &&
		         fe_var_init(a, a->n[n].ref) >= 0)
			n = fe_var_init(a, a->n[n].ref);
		else
			break;
	}
	return fe_strip(a, n);
}

/* n is `x op y` or `y op x` with x the built-in `bx`.x and y `by`.x. */
static bool builtin_pair(const fe_ast *a, int n, int op, const char *bx,
                         const char *by)
{
	n = value_of(a, n);
	if (n < 0 || a->n[n].kind != CXCursor_BinaryOperator ||
	    a->n[n].op != op)
		return false;
	int l = value_of(a, fe_child(a, n, 0)),
	    r = value_of(a, fe_child(a, n, 1));
	return (fe_builtin(a, l, bx) == 'x' && fe_builtin(a, r, by) == 'x') ||
	       (fe_builtin(a, l, by) == 'x' && fe_builtin(a, r, bx) == 'x');
}

/* `blockIdx.x * B + threadIdx.x`, in any order, through casts: B the
 * block size written any way (any_block), else `blockDim.x`. */
static bool block_index(const fe_ast *a, int n, bool any_block)
{
	n = value_of(a, n);
	if (n < 0 || a->n[n].kind != CXCursor_BinaryOperator ||
	    a->n[n].op != CXBinaryOperator_Add)
		return false;
	for (int k = 0; k < 2; k++) {
		if (fe_builtin(a, value_of(a, fe_child(a, n, k)),
		               "threadIdx") != 'x')
			continue;
		int m = fe_child(a, n, 1 - k);
		if (!any_block && builtin_pair(a, m, CXBinaryOperator_Mul,
		                               "blockIdx", "blockDim"))
			return true;
		m = value_of(a, m);
		for (int j = 0; any_block && m >= 0 && j < 2 &&
		                a->n[m].kind == CXCursor_BinaryOperator &&
		                a->n[m].op == CXBinaryOperator_Mul;
		     j++)
			if (fe_builtin(a, value_of(a, fe_child(a, m, j)),
			               "blockIdx") == 'x')
				return true;
	}
	return false;
}

static bool global_index(const fe_ast *a, int n)
{
	return block_index(a, n, false);
}

/*
 * A thread's own index: block_index with any B (a literal or parameter),
 * or OpenCL C's get_global_id(0); so items a grid's width apart
 * (gridDim.x * blockDim.x, B being the block size) never meet. A derived
 * index (`(...) / 32`, a warp's) counts other units, and its items would
 * skip some.
 */
static bool thread_index(const fe_ast *a, int n)
{
	int c = value_of(a, n);
	if (c >= 0 && a->tu->opencl && a->n[c].kind == CXCursor_CallExpr &&
	    !strcmp(a->n[c].name, "get_global_id") && fe_nwritten(a, c) == 2) {
		int d = fe_strip(a, fe_written(a, c, 1));
		return d >= 0 && a->n[d].is_int && a->n[d].ival == 0;
	}
	return block_index(a, n, true);
}

static bool covering_start(const fe_ast *a, int start, int inc)
{
	start = fe_strip(a, start);
	if (start >= 0 && fe_builtin(a, start, "threadIdx") == 'x')
		return true;
	/* a grid-stride loop: every thread of the grid starts once at each
	 * of 0 .. blockDim.x * gridDim.x - 1 */
	if (global_index(a, start) &&
	    builtin_pair(a, fe_child(a, inc, 1), CXBinaryOperator_Mul,
	                 "blockDim", "gridDim"))
		return true;
	int lv = start >= 0 && a->n[start].kind == CXCursor_DeclRefExpr
	             ? a->n[start].ref
	             : -1;
	int li =
	    lv >= 0 && a->n[lv].kind == CXCursor_VarDecl && !fe_assigned(a, lv)
	        ? fe_strip(a, fe_var_init(a, lv))
	        : -1;
	return li >= 0 && a->n[li].kind == CXCursor_BinaryOperator &&
	       a->n[li].op == CXBinaryOperator_Rem &&
	       fe_builtin(a, fe_child(a, li, 0), "threadIdx") == 'x' &&
	       same_value(a, fe_child(a, li, 1), fe_child(a, inc, 1));
}

/* The loop: init from threadIdx.x only (or a group's lane, or the
 * global index of a grid-stride loop), `i < N`, `i += step`. */
static bool vector_loop(planner *P, int fs, int *var, int *bound)
{
	const fe_ast *a = P->a;
	if (fe_nchildren(a, fs) != 4)
		return false;
	int init = fe_child(a, fs, 0), cond = fe_strip(a, fe_child(a, fs, 1));
	int inc = fe_child(a, fs, 2);
	int v = init >= 0 ? a->n[init].first : -1;
	if (v < 0 || a->n[v].kind != CXCursor_VarDecl || a->n[v].last < 0 ||
	    inc < 0 || !covering_start(a, a->n[v].last, inc) || cond < 0 ||
	    a->n[cond].kind != CXCursor_BinaryOperator ||
	    a->n[cond].op != CXBinaryOperator_LT ||
	    a->n[inc].kind != CXCursor_CompoundAssignOperator ||
	    a->n[inc].op != CXBinaryOperator_AddAssign)
		return false;
	int l = fe_strip(a, fe_child(a, cond, 0));
	*bound = fe_strip(a, fe_child(a, cond, 1));
	*var = v;
	return l >= 0 && a->n[l].ref == v && *bound >= 0 &&
	       a->n[*bound].kind == CXCursor_DeclRefExpr;
}

static const char *elem_type(planner *P, const accesses *v, int body)
{
	const fe_ast *a = P->a;
	for (size_t i = 0; i < a->len; i++)
		if (a->n[i].kind == CXCursor_ArraySubscriptExpr &&
		    pl_inside(a, (int)i, body)) {
			CXString s =
			    clang_getTypeSpelling(clang_getUnqualifiedType(
			        clang_getCursorType(a->n[i].cur)));
			const char *r = pl_say(P, "%s", clang_getCString(s));
			clang_disposeString(s);
			return r;
		}
	(void)v;
	return NULL;
}

/* Adds `(E) % VEC == 0` for each scalar kernel parameter under n (through
 * local variables' initialisers), E being its value at the launch. */
static bool align_params(planner *P, const fe_kern *K, int n, const char *name,
                         int depth)
{
	const fe_ast *a = P->a;
	const fe_node *x = &a->n[n];
	bool ok = true;
	if (x->kind == CXCursor_DeclRefExpr && x->ref >= 0 && depth < 8) {
		const fe_node *d = &a->n[x->ref];
		if (d->kind == CXCursor_ParmDecl && d->parent == K->node &&
		    clang_getCursorType(d->cur).kind != CXType_Pointer) {
			kt_str e = KT_STR_INIT;
			/* no launch in code: the value is not known here */
			ok =
			    K->launches.len &&
			    pl_launch_arg(P, &K->launches.items[0], x->ref, &e);
			bool word =
			    strspn(e.ptr,
			           "abcdefghijklmnopqrstuvwxyz"
			           "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") ==
			    e.len;
			if (ok)
				pl_add_constraint(
				    P, pl_say(P,
				              word ? "%s %% %s == 0"
				                   : "(%s) %% %s == 0",
				              e.ptr, name));
			kt_str_release(&e);
		} else if (d->kind == CXCursor_VarDecl && d->last >= 0 &&
		           pl_inside(a, x->ref, K->body)) {
			ok = align_params(P, K, d->last, name, depth + 1);
		}
	}
	for (int c = x->first; c >= 0 && ok; c = a->n[c].next)
		ok = align_params(P, K, c, name, depth);
	return ok;
}

/* Alignment of every vector access: the subscript's offset and, for a
 * local alias (`y = out + row * hidden`), its initialiser. False when a
 * parameter's launch value cannot be derived (no refactor then). */
static bool align_constraints(planner *P, int k, const char *name, int fs,
                              int var)
{
	const fe_ast *a = P->a;
	const fe_kern *K = &P->f->kernels.items[k];
	bool ok = K->launches.len > 0 || K->pragma_launch;
	for (size_t i = 0; i < a->len && ok; i++) {
		if (a->n[i].kind != CXCursor_ArraySubscriptExpr ||
		    !pl_inside(a, (int)i, fs))
			continue;
		int base = fe_strip(a, a->n[i].first);
		int idx = fe_strip(a, fe_child(a, (int)i, 1));
		if (idx >= 0 && !(a->n[idx].kind == CXCursor_DeclRefExpr &&
		                  a->n[idx].ref == var))
			ok = align_params(P, K, idx, name, 0);
		if (ok && base >= 0)
			ok = align_params(P, K, base, name, 0);
	}
	return ok;
}

static int vector_refactor(planner *P, int k, int fs)
{
	const fe_ast *a = P->a;
	int var, bound;
	int body = fe_child(a, fs, 3);
	if (body < 0 || !vector_loop(P, fs, &var, &bound) ||
	    pl_has_call(a, body, "__shfl") ||
	    pl_has_call(a, body, "__syncthreads"))
		return KT_OK;
	accesses v = {0};
	const char *off;
	long long es = 0;
	int red;
	const char *op = NULL;
	bool mixed = false,
	     el = element_loop(P, body, var, &v, &off, &es, &red, &op);
	/* a max or min over the loop: vectors change which elements each
	 * thread sees, so only where the lanes that share the loop (a
	 * group's, its start `threadIdx.x % S`, its step S) are combined
	 * right after by shuffles with the same max or min */
	int64_t S = 0;
	int start = fe_strip(a, a->n[var].last);
	int inc = fe_child(a, fs, 2);
	if (el && red >= 0 &&
	    (fe_builtin(a, start, "threadIdx") == 'x' ||
	     !pl_fold(P, fe_child(a, inc, 1), &S) ||
	     !pl_group_combines(P, P->f->kernels.items[k].body, red, S, op,
	                        a->n[fs].e)))
		el = false;
	if (el)
		for (size_t i = 1; i < v.len; i++)
			mixed |= strcmp(v.items[i].type, v.items[0].type) != 0;
	/* one type: the arrays' types are the refactor's elem_type (as
	 * before); several: each array's, not in OpenCL C (vloadN takes one
	 * width) */
	for (size_t i = 0; !mixed && i < v.len; i++)
		v.items[i].type = NULL;
	if (!el || es > 16 || 16 % es || (mixed && a->tu->opencl)) {
		kt_vec_release(&v);
		return P->oom ? KT_ENOMEM : KT_OK;
	}
	int64_t vals[8];
	size_t nv = 0;
	for (int64_t w = 1; w * es <= 16; w *= 2)
		vals[nv++] = w;
	const fe_kern *K = &P->f->kernels.items[k];
	int p =
	    pl_add_param(P, pl_unique_name(P, "VEC", K->name),
	                 KT_ROLE_VECTOR_WIDTH, pl_dup(P, K->name), 1, vals, nv);
	kt_plan_refactor r = {
	    .kind = KT_REFACTOR_VECTORIZE,
	    .kernel = pl_dup(P, K->name),
	    .region = pl_range(P, fs),
	    .index_var = pl_dup(P, a->n[var].name),
	    .bound = pl_src(P, bound),
	    .elem_type = elem_type(P, &v, body),
	    .elem_size = (int)es,
	    .launch = -1,
	    .note = "a contiguous element loop: vectors of VEC elements, "
	            "a scalar tail for the rest"};
	r.arrays = kt_plan_alloc(P->plan, v.len * sizeof(kt_plan_access));
	if (p < 0 || !r.arrays) {
		kt_vec_release(&v);
		return KT_ENOMEM;
	}
	memcpy(r.arrays, v.items, v.len * sizeof(kt_plan_access));
	r.narrays = v.len;
	r.param = P->params.items[p].p.name;
	P->params.items[p].p.evidence = pl_say(P,
	                                       "elements of %lld bytes: "
	                                       "up to 16-byte vectors",
	                                       es);
	kt_vec_release(&v);
	if (!align_constraints(P, k, r.param, fs, var)) {
		P->params.len--; /* not proposed: the offset's alignment is
		                    unknown */
		return KT_OK;
	}
	pl_add_refactor(P, r);
	return P->oom ? KT_ENOMEM : KT_OK;
}

int pl_refactors(planner *P, int k)
{
	const fe_ast *a = P->a;
	int body = P->f->kernels.items[k].body;
	int rc = items_refactor(P, k);
	for (size_t i = 0; !rc && i < a->len; i++)
		if (a->n[i].kind == CXCursor_ForStmt &&
		    pl_inside(a, (int)i, body) &&
		    fe_ancestor(a, a->n[i].parent, CXCursor_ForStmt) < 0)
			rc = vector_refactor(P, k, (int)i);
	rc = rc ? rc : pl_row_refactors(P, k);
	rc = rc ? rc : pl_reduce_refactors(P, k);
	rc = rc ? rc : pl_pad_refactors(P, k);
	rc = rc ? rc : pl_fastdiv_refactors(P, k);
	return rc ? rc : pl_group_refactors(P, k);
}

/* ---------------------------------------------------------- constraints */

/* The expression of n in the grammar, when it names a parameter. */
static bool param_expr(planner *P, int n, kt_str *out)
{
	kt_str_clear(out);
	if (n < 0 || !pl_expr(P, n, out, NULL))
		return false;
	for (size_t i = 0; i < P->params.len; i++) {
		const char *name = P->params.items[i].p.name;
		const char *s = strstr(out->ptr, name);
		if (s && !isalnum((unsigned char)s[strlen(name)]) &&
		    s[strlen(name)] != '_')
			return true;
	}
	return false;
}

/* Whether kernel K's `__launch_bounds__` stays as written: no parameter
 * stands in it. */
static bool fixed_bounds(const planner *P, const fe_kern *K)
{
	for (size_t i = 0; i < P->c->len; i++)
		if (P->c->items[i].site == KT_SITE_LAUNCH_BOUNDS &&
		    P->c->items[i].kernel &&
		    !strcmp(P->c->items[i].kernel, K->name) &&
		    !P->c->items[i].rejected)
			return false;
	return K->bounds > 0;
}

/* Threads per block: the product of the block's dims, when one of them is
 * a parameter other than a lone block size or a block size's cap (whose
 * domains are bounded); and, where the kernel's `__launch_bounds__` stays
 * as written, at most what it allows (a launch of a larger block fails). */
static void block_limit(planner *P, const fe_kern *K, const fe_launch *L)
{
	const fe_ast *a = P->a;
	kt_str all = KT_STR_INIT, one = KT_STR_INIT, last = KT_STR_INIT;
	int op = L->op[1], dims = 0, with = 0;
	int n = op >= 0 ? fe_strip(a, op) : -1;
	if (n >= 0 && a->n[n].kind == CXCursor_DeclRefExpr &&
	    a->n[n].ref >= 0 && a->n[a->n[n].ref].last >= 0 &&
	    a->n[fe_strip(a, a->n[a->n[n].ref].last)].kind == CXCursor_CallExpr)
		n = fe_strip(a, a->n[a->n[n].ref].last);
	bool d3 = n >= 0 && a->n[n].kind == CXCursor_CallExpr &&
	          !strcmp(a->n[n].name, "dim3") && fe_nwritten(a, n) >= 2;
	for (int k = 0, c = d3 ? fe_written(a, n, 0) : op; c >= 0 && k < 3;
	     c = d3 ? fe_written(a, n, ++k) : -1) {
		bool p = param_expr(P, c, &one);
		if (!one.len)
			break;
		if (!p && !strcmp(one.ptr, "1") && d3)
			continue; /* `dim3{B, 1, 1}` has B threads */
		with += p;
		kt_str_addf(&all, "%s(%s)", dims++ ? " * " : "", one.ptr);
		kt_str_clear(&last);
		kt_str_adds(&last, one.ptr);
	}
	const char *bare = last.len ? last.ptr : "";
	while (*bare == '(')
		bare++;
	int lp = -1;
	for (size_t i = 0; i < P->params.len && lp < 0; i++) {
		size_t len = strlen(P->params.items[i].p.name);
		if (!strncmp(bare, P->params.items[i].p.name, len) &&
		    strspn(bare + len, ")") == strlen(bare + len))
			lp = (int)i;
	}
	bool lone = dims == 1 && with == 1 && lp >= 0 &&
	            P->params.items[lp].p.role == KT_ROLE_BLOCK_SIZE;
	if (with && !lone && !(L->capped && dims == 1) && one.len)
		pl_add_constraint(
		    P,
		    pl_say(P, "%s <= DEVICE_MAX_THREADS_PER_BLOCK", all.ptr));
	if (with && one.len && fixed_bounds(P, K))
		pl_add_constraint(
		    P, pl_say(P, "%s <= %lld", all.ptr, (long long)K->bounds));
	kt_str_release(&all);
	kt_str_release(&one);
	kt_str_release(&last);
}

/* `for (j = 0; j < A; j += B)` with A and B parameters: B divides A. */
static void loop_divides(planner *P, int fs)
{
	const fe_ast *a = P->a;
	if (fe_nchildren(a, fs) != 4)
		return;
	int cond = fe_strip(a, fe_child(a, fs, 1)), inc = fe_child(a, fs, 2);
	int init = fe_child(a, fs, 0);
	int var = init >= 0 ? a->n[init].first : -1;
	int start = var >= 0 && a->n[var].kind == CXCursor_VarDecl
	                ? fe_strip(a, a->n[var].last)
	                : -1;
	if (start < 0 || !a->n[start].is_int || a->n[start].ival != 0)
		return; /* j = 0, ..., < A in steps of B */
	if (cond < 0 || a->n[cond].kind != CXCursor_BinaryOperator ||
	    a->n[cond].op != CXBinaryOperator_LT ||
	    a->n[inc].kind != CXCursor_CompoundAssignOperator ||
	    a->n[inc].op != CXBinaryOperator_AddAssign)
		return;
	kt_str bound = KT_STR_INIT, step = KT_STR_INIT;
	if (param_expr(P, fe_child(a, cond, 1), &bound) &&
	    param_expr(P, fe_child(a, inc, 1), &step))
		pl_add_constraint(
		    P, pl_say(P, "%s %% %s == 0", bound.ptr, step.ptr));
	kt_str_release(&bound);
	kt_str_release(&step);
}

/* `A / B` with A a parameter: the kernel counts on B dividing A. */
static void division(planner *P, int n)
{
	const fe_ast *a = P->a;
	if (a->n[n].kind != CXCursor_BinaryOperator ||
	    a->n[n].op != CXBinaryOperator_Div)
		return;
	int l = fe_strip(a, fe_child(a, n, 0)), r = fe_child(a, n, 1);
	/* a template parameter or a macro, not a literal written here */
	bool lparam =
	    l >= 0 &&
	    (a->n[l].kind == CXCursor_DeclRefExpr ||
	     (a->n[l].kind == CXCursor_IntegerLiteral && !a->n[l].spelled));
	kt_str num = KT_STR_INIT, den = KT_STR_INIT;
	if (lparam && param_expr(P, l, &num) && pl_expr(P, r, &den, NULL) &&
	    !strchr(num.ptr, ' '))
		pl_add_constraint(P,
		                  pl_say(P, "%s %% %s == 0", num.ptr, den.ptr));
	kt_str_release(&num);
	kt_str_release(&den);
}

static long long elem_bytes(const fe_ast *a, int var)
{
	CXType t = clang_getCursorType(a->n[var].cur);
	while (t.kind == CXType_ConstantArray ||
	       t.kind == CXType_DependentSizedArray ||
	       t.kind == CXType_IncompleteArray)
		t = clang_getArrayElementType(t);
	return clang_Type_getSizeOf(t);
}

/* Static shared memory that depends on parameters fits in a block. */
static void shared_limit(planner *P, int body)
{
	const fe_ast *a = P->a;
	kt_str sum = KT_STR_INIT, dim = KT_STR_INIT;
	bool any = false, ok = true;
	for (size_t i = 0; i < a->len && ok; i++) {
		const fe_node *v = &a->n[i];
		if (v->kind != CXCursor_VarDecl ||
		    !pl_inside(a, (int)i, body) || !pl_has_shared(a, (int)i) ||
		    a->n[i].first < 0)
			continue;
		long long es = elem_bytes(a, (int)i);
		ok = es > 0;
		kt_str_addf(&sum, "%s%lld", sum.len ? " + " : "", es);
		for (int c = v->first; c >= 0 && ok; c = a->n[c].next) {
			if (a->n[c].kind == CXCursor_CUDASharedAttr ||
			    a->n[c].kind == CXCursor_TypeRef)
				continue;
			any |= param_expr(P, c, &dim);
			ok = dim.len > 0 || pl_expr(P, c, &dim, NULL);
			kt_str_addf(&sum, " * (%s)", dim.ptr);
		}
	}
	if (any && ok)
		pl_add_constraint(
		    P, pl_say(P, "%s <= DEVICE_SMEM_PER_BLOCK", sum.ptr));
	kt_str_release(&sum);
	kt_str_release(&dim);
}

/* `threadIdx.x < E` with E a parameter expression: the block must have
 * that many threads, or work is left undone. */
static void thread_cover(planner *P, const fe_launch *L, int n)
{
	const fe_ast *a = P->a;
	if (a->n[n].kind != CXCursor_BinaryOperator ||
	    a->n[n].op != CXBinaryOperator_LT ||
	    fe_builtin(a, fe_child(a, n, 0), "threadIdx") != 'x')
		return;
	kt_str e = KT_STR_INIT, bx = KT_STR_INIT;
	int op = L->op[1] >= 0 ? fe_strip(a, L->op[1]) : -1;
	bool d3 = op >= 0 && a->n[op].kind == CXCursor_CallExpr &&
	          !strcmp(a->n[op].name, "dim3") && fe_nwritten(a, op) >= 2;
	if (param_expr(P, fe_child(a, n, 1), &e) && op >= 0 &&
	    pl_expr(P, d3 ? a->n[op].first : L->op[1], &bx, NULL))
		pl_add_constraint(P, pl_say(P, "%s <= %s", e.ptr, bx.ptr));
	kt_str_release(&e);
	kt_str_release(&bx);
}

int pl_constraints(planner *P, int k)
{
	const fe_ast *a = P->a;
	const fe_kern *K = &P->f->kernels.items[k];
	if (K->launches.len)
		block_limit(P, K, &K->launches.items[0]);
	for (size_t i = 0; i < a->len; i++) {
		if (!pl_inside(a, (int)i, K->body))
			continue;
		if (a->n[i].kind == CXCursor_ForStmt)
			loop_divides(P, (int)i);
		division(P, (int)i);
		if (K->launches.len)
			thread_cover(P, &K->launches.items[0], (int)i);
	}
	shared_limit(P, K->body);
	return P->oom ? KT_ENOMEM : KT_OK;
}
