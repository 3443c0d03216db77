/*
 * gen.c - turns an edit plan into the text of the annotated file: the
 * literal uses become parameter names, each parameter is declared with its
 * default, host code is kept out of NVRTC's way, refactors generate their
 * code, and a `#pragma kt` block stands before each kernel.
 *
 * Design choice: the generator only ever produces kt_edits on byte ranges
 * of the original that the plan (or the frontend's AST) named; it never
 * searches the source. Units (a parameter with the refactors that use it)
 * can be switched off one by one, so the driver can generate the file with
 * any subset of the plan when it isolates a failing edit. A refactor that
 * repeats a region (an `if constexpr` with the original kept as the default
 * branch) first applies the edits inside that region to a copy of it, then
 * replaces the region as a whole.
 */
#include "rewriter/rewriter.h"

#include "ktc/common.h"
#include "util/arena.h"
#include "util/vec.h"

#include <ctype.h>
#include <inttypes.h>
#include <string.h>

typedef KT_VEC(kt_edit) edit_vec;

typedef struct gen {
	const kt_plan *p;
	const kt_rewrite_file *f;
	const kt_rw_select *sel;
	kt_arena *arena;
	edit_vec edits;
	kt_diags *diags;
	bool failed; /* a unit's edits do not fit; sel->bad says which */
} gen;

/* ---- positions in the original text ---- */

size_t kt_rw_line_start(const char *t, size_t off)
{
	while (off > 0 && t[off - 1] != '\n')
		off--;
	return off;
}

/* The offset just past the newline that ends the line holding off. */
size_t kt_rw_line_next(const char *t, size_t len, size_t off)
{
	while (off < len && t[off] != '\n')
		off++;
	return off < len ? off + 1 : len;
}

/* Like line_next, but follows backslash-newline continuations. */
static size_t directive_next(const char *t, size_t len, size_t off)
{
	for (;;) {
		size_t nl = kt_rw_line_next(t, len, off);
		size_t e = nl;
		if (e > 0 && t[e - 1] == '\n')
			e--;
		if (e > 0 && t[e - 1] == '\r')
			e--;
		if (nl >= len || e == 0 || t[e - 1] != '\\')
			return nl;
		off = nl;
	}
}

/* The first line of the directive whose line holds off. */
static size_t directive_start(const char *t, size_t off)
{
	size_t s = kt_rw_line_start(t, off);
	while (s >= 2 && t[s - 1] == '\n' && t[s - 2] == '\\')
		s = kt_rw_line_start(t, s - 1);
	return s;
}

static bool only_space(const char *t, size_t a, size_t b)
{
	for (size_t i = a; i < b; i++)
		if (!isspace((unsigned char)t[i]))
			return false;
	return true;
}

/* ---- edits ---- */

static int add_edit(gen *g, size_t begin, size_t end, const char *text, int tag)
{
	kt_edit e = {begin, end, text, tag};
	return kt_vec_push(&g->edits, e);
}

static int insert(gen *g, size_t at, const char *text, int tag)
{
	return add_edit(g, at, at, text, tag);
}

static char *dup(gen *g, const char *s)
{
	return kt_arena_strdup(g->arena, s);
}

/* ---- host code out of NVRTC's way ---- */

/* Headers NVRTC finds by itself or on the CUDA include path. */
static bool rtc_safe(const kt_rewrite_include *inc)
{
	static const char *const safe[] = {"cuda_runtime.h",
	                                   "cuda_fp16.h",
	                                   "cuda_bf16.h",
	                                   "cuda_fp8.h",
	                                   "cuda_fp6.h",
	                                   "cuda_fp4.h",
	                                   "mma.h",
	                                   "cooperative_groups.h",
	                                   "cuda_pipeline.h",
	                                   "cuda_pipeline_primitives.h",
	                                   "cuda_awbarrier.h",
	                                   "cuda_awbarrier_primitives.h",
	                                   "vector_types.h",
	                                   "vector_functions.h",
	                                   "device_launch_parameters.h"};
	if (!inc->angled)
		return true; /* the kernel's own headers: NVRTC must see them */
	for (size_t i = 0; i < sizeof(safe) / sizeof(safe[0]); i++)
		if (!strcmp(inc->spelled, safe[i]))
			return true;
	return !strncmp(inc->spelled, "cuda/", 5) ||
	       !strncmp(inc->spelled, "cooperative_groups/", 19) ||
	       !strncmp(inc->spelled, "cub/", 4);
}

