/*
 * planner.c - the built-in planner: candidates -> edit plan.
 *
 * Every root candidate that was not rejected becomes a parameter; the
 * candidates linked to it become its uses, each with its replacement
 * (`$` in the link's expression is the parameter's name). The domain comes
 * from the role (docs/frontend.md has the table), the default is the
 * literal the parameter replaces. Loop strides and bounds that follow the
 * block size are handed over as `stride_follows_block` refactors, one per
 * loop, so a reviewer sees each loop as one change. The plan is validated
 * against the file before it is returned: a plan the planner cannot stand
 * behind is a bug, reported as such.
 */
#include "planner/planner.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <inttypes.h>
#include <string.h>

const char *pl_say(planner *P, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kt_str s = KT_STR_INIT;
	int rc = kt_str_vaddf(&s, fmt, ap);
	va_end(ap);
	char *r = rc ? NULL : kt_plan_strdup(P->plan, s.ptr);
	kt_str_release(&s);
	if (!r)
		P->oom = 1;
	return r ? r : "";
}

const char *pl_dup(planner *P, const char *s)
{
	if (!s)
		return NULL;
	const char *r = kt_plan_strdup(P->plan, s);
	if (!r)
		P->oom = 1;
	return r;
}

kt_range pl_range(const planner *P, int node)
{
	return kt_fe_make_range(P->f->tu, P->a->n[node].b, P->a->n[node].e);
}

int pl_find_param(const planner *P, const char *name)
{
	for (size_t i = 0; i < P->params.len; i++)
		if (!strcmp(P->params.items[i].p.name, name))
			return (int)i;
	return -1;
}

/* What makes a pragma line the same as another: the directive alone for
 * those a kernel has once (`launch`, `kernel`, `objective`), with the name
 * for those that declare one (`arg n int = n` -> "arg n"), the whole line
 * for the rest (`constraint`). */
static size_t line_key(const char *s, size_t len, const char **key)
{
	size_t i = 0;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	while (len > i && (s[len - 1] == ' ' || s[len - 1] == '\t' ||
	                   s[len - 1] == '\n' || s[len - 1] == '\r'))
		len--;
	*key = s + i;
	size_t w = i;
	while (w < len && (isalnum((unsigned char)s[w]) || s[w] == '_'))
		w++;
	static const char *const once[] = {"launch", "kernel", "objective"};
	static const char *const named[] = {"arg", "problem", "param", "set"};
	for (size_t k = 0; k < sizeof(once) / sizeof(*once); k++)
		if (w - i == strlen(once[k]) && !strncmp(s + i, once[k], w - i))
			return w - i;
	bool has_name = false;
	for (size_t k = 0; k < sizeof(named) / sizeof(*named); k++)
		has_name |= w - i == strlen(named[k]) &&
		            !strncmp(s + i, named[k], w - i);
	if (!has_name)
		return len - i;
	while (w < len && (s[w] == ' ' || s[w] == '\t'))
		w++;
	while (w < len && (isalnum((unsigned char)s[w]) || s[w] == '_'))
		w++;
	return w - i;
}

static bool same_key(const char *a, size_t na, const char *b, size_t nb)
{
	size_t i = 0, j = 0;
	for (; i < na && j < nb; i++, j++) {
		if (a[i] == ' ' || a[i] == '\t') { /* one blank as any run */
			while (i + 1 < na &&
			       (a[i + 1] == ' ' || a[i + 1] == '\t'))
				i++;
			if (b[j] != ' ' && b[j] != '\t')
				return false;
			while (j + 1 < nb &&
			       (b[j + 1] == ' ' || b[j + 1] == '\t'))
				j++;
		} else if (a[i] != b[j]) {
			return false;
		}
	}
	return i == na && j == nb;
}

const kt_pragma_text *pl_written_line(const planner *P, const char *kernel,
                                      const char *line)
{
	const char *k, *t = P->c->text;
	size_t kn = line_key(line, strlen(line), &k);
	for (size_t i = 0; kn && i < P->nwritten; i++) {
		const kt_pragma_text *w = &P->written[i];
		if (w->kernel_len != strlen(kernel) ||
		    strncmp(t + w->kernel, kernel, w->kernel_len))
			continue;
		const char *wk;
		size_t wn = line_key(t + w->body, w->end - w->body, &wk);
		if (same_key(k, kn, wk, wn))
			return w;
	}
	return NULL;
}

bool pl_written(const planner *P, const char *kernel, const char *line)
{
	return pl_written_line(P, kernel, line) != NULL;
}

int pl_param_of_cand(const planner *P, int cand)
{
	if (cand < 0)
		return -1;
	const kt_candidate *x = &P->c->items[cand];
	int root = x->link >= 0 ? x->link : cand;
	if (x->rejected)
		return -1;
	return P->param_of[root];
}

/* ---------------------------------------------------------------- names */

