/*
 * source.c - what the rewriter needs to know of a file's structure, read
 * from the frontend's libclang translation unit: its top-level declarations
 * (is each one host code that NVRTC cannot compile?) and its #include
 * directives.
 *
 * Design choice: this reads the AST the frontend already built (one parse
 * per run), through libclang's C API only; it classifies by CUDA attributes
 * on the cursors, never by looking at the text. It also lists the loops of
 * the `for (T i = a; i < b; i += c)` shape and the array subscripts inside
 * functions, which the vectorize refactor rewrites. Declarations and
 * includes already inside the file's own `#ifndef __CUDACC_RTC__` (or
 * `#if !defined(__CUDACC_RTC__)`, or the `#else` of `#ifdef
 * __CUDACC_RTC__`) are marked, from the directives' tokens, so the
 * generator does not guard them a second time.
 *
 * The file's own headers (its `"..."` includes outside the toolkit and the
 * system headers, and theirs) are read the same way, so the generator can
 * give NVRTC their device side: their host-only top-level declarations and
 * their includes are listed with offsets in each header's text.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "ktc/frontend.h"

#include "frontend/frontend.h"
#include "util/cuda.h"
#include "util/vec.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* A function-like macro definition, by name (explicit instantiations
 * may come through one). */
typedef struct fe_macro {
	char *name;
	CXCursor c;
} fe_macro;

/* [begin, end) of the file that NVRTC never sees: the file's own
 * `#ifndef __CUDACC_RTC__` branches. */
typedef struct span {
	uint32_t begin, end;
} span;

typedef struct walk {
	kt_tu *tu;
	KT_VEC(span) host; /* sorted, disjoint */
	KT_VEC(kt_rewrite_decl) decls;
	KT_VEC(kt_rewrite_include) incs;
	KT_VEC(kt_rewrite_loop) loops;
	KT_VEC(kt_rewrite_subscript) subs;
	KT_VEC(kt_rewrite_division) divs;
	KT_VEC(CXCursor) cur;  /* decls[i]'s cursor */
	KT_VEC(CXCursor) used; /* canonical decls NVRTC-visible code names */
	KT_VEC(char *) used_names; /* their spellings, sorted (used_by_name) */
	bool used_names_read;
	KT_VEC(kt_rewrite_header) hdrs;
	KT_VEC(CXFile) hfiles; /* hdrs[i]'s file */
	KT_VEC(kt_rewrite_decl) hdecls;
	KT_VEC(kt_rewrite_include) hincs;
	KT_VEC(char *) hcut;     /* names of host templates cut from headers */
	KT_VEC(CXCursor) hcutd;  /* the types cut from headers (canonical) */
	KT_VEC(fe_macro) macros; /* function-like macro definitions, by name */
	bool macros_read;
	KT_VEC(CXFile) needed;  /* headers whose names device code uses */
	KT_VEC(CXFile) through; /* needed only as includers of those */
	KT_VEC(span) hostfn;    /* the main file's host functions, in order */
	KT_VEC(CXCursor) seen_types; /* main-file types device code names */
	unsigned std_needed; /* C headers of the system it uses (std_keys) */
	int rc;
} walk;

/* The C headers of the system whose names device code may take (`int32_t`
 * through a project header that includes <cstdint>): the file the name is
 * declared in (glibc's bits/stdint-intn.h), and what the generator's
 * stand-ins call it. */
static const char *const std_keys[][2] = {
    {"stdint", "cstdint"},
    {"limits.h", "climits"},
    {"math.h", "math.h"}, /* its macros: NVRTC has the functions */
    /* glibc's `uint`, `ushort`, `ulong` (a path: "types.h" alone is
     * every bits/types.h) */
    {"/sys/types.h", "sys/types.h"},
};
enum { NSTD = sizeof(std_keys) / sizeof(std_keys[0]) };

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
	case CXCursor_UnexposedAttr: a->global |= kt_fe_opencl_kernel(c); break;
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

/* ---- the file's own host-only branches ---- */

typedef struct toks {
	kt_tu *tu;
	CXToken *t;
	unsigned n;
	/* the file most tokens come from and its text: asking libclang for
	 * a file's contents costs a lookup, once per token of a header */
	CXFile file;
	const char *text;
	size_t len;
} toks;

static bool tok_is(const toks *k, unsigned i, const char *s)
{
	if (i >= k->n)
		return false;
	CXString x = clang_getTokenSpelling(k->tu->tu, k->t[i]);
	bool r = !strcmp(clang_getCString(x), s);
	clang_disposeString(x);
	return r;
}

static uint32_t tok_off(const toks *k, unsigned i)
{
	uint32_t off = 0;
	kt_fe_offset(k->tu, clang_getTokenLocation(k->tu->tu, k->t[i]), &off);
	return off;
}

/* Tokens [i, end) of the directive whose `#` is token i: those before the
 * end of its line (backslash-newline continues it). */
static unsigned directive_end(const toks *k, unsigned i)
{
	const char *t = k->tu->text;
	uint32_t eol = tok_off(k, i);
	while (eol < k->tu->len &&
	       (t[eol] != '\n' || (eol > 0 && t[eol - 1] == '\\')))
		eol++;
	unsigned j = i + 1;
	while (j < k->n && tok_off(k, j) < eol)
		j++;
	return j;
}

/* A `#` that starts a line (only white space before it). */
static bool at_line_start(const toks *k, unsigned i)
{
	if (!tok_is(k, i, "#"))
		return false;
	const char *t = k->tu->text;
	for (uint32_t o = tok_off(k, i); o > 0 && t[o - 1] != '\n'; o--)
		if (t[o - 1] != ' ' && t[o - 1] != '\t')
			return false;
	return true;
}

/* 1: `#ifndef __CUDACC_RTC__` or `#if !defined(__CUDACC_RTC__)` (host code
 * follows); 2: `#ifdef __CUDACC_RTC__` or `#if defined(...)` (host code
 * after its #else); 0: any other condition. */
static int rtc_condition(const toks *k, unsigned i, unsigned end)
{
	const char *rtc = "__CUDACC_RTC__";
	if (end == i + 3 && tok_is(k, i + 2, rtc))
		return tok_is(k, i + 1, "ifndef")  ? 1
		       : tok_is(k, i + 1, "ifdef") ? 2
		                                   : 0;
	if (!tok_is(k, i + 1, "if"))
		return 0;
	unsigned j = i + 2;
	bool neg = tok_is(k, j, "!");
	j += neg;
	if (!tok_is(k, j++, "defined"))
		return 0;
	bool paren = tok_is(k, j, "(");
	j += paren;
	if (!tok_is(k, j++, rtc) || (paren && !tok_is(k, j++, ")")) || j != end)
		return 0;
	return neg ? 1 : 2;
}

/* Walks the conditional directives; a stack entry is its condition kind
 * (above) and where its host branch began (UINT32_MAX: not in one). */
static int find_host_spans(walk *w, const toks *k)
{
	KT_VEC(uint64_t) stack = {0};
	int rc = 0;
	for (unsigned i = 0; i < k->n && !rc; i++) {
		if (!at_line_start(k, i))
			continue;
		unsigned end = directive_end(k, i);
		uint32_t next = end < k->n ? tok_off(k, end) : w->tu->len;
		bool opens = tok_is(k, i + 1, "if") ||
		             tok_is(k, i + 1, "ifdef") ||
		             tok_is(k, i + 1, "ifndef");
		if (opens) {
			int kind = rtc_condition(k, i, end);
			uint32_t from = kind == 1 ? next : UINT32_MAX;
			rc = kt_vec_push(&stack, (uint64_t)kind << 32 | from);
		} else if (stack.len && (tok_is(k, i + 1, "else") ||
		                         tok_is(k, i + 1, "elif") ||
		                         tok_is(k, i + 1, "endif"))) {
			uint64_t *top = &stack.items[stack.len - 1];
			uint32_t from = (uint32_t)*top;
			if (from != UINT32_MAX) {
				span s = {from, tok_off(k, i)};
				rc = kt_vec_push(&w->host, s);
			}
			bool host_else =
			    *top >> 32 == 2 && tok_is(k, i + 1, "else");
			*top = (*top >> 32) << 32 |
			       (host_else ? next : UINT32_MAX);
			if (tok_is(k, i + 1, "endif"))
				stack.len--;
		}
		i = end - 1;
	}
	kt_vec_release(&stack);
	return rc;
}

static int host_spans(walk *w)
{
	toks k = {.tu = w->tu};
	clang_tokenize(w->tu->tu, kt_fe_source_range(w->tu, 0, w->tu->len),
	               &k.t, &k.n);
	int rc = find_host_spans(w, &k);
	clang_disposeTokens(w->tu->tu, k.t, k.n);
	return rc;
}

static bool in_host_span(const walk *w, const kt_range *r);

static bool same_name(walk *w, CXCursor c, const char *name, size_t n)
{
	CXString s = clang_getCursorSpelling(c);
	const char *t = clang_getCString(s);
	bool eq = t && strlen(t) == n && !strncmp(t, name, n);
	clang_disposeString(s);
	(void)w;
	return eq;
}

static bool cut_name(const walk *w, const char *name);

/* An explicit instantiation [b, e] of the file naming template nm: libclang
 * shows none, so one of a host template guarded above would name what
 * NVRTC no longer sees. It is host code when nm is a host-only template
 * of this file and no kernel or device template, or one cut from a
 * header. */