/* What NVRTC gets instead of a C header whose names device code uses. */
static const char *rtc_else(const char *h)
{
	static const char *const map[][2] = {
	    {"cstdint", "#include <cuda/std/cstdint>\n"},
	    {"stdint.h", "#include <cuda/std/cstdint>\n"},
	    {"cstddef", "#include <cuda/std/cstddef>\n"},
	    {"stddef.h", "#include <cuda/std/cstddef>\n"},
	    {"climits", "#include <cuda/std/climits>\n"},
	    {"limits.h", "#include <cuda/std/climits>\n"},
	    {"cfloat", "#define FLT_MAX 3.402823466e+38F\n"
	               "#define FLT_MIN 1.175494351e-38F\n"
	               "#define FLT_EPSILON 1.192092896e-07F\n"
	               "#define DBL_MAX 1.7976931348623158e+308\n"},
	    {"float.h", "#define FLT_MAX 3.402823466e+38F\n"
	                "#define FLT_MIN 1.175494351e-38F\n"
	                "#define FLT_EPSILON 1.192092896e-07F\n"
	                "#define DBL_MAX 1.7976931348623158e+308\n"},
	};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(h, map[i][0]))
			return map[i][1];
	return NULL;
}

static int guard_includes(gen *g)
{
	const kt_rewrite_file *f = g->f;
	for (size_t i = 0; i < f->nincludes; i++) {
		if (rtc_safe(&f->includes[i]))
			continue;
		size_t j = i;
		while (j + 1 < f->nincludes && !rtc_safe(&f->includes[j + 1]) &&
		       only_space(f->text, f->includes[j].range.end.offset,
		                  f->includes[j + 1].range.begin.offset))
			j++;
		kt_str alt = KT_STR_INIT;
		int rc = 0;
		for (size_t k = i; k <= j && !rc; k++) {
			const char *e = rtc_else(f->includes[k].spelled);
			if (e && !strstr(alt.ptr, e))
				rc = kt_str_adds(&alt, e);
		}
		char *close =
		    kt_arena_printf(g->arena, "%s%s#endif\n",
		                    alt.len ? "#else\n" : "", alt.ptr);
		kt_str_release(&alt);
		size_t open = kt_rw_line_start(
		    f->text, f->includes[i].range.begin.offset);
		size_t end = directive_next(f->text, f->len,
		                            f->includes[j].range.begin.offset);
		if (rc || !close ||
		    insert(g, open, "#ifndef __CUDACC_RTC__\n", -1) ||
		    insert(g, end, close, -1))
			return KT_ENOMEM;
		i = j;
	}
	return 0;
}

static int guard_host_decls(gen *g)
{
	const kt_rewrite_file *f = g->f;
	for (size_t i = 0; i < f->ndecls; i++) {
		if (!f->decls[i].host_only)
			continue;
		size_t j = i;
		while (j + 1 < f->ndecls && f->decls[j + 1].host_only &&
		       only_space(
		           f->text, f->decls[j].range.end.offset,
		           kt_rw_line_start(
		               f->text, f->decls[j + 1].range.begin.offset)))
			j++;
		size_t b = f->decls[i].range.begin.offset;
		size_t e = f->decls[j].range.end.offset;
		size_t ls = kt_rw_line_start(f->text, b);
		int rc = only_space(f->text, ls, b)
		             ? insert(g, ls, "#ifndef __CUDACC_RTC__\n", -1)
		             : insert(g, b, "\n#ifndef __CUDACC_RTC__\n", -1);
		size_t next =
		    kt_rw_line_next(f->text, f->len, e > b ? e - 1 : e);
		if (!rc)
			rc = only_space(f->text, e, next)
			         ? insert(g, next,
			                  next == f->len &&
			                          (f->len == 0 ||
			                           f->text[f->len - 1] != '\n')
			                      ? "\n#endif\n"
			                      : "#endif\n",
			                  -1)
			         : insert(g, e, "\n#endif\n", -1);
		if (rc)
			return rc;
		i = j;
	}
	return 0;
}

/* ---- parameters ---- */

static const kt_plan_use *macro_use(const kt_plan_param *pp)
{
	for (size_t u = 0; u < pp->nuses; u++)
		if (pp->uses[u].site == KT_SITE_MACRO)
			return &pp->uses[u];
	return NULL;
}

