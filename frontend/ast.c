/*
 * ast.c - one walk over the main file's cursors into fe_node's (ast.h).
 *
 * Only declarations that begin in the main file are walked (everything the
 * headers declare is left out); inside them every cursor is kept, so a
 * literal that a macro produced is still a node, with `spelled` false and
 * `macro` naming the definition it came from.
 *
 * One exception: a function of a project header (not a system header)
 * that the main file calls is walked too, with the class around it when
 * it is a constructor or a method, so that a launch wrapper a project
 * keeps in a header (`ggml_cuda_kernel_launch(k, params, args...)` doing
 * `k<<<params.block_nums, params.block_dims, ...>>>`) is followed as one
 * in the file is. Its nodes are not `in_main`: no edit reaches them.
 */
#include "frontend/ast.h"
#include "util/cuda.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct walk {
	fe_ast *a;
	int parent;
	int depth;
	int oom;
} walk;

static int new_node(fe_ast *a)
{
	if (a->len == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 1024;
		fe_node *n = kt_realloc(a->n, cap * sizeof(*n));
		if (!n)
			return -1;
		a->n = n;
		a->cap = cap;
	}
	memset(&a->n[a->len], 0, sizeof(fe_node));
	return (int)a->len++;
}

static void link_child(fe_ast *a, int parent, int n)
{
	fe_node *x = &a->n[n];
	x->parent = parent;
	x->first = x->last = x->next = -1;
	if (parent < 0)
		return;
	fe_node *p = &a->n[parent];
	if (p->last >= 0)
		a->n[p->last].next = n;
	else
		p->first = n;
	p->last = n;
}

static bool is_decl_kind(enum CXCursorKind k)
{
	return clang_isDeclaration(k) || k == CXCursor_MacroDefinition;
}

static void fill_value(fe_node *x)
{
	CXEvalResult r = clang_Cursor_Evaluate(x->cur);
	if (!r)
		return;
	CXEvalResultKind k = clang_EvalResult_getKind(r);
	if (k == CXEval_Int) {
		x->is_int = true;
		x->ival = clang_EvalResult_getAsLongLong(r);
	} else if (k == CXEval_Float) {
		x->is_float = true;
		x->fval = clang_EvalResult_getAsDouble(r);
	}
	clang_EvalResult_dispose(r);
}

static void fill_node(walk *w, fe_node *x, CXCursor c)
{
	const kt_tu *tu = w->a->tu;
	x->cur = c;
	x->kind = clang_getCursorKind(c);
	x->ref = x->macro = -1;
	kt_range r;
	x->in_main = kt_fe_range(tu, clang_getCursorExtent(c), &r);
	if (x->in_main) {
		x->b = r.begin.offset;
		x->e = r.end.offset;
	}
	CXFile sf;
	unsigned soff;
	clang_getSpellingLocation(clang_getCursorLocation(c), &sf, NULL, NULL,
	                          &soff);
	x->spelled = x->in_main && sf && clang_File_isEqual(sf, tu->file) &&
	             soff == x->b;
	if (x->kind == CXCursor_BinaryOperator ||
	    x->kind == CXCursor_CompoundAssignOperator)
		x->op = (int)clang_getCursorBinaryOperatorKind(c);
	else if (x->kind == CXCursor_UnaryOperator)
		x->op = (int)clang_getCursorUnaryOperatorKind(c);
	if (x->kind == CXCursor_IntegerLiteral ||
	    x->kind == CXCursor_FloatingLiteral)
		fill_value(x);
}

static const char *name_of(kt_tu *tu, CXCursor c)
{
	CXString s = clang_getCursorSpelling(c);
	const char *t = clang_getCString(s);
	char *r = t && *t ? kt_arena_strdup(&tu->arena, t) : "";
	clang_disposeString(s);
	return r ? r : "";
}

static bool seen_top(const fe_ast *a, enum CXCursorKind k, uint32_t b)
{
	for (size_t i = 0; i < a->len; i++)
		if (a->n[i].parent < 0 && a->n[i].kind == k && a->n[i].b == b)
			return true;
	return false;
}

/*
 * OpenCL C in the terms the analyses know: a `__kernel` attribute is the
 * kernel mark (CXCursor_CUDAGlobalAttr), and a `__local` variable, which
 * libclang marks only in its type, gets the child a CUDA `__shared__` one
 * has. This is the one place the two languages' declarations meet; their
 * index built-ins meet in fe_builtin and fe_mentions.
 */
enum { OPENCL_LOCAL = 2 }; /* clang's LangAS::opencl_local */