static bool word_in_text(const planner *P, const char *w)
{
	size_t n = strlen(w);
	for (const char *s = P->c->text; (s = strstr(s, w)); s += n) {
		bool left = s == P->c->text ||
		            !(isalnum((unsigned char)s[-1]) || s[-1] == '_');
		bool right = !(isalnum((unsigned char)s[n]) || s[n] == '_');
		if (left && right)
			return true;
	}
	return false;
}

/* kBlockSize -> BLOCK_SIZE, groups_per_block -> GROUPS_PER_BLOCK. */
static void upper_snake(kt_str *s, const char *name)
{
	if (name[0] == 'k' && isupper((unsigned char)name[1]))
		name++;
	for (const char *p = name; *p; p++) {
		if (p > name && isupper((unsigned char)*p) &&
		    islower((unsigned char)p[-1]))
			kt_str_addc(s, '_');
		kt_str_addc(s, (char)toupper((unsigned char)*p));
	}
}

/* The kernel's name without a `_kernel` suffix, upper case. */
static void kernel_base(kt_str *s, const char *kernel)
{
	size_t n = strlen(kernel);
	if (n > 7 && !strcmp(kernel + n - 7, "_kernel"))
		n -= 7;
	for (size_t i = 0; i < n; i++)
		kt_str_addc(s, (char)toupper((unsigned char)kernel[i]));
}

static const char *role_base(const kt_candidate *x, const fe_cand *cx)
{
	int dim = cx->dim;
	switch (x->role) {
	case KT_ROLE_BLOCK_SIZE:
		return dim == 1   ? "BLOCK_SIZE_Y"
		       : dim == 2 ? "BLOCK_SIZE_Z"
		                  : "BLOCK_SIZE";
	case KT_ROLE_UNROLL: return "UNROLL";
	case KT_ROLE_ITEMS_PER_THREAD: return "ITEMS_PER_THREAD";
	case KT_ROLE_WARPS: return "WARPS_PER_BLOCK";
	case KT_ROLE_PER_BLOCK: return "PER_BLOCK";
	case KT_ROLE_TILE: return "TILE";
	case KT_ROLE_VECTOR_WIDTH: return "VEC";
	case KT_ROLE_GROUP_SIZE: return "GROUP_THREADS";
	case KT_ROLE_GRID:
		return !cx->blocks ? "BLOCKS_PER_SM"
		       : dim == 1  ? "GRID_SIZE_Y"
		       : dim == 2  ? "GRID_SIZE_Z"
		                   : "GRID_SIZE";
	default: return "PARAM";
	}
}

static bool name_free(const planner *P, const char *s, bool in_text_ok)
{
	return pl_find_param(P, s) < 0 && (in_text_ok || !word_in_text(P, s));
}

/* base, or KERNEL_base, or base_2...: unique in the plan, new to the file. */
const char *pl_unique_name(planner *P, const char *base, const char *kernel)
{
	kt_str s = KT_STR_INIT;
	kt_str_adds(&s, base);
	if (word_in_text(P, s.ptr) && kernel) {
		kt_str_clear(&s);
		kernel_base(&s, kernel);
		kt_str_addf(&s, "_%s", base);
	}
	size_t len = s.len;
	for (int k = 2; !name_free(P, s.ptr, false) && k < 100; k++) {
		kt_str_truncate(&s, len);
		kt_str_addf(&s, "_%d", k);
	}
	const char *r = pl_say(P, "%s", s.ptr);
	kt_str_release(&s);
	return r;
}

/* A name for the parameter of root candidate i, unique in the plan and
 * new to the file (a macro parameter keeps the macro's name). */
static const char *param_name(planner *P, int i)
{
	const kt_candidate *x = &P->c->items[i];
	if (x->kind == KT_CAND_MACRO)
		return pl_dup(P, x->name);
	static const char *const generic[] = {
	    "BLOCK",       "THREADS",           "NTHREADS",
	    "NUM_THREADS", "BLOCK_DIM",         "BLOCKS",
	    "GRID",        "THREADS_PER_BLOCK", NULL};
	kt_str s = KT_STR_INIT;
	if (x->name)
		upper_snake(&s, x->name);
	for (const char *const *g = generic; *g && s.len; g++)
		if (!strcmp(*g, s.ptr))
			kt_str_clear(&s);
	if (!s.len)
		kt_str_adds(&s, role_base(x, &P->f->cx.items[i]));
	const char *r = pl_unique_name(P, s.ptr, x->kernel);
	kt_str_release(&s);
	return r;
}

/* -------------------------------------------------------------- domains */

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

typedef KT_VEC(int64_t) i64s;

static void push_unique(i64s *v, int64_t x, int *oom)
{
	for (size_t i = 0; i < v->len; i++)
		if (v->items[i] == x)
			return;
	if (kt_vec_push(v, x))
		*oom = 1;
}

static void pow2s(i64s *v, int64_t lo, int64_t hi, int *oom)
{
	for (int64_t x = 1; x <= hi; x *= 2)
		if (x >= lo)
			push_unique(v, x, oom);
}