static bool has_unroll(const kt_plan_param *pp)
{
	for (size_t u = 0; u < pp->nuses; u++)
		if (pp->uses[u].site == KT_SITE_PRAGMA_UNROLL)
			return true;
	return false;
}

static void unit_error(gen *g, size_t i, kt_range r, const char *fmt,
                       const char *a, const char *b)
{
	kt_diags_add(g->diags, KT_DIAG_WARNING, g->f->path, g->f->text,
	             r.begin.line, r.begin.col,
	             (int)(r.end.offset - r.begin.offset), fmt, a, b);
	g->sel->bad[i] = true;
	g->failed = true;
}

/* The name `#define NAME` at the directive holding off defines, or NULL. */
static char *defined_name(gen *g, size_t off)
{
	const char *t = g->f->text;
	size_t p = directive_start(t, off);
	while (t[p] == ' ' || t[p] == '\t')
		p++;
	if (t[p++] != '#')
		return NULL;
	while (t[p] == ' ' || t[p] == '\t')
		p++;
	if (strncmp(t + p, "define", 6))
		return NULL;
	p += 6;
	while (t[p] == ' ' || t[p] == '\t')
		p++;
	size_t n = 0;
	while (isalnum((unsigned char)t[p + n]) || t[p + n] == '_')
		n++;
	return n ? kt_arena_strndup(g->arena, t + p, n) : NULL;
}

/* `#define NAME VALUE` becomes `#ifndef NAME` / the define / `#endif`. */
static int guard_macro(gen *g, size_t i, const kt_plan_use *u)
{
	const kt_plan_param *pp = &g->p->params[i];
	char *name = defined_name(g, u->range.begin.offset);
	if (!name || strcmp(name, pp->name)) {
		unit_error(g, i, u->range,
		           "parameter '%s': the literal is not the value of "
		           "'#define %s'",
		           pp->name, pp->name);
		return 0;
	}
	size_t s = directive_start(g->f->text, u->range.begin.offset);
	size_t e = directive_next(g->f->text, g->f->len, u->range.begin.offset);
	char *open = kt_arena_printf(g->arena, "#ifndef %s\n", pp->name);
	char *close = has_unroll(pp) ? kt_arena_printf(g->arena,
	                                               "#endif\nconstexpr int "
	                                               "kt_unroll_%s = %s;\n",
	                                               pp->name, pp->name)
	                             : dup(g, "#endif\n");
	if (!open || !close || insert(g, s, open, (int)i) ||
	    insert(g, e, close, (int)i))
		return KT_ENOMEM;
	return 0;
}

static int replace_uses(gen *g, size_t i)
{
	const kt_plan_param *pp = &g->p->params[i];
	for (size_t k = 0; k < pp->nuses; k++) {
		const kt_plan_use *u = &pp->uses[k];
		const char *with = u->with;
		if (u->site == KT_SITE_MACRO) {
			if (guard_macro(g, i, u))
				return KT_ENOMEM;
			continue;
		}
		if (u->site == KT_SITE_PRAGMA_UNROLL)
			with =
			    kt_arena_printf(g->arena, "kt_unroll_%s", pp->name);
		if (!with) {
			unit_error(g, i, u->range,
			           "parameter '%s': a use at site '%s' has no "
			           "replacement",
			           pp->name, kt_site_name(u->site));
			continue;
		}
		if (add_edit(g, u->range.begin.offset, u->range.end.offset,
		             with, (int)i))
			return KT_ENOMEM;
	}
	return 0;
}

/* The declarations of the parameters that are not macros of the file. */
static int param_block(gen *g, kt_str *s)
{
	int rc = 0;
	for (size_t i = 0; i < g->p->nparams && !rc; i++) {
		const kt_plan_param *pp = &g->p->params[i];
		if (!g->sel->on[i] || macro_use(pp))
			continue;
		rc = kt_str_addf(s,
		                 "#ifndef %s\n#define %s %" PRId64 "\n#endif\n",
		                 pp->name, pp->name, pp->def);
		if (!rc && has_unroll(pp))
			rc =
			    kt_str_addf(s, "constexpr int kt_unroll_%s = %s;\n",
			                pp->name, pp->name);
	}
	return rc;
}