static int shared_mark(fe_ast *a, int var)
{
	int m = new_node(a);
	if (m < 0)
		return 1;
	a->n[m] = a->n[var];
	a->n[m].kind = CXCursor_CUDASharedAttr;
	a->n[m].name = "";
	a->n[m].ref = a->n[m].macro = -1;
	a->n[m].in_main = a->n[m].spelled = false;
	link_child(a, var, m);
	return 0;
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent,
                                     CXClientData data)
{
	walk *w = data;
	fe_ast *a = w->a;
	if (w->depth == 0) {
		uint32_t off;
		if (!kt_fe_offset(a->tu, clang_getCursorLocation(c), &off))
			return CXChildVisit_Continue;
	}
	int n = new_node(a);
	if (n < 0) {
		w->oom = 1;
		return CXChildVisit_Break;
	}
	fill_node(w, &a->n[n], c);
	if (w->depth == 0 && seen_top(a, a->n[n].kind, a->n[n].b)) {
		a->len--;
		return CXChildVisit_Continue;
	}
	link_child(a, w->parent, n);
	a->n[n].name = name_of(a->tu, c);
	if (is_decl_kind(a->n[n].kind) && kt_vec_push(&a->decls, n))
		w->oom = 1;
	if (a->n[n].kind == CXCursor_MacroDefinition &&
	    kt_vec_push(&a->macros, n))
		w->oom = 1;
	if (a->n[n].kind == CXCursor_MacroExpansion &&
	    kt_vec_push(&a->expansions, n))
		w->oom = 1;
	if (a->tu->opencl && kt_fe_opencl_kernel(c))
		a->n[n].kind = CXCursor_CUDAGlobalAttr;
	walk inner = {a, n, w->depth + 1, 0};
	clang_visitChildren(c, visit, &inner);
	w->oom |= inner.oom;
	if (!w->oom && a->tu->opencl && a->n[n].kind == CXCursor_VarDecl &&
	    clang_getAddressSpace(clang_getCursorType(c)) == OPENCL_LOCAL)
		w->oom = shared_mark(a, n);
	return w->oom ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* The declaration of a header's function the main file calls, walked
 * with its class when it is a member: one more root. */
static bool added_root(const fe_ast *a, CXCursor c)
{
	for (size_t i = 0; i < a->hroots.len; i++)
		if (clang_equalCursors(a->n[a->hroots.items[i]].cur, c))
			return true;
	return false;
}

/* Whether a cursor's subtree holds a kernel launch: `<<<>>>` or one of
 * the runtime's launch calls. */
static enum CXChildVisitResult find_launch(CXCursor c, CXCursor parent,
                                           CXClientData data)
{
	(void)parent;
	enum CXCursorKind k = clang_getCursorKind(c);
	/* in a template, a dependent call names an overload set */
	if (k == CXCursor_CallExpr || k == CXCursor_OverloadedDeclRef ||
	    k == CXCursor_DeclRefExpr) {
		CXString s = clang_getCursorSpelling(c);
		const char *n = clang_getCString(s);
		bool hit = n && (!strcmp(n, "cudaConfigureCall") ||
		                 !strcmp(n, "__cudaPushCallConfiguration") ||
		                 !strncmp(n, "cudaLaunch", 10));
		clang_disposeString(s);
		if (hit) {
			*(bool *)data = true;
			return CXChildVisit_Break;
		}
	}
	return CXChildVisit_Recurse;
}

/* A header of the CUDA toolkit: its functions are not a project's
 * wrappers (dim3's constructors, cudaMalloc's templates). */
static bool toolkit_header(CXFile f)
{
	CXString s = clang_getFileName(f);
	const char *n = clang_getCString(s);
	const char *root = kt_cuda_root();
	size_t len = strlen(root);
	bool r =
	    n && (!strncmp(n, root, len) || strstr(n, "/cuda/include/") ||
	          strstr(n, "/lib/clang/") || strstr(n, "/include/clang/"));
	clang_disposeString(s);
	return r;
}

typedef struct call_op {
	CXCursor found;
	int n;
} call_op;

static enum CXChildVisitResult first_child(CXCursor c, CXCursor parent,
                                           CXClientData data)
{
	(void)parent;
	*(CXCursor *)data = c;
	return CXChildVisit_Break;
}

static enum CXChildVisitResult find_call_op(CXCursor c, CXCursor parent,
                                            CXClientData data)
{
	(void)parent;
	call_op *o = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k != CXCursor_CXXMethod && k != CXCursor_FunctionTemplate)
		return CXChildVisit_Continue;
	CXString s = clang_getCursorSpelling(c);
	if (!strcmp(clang_getCString(s), "operator()")) {
		o->found = c;
		o->n++;
	}
	clang_disposeString(s);
	return CXChildVisit_Continue;
}

CXCursor fe_dependent_call_op(CXCursor call)
{
	if (clang_getCursorKind(call) != CXCursor_CallExpr ||
	    clang_getCursorType(call).kind != CXType_Dependent)
		return clang_getNullCursor();
	CXCursor obj = clang_getNullCursor();
	clang_visitChildren(call, first_child, &obj);
	CXType t = clang_getCanonicalType(clang_getCursorType(obj));
	if (clang_Cursor_isNull(obj) || t.kind != CXType_Record)
		return clang_getNullCursor();
	call_op o = {clang_getNullCursor(), 0};
	clang_visitChildren(clang_getTypeDeclaration(t), find_call_op, &o);
	return o.n == 1 ? o.found : clang_getNullCursor();
}

/* The function a call enters: its referenced cursor, or the object's
 * call operator for a call a template has not resolved. */
static CXCursor entered(CXCursor call)
{
	CXCursor op = fe_dependent_call_op(call);
	return clang_Cursor_isNull(op) ? clang_getCursorReferenced(call) : op;
}

/* Walks header declaration d as one more root. */
static int add_root(fe_ast *a, CXCursor d)
{
	if (added_root(a, d))
		return KT_OK;
	size_t first = a->len;
	walk w = {a, -1, 1, 0};
	visit(d, clang_getNullCursor(), &w);
	if (!w.oom && a->len > first && kt_vec_push(&a->hroots, (int)first))
		w.oom = 1;
	for (size_t i = first; !w.oom && i < a->len; i++) {
		a->n[i].in_header = true;
		if (is_decl_kind(a->n[i].kind) &&
		    kt_vec_push(&a->hdecls, (int)i))
			w.oom = 1;
	}
	return w.oom ? KT_ENOMEM : KT_OK;
}

/* The definition of what ref names (a template's, for a
 * specialisation) where a project header holds it: not the main file
 * (walked already), the system's or the toolkit's. A null cursor else. */
static CXCursor project_definition(const fe_ast *a, CXCursor ref)
{
	CXCursor t = clang_getSpecializedCursorTemplate(ref);
	CXCursor d =
	    clang_getCursorDefinition(clang_Cursor_isNull(t) ? ref : t);
	if (clang_Cursor_isNull(d))
		return d;
	CXSourceLocation loc = clang_getCursorLocation(d);
	uint32_t off;
	CXFile f;
	clang_getSpellingLocation(loc, &f, NULL, NULL, NULL);
	if (!f || clang_Location_isInSystemHeader(loc) ||
	    kt_fe_offset(a->tu, loc, &off) || toolkit_header(f))
		return clang_getNullCursor();
	return d;
}

static int add_header_root(fe_ast *a, CXCursor ref, bool launches_only)
{
	CXCursor d = project_definition(a, ref);
	if (clang_Cursor_isNull(d))
		return KT_OK;
	enum CXCursorKind k = clang_getCursorKind(d);
	bool launches = false;
	clang_visitChildren(d, find_launch, &launches);
	if (launches_only && !launches)
		return KT_OK;
	CXCursor parent = clang_getCursorSemanticParent(d);
	enum CXCursorKind pk = clang_getCursorKind(parent);
	if (pk == CXCursor_StructDecl || pk == CXCursor_ClassDecl ||
	    pk == CXCursor_ClassTemplate)
		d = parent; /* a member: its class, constructors and all */
	else if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate)
		return KT_OK;
	return add_root(a, d);
}

/* The roots call node n enters. A call inside a template that its
 * arguments make dependent (`launch(k<T>, p, x)` in a function template
 * over T) is not resolved: its callee names an overload set, each of
 * whose functions it may enter (a launcher and its overloads). */
static int add_entered_roots(fe_ast *a, int n, bool launches_only)
{
	CXCursor ref = entered(a->n[n].cur);
	if (!clang_Cursor_isNull(ref) &&
	    clang_getCursorKind(ref) != CXCursor_OverloadedDeclRef)
		return add_header_root(a, ref, launches_only);
	int c = a->n[n].first;
	while (c >= 0 && a->n[c].kind != CXCursor_OverloadedDeclRef)
		c = a->n[c].first;
	for (unsigned i = 0;
	     c >= 0 && i < clang_getNumOverloadedDecls(a->n[c].cur); i++) {
		int rc = add_header_root(
		    a, clang_getOverloadedDecl(a->n[c].cur, i), launches_only);
		if (rc)
			return rc;
	}
	return KT_OK;
}