static int explicit_inst(walk *w, const toks *k, const char *nm, unsigned b,
                         unsigned e)
{
	int host = 0;
	for (size_t d = 0; d < w->decls.len && host >= 0; d++) {
		enum CXCursorKind dk = clang_getCursorKind(w->cur.items[d]);
		if ((dk != CXCursor_FunctionTemplate &&
		     dk != CXCursor_ClassTemplate) ||
		    !same_name(w, w->cur.items[d], nm, strlen(nm)))
			continue;
		host = w->decls.items[d].host_only ? 1 : -1;
	}
	if (host == 0 && cut_name(w, nm))
		host = 1; /* a host template cut from a header */
	kt_rewrite_decl d = {.host_only = host > 0};
	d.range.begin.offset = tok_off(k, b);
	d.range.end.offset = tok_off(k, e) + 1;
	d.guarded = in_host_span(w, &d.range);
	if (host <= 0)
		return 0;
	if (kt_vec_push(&w->cur, clang_getNullCursor()))
		return KT_ENOMEM;
	return kt_vec_push(&w->decls, d);
}

static int cmp_decl(const void *a, const void *b)
{
	const kt_rewrite_decl *x = a, *y = b;
	return (x->range.begin.offset > y->range.begin.offset) -
	       (x->range.begin.offset < y->range.begin.offset);
}

static bool on_directive(const char *t, uint32_t off);

/* Whether token j stands on a preprocessor directive's line. */
static bool in_directive(const toks *k, unsigned j)
{
	CXFile f = NULL;
	unsigned off = 0;
	size_t len = k->len;
	clang_getSpellingLocation(clang_getTokenLocation(k->tu->tu, k->t[j]),
	                          &f, NULL, NULL, &off);
	const char *t = k->text;
	if (!f || !clang_File_isEqual(f, k->file))
		t = f ? clang_getFileContents(k->tu->tu, f, &len) : NULL;
	return t && off < len && on_directive(t, off);
}

/* Whether the token before i, comments aside, is one of the `;`, `}`,
 * `{`, `extern` after which a declaration starts, or ends a directive (or
 * there is none). */
static bool decl_starts(const toks *k, unsigned i)
{
	while (i > 0 && clang_getTokenKind(k->t[i - 1]) == CXToken_Comment)
		i--;
	return i == 0 || tok_is(k, i - 1, ";") || tok_is(k, i - 1, "}") ||
	       tok_is(k, i - 1, "{") || tok_is(k, i - 1, "extern") ||
	       (!in_directive(k, i) && in_directive(k, i - 1));
}

/* ---- explicit instantiations ---- */

/* The template an explicit instantiation's tokens [i, n) name: the first
 * name followed by `<` or `(`; "" if none. */
static char *inst_name(const kt_tu *tu, CXToken *t, unsigned i, unsigned n)
{
	for (; i + 1 < n; i++) {
		char *next = kt_fe_token_text(tu, t[i + 1]);
		bool named = next &&
		             (!strcmp(next, "<") || !strcmp(next, "(")) &&
		             clang_getTokenKind(t[i]) == CXToken_Identifier;
		kt_free(next);
		if (named)
			return kt_fe_token_text(tu, t[i]);
	}
	return kt_strdup("");
}

static int cmp_macro(const void *a, const void *b)
{
	return strcmp(((const fe_macro *)a)->name, ((const fe_macro *)b)->name);
}

static enum CXChildVisitResult macro_visit(CXCursor c, CXCursor parent,
                                           CXClientData data)
{
	(void)parent;
	walk *w = data;
	if (clang_getCursorKind(c) != CXCursor_MacroDefinition ||
	    !kt_fe_macro_function_like(c))
		return CXChildVisit_Continue;
	CXString s = clang_getCursorSpelling(c);
	fe_macro m = {kt_strdup(clang_getCString(s)), c};
	clang_disposeString(s);
	if (!m.name || kt_vec_push(&w->macros, m)) {
		kt_free(m.name);
		w->rc = KT_ENOMEM;
	}
	return w->rc ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* The template a function-like macro instantiates when its body is an
 * explicit instantiation (`template` not followed by `<`), or NULL. The
 * TU's macros are read once, sorted by name. */
static char *macro_inst(walk *w, const char *name)
{
	if (!w->macros_read) {
		w->macros_read = true;
		clang_visitChildren(clang_getTranslationUnitCursor(w->tu->tu),
		                    macro_visit, w);
		if (w->macros.len)
			qsort(w->macros.items, w->macros.len,
			      sizeof(*w->macros.items), cmp_macro);
	}
	fe_macro key = {(char *)name, clang_getNullCursor()};
	const fe_macro *m = w->macros.len
	                        ? bsearch(&key, w->macros.items, w->macros.len,
	                                  sizeof(*w->macros.items), cmp_macro)
	                        : NULL;
	if (!m)
		return NULL;
	CXToken *t = NULL;
	unsigned n = 0, i = 0;
	clang_tokenize(w->tu->tu, clang_getCursorExtent(m->c), &t, &n);
	toks body = {.tu = w->tu, .t = t, .n = n};
	while (i < n && !tok_is(&body, i++, ")"))
		; /* NAME ( params ) body */
	char *r =
	    i < n && tok_is(&body, i, "template") && !tok_is(&body, i + 1, "<")
	        ? inst_name(w->tu, t, i + 1, n)
	        : NULL;
	clang_disposeTokens(w->tu->tu, t, n);
	return r;
}

/*
 * The explicit instantiation that starts at token i of k, if one does:
 * `[extern] template ...;` written out, or a call of a function-like macro
 * whose body is one (its `;` in the body or after the call). `fresh`: an
 * instantiation ended just before i, so a declaration starts there. Returns the
 * template's name (kt_free it), [*b, *e] its tokens through the `;`; NULL when
 * there is none.
 */
static char *inst_at(walk *w, const toks *k, unsigned i, bool fresh,
                     unsigned *b, unsigned *e)
{
	if ((!fresh && !decl_starts(k, i)) ||
	    clang_getTokenKind(k->t[i]) == CXToken_Comment)
		return NULL;
	char *name = NULL;
	bool call = false;
	if (tok_is(k, i, "template") && !tok_is(k, i + 1, "<"))
		name = inst_name(w->tu, k->t, i + 1, k->n);
	else if (clang_getTokenKind(k->t[i]) == CXToken_Identifier &&
	         tok_is(k, i + 1, "(")) {
		char *m = kt_fe_token_text(w->tu, k->t[i]);
		name = m ? macro_inst(w, m) : NULL;
		call = name != NULL;
		kt_free(m);
	}
	*b = i > 0 && tok_is(k, i - 1, "extern") ? i - 1 : i;
	if (call) { /* through its `)`, and a `;` after it if there is one */
		int depth = 0;
		for (*e = i + 1; *e < k->n; (*e)++) {
			depth += tok_is(k, *e, "(") - tok_is(k, *e, ")");
			if (depth == 0)
				break;
		}
		if (*e + 1 < k->n && tok_is(k, *e + 1, ";"))
			(*e)++;
	} else {
		for (*e = i; *e < k->n && !tok_is(k, *e, ";"); (*e)++)
			;
	}
	if (name && (!*name || *e >= k->n)) {
		kt_free(name);
		name = NULL;
	}
	return name;
}

/* Adds the explicit instantiations of host templates, in source order. */
static int explicit_insts(walk *w)
{
	toks k = {.tu = w->tu,
	          .file = w->tu->file,
	          .text = w->tu->text,
	          .len = w->tu->len};
	clang_tokenize(w->tu->tu, kt_fe_source_range(w->tu, 0, w->tu->len),
	               &k.t, &k.n);
	int rc = 0;
	size_t before = w->decls.len;
	bool fresh = false;
	for (unsigned i = 0, b, e; i < k.n && !rc; i++) {
		char *name = inst_at(w, &k, i, fresh, &b, &e);
		fresh = name != NULL;
		if (name) {
			rc = explicit_inst(w, &k, name, b, e);
			i = e;
		}
		kt_free(name);
	}
	clang_disposeTokens(w->tu->tu, k.t, k.n);
	if (!rc && w->decls.len > before) /* cursors are not needed after */
		qsort(w->decls.items, w->decls.len, sizeof(*w->decls.items),
		      cmp_decl);
	return rc;
}

static bool in_host_span(const walk *w, const kt_range *r)
{
	for (size_t i = 0; i < w->host.len; i++)
		if (w->host.items[i].begin <= r->begin.offset &&
		    r->end.offset <= w->host.items[i].end)
			return true;
	return false;
}

/* A function template's parameters: libclang gives no arguments of
 * the template cursor, only its ParmDecl children. */
typedef struct parm_list {
	CXCursor at[64];
	int n;
} parm_list;

static enum CXChildVisitResult collect_parm(CXCursor c, CXCursor parent,
                                            CXClientData data)
{
	(void)parent;
	parm_list *l = data;
	if (clang_getCursorKind(c) == CXCursor_ParmDecl && l->n < 64)
		l->at[l->n++] = c;
	return CXChildVisit_Continue;
}

/* A kernel's parameter names, in order (the `arg` lines follow them). */
static int kernel_params(walk *w, CXCursor c, kt_rewrite_decl *d)
{
	parm_list l = {.n = 0};
	int n = clang_Cursor_getNumArguments(c);
	for (int i = 0; i < n && i < 64; i++)
		l.at[l.n++] = clang_Cursor_getArgument(c, (unsigned)i);
	if (n < 0) /* a kernel template */
		clang_visitChildren(c, collect_parm, &l);
	n = l.n;
	if (n <= 0)
		return 0;
	const char **names =
	    kt_arena_alloc(&w->tu->arena, (size_t)n * sizeof(char *));
	if (!names)
		return KT_ENOMEM;
	for (int i = 0; i < n; i++) {
		CXString s = clang_getCursorSpelling(l.at[i]);
		names[i] = kt_arena_strdup(&w->tu->arena, clang_getCString(s));
		clang_disposeString(s);
		if (!names[i])
			return KT_ENOMEM;
	}
	d->params = names;
	d->nparams = (size_t)n;
	return 0;
}

static bool is_type_decl(enum CXCursorKind k);

/* The declaration c, spanning outer's extent (`extern "C" DECL`: the
 * linkage goes under the same guard as the declaration). */
static int add_decl(walk *w, CXCursor c, enum CXCursorKind k, CXCursor outer)
{
	kt_rewrite_decl d = {0};
	if (!kt_fe_range(w->tu, clang_getCursorExtent(outer), &d.range))
		return 0; /* not in the main file */
	/* a type's extent ends at its `}`, an alias's or a using's before
	 * its `;`: the `;` goes with it */
	bool semi = is_type_decl(k) || k == CXCursor_UsingDeclaration ||
	            k == CXCursor_UsingDirective || k == CXCursor_TypedefDecl ||
	            k == CXCursor_TypeAliasDecl;
	uint32_t e = d.range.end.offset;
	while (semi && e < w->tu->len &&
	       (w->tu->text[e] == ' ' || w->tu->text[e] == '\t'))
		e++;
	if (semi && e < w->tu->len && w->tu->text[e] == ';')
		d.range.end.offset = e + 1;
	attrs a = {0};
	/* OpenCL C has no host code: the whole file is the device's */
	d.host_only = host_only(c, k, &a) && !w->tu->opencl;
	d.kernel = a.global;
	d.guarded = in_host_span(w, &d.range);
	if (d.kernel && kernel_params(w, c, &d))
		return KT_ENOMEM;
	if (kt_vec_push(&w->cur, c))
		return KT_ENOMEM;
	return kt_vec_push(&w->decls, d);
}

/* ---- the file's own headers ---- */

/* The own header file f is (w->hdrs), or -1. */
static int header_of(const walk *w, CXFile f)
{
	for (size_t i = 0; f && i < w->hfiles.len; i++)
		if (clang_File_isEqual(w->hfiles.items[i], f))
			return (int)i;
	return -1;
}

/* Where loc is: an own header and the offset in it, or -1. */
static int header_off(const walk *w, CXSourceLocation loc, uint32_t *off)
{
	CXFile f;
	unsigned o;
	clang_getExpansionLocation(loc, &f, NULL, NULL, &o);
	*off = o;
	return header_of(w, f);
}

/* The CUDA toolkit (also through a link to one of its headers, as
 * /usr/local/include may hold), the parse's stand-ins for its headers, or
 * clang's own CUDA wrappers: what declares CUDA's types. */
static bool in_toolkit(const char *path)
{
	const char *root = kt_cuda_root();
	char real[PATH_MAX], rroot[PATH_MAX];
	if (!path)
		return false;
	if (!strncmp(path, root, strlen(root)) ||
	    !strncmp(path, KT_FE_STUB_DIR, strlen(KT_FE_STUB_DIR)) ||
	    strstr(path, "/__clang_cuda_"))
		return true;
	return realpath(path, real) && realpath(root, rroot) &&
	       !strncmp(real, rroot, strlen(rroot));
}

/* A header of the operating system or the compiler. */
static bool os_header(const char *path)
{
	static const char *const dirs[] = {"/usr/include/", "/usr/lib/",
	                                   "/usr/local/include/", "/lib/"};
	char real[PATH_MAX]; /* `/usr/bin/../lib/gcc/...` as libclang says */
	const char *p = realpath(path, real) ? real : path;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!strncmp(p, dirs[i], strlen(dirs[i])))
			return true;
	return false;
}