static bool reduction_tree(const planner *P, int root)
{
	for (size_t i = 0; i < P->c->len; i++)
		if (P->c->items[i].link == root &&
		    strstr(P->c->items[i].evidence, "reduction"))
			return true;
	return false;
}

/* `s >>= 1`, `s /= 2`, `s = s >> 1`, `s = s / 2`: n halves a counter. */
static bool halves(const fe_ast *a, int n)
{
	n = fe_strip(a, n);
	if (n < 0)
		return false;
	const fe_node *x = &a->n[n];
	int rhs = fe_strip(a, fe_child(a, n, 1));
	if (x->kind == CXCursor_BinaryOperator &&
	    x->op == CXBinaryOperator_Assign && rhs >= 0 &&
	    a->n[rhs].kind == CXCursor_BinaryOperator) {
		x = &a->n[rhs];
		rhs = fe_strip(a, fe_child(a, rhs, 1));
	}
	if (rhs < 0 || !a->n[rhs].is_int)
		return false;
	int64_t v = a->n[rhs].ival;
	bool shr = x->op == CXBinaryOperator_Shr ||
	           x->op == CXBinaryOperator_ShrAssign;
	bool div = x->op == CXBinaryOperator_Div ||
	           x->op == CXBinaryOperator_DivAssign;
	return (shr && v == 1) || (div && v == 2);
}

/* Whether the subtree of n names an integer template parameter. */
static bool names_tparam(const fe_ast *a, int n)
{
	if (a->n[n].kind == CXCursor_DeclRefExpr && a->n[n].ref >= 0 &&
	    a->n[a->n[n].ref].kind == CXCursor_NonTypeTemplateParameter)
		return true;
	for (int c = a->n[n].first; c >= 0; c = a->n[c].next)
		if (names_tparam(a, c))
			return true;
	return false;
}

/* A loop that halves a counter started from the block size (`for (int s
 * = blockDim.x / 2; s > 0; s >>= 1)`, or from a template parameter that
 * may be tied to it: `for (int s = BLOCK / 2; ...)`): a tree reduction
 * over the block, right only for a power-of-two block. Anywhere in the
 * file, so that a device function the kernel calls counts. */
static bool halving_over_block(const planner *P)
{
	const fe_ast *a = P->a;
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		if (x->kind != CXCursor_ForStmt || !x->in_main ||
		    fe_nchildren(a, (int)i) != 4 ||
		    !halves(a, fe_child(a, (int)i, 2)))
			continue;
		int init = fe_child(a, (int)i, 0);
		if (fe_mentions(a, init, "blockDim") || names_tparam(a, init))
			return true;
	}
	return false;
}

/* The factor beside a root in its launch dimension (WARPS * 32 -> 32). */
static int64_t block_factor(const planner *P, int root)
{
	const fe_cand *x = &P->f->cx.items[root];
	if (x->kern < 0 || x->launch < 0 || x->dim < 0 ||
	    !P->c->items[root].value)
		return 1;
	const fe_launch *L =
	    &P->f->kernels.items[x->kern].launches.items[x->launch];
	int64_t f = L->block[x->dim] / P->c->items[root].value;
	return f > 0 ? f : 1;
}

/* Role -> domain (docs/frontend.md). */
static void domain(planner *P, int root, i64s *v)
{
	const kt_candidate *x = &P->c->items[root];
	int64_t d = x->value;
	int dim = P->f->cx.items[root].dim;
	switch (x->role) {
	case KT_ROLE_BLOCK_SIZE:
		if (dim > 0 || d % 32)
			pow2s(v, 1, 64, &P->oom);
		else if (reduction_tree(P, root) || halving_over_block(P))
			pow2s(v, 32, 1024, &P->oom);
		else
			for (int64_t b = 32; b <= 1024; b += 32)
				push_unique(v, b, &P->oom);
		break;
	case KT_ROLE_TILE:
		pow2s(v, d / 8 > 1 ? d / 8 : 1, d * 4 < 1024 ? d * 4 : 1024,
		      &P->oom);
		break;
	case KT_ROLE_WARPS:
	case KT_ROLE_PER_BLOCK:
		pow2s(v, 1, 1024 / block_factor(P, root), &P->oom);
		break;
	case KT_ROLE_UNROLL: /* up to the original's factor where it is more */
		pow2s(v, 1, d > 16 && d <= 1024 ? d : 16, &P->oom);
		break;
	case KT_ROLE_ITEMS_PER_THREAD: pow2s(v, 1, 8, &P->oom); break;
	case KT_ROLE_GRID:
		/* a grid-stride kernel's count of blocks: a sixteenth of the
		 * original to sixteen times it (y and z grids end at 65535) */
		if (P->f->cx.items[root].blocks)
			pow2s(v, d / 16 > 1 ? d / 16 : 1,
			      dim > 0
			          ? (d * 16 < 65535 ? d * 16 : 65535)
			          : (d * 16 < INT32_MAX ? d * 16 : INT32_MAX),
			      &P->oom);
		else
			pow2s(v, 1, 32, &P->oom);
		break;
	default: break;
	}
	int64_t max = P->f->cx.items[root].max; /* a block size cap's */
	bool divides = P->f->cx.items[root].divides && d > 0;
	size_t kept = 0;
	for (size_t i = 0; i < v->len; i++)
		if ((!max || v->items[i] <= max) &&
		    (!divides || d % v->items[i] == 0))
			v->items[kept++] = v->items[i];
	v->len = kept;
	push_unique(v, d, &P->oom);
	qsort(v->items, v->len, sizeof(int64_t), cmp_i64);
}