/* fn(a, call, flag) for each call of the main file and of the walked
 * header functions (as many nodes as there are now), until one fails. */
static int each_call(fe_ast *a, int (*fn)(fe_ast *, int, bool), bool flag)
{
	size_t n = a->len;
	for (size_t i = 0; i < n; i++) {
		const fe_node *x = &a->n[i];
		if (!(x->in_main || x->in_header) ||
		    x->kind != CXCursor_CallExpr)
			continue;
		int rc = fn(a, (int)i, flag);
		if (rc)
			return rc;
	}
	return KT_OK;
}

/* Adds the header functions that launch a kernel (wrappers) and that the
 * main file's calls enter, then the functions and classes those wrappers'
 * calls and the main file's constructions enter once wrappers exist (a
 * parameter struct's constructor, a config's maker). */
static int add_header_roots(fe_ast *a)
{
	size_t main_len = a->len;
	for (size_t i = 0; i < main_len; i++) {
		const fe_node *x = &a->n[i];
		if (!x->in_main || x->kind != CXCursor_CallExpr)
			continue;
		int rc = add_entered_roots(a, (int)i, true);
		if (rc)
			return rc;
	}
	if (a->hroots.len == 0)
		return KT_OK;
	return each_call(a, add_entered_roots, false);
}

typedef struct one_return {
	int stmts; /* statements of the body */
	bool ret;  /* the one statement returns a value */
	bool body; /* the body was seen */
} one_return;

static enum CXChildVisitResult body_stmt(CXCursor c, CXCursor parent,
                                         CXClientData data)
{
	(void)parent;
	one_return *o = data;
	o->stmts++;
	if (clang_getCursorKind(c) == CXCursor_ReturnStmt) {
		CXCursor e = clang_getNullCursor();
		clang_visitChildren(c, first_child, &e);
		o->ret = !clang_Cursor_isNull(e);
	}
	return CXChildVisit_Continue;
}

static enum CXChildVisitResult find_body(CXCursor c, CXCursor parent,
                                         CXClientData data)
{
	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_CompoundStmt)
		return CXChildVisit_Continue;
	one_return *o = data;
	o->body = true;
	clang_visitChildren(c, body_stmt, o);
	return CXChildVisit_Break;
}

/*
 * The header function call n enters when its body is one `return E;`
 * (`div_ceil(a, b)`: `return (a + b - 1) / b;`), walked as a root, so the
 * planner can read a launch's `div_ceil(n, BLOCK)` through it
 * (derive.c's inlined calls). The toolkit's and the system's functions
 * are not read: their meaning is theirs.
 */
static int add_helper_root(fe_ast *a, int n, bool unused)
{
	(void)unused;
	CXCursor ref = entered(a->n[n].cur);
	if (clang_Cursor_isNull(ref) ||
	    clang_getCursorKind(ref) == CXCursor_OverloadedDeclRef)
		return KT_OK;
	CXCursor d = project_definition(a, ref);
	enum CXCursorKind k = clang_getCursorKind(d);
	if (clang_Cursor_isNull(d) ||
	    (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate))
		return KT_OK;
	one_return o = {0, false, false};
	clang_visitChildren(d, find_body, &o);
	if (!o.body || o.stmts != 1 || !o.ret)
		return KT_OK;
	return add_root(a, d);
}

bool fe_header_constant(const fe_ast *a, int n, int64_t *v)
{
	CXCursor d = clang_getCursorReferenced(a->n[n].cur);
	uint32_t off;
	if (clang_getCursorKind(d) != CXCursor_VarDecl ||
	    kt_fe_offset(a->tu, clang_getCursorLocation(d), &off) ||
	    !clang_isConstQualifiedType(clang_getCursorType(d)))
		return false;
	CXEvalResult r = clang_Cursor_Evaluate(d);
	bool ok = r && clang_EvalResult_getKind(r) == CXEval_Int;
	if (ok)
		*v = clang_EvalResult_getAsLongLong(r);
	if (r)
		clang_EvalResult_dispose(r);
	return ok;
}

unsigned fe_var_template_init(kt_tu *tu, const CXToken *t, unsigned nt)
{
	int depth = 0;
	for (unsigned i = 0; i < nt; i++) {
		CXString sp = clang_getTokenSpelling(tu->tu, t[i]);
		const char *s = clang_getCString(sp);
		bool eq = depth == 0 && !strcmp(s, "=");
		depth += !strcmp(s, "<") - !strcmp(s, ">");
		clang_disposeString(sp);
		if (eq)
			return i + 1;
	}
	return nt;
}

int fe_callee(const fe_ast *a, int n)
{
	CXCursor op = fe_dependent_call_op(a->n[n].cur);
	if (!clang_Cursor_isNull(op))
		return fe_decl_of(a, op);
	CXCursor ref = clang_getCursorReferenced(a->n[n].cur);
	if (clang_Cursor_isNull(ref) ||
	    clang_getCursorKind(ref) == CXCursor_OverloadedDeclRef) {
		int c = a->n[n].first;
		while (c >= 0 && a->n[c].kind != CXCursor_OverloadedDeclRef)
			c = a->n[c].first;
		if (c < 0 || clang_getNumOverloadedDecls(a->n[c].cur) != 1)
			return -1;
		ref = clang_getOverloadedDecl(a->n[c].cur, 0);
	}
	CXCursor t = clang_getSpecializedCursorTemplate(ref);
	CXCursor d = clang_Cursor_isNull(t) ? ref : t;
	CXCursor def = clang_getCursorDefinition(d);
	return fe_decl_of(a, clang_Cursor_isNull(def) ? d : def);
}

int fe_decl_of(const fe_ast *a, CXCursor c)
{
	if (clang_Cursor_isNull(c))
		return -1;
	uint32_t off;
	if (!kt_fe_offset(a->tu, clang_getCursorLocation(c), &off)) {
		/* a declaration of a walked header function or class */
		if (a->hdecls.len == 0)
			return -1;
		CXCursor cc = clang_getCanonicalCursor(c);
		for (size_t i = 0; i < a->hdecls.len; i++) {
			const fe_node *d = &a->n[a->hdecls.items[i]];
			if (clang_equalCursors(clang_getCanonicalCursor(d->cur),
			                       cc))
				return a->hdecls.items[i];
		}
		return -1;
	}
	/* declarations a macro expands to all stand at the expansion
	 * (`dim3 grid(n); dim3 block(m);` in a macro body): the one that is
	 * the cursor, else the first at the offset */
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor cc = clang_getCanonicalCursor(c);
	int first = -1;
	for (size_t i = 0; i < a->decls.len; i++) {
		const fe_node *d = &a->n[a->decls.items[i]];
		uint32_t doff;
		if (d->kind != k ||
		    !kt_fe_offset(a->tu, clang_getCursorLocation(d->cur),
		                  &doff) ||
		    doff != off)
			continue;
		if (clang_equalCursors(clang_getCanonicalCursor(d->cur), cc))
			return a->decls.items[i];
		if (first < 0)
			first = a->decls.items[i];
	}
	return first;
}