static bool is_needed(const walk *w, CXFile f)
{
	for (size_t i = 0; f && i < w->needed.len; i++)
		if (clang_File_isEqual(w->needed.items[i], f))
			return true;
	return false;
}

/* Header h is needed only because a needed header is included through it:
 * device code names nothing it declares. */
static bool only_through(const walk *w, int h)
{
	for (size_t i = 0; i < w->through.len; i++)
		if (clang_File_isEqual(w->through.items[i], w->hfiles.items[h]))
			return true;
	return false;
}

/* The own header an include names (added once), or -1: a `"..."` one
 * outside the toolkit and the system headers, or a `<...>` one outside
 * the toolkit and the operating system's folders whose names the file's
 * device code uses (see needed_headers), with contents libclang kept. */
static int own_header(walk *w, CXCursor c, bool angled)
{
	CXFile f = clang_getIncludedFile(c);
	int h = header_of(w, f);
	if (!f || h >= 0 || (angled && !is_needed(w, f)))
		return h;
	size_t len = 0;
	const char *text = clang_getFileContents(w->tu->tu, f, &len);
	CXString n = clang_getFileName(f);
	const char *name = clang_getCString(n);
	bool own = text && name && !in_toolkit(name) &&
	           (angled ? !os_header(name)
	                   : !clang_Location_isInSystemHeader(
	                         clang_getLocationForOffset(w->tu->tu, f, 0)));
	kt_rewrite_header hd = {
	    own ? kt_arena_strdup(&w->tu->arena, name) : NULL, text, len};
	clang_disposeString(n);
	if (!own)
		return -1;
	if (!hd.path || kt_vec_push(&w->hdrs, hd) || kt_vec_push(&w->hfiles, f))
		return w->rc = KT_ENOMEM, -1;
	return (int)w->hfiles.len - 1;
}

/* An include directive of an own header: the line it stands on. */
static int add_header_include(walk *w, CXCursor c, const char *spelled)
{
	uint32_t b, e;
	CXSourceRange r = clang_getCursorExtent(c);
	int h = header_off(w, clang_getRangeStart(r), &b);
	if (h < 0 || header_off(w, clang_getRangeEnd(r), &e) != h || e < b)
		return 0;
	const kt_rewrite_header *hd = &w->hdrs.items[h];
	const char *t = hd->text;
	while (b > 0 && t[b - 1] != '\n')
		b--; /* from the line's start: its `#` */
	kt_rewrite_include inc = {.spelled = spelled, .in = h};
	inc.angled = memchr(t + b, '<', e - b) != NULL;
	inc.range.begin.offset = b;
	inc.range.end.offset = e;
	inc.header = own_header(w, c, inc.angled);
	return w->rc ? w->rc : kt_vec_push(&w->hincs, inc);
}

static int add_include(walk *w, CXCursor c)
{
	kt_rewrite_include inc = {0};
	CXString s = clang_getCursorSpelling(c);
	inc.spelled = kt_arena_strdup(&w->tu->arena, clang_getCString(s));
	clang_disposeString(s);
	if (!inc.spelled)
		return KT_ENOMEM;
	if (!kt_fe_range(w->tu, clang_getCursorExtent(c), &inc.range))
		return add_header_include(w, c, inc.spelled);
	const char *t = w->tu->text + inc.range.begin.offset;
	size_t n = inc.range.end.offset - inc.range.begin.offset;
	inc.angled = memchr(t, '<', n) != NULL; /* `#include <...>` */
	inc.guarded = in_host_span(w, &inc.range);
	inc.in = -1;
	inc.header = own_header(w, c, inc.angled);
	return w->rc ? w->rc : kt_vec_push(&w->incs, inc);
}

/* ---- loops and subscripts, for the vectorize refactor ---- */

typedef struct kids {
	CXCursor c[6];
	int n;
} kids;

static enum CXChildVisitResult kid_visit(CXCursor c, CXCursor parent,
                                         CXClientData data)
{
	kids *k = data;
	if (k->n < 6)
		k->c[k->n] = c;
	k->n++;
	return CXChildVisit_Continue;
}

static kids children(CXCursor c)
{
	kids k = {.n = 0};
	clang_visitChildren(c, kid_visit, &k);
	return k;
}

/* Skips the implicit casts and parentheses around an expression. */
static CXCursor strip(CXCursor c)
{
	for (;;) {
		enum CXCursorKind k = clang_getCursorKind(c);
		kids ch = children(c);
		if ((k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr) ||
		    ch.n != 1)
			return c;
		c = ch.c[0];
	}
}

static char *spelling(walk *w, CXCursor c)
{
	CXString s = clang_getCursorSpelling(c);
	char *r = kt_arena_strdup(&w->tu->arena, clang_getCString(s));
	clang_disposeString(s);
	return r;
}

static bool refers_to(walk *w, CXCursor c, const char *var)
{
	c = strip(c);
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return false;
	char *name = spelling(w, c);
	return name && !strcmp(name, var);
}