/* ------------------------------------------------------------ parameters */

int pl_add_param(planner *P, const char *name, kt_role role, const char *kernel,
                 int64_t def, const int64_t *values, size_t nvalues)
{
	pl_param pp = {.root = -1};
	pp.p.name = name;
	pp.p.role = role;
	pp.p.kernel = kernel;
	pp.p.def = def;
	pp.p.values = kt_plan_alloc(P->plan, nvalues * sizeof(int64_t));
	if (!pp.p.values || kt_vec_push(&P->params, pp)) {
		P->oom = 1;
		return -1;
	}
	memcpy(pp.p.values, values, nvalues * sizeof(int64_t));
	P->params.items[P->params.len - 1].p.values = pp.p.values;
	P->params.items[P->params.len - 1].p.nvalues = nvalues;
	return (int)P->params.len - 1;
}

/* The parameter a constraint belongs to: the last one it names. */
void pl_add_constraint(planner *P, const char *expr)
{
	int last = -1;
	for (size_t i = 0; i < P->params.len; i++) {
		const char *n = P->params.items[i].p.name;
		size_t len = strlen(n);
		for (const char *s = expr; (s = strstr(s, n)); s += len)
			if ((s == expr || !(isalnum((unsigned char)s[-1]) ||
			                    s[-1] == '_')) &&
			    !(isalnum((unsigned char)s[len]) || s[len] == '_'))
				last = (int)i;
	}
	if (last < 0)
		return;
	pl_param *pp = &P->params.items[last];
	for (size_t i = 0; i < pp->cons.len; i++)
		if (!strcmp(pp->cons.items[i], expr))
			return;
	const char *c = kt_plan_strdup(P->plan, expr);
	if (!c || kt_vec_push(&pp->cons, c))
		P->oom = 1;
}

const char *pl_with(planner *P, int cand, const char *name)
{
	const kt_candidate *x = &P->c->items[cand];
	const char *name2 = NULL;
	int p2 = strchr(x->with, '@') ? pl_param_of_cand(P, x->link2) : -1;
	if (p2 >= 0)
		name2 = P->params.items[p2].p.name;
	else if (strchr(x->with, '@'))
		name2 = pl_say(P, "%" PRId64, P->c->items[x->link2].value);
	kt_str s = KT_STR_INIT;
	for (const char *p = x->with; *p; p++)
		if (*p == '$')
			kt_str_adds(&s, name);
		else if (*p == '@' && name2)
			kt_str_adds(&s, name2);
		else
			kt_str_addc(&s, *p);
	const char *r = pl_say(P, "%s", s.ptr);
	kt_str_release(&s);
	return r;
}

static kt_plan_use use_of(planner *P, int i, const char *name)
{
	const kt_candidate *x = &P->c->items[i];
	const fe_cand *cx = &P->f->cx.items[i];
	kt_plan_use u = {.range = x->range,
	                 .text = pl_dup(P, x->text),
	                 .site = x->site,
	                 .host = x->host,
	                 .launch = -1,
	                 .evidence = pl_dup(P, x->evidence)};
	if (x->site != KT_SITE_MACRO)
		u.with = x->link >= 0 ? pl_with(P, i, name) : name;
	if (cx->launch >= 0 &&
	    (x->site == KT_SITE_LAUNCH_GRID ||
	     x->site == KT_SITE_LAUNCH_BLOCK ||
	     x->site == KT_SITE_LAUNCH_SMEM || x->site == KT_SITE_DIM3))
		u.launch = cx->launch;
	return u;
}

static bool tunable_root(const planner *P, int i)
{
	const kt_candidate *x = &P->c->items[i];
	int k = P->f->cx.items[i].kern;
	return x->link < 0 && !x->rejected && x->role != KT_ROLE_OTHER &&
	       x->role != KT_ROLE_VECTOR_WIDTH && k >= 0 && !P->skip[k];
}

/* Whether node n lies in a branch of an `if constexpr`, which a template
 * may discard unchecked. */
static bool discarded(const fe_ast *a, int n)
{
	for (int p = a->n[n].parent; p >= 0; p = a->n[p].parent) {
		size_t len;
		const char *t = a->n[p].kind == CXCursor_IfStmt
		                    ? fe_text(a, p, &len)
		                    : NULL;
		const char *c = t && len > 2 ? t + 2 : NULL;
		while (c && c < t + len && (*c == ' ' || *c == '\t'))
			c++;
		if (c && c + 9 <= t + len && !strncmp(c, "constexpr", 9))
			return true;
	}
	return false;
}

