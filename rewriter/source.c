/*
 * source.c - what the rewriter needs to know of a file's structure, read
 * from the frontend's libclang translation unit: its top-level declarations
 * (is each one host code that NVRTC cannot compile?) and its #include
 * directives.
 *
 * Design choice: this reads the AST the frontend already built (one parse
 * per run), through libclang's C API only; it classifies by CUDA attributes
 * on the cursors, never by looking at the text.
 */
#include "ktc/rewrite.h"

#include "frontend/frontend.h"
#include "util/vec.h"

#include <string.h>

typedef struct walk {
	kt_tu *tu;
	KT_VEC(kt_rewrite_decl) decls;
	KT_VEC(kt_rewrite_include) incs;
	int rc;
} walk;

/* CUDA attributes found among a declaration's children. */
typedef struct attrs {
	bool global, device, host, space;
} attrs;

static enum CXChildVisitResult attr_visit(CXCursor c, CXCursor parent,
                                          CXClientData data)
{
	attrs *a = data;
	switch (clang_getCursorKind(c)) {
	case CXCursor_CUDAGlobalAttr: a->global = true; break;
	case CXCursor_CUDADeviceAttr: a->device = a->space = true; break;
	case CXCursor_CUDAHostAttr: a->host = true; break;
	case CXCursor_CUDAConstantAttr:
	case CXCursor_CUDASharedAttr: a->space = true; break;
	default: break;
	}
	return CXChildVisit_Continue;
}

static bool is_function(enum CXCursorKind k)
{
	return k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate ||
	       k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
	       k == CXCursor_Destructor;
}

/* Host-only: a host function, or a mutable variable without a space. */
static bool host_only(CXCursor c, enum CXCursorKind k, attrs *a)
{
	clang_visitChildren(c, attr_visit, a);
	if (is_function(k))
		return !a->global && !a->device;
	if (k == CXCursor_VarDecl)
		return !a->space &&
		       !clang_isConstQualifiedType(clang_getCursorType(c));
	return false;
}

static int add_decl(walk *w, CXCursor c, enum CXCursorKind k)
{
	kt_rewrite_decl d = {0};
	if (!kt_fe_range(w->tu, clang_getCursorExtent(c), &d.range))
		return 0; /* not in the main file */
	attrs a = {0};
	d.host_only = host_only(c, k, &a);
	d.kernel = a.global;
	return kt_vec_push(&w->decls, d);
}

static int add_include(walk *w, CXCursor c)
{
	kt_rewrite_include inc = {0};
	if (!kt_fe_range(w->tu, clang_getCursorExtent(c), &inc.range))
		return 0;
	CXString s = clang_getCursorSpelling(c);
	inc.spelled = kt_arena_strdup(&w->tu->arena, clang_getCString(s));
	clang_disposeString(s);
	const char *t = w->tu->text + inc.range.begin.offset;
	size_t n = inc.range.end.offset - inc.range.begin.offset;
	inc.angled = memchr(t, '<', n) != NULL; /* `#include <...>` */
	return inc.spelled ? kt_vec_push(&w->incs, inc) : KT_ENOMEM;
}

static enum CXChildVisitResult top_visit(CXCursor c, CXCursor parent,
                                         CXClientData data)
{
	walk *w = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec) {
		clang_visitChildren(c, top_visit, w);
		return CXChildVisit_Continue;
	}
	if (k == CXCursor_InclusionDirective)
		w->rc = add_include(w, c);
	else if (clang_isDeclaration(k))
		w->rc = add_decl(w, c, k);
	return w->rc ? CXChildVisit_Break : CXChildVisit_Continue;
}

int kt_rewrite_file_from_tu(kt_rewrite_file *out, kt_tu *tu)
{
	walk w = {.tu = tu};
	memset(out, 0, sizeof(*out));
	clang_visitChildren(clang_getTranslationUnitCursor(tu->tu), top_visit,
	                    &w);
	if (w.rc) {
		kt_vec_release(&w.decls);
		kt_vec_release(&w.incs);
		return kt_error(KT_ENOMEM, "out of memory");
	}
	out->path = tu->path;
	out->text = tu->text;
	out->len = tu->len;
	out->decls = w.decls.items;
	out->ndecls = w.decls.len;
	out->includes = w.incs.items;
	out->nincludes = w.incs.len;
	return 0;
}

void kt_rewrite_file_release(kt_rewrite_file *f)
{
	kt_free((void *)f->decls);
	kt_free((void *)f->includes);
	memset(f, 0, sizeof(*f));
}
