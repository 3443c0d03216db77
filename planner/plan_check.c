/*
 * plan_check.c - the semantic checks of an edit plan: names, domains,
 * cross references, constraint identifiers, refactor arguments, ranges
 * against the source file, and edits that overlap.
 *
 * Every check reports with the field's path and goes on, so a plan written
 * by an LLM gets all its problems back in one answer. Positions are checked
 * against a table of line starts built once per file.
 */
#include "ktc/plan.h"

#include "util/str.h"
#include "util/vec.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Errors kept; the rest are counted (plan_read.c keeps as many). */
enum { MAX_ERRORS = 100 };

typedef struct edit_ref {
	kt_range range;
	char *path;
} edit_ref;

typedef struct name_ref {
	const char *s;
	size_t len;
} name_ref;

typedef struct ck {
	const kt_plan *p;
	kt_diags *d;
	const char *name;
	const char *src;
	size_t len;
	KT_VEC(uint32_t) lines; /* offset of each line's start */
	KT_VEC(edit_ref) edits;
	KT_VEC(name_ref) problems; /* problem variables from pragmas */
	KT_VEC(name_ref) params;   /* the params' names */
	int errors;
	int oom;
} ck;

static void fail(ck *c, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void fail(ck *c, const char *path, const char *fmt, ...)
{
	/* past the cap nothing is formatted: a message may quote a long
	 * text, and formatting it for each error would be quadratic */
	if (c->errors++ >= MAX_ERRORS)
		return;
	kt_str m = KT_STR_INIT;
	va_list ap;
	va_start(ap, fmt);
	int rc = kt_str_vaddf(&m, fmt, ap);
	va_end(ap);
	if (rc || kt_diags_add(c->d, KT_DIAG_ERROR, c->name, NULL, 0, 0, 0,
	                       "%s: %s", path, m.ptr))
		c->oom = 1;
	kt_str_release(&m);
}

/* A path string built with printf; "" when out of memory. */
static char *pathf(ck *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static char *pathf(ck *c, const char *fmt, ...)
{
	kt_str s = KT_STR_INIT;
	va_list ap;
	va_start(ap, fmt);
	if (kt_str_vaddf(&s, fmt, ap))
		c->oom = 1;
	va_end(ap);
	return kt_str_detach(&s);
}

/* ----------------------------------------------------------- positions */

static int build_lines(ck *c)
{
	if (kt_vec_push(&c->lines, 0))
		return KT_ENOMEM;
	for (size_t i = 0; i < c->len; i++)
		if (c->src[i] == '\n' &&
		    kt_vec_push(&c->lines, (uint32_t)i + 1))
			return KT_ENOMEM;
	return KT_OK;
}

static kt_pos pos_of(const ck *c, uint32_t off)
{
	size_t lo = 0, hi = c->lines.len;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (c->lines.items[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	kt_pos p = {off, (int)lo + 1, (int)(off - c->lines.items[lo]) + 1};
	return p;
}

static void check_pos(ck *c, const char *path, const char *which, kt_pos p)
{
	if (p.offset > c->len) {
		fail(c, path,
		     "%s offset %" PRIu32 " is past the end of '%s' "
		     "(%zu bytes)",
		     which, p.offset, c->p->path, c->len);
		return;
	}
	kt_pos want = pos_of(c, p.offset);
	if (want.line != p.line || want.col != p.col)
		fail(c, path,
		     "%s offset %" PRIu32 " is line %d col %d, not "
		     "line %d col %d",
		     which, p.offset, want.line, want.col, p.line, p.col);
}

/* Checks a range; text (may be NULL) must be what stands there. */
static void check_range(ck *c, const char *path, kt_range r, const char *text)
{
	if (r.begin.line < 1 || r.end.line < 1) {
		fail(c, path, "line numbers start at 1");
		return;
	}
	if (r.begin.offset > r.end.offset) {
		fail(c, path,
		     "begin offset %" PRIu32 " is after end offset %" PRIu32,
		     r.begin.offset, r.end.offset);
		return;
	}
	if (!c->src)
		return;
	check_pos(c, path, "begin", r.begin);
	check_pos(c, path, "end", r.end);
	if (!text || r.end.offset > c->len)
		return;
	size_t n = r.end.offset - r.begin.offset;
	if (strlen(text) != n || memcmp(c->src + r.begin.offset, text, n))
		fail(c, path, "the file has '%.*s' there, not '%s'",
		     (int)(n > 60 ? 60 : n), c->src + r.begin.offset, text);
}

static void add_edit(ck *c, kt_range r, char *path)
{
	edit_ref e = {r, path};
	if (!path || kt_vec_push(&c->edits, e)) {
		kt_free(path);
		c->oom = 1;
	}
}

/* --------------------------------------------------------------- names */

static const char *const reserved[] = {
    "threadIdx", "blockIdx", "blockDim",  "gridDim",  "warpSize", "int",
    "unsigned",  "long",     "short",     "char",     "float",    "double",
    "void",      "if",       "else",      "for",      "while",    "do",
    "return",    "const",    "constexpr", "static",   "struct",   "sizeof",
    "true",      "false",    "auto",      "template", "typename", "min",
    "max",       "div_ceil", "log2",      "pow2",     "abs",      "floor",
    "ceil",      "round",    NULL,
};

static void check_name(ck *c, const char *path, const char *s)
{
	if (!kt_is_ident(s)) {
		fail(c, path, "'%s' is not a C identifier", s ? s : "");
		return;
	}
	if (!strncmp(s, "kt_", 3) || !strncmp(s, "DEVICE_", 7)) {
		fail(c, path, "'%s' uses a prefix ktc reserves", s);
		return;
	}
	for (const char *const *r = reserved; *r; r++)
		if (!strcmp(*r, s))
			fail(c, path, "'%s' is a reserved name", s);
}

static const kt_plan_kernel *find_kernel(const ck *c, const char *name)
{
	for (size_t i = 0; name && i < c->p->nkernels; i++)
		if (!strcmp(c->p->kernels[i].name, name))
			return &c->p->kernels[i];
	return NULL;
}

static const kt_plan_kernel *check_kernel_ref(ck *c, const char *path,
                                              const char *name)
{
	const kt_plan_kernel *k = find_kernel(c, name);
	if (!k && name)
		fail(c, path, "no kernel '%s' in kernels", name);
	return k;
}

static int cmp_name(const void *a, const void *b)
{
	const name_ref *x = a, *y = b;
	int d = strncmp(x->s, y->s, x->len < y->len ? x->len : y->len);
	return d ? d : (x->len > y->len) - (x->len < y->len);
}

/*
 * The names are sorted once and searched: a constraint's identifiers are
 * looked up one by one, and a hostile plan may have many of both.
 */
static void sort_names(ck *c)
{
	for (size_t i = 0; i < c->p->nparams; i++) {
		const char *pn = c->p->params[i].name;
		name_ref n = {pn, pn ? strlen(pn) : 0};
		if (pn && kt_vec_push(&c->params, n))
			c->oom = 1;
	}
	if (c->params.len > 1)
		qsort(c->params.items, c->params.len, sizeof(name_ref),
		      cmp_name);
	if (c->problems.len > 1)
		qsort(c->problems.items, c->problems.len, sizeof(name_ref),
		      cmp_name);
}

static bool has_name(const name_ref *v, size_t len, const char *name, size_t n)
{
	name_ref key = {name, n};
	return len && bsearch(&key, v, len, sizeof(name_ref), cmp_name);
}

static bool is_param(const ck *c, const char *name, size_t n)
{
	return has_name(c->params.items, c->params.len, name, n);
}

static bool is_problem(const ck *c, const char *name, size_t n)
{
	return has_name(c->problems.items, c->problems.len, name, n);
}

static bool is_function(const char *name, size_t n)
{
	static const char *const fns[] = {"min",   "max",   "div_ceil", "log2",
	                                  "pow2",  "abs",   "floor",    "ceil",
	                                  "round", "float", "int",      NULL};
	for (const char *const *f = fns; *f; f++)
		if (strlen(*f) == n && !strncmp(*f, name, n))
			return true;
	return false;
}

/* Every identifier of a constraint must mean something to the grammar. */
static void check_expr(ck *c, const char *path, const char *e)
{
	for (const char *s = e; *s;) {
		if (isalpha((unsigned char)*s) || *s == '_') {
			const char *b = s;
			while (isalnum((unsigned char)*s) || *s == '_')
				s++;
			size_t n = (size_t)(s - b);
			if (!is_param(c, b, n) && !is_problem(c, b, n) &&
			    !is_function(b, n) && strncmp(b, "DEVICE_", 7))
				fail(c, path, "unknown name '%.*s' in '%s'",
				     (int)n, b, e);
		} else if (isdigit((unsigned char)*s) || *s == '.') {
			while (isalnum((unsigned char)*s) || *s == '.')
				s++;
		} else if (strchr(" \t+-*/%<>=!&|^~?:(),", *s)) {
			s++;
		} else {
			fail(c, path, "unexpected character '%c' in '%s'", *s,
			     e);
			return;
		}
	}
	if (!*e)
		fail(c, path, "empty expression");
}

/* ---------------------------------------------------------------- with */

/*
 * A `with` is spliced into the user's code, so it is parsed, not scanned:
 * the parameter's name, decimal integer literals, parentheses, unary minus
 * and + - * / % << >>, nothing else (no other name, call, `;`, brace,
 * comment, string or preprocessor line can pass). The planner writes
 * `N`, `(N - 1)`, `(N / 32)`, `(N * 4)`; a bound on the length and the
 * nesting keeps a hostile text from costing more than its size.
 */
enum { WITH_MAX_LEN = 256, WITH_MAX_DEPTH = 16, WITH_MAX_DIGITS = 9 };

typedef struct wp {
	const char *s, *at, *name;
	size_t nlen;
	int depth;
	const char *err;  /* the first problem; NULL while none */
	const ck *params; /* non-NULL: any parameter's name passes */
} wp;

static void wp_skip(wp *w)
{
	while (*w->at == ' ' || *w->at == '\t')
		w->at++;
}

static bool wp_fail(wp *w, const char *why)
{
	if (!w->err)
		w->err = why;
	return false;
}

static bool wp_expr(wp *w);

/* primary: NAME | INT | "(" expr ")" */
static bool wp_primary(wp *w)
{
	wp_skip(w);
	const char *b = w->at;
	if (isalpha((unsigned char)*b) || *b == '_') {
		while (isalnum((unsigned char)*w->at) || *w->at == '_')
			w->at++;
		size_t n = (size_t)(w->at - b);
		if (w->params ? !is_param(w->params, b, n)
		              : n != w->nlen || strncmp(b, w->name, w->nlen)) {
			w->at = b;
			return wp_fail(w, w->params
			                      ? "a name that is not a parameter"
			                      : "a name other than the "
			                        "parameter's");
		}
		return true;
	}
	if (isdigit((unsigned char)*b)) {
		while (isdigit((unsigned char)*w->at))
			w->at++;
		if (w->at - b > WITH_MAX_DIGITS ||
		    (*b == '0' && w->at - b > 1)) {
			w->at = b;
			return wp_fail(w, "a literal that is not a small "
			                  "decimal integer");
		}
		if (isalnum((unsigned char)*w->at) || *w->at == '_' ||
		    *w->at == '.' || *w->at == '\'')
			return wp_fail(w, "a literal that is not a small "
			                  "decimal integer");
		return true;
	}
	if (*b != '(')
		return wp_fail(w, "a character that starts no operand");
	if (++w->depth > WITH_MAX_DEPTH)
		return wp_fail(w, "parentheses nested too deep");
	w->at++;
	if (!wp_expr(w))
		return false;
	wp_skip(w);
	if (*w->at != ')')
		return wp_fail(w, "a missing ')'");
	w->at++;
	w->depth--;
	return true;
}

/* unary: "-" unary | primary */
static bool wp_unary(wp *w)
{
	wp_skip(w);
	if (*w->at != '-')
		return wp_primary(w);
	if (++w->depth > WITH_MAX_DEPTH)
		return wp_fail(w, "operators nested too deep");
	w->at++;
	bool ok = wp_unary(w);
	w->depth--;
	return ok;
}

/* The binary operator at w->at, its length; 0 when none. */
static size_t wp_binop(const wp *w)
{
	const char *a = w->at;
	if ((a[0] == '<' || a[0] == '>') && a[1] == a[0])
		return 2;
	return *a && strchr("+-*/%", *a) ? 1 : 0;
}

/* expr: unary (binop unary)*, one precedence is enough: nothing is
 * evaluated here, and the text is pasted as it stands */
static bool wp_expr(wp *w)
{
	if (!wp_unary(w))
		return false;
	for (;;) {
		wp_skip(w);
		size_t n = wp_binop(w);
		if (!n)
			return true;
		w->at += n;
		if (!wp_unary(w))
			return false;
	}
}

/* Parses all of w's text as one expression; w->err says why not. */
static void wp_whole(wp *w)
{
	if (wp_expr(w)) {
		wp_skip(w);
		if (*w->at)
			wp_fail(w, w->at[0] == ')'
			               ? "an unmatched ')'"
			               : "text after the expression");
	}
}

/* Refuses a `with` that is not an expression over name and literals. */
static void check_with(ck *c, const char *path, const char *with,
                       const char *name)
{
	if (!with || !name || !*with)
		return;
	size_t len = strlen(with);
	if (len > WITH_MAX_LEN) {
		fail(c, path, "'with' is %zu bytes long (at most %d)", len,
		     WITH_MAX_LEN);
		return;
	}
	/* another parameter's name passes too: a grid's step folded from
	 * the block and a thread's items (`(BLOCK_SIZE * ITEMS)`) */
	wp w = {with, with, name, strlen(name), 0, NULL, c};
	wp_whole(&w);
	if (!w.err)
		return;
	unsigned char ch = (unsigned char)*w.at;
	fail(c, path,
	     "'with' must be an expression over '%s', the other parameters "
	     "and integer literals (+ - * / %% << >>, parentheses): %s at "
	     "character %zu%s%.*s%s",
	     name, w.err, (size_t)(w.at - with) + 1, isgraph(ch) ? " ('" : "",
	     isgraph(ch) ? 1 : 0, w.at, isgraph(ch) ? "')" : "");
}

/* ------------------------------------------------------------- params */

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Each repeated value once, in increasing order (sorted: not quadratic). */
static void check_repeats(ck *c, const char *path, const kt_plan_param *pa)
{
	int64_t *v = kt_malloc((pa->nvalues + 1) * sizeof(int64_t));
	if (!v) {
		c->oom = 1;
		return;
	}
	memcpy(v, pa->values, pa->nvalues * sizeof(int64_t));
	qsort(v, pa->nvalues, sizeof(int64_t), cmp_i64);
	for (size_t k = 1; k < pa->nvalues; k++)
		if (v[k] == v[k - 1] && (k < 2 || v[k - 2] != v[k]))
			fail(c, path, "value %" PRId64 " appears twice", v[k]);
	kt_free(v);
}

static void check_domain(ck *c, size_t i, const kt_plan_param *pa)
{
	char *path = pathf(c, "params[%zu].values", i);
	bool has_default = false;
	if (!pa->nvalues)
		fail(c, path, "the domain is empty");
	for (size_t v = 0; v < pa->nvalues; v++)
		has_default |= pa->values[v] == pa->def;
	if (pa->nvalues > 1)
		check_repeats(c, path, pa);
	if (pa->nvalues && !has_default)
		fail(c, path,
		     "the domain does not contain the default %" PRId64,
		     pa->def);
	kt_free(path);
}

static void check_use(ck *c, size_t i, size_t u, const kt_plan_param *pa,
                      const kt_plan_kernel *k)
{
	const kt_plan_use *use = &pa->uses[u];
	char *path = pathf(c, "params[%zu].uses[%zu]", i, u);
	char *rpath = pathf(c, "%s.range", path);
	check_range(c, rpath, use->range, use->text);
	if (use->text && !*use->text)
		fail(c, path, "empty text");
	if (use->site == KT_SITE_MACRO && use->with)
		fail(c, path,
		     "a 'macro' use has no 'with': the #define of "
		     "'%s' is guarded instead",
		     pa->name);
	if (use->site != KT_SITE_MACRO && !use->with)
		fail(c, path, "missing required field 'with'");
	if (use->with && !*use->with)
		fail(c, path, "'with' is empty");
	char *wpath = pathf(c, "%s.with", path);
	check_with(c, wpath, use->with, pa->name);
	kt_free(wpath);
	if (use->launch >= 0 && k && (size_t)use->launch >= k->nlaunches)
		fail(c, path, "launch %d does not exist (kernel '%s' has %zu)",
		     use->launch, k->name, k->nlaunches);
	add_edit(c, use->range, rpath);
	kt_free(path);
}

static bool refactor_names(const ck *c, const char *name)
{
	for (size_t i = 0; name && i < c->p->nrefactors; i++)
		if (c->p->refactors[i].param &&
		    !strcmp(c->p->refactors[i].param, name))
			return true;
	return false;
}

/* A pragma line of the plan names name as a word: a parameter only the
 * launch line uses (the block size of a kernel nobody in the file
 * launches). */
static bool pragma_names(const ck *c, const char *name)
{
	size_t n = name ? strlen(name) : 0;
	for (size_t i = 0; n && i < c->p->npragmas; i++)
		for (const char *l = c->p->pragmas[i].line, *s = l;
		     l && (s = strstr(s, name)); s += n)
			if ((s == l || !(isalnum((unsigned char)s[-1]) ||
			                 s[-1] == '_')) &&
			    !(isalnum((unsigned char)s[n]) || s[n] == '_'))
				return true;
	return false;
}

static void check_param(ck *c, size_t i)
{
	const kt_plan_param *pa = &c->p->params[i];
	char *path = pathf(c, "params[%zu]", i);
	char *npath = pathf(c, "%s.name", path);
	check_name(c, npath, pa->name);
	for (size_t j = 0; j < i && pa->name; j++)
		if (c->p->params[j].name &&
		    !strcmp(c->p->params[j].name, pa->name))
			fail(c, npath, "'%s' is also the name of params[%zu]",
			     pa->name, j);
	kt_free(npath);
	char *kpath = pathf(c, "%s.kernel", path);
	const kt_plan_kernel *k = check_kernel_ref(c, kpath, pa->kernel);
	kt_free(kpath);
	check_domain(c, i, pa);
	for (size_t j = 0; j < pa->nconstraints; j++) {
		char *cp = pathf(c, "%s.constraints[%zu]", path, j);
		check_expr(c, cp, pa->constraints[j] ? pa->constraints[j] : "");
		kt_free(cp);
	}
	if (!pa->nuses && !refactor_names(c, pa->name) &&
	    !pragma_names(c, pa->name))
		fail(c, path,
		     "a parameter needs at least one use, a refactor that "
		     "introduces it or a pragma line that names it");
	for (size_t u = 0; u < pa->nuses; u++) {
		check_use(c, i, u, pa, k);
		if (pa->uses[u].site == KT_SITE_MACRO && pa->name &&
		    pa->nuses > 1)
			fail(c, path,
			     "a 'macro' parameter has exactly one use");
	}
	kt_free(path);
}

/* ----------------------------------------------------------- refactors */

static bool needs(ck *c, const char *path, bool ok, const char *field,
                  const char *kind)
{
	if (!ok)
		fail(c, path, "a '%s' refactor needs '%s'", kind, field);
	return ok;
}

/* hoist_loads: the bound, and arrays that are only read, each typed. */
static void hoist_args(ck *c, const char *path, const kt_plan_refactor *f)
{
	needs(c, path, f->bound != NULL, "bound", "hoist_loads");
	needs(c, path, f->narrays > 0, "arrays", "hoist_loads");
	for (size_t i = 0; i < f->narrays; i++) {
		const kt_plan_access *x = &f->arrays[i];
		if (!x->load || x->store || !x->type)
			fail(c, path,
			     "arrays[%zu]: a 'hoist_loads' array is loaded, "
			     "never stored, and has a 'type'",
			     i);
	}
}

/* pack_stores: a constant count, the element, one array only stored, and
 * a vector of 4, 8 or 16 bytes. */
static void pack_args(ck *c, const char *path, const kt_plan_refactor *f)
{
	const char *k = "pack_stores";
	char *end = NULL;
	long n = f->bound ? strtol(f->bound, &end, 10) : 0;
	if (needs(c, path, f->bound != NULL, "bound", k) &&
	    (*end || n < 2 || n > 16))
		fail(c, path,
		     "bound: a 'pack_stores' loop's count is an integer "
		     "from 2 to 16, not '%s'",
		     f->bound);
	needs(c, path, f->elem_type != NULL, "elem_type", k);
	long bytes = n * f->elem_size;
	if (needs(c, path, f->elem_size > 0, "elem_size", k) && n >= 2 &&
	    n <= 16 && bytes != 4 && bytes != 8 && bytes != 16)
		fail(c, path,
		     "a 'pack_stores' vector is 4, 8 or 16 bytes, not %ld "
		     "(%ld elements of %d)",
		     bytes, n, f->elem_size);
	if (f->narrays != 1 || f->arrays[0].load || !f->arrays[0].store)
		fail(c, path,
		     "arrays: a 'pack_stores' refactor has one array, stored "
		     "and not loaded");
}

/* cluster_split: a row split's loop and launch, the kernel's name, and
 * sums with their types. */
static void cluster_args(ck *c, const char *path, const kt_plan_refactor *f,
                         bool launch)
{
	const char *k = "cluster_split";
	needs(c, path, f->grid.begin.line > 0, "grid", k);
	needs(c, path, launch, "launch", k);
	needs(c, path, f->block.begin.line > 0, "block", k);
	for (size_t i = 0; i < f->narrays; i++)
		if (!f->arrays[i].type || f->arrays[i].offset)
			fail(c, path,
			     "arrays[%zu]: a 'cluster_split' sum is a variable "
			     "with a 'type' and no 'offset'",
			     i);
}

/* max_threads: an expression over literals and at most one parameter. */
/* max_threads: an expression like a `with`, over any of the plan's
 * parameters (a block of TILE x ROWS threads). */
static void check_max_threads(ck *c, const char *path, const char *s)
{
	char *sub = pathf(c, "%s.max_threads", path);
	wp w = {s, s, "", 0, 0, NULL, c};
	if (strlen(s) > WITH_MAX_LEN)
		fail(c, sub, "'max_threads' is %zu bytes long (at most %d)",
		     strlen(s), WITH_MAX_LEN);
	else
		wp_whole(&w);
	if (w.err)
		fail(c, sub,
		     "'max_threads' must be an expression over parameters and "
		     "integer literals (+ - * / %% << >>, parentheses): %s at "
		     "character %zu",
		     w.err, (size_t)(w.at - s) + 1);
	kt_free(sub);
}

/*
 * variant: the region is the body of its kernel (a `{ ... }` that ends the
 * kernel's definition), the refactor makes no other edit, and the new body
 * passes kt_plan_body_check against the body as written.
 */
static void check_variant(ck *c, const char *path, const kt_plan_refactor *f)
{
	const kt_plan_kernel *k = find_kernel(c, f->kernel);
	kt_range r = f->region;
	if (f->nedits)
		fail(c, path, "a 'variant' refactor makes no edits");
	if (c->src && k && r.end.offset <= c->len &&
	    (r.begin.offset >= r.end.offset || c->src[r.begin.offset] != '{' ||
	     c->src[r.end.offset - 1] != '}' ||
	     r.begin.offset < k->range.begin.offset ||
	     r.end.offset != k->range.end.offset))
		fail(c, path,
		     "region: a 'variant' replaces the body of kernel "
		     "'%s' and nothing else",
		     k->name);
	char why[300];
	const char *orig =
	    c->src && r.end.offset <= c->len && r.begin.offset <= r.end.offset
	        ? c->src + r.begin.offset
	        : "";
	size_t olen = *orig ? r.end.offset - r.begin.offset : 0;
	if (kt_plan_body_check(f->body, strlen(f->body), orig, olen, why,
	                       sizeof(why)))
		fail(c, path, "body: %s", why);
}

/* The new code of a warp_reduce or warp_scan: one balanced `{ ... }` that
 * replaces the statement at region, checked as a variant's body is. */
static void check_new_code(ck *c, const char *path, const kt_plan_refactor *f)
{
	kt_range r = f->region;
	char why[300];
	bool in =
	    c->src && r.end.offset <= c->len && r.begin.offset < r.end.offset;
	if (f->nedits)
		fail(c, path, "a '%s' refactor makes no edits",
		     kt_refactor_kind_name(f->kind));
	if (kt_plan_body_check(
	        f->body, strlen(f->body), in ? c->src + r.begin.offset : "",
	        in ? r.end.offset - r.begin.offset : 0, why, sizeof(why)))
		fail(c, path, "body: %s", why);
}

/* fast_div: edits, each one division or remainder of the file (the
 * rewriter checks that against the frontend's) with `with` the
 * parameter's name; the rewriter writes the code, the plan none. */
static void check_fast_div(ck *c, const char *path, const kt_plan_refactor *f)
{
	needs(c, path, f->nedits > 0, "edits", "fast_div");
	if (f->body)
		fail(c, path, "a 'fast_div' refactor has no 'body'");
	for (size_t e = 0; e < f->nedits; e++) {
		const kt_plan_edit *x = &f->edits[e];
		if (!x->text ||
		    (!strchr(x->text, '/') && !strchr(x->text, '%')))
			fail(c, path,
			     "edits[%zu]: a 'fast_div' edit is a division or "
			     "a remainder, not '%.60s'",
			     e, x->text ? x->text : "");
		if (!x->with || !f->param || strcmp(x->with, f->param))
			fail(c, path,
			     "edits[%zu]: a 'fast_div' edit's 'with' is the "
			     "parameter's name '%s'",
			     e, f->param ? f->param : "?");
	}
}

/* Whether range r lies on a `#pragma kt launch` line of the source: the
 * grid of a kernel no code launches (its `launch` is then -1). */
static bool on_launch_pragma(const ck *c, kt_range r)
{
	if (!c->src || r.begin.offset > r.end.offset || r.end.offset > c->len)
		return false;
	size_t b = r.begin.offset;
	while (b > 0 && c->src[b - 1] != '\n')
		b--;
	while (c->src[b] == ' ' || c->src[b] == '\t')
		b++;
	return !strncmp(c->src + b, "#pragma kt launch ", 18) &&
	       !memchr(c->src + b, '\n', r.end.offset - b);
}

static void check_refactor_args(ck *c, const char *path,
                                const kt_plan_refactor *f)
{
	bool launch = f->launch >= 0 || on_launch_pragma(c, f->grid);
	const char *kind = kt_refactor_kind_name(f->kind);
	if (f->kind != KT_REFACTOR_LAUNCH_BOUNDS &&
	    f->kind != KT_REFACTOR_VARIANT &&
	    f->kind != KT_REFACTOR_WARP_PER_ROW &&
	    f->kind != KT_REFACTOR_PAD_SHARED &&
	    f->kind != KT_REFACTOR_FAST_DIV &&
	    f->kind != KT_REFACTOR_THREADS_PER_GROUP &&
	    f->kind != KT_REFACTOR_GROUPS_PER_BLOCK)
		needs(c, path, f->index_var != NULL, "index_var", kind);
	switch (f->kind) {
	case KT_REFACTOR_STRIDE_FOLLOWS_BLOCK:
		needs(c, path, f->nedits > 0, "edits", kind);
		break;
	case KT_REFACTOR_VECTORIZE:
		needs(c, path, f->bound != NULL, "bound", kind);
		needs(c, path, f->elem_type != NULL, "elem_type", kind);
		needs(c, path, f->elem_size > 0, "elem_size", kind);
		needs(c, path, f->narrays > 0, "arrays", kind);
		break;
	case KT_REFACTOR_ITEMS_PER_THREAD:
	case KT_REFACTOR_GRID_STRIDE:
		needs(c, path, f->index_decl.begin.line > 0, "index_decl",
		      kind);
		needs(c, path, f->bound != NULL, "bound", kind);
		needs(c, path, f->grid.begin.line > 0, "grid", kind);
		needs(c, path, launch, "launch", kind);
		break;
	case KT_REFACTOR_ROW_SPLIT:
		needs(c, path, f->grid.begin.line > 0, "grid", kind);
		needs(c, path, launch, "launch", kind);
		break;
	case KT_REFACTOR_HOIST_LOADS: hoist_args(c, path, f); break;
	case KT_REFACTOR_CLUSTER_SPLIT: cluster_args(c, path, f, launch); break;
	case KT_REFACTOR_PACK_STORES: pack_args(c, path, f); break;
	case KT_REFACTOR_LAUNCH_BOUNDS:
		if (needs(c, path, f->max_threads != NULL, "max_threads", kind))
			check_max_threads(c, path, f->max_threads);
		break;
	case KT_REFACTOR_VARIANT:
		if (needs(c, path, f->body != NULL, "body", kind))
			check_variant(c, path, f);
		break;
	case KT_REFACTOR_WARP_REDUCE:
	case KT_REFACTOR_WARP_SCAN:
		if (needs(c, path, f->body != NULL, "body", kind))
			check_new_code(c, path, f);
		break;
	case KT_REFACTOR_FAST_DIV: check_fast_div(c, path, f); break;
	case KT_REFACTOR_THREADS_PER_GROUP:
		needs(c, path, f->nedits > 0, "edits", kind);
		needs(c, path, launch, "launch", kind);
		break;
	case KT_REFACTOR_GROUPS_PER_BLOCK:
		needs(c, path, f->nedits == 1, "edits", kind);
		needs(c, path, f->bound != NULL, "bound", kind);
		needs(c, path, f->elem_type != NULL, "elem_type", kind);
		needs(c, path, launch, "launch", kind);
		if (f->nedits == 1 && (!f->edits[0].with || !f->param ||
		                       strcmp(f->edits[0].with, f->param)))
			fail(c, path,
			     "edits[0]: a 'groups_per_block' edit's 'with' is "
			     "the parameter's name '%s'",
			     f->param ? f->param : "?");
		/* the if-chain form: one local, an `if` statement replaced */
		if (f->index_var &&
		    (!kt_is_ident(f->index_var) || f->nedits != 1 ||
		     !f->edits[0].text || strncmp(f->edits[0].text, "if", 2) ||
		     isalnum((unsigned char)f->edits[0].text[2]) ||
		     f->edits[0].text[2] == '_'))
			fail(c, path,
			     "a 'groups_per_block' with 'index_var' names one "
			     "local ('%s') and replaces an 'if' statement",
			     f->index_var);
		break;
	case KT_REFACTOR_WARP_PER_ROW:
		needs(c, path, f->block.begin.line > 0, "block", kind);
		needs(c, path, launch, "launch", kind);
		if (needs(c, path, f->body != NULL, "body", kind))
			check_variant(c, path, f);
		break;
	default: break;
	}
}

/*
 * A field the rewriter writes into the code (a type, a name, a bound, a
 * subscript's offset): one expression or type, no statement, block,
 * directive, string, line splice or asm, so that a plan cannot carry code
 * past the checks the rewriter makes of what it generates.
 */
static void check_code(ck *c, const char *path, const char *field,
                       const char *s)
{
	if (!s)
		return;
	/* line breaks and comments stay: a subscript the source writes over
	 * two lines, or with a comment in it, is still one expression */
	const char *bad = NULL;
	for (const char *p = s; *p && !bad; p++)
		if (strchr(";{}#\"'\\`@$", *p))
			bad = p;
	bool as = false;
	for (const char *p = strstr(s, "asm"); p && !as;
	     p = strstr(p + 1, "asm"))
		as = (p == s ||
		      !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
		     !(isalnum((unsigned char)p[3]) || p[3] == '_');
	if (bad || as || strlen(s) > 200 || !*s)
		fail(c, path,
		     "%s: '%.60s' is not one expression or type (no ';', "
		     "braces, '#', strings, line splices or asm; at most "
		     "200 characters)",
		     field, s);
}

static void check_refactor(ck *c, size_t i)
{
	const kt_plan_refactor *f = &c->p->refactors[i];
	char *path = pathf(c, "refactors[%zu]", i);
	char *sub = pathf(c, "%s.kernel", path);
	const kt_plan_kernel *k = check_kernel_ref(c, sub, f->kernel);
	kt_free(sub);
	sub = pathf(c, "%s.param", path);
	if (f->param && !is_param(c, f->param, strlen(f->param)))
		fail(c, sub, "no parameter '%s' in params", f->param);
	kt_free(sub);
	sub = pathf(c, "%s.region", path);
	check_range(c, sub, f->region, NULL);
	kt_free(sub);
	for (size_t e = 0; e < f->nedits; e++) {
		char *ep = pathf(c, "%s.edits[%zu].range", path, e);
		check_range(c, ep, f->edits[e].range, f->edits[e].text);
		add_edit(c, f->edits[e].range, ep);
		char *wpath = pathf(c, "%s.edits[%zu].with", path, e);
		check_with(c, wpath, f->edits[e].with, f->param);
		kt_free(wpath);
	}
	if (f->index_decl.begin.line > 0) {
		sub = pathf(c, "%s.index_decl", path);
		check_range(c, sub, f->index_decl, NULL);
		kt_free(sub);
	}
	if (f->grid.begin.line > 0) {
		sub = pathf(c, "%s.grid", path);
		check_range(c, sub, f->grid, NULL);
		kt_free(sub);
	}
	if (f->block.begin.line > 0) {
		sub = pathf(c, "%s.block", path);
		/* a cluster split's `block` is the kernel's name */
		check_range(c, sub, f->block,
		            f->kind == KT_REFACTOR_CLUSTER_SPLIT ? f->kernel
		                                                 : NULL);
		kt_free(sub);
	}
	if (f->launch >= 0 && k && (size_t)f->launch >= k->nlaunches)
		fail(c, path, "launch %d does not exist (kernel '%s' has %zu)",
		     f->launch, k->name, k->nlaunches);
	check_refactor_args(c, path, f);
	check_code(c, path, "index_var", f->index_var);
	check_code(c, path, "bound", f->bound);
	check_code(c, path, "elem_type", f->elem_type);
	check_code(c, path, "max_threads", f->max_threads);
	for (size_t a = 0; a < f->narrays; a++) {
		sub = pathf(c, "%s.arrays[%zu]", path, a);
		check_code(c, sub, "name", f->arrays[a].name);
		check_code(c, sub, "offset", f->arrays[a].offset);
		check_code(c, sub, "type", f->arrays[a].type);
		kt_free(sub);
	}
	kt_free(path);
}

/* ------------------------------------------------------------ overlaps */

static int cmp_edit(const void *a, const void *b)
{
	const edit_ref *x = a, *y = b;
	if (x->range.begin.offset != y->range.begin.offset)
		return x->range.begin.offset < y->range.begin.offset ? -1 : 1;
	return x->range.end.offset < y->range.end.offset
	           ? -1
	           : x->range.end.offset > y->range.end.offset;
}

static bool overlap(kt_range a, kt_range b)
{
	return a.begin.offset < b.end.offset && b.begin.offset < a.end.offset;
}

static bool inside(kt_range in, kt_range out)
{
	return in.begin.offset >= out.begin.offset &&
	       in.end.offset <= out.end.offset;
}

static void check_overlaps(ck *c)
{
	if (c->edits.len > 1)
		qsort(c->edits.items, c->edits.len, sizeof(edit_ref), cmp_edit);
	for (size_t i = 1; i < c->edits.len; i++) {
		const edit_ref *a = &c->edits.items[i - 1],
		               *b = &c->edits.items[i];
		if (overlap(a->range, b->range) ||
		    (a->range.begin.offset == b->range.begin.offset &&
		     a->range.end.offset == b->range.end.offset))
			fail(c, b->path, "overlaps %s", a->path);
	}
	const kt_plan *p = c->p;
	for (size_t i = 0; i < p->nrefactors; i++) {
		kt_range r = p->refactors[i].region;
		for (size_t e = 0; e < c->edits.len; e++)
			if (overlap(r, c->edits.items[e].range) &&
			    !inside(c->edits.items[e].range, r))
				fail(c, c->edits.items[e].path,
				     "partly overlaps refactors[%zu].region",
				     i);
		for (size_t j = 0; j < i; j++) {
			kt_range q = p->refactors[j].region;
			if (overlap(r, q) && !inside(r, q) && !inside(q, r)) {
				char *path =
				    pathf(c, "refactors[%zu].region", i);
				fail(c, path,
				     "partly overlaps refactors[%zu].region",
				     j);
				kt_free(path);
			}
		}
	}
}

/* ------------------------------------------------- pragmas, needs, rest */

/* `problem NAME ...` and `set NAME = ...` declare names constraints may use. */
static void collect_problem(ck *c, const char *line)
{
	size_t skip = !strncmp(line, "problem ", 8) ? 8
	              : !strncmp(line, "set ", 4)   ? 4
	                                            : 0;
	if (!skip)
		return;
	const char *b = line + skip + strspn(line + skip, " \t"), *s = b;
	while (isalnum((unsigned char)*s) || *s == '_')
		s++;
	name_ref n = {b, (size_t)(s - b)};
	if (n.len && kt_vec_push(&c->problems, n))
		c->oom = 1;
}

static void check_pragma(ck *c, size_t i)
{
	static const char *const words[] = {"launch", "arg",        "problem",
	                                    "set",    "verify",     "objective",
	                                    "kernel", "constraint", NULL};
	const kt_plan_pragma *g = &c->p->pragmas[i];
	char *path = pathf(c, "pragmas[%zu]", i);
	check_kernel_ref(c, path, g->kernel);
	const char *line = g->line ? g->line : "";
	size_t n = strcspn(line, " \t(");
	bool ok = false;
	for (const char *const *w = words; *w && !ok; w++)
		ok = strlen(*w) == n && !strncmp(*w, line, n);
	if (!ok)
		fail(c, path,
		     "'%.*s' is not a pragma this plan may add "
		     "(launch, arg, problem, set, verify, objective, "
		     "kernel, constraint)",
		     (int)n, line);
	if (strchr(line, '\n'))
		fail(c, path, "a pragma line has no newline");
	kt_free(path);
}

static void check_rest(ck *c)
{
	const kt_plan *p = c->p;
	for (size_t i = 0; i < p->nkernels; i++) {
		char *path = pathf(c, "kernels[%zu]", i);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(p->kernels[j].name, p->kernels[i].name))
				fail(c, path, "kernel '%s' listed twice",
				     p->kernels[i].name);
		char *rp = pathf(c, "%s.range", path);
		check_range(c, rp, p->kernels[i].range, NULL);
		kt_free(rp);
		for (size_t l = 0; l < p->kernels[i].nlaunches; l++) {
			rp = pathf(c, "%s.launches[%zu]", path, l);
			check_range(c, rp, p->kernels[i].launches[l], NULL);
			kt_free(rp);
		}
		kt_free(path);
	}
	for (size_t i = 0; i < p->nneeds; i++) {
		char *path = pathf(c, "needs[%zu]", i);
		check_kernel_ref(c, path, p->needs[i].kernel);
		char *rp = pathf(c, "%s.range", path);
		check_range(c, rp, p->needs[i].range, NULL);
		kt_free(rp);
		kt_free(path);
	}
	for (size_t i = 0; i < p->nrejected; i++) {
		char *path = pathf(c, "rejected[%zu].range", i);
		check_range(c, path, p->rejected[i].range, p->rejected[i].text);
		kt_free(path);
		if (p->rejected[i].kernel) {
			path = pathf(c, "rejected[%zu].kernel", i);
			check_kernel_ref(c, path, p->rejected[i].kernel);
			kt_free(path);
		}
	}
}

static void check_file(ck *c)
{
	const kt_plan *p = c->p;
	if (!c->src)
		return;
	if (p->size != c->len)
		fail(c, "file.size",
		     "the plan is for %zu bytes, '%s' has %zu: "
		     "the plan is stale",
		     p->size, p->path, c->len);
	else if (p->hash != kt_plan_hash(c->src, c->len))
		fail(c, "file.hash",
		     "the content of '%s' differs from the one "
		     "the plan was made for: the plan is stale",
		     p->path);
}

int kt_plan_validate(const kt_plan *p, const char *name, const char *src,
                     size_t src_len, kt_diags *diags)
{
	ck c = {.p = p,
	        .d = diags,
	        .name = name ? name : "plan",
	        .src = src,
	        .len = src_len};
	if (p->version != KT_PLAN_VERSION)
		fail(&c, "ktc_plan", "unsupported plan version %d", p->version);
	if (src && build_lines(&c))
		c.oom = 1;
	check_file(&c);
	for (size_t i = 0; i < p->npragmas; i++)
		collect_problem(&c,
		                p->pragmas[i].line ? p->pragmas[i].line : "");
	for (size_t i = 0; i < p->nneeds; i++)
		if (p->needs[i].suggest && p->needs[i].what &&
		    !strcmp(p->needs[i].what, "problem_values"))
			collect_problem(&c, p->needs[i].suggest);
	sort_names(&c);
	check_rest(&c);
	for (size_t i = 0; i < p->nparams; i++)
		check_param(&c, i);
	for (size_t i = 0; i < p->nrefactors; i++)
		check_refactor(&c, i);
	for (size_t i = 0; i < p->npragmas; i++)
		check_pragma(&c, i);
	check_overlaps(&c);
	for (size_t i = 0; i < c.edits.len; i++)
		kt_free(c.edits.items[i].path);
	kt_vec_release(&c.edits);
	kt_vec_release(&c.lines);
	kt_vec_release(&c.problems);
	kt_vec_release(&c.params);
	if (c.errors > MAX_ERRORS &&
	    kt_diags_add(diags, KT_DIAG_ERROR, c.name, NULL, 0, 0, 0,
	                 "and %d more errors", c.errors - MAX_ERRORS))
		c.oom = 1;
	if (c.oom)
		return kt_error(KT_ENOMEM, "out of memory");
	if (c.errors)
		return kt_error(KT_EPARSE, "invalid plan '%s'", c.name);
	return KT_OK;
}