static bool use_first(const kt_plan_param *pp, size_t *first)
{
	bool any = false;
	for (size_t u = 0; u < pp->nuses; u++)
		if (pp->uses[u].site != KT_SITE_MACRO &&
		    pp->uses[u].range.begin.offset < *first) {
			*first = pp->uses[u].range.begin.offset;
			any = true;
		}
	return any;
}

/*
 * Where the parameter block goes: after the last #include before the first
 * use, else at the start of the declaration holding the first use.
 */
static size_t block_place(gen *g, size_t first, bool *after_include)
{
	const kt_rewrite_file *f = g->f;
	size_t at = SIZE_MAX;
	for (size_t i = 0; i < f->nincludes; i++)
		if (f->includes[i].range.end.offset <= first)
			at = directive_next(f->text, f->len,
			                    f->includes[i].range.begin.offset);
	*after_include = at != SIZE_MAX;
	if (at != SIZE_MAX)
		return at;
	for (size_t i = 0; i < f->ndecls; i++)
		if (f->decls[i].range.begin.offset <= first &&
		    first < f->decls[i].range.end.offset)
			return kt_rw_line_start(f->text,
			                        f->decls[i].range.begin.offset);
	return kt_rw_line_start(f->text, first);
}

static int declare_params(gen *g, const char *helpers)
{
	size_t first = SIZE_MAX;
	for (size_t i = 0; i < g->p->nparams; i++)
		if (g->sel->on[i])
			use_first(&g->p->params[i], &first);
	for (size_t k = 0; k < g->p->nkernels; k++)
		if (g->p->kernels[k].range.begin.offset < first)
			first = g->p->kernels[k].range.begin.offset;
	kt_str s = KT_STR_INIT;
	int rc = param_block(g, &s);
	if (!rc && helpers)
		rc = kt_str_adds(&s, helpers);
	if (rc || s.len == 0 || first == SIZE_MAX) {
		kt_str_release(&s);
		return rc;
	}
	bool after_include;
	size_t at = block_place(g, first, &after_include);
	char *text = after_include ? kt_arena_printf(g->arena, "\n%s", s.ptr)
	                           : kt_arena_printf(g->arena, "%s\n", s.ptr);
	kt_str_release(&s);
	return text ? insert(g, at, text, -1) : KT_ENOMEM;
}

/* ---- refactors ---- */

/* Copies text[b, e) with the collected edits inside it applied, leaving
 * out those inside skip (when skip_e > skip_b); used edits get tag -2. */
static char *sub_apply(gen *g, size_t b, size_t e, size_t skip_b, size_t skip_e,
                       const kt_edit *extra, size_t nextra)
{
	edit_vec in = {0};
	kt_str out = KT_STR_INIT;
	char *res = NULL;
	for (size_t i = 0; i < g->edits.len; i++) {
		kt_edit x = g->edits.items[i];
		if (x.tag == -2 || x.begin < b || x.end > e ||
		    (x.begin == x.end && (x.begin == b || x.begin == e)))
			continue;
		if (skip_e > skip_b && x.begin >= skip_b && x.end <= skip_e)
			continue;
		x.begin -= b, x.end -= b;
		if (kt_vec_push(&in, x))
			goto done;
	}
	for (size_t i = 0; i < nextra; i++) {
		kt_edit x = extra[i];
		x.begin -= b, x.end -= b;
		if (kt_vec_push(&in, x))
			goto done;
	}
	if (kt_edit_apply(&out, g->f->text + b, e - b, in.items, in.len, NULL))
		goto done;
	res = kt_arena_strdup(g->arena, out.ptr);
done:
	kt_vec_release(&in);
	kt_str_release(&out);
	return res;
}

/* Marks the collected edits inside [b, e) as used by a region rewrite. */
static void consume(gen *g, size_t b, size_t e)
{
	for (size_t i = 0; i < g->edits.len; i++) {
		kt_edit *x = &g->edits.items[i];
		if (x->begin >= b && x->end <= e &&
		    !(x->begin == x->end && (x->begin == b || x->begin == e)))
			x->tag = -2;
	}
}

/* Offset of the '=' of `T var = init;` inside the declaration, or 0. */
static size_t init_equals(gen *g, kt_range decl, const char *var)
{
	const char *t = g->f->text;
	size_t n = strlen(var);
	for (size_t p = decl.begin.offset; p + n < decl.end.offset; p++) {
		bool word =
		    !strncmp(t + p, var, n) &&
		    (p == 0 ||
		     !(isalnum((unsigned char)t[p - 1]) || t[p - 1] == '_')) &&
		    !(isalnum((unsigned char)t[p + n]) || t[p + n] == '_');
		if (!word)
			continue;
		for (size_t q = p + n; q < decl.end.offset; q++)
			if (t[q] == '=' && t[q + 1] != '=')
				return q;
		return 0;
	}
	return 0;
}

