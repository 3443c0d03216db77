/*
 * instance.c - what a host function template's explicit instantiations
 * give its template parameters. Libraries build their launchers that way
 * (`template void invoke_scale<__half, 8>(...);`, or `template void
 * invokeRmsNorm(half *out, const half *in, int n);` with the arguments
 * deduced, often written by a macro: `INSTANTIATE_RMSNORM(half)`), and
 * the file may never call them.
 *
 * libclang gives an explicit instantiation no cursor, so its tokens are
 * read: in the file, `template` not followed by `<` nor preceded by `.`,
 * `->` or `::` (a dependent name), up to the `;`; in a macro the file
 * expands, the macro's body with its parameters replaced by the
 * expansion's arguments (a body that pastes or quotes tokens is not
 * read). The first instantiation naming the template that says the
 * parameter wins. An explicit argument is taken as written (it stands at
 * namespace scope, so it is fixed); a type argument left to deduction is
 * read from the declaration's parameter whose type is the parameter
 * through as many pointers or references as the template's (`half
 * *out` for `T *out`).
 */
#include "planner/planner.h"

#include <ctype.h>
#include <string.h>

typedef KT_VEC(const char *) toks;

static bool is(const char *t, const char *s)
{
	return t && !strcmp(t, s);
}

static bool ident(const char *t)
{
	return t && (isalpha((unsigned char)t[0]) || t[0] == '_');
}

/* The spelling of each token of range r, appended to v. */
static void spell(planner *P, CXSourceRange r, toks *v)
{
	kt_tu *tu = P->f->tu;
	CXToken *t = NULL;
	unsigned nt = 0;
	clang_tokenize(tu->tu, r, &t, &nt);
	for (unsigned i = 0; i < nt; i++) {
		CXString sp = clang_getTokenSpelling(tu->tu, t[i]);
		if (kt_vec_push(v, pl_say(P, "%s", clang_getCString(sp))))
			P->oom = 1;
		clang_disposeString(sp);
	}
	clang_disposeTokens(tu->tu, t, nt);
}

/* Tokens [b, e) joined: a blank only between two words. */
static const char *join(planner *P, const toks *v, size_t b, size_t e)
{
	kt_str s = KT_STR_INIT;
	for (size_t i = b; i < e; i++) {
		if (i > b && ident(v->items[i - 1]) && ident(v->items[i]))
			kt_str_addc(&s, ' ');
		kt_str_adds(&s, v->items[i]);
	}
	const char *r = s.len ? pl_say(P, "%s", s.ptr) : NULL;
	kt_str_release(&s);
	return r;
}

/* The top-level items of the bracketed list opening at v[open] (`<` or
 * `(`), as [begin, end) token indices into item (at most max); the index
 * past the closing bracket, or 0 when it does not close. */
static size_t items(const toks *v, size_t open, size_t (*item)[2], int max,
                    int *n)
{
	int depth = 0;
	*n = 0;
	size_t b = open + 1;
	for (size_t i = open; i < v->len; i++) {
		const char *t = v->items[i];
		bool o = is(t, "<") || is(t, "(") || is(t, "[") || is(t, "{");
		bool c = is(t, ">") || is(t, ")") || is(t, "]") || is(t, "}");
		if (depth == 1 && (is(t, ",") || c)) {
			if (*n < max && i > b) {
				item[*n][0] = b;
				item[*n][1] = i;
				(*n)++;
			}
			b = i + 1;
		}
		depth += o - c;
		if (depth == 0)
			return i + 1;
	}
	return 0;
}

static bool builtin_type(const char *t)
{
	static const char *const k[] = {"int",   "float", "double", "char",
	                                "short", "long",  "signed", "unsigned",
	                                "bool",  "void",  NULL};
	for (const char *const *p = k; *p; p++)
		if (!strcmp(*p, t))
			return true;
	return false;
}

/* A declaration's parameter [b, e) read as the type of depth pointers or
 * references around a type parameter: that type, or NULL. */