/* The macro whose expansion produced literal x, or -1: the main file's
 * definition whose body holds the literal's spelling, when one does (a
 * macro expanded inside another's argument, `CHECK((k<<<g, THREADS>>>
 * (x)))`, where the literal stands at the outer expansion); else the
 * first expansion around it. */
static int macro_at(const fe_ast *a, const fe_node *x)
{
	CXFile sf;
	unsigned soff;
	clang_getSpellingLocation(clang_getCursorLocation(x->cur), &sf, NULL,
	                          NULL, &soff);
	if (sf && clang_File_isEqual(sf, a->tu->file))
		for (size_t i = 0; i < a->macros.len; i++) {
			const fe_node *d = &a->n[a->macros.items[i]];
			if (d->in_main && soff >= d->b && soff < d->e)
				return a->macros.items[i];
		}
	for (size_t i = 0; i < a->expansions.len; i++) {
		const fe_node *m = &a->n[a->expansions.items[i]];
		if (m->in_main && x->b >= m->b && x->b < m->e)
			return fe_decl_of(a, clang_getCursorReferenced(m->cur));
	}
	return -1;
}

static bool int_literal(const char *t, size_t n, int64_t *v);

bool fe_in_macro_definition(const fe_ast *a, uint32_t off)
{
	for (size_t i = 0; i < a->macros.len; i++) {
		const fe_node *d = &a->n[a->macros.items[i]];
		if (d->in_main && off >= d->b && off < d->e)
			return true;
	}
	return false;
}

/* Whether token t is spelled s. */
static bool tok_is(CXTranslationUnit tu, CXToken t, const char *s)
{
	CXString sp = clang_getTokenSpelling(tu, t);
	bool is = !strcmp(clang_getCString(sp), s);
	clang_disposeString(sp);
	return is;
}

/* The token spans [first, last] of the arguments of the parenthesised
 * list that token open starts (top-level commas; none for `()`): the
 * k-th's, false where there are fewer. */
static bool list_item(CXTranslationUnit tu, const CXToken *t, unsigned nt,
                      unsigned open, int k, unsigned *first, unsigned *last)
{
	int depth = 0, at = 0;
	unsigned b = open + 1;
	for (unsigned i = open; i < nt; i++) {
		bool o = tok_is(tu, t[i], "(") || tok_is(tu, t[i], "[") ||
		         tok_is(tu, t[i], "{");
		bool c = tok_is(tu, t[i], ")") || tok_is(tu, t[i], "]") ||
		         tok_is(tu, t[i], "}");
		if (depth == 1 && (c || tok_is(tu, t[i], ","))) {
			if (at++ == k && i > b) {
				*first = b;
				*last = i - 1;
				return true;
			}
			b = i + 1;
		}
		depth += o - c;
		if (depth == 0)
			break;
	}
	return false;
}

bool fe_macro_param_arg(const fe_ast *a, int n, uint32_t off, uint32_t *b,
                        uint32_t *e)
{
	const fe_node *d = NULL;
	for (size_t i = 0; i < a->macros.len && !d; i++) {
		const fe_node *m = &a->n[a->macros.items[i]];
		if (m->in_main && off >= m->b && off < m->e)
			d = m;
	}
	if (!d || n < 0 || !a->n[n].in_main ||
	    !kt_fe_macro_function_like(d->cur))
		return false;
	CXTranslationUnit tu = a->tu->tu;
	CXToken *t = NULL;
	unsigned nt = 0;
	clang_tokenize(tu, clang_getCursorExtent(d->cur), &t, &nt);
	/* the name spelled at off, and its place in the parameter list */
	unsigned at = nt;
	for (unsigned j = 0; j < nt && at == nt; j++) {
		kt_range r;
		if (kt_fe_range(a->tu, clang_getTokenExtent(tu, t[j]), &r) &&
		    r.begin.offset == off)
			at = j;
	}
	int k = -1;
	unsigned close = 0;
	if (at < nt) {
		CXString name = clang_getTokenSpelling(tu, t[at]);
		for (unsigned i = 2, p = 0; i < nt && !close; i++) {
			if (tok_is(tu, t[i], ")"))
				close = i;
			else if (tok_is(tu, t[i], ","))
				p++;
			else if (k < 0 &&
			         tok_is(tu, t[i], clang_getCString(name)))
				k = (int)p;
		}
		clang_disposeString(name);
	}
	clang_disposeTokens(tu, t, nt);
	if (k < 0 || !close)
		return false;
	bool found = false;
	for (size_t i = 0; i < a->expansions.len && !found; i++) {
		const fe_node *x = &a->n[a->expansions.items[i]];
		if (!x->in_main || a->n[n].b < x->b || a->n[n].b >= x->e ||
		    !clang_equalCursors(clang_getCursorReferenced(x->cur),
		                        d->cur))
			continue;
		clang_tokenize(tu, clang_getCursorExtent(x->cur), &t, &nt);
		unsigned f, l;
		kt_range rf, rl;
		found =
		    nt > 1 && tok_is(tu, t[1], "(") &&
		    list_item(tu, t, nt, 1, k, &f, &l) &&
		    kt_fe_range(a->tu, clang_getTokenExtent(tu, t[f]), &rf) &&
		    kt_fe_range(a->tu, clang_getTokenExtent(tu, t[l]), &rl);
		if (found) {
			*b = rf.begin.offset;
			*e = rl.end.offset;
		}
		clang_disposeTokens(tu, t, nt);
	}
	return found;
}

/* A literal a function-like macro's expansion produced from the main
 * file's text: one in its body that is not the whole body (the `1024` of
 * `dim3 block(std::min(d, 1024));` in a launching macro), or one written
 * in an argument at the expansion (`MIN(n, 256)`). Either is spelled once
 * and stands there as a literal of the file, changed there for every
 * expansion (and every use of the argument), as a parameter that
 * replaces it must be. */