/* One more tab on each line of [b, e) that a new loop now holds; the
 * preprocessor's lines stay where they are. */
static int indent(gen *g, size_t i, size_t b, size_t e)
{
	const char *t = g->f->text;
	for (size_t at = kt_rw_line_next(t, g->f->len, b); at < e;
	     at = kt_rw_line_next(t, g->f->len, at)) {
		size_t p = at;
		while (t[p] == ' ' || t[p] == '\t')
			p++;
		if (t[p] != '#' && t[p] != '\n' && p < e &&
		    insert(g, at, "\t", (int)i))
			return KT_ENOMEM;
	}
	return 0;
}

/* Checks what items_per_thread and grid_stride need of the file. */
static bool shape_ok(gen *g, size_t i, const kt_plan_refactor *r, size_t *eq)
{
	const char *t = g->f->text;
	kt_range body = r->region, d = r->index_decl;
	if (t[body.begin.offset] != '{' || t[body.end.offset - 1] != '}') {
		unit_error(g, i, body,
		           "refactor '%s' of '%s': the region is not the "
		           "kernel's body",
		           kt_refactor_kind_name(r->kind), r->kernel);
		return false;
	}
	*eq = r->index_var ? init_equals(g, d, r->index_var) : 0;
	if (!*eq || t[d.end.offset - 1] != ';' ||
	    d.begin.offset <= body.begin.offset ||
	    d.end.offset >= body.end.offset) {
		unit_error(g, i, d,
		           "refactor '%s': index_decl is not a declaration "
		           "'T %s = ...;' in the kernel's body",
		           kt_refactor_kind_name(r->kind),
		           r->index_var ? r->index_var : "?");
		return false;
	}
	return true;
}

/*
 * (c1) each thread handles NAME elements a grid's width apart, so the
 * grid shrinks by NAME; at NAME = 1 this is the original kernel.
 */
static int items_per_thread(gen *g, size_t i, const kt_plan_refactor *r)
{
	const char *name = g->p->params[i].name;
	const char *t = g->f->text;
	size_t eq;
	if (!shape_ok(g, i, r, &eq))
		return 0;
	kt_range body = r->region, d = r->index_decl;
	size_t init = eq + 1;
	while (t[init] == ' ' || t[init] == '\t')
		init++;
	char *loop =
	    kt_arena_printf(g->arena,
	                    "\n#pragma unroll\n\tfor (int kt_item = 0; "
	                    "kt_item < %s; kt_item++) {",
	                    name);
	char *grid = kt_arena_printf(g->arena, ") + %s - 1) / %s)", name, name);
	if (!loop || !grid || insert(g, body.begin.offset + 1, loop, (int)i) ||
	    insert(g, init, "(", (int)i) ||
	    add_edit(g, d.end.offset - 1, d.end.offset,
	             ") + kt_item * gridDim.x * blockDim.x;", (int)i) ||
	    indent(g, i, body.begin.offset + 1, body.end.offset - 1) ||
	    insert(g, body.end.offset - 1, "\t}\n", (int)i) ||
	    insert(g, r->grid.begin.offset, "(((", (int)i) ||
	    insert(g, r->grid.end.offset, grid, (int)i))
		return KT_ENOMEM;
	return 0;
}

/*
 * (c2) a grid-stride loop; the grid parameter's default 0 keeps the
 * original grid and, through `if constexpr`, the original body.
 */
