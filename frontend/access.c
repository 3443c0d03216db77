/*
 * access.c - whether a kernel reads, writes or both through a pointer
 * parameter, for the `arg` line's direction (in, out, inout).
 *
 * Every use of the parameter (or of a local pointer made from it) is
 * followed up the tree: casts, parentheses and pointer arithmetic keep it
 * a pointer into the buffer; a subscript, a dereference or `->` make it an
 * element; `&` makes an element a pointer again. The use is what stops the
 * walk: an element assigned is written (`op=`, `++` and atomics also read
 * it; so does a store that memory masks, masked_store), a pointer passed
 * to a function whose parameter does not point to const may be written,
 * an element used as a value is read. A use the walk
 * does not know counts as both: taking a written buffer for an input means
 * its outputs are never compared, so any doubt falls on the side of
 * comparing.
 */
#include "frontend/ast.h"

#include <string.h>

static bool is_cast(enum CXCursorKind k)
{
	return k == CXCursor_CStyleCastExpr ||
	       k == CXCursor_CXXReinterpretCastExpr ||
	       k == CXCursor_CXXStaticCastExpr ||
	       k == CXCursor_CXXConstCastExpr ||
	       k == CXCursor_CXXFunctionalCastExpr || k == CXCursor_ParenExpr ||
	       k == CXCursor_UnexposedExpr;
}

/* The type of node n, looking through typedefs; pointers and references
 * are told apart by kind. */
static CXType type_of(const fe_ast *a, int n)
{
	return clang_getCanonicalType(clang_getCursorType(a->n[n].cur));
}

static bool is_pointer(CXType t)
{
	return t.kind == CXType_Pointer;
}

/* A type a template has not fixed yet: it may be a pointer. */
static bool is_dependent(CXType t)
{
	return t.kind == CXType_Unexposed || t.kind == CXType_Dependent ||
	       t.kind == CXType_Invalid;
}

/* The child of `call` whose subtree holds n (n itself or above it). */
static int arg_holding(const fe_ast *a, int call, int n)
{
	while (n >= 0 && a->n[n].parent != call)
		n = a->n[n].parent;
	return n;
}

/* Argument `child` of call: its position among the call's arguments, -1
 * when it is the callee. */
static int arg_index(const fe_ast *a, int call, int child)
{
	int k = -1;
	for (int c = a->n[call].first; c >= 0; c = a->n[c].next, k++)
		if (c == child)
			return k;
	return -1;
}

/* What the callee's parameter k lets it do to what is passed: a pointer
 * or reference to const only reads; anything else (no declaration seen,
 * a template, a variadic) may write. */
static int param_access(const fe_ast *a, int call, int k, bool pointer)
{
	CXCursor f = clang_getCursorReferenced(a->n[call].cur);
	if (clang_Cursor_isNull(f) || k < 0 ||
	    k >= clang_Cursor_getNumArguments(f))
		return FE_READ | FE_WRITE;
	CXType t = clang_getCanonicalType(
	    clang_getCursorType(clang_Cursor_getArgument(f, (unsigned)k)));
	if (t.kind == CXType_Pointer || t.kind == CXType_LValueReference ||
	    t.kind == CXType_RValueReference) {
		CXType p = clang_getPointeeType(t);
		return clang_isConstQualifiedType(p) ? FE_READ
		                                     : FE_READ | FE_WRITE;
	}
	/* by value: the callee has a copy of the pointer or the element */
	return pointer ? FE_READ | FE_WRITE : FE_READ;
}