static void spelled_in_macro(fe_ast *a, fe_node *x)
{
	CXFile sf;
	unsigned soff;
	clang_getSpellingLocation(clang_getCursorLocation(x->cur), &sf, NULL,
	                          NULL, &soff);
	if (!sf || !clang_File_isEqual(sf, a->tu->file) ||
	    x->kind != CXCursor_IntegerLiteral)
		return;
	const fe_node *d = &a->n[x->macro];
	bool body = d->in_main && soff >= d->b && soff < d->e;
	if (!body && fe_in_macro_definition(a, soff))
		return;
	const char *t = a->tu->text;
	uint32_t e = soff;
	while (e < a->tu->len && (isalnum((unsigned char)t[e]) || t[e] == '\''))
		e++;
	int64_t v;
	if (!int_literal(t + soff, e - soff, &v) || v != x->ival)
		return;
	x->b = soff;
	x->e = e;
	x->spelled = true;
	x->macro = -1;
}

/* A literal of another file's macro whose name is written in a macro's
 * argument (`MIN(n, BLOCK)`, BLOCK from a header): it stands at that name,
 * as where the macro expands directly, not at the outer expansion. */
static void foreign_in_argument(fe_ast *a, fe_node *x)
{
	CXFile ff;
	unsigned foff;
	clang_getFileLocation(clang_getCursorLocation(x->cur), &ff, NULL, NULL,
	                      &foff);
	if (!ff || !clang_File_isEqual(ff, a->tu->file) || foff <= x->b ||
	    fe_in_macro_definition(a, foff))
		return;
	/* inside the expansion the literal stands at (its extent may be
	 * empty there) */
	bool inside = false;
	for (size_t i = 0; i < a->expansions.len && !inside; i++) {
		const fe_node *m = &a->n[a->expansions.items[i]];
		inside = m->in_main && m->b == x->b && foff < m->e;
	}
	if (!inside)
		return;
	const char *t = a->tu->text;
	uint32_t e = foff;
	while (e < a->tu->len && (isalnum((unsigned char)t[e]) || t[e] == '_'))
		e++;
	if (e == foff || isdigit((unsigned char)t[foff]))
		return;
	x->b = foff;
	x->e = e;
}

static void resolve(fe_ast *a)
{
	for (size_t i = 0; i < a->len; i++) {
		fe_node *x = &a->n[i];
		switch (x->kind) {
		case CXCursor_DeclRefExpr:
		case CXCursor_MemberRefExpr:
		case CXCursor_CallExpr:
		case CXCursor_TypeRef:
		case CXCursor_TemplateRef:
			x->ref =
			    fe_decl_of(a, clang_getCursorReferenced(x->cur));
			break;
		case CXCursor_IntegerLiteral:
		case CXCursor_FloatingLiteral:
			if (x->in_main && !x->spelled)
				x->macro = macro_at(a, x);
			if (x->macro >= 0 &&
			    !fe_macro_int(a, x->macro, &(int64_t){0},
			                  &(uint32_t){0}, &(uint32_t){0}))
				spelled_in_macro(a, x);
			else if (x->in_main && !x->spelled && x->macro < 0)
				foreign_in_argument(a, x);
			break;
		default: break;
		}
	}
}

int fe_ast_build(fe_ast *a, kt_tu *tu)
{
	memset(a, 0, sizeof(*a));
	a->tu = tu;
	walk w = {a, -1, 0, 0};
	clang_visitChildren(clang_getTranslationUnitCursor(tu->tu), visit, &w);
	if (w.oom || add_header_roots(a) ||
	    each_call(a, add_helper_root, false))
		return kt_error(KT_ENOMEM, "out of memory");
	resolve(a);
	return KT_OK;
}

void fe_ast_release(fe_ast *a)
{
	kt_free(a->n);
	kt_vec_release(&a->decls);
	kt_vec_release(&a->macros);
	kt_vec_release(&a->expansions);
	kt_vec_release(&a->hroots);
	kt_vec_release(&a->hdecls);
	memset(a, 0, sizeof(*a));
}

/* ------------------------------------------------------------- queries */

int fe_child(const fe_ast *a, int n, int k)
{
	int c = n >= 0 ? a->n[n].first : -1;
	while (c >= 0 && k-- > 0)
		c = a->n[c].next;
	return c;
}

int fe_nchildren(const fe_ast *a, int n)
{
	int k = 0;
	for (int c = a->n[n].first; c >= 0; c = a->n[c].next)
		k++;
	return k;
}

/* A child that names a type, template or namespace (`dim3(1, 2, 3)`
 * as a temporary lists its type first), not an argument. */
static bool names_type(const fe_node *x)
{
	return x->kind == CXCursor_TypeRef || x->kind == CXCursor_TemplateRef ||
	       x->kind == CXCursor_NamespaceRef;
}

int fe_nwritten(const fe_ast *a, int n)
{
	int k = 0;
	for (int c = a->n[n].first; c >= 0; c = a->n[c].next)
		k += a->n[c].in_main && !names_type(&a->n[c]);
	return k;
}

int fe_written(const fe_ast *a, int n, int k)
{
	for (int c = a->n[n].first; c >= 0; c = a->n[c].next)
		if (a->n[c].in_main && !names_type(&a->n[c]) && k-- == 0)
			return c;
	return -1;
}

static bool is_wrapper(const fe_ast *a, int n)
{
	const fe_node *x = &a->n[n];
	if (x->kind == CXCursor_UnexposedExpr ||
	    x->kind == CXCursor_ParenExpr ||
	    x->kind == CXCursor_CStyleCastExpr ||
	    x->kind == CXCursor_CXXFunctionalCastExpr ||
	    x->kind == CXCursor_CXXStaticCastExpr ||
	    x->kind == CXCursor_CXXReinterpretCastExpr)
		return fe_nchildren(a, n) >= 1;
	/* the implicit dim3(x) conversion of a launch operand */
	return x->kind == CXCursor_CallExpr && !strcmp(x->name, "dim3") &&
	       fe_nwritten(a, n) == 1;
}

int fe_strip(const fe_ast *a, int n)
{
	while (n >= 0 && is_wrapper(a, n)) {
		/* a cast's last child is the operand (the first may be a type);
		 * a conversion's first written child is */
		int c = a->n[n].last;
		if (a->n[n].kind == CXCursor_CallExpr)
			c = fe_written(a, n, 0); /* past `dim3` in `dim3{x}` */
		n = c;
	}
	return n;
}

int fe_up(const fe_ast *a, int n)
{
	int p = a->n[n].parent;
	while (p >= 0 && is_wrapper(a, p))
		p = a->n[p].parent;
	return p;
}

int fe_ancestor(const fe_ast *a, int n, enum CXCursorKind k)
{
	for (; n >= 0; n = a->n[n].parent)
		if (a->n[n].kind == k)
			return n;
	return -1;
}

const char *fe_text(const fe_ast *a, int n, size_t *len)
{
	const fe_node *x = &a->n[n];
	*len = x->in_main ? x->e - x->b : 0;
	return a->tu->text + (x->in_main ? x->b : 0);
}