/*
 * Drops from v the values at which a `static_assert` of the file fails
 * with literal root read as that value (`constexpr int kThreads = 1024;`
 * then `static_assert(TopK / kThreads == 2)` in a kernel): the compiler
 * refuses those, nvcc once per value (a torch file's seconds each) or
 * NVRTC only where it instantiates the code around it. Conditions that
 * do not fold, or fail at the original value, and assertions in an `if
 * constexpr` branch decide nothing. Returns
 * the assertion that left only the original, or -1.
 */
static int static_asserts(planner *P, int root, i64s *v)
{
	const fe_ast *a = P->a;
	const kt_candidate *x = &P->c->items[root];
	int lit = P->f->cx.items[root].node, pinned = -1;
	for (size_t s = 0; s < a->len && lit >= 0 && v->len > 1; s++) {
		int cond = a->n[s].first;
		int64_t at;
		if (a->n[s].kind != CXCursor_StaticAssert || !a->n[s].in_main ||
		    cond < 0 || discarded(a, (int)s) ||
		    !pl_fold_with(P, cond, lit, x->value, &at) || !at)
			continue;
		size_t kept = 0;
		for (size_t k = 0; k < v->len; k++) {
			int64_t r;
			if (v->items[k] == x->value ||
			    !pl_fold_with(P, cond, lit, v->items[k], &r) || r)
				v->items[kept++] = v->items[k];
		}
		if (kept < v->len && kept == 1)
			pinned = (int)s;
		v->len = kept;
	}
	return pinned;
}

static int add_root(planner *P, int i)
{
	const kt_candidate *x = &P->c->items[i];
	i64s v = {0};
	domain(P, i, &v);
	int pinned = static_asserts(P, i, &v);
	if (pinned >= 0) {
		kt_range at = kt_fe_make_range(P->f->tu, P->a->n[pinned].b,
		                               P->a->n[pinned].e);
		kt_diags_add(P->d, KT_DIAG_NOTE, P->c->path, P->c->text,
		             x->range.begin.line, x->range.begin.col, 1,
		             "'%s' stays a literal: the static_assert at %d:%d "
		             "holds at no other value of its domain",
		             x->text, at.begin.line, at.begin.col);
		kt_vec_release(&v);
		return KT_OK;
	}
	const fe_cand *cx = &P->f->cx.items[i];
	if (v.len == 1 && (cx->divides || cx->smem)) {
		/* `n / 32` for a block of 32 threads: no other block keeps
		 * the grid covering a problem the file sizes in 32s; a
		 * dynamic shared memory of 32 threads' slots for 32 */
		kt_diags_add(P->d, KT_DIAG_NOTE, P->c->path, P->c->text,
		             x->range.begin.line, x->range.begin.col, 1,
		             cx->divides
		                 ? "'%s' stays a literal: the grid divides the "
		                   "problem by it exactly (no rounding term), "
		                   "so only a value that divides %" PRId64
		                   " keeps the work covered, and its domain "
		                   "has none besides %" PRId64
		                 : "'%s' stays a literal: the launch's dynamic "
		                   "shared memory counts its %" PRId64
		                   " threads, so no larger block fits it, and "
		                   "its domain has no smaller value than "
		                   "%" PRId64,
		             x->text, x->value, x->value);
		kt_vec_release(&v);
		return KT_OK;
	}
	const char *name = param_name(P, i);
	int p = P->oom ? -1
	               : pl_add_param(P, name, x->role, pl_dup(P, x->kernel),
	                              x->value, v.items, v.len);
	kt_vec_release(&v);
	if (p < 0)
		return KT_ENOMEM;
	P->params.items[p].root = i;
	P->params.items[p].p.evidence = pl_dup(P, x->evidence);
	P->param_of[i] = p;
	return KT_OK;
}

/* True for a linked literal that a stride_follows_block refactor takes. */
static bool loop_edit(const planner *P, int i)
{
	const kt_candidate *x = &P->c->items[i];
	return x->link >= 0 && x->kind == KT_CAND_BLOCK_TIED &&
	       P->c->items[x->link].role == KT_ROLE_BLOCK_SIZE &&
	       (strstr(x->evidence, "stride of a loop") ||
	        strstr(x->evidence, "bound of a loop"));
}

/* A macro's name in `__launch_bounds__(BS)` where the parameter is that
 * macro's `#define` in the file: the name expands to the parameter, so
 * it is no edit of its own (as an edit it made the plan invalid: a
 * macro parameter has its definition as its one use). */