/* How the use at DeclRefExpr `ref` reaches the buffer. */
static int use_of(const fe_ast *a, int ref)
{
	int n = ref;
	bool elem = false;
	for (;;) {
		int up = a->n[n].parent;
		if (up < 0)
			return FE_READ | FE_WRITE;
		const fe_node *u = &a->n[up];
		bool first = u->first == n;
		bool compound;
		if (is_cast(u->kind)) {
			n = up;
			continue;
		}
		if (elem) {
			int lhs = fe_assign_lhs(a, up, &compound);
			if (lhs >= 0 && lhs == fe_strip(a, n))
				return compound ? FE_READ | FE_WRITE : FE_WRITE;
			if (lhs >= 0)
				return FE_READ; /* the value assigned */
			if (u->kind == CXCursor_UnaryOperator &&
			    u->op >= CXUnaryOperator_PostInc &&
			    u->op <= CXUnaryOperator_PreDec)
				return FE_READ | FE_WRITE;
			if (u->kind == CXCursor_UnaryOperator &&
			    u->op == CXUnaryOperator_AddrOf) {
				elem = false;
				n = up;
				continue;
			}
			if ((u->kind == CXCursor_MemberRefExpr ||
			     u->kind == CXCursor_ArraySubscriptExpr) &&
			    first) {
				n = up; /* a member or an element of it */
				continue;
			}
			if (u->kind == CXCursor_CallExpr) {
				int c = arg_holding(a, up, n);
				int k = arg_index(a, up, c);
				if (k < 0) /* a member function called on it */
					return FE_READ | FE_WRITE;
				return param_access(a, up, k, false);
			}
			if (u->kind == CXCursor_VarDecl) {
				CXType t = type_of(a, up);
				if (t.kind == CXType_LValueReference &&
				    !clang_isConstQualifiedType(
				        clang_getPointeeType(t)))
					return FE_READ | FE_WRITE;
				return FE_READ;
			}
			return FE_READ;
		}
		/* a pointer into the buffer */
		if (u->kind == CXCursor_ArraySubscriptExpr) {
			elem = first;
			if (!first)
				return 0; /* used as an index: nothing */
			n = up;
			continue;
		}
		if (u->kind == CXCursor_UnaryOperator &&
		    u->op == CXUnaryOperator_Deref) {
			elem = true;
			n = up;
			continue;
		}
		if (u->kind == CXCursor_MemberRefExpr && first) {
			elem = true; /* p->field */
			n = up;
			continue;
		}
		if (u->kind == CXCursor_BinaryOperator &&
		    (u->op == CXBinaryOperator_Add ||
		     u->op == CXBinaryOperator_Sub)) {
			CXType t = type_of(a, up);
			if (!is_pointer(t) && !is_dependent(t))
				return 0; /* a difference of pointers */
			n = up;
			continue;
		}
		if (u->kind == CXCursor_BinaryOperator &&
		    u->op >= CXBinaryOperator_LT &&
		    u->op <= CXBinaryOperator_NE)
			return 0; /* compared */
		if (u->kind == CXCursor_ConditionalOperator && !first) {
			n = up;
			continue;
		}
		if (u->kind == CXCursor_CallExpr) {
			int c = arg_holding(a, up, n);
			int k = arg_index(a, up, c);
			if (k >= 0 && u->name && !strncmp(u->name, "atomic", 6))
				return FE_READ | FE_WRITE;
			if (k >= 0 && u->name && !strncmp(u->name, "__ldg", 5))
				return FE_READ;
			return param_access(a, up, k, true);
		}
		if (u->kind == CXCursor_VarDecl && is_pointer(type_of(a, up)))
			return 0; /* an alias: its own uses count */
		if (u->kind == CXCursor_CompoundAssignOperator && first)
			return 0; /* the pointer itself moves */
		return FE_READ | FE_WRITE;
	}
}

/* Whether subtree n reads memory: a subscript, a dereference, `->`, or
 * a local whose initializer does (`int e = ids[i]; if (e < 0) ...`). */
static bool reads_memory(const fe_ast *a, int n, int depth)
{
	const fe_node *x = &a->n[n];
	if (x->kind == CXCursor_ArraySubscriptExpr ||
	    (x->kind == CXCursor_UnaryOperator &&
	     x->op == CXUnaryOperator_Deref))
		return true;
	if (x->kind == CXCursor_MemberRefExpr && x->first >= 0 &&
	    is_pointer(type_of(a, x->first)))
		return true;
	if (x->kind == CXCursor_DeclRefExpr && x->ref >= 0 && depth < 8 &&
	    a->n[x->ref].kind == CXCursor_VarDecl && a->n[x->ref].last >= 0 &&
	    reads_memory(a, a->n[x->ref].last, depth + 1))
		return true;
	for (int c = x->first; c >= 0; c = a->n[c].next)
		if (reads_memory(a, c, depth))
			return true;
	return false;
}