/* The init of `TYPE VAR = START`: the variable and its initializer. */
static bool loop_init(walk *w, CXCursor init, kt_rewrite_loop *l)
{
	kids d = children(init);
	if (clang_getCursorKind(init) != CXCursor_DeclStmt || d.n != 1 ||
	    clang_getCursorKind(d.c[0]) != CXCursor_VarDecl)
		return false;
	kids v = children(d.c[0]);
	if (v.n < 1 || v.n > 6)
		return false;
	CXString ts = clang_getTypeSpelling(clang_getCursorType(d.c[0]));
	l->var_type = kt_arena_strdup(&w->tu->arena, clang_getCString(ts));
	clang_disposeString(ts);
	l->var = spelling(w, d.c[0]);
	return l->var && l->var_type &&
	       kt_fe_range(w->tu, clang_getCursorExtent(v.c[v.n - 1]),
	                   &l->start);
}

static int add_loop(walk *w, CXCursor c)
{
	kids k = children(c);
	kt_rewrite_loop l = {0};
	if (k.n != 4 || !loop_init(w, k.c[0], &l) ||
	    !kt_fe_range(w->tu, clang_getCursorExtent(c), &l.stmt) ||
	    !kt_fe_range(w->tu, clang_getCursorExtent(k.c[3]), &l.body))
		return 0;
	kids cond = children(k.c[1]), inc = children(k.c[2]);
	if (clang_getCursorKind(k.c[1]) != CXCursor_BinaryOperator ||
	    clang_getCursorBinaryOperatorKind(k.c[1]) != CXBinaryOperator_LT ||
	    cond.n != 2 || !refers_to(w, cond.c[0], l.var) ||
	    clang_getCursorKind(k.c[2]) != CXCursor_CompoundAssignOperator ||
	    clang_getCursorBinaryOperatorKind(k.c[2]) !=
	        CXBinaryOperator_AddAssign ||
	    inc.n != 2 || !refers_to(w, inc.c[0], l.var) ||
	    !kt_fe_range(w->tu, clang_getCursorExtent(cond.c[1]), &l.bound) ||
	    !kt_fe_range(w->tu, clang_getCursorExtent(inc.c[1]), &l.step))
		return 0;
	return kt_vec_push(&w->loops, l);
}

static int add_subscript(walk *w, CXCursor c)
{
	kids k = children(c);
	kt_rewrite_subscript s = {0};
	if (k.n != 2 || !kt_fe_range(w->tu, clang_getCursorExtent(c), &s.range))
		return 0;
	CXCursor base = strip(k.c[0]);
	if (clang_getCursorKind(base) != CXCursor_DeclRefExpr)
		return 0;
	s.base = spelling(w, base);
	return s.base ? kt_vec_push(&w->subs, s) : KT_ENOMEM;
}

/* Spelled where it stands: its operator is the one character between
 * its operands, so no macro made it. */
static int add_division(walk *w, CXCursor c)
{
	enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
	if (op != CXBinaryOperator_Div && op != CXBinaryOperator_Rem)
		return 0;
	enum CXTypeKind t = clang_getCanonicalType(clang_getCursorType(c)).kind;
	kids k = children(c);
	kt_rewrite_division d = {.op = op == CXBinaryOperator_Div ? '/' : '%',
	                         .is_unsigned = t == CXType_UInt};
	if ((t != CXType_Int && t != CXType_UInt) || k.n != 2 ||
	    !kt_fe_range(w->tu, clang_getCursorExtent(c), &d.range) ||
	    !kt_fe_range(w->tu, clang_getCursorExtent(k.c[0]), &d.lhs) ||
	    !kt_fe_range(w->tu, clang_getCursorExtent(k.c[1]), &d.rhs) ||
	    d.lhs.begin.offset != d.range.begin.offset ||
	    d.rhs.end.offset != d.range.end.offset ||
	    d.lhs.end.offset > d.rhs.begin.offset)
		return 0;
	const char *s = w->tu->text;
	size_t ops = 0;
	for (size_t i = d.lhs.end.offset; i < d.rhs.begin.offset; i++)
		if (s[i] == d.op)
			ops++;
		else if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n')
			return 0;
	return ops == 1 ? kt_vec_push(&w->divs, d) : 0;
}

static enum CXChildVisitResult body_visit(CXCursor c, CXCursor parent,
                                          CXClientData data)
{
	walk *w = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_ForStmt)
		w->rc = add_loop(w, c);
	else if (k == CXCursor_ArraySubscriptExpr)
		w->rc = add_subscript(w, c);
	else if (k == CXCursor_BinaryOperator)
		w->rc = add_division(w, c);
	return w->rc ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* ---- linkage, host types, explicit instantiations ---- */

static enum CXChildVisitResult first_visit(CXCursor c, CXCursor parent,
                                           CXClientData data)
{
	(void)parent;
	*(CXCursor *)data = c;
	return CXChildVisit_Break;
}

/* `extern "C" DECL` without braces: one declaration, whose guard must
 * take the linkage with it (a guard between the two is a syntax error). */
static bool unbraced(walk *w, CXCursor c, CXCursor *one)
{
	kt_range r;
	if (!kt_fe_range(w->tu, clang_getCursorExtent(c), &r))
		return false;
	clang_visitChildren(c, first_visit, one);
	kt_range in;
	if (clang_Cursor_isNull(*one) ||
	    !kt_fe_range(w->tu, clang_getCursorExtent(*one), &in) ||
	    in.begin.offset < r.begin.offset)
		return false;
	return !memchr(w->tu->text + r.begin.offset, '{',
	               in.begin.offset - r.begin.offset);
}

static bool is_type_decl(enum CXCursorKind k)
{
	return k == CXCursor_StructDecl || k == CXCursor_ClassDecl ||
	       k == CXCursor_UnionDecl || k == CXCursor_ClassTemplate ||
	       k == CXCursor_ClassTemplatePartialSpecialization;
}

/* A declaration NVRTC needs only where NVRTC-visible code names it: a
 * type, or a variable of class type (a registrar object). */
static bool by_use(CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	return is_type_decl(k) ||
	       (k == CXCursor_VarDecl &&
	        clang_getCanonicalType(clang_getCursorType(c)).kind ==
	            CXType_Record);
}

static bool is_used(const walk *w, CXCursor c)
{
	c = clang_getCanonicalCursor(c);
	for (size_t i = 0; i < w->used.len; i++)
		if (clang_equalCursors(w->used.items[i], c))
			return true;
	return false;
}