/*
 * OpenCL C's work-item functions as CUDA's index variables: get_local_id(d)
 * is threadIdx, get_group_id(d) blockIdx, get_local_size(d) blockDim,
 * get_num_groups(d) gridDim. get_global_id(d) is the composite
 * blockIdx * blockDim + threadIdx and get_global_size(d) gridDim *
 * blockDim: they mention each part, and are none of them alone.
 */
static const struct {
	const char *fn, *parts[3];
} ocl_index[] = {
    {"get_local_id", {"threadIdx"}},
    {"get_group_id", {"blockIdx"}},
    {"get_local_size", {"blockDim"}},
    {"get_num_groups", {"gridDim"}},
    {"get_global_id", {"blockIdx", "blockDim", "threadIdx"}},
    {"get_global_size", {"gridDim", "blockDim"}},
};

/* Whether OpenCL C's function fn stands for (or holds) CUDA's name; with
 * alone, only where it is exactly that variable. */
static bool ocl_is(const char *fn, const char *name, bool alone)
{
	for (size_t i = 0; i < sizeof(ocl_index) / sizeof(ocl_index[0]); i++) {
		if (strcmp(fn, ocl_index[i].fn))
			continue;
		if (alone && ocl_index[i].parts[1])
			return false;
		for (int k = 0; k < 3 && ocl_index[i].parts[k]; k++)
			if (!strcmp(ocl_index[i].parts[k], name))
				return true;
	}
	return false;
}

/* `get_local_id(0)`: 'x' ('y', 'z' for 1, 2) when n calls fn with one
 * integer literal argument. */
static char ocl_dim(const fe_ast *a, int n, const char *name)
{
	if (n < 0 || a->n[n].kind != CXCursor_CallExpr ||
	    !ocl_is(a->n[n].name, name, true) || fe_nwritten(a, n) != 2)
		return 0;
	int d = fe_strip(a, fe_written(a, n, 1));
	if (d < 0 || !a->n[d].is_int || a->n[d].ival < 0 || a->n[d].ival > 2)
		return 0;
	return (char)('x' + a->n[d].ival);
}

/* The member letter of `blockIdx.x` written in a macro's body (its text
 * in the main file is the macro's invocation): read where the expression
 * is spelled, in whichever file that is, past the base's name and the
 * dot. */
static char member_letter(const fe_ast *a, int n)
{
	CXSourceRange r = clang_getCursorExtent(a->n[n].cur);
	CXFile f;
	unsigned off;
	clang_getSpellingLocation(clang_getRangeStart(r), &f, NULL, NULL, &off);
	size_t size = 0;
	const char *t = f ? clang_getFileContents(a->tu->tu, f, &size) : NULL;
	if (!t)
		return 0;
	size_t i = off;
	while (i < size && (isalnum((unsigned char)t[i]) || t[i] == '_'))
		i++;
	while (i < size && isspace((unsigned char)t[i]))
		i++;
	if (i >= size || t[i++] != '.')
		return 0;
	while (i < size && isspace((unsigned char)t[i]))
		i++;
	bool alone = i + 1 >= size ||
	             !(isalnum((unsigned char)t[i + 1]) || t[i + 1] == '_');
	return i < size && alone ? t[i] : 0;
}

char fe_builtin(const fe_ast *a, int n, const char *name)
{
	n = fe_strip(a, n);
	if (a->tu->opencl)
		return ocl_dim(a, n, name);
	if (n < 0 || a->n[n].kind != CXCursor_MemberRefExpr)
		return 0;
	int base = fe_strip(a, a->n[n].first);
	if (base < 0 || a->n[base].kind != CXCursor_DeclRefExpr ||
	    strcmp(a->n[base].name, name))
		return 0;
	size_t len;
	const char *t = fe_text(a, n, &len);
	char d = len ? t[len - 1] : 0;
	return d == 'x' || d == 'y' || d == 'z' ? d : 0;
}

int fe_warp_division(const fe_ast *a, int n)
{
	const fe_node *x = &a->n[n];
	if (x->kind != CXCursor_BinaryOperator ||
	    (x->op != CXBinaryOperator_Div && x->op != CXBinaryOperator_Shr))
		return -1;
	int r = fe_strip(a, fe_child(a, n, 1));
	if (r < 0)
		return -1;
	bool warp =
	    (a->n[r].is_int &&
	     a->n[r].ival == (x->op == CXBinaryOperator_Div ? 32 : 5)) ||
	    (a->n[r].kind == CXCursor_DeclRefExpr &&
	     !strcmp(a->n[r].name, "warpSize"));
	return warp ? fe_child(a, n, 0) : -1;
}

char fe_builtin_expanded(const fe_ast *a, int n, const char *name)
{
	n = fe_strip(a, n);
	if (a->tu->opencl || n < 0 || a->n[n].spelled)
		return fe_builtin(a, n, name);
	if (a->n[n].kind != CXCursor_MemberRefExpr)
		return 0;
	int base = fe_strip(a, a->n[n].first);
	if (base < 0 || a->n[base].kind != CXCursor_DeclRefExpr ||
	    strcmp(a->n[base].name, name))
		return 0;
	char d = member_letter(a, n);
	return d == 'x' || d == 'y' || d == 'z' ? d : 0;
}

bool fe_mentions(const fe_ast *a, int n, const char *name)
{
	if (a->n[n].kind == CXCursor_DeclRefExpr &&
	    (a->tu->opencl ? ocl_is(a->n[n].name, name, false)
	                   : !strcmp(a->n[n].name, name)))
		return true;
	for (int c = a->n[n].first; c >= 0; c = a->n[c].next)
		if (fe_mentions(a, c, name))
			return true;
	return false;
}

bool fe_refers_to(const fe_ast *a, int n, int decl)
{
	if (a->n[n].kind == CXCursor_DeclRefExpr && a->n[n].ref == decl)
		return true;
	for (int c = a->n[n].first; c >= 0; c = a->n[c].next)
		if (fe_refers_to(a, c, decl))
			return true;
	return false;
}

int fe_find(const fe_ast *a, uint32_t b, uint32_t e, enum CXCursorKind k)
{
	for (size_t i = 0; i < a->len; i++)
		if (a->n[i].kind == k && a->n[i].in_main && a->n[i].b == b &&
		    a->n[i].e == e)
			return (int)i;
	return -1;
}

/* [t, t + n) is one integer literal (with an optional u/l suffix). */
static bool int_literal(const char *t, size_t n, int64_t *v)
{
	char *end;
	long long val = strtoll(t, &end, 0);
	if (end == t)
		return false;
	while (end < t + n && strchr("uUlL", *end))
		end++;
	*v = val;
	return end == t + n;
}

/* The literal token of an object-like macro definition `NAME LITERAL` or
 * `NAME ( LITERAL )`, with the definition's tokens (dispose them), or -1. */