/* `if (C) return;` (or continue, break; braces allowed, no else) with C
 * reading memory: a statement after it runs for some elements only. */
static bool masked_exit(const fe_ast *a, int s)
{
	if (a->n[s].kind != CXCursor_IfStmt || fe_nchildren(a, s) != 2)
		return false;
	int t = fe_child(a, s, 1);
	if (t >= 0 && a->n[t].kind == CXCursor_CompoundStmt &&
	    fe_nchildren(a, t) == 1)
		t = a->n[t].first;
	return t >= 0 &&
	       (a->n[t].kind == CXCursor_ReturnStmt ||
	        a->n[t].kind == CXCursor_ContinueStmt ||
	        a->n[t].kind == CXCursor_BreakStmt) &&
	       reads_memory(a, a->n[s].first, 0);
}

/*
 * Whether the store at node n runs only where memory says so: an `if`,
 * `?:` or loop around it whose condition reads memory (`if (m[i]) y[i] =
 * ...`, a row's `for (k = start[r]; k < start[r + 1]; k++)`), or an
 * earlier `if (C) return;` of that kind in a block around it (`if
 * (!m[i]) return;`). The elements it skips keep what the buffer held:
 * the buffer is read as well as written, so its contents go in and are
 * compared (an `out` buffer's unwritten elements would hold whatever the
 * run before left there). Bounds of the index alone (`if (i < n)`) read
 * no memory and leave a buffer `out`.
 */
static bool masked_store(const fe_ast *a, int body, int n)
{
	for (int c = n, s = a->n[n].parent; s >= 0 && c != body;
	     c = s, s = a->n[s].parent) {
		enum CXCursorKind k = a->n[s].kind;
		int cond = -1;
		if ((k == CXCursor_IfStmt ||
		     k == CXCursor_ConditionalOperator ||
		     k == CXCursor_WhileStmt) &&
		    c != a->n[s].first)
			cond = a->n[s].first;
		else if (k == CXCursor_ForStmt && fe_nchildren(a, s) == 4 &&
		         c == fe_child(a, s, 3))
			cond = fe_child(a, s, 1);
		else if (k == CXCursor_DoStmt)
			cond = a->n[s].last;
		if (cond >= 0 && reads_memory(a, cond, 0))
			return true;
		if (k == CXCursor_CompoundStmt)
			for (int e = a->n[s].first; e >= 0 && e != c;
			     e = a->n[e].next)
				if (masked_exit(a, e))
					return true;
	}
	return false;
}

int fe_pointer_access(const fe_ast *a, int body, int parm)
{
	uint32_t b = a->n[body].b, e = a->n[body].e;
	/* the parameter and the local pointers made from it */
	KT_VEC(int) from = {0};
	int access = 0;
	if (kt_vec_push(&from, parm))
		return FE_READ | FE_WRITE;
	for (size_t k = 0; k < from.len; k++) {
		int d = from.items[k];
		for (size_t i = 0; i < a->len; i++) {
			const fe_node *x = &a->n[i];
			if (!x->in_main || x->b < b || x->e > e)
				continue;
			if (x->kind == CXCursor_VarDecl && (int)i != d &&
			    is_pointer(type_of(a, (int)i)) && x->last >= 0 &&
			    fe_refers_to(a, x->last, d)) {
				bool seen = false;
				for (size_t j = 0; j < from.len; j++)
					seen |= from.items[j] == (int)i;
				if (!seen && kt_vec_push(&from, (int)i))
					access = FE_READ | FE_WRITE;
			}
			if (x->kind == CXCursor_DeclRefExpr && x->ref == d) {
				int u = use_of(a, (int)i);
				if (u == FE_WRITE &&
				    masked_store(a, body, (int)i))
					u |= FE_READ;
				access |= u;
			}
		}
	}
	kt_vec_release(&from);
	return access;
}