static enum CXChildVisitResult use_visit(CXCursor c, CXCursor parent,
                                         CXClientData data)
{
	(void)parent;
	walk *w = data;
	CXCursor r = clang_getCursorReferenced(c);
	if (!clang_Cursor_isNull(r) && !clang_equalCursors(r, c) &&
	    !is_used(w, r) &&
	    kt_vec_push(&w->used, clang_getCanonicalCursor(r)))
		w->rc = KT_ENOMEM;
	CXCursor t = clang_getTypeDeclaration(clang_getCursorType(c));
	if (!w->rc && !clang_Cursor_isNull(t) &&
	    clang_getCursorKind(t) != CXCursor_NoDeclFound && !is_used(w, t) &&
	    kt_vec_push(&w->used, clang_getCanonicalCursor(t)))
		w->rc = KT_ENOMEM;
	return w->rc ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* A declaration outside the file, its own headers and the toolkit. */
static bool foreign(const walk *w, CXCursor t)
{
	CXSourceLocation loc = clang_getCursorLocation(t);
	CXFile f = NULL;
	clang_getSpellingLocation(loc, &f, NULL, NULL, NULL);
	if (!f || clang_Location_isFromMainFile(loc) || header_of(w, f) >= 0)
		return false;
	CXString n = clang_getFileName(f);
	const char *name = clang_getCString(n);
	bool r = name && !in_toolkit(name);
	clang_disposeString(n);
	return r;
}

/* The type t points or refers to, through any number of pointers,
 * references and arrays (canonical). */
static CXType pointee(CXType t)
{
	t = clang_getCanonicalType(t);
	for (;;) {
		if (t.kind == CXType_Pointer ||
		    t.kind == CXType_LValueReference ||
		    t.kind == CXType_RValueReference)
			t = clang_getPointeeType(t);
		else if (t.kind == CXType_ConstantArray ||
		         t.kind == CXType_IncompleteArray)
			t = clang_getArrayElementType(t);
		else
			return t;
		t = clang_getCanonicalType(t);
	}
}

static bool foreign_type(const walk *w, CXType t)
{
	CXCursor d = clang_getTypeDeclaration(pointee(t));
	return !clang_Cursor_isNull(d) &&
	       clang_getCursorKind(d) != CXCursor_NoDeclFound && foreign(w, d);
}

typedef struct probe {
	const walk *w;
	bool host;    /* out: the type shows host code */
	bool foreign; /* out: through a member of a type from elsewhere */
	bool all;     /* look on after a host method, for `foreign` */
} probe;

/* What a host type shows: a method that is not device code (a host
 * constructor, a member function), or a field, base or static member
 * whose type is declared outside the file, its own headers and the
 * toolkit. */
static bool names_cut(const walk *w, CXType t);

static enum CXChildVisitResult host_member_visit(CXCursor c, CXCursor parent,
                                                 CXClientData data)
{
	(void)parent;
	probe *p = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	attrs a = {0};
	if (is_function(k))
		p->host |=
		    host_only(c, k, &a) && !clang_CXXMethod_isDefaulted(c);
	else if (k == CXCursor_FieldDecl || k == CXCursor_CXXBaseSpecifier ||
	         k == CXCursor_VarDecl)
		p->foreign |= foreign_type(p->w, clang_getCursorType(c)) ||
		              names_cut(p->w, clang_getCursorType(c));
	p->host |= p->foreign;
	return p->foreign || (p->host && !p->all) ? CXChildVisit_Break
	                                          : CXChildVisit_Continue;
}

static bool foreign_args(const walk *w, CXCursor c, enum CXCursorKind k);

/* `using std::string;`: a using-declaration whose every name is declared
 * elsewhere (a host library NVRTC lacks) and named by no NVRTC-visible
 * code. */
static bool foreign_using(const walk *w, CXCursor c)
{
	CXCursor r = clang_getCursorReferenced(c);
	unsigned n = clang_getNumOverloadedDecls(r);
	for (unsigned i = 0; i < n; i++) {
		CXCursor d = clang_getOverloadedDecl(r, i);
		if (clang_getCursorKind(d) == CXCursor_UsingDeclaration)
			d = clang_getCursorReferenced(d);
		if (!foreign(w, d) || is_used(w, d))
			return false;
	}
	return n > 0;
}

/*
 * Host types: a class, struct, union or class template of the file that
 * no NVRTC-visible declaration names (kernels, device functions, kept
 * variables and types, to a fixed point) and that shows host code (above)
 * is guarded like a host function; so is a variable of class type that
 * nothing NVRTC sees names.
 */
static int host_types(walk *w)
{
	/* 0: not seen by NVRTC (yet), 1: seen, 2: seen, its names taken */
	unsigned char *vis = kt_calloc(w->decls.len + 1, 1);
	if (!vis)
		return KT_ENOMEM;
	for (size_t i = 0; i < w->decls.len; i++)
		vis[i] = !w->decls.items[i].host_only &&
		         !w->decls.items[i].guarded && !by_use(w->cur.items[i]);
	for (bool more = true; more && !w->rc;) {
		more = false;
		for (size_t i = 0; i < w->decls.len && !w->rc; i++) {
			CXCursor c = w->cur.items[i];
			if (!vis[i] && by_use(c) &&
			    !w->decls.items[i].guarded && is_used(w, c))
				vis[i] = more = true;
			if (vis[i] == 1 && !w->rc) {
				clang_visitChildren(c, use_visit, w);
				use_visit(c, c, w);
				vis[i] = 2; /* its names are in */
			}
		}
	}
	for (size_t i = 0; i < w->decls.len && !w->rc; i++) {
		CXCursor c = w->cur.items[i];
		probe p = {.w = w};
		if (foreign_args(w, c, clang_getCursorKind(c)) ||
		    (clang_getCursorKind(c) == CXCursor_UsingDeclaration &&
		     foreign_using(w, c))) {
			w->decls.items[i].host_only = true;
			continue;
		}
		if (vis[i] || !by_use(c))
			continue;
		if (clang_getCursorKind(c) == CXCursor_VarDecl)
			p.host =
			    true; /* unused by device code: safe either way */
		else
			clang_visitChildren(c, host_member_visit, &p);
		w->decls.items[i].host_only |= p.host;
	}
	kt_free(vis);
	return w->rc;
}

static enum CXChildVisitResult top_visit(CXCursor c, CXCursor parent,
                                         CXClientData data)
{
	walk *w = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor one = clang_getNullCursor();
	if (k == CXCursor_LinkageSpec && unbraced(w, c, &one)) {
		k = clang_getCursorKind(one);
		w->rc = add_decl(w, one, k, c);
		if (!w->rc && is_function(k) && clang_isCursorDefinition(one))
			clang_visitChildren(one, body_visit, w);
		return w->rc ? CXChildVisit_Break : CXChildVisit_Continue;
	}
	if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec) {
		clang_visitChildren(c, top_visit, w);
		return CXChildVisit_Continue;
	}
	if (k == CXCursor_InclusionDirective)
		w->rc = add_include(w, c);
	else if (clang_isDeclaration(k))
		w->rc = add_decl(w, c, k, c);
	if (!w->rc && is_function(k) && clang_isCursorDefinition(c))
		clang_visitChildren(c, body_visit, w);
	return w->rc ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* A header's declaration NVRTC cannot compile: host functions and
 * variables, a type that shows host code and that the file's NVRTC-visible
 * code does not name, an alias of or variable of a type from elsewhere. */
/* Whether declaration d is a type cut from a header or inside one. */
static bool in_cut(const walk *w, CXCursor d)
{
	for (; !clang_Cursor_isNull(d) &&
	       !clang_isTranslationUnit(clang_getCursorKind(d));
	     d = clang_getCursorSemanticParent(d)) {
		CXCursor t = clang_getSpecializedCursorTemplate(d);
		CXCursor c = clang_getCanonicalCursor(d);
		for (size_t i = 0; i < w->hcutd.len; i++)
			if (clang_equalCursors(c, w->hcutd.items[i]) ||
			    (!clang_Cursor_isNull(t) &&
			     clang_equalCursors(clang_getCanonicalCursor(t),
			                        w->hcutd.items[i])))
				return true;
	}
	return false;
}

/* Whether type t (through pointers and references) names a type cut
 * from a header: an alias or variable of it must go with it
 * (`using UserWarning = Warning::UserWarning;`). */
static bool names_cut(const walk *w, CXType t)
{
	if (!w->hcutd.len)
		return false;
	/* through its aliases first (a field of `ShareableHandle`, an alias
	 * cut from a header, whose canonical type is int) */
	for (int i = 0; i < 16; i++) {
		if (t.kind == CXType_Pointer ||
		    t.kind == CXType_LValueReference ||
		    t.kind == CXType_RValueReference) {
			t = clang_getPointeeType(t);
			continue;
		}
		if (t.kind == CXType_Elaborated) {
			t = clang_Type_getNamedType(t);
			continue;
		}
		CXCursor a = clang_getTypeDeclaration(t);
		enum CXCursorKind k = clang_getCursorKind(a);
		if (k != CXCursor_TypedefDecl && k != CXCursor_TypeAliasDecl)
			break;
		if (in_cut(w, a))
			return true;
		t = clang_getTypedefDeclUnderlyingType(a);
	}
	t = pointee(t);
	CXCursor d = clang_getTypeDeclaration(t);
	if (clang_getCursorKind(d) != CXCursor_NoDeclFound && in_cut(w, d))
		return true;
	/* or through a template argument (`BaseRef<SymbolicSize>`) */
	int n = clang_Type_getNumTemplateArguments(t);
	for (int i = 0; i < n && i < 16; i++) {
		CXType u = clang_Type_getTemplateArgumentAsType(t, (unsigned)i);
		if (u.kind != CXType_Invalid && names_cut(w, u))
			return true;
	}
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether NVRTC-visible code names something spelled like c (a
 * variable template's use names its specialisation, not the template).
 * The names are read once, when `used` is complete (after host_types). */
static bool used_by_name(walk *w, CXCursor c)
{
	if (is_used(w, c))
		return true;
	if (!w->used_names_read) {
		w->used_names_read = true;
		for (size_t i = 0; i < w->used.len && !w->rc; i++) {
			CXString u = clang_getCursorSpelling(w->used.items[i]);
			char *d = kt_strdup(clang_getCString(u));
			clang_disposeString(u);
			if (!d || kt_vec_push(&w->used_names, d)) {
				kt_free(d);
				w->rc = KT_ENOMEM;
			}
		}
		if (w->used_names.len)
			qsort(w->used_names.items, w->used_names.len,
			      sizeof(char *), cmp_str);
	}
	CXString n = clang_getCursorSpelling(c);
	const char *name = clang_getCString(n);
	bool r = name && *name && w->used_names.len &&
	         bsearch(&name, w->used_names.items, w->used_names.len,
	                 sizeof(char *), cmp_str);
	clang_disposeString(n);
	return r;
}

/* A class template's specialisation over a type from elsewhere
 * (`template <> struct PackedTypeConverter<c10::Half>` in vLLM's
 * cuda_vec_utils.cuh): NVRTC cannot compile it, whoever names it. */
static bool foreign_args(const walk *w, CXCursor c, enum CXCursorKind k)
{
	if (!is_type_decl(k) ||
	    clang_Cursor_isNull(clang_getSpecializedCursorTemplate(c)))
		return false;
	CXType t = clang_getCursorType(c);
	int n = clang_Type_getNumTemplateArguments(t);
	for (int i = 0; i < n && i < 16; i++) {
		CXType u = clang_Type_getTemplateArgumentAsType(t, (unsigned)i);
		if (u.kind != CXType_Invalid &&
		    (foreign_type(w, u) || names_cut(w, u)))
			return true;
	}
	return false;
}

/* An alias of the C and C++ libraries that NVRTC has as well (through
 * cuda/std, see the generator): the fixed-width integers, size_t. */
static bool rtc_type(CXCursor alias)
{
	static const char *const names[] = {
	    "size_t",   "ptrdiff_t", "intptr_t",  "uintptr_t",
	    "intmax_t", "uintmax_t", "nullptr_t", "max_align_t"};
	CXString n = clang_getCursorSpelling(alias);
	const char *s = clang_getCString(n);
	bool r = false;
	if (s) {
		const char *t = s[0] == 'u' ? s + 1 : s;
		r = !strncmp(t, "int", 3) && strlen(t) > 5 &&
		    !strcmp(t + strlen(t) - 2, "_t");
		for (size_t i = 0; !r && i < sizeof(names) / sizeof(*names);
		     i++)
			r = !strcmp(s, names[i]);
	}
	clang_disposeString(n);
	return r;
}

static bool host_in_header(walk *w, CXCursor c, enum CXCursorKind k)
{
	attrs a = {0};
	probe p = {.w = w};
	if (host_only(c, k, &a) || foreign_args(w, c, k))
		return true;
	/* a device variable too (`C10_HOST_DEVICE constexpr auto
	 * FP8_E4M3_MAX = std::numeric_limits<FP8_TYPE>::max();` over c10's
	 * type) where no NVRTC-visible code of the file names it */
	if (k == CXCursor_VarDecl)
		return (foreign_type(w, clang_getCursorType(c)) ||
		        names_cut(w, clang_getCursorType(c))) &&
		       (!a.space || !is_used(w, c));
	/* what libclang leaves unexposed (a variable template, whose
	 * initialiser it does not show: `kDTypeList = std::array<DLDataType,
	 * N>{...}` over dlpack's type): kept only where device code names it */
	if (k == CXCursor_UnexposedDecl)
		return !used_by_name(w, c);
	if (k == CXCursor_TypedefDecl || k == CXCursor_TypeAliasDecl) {
		CXType u = clang_getTypedefDeclUnderlyingType(c);
		CXCursor r =
		    clang_getTypeDeclaration(clang_getCanonicalType(u));
		if (foreign_type(w, u) || names_cut(w, u))
			return true;
		/* an alias of another from elsewhere that NVRTC lacks
		 * (`typedef pid_t Process;`: sys/types.h), which NVRTC-
		 * visible code does not name */
		CXCursor s = clang_getTypeDeclaration(u);
		if (clang_getCursorKind(s) == CXCursor_TypedefDecl &&
		    foreign(w, s) && !rtc_type(s) && !is_used(w, c))
			return true;
		if (clang_Cursor_isNull(r) || !clang_Cursor_isAnonymous(r) ||
		    is_used(w, c))
			return false;
		clang_visitChildren(r, host_member_visit, &p);
		return p.host; /* `typedef struct {...} T;` as the struct */
	}
	if (!is_type_decl(k) || is_used(w, c) || clang_Cursor_isAnonymous(c))
		return false; /* `typedef struct {...} T;`: the typedef says */
	clang_visitChildren(c, host_member_visit, &p);
	return p.host;
}

/* Whether the line holding off is a preprocessor directive. */
static bool on_directive(const char *t, uint32_t off)
{
	for (;;) { /* back to the logical line's start, over `\` newlines */
		while (off > 0 && t[off - 1] != '\n')
			off--;
		uint32_t end = off >= 2 ? off - 2 : 0;
		if (off >= 2 && t[end] == '\r' && end > 0)
			end--;
		if (off < 2 || t[end] != '\\')
			break;
		off = end;
	}
	while (t[off] == ' ' || t[off] == '\t')
		off++;
	return t[off] == '#';
}

/*
 * Where a header's declaration begins, from the start of its extent b:
 * libclang leaves out what stands before its specifiers (`[[noreturn]]`,
 * `API_MACRO(...)`), so take the tokens back to the last `;`, brace,
 * comment or directive.
 */
static uint32_t header_decl_begin(walk *w, int h, uint32_t b, bool member)
{
	const char *t = w->hdrs.items[h].text;
	CXFile f = w->hfiles.items[h];
	uint32_t lo = b > 1024 ? b - 1024 : 0;
	/* lex from a line's start outside a block comment: lexed from its
	 * middle, a comment's words are tokens, and a `;` in them would put
	 * the begin inside the comment, cutting its end */
	while (lo > 0 && lo < b && t[lo - 1] != '\n')
		lo++;
	for (uint32_t i = lo; i + 1 < b; i++) {
		if (t[i] == '/' && t[i + 1] == '*')
			break; /* a comment opens first: lo is outside */
		if (t[i] == '*' && t[i + 1] == '/') {
			lo = i + 2;
			break;
		}
	}
	CXSourceRange r =
	    clang_getRange(clang_getLocationForOffset(w->tu->tu, f, lo),
	                   clang_getLocationForOffset(w->tu->tu, f, b));
	CXToken *k = NULL;
	unsigned n = 0;
	clang_tokenize(w->tu->tu, r, &k, &n);
	uint32_t begin = b;
	for (unsigned i = n; i-- > 1;) { /* token 0 may start before lo */
		unsigned off;
		clang_getFileLocation(clang_getTokenLocation(w->tu->tu, k[i]),
		                      NULL, NULL, NULL, &off);
		if (off >= b)
			continue;
		CXString x = clang_getTokenSpelling(w->tu->tu, k[i]);
		const char *sp = clang_getCString(x);
		bool stop = clang_getTokenKind(k[i]) == CXToken_Comment ||
		            !strcmp(sp, ";") || !strcmp(sp, "{") ||
		            !strcmp(sp, "}") || on_directive(t, off) ||
		            (member && !strcmp(sp, ":")); /* `public:` */
		clang_disposeString(x);
		if (stop)
			break;
		begin = off;
	}
	clang_disposeTokens(w->tu->tu, k, n);
	return begin;
}

/* Whether a function's specifiers (its tokens before its name) hold
 * `constexpr`: libclang has no query for it. */
static bool is_constexpr(const walk *w, CXCursor c)
{
	CXToken *t = NULL;
	unsigned n = 0;
	clang_tokenize(w->tu->tu, clang_getCursorExtent(c), &t, &n);
	CXString name = clang_getCursorSpelling(c);
	bool r = false;
	for (unsigned i = 0; i < n && !r; i++) {
		CXString x = clang_getTokenSpelling(w->tu->tu, t[i]);
		const char *sp = clang_getCString(x);
		bool stop = !strcmp(sp, clang_getCString(name)) ||
		            !strcmp(sp, "(") || !strcmp(sp, "{");
		r = !strcmp(sp, "constexpr");
		clang_disposeString(x);
		if (stop)
			break;
	}
	clang_disposeString(name);
	clang_disposeTokens(w->tu->tu, t, n);
	return r;
}

typedef struct members {
	walk *w;
	int h;
} members;

typedef struct names {
	const walk *w;
	bool foreign; /* out */
} names;

static enum CXChildVisitResult foreign_name_visit(CXCursor c, CXCursor parent,
                                                  CXClientData data)
{
	(void)parent;
	names *n = data;
	CXCursor r = clang_getCursorReferenced(c);
	n->foreign = !clang_Cursor_isNull(r) && !clang_equalCursors(r, c) &&
	             clang_getCursorKind(r) != CXCursor_Namespace &&
	             foreign(n->w, r);
	return n->foreign ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether c names a declaration from outside the file, its own headers
 * and the toolkit (a `static_assert` over torch's float8 types). */
static bool names_foreign(const walk *w, CXCursor c)
{
	names n = {w, false};
	clang_visitChildren(c, foreign_name_visit, &n);
	return n.foreign;
}

static int add_hdecl(walk *w, int h, uint32_t b, uint32_t e, bool member);

/*
 * The host member functions of a header type NVRTC keeps: explicitly
 * `__host__` ones, and unannotated ones that are not constexpr (device
 * code cannot call either; an unannotated constexpr one is a device
 * function to NVRTC's -default-device, as nvcc's
 * --expt-relaxed-constexpr lets device code call it), and static
 * assertions over names from elsewhere (they change no code). Nested
 * types the same way.
 */
static enum CXChildVisitResult method_visit(CXCursor c, CXCursor parent,
                                            CXClientData data)
{
	(void)parent;
	members *m = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	attrs a = {0};
	uint32_t b, e;
	CXSourceRange r = clang_getCursorExtent(c);
	if (is_type_decl(k))
		clang_visitChildren(c, method_visit, m);
	else if (k == CXCursor_StaticAssert && names_foreign(m->w, c) &&
	         header_off(m->w, clang_getRangeStart(r), &b) == m->h &&
	         header_off(m->w, clang_getRangeEnd(r), &e) == m->h && e >= b)
		m->w->rc = add_hdecl(m->w, m->h, b, e, true);
	else if (k != CXCursor_FunctionDecl && is_function(k) &&
	         host_only(c, k, &a) && !clang_CXXMethod_isDefaulted(c) &&
	         (a.host || !is_constexpr(m->w, c)) &&
	         header_off(m->w, clang_getRangeStart(r), &b) == m->h &&
	         header_off(m->w, clang_getRangeEnd(r), &e) == m->h && e >= b)
		m->w->rc = add_hdecl(m->w, m->h, b, e, true);
	return m->w->rc ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Cuts c, a declaration [b, e) of header h, and remembers what it names
 * (a type, an alias, a template) for what names it in turn. */
static int cut_decl(walk *w, CXCursor c, enum CXCursorKind k, int h, uint32_t b,
                    uint32_t e)
{
	if ((is_type_decl(k) || k == CXCursor_TypedefDecl ||
	     k == CXCursor_TypeAliasDecl) &&
	    kt_vec_push(&w->hcutd, clang_getCanonicalCursor(c)))
		return KT_ENOMEM;
	if (k == CXCursor_FunctionTemplate || k == CXCursor_ClassTemplate) {
		CXString n = clang_getCursorSpelling(c);
		char *name = kt_strdup(clang_getCString(n));
		clang_disposeString(n);
		if (!name || kt_vec_push(&w->hcut, name)) {
			kt_free(name);
			return KT_ENOMEM;
		}
	}
	return add_hdecl(w, h, b, e, false);
}

static int add_header_decl(walk *w, CXCursor c, enum CXCursorKind k,
                           CXCursor outer)
{
	uint32_t b, e;
	CXSourceRange r = clang_getCursorExtent(outer);
	int h = header_off(w, clang_getRangeStart(r), &b);
	if (h < 0 || header_off(w, clang_getRangeEnd(r), &e) != h || e < b)
		return 0;
	if (only_through(w, h))
		return cut_decl(w, c, k, h, b, e);
	/* a type whose only host code is member functions stays, without
	 * them: header functions NVRTC keeps may use it */
	members m = {w, h};
	probe p = {.w = w, .all = true};
	if (is_type_decl(k) && !clang_Cursor_isAnonymous(c))
		clang_visitChildren(c, host_member_visit, &p);
	p.foreign |= foreign_args(w, c, k);
	if (is_type_decl(k) && !clang_Cursor_isAnonymous(c) && !p.foreign) {
		clang_visitChildren(c, method_visit, &m);
		return w->rc;
	}
	if (!host_in_header(w, c, k))
		return 0;
	return cut_decl(w, c, k, h, b, e);
}

/* Lists [b, e) of header h, a host-only declaration, for the generator to
 * leave out (with the `;` after it and what stands before its extent). */
static int add_hdecl(walk *w, int h, uint32_t b, uint32_t e, bool member)
{
	const char *t = w->hdrs.items[h].text;
	size_t len = w->hdrs.items[h].len;
	uint32_t semi = e; /* an extent ends before its `;`: take it */
	while (semi < len && (t[semi] == ' ' || t[semi] == '\t'))
		semi++;
	if (semi < len && t[semi] == ';')
		e = semi + 1;
	kt_rewrite_decl d = {.host_only = true, .in = h};
	d.range.begin.offset = header_decl_begin(w, h, b, member);
	d.range.end.offset = e;
	return kt_vec_push(&w->hdecls, d);
}

/* `extern "C" DECL` in a header: no `{` between the two. */
static bool header_unbraced(walk *w, CXCursor c, CXCursor *one)
{
	uint32_t b, in;
	clang_visitChildren(c, first_visit, one);
	int h =
	    header_off(w, clang_getRangeStart(clang_getCursorExtent(c)), &b);
	return h >= 0 && !clang_Cursor_isNull(*one) &&
	       header_off(w, clang_getRangeStart(clang_getCursorExtent(*one)),
	                  &in) == h &&
	       in >= b && !memchr(w->hdrs.items[h].text + b, '{', in - b);
}

/* A declaration in a header needed only as an includer (only_through):
 * it is left out whole, a namespace with all it holds. */
static bool through_decl(walk *w, CXCursor c)
{
	uint32_t b;
	int h =
	    header_off(w, clang_getRangeStart(clang_getCursorExtent(c)), &b);
	return h >= 0 && only_through(w, h);
}

static enum CXChildVisitResult header_visit(CXCursor c, CXCursor parent,
                                            CXClientData data)
{
	(void)parent;
	walk *w = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor one = clang_getNullCursor();
	if (k == CXCursor_LinkageSpec && header_unbraced(w, c, &one))
		w->rc = add_header_decl(w, one, clang_getCursorKind(one), c);
	else if ((k == CXCursor_Namespace || k == CXCursor_LinkageSpec) &&
	         !through_decl(w, c))
		clang_visitChildren(c, header_visit, w);
	else if (clang_isDeclaration(k))
		w->rc = add_header_decl(w, c, k, c);
	return w->rc ? CXChildVisit_Break : CXChildVisit_Continue;
}

static int cmp_in(const void *a, const void *b)
{
	const kt_rewrite_decl *x = a, *y = b;
	if (x->in != y->in)
		return x->in < y->in ? -1 : 1;
	return x->range.begin.offset < y->range.begin.offset   ? -1
	       : x->range.begin.offset > y->range.begin.offset ? 1
	                                                       : 0;
}

static int cmp_inc_in(const void *a, const void *b)
{
	const kt_rewrite_include *x = a, *y = b;
	if (x->in != y->in)
		return x->in < y->in ? -1 : 1;
	return x->range.begin.offset < y->range.begin.offset   ? -1
	       : x->range.begin.offset > y->range.begin.offset ? 1
	                                                       : 0;
}

static bool cut_name(const walk *w, const char *name)
{
	for (size_t i = 0; i < w->hcut.len; i++)
		if (!strcmp(w->hcut.items[i], name))
			return true;
	return false;
}

/*
 * In header h, the explicit instantiations (`[extern] template ...;`,
 * written out or through a function-like macro whose body is one) of a
 * host template cut from a header: libclang shows none of them, and NVRTC
 * would meet a name it no longer sees.
 */
static int header_insts(walk *w, int h)
{
	kt_rewrite_header *hd = &w->hdrs.items[h];
	CXFile f = w->hfiles.items[h];
	CXSourceRange r = clang_getRange(
	    clang_getLocationForOffset(w->tu->tu, f, 0),
	    clang_getLocationForOffset(w->tu->tu, f, (unsigned)hd->len));
	toks k = {.tu = w->tu, .file = f};
	k.text = clang_getFileContents(w->tu->tu, f, &k.len);
	clang_tokenize(w->tu->tu, r, &k.t, &k.n);
	int rc = 0;
	bool fresh = false;
	for (unsigned i = 0, b, e; i < k.n && !rc; i++) {
		char *name = inst_at(w, &k, i, fresh, &b, &e);
		bool found = name != NULL, cut = found && cut_name(w, name);
		fresh = found;
		kt_free(name);
		uint32_t bo, eo;
		if (cut &&
		    header_off(w, clang_getTokenLocation(w->tu->tu, k.t[b]),
		               &bo) == h &&
		    header_off(w, clang_getTokenLocation(w->tu->tu, k.t[e]),
		               &eo) == h) {
			kt_rewrite_decl d = {.host_only = true, .in = h};
			d.range.begin.offset = bo;
			d.range.end.offset = eo + 1;
			rc = kt_vec_push(&w->hdecls, d);
		}
		if (found)
			i = e;
	}
	clang_disposeTokens(w->tu->tu, k.t, k.n);
	return rc;
}

static int header_decls(walk *w)
{
	if (!w->hdrs.len)
		return 0;
	clang_visitChildren(clang_getTranslationUnitCursor(w->tu->tu),
	                    header_visit, w);
	for (size_t h = 0; h < w->hdrs.len && !w->rc && w->hcut.len; h++)
		w->rc = header_insts(w, (int)h);
	if (w->hdecls.len)
		qsort(w->hdecls.items, w->hdecls.len, sizeof(*w->hdecls.items),
		      cmp_in);
	if (w->hincs.len)
		qsort(w->hincs.items, w->hincs.len, sizeof(*w->hincs.items),
		      cmp_inc_in);
	return w->rc;
}

/* ---- `<...>` headers device code needs ---- */

static int need_file(walk *w, CXFile f)
{
	if (!f || is_needed(w, f))
		return 0;
	CXString n = clang_getFileName(f);
	const char *name = clang_getCString(n);
	bool skip = !name || in_toolkit(name) || os_header(name);
	clang_disposeString(n);
	return skip ? 0 : kt_vec_push(&w->needed, f);
}

/* Notes the system C header f, which declares a type or macro device code
 * takes (functions NVRTC has built in). */
static void need_std(walk *w, CXFile f)
{
	CXString n = clang_getFileName(f);
	const char *name = clang_getCString(n);
	const char *base = name ? strrchr(name, '/') : NULL;
	base = base ? base + 1 : name;
	for (unsigned k = 0; base && os_header(name) && k < NSTD; k++) {
		const char *key = std_keys[k][0];
		size_t kl = strlen(key), nl = strlen(name);
		if (key[0] == '/' ? nl >= kl && !strcmp(name + nl - kl, key)
		                  : strstr(base, key) != NULL)
			w->std_needed |= 1u << k;
	}
	clang_disposeString(n);
}

static enum CXChildVisitResult need_visit(CXCursor c, CXCursor parent,
                                          CXClientData data);

typedef struct spec_find {
	walk *w;
	CXCursor tmpl;
} spec_find;

/* Visits the main file's specialisations of sf->tmpl as device code's. */
static enum CXChildVisitResult spec_visit(CXCursor c, CXCursor parent,
                                          CXClientData data)
{
	(void)parent;
	spec_find *sf = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (!clang_Location_isFromMainFile(clang_getCursorLocation(c)))
		return CXChildVisit_Continue;
	if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec)
		return CXChildVisit_Recurse;
	if (is_type_decl(k) &&
	    clang_equalCursors(
	        clang_getCanonicalCursor(clang_getSpecializedCursorTemplate(c)),
	        sf->tmpl))
		clang_visitChildren(c, need_visit, sf->w);
	return sf->w->rc ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* A type of the main file that device code names (`typename
 * VecTypeTrait<T, 16>::vec_t`): what it names is device code's too,
 * through its specialisations (`using packed_t = packed_t<bf16_t>;` names
 * a header's alias template). */
static int need_main_type(walk *w, CXCursor r)
{
	enum CXCursorKind k = clang_getCursorKind(r);
	if (!is_type_decl(k) && k != CXCursor_TypeAliasDecl &&
	    k != CXCursor_TypeAliasTemplateDecl && k != CXCursor_TypedefDecl)
		return 0;
	CXCursor canon = clang_getCanonicalCursor(r);
	for (size_t i = 0; i < w->seen_types.len; i++)
		if (clang_equalCursors(w->seen_types.items[i], canon))
			return 0;
	if (kt_vec_push(&w->seen_types, canon))
		return KT_ENOMEM;
	clang_visitChildren(r, need_visit, w);
	if (!w->rc && k == CXCursor_ClassTemplate) {
		spec_find sf = {w, canon};
		clang_visitChildren(clang_getTranslationUnitCursor(w->tu->tu),
		                    spec_visit, &sf);
	}
	return w->rc;
}

/* The file that declares what cursor c names (a macro's definition, a
 * declaration, a type), outside the main file. */
static int need_ref(walk *w, CXCursor c)
{
	CXCursor r = clang_getCursorReferenced(c);
	if (clang_Cursor_isNull(r) || clang_equalCursors(r, c))
		r = clang_getTypeDeclaration(clang_getCursorType(c));
	/* a namespace is open: the header libclang names for `std::` is any
	 * of those that reopen it */
	if (clang_Cursor_isNull(r) ||
	    clang_getCursorKind(r) == CXCursor_NoDeclFound ||
	    clang_getCursorKind(r) == CXCursor_Namespace)
		return 0;
	CXSourceLocation loc = clang_getCursorLocation(r);
	if (clang_Location_isFromMainFile(loc))
		return need_main_type(w, r);
	CXFile f = NULL;
	clang_getSpellingLocation(loc, &f, NULL, NULL, NULL);
	enum CXCursorKind k = clang_getCursorKind(r);
	if (f && (k == CXCursor_TypedefDecl || k == CXCursor_MacroDefinition))
		need_std(w, f);
	return need_file(w, f);
}

static enum CXChildVisitResult need_visit(CXCursor c, CXCursor parent,
                                          CXClientData data)
{
	(void)parent;
	walk *w = data;
	w->rc = need_ref(w, c);
	return w->rc ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Device code of the main file: kernels and device functions. */
static bool device_code(CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	attrs a = {0};
	return is_function(k) && !host_only(c, k, &a);
}

/* Notes the extents of the main file's host functions: a macro expanded
 * there (TORCH_CHECK) is host code's, whatever header defines it. */
static enum CXChildVisitResult hostfn_visit(CXCursor c, CXCursor parent,
                                            CXClientData data)
{
	(void)parent;
	walk *w = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	attrs a = {0};
	if (!clang_Location_isFromMainFile(clang_getCursorLocation(c)))
		return CXChildVisit_Continue;
	if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec)
		return CXChildVisit_Recurse;
	if (!is_function(k) || !host_only(c, k, &a))
		return CXChildVisit_Continue;
	CXSourceRange r = clang_getCursorExtent(c);
	span s;
	clang_getExpansionLocation(clang_getRangeStart(r), NULL, NULL, NULL,
	                           &s.begin);
	clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL,
	                           &s.end);
	if (s.end > s.begin && kt_vec_push(&w->hostfn, s))
		w->rc = KT_ENOMEM;
	return w->rc ? CXChildVisit_Break : CXChildVisit_Continue;
}

static bool in_host_function(const walk *w, CXSourceLocation loc)
{
	unsigned off; /* in the main file, as the extents */
	clang_getExpansionLocation(loc, NULL, NULL, NULL, &off);
	for (size_t i = 0; i < w->hostfn.len; i++)
		if (off >= w->hostfn.items[i].begin &&
		    off < w->hostfn.items[i].end)
			return true;
	return false;
}

static enum CXChildVisitResult device_visit(CXCursor c, CXCursor parent,
                                            CXClientData data)
{
	(void)parent;
	walk *w = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (!clang_Location_isFromMainFile(clang_getCursorLocation(c)))
		return CXChildVisit_Continue;
	if (k == CXCursor_MacroExpansion) {
		if (!in_host_function(w, clang_getCursorLocation(c)))
			w->rc = need_ref(w, c);
	} else if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec)
		return CXChildVisit_Recurse;
	else if (device_code(c))
		clang_visitChildren(c, need_visit, w);
	return w->rc ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* The files through which a needed file was included are needed too, as
 * includers only (through): their includes and macros reach NVRTC, their
 * declarations do not (torch's ATen/core/TensorBase.h, on the way to the
 * c10/macros/Macros.h whose C10_LIKELY a kernel uses, declares host types
 * with an export macro of a header NVRTC never sees). */
static void inclusion_visit(CXFile f, CXSourceLocation *stack, unsigned n,
                            CXClientData data)
{
	walk *w = data;
	if (w->rc || !is_needed(w, f))
		return;
	for (unsigned i = 0; i < n && !w->rc; i++) {
		CXFile by = NULL;
		clang_getSpellingLocation(stack[i], &by, NULL, NULL, NULL);
		if (clang_Location_isFromMainFile(stack[i]) || is_needed(w, by))
			continue;
		size_t before = w->needed.len;
		w->rc = need_file(w, by);
		if (!w->rc && w->needed.len > before)
			w->rc = kt_vec_push(&w->through, by);
	}
}

/*
 * `<...>` headers of the project (outside the toolkit and the operating
 * system's folders) that the file's device code needs: those declaring a
 * macro it expands or a name it uses, and those through which they are
 * included. They reach NVRTC as their device side, like `"..."` headers;
 * other `<...>` headers (a library the host code uses) stay out of its
 * way.
 */
static int needed_headers(walk *w)
{
	clang_visitChildren(clang_getTranslationUnitCursor(w->tu->tu),
	                    hostfn_visit, w);
	if (!w->rc)
		clang_visitChildren(clang_getTranslationUnitCursor(w->tu->tu),
		                    device_visit, w);
	size_t before = 0;
	while (!w->rc && w->needed.len > before) {
		before = w->needed.len;
		clang_getInclusions(w->tu->tu, inclusion_visit, w);
	}
	return w->rc;
}

int kt_rewrite_file_from_tu(kt_rewrite_file *out, kt_tu *tu)
{
	walk w = {.tu = tu};
	memset(out, 0, sizeof(*out));
	w.rc = needed_headers(&w);
	if (!w.rc)
		w.rc = host_spans(&w);
	if (!w.rc)
		clang_visitChildren(clang_getTranslationUnitCursor(tu->tu),
		                    top_visit, &w);
	if (!w.rc)
		w.rc = host_types(&w);
	if (!w.rc) /* first: the main file's instantiations of templates */
		w.rc = header_decls(&w); /* cut from headers go too */
	if (!w.rc)
		w.rc = explicit_insts(&w);
	kt_vec_release(&w.host);
	kt_vec_release(&w.hfiles);
	kt_vec_release(&w.cur);
	kt_vec_release(&w.used);
	for (size_t i = 0; i < w.used_names.len; i++)
		kt_free(w.used_names.items[i]);
	kt_vec_release(&w.used_names);
	for (size_t i = 0; i < w.hcut.len; i++)
		kt_free(w.hcut.items[i]);
	kt_vec_release(&w.hcut);
	kt_vec_release(&w.hcutd);
	for (size_t i = 0; i < w.macros.len; i++)
		kt_free(w.macros.items[i].name);
	kt_vec_release(&w.macros);
	kt_vec_release(&w.needed);
	kt_vec_release(&w.through);
	kt_vec_release(&w.hostfn);
	kt_vec_release(&w.seen_types);
	if (w.rc) {
		kt_vec_release(&w.decls);
		kt_vec_release(&w.incs);
		kt_vec_release(&w.loops);
		kt_vec_release(&w.subs);
		kt_vec_release(&w.divs);
		kt_vec_release(&w.hdrs);
		kt_vec_release(&w.hdecls);
		kt_vec_release(&w.hincs);
		return kt_error(KT_ENOMEM, "out of memory");
	}
	out->loops = w.loops.items;
	out->nloops = w.loops.len;
	out->subscripts = w.subs.items;
	out->nsubscripts = w.subs.len;
	out->divisions = w.divs.items;
	out->ndivisions = w.divs.len;
	out->path = tu->path;
	out->text = tu->text;
	out->len = tu->len;
	out->opencl = tu->opencl;
	out->decls = w.decls.items;
	out->ndecls = w.decls.len;
	out->includes = w.incs.items;
	out->nincludes = w.incs.len;
	out->headers = w.hdrs.items;
	out->nheaders = w.hdrs.len;
	out->hdecls = w.hdecls.items;
	out->nhdecls = w.hdecls.len;
	out->hincludes = w.hincs.items;
	out->nhincludes = w.hincs.len;
	for (unsigned k = 0; k < NSTD; k++)
		if (w.std_needed & (1u << k) &&
		    out->nstd < sizeof(out->std) / sizeof(out->std[0]))
			out->std[out->nstd++] = std_keys[k][1];
	return 0;
}

void kt_rewrite_file_release(kt_rewrite_file *f)
{
	kt_free((void *)f->decls);
	kt_free((void *)f->includes);
	kt_free((void *)f->loops);
	kt_free((void *)f->subscripts);
	kt_free((void *)f->divisions);
	kt_free((void *)f->headers);
	kt_free((void *)f->hdecls);
	kt_free((void *)f->hincludes);
	memset(f, 0, sizeof(*f));
}