static bool follows_define(const planner *P, int i)
{
	const kt_candidate *x = &P->c->items[i];
	int r = x->link;
	while (r >= 0 && P->c->items[r].link >= 0)
		r = P->c->items[r].link;
	return r >= 0 && x->site == KT_SITE_LAUNCH_BOUNDS && x->name &&
	       P->c->items[r].site == KT_SITE_MACRO && P->c->items[r].name &&
	       !strcmp(x->name, P->c->items[r].name);
}

static void collect_uses(planner *P)
{
	for (size_t i = 0; i < P->c->len; i++) {
		int p = pl_param_of_cand(P, (int)i);
		if (p < 0 || loop_edit(P, (int)i) || follows_define(P, (int)i))
			continue;
		pl_param *pp = &P->params.items[p];
		if (kt_vec_push(&pp->uses, use_of(P, (int)i, pp->p.name)))
			P->oom = 1;
	}
}

/* (a): each loop whose stride or bound is the block size, as a refactor. */
static void stride_refactors(planner *P)
{
	const fe_ast *a = P->a;
	for (size_t i = 0; i < P->c->len; i++) {
		int p = pl_param_of_cand(P, (int)i);
		if (p < 0 || !loop_edit(P, (int)i))
			continue;
		int fs =
		    fe_ancestor(a, P->f->cx.items[i].node, CXCursor_ForStmt);
		kt_range region = pl_range(P, fs);
		kt_plan_refactor *r = NULL;
		for (size_t k = 0; k < P->refactors.len && !r; k++)
			if (P->refactors.items[k].kind ==
			        KT_REFACTOR_STRIDE_FOLLOWS_BLOCK &&
			    P->refactors.items[k].region.begin.offset ==
			        region.begin.offset)
				r = &P->refactors.items[k];
		if (!r) {
			kt_plan_refactor nr = {
			    .kind = KT_REFACTOR_STRIDE_FOLLOWS_BLOCK,
			    .kernel = pl_dup(P, P->c->items[i].kernel),
			    .param = P->params.items[p].p.name,
			    .region = region,
			    .launch = -1};
			int init = fe_child(a, fs, 0);
			int var = init >= 0 ? fe_child(a, init, 0) : -1;
			nr.index_var = pl_dup(
			    P, var >= 0 && a->n[var].kind == CXCursor_VarDecl
			           ? a->n[var].name
			           : "?");
			nr.note = "the loop steps over the block's threads: "
			          "its stride follows the block size";
			if (kt_vec_push(&P->refactors, nr)) {
				P->oom = 1;
				return;
			}
			r = &P->refactors.items[P->refactors.len - 1];
		}
		kt_plan_edit *e =
		    kt_plan_alloc(P->plan, (r->nedits + 1) * sizeof(*e));
		if (!e) {
			P->oom = 1;
			return;
		}
		if (r->nedits)
			memcpy(e, r->edits, r->nedits * sizeof(*e));
		kt_plan_use u = use_of(P, (int)i, P->params.items[p].p.name);
		e[r->nedits++] = (kt_plan_edit){u.range, u.text, u.with};
		r->edits = e;
	}
}

/* ---------------------------------------------------------------- output */

bool pl_text_taken(const planner *P, uint32_t b, uint32_t e)
{
	for (size_t i = 0; i < P->params.len; i++)
		for (size_t u = 0; u < P->params.items[i].uses.len; u++) {
			kt_range r = P->params.items[i].uses.items[u].range;
			if (r.begin.offset < e && b < r.end.offset)
				return true;
		}
	for (size_t i = 0; i < P->refactors.len; i++)
		for (size_t u = 0; u < P->refactors.items[i].nedits; u++) {
			kt_range r = P->refactors.items[i].edits[u].range;
			if (r.begin.offset < e && b < r.end.offset)
				return true;
		}
	return false;
}

/* A refactor's edit covers r (threads per group makes the group's 16s
 * its parameter: they no longer stay). */
static bool edited(const planner *P, kt_range r)
{
	for (size_t i = 0; i < P->refactors.len; i++)
		for (size_t k = 0; P->refactors.items[i].kind ==
		                       KT_REFACTOR_THREADS_PER_GROUP &&
		                   k < P->refactors.items[i].nedits;
		     k++) {
			kt_range e = P->refactors.items[i].edits[k].range;
			if (e.begin.offset <= r.begin.offset &&
			    r.end.offset <= e.end.offset)
				return true;
		}
	return false;
}

static void add_rejected(planner *P)
{
	size_t n = 0;
	for (size_t i = 0; i < P->c->len; i++)
		n += P->c->items[i].rejected;
	P->plan->rejected = kt_plan_alloc(P->plan, n * sizeof(kt_plan_reject));
	if (!P->plan->rejected) {
		P->oom = 1;
		return;
	}
	for (size_t i = 0; i < P->c->len; i++) {
		const kt_candidate *x = &P->c->items[i];
		if (!x->rejected || edited(P, x->range))
			continue;
		P->plan->rejected[P->plan->nrejected++] =
		    (kt_plan_reject){.kernel = pl_dup(P, x->kernel),
		                     .range = x->range,
		                     .text = pl_dup(P, x->text),
		                     .reason = x->reason,
		                     .message = pl_dup(P, x->evidence)};
	}
}