static int macro_literal(kt_tu *tu, CXCursor def, CXToken **toks, unsigned *nt)
{
	*toks = NULL;
	*nt = 0;
	if (kt_fe_macro_function_like(def))
		return -1;
	clang_tokenize(tu->tu, clang_getCursorExtent(def), toks, nt);
	unsigned lit = *nt == 2 ? 1 : *nt == 4 ? 2 : 0;
	if (!lit || clang_getTokenKind((*toks)[lit]) != CXToken_Literal)
		return -1;
	if (*nt == 4) {
		CXString l = clang_getTokenSpelling(tu->tu, (*toks)[1]);
		bool paren = !strcmp(clang_getCString(l), "(");
		clang_disposeString(l);
		if (!paren)
			return -1;
	}
	return (int)lit;
}

bool fe_macro_int(const fe_ast *a, int m, int64_t *v, uint32_t *vb,
                  uint32_t *ve)
{
	const fe_node *x = &a->n[m];
	if (!x->in_main)
		return false;
	CXToken *toks;
	unsigned nt;
	int lit = macro_literal(a->tu, x->cur, &toks, &nt);
	bool ok = false;
	kt_range kr;
	if (lit >= 0 &&
	    kt_fe_range(a->tu, clang_getTokenExtent(a->tu->tu, toks[lit]),
	                &kr)) {
		ok = int_literal(a->tu->text + kr.begin.offset,
		                 kr.end.offset - kr.begin.offset, v);
		*vb = kr.begin.offset;
		*ve = kr.end.offset;
	}
	clang_disposeTokens(a->tu->tu, toks, nt);
	return ok;
}

bool fe_expansion_int(const fe_ast *a, uint32_t off, int64_t *v)
{
	for (size_t i = 0; i < a->expansions.len; i++) {
		const fe_node *x = &a->n[a->expansions.items[i]];
		if (!x->in_main || x->b != off)
			continue;
		CXCursor def = clang_getCursorReferenced(x->cur);
		if (clang_Cursor_isNull(def))
			return false;
		CXToken *toks;
		unsigned nt;
		int lit = macro_literal(a->tu, def, &toks, &nt);
		bool ok = false;
		if (lit >= 0) {
			CXString s =
			    clang_getTokenSpelling(a->tu->tu, toks[lit]);
			const char *t = clang_getCString(s);
			ok = int_literal(t, strlen(t), v);
			clang_disposeString(s);
		}
		clang_disposeTokens(a->tu->tu, toks, nt);
		return ok;
	}
	return false;
}

int fe_assign_lhs(const fe_ast *a, int n, bool *compound)
{
	const fe_node *x = &a->n[n];
	*compound = x->kind == CXCursor_CompoundAssignOperator;
	if ((x->kind == CXCursor_BinaryOperator &&
	     x->op == CXBinaryOperator_Assign) ||
	    *compound)
		return fe_strip(a, x->first);
	if (x->kind != CXCursor_CallExpr || strncmp(x->name, "operator", 8))
		return -1;
	size_t len = strlen(x->name);
	const char *op = x->name + 8;
	if (len < 9 || x->name[len - 1] != '=' || !strcmp(op, "==") ||
	    !strcmp(op, "!=") || !strcmp(op, "<=") || !strcmp(op, ">="))
		return -1;
	*compound = strcmp(op, "=") != 0;
	return fe_strip(a, x->first);
}

/* What node n writes: the left side of an assignment or the operand of
 * ++/--, else -1. */
static int written(const fe_ast *a, int n)
{
	const fe_node *x = &a->n[n];
	bool compound;
	if (x->kind == CXCursor_UnaryOperator &&
	    x->op >= CXUnaryOperator_PostInc && x->op <= CXUnaryOperator_PreDec)
		return fe_strip(a, x->first);
	return fe_assign_lhs(a, n, &compound);
}

/* Whether the object left side lhs writes may be var: its root (through
 * subscripts, members and parentheses) is var, or, when the root is not
 * a name (`*(p + k) = ...`), var stands anywhere in it. A name in an
 * index (`y[r * CHUNKS] = ...`) only reads it. */
static bool writes_var(const fe_ast *a, int lhs, int var)
{
	int r = fe_strip(a, lhs);
	while (r >= 0 &&
	       (a->n[r].kind == CXCursor_ArraySubscriptExpr ||
	        a->n[r].kind == CXCursor_MemberRefExpr) &&
	       a->n[r].first >= 0)
		r = fe_strip(a, a->n[r].first);
	if (r >= 0 && a->n[r].kind == CXCursor_DeclRefExpr)
		return a->n[r].ref == var;
	return r >= 0 && fe_refers_to(a, r, var);
}

bool fe_assigned(const fe_ast *a, int var)
{
	for (size_t i = 0; i < a->len; i++) {
		int lhs = written(a, (int)i);
		if (lhs >= 0 && writes_var(a, lhs, var))
			return true;
	}
	return false;
}

int fe_var_init(const fe_ast *a, int var)
{
	int last = a->n[var].last;
	if (last < 0)
		return -1;
	enum CXCursorKind k = a->n[last].kind;
	if (k == CXCursor_TypeRef || clang_isAttribute(k) ||
	    k == CXCursor_NamespaceRef || k == CXCursor_TemplateRef)
		return -1;
	return last;
}

int fe_bound_arg(const fe_ast *a, int parm)
{
	int fn = parm >= 0 && a->n[parm].kind == CXCursor_ParmDecl
	             ? a->n[parm].parent
	             : -1;
	if (fn < 0 ||
	    (a->n[fn].kind != CXCursor_FunctionDecl &&
	     a->n[fn].kind != CXCursor_FunctionTemplate) ||
	    fe_assigned(a, parm))
		return -1;
	int pos = 0;
	for (int c = a->n[fn].first; c >= 0 && c != parm; c = a->n[c].next) {
		enum CXCursorKind k = a->n[c].kind;
		if (k == CXCursor_CUDAGlobalAttr ||
		    k == CXCursor_CUDADeviceAttr)
			return -1; /* device code: its callers are no host */
		pos += k == CXCursor_ParmDecl;
	}
	/* the one name of fn in the file, the callee of its one call */
	int call = -1, refs = 0;
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		/* only a node spelled as fn is asked of libclang */
		if (!x->in_main || strcmp(x->name, a->n[fn].name))
			continue;
		if (x->kind == CXCursor_DeclRefExpr ||
		    x->kind == CXCursor_OverloadedDeclRef) {
			CXCursor r = clang_getCursorReferenced(x->cur);
			CXCursor t = clang_getSpecializedCursorTemplate(r);
			CXCursor d = clang_Cursor_isNull(t) ? r : t;
			CXCursor def = clang_getCursorDefinition(d);
			refs +=
			    fe_decl_of(a, clang_Cursor_isNull(def) ? d : def) ==
			    fn;
		}
		if (x->kind == CXCursor_CallExpr && fe_callee(a, (int)i) == fn)
			call = call < 0 ? (int)i : -2;
	}
	if (call < 0 || refs != 1)
		return -1;
	int arg = fe_strip(a, fe_written(a, call, pos + 1));
	if (arg < 0) /* left to its default */
		arg = fe_strip(a, fe_var_init(a, parm));
	return arg >= 0 && a->n[arg].spelled &&
	               (a->n[arg].kind == CXCursor_IntegerLiteral ||
	                a->n[arg].kind == CXCursor_FloatingLiteral)
	           ? arg
	           : -1;
}