static const char *deduced(planner *P, const toks *v, size_t b, size_t e,
                           int depth)
{
	/* the parameter's name, where it has one */
	if (e - b >= 2 && ident(v->items[e - 1]) &&
	    !builtin_type(v->items[e - 1]) && !is(v->items[e - 2], "::"))
		e--;
	toks rest = {0};
	int ptrs = 0;
	for (size_t i = b; i < e; i++) {
		const char *t = v->items[i];
		if (is(t, "*") || is(t, "&") || is(t, "&&"))
			ptrs++;
		else if (!is(t, "const") && !is(t, "volatile") &&
		         !is(t, "__restrict__") && !is(t, "__restrict") &&
		         kt_vec_push(&rest, t))
			P->oom = 1;
	}
	const char *r =
	    ptrs == depth && rest.len ? join(P, &rest, 0, rest.len) : NULL;
	kt_vec_release(&rest);
	return r;
}

/* Read one instantiation, v[at] its `template`: template parameter idx
 * of fn (named name), from its argument list, or for a type parameter
 * (depth[j]: parameter j's pointers around it, -1 where it is not
 * that), from the declaration's parameters. */
static const char *read_one(planner *P, const toks *v, size_t at,
                            const char *name, int idx, bool type,
                            const int *depth, int nparm)
{
	size_t i = at + 1;
	while (i + 1 < v->len && !is(v->items[i], ";") &&
	       !(is(v->items[i], name) &&
	         (is(v->items[i + 1], "<") || is(v->items[i + 1], "("))))
		i++;
	if (i + 1 >= v->len || is(v->items[i], ";"))
		return NULL;
	size_t item[32][2];
	int n = 0;
	size_t open = i + 1;
	if (is(v->items[open], "<")) {
		open = items(v, open, item, 32, &n);
		if (!open)
			return NULL;
		if (idx < n)
			return join(P, v, item[idx][0], item[idx][1]);
		if (open >= v->len || !is(v->items[open], "("))
			return NULL;
	}
	if (!type || !items(v, open, item, 32, &n))
		return NULL;
	for (int j = 0; j < n && j < nparm; j++) {
		const char *t = depth[j] >= 0 ? deduced(P, v, item[j][0],
		                                        item[j][1], depth[j])
		                              : NULL;
		if (t)
			return t;
	}
	return NULL;
}

/* Each `template` of v that may begin an explicit instantiation, read. */
static const char *read_all(planner *P, const toks *v, const char *name,
                            int idx, bool type, const int *depth, int nparm)
{
	for (size_t i = 0; i < v->len; i++) {
		if (!is(v->items[i], "template") ||
		    (i + 1 < v->len && is(v->items[i + 1], "<")) ||
		    (i > 0 &&
		     (is(v->items[i - 1], ".") || is(v->items[i - 1], "->") ||
		      is(v->items[i - 1], "::"))))
			continue;
		const char *r =
		    read_one(P, v, i, name, idx, type, depth, nparm);
		if (r)
			return r;
	}
	return NULL;
}

/* The file's own instantiations: its tokens outside macro definitions. */
static const char *direct(planner *P, const char *name, int idx, bool type,
                          const int *depth, int nparm)
{
	const fe_ast *a = P->a;
	kt_tu *tu = P->f->tu;
	CXToken *t = NULL;
	unsigned nt = 0;
	clang_tokenize(
	    tu->tu,
	    clang_getCursorExtent(clang_getTranslationUnitCursor(tu->tu)), &t,
	    &nt);
	toks v = {0};
	for (unsigned i = 0; i < nt; i++) {
		kt_range r;
		if (kt_fe_range(tu, clang_getTokenExtent(tu->tu, t[i]), &r) &&
		    fe_in_macro_definition(a, r.begin.offset))
			continue;
		CXString sp = clang_getTokenSpelling(tu->tu, t[i]);
		if (kt_vec_push(&v, pl_say(P, "%s", clang_getCString(sp))))
			P->oom = 1;
		clang_disposeString(sp);
	}
	clang_disposeTokens(tu->tu, t, nt);
	const char *r = read_all(P, &v, name, idx, type, depth, nparm);
	kt_vec_release(&v);
	return r;
}