/* Copies the working vectors into plan memory. */
static void *copy_out(planner *P, const void *items, size_t n, size_t elem)
{
	void *r = kt_plan_alloc(P->plan, n * elem);
	if (!r)
		P->oom = 1;
	else if (n)
		memcpy(r, items, n * elem);
	return r;
}

static void add_kernels(planner *P)
{
	kt_plan *p = P->plan;
	p->kernels = kt_plan_alloc(p, P->c->nkernels * sizeof(kt_plan_kernel));
	if (!p->kernels) {
		P->oom = 1;
		return;
	}
	for (size_t k = 0; k < P->c->nkernels; k++) {
		const kt_kernel_info *ki = &P->c->kernels[k];
		if (P->skip[k])
			continue;
		p->kernels[p->nkernels++] = (kt_plan_kernel){
		    .name = pl_dup(P, ki->name),
		    .range = ki->range,
		    .launches = copy_out(P, ki->launches, ki->nlaunches,
		                         sizeof(kt_range)),
		    .nlaunches = ki->nlaunches};
	}
}

/*
 * A kernel's pragma lines are its own model: a launch operand the host
 * computes from another kernel's parameter (one `grid` for two launches)
 * reads that parameter at its default, which is what the host passes while
 * this kernel is tuned alone.
 */
static void other_kernels_defaults(planner *P)
{
	kt_plan *p = P->plan;
	bool *gone = kt_calloc(p->nparams + 1, sizeof(bool));
	if (!gone) {
		P->oom = 1;
		return;
	}
	for (size_t i = 0; i < p->npragmas; i++) {
		for (size_t k = 0; k < p->nparams; k++)
			gone[k] = strcmp(p->params[k].kernel,
			                 p->pragmas[i].kernel) != 0;
		const char *l =
		    kt_plan_with_defaults(p, p->pragmas[i].line, p, gone);
		if (l)
			p->pragmas[i].line = l;
		else
			P->oom = 1;
	}
	kt_free(gone);
}

static void finish(planner *P)
{
	kt_plan *p = P->plan;
	p->params = kt_plan_alloc(p, P->params.len * sizeof(kt_plan_param));
	for (size_t i = 0; p->params && i < P->params.len; i++) {
		pl_param *pp = &P->params.items[i];
		pp->p.uses = copy_out(P, pp->uses.items, pp->uses.len,
		                      sizeof(kt_plan_use));
		pp->p.nuses = pp->uses.len;
		pp->p.constraints =
		    copy_out(P, pp->cons.items, pp->cons.len, sizeof(char *));
		pp->p.nconstraints = pp->cons.len;
		p->params[p->nparams++] = pp->p;
	}
	p->refactors = copy_out(P, P->refactors.items, P->refactors.len,
	                        sizeof(kt_plan_refactor));
	p->nrefactors = P->refactors.len;
	p->pragmas = copy_out(P, P->pragmas.items, P->pragmas.len,
	                      sizeof(kt_plan_pragma));
	p->npragmas = P->pragmas.len;
	other_kernels_defaults(P);
	p->needs =
	    copy_out(P, P->needs.items, P->needs.len, sizeof(kt_plan_need));
	p->nneeds = P->needs.len;
	if (!p->params)
		P->oom = 1;
}

static int plan_all(planner *P)
{
	int rc = KT_OK;
	kt_plan *p = P->plan;
	p->path = kt_plan_strdup(p, P->c->path);
	p->size = P->c->text_len;
	p->hash = kt_plan_hash(P->c->text, P->c->text_len);
	p->planner = "builtin";
	add_kernels(P);
	for (size_t i = 0; !rc && i < P->c->len; i++)
		if (tunable_root(P, (int)i))
			rc = add_root(P, (int)i);
	collect_uses(P);
	stride_refactors(P);
	for (size_t k = 0; !rc && k < P->f->kernels.len; k++) {
		if (P->skip[k])
			continue;
		rc = pl_refactors(P, (int)k);
		rc = rc ? rc : pl_constraints(P, (int)k);
		rc = rc ? rc : pl_derive_pragmas(P, (int)k);
	}
	add_rejected(P);
	finish(P);
	return rc ? rc : P->oom ? KT_ENOMEM : KT_OK;
}

/* The error for a file that defines no kernel but launches one (call)
 * that a header defines: what to annotate instead. The call is located
 * where it is spelled (inside a dispatch macro's argument, not at the
 * macro). */