static int grid_stride(gen *g, size_t i, const kt_plan_refactor *r)
{
	const char *name = g->p->params[i].name;
	const char *t = g->f->text;
	size_t eq;
	if (!shape_ok(g, i, r, &eq))
		return 0;
	kt_range body = r->region, d = r->index_decl;
	size_t db = d.begin.offset, de = d.end.offset;
	if (!strncmp(t + db, "const", 5) && isspace((unsigned char)t[db + 5]))
		db += 6; /* the loop changes the index */
	char *decl = sub_apply(g, db, de, 0, 0, NULL, 0);
	kt_edit drop = {d.begin.offset, d.end.offset, "", (int)i};
	char *loop_body = sub_apply(g, body.begin.offset, body.end.offset,
	                            d.begin.offset, d.end.offset, &drop, 1);
	char *orig =
	    sub_apply(g, body.begin.offset, body.end.offset, 0, 0, NULL, 0);
	if (!decl || !loop_body || !orig)
		return KT_ENOMEM;
	char *text = kt_arena_printf(
	    g->arena,
	    "{\n\tif constexpr (%s > 0) {\n\tfor (%s %s < (%s); %s += "
	    "gridDim.x * blockDim.x) %s\n\t} else %s\n}",
	    name, decl, r->index_var, r->bound ? r->bound : "?", r->index_var,
	    loop_body, orig);
	char *open = kt_arena_printf(g->arena, "(%s > 0 ? %s : (", name, name);
	if (!text || !open)
		return KT_ENOMEM;
	consume(g, body.begin.offset, body.end.offset);
	if (add_edit(g, body.begin.offset, body.end.offset, text, (int)i) ||
	    insert(g, r->grid.begin.offset, open, (int)i) ||
	    insert(g, r->grid.end.offset, "))", (int)i))
		return KT_ENOMEM;
	return 0;
}

static int plain_edits(gen *g, size_t i, const kt_plan_refactor *r)
{
	for (size_t k = 0; k < r->nedits; k++)
		if (add_edit(g, r->edits[k].range.begin.offset,
		             r->edits[k].range.end.offset, r->edits[k].with,
		             (int)i))
			return KT_ENOMEM;
	return 0;
}

static int refactor(gen *g, const kt_plan_refactor *r, bool composite)
{
	size_t i = 0;
	while (i < g->p->nparams && strcmp(g->p->params[i].name, r->param))
		i++;
	if (i == g->p->nparams || !g->sel->on[i])
		return 0;
	bool c = r->kind == KT_REFACTOR_GRID_STRIDE ||
	         r->kind == KT_REFACTOR_VECTORIZE;
	if (c != composite)
		return 0;
	switch (r->kind) {
	case KT_REFACTOR_STRIDE_FOLLOWS_BLOCK: return plain_edits(g, i, r);
	case KT_REFACTOR_ITEMS_PER_THREAD: {
		int rc = plain_edits(g, i, r);
		return rc ? rc : items_per_thread(g, i, r);
	}
	case KT_REFACTOR_GRID_STRIDE: {
		int rc = plain_edits(g, i, r);
		return rc ? rc : grid_stride(g, i, r);
	}
	default:
		unit_error(g, i, r->region,
		           "refactor '%s' of '%s' is not supported by this "
		           "rewriter",
		           kt_refactor_kind_name(r->kind), r->kernel);
		return 0;
	}
}

/* ---- the #pragma kt block before each kernel ---- */

/* A pragma or constraint with switched-off parameters at their default. */
static char *subst_off(gen *g, const char *s)
{
	kt_str out = KT_STR_INIT;
	for (const char *p = s; *p;) {
		size_t n = 0;
		if (isalpha((unsigned char)*p) || *p == '_')
			while (isalnum((unsigned char)p[n]) || p[n] == '_')
				n++;
		if (!n) {
			kt_str_addc(&out, *p++);
			continue;
		}
		size_t i = 0;
		for (; i < g->p->nparams; i++)
			if (!g->sel->on[i] &&
			    strlen(g->p->params[i].name) == n &&
			    !strncmp(g->p->params[i].name, p, n))
				break;
		if (i < g->p->nparams)
			kt_str_addf(&out, "%" PRId64, g->p->params[i].def);
		else
			kt_str_add(&out, p, n);
		p += n;
	}
	char *r = kt_arena_strdup(g->arena, out.ptr);
	kt_str_release(&out);
	return r;
}

static int param_lines(gen *g, kt_str *s, const char *kernel)
{
	int rc = 0;
	for (size_t i = 0; i < g->p->nparams && !rc; i++) {
		const kt_plan_param *pp = &g->p->params[i];
		if (!g->sel->on[i] || strcmp(pp->kernel, kernel))
			continue;
		const int64_t *v = g->sel->values && g->sel->values[i]
		                       ? g->sel->values[i]
		                       : pp->values;
		size_t nv = g->sel->values && g->sel->values[i]
		                ? g->sel->nvalues[i]
		                : pp->nvalues;
		rc = kt_str_addf(s, "#pragma kt param %s values(", pp->name);
		for (size_t k = 0; k < nv && !rc; k++)
			rc = kt_str_addf(s, "%s%" PRId64, k ? ", " : "", v[k]);
		if (!rc)
			rc =
			    kt_str_addf(s, ") default(%" PRId64 ")\n", pp->def);
		for (size_t k = 0; k < pp->nconstraints && !rc; k++) {
			char *c = subst_off(g, pp->constraints[k]);
			rc = c ? kt_str_addf(s, "#pragma kt constraint %s\n", c)
			       : KT_ENOMEM;
		}
	}
	return rc;
}