/* Expansion x of a function-like macro whose body names the template:
 * the body with each parameter replaced by x's argument, into out; false
 * where the body pastes or quotes (`##`, `#`) or the counts differ. */
static bool expand(planner *P, int x, const char *name, toks *out)
{
	const fe_ast *a = P->a;
	CXCursor def = clang_getCursorReferenced(a->n[x].cur);
	if (clang_Cursor_isNull(def) || !kt_fe_macro_function_like(def))
		return false;
	toks d = {0}, e = {0};
	spell(P, clang_getCursorExtent(def), &d);
	spell(P, clang_getCursorExtent(a->n[x].cur), &e);
	size_t dp[16][2], ep[16][2];
	int nd = 0, ne = 0;
	size_t body = d.len > 1 ? items(&d, 1, dp, 16, &nd) : 0;
	size_t end = e.len > 1 ? items(&e, 1, ep, 16, &ne) : 0;
	bool ok = body && end && nd == ne;
	bool names = false;
	for (size_t i = body; ok && i < d.len; i++) {
		const char *t = d.items[i];
		names |= is(t, name);
		if (is(t, "#") || is(t, "##"))
			ok = false;
		int p = -1;
		for (int k = 0; k < nd && p < 0; k++)
			if (dp[k][1] == dp[k][0] + 1 &&
			    is(t, d.items[dp[k][0]]))
				p = k;
		if (p < 0) {
			if (kt_vec_push(out, t))
				P->oom = 1;
			continue;
		}
		for (size_t k = ep[p][0]; k < ep[p][1]; k++)
			if (kt_vec_push(out, e.items[k]))
				P->oom = 1;
	}
	kt_vec_release(&d);
	kt_vec_release(&e);
	return ok && names;
}

const char *pl_instance_arg(planner *P, int fn, int idx, bool type,
                            const int *depth, int nparm)
{
	const fe_ast *a = P->a;
	const char *name = a->n[fn].name;
	const char *r = direct(P, name, idx, type, depth, nparm);
	for (size_t i = 0; i < a->expansions.len && !r; i++) {
		int x = a->expansions.items[i];
		if (!a->n[x].in_main)
			continue;
		toks v = {0};
		if (expand(P, x, name, &v))
			r = read_all(P, &v, name, idx, type, depth, nparm);
		kt_vec_release(&v);
	}
	return r;
}

const char *pl_call_targ(planner *P, int call, const char *name, int idx,
                         uint32_t *off)
{
	kt_tu *tu = P->f->tu;
	CXToken *t = NULL;
	unsigned nt = 0;
	clang_tokenize(tu->tu, clang_getCursorExtent(P->a->n[call].cur), &t,
	               &nt);
	toks v = {0};
	for (unsigned i = 0; i < nt; i++) {
		CXString sp = clang_getTokenSpelling(tu->tu, t[i]);
		if (kt_vec_push(&v, pl_say(P, "%s", clang_getCString(sp))))
			P->oom = 1;
		clang_disposeString(sp);
	}
	size_t item[32][2];
	int n = 0;
	const char *r = NULL;
	/* past a qualifier (`ns::f<op>`) */
	size_t at = 0;
	while (at + 2 < v.len && ident(v.items[at]) &&
	       is(v.items[at + 1], "::"))
		at += 2;
	kt_range kr;
	*off = UINT32_MAX;
	if (!P->oom && v.len == nt && at + 2 < v.len && is(v.items[at], name) &&
	    is(v.items[at + 1], "<") && items(&v, at + 1, item, 32, &n) &&
	    idx < n) {
		r = join(P, &v, item[idx][0], item[idx][1]);
		if (kt_fe_range(
		        tu, clang_getTokenExtent(tu->tu, t[item[idx][0]]), &kr))
			*off = kr.begin.offset;
	}
	clang_disposeTokens(tu->tu, t, nt);
	kt_vec_release(&v);
	return r;
}