static int foreign_kernel(const kt_candidates *c, CXCursor k, CXCursor call)
{
	unsigned line = 0, col = 0;
	clang_getSpellingLocation(clang_getCursorLocation(call), NULL, &line,
	                          &col, NULL);
	CXCursor d = clang_getCursorDefinition(k);
	CXFile f = NULL;
	clang_getSpellingLocation(
	    clang_getCursorLocation(clang_Cursor_isNull(d) ? k : d), &f, NULL,
	    NULL, NULL);
	CXString name = clang_getCursorSpelling(k);
	CXString file = f ? clang_getFileName(f) : (CXString){0};
	const char *fs = f ? clang_getCString(file) : NULL;
	int rc =
	    kt_error(KT_EINVALID,
	             "%s:%d:%d: no __global__ kernel defined in this file: "
	             "it launches '%s'%s%s%s; a kernel is annotated in the "
	             "file that defines it",
	             c->path, line, col, clang_getCString(name),
	             fs ? ", defined in '" : "", fs ? fs : "", fs ? "'" : "");
	clang_disposeString(name);
	if (f)
		clang_disposeString(file);
	return rc;
}

static int check_input(const kt_candidates *c)
{
	size_t ok = 0;
	for (size_t k = 0; k < c->facts->kernels.len; k++)
		ok += !c->facts->kernels.items[k].broken;
	CXCursor k;
	int call;
	if (!c->nkernels && fe_foreign_launch(&c->facts->ast, &k, &call))
		return foreign_kernel(c, k, c->facts->ast.n[call].cur);
	if (!c->nkernels)
		return kt_error(KT_EINVALID,
		                "no __global__ kernel defined in "
		                "'%s'",
		                c->path);
	const char *missing = c->facts->tu->missing;
	if (!ok && missing)
		return kt_error(KT_EPARSE,
		                "every kernel of '%s' has errors; nothing to "
		                "annotate: the header %s is not found: its "
		                "folder must be on the include path (an -I of "
		                "the file's compile_commands.json entry; -p "
		                "DIR names its folder)",
		                c->path, missing);
	if (!ok)
		return kt_error(KT_EPARSE,
		                "every kernel of '%s' has errors; "
		                "nothing to annotate",
		                c->path);
	return KT_OK;
}

/*
 * Kernels left as they are: those with errors, and a kernel whose name an
 * earlier one has (overloads, SFINAE pairs): plans and `#pragma kt kernel`
 * lines name kernels by name, so only the first of a name is annotated.
 */
static int skip_kernels(planner *P)
{
	const kt_candidates *c = P->c;
	P->skip = kt_calloc(c->facts->kernels.len + 1, sizeof(bool));
	if (!P->skip)
		return kt_error(KT_ENOMEM, "out of memory");
	for (size_t k = 0; k < c->facts->kernels.len; k++) {
		P->skip[k] = c->facts->kernels.items[k].broken;
		for (size_t j = 0; j < k && !P->skip[k]; j++) {
			const kt_range *r = &c->kernels[k].range;
			if (P->skip[j] ||
			    strcmp(c->kernels[j].name, c->kernels[k].name))
				continue;
			P->skip[k] = true;
			kt_diags_add(P->d, KT_DIAG_WARNING, c->path, c->text,
			             r->begin.line, r->begin.col, 1,
			             "'%s' is overloaded: only its first "
			             "definition (line %d) is annotated",
			             c->kernels[k].name,
			             c->kernels[j].range.begin.line);
		}
	}
	return 0;
}

int kt_planner_plan(kt_plan **out, const kt_candidates *c, kt_diags *diags)
{
	*out = NULL;
	int rc = check_input(c);
	if (rc)
		return rc;
	planner P = {.c = c,
	             .f = c->facts,
	             .a = &c->facts->ast,
	             .d = diags,
	             .float_ref = -1};
	rc = kt_plan_new(&P.plan);
	P.param_of = kt_malloc((c->len + 1) * sizeof(int));
	if (!rc && !P.param_of)
		rc = kt_error(KT_ENOMEM, "out of memory");
	for (size_t i = 0; !rc && i < c->len; i++)
		P.param_of[i] = -1;
	rc = rc ? rc : skip_kernels(&P);
	rc = rc ? rc
	        : kt_template_lines(&P.written, &P.nwritten, c->text,
	                            c->text_len);
	rc = rc ? rc : plan_all(&P);
	for (size_t i = 0; i < P.params.len; i++) {
		kt_vec_release(&P.params.items[i].uses);
		kt_vec_release(&P.params.items[i].cons);
	}
	kt_vec_release(&P.params);
	kt_vec_release(&P.refactors);
	kt_vec_release(&P.pragmas);
	kt_vec_release(&P.needs);
	kt_free(P.param_of);
	kt_free(P.skip);
	kt_free(P.written);
	if (!rc && kt_plan_validate(P.plan, "built-in plan", c->text,
	                            c->text_len, diags))
		rc = kt_error(KT_ERROR,
		              "the built-in planner made an invalid "
		              "plan for '%s' (a bug; the diagnostics say why)",
		              c->path);
	if (rc) {
		kt_plan_free(P.plan);
		return rc == KT_ENOMEM ? kt_error(rc, "out of memory") : rc;
	}
	*out = P.plan;
	return KT_OK;
}