/* A plain `var = E;` statement of the block that declares var: E, else -1.
 * The statement may stand in implicit nodes (the cleanups of a temporary
 * that `std::min(var, 256)` binds to a reference). */
static int plain_def(const fe_ast *a, int n, int var, int block)
{
	const fe_node *x = &a->n[n];
	bool compound;
	int lhs = fe_assign_lhs(a, n, &compound);
	int up = x->parent;
	while (up >= 0 && up != block &&
	       a->n[up].kind == CXCursor_UnexposedExpr &&
	       a->n[up].first == a->n[up].last)
		up = a->n[up].parent;
	if (x->kind != CXCursor_BinaryOperator || compound || lhs < 0 ||
	    a->n[lhs].kind != CXCursor_DeclRefExpr || a->n[lhs].ref != var ||
	    up != block)
		return -1;
	return fe_child(a, n, 1);
}

/* Whether the k-th argument of call c is a non-const lvalue reference
 * parameter of the function it calls. */
static bool ref_out_arg(const fe_ast *a, int c, int arg)
{
	CXCursor call = a->n[c].cur;
	int na = clang_Cursor_getNumArguments(call);
	CXType fn = clang_getCursorType(clang_getCursorReferenced(call));
	for (int i = 0; i < na; i++) {
		if (!clang_equalCursors(
		        clang_Cursor_getArgument(call, (unsigned)i),
		        a->n[arg].cur))
			continue;
		CXType t = clang_getArgType(fn, (unsigned)i);
		return t.kind == CXType_LValueReference &&
		       !clang_isConstQualifiedType(clang_getPointeeType(t));
	}
	return false;
}

int fe_out_arg_call(const fe_ast *a, int var, int *count)
{
	int first = -1;
	*count = 0;
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		if (x->kind != CXCursor_DeclRefExpr || x->ref != var)
			continue;
		int up = fe_up(a, (int)i), call = -1;
		if (up >= 0 && a->n[up].kind == CXCursor_UnaryOperator &&
		    a->n[up].op == CXUnaryOperator_AddrOf) {
			call = fe_up(a, up); /* `f(&var)` */
			if (call >= 0 && a->n[call].kind != CXCursor_CallExpr)
				call = -1;
		} else if (x->parent >= 0 &&
		           a->n[x->parent].kind == CXCursor_CallExpr &&
		           ref_out_arg(a, x->parent, (int)i)) {
			call = x->parent; /* `f(var)` to an `int &` */
		}
		if (call < 0)
			continue;
		if (first < 0)
			first = call;
		++*count;
	}
	return first;
}

int fe_def_before(const fe_ast *a, int var, uint32_t at)
{
	int def = fe_var_init(a, var);
	int calls;
	CXType vt = clang_getCanonicalType(clang_getCursorType(a->n[var].cur));
	if (vt.kind != CXType_Record && fe_out_arg_call(a, var, &calls) >= 0)
		return -1; /* a call writes it: `int sms = 0; get(&sms);` */
	int stmt = a->n[var].parent;
	int block = stmt >= 0 ? a->n[stmt].parent : -1;
	if (def < 0 || stmt < 0 || a->n[stmt].kind != CXCursor_DeclStmt ||
	    block < 0 || a->n[block].kind != CXCursor_CompoundStmt)
		return fe_assigned(a, var) ? -1 : def;
	uint32_t def_end = 0;
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		int lhs = written(a, (int)i);
		if (lhs < 0 || !writes_var(a, lhs, var))
			continue;
		int e = plain_def(a, (int)i, var, block);
		if (e < 0 || !x->in_main)
			return -1; /* changed some other way */
		if (x->e <= at && x->e >= def_end) {
			def = e;
			def_end = x->e;
		}
	}
	return def;
}

int fe_dim3(const fe_ast *a, int op)
{
	int n = fe_strip(a, op);
	if (n >= 0 && a->n[n].kind == CXCursor_DeclRefExpr &&
	    a->n[n].ref >= 0 && a->n[a->n[n].ref].kind == CXCursor_VarDecl)
		n = fe_strip(a, fe_def_before(a, a->n[n].ref, a->n[n].b));
	if (n >= 0 && a->n[n].kind == CXCursor_CallExpr &&
	    !strcmp(a->n[n].name, "dim3") && fe_nwritten(a, n) >= 2)
		return n;
	return -1;
}

/* An expression that reads the device's SM count: a field or a variable
 * named for it (`prop.multiProcessorCount`, `nsm`, `num_sms`,
 * `sm_count`, `numSMs`). The name is what says so: the count reaches the
 * launcher from another file (a device-info struct, a cached query) as
 * often as from cudaGetDeviceProperties in the same function. */
const char *fe_sm_count(const fe_ast *a, int n)
{
	static const char *names[] = {"multiprocessorcount",
	                              "nsm",
	                              "nsms",
	                              "sms",
	                              "numsm",
	                              "numsms",
	                              "smcount",
	                              "numsmcount",
	                              "nummultiprocessors"};
	n = fe_strip(a, n);
	if (n < 0 || (a->n[n].kind != CXCursor_MemberRefExpr &&
	              a->n[n].kind != CXCursor_DeclRefExpr))
		return NULL;
	/* a local cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount,
	 * dev) fills, whatever its name */
	int d = a->n[n].ref, count = 0;
	int call = d >= 0 && a->n[d].kind == CXCursor_VarDecl
	               ? fe_out_arg_call(a, d, &count)
	               : -1;
	int attr = call >= 0 && count == 1 &&
	                   !strcmp(a->n[call].name, "cudaDeviceGetAttribute")
	               ? fe_strip(a, fe_written(a, call, 2))
	               : -1;
	if (attr >= 0 &&
	    !strcmp(a->n[attr].name, "cudaDevAttrMultiProcessorCount"))
		return a->n[n].name;
	char low[64];
	size_t j = 0;
	for (const char *c = a->n[n].name; *c && j + 1 < sizeof(low); c++)
		if (*c != '_')
			low[j++] = (char)tolower((unsigned char)*c);
	low[j] = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(low, names[i]))
			return a->n[n].name;
	return NULL;
}