static int other_lines(gen *g, kt_str *s, const char *kernel)
{
	int rc = 0;
	for (size_t i = 0; i < g->p->npragmas && !rc; i++) {
		if (strcmp(g->p->pragmas[i].kernel, kernel))
			continue;
		char *l = subst_off(g, g->p->pragmas[i].line);
		rc = l ? kt_str_addf(s, "#pragma kt %s\n", l) : KT_ENOMEM;
	}
	for (size_t i = 0; i < g->p->nneeds && !rc; i++) {
		const kt_plan_need *n = &g->p->needs[i];
		if (strcmp(n->kernel, kernel) || !n->suggest)
			continue;
		rc = kt_str_addf(s, KT_RW_TODO "%s\n", n->suggest);
	}
	return rc;
}

/* The kernel's first line: a template head or attributes come first. */
static size_t kernel_start(gen *g, const kt_plan_kernel *k)
{
	size_t b = k->range.begin.offset;
	for (size_t i = 0; i < g->f->ndecls; i++) {
		const kt_range *r = &g->f->decls[i].range;
		if (r->begin.offset < b && b < r->end.offset)
			b = r->begin.offset;
	}
	return kt_rw_line_start(g->f->text, b);
}

static int pragma_blocks(gen *g)
{
	for (size_t k = 0; k < g->p->nkernels; k++) {
		const kt_plan_kernel *kk = &g->p->kernels[k];
		kt_str s = KT_STR_INIT;
		int rc = param_lines(g, &s, kk->name);
		if (!rc)
			rc = other_lines(g, &s, kk->name);
		char *text =
		    !rc && s.len ? kt_arena_strdup(g->arena, s.ptr) : NULL;
		kt_str_release(&s);
		if (rc)
			return rc;
		if (text && insert(g, kernel_start(g, kk), text, -1))
			return KT_ENOMEM;
	}
	return 0;
}

/* ---- the whole file ---- */

static int collect_units(gen *g)
{
	int rc = 0;
	for (size_t i = 0; i < g->p->nparams && !rc; i++)
		if (g->sel->on[i])
			rc = replace_uses(g, i);
	for (size_t r = 0; r < g->p->nrefactors && !rc; r++)
		rc = refactor(g, &g->p->refactors[r], false);
	for (size_t r = 0; r < g->p->nrefactors && !rc; r++)
		rc = refactor(g, &g->p->refactors[r], true);
	return rc;
}

int kt_rw_generate(kt_str *out, const kt_plan *p, const kt_rewrite_file *f,
                   const kt_rw_select *sel, kt_diags *diags)
{
	kt_arena arena = KT_ARENA_INIT;
	gen g = {.p = p, .f = f, .sel = sel, .arena = &arena, .diags = diags};
	int rc = collect_units(&g);
	if (!rc && g.failed)
		rc = KT_EINVALID; /* the driver switches the bad units off */
	if (!rc)
		rc = guard_includes(&g);
	if (!rc)
		rc = declare_params(&g, NULL);
	if (!rc)
		rc = guard_host_decls(&g);
	if (!rc && sel->pragmas)
		rc = pragma_blocks(&g);
	/* edits a region rewrite took over are dropped here */
	size_t n = 0;
	for (size_t i = 0; i < g.edits.len; i++)
		if (g.edits.items[i].tag != -2)
			g.edits.items[n++] = g.edits.items[i];
	int conflict[2];
	if (!rc)
		rc = kt_edit_apply(out, f->text, f->len, g.edits.items, n,
		                   conflict);
	if (rc == KT_EINVALID && !g.failed)
		rc = kt_error(KT_EINVALID, "the plan's edits overlap: %s",
		              kt_error_last());
	kt_vec_release(&g.edits);
	kt_arena_release(&arena);
	return rc;
}
