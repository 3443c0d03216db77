/*
 * candidates.c - kernels, their launch sites, and the literals a launch
 * configuration is built from.
 *
 * The launch is where tuning knobs are easiest to prove: whatever the block
 * operand of `<<<grid, block>>>` evaluates from (a literal, a `dim3`, a
 * const variable, a macro) is the block size, and the grid operand's
 * literals equal to the block size (or one less: `(n + 255) / 256`) follow
 * it. Each such leaf becomes a root candidate; literals inside the kernel
 * that mean the same thing are linked to it by classify.c.
 */
#include "frontend/find.h"

#include "util/str.h"

#include <ctype.h>
#include <stdarg.h>
#include <string.h>

kt_candidate fe_cand_init(void)
{
	kt_candidate k = {.link = -1};
	return k;
}

fe_cand fe_cx_init(void)
{
	fe_cand x = {.node = -1,
	             .kern = -1,
	             .launch = -1,
	             .dim = -1,
	             .tparam = -1,
	             .loop = -1};
	return x;
}

const char *fe_say(finder *F, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kt_str s = KT_STR_INIT;
	int rc = kt_str_vaddf(&s, fmt, ap);
	va_end(ap);
	char *r = rc ? NULL : kt_arena_strdup(F->c->arena, s.ptr);
	kt_str_release(&s);
	if (!r)
		F->oom = 1;
	return r ? r : "";
}

int fe_cand_at(const finder *F, uint32_t b)
{
	for (size_t i = 0; i < F->items.len; i++)
		if (F->items.items[i].range.begin.offset == b)
			return (int)i;
	return -1;
}

int fe_add(finder *F, kt_candidate k, fe_cand x)
{
	if (!k.text) {
		size_t n = k.range.end.offset - k.range.begin.offset;
		k.text = kt_arena_strndup(
		    F->c->arena, F->tu->text + k.range.begin.offset, n);
	}
	if (!k.evidence)
		k.evidence = "";
	if (!k.text || kt_vec_push(&F->items, k) || kt_vec_push(&F->f->cx, x)) {
		F->oom = 1;
		return -1;
	}
	return (int)F->items.len - 1;
}

/* ------------------------------------------------------------ kernels */

static bool has_child_kind(const fe_ast *a, int n, enum CXCursorKind k)
{
	for (int c = a->n[n].first; c >= 0; c = a->n[c].next)
		if (a->n[c].kind == k)
			return true;
	return false;
}

static int add_kernel(finder *F, int n)
{
	fe_ast *a = F->a;
	fe_kern k = {.node = n, .body = -1, .name = a->n[n].name};
	for (int c = a->n[n].first; c >= 0; c = a->n[c].next) {
		if (a->n[c].kind == CXCursor_CompoundStmt)
			k.body = c;
		if ((a->n[c].kind == CXCursor_NonTypeTemplateParameter ||
		     a->n[c].kind == CXCursor_TemplateTypeParameter ||
		     a->n[c].kind == CXCursor_TemplateTemplateParameter) &&
		    kt_vec_push(&k.tparams, c))
			return KT_ENOMEM;
	}
	kt_fe_offset(F->tu, clang_getCursorLocation(a->n[n].cur), &k.loc);
	k.broken = kt_fe_has_error(F->tu, a->n[n].b, a->n[n].e);
	if (kt_vec_push(&F->f->kernels, k)) {
		kt_vec_release(&k.tparams);
		return KT_ENOMEM;
	}
	return KT_OK;
}

static int find_kernels(finder *F)
{
	fe_ast *a = F->a;
	for (size_t i = 0; i < a->len; i++) {
		enum CXCursorKind k = a->n[i].kind;
		if ((k == CXCursor_FunctionDecl ||
		     k == CXCursor_FunctionTemplate) &&
		    a->n[i].in_main &&
		    has_child_kind(a, (int)i, CXCursor_CUDAGlobalAttr) &&
		    has_child_kind(a, (int)i, CXCursor_CompoundStmt)) {
			int rc = add_kernel(F, (int)i);
			if (rc)
				return rc;
		}
	}
	return KT_OK;
}

/* ----------------------------------------------------------- launches */

/* --------------------------------------------------------- evaluation */

/* Whether parameter parm is a launch's block operand as it stands
 * (`k<<<blocks, threads>>>`, a `dim3(threads)` or a dim3 component). */
static bool block_parm(const finder *F, int parm)
{
	const fe_ast *a = F->a;
	for (size_t k = 0; k < F->f->kernels.len; k++)
		for (size_t l = 0; l < F->f->kernels.items[k].launches.len;
		     l++) {
			int op = F->f->kernels.items[k].launches.items[l].op[1];
			int d3 = op >= 0 ? fe_dim3(a, op) : -1;
			for (int d = 0; op >= 0 && d < 3; d++) {
				int o = d3 >= 0  ? fe_written(a, d3, d)
				        : d == 0 ? op
				                 : -1;
				o = o >= 0 ? fe_strip(a, o) : -1;
				if (o >= 0 &&
				    a->n[o].kind == CXCursor_DeclRefExpr &&
				    a->n[o].ref == parm)
					return true;
			}
		}
	return false;
}

/* The value of the variable that reference node n names, where n reads it
 * (fe_def_before), or -1; of a block-size parameter of a host function,
 * the literal its one call gives it (fe_bound_arg). */
static int var_value(const finder *F, int n)
{
	const fe_ast *a = F->a;
	int var = a->n[n].ref;
	if (var >= 0 && a->n[var].kind == CXCursor_ParmDecl &&
	    block_parm(F, var))
		return fe_bound_arg(a, var);
	if (var < 0 || a->n[var].kind != CXCursor_VarDecl)
		return -1;
	return fe_def_before(a, var, a->n[n].b);
}

static bool eval_r(finder *F, int n, int64_t *v, fe_leaves *lv, bool *prod,
                   const char *var, int depth);

static bool eval_binop(finder *F, int n, int64_t *v, fe_leaves *lv, bool *prod,
                       int depth)
{
	fe_ast *a = F->a;
	int64_t l, r;
	if (!eval_r(F, fe_child(a, n, 0), &l, lv, prod, NULL, depth + 1) ||
	    !eval_r(F, fe_child(a, n, 1), &r, lv, prod, NULL, depth + 1))
		return false;
	int op = a->n[n].op;
	if (op != CXBinaryOperator_Mul)
		*prod = false;
	switch (op) {
	case CXBinaryOperator_Mul: *v = l * r; return true;
	case CXBinaryOperator_Add: *v = l + r; return true;
	case CXBinaryOperator_Sub: *v = l - r; return true;
	case CXBinaryOperator_Div: *v = r ? l / r : 0; return r != 0;
	case CXBinaryOperator_Rem: *v = r ? l % r : 0; return r != 0;
	case CXBinaryOperator_Shl:
		*v = r >= 0 && r < 62 ? l << r : 0;
		return r >= 0 && r < 62;
	case CXBinaryOperator_Shr:
		*v = r >= 0 && r < 62 ? l >> r : 0;
		return r >= 0 && r < 62;
	default: return false;
	}
}

static bool eval_r(finder *F, int n, int64_t *v, fe_leaves *lv, bool *prod,
                   const char *var, int depth)
{
	fe_ast *a = F->a;
	n = fe_strip(a, n);
	if (n < 0 || depth > 16)
		return false;
	const fe_node *x = &a->n[n];
	if (x->kind == CXCursor_IntegerLiteral && x->is_int) {
		fe_leaf leaf = {n, var, x->ival, 0};
		*v = x->ival;
		if (kt_vec_push(lv, leaf))
			F->oom = 1;
		return true;
	}
	if (x->kind == CXCursor_BinaryOperator)
		return eval_binop(F, n, v, lv, prod, depth);
	if (x->kind == CXCursor_DeclRefExpr && fe_header_constant(a, n, v))
		return true; /* a factor, but not a knob of this file */
	int def = x->kind == CXCursor_DeclRefExpr ? var_value(F, n) : -1;
	if (def >= 0)
		return eval_r(F, def, v, lv, prod, a->n[x->ref].name,
		              depth + 1);
	return false;
}

bool fe_eval(finder *F, int n, int64_t *v, fe_leaves *leaves, bool *product)
{
	*product = true;
	return eval_r(F, n, v, leaves, product, NULL, 0);
}

/* ------------------------------------------------------ block leaves */

static const char *lower_has(const char *s, const char *part)
{
	char buf[128];
	size_t i = 0;
	for (; s && s[i] && i + 1 < sizeof(buf); i++)
		buf[i] =
		    (char)((s[i] >= 'A' && s[i] <= 'Z') ? s[i] + 32 : s[i]);
	buf[i] = 0;
	return strstr(buf, part) ? s : NULL;
}

/* The name a leaf is written through: its macro, its variable, or the
 * macro of another file whose expansion stands where it is
 * (`WARP_SIZE` from a header). */
static const char *leaf_name(finder *F, const fe_leaf *l)
{
	const fe_node *x = &F->a->n[l->node];
	if (x->macro >= 0)
		return F->a->n[x->macro].name;
	if (l->var || x->spelled || !x->in_main || x->e <= x->b)
		return l->var;
	const char *t = F->tu->text + x->b;
	size_t n = x->e - x->b;
	for (size_t i = 0; i < n; i++)
		if (!(t[i] == '_' || (t[i] >= 'a' && t[i] <= 'z') ||
		      (t[i] >= 'A' && t[i] <= 'Z') ||
		      (i && t[i] >= '0' && t[i] <= '9')))
			return NULL;
	return fe_say(F, "%.*s", (int)n, t);
}

/* Makes (or finds) the candidate of a launch leaf; returns its index. */
static int leaf_cand(finder *F, int k, int li, int dim, const fe_leaf *l,
                     kt_role role, const char *evidence)
{
	fe_ast *a = F->a;
	const fe_node *x = &a->n[l->node];
	kt_candidate kc = fe_cand_init();
	fe_cand cx = fe_cx_init();
	uint32_t b = x->b, e = x->e;
	if (x->macro >= 0) {
		int64_t v;
		if (!fe_macro_int(a, x->macro, &v, &b, &e))
			return -1;
		kc.kind = KT_CAND_MACRO;
		kc.site = KT_SITE_MACRO;
		cx.node = x->macro;
	} else {
		int up = fe_up(a, l->node);
		bool in_var = up >= 0 && a->n[up].kind == CXCursor_VarDecl;
		bool in_dim3 = up >= 0 && a->n[up].kind == CXCursor_CallExpr &&
		               !strcmp(a->n[up].name, "dim3");
		kc.kind = in_dim3 ? KT_CAND_DIM3 : KT_CAND_LAUNCH;
		kc.site = in_var    ? KT_SITE_CONSTEXPR
		          : in_dim3 ? KT_SITE_DIM3
		                    : KT_SITE_LAUNCH_BLOCK;
		if (in_var && !l->var)
			kc.site = KT_SITE_EXPR;
		cx.node = l->node;
	}
	int have = fe_cand_at(F, b);
	if (have >= 0)
		return have;
	kc.role = role;
	kc.range = kt_fe_make_range(F->tu, b, e);
	kc.value = l->value;
	kc.host = x->macro < 0; /* in the host function around the launch */
	kc.kernel = F->f->kernels.items[k].name;
	kc.name = leaf_name(F, l);
	kc.evidence = evidence;
	cx.kern = k;
	cx.launch = li;
	cx.dim = dim;
	return fe_add(F, kc, cx);
}

static void add_target(finder *F, int64_t v, int root, const char *with,
                       bool block_only, int k)
{
	fe_target t = {.value = v,
	               .root = root,
	               .with = with,
	               .block_only = block_only,
	               .kern = k};
	if (kt_vec_push(&F->targets, t))
		F->oom = 1;
}

static void reject_leaf(finder *F, int k, int li, int dim, const fe_leaf *l,
                        kt_reason why, const char *msg)
{
	int i = leaf_cand(F, k, li, dim, l, KT_ROLE_OTHER, msg);
	if (i >= 0 && !F->items.items[i].rejected &&
	    F->items.items[i].link < 0) {
		F->items.items[i].rejected = true;
		F->items.items[i].reason = why;
	}
}

/* A leaf inside a launch wrapper that serves several calls: changing it
 * would change the other launches too, so it is listed and left. */
static bool shared_leaf(finder *F, int k, int li, int dim, const fe_leaf *l)
{
	fe_ast *a = F->a;
	const fe_launch *L = &F->f->kernels.items[k].launches.items[li];
	int w = L->shared, n = l->node;
	if (w < 0 || !a->n[n].in_main || a->n[n].b < a->n[w].b ||
	    a->n[n].e > a->n[w].e)
		return false;
	reject_leaf(F, k, li, dim, l, KT_REASON_UNSAFE,
	            fe_say(F,
	                   "inside the launch wrapper '%s', which serves "
	                   "other launches too: a parameter there would "
	                   "change them all",
	                   a->n[w].name));
	return true;
}

/* A name that counts warps (`num_warps_per_block`, `kWarpsPerBlock`,
 * `WARPS`), not the size of one. */
static bool warp_count(const char *name)
{
	return lower_has(name, "warps") || lower_has(name, "per_block") ||
	       lower_has(name, "perblock") || lower_has(name, "per_cta");
}

/* 32 beside other factors, unnamed or named for warps: the warp size. */
static bool warp_factor(finder *F, const fe_leaves *lv, const fe_leaf *l)
{
	const char *name = leaf_name(F, l);
	return l->value == 32 && lv->len > 1 &&
	       (!name ||
	        ((lower_has(name, "warp") || lower_has(name, "lane")) &&
	         !warp_count(name)));
}

/* Picks the leaf a block dimension is tuned through; -1 if none. */
static int pick_root(finder *F, fe_leaves *lv, bool product)
{
	if (!product || !lv->len)
		return -1;
	int best = -1, named = -1, n = 0;
	for (size_t i = 0; i < lv->len; i++) {
		if (warp_factor(F, lv, &lv->items[i]))
			continue;
		n++;
		best = best < 0 ? (int)i : best;
		if (lower_has(leaf_name(F, &lv->items[i]), "per_block") ||
		    lower_has(leaf_name(F, &lv->items[i]), "perblock") ||
		    lower_has(leaf_name(F, &lv->items[i]), "warps"))
			named = (int)i;
	}
	return n == 1 ? best : named;
}

static kt_role dim_role(finder *F, const fe_leaf *l, int64_t factor)
{
	const char *name = leaf_name(F, l);
	if (factor == 32 || lower_has(name, "warp"))
		return KT_ROLE_WARPS;
	if (factor > 1)
		return KT_ROLE_PER_BLOCK;
	if (F->a->n[l->node].macro >= 0 &&
	    (lower_has(name, "tile") || lower_has(name, "rows")))
		return KT_ROLE_TILE;
	return KT_ROLE_BLOCK_SIZE;
}

/* One block dimension of one launch: a root leaf, the others rejected. */
static void block_dim(finder *F, int k, int li, int dim, int n)
{
	fe_leaves lv = {0};
	int64_t v = 0;
	bool product = false;
	fe_launch *L = &F->f->kernels.items[k].launches.items[li];
	if (!fe_eval(F, n, &v, &lv, &product)) {
		kt_vec_release(&lv);
		L->ndims = 0;
		return;
	}
	L->block[dim] = v;
	int r = pick_root(F, &lv, product);
	if (r >= 0 && lv.items[r].value <= 1)
		r = -1; /* an unused dimension (dim3(x, y, 1)) is no knob */
	const char *where = NULL;
	for (size_t i = 0; i < lv.len; i++) {
		const fe_leaf *l = &lv.items[i];
		if ((int)i == r || shared_leaf(F, k, li, dim, l))
			continue;
		if (warp_factor(F, &lv, l))
			reject_leaf(
			    F, k, li, dim, l, KT_REASON_WARP_SIZE,
			    "the warp size, a factor of the block size");
		else if (fe_shuffle_fixed(F, l->value, &where))
			reject_leaf(F, k, li, dim, l, KT_REASON_UNSAFE,
			            fe_say(F,
			                   "threads per unit of the block; "
			                   "the xor-shuffle reduction in '%s' "
			                   "hard-codes offsets for %lld lanes",
			                   where, (long long)l->value));
		else
			reject_leaf(F, k, li, dim, l, KT_REASON_UNTIED,
			            fe_say(F,
			                   "a factor of the block size %lld "
			                   "beside another one",
			                   (long long)v));
	}
	/* a block one warp wide in a kernel that shuffles: its lanes are
	 * the warp's, and a wider block gives the warp's work to threads the
	 * kernel does not expect (its rows per warp, its lane masks) */
	const char *sh = NULL;
	if (r >= 0 && lv.items[r].value == 32 &&
	    lower_has(leaf_name(F, &lv.items[r]), "warp") &&
	    !warp_count(leaf_name(F, &lv.items[r])) &&
	    !shared_leaf(F, k, li, dim, &lv.items[r])) {
		/* `dim3 block(WARP_SIZE)`: the kernel's own uses of the warp
		 * size (a stride, a shuffle width) would not follow */
		reject_leaf(F, k, li, dim, &lv.items[r], KT_REASON_WARP_SIZE,
		            fe_say(F, "the warp size ('%s')",
		                   leaf_name(F, &lv.items[r])));
		r = -1;
	}
	if (r >= 0 && dim == 0 && v == 32 && fe_warp_shuffles(F, &sh) &&
	    !shared_leaf(F, k, li, dim, &lv.items[r])) {
		reject_leaf(F, k, li, dim, &lv.items[r], KT_REASON_WARP_SIZE,
		            fe_say(F,
		                   "the block is one warp wide and '%s' "
		                   "exchanges values by warp shuffles",
		                   sh));
		r = -1;
	}
	if (r >= 0 && !shared_leaf(F, k, li, dim, &lv.items[r])) {
		int64_t f = lv.items[r].value ? v / lv.items[r].value : 1;
		kt_role role = dim_role(F, &lv.items[r], f);
		const char *ev = fe_say(F, "block size%s of the launch of '%s'",
		                        dim ? (dim == 1 ? " (y)" : " (z)") : "",
		                        F->f->kernels.items[k].name);
		int c = leaf_cand(F, k, li, dim, &lv.items[r], role, ev);
		if (c >= 0 && f > 1) {
			add_target(F, v, c,
			           fe_say(F, "($ * %lld)", (long long)f), false,
			           k);
			add_target(F, lv.items[r].value, c, "$", true, k);
		} else if (c >= 0) {
			add_target(F, v, c, "$", false, k);
			/* a tree reduction's first step: `for (s = 128; s >
			 * 0; s >>= 1) if (threadIdx.x < s) ...` for 256 */
			if (dim == 0 && v % 2 == 0 && v >= 64 &&
			    role == KT_ROLE_BLOCK_SIZE) {
				add_target(F, v / 2, c, "($ / 2)", false, k);
				F->targets.items[F->targets.len - 1].half =
				    true;
			}
			/* one warp per unit of work: blockIdx.x * (v / 32) */
			if (dim == 0 && v % 32 == 0 && v / 32 > 1 &&
			    role == KT_ROLE_BLOCK_SIZE) {
				add_target(F, v / 32, c, "($ / 32)", true, k);
				F->targets.items[F->targets.len - 1].weak =
				    true;
			}
		}
	}
	kt_vec_release(&lv);
}

/* One cap leaf: the root (the first), or a literal that follows it. */
static int cap_leaf(finder *F, int k, int li, const fe_leaf *l, int root,
                    int64_t max)
{
	const char *ev =
	    root >= 0 ? "the same cap of the block size"
	              : fe_say(F,
	                       "the cap of the block size of the launch of "
	                       "'%s'; the kernel serves any block size",
	                       F->f->kernels.items[k].name);
	int c = leaf_cand(F, k, li, 0, l, KT_ROLE_BLOCK_SIZE, ev);
	if (c < 0)
		return root;
	kt_candidate *x = &F->items.items[c];
	if (x->site == KT_SITE_LAUNCH_BLOCK || x->site == KT_SITE_DIM3) {
		x->site = KT_SITE_EXPR; /* inside the operand, not all of it */
		x->kind = KT_CAND_LAUNCH;
	}
	if (root < 0) {
		F->f->cx.items[c].max = max;
		return c;
	}
	if (c != root && x->kind != KT_CAND_MACRO) {
		x->link = root;
		x->with = "$";
	}
	return root;
}

static void collect_leaves(finder *F, int n, fe_leaves *lv, const char *var,
                           int depth, int divisors);

/* The launch's grid divides by the cap (`(n + C - 1) / C`), so its
 * literal follows the cap's parameter and the blocks cover the work. */
static bool grid_counts(finder *F, const fe_launch *L, int64_t cap)
{
	fe_leaves g = {0};
	bool found = false;
	if (L->op[0] >= 0)
		collect_leaves(F, L->op[0], &g, NULL, 0, 0);
	for (size_t i = 0; i < g.len && !found; i++)
		found = g.items[i].value == cap && g.items[i].divisors > 0;
	kt_vec_release(&g);
	return found;
}

/* A block size clamped at run time (`min(d / 8, 1024)`): the cap is the
 * root when the kernel serves any block size, else it is listed unsafe. */
static void cap_root(finder *F, int k, int li, int n)
{
	fe_leaves lv = {0};
	int64_t max = 0;
	fe_launch *L = &F->f->kernels.items[k].launches.items[li];
	if (!fe_block_cap(F, n, &lv, &L->capped)) {
		kt_vec_release(&lv);
		return;
	}
	bool indexed;
	const char *why =
	    fe_any_block_size(F, k, lv.items[0].value, &max, &indexed);
	if (!why && indexed && !grid_counts(F, L, lv.items[0].value))
		why = "a global index over blockDim.x with a grid that does "
		      "not count blocks of the cap";
	int root = -1;
	for (size_t i = 0; i < lv.len; i++)
		if (shared_leaf(F, k, li, 0, &lv.items[i]))
			continue;
		else if (why)
			reject_leaf(F, k, li, 0, &lv.items[i], KT_REASON_UNSAFE,
			            fe_say(F,
			                   "the cap of a block size computed "
			                   "at run time, but %s",
			                   why));
		else
			root = cap_leaf(F, k, li, &lv.items[i], root, max);
	kt_vec_release(&lv);
}

static void launch_block(finder *F, int k, int li)
{
	fe_ast *a = F->a;
	fe_launch *L = &F->f->kernels.items[k].launches.items[li];
	int op = L->op[1];
	if (op < 0)
		return;
	int d3 = fe_dim3(a, op);
	if (d3 < 0) {
		L->ndims = 1;
		block_dim(F, k, li, 0, op);
		if (!L->ndims)
			cap_root(F, k, li, op);
		return;
	}
	L->ndims = fe_nwritten(a, d3);
	for (int d = 0; d < L->ndims && d < 3; d++)
		block_dim(F, k, li, d, fe_written(a, d3, d));
}

/* Two roots with the same value in different dims cannot be told apart
 * inside the kernel: such targets are dropped (classify.c reports the
 * literals as ambiguous). */
static void mark_ambiguous(finder *F, int k)
{
	for (size_t i = 0; i < F->targets.len; i++)
		for (size_t j = 0; j < i; j++) {
			fe_target *s = &F->targets.items[i];
			fe_target *t = &F->targets.items[j];
			if (s->kern == k && t->kern == k &&
			    s->value == t->value && s->root != t->root &&
			    s->weak == t->weak)
				s->ambiguous = t->ambiguous = true;
		}
}

/* --------------------------------------------------------------- grid */

/* Literals an expression is built from, through local variables; each
 * with the number of divisors it lies in (`a / (b / c)`: a 0, b 1, c 2). */
static void collect_leaves(finder *F, int n, fe_leaves *lv, const char *var,
                           int depth, int divisors)
{
	fe_ast *a = F->a;
	n = fe_strip(a, n);
	if (n < 0 || depth > 16)
		return;
	const fe_node *x = &a->n[n];
	if (x->kind == CXCursor_IntegerLiteral && x->is_int) {
		fe_leaf l = {n, var, x->ival, divisors};
		if (kt_vec_push(lv, l))
			F->oom = 1;
		return;
	}
	int def = x->kind == CXCursor_DeclRefExpr ? var_value(F, n) : -1;
	if (def >= 0) {
		collect_leaves(F, def, lv, a->n[x->ref].name, depth + 1,
		               divisors);
		return;
	}
	int divisor =
	    x->kind == CXCursor_BinaryOperator && x->op == CXBinaryOperator_Div
	        ? fe_child(a, n, 1)
	        : -1;
	for (int c = x->first; c >= 0; c = a->n[c].next)
		collect_leaves(F, c, lv, NULL, depth + 1,
		               divisors + (c == divisor));
}

/* The candidate that `blockIdx.<d> * X` in the kernel multiplies by. */
static int grid_unit(finder *F, int k, int li, int d)
{
	fe_ast *a = F->a;
	fe_kern *K = &F->f->kernels.items[k];
	const char dim = (char)('x' + d);
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *m = &a->n[i];
		if (m->kind != CXCursor_BinaryOperator ||
		    m->op != CXBinaryOperator_Mul || !m->in_main ||
		    m->b < a->n[K->body].b || m->e > a->n[K->body].e)
			continue;
		int l = fe_child(a, (int)i, 0), r = fe_child(a, (int)i, 1);
		int o = fe_builtin(a, l, "blockIdx") == dim   ? r
		        : fe_builtin(a, r, "blockIdx") == dim ? l
		                                              : -1;
		o = fe_strip(a, o);
		if (o < 0)
			continue;
		if (a->n[o].kind == CXCursor_IntegerLiteral && a->n[o].spelled)
			return fe_cand_at(F, a->n[o].b);
		if (a->n[o].kind == CXCursor_DeclRefExpr && a->n[o].ref >= 0)
			for (size_t c = 0; c < F->items.len; c++)
				if (F->f->cx.items[c].kern == k &&
				    F->f->cx.items[c].launch == li &&
				    F->f->cx.items[c].tparam >= 0 &&
				    K->tparams
				            .items[F->f->cx.items[c].tparam] ==
				        a->n[o].ref)
					return (int)c;
	}
	return -1;
}

static int block_root(finder *F, int k, int li, int d)
{
	for (size_t c = 0; c < F->items.len; c++) {
		const fe_cand *x = &F->f->cx.items[c];
		if (x->kern == k && x->launch == li && x->dim == d &&
		    F->items.items[c].link < 0 && !F->items.items[c].rejected)
			return (int)c;
	}
	return -1;
}

/* How a grid literal of value v follows candidate u (root or linked). */
static const char *follow(finder *F, int u, int64_t v, int *root)
{
	if (u < 0)
		return NULL;
	const kt_candidate *c = &F->items.items[u];
	if (c->rejected)
		return NULL;
	const char *with = c->link >= 0 ? c->with : "$";
	*root = c->link >= 0 ? c->link : u;
	if (v == c->value)
		return with;
	if (v == c->value - 1)
		return !strcmp(with, "$") ? "($ - 1)"
		                          : fe_say(F, "(%s - 1)", with);
	return NULL;
}

/*
 * A template argument at launch li whose parameter the kernel body uses
 * as the block size is the block size: one parameter with the launch's
 * block literal of the same value (changing one without the other would
 * be wrong); with no such literal it stays as it is.
 */
static void tie_template_block(finder *F, int k, int li)
{
	const fe_kern *K = &F->f->kernels.items[k];
	for (size_t c = 0; c < F->items.len; c++) {
		kt_candidate *x = &F->items.items[c];
		const fe_cand *cx = &F->f->cx.items[c];
		if (x->kind != KT_CAND_TEMPLATE_ARG || cx->kern != k ||
		    cx->launch != li || x->link >= 0 || x->rejected ||
		    cx->tparam < 0 || (size_t)cx->tparam >= K->tparams.len)
			continue;
		const char *why =
		    fe_tparam_block(F, k, K->tparams.items[cx->tparam]);
		int root = why ? block_root(F, k, li, 0) : -1;
		if (!why)
			continue;
		if (root < 0 || F->items.items[root].value != x->value) {
			x->rejected = true;
			x->reason = KT_REASON_UNTIED;
			x->evidence =
			    fe_say(F,
			           "the kernel uses %s as its block "
			           "size (%s), but the launch's block is "
			           "not this literal: one cannot change "
			           "without the other",
			           x->name, why);
			continue;
		}
		x->link = root;
		x->with = "$";
		x->role = F->items.items[root].role;
		x->evidence = fe_say(F,
		                     "template argument %s of kernel '%s', "
		                     "which its body uses as the block size "
		                     "(%s)",
		                     x->name, K->name, why);
	}
}

/* Whether candidate c is a template argument of launch li whose
 * parameter is the work of a thread (see fe_tparam_items). */
static bool items_at(finder *F, int k, int li, int c)
{
	const fe_kern *K = &F->f->kernels.items[k];
	const kt_candidate *x = &F->items.items[c];
	const fe_cand *cx = &F->f->cx.items[c];
	return x->kind == KT_CAND_TEMPLATE_ARG && cx->kern == k &&
	       cx->launch == li && cx->tparam >= 0 &&
	       (size_t)cx->tparam < K->tparams.len &&
	       fe_tparam_items(F, k, K->tparams.items[cx->tparam]);
}

/* Such an argument of value v, a root: the grid follows it. */
static int items_arg(finder *F, int k, int li, int64_t v)
{
	for (size_t c = 0; c < F->items.len; c++) {
		const kt_candidate *x = &F->items.items[c];
		if (x->link < 0 && !x->rejected && x->value == v &&
		    items_at(F, k, li, (int)c))
			return (int)c;
	}
	return -1;
}

/*
 * A grid literal of launch li that is the block's value times a
 * thread's items folded (`(n + 511) / 512` for `scale<4><<<..., 128>>>`,
 * the 512 a step, the 511 its rounding term): the items argument (see
 * items_arg) whose product with block root r it is, else -1; *with: the
 * literal's text over the two, `$` the block and `@` the items.
 */
static int items_product(finder *F, int k, int li, int r, const fe_leaf *l,
                         const char **with)
{
	const fe_ast *a = F->a;
	int up = fe_up(a, l->node);
	bool step = l->divisors == 1;
	bool rounding = !l->divisors && up >= 0 &&
	                a->n[up].kind == CXCursor_BinaryOperator &&
	                a->n[up].op == CXBinaryOperator_Add;
	if (r < 0 || (!step && !rounding))
		return -1;
	int64_t b = F->items.items[r].value;
	for (size_t c = 0; c < F->items.len; c++) {
		const kt_candidate *x = &F->items.items[c];
		if (x->link >= 0 || x->rejected || x->value < 2 ||
		    !items_at(F, k, li, (int)c))
			continue;
		if (step && l->value == b * x->value) {
			*with = "($ * @)";
			return (int)c;
		}
		if (rounding && l->value == b * x->value - 1) {
			*with = "($ * @ - 1)";
			return (int)c;
		}
	}
	return -1;
}

static int grid_step_node(finder *F, int n);

/*
 * A warp per unit of work (`warp = (blockIdx.x * blockDim.x +
 * threadIdx.x) / 32`) and a grid of the units over the block's warps
 * (`(rows + 3) / 4` for 128 threads): the step w and the rounding term w -
 * 1 follow the block as `$ / 32` (its values are multiples of 32).
 */
static const char *warp_step(finder *F, int k, int li, const fe_leaf *l,
                             int *root)
{
	const fe_launch *L = &F->f->kernels.items[k].launches.items[li];
	int r = block_root(F, k, li, 0);
	if (r < 0 || F->items.items[r].role != KT_ROLE_BLOCK_SIZE ||
	    F->items.items[r].value % 32 || F->items.items[r].value < 64 ||
	    !fe_global_warps(F, k) || L->op[0] < 0)
		return NULL;
	int64_t w = F->items.items[r].value / 32;
	int sn =
	    grid_step_node(F, fe_dim3(F->a, L->op[0]) >= 0
	                          ? fe_written(F->a, fe_dim3(F->a, L->op[0]), 0)
	                          : L->op[0]);
	fe_leaves sl = {0};
	if (sn >= 0)
		collect_leaves(F, sn, &sl, NULL, 0, 0);
	bool stepped = sl.len == 1 && sl.items[0].value == w;
	bool is_step = stepped && sl.items[0].node == l->node;
	kt_vec_release(&sl);
	if (!stepped || (!is_step && (l->value != w - 1 || l->divisors)))
		return NULL;
	*root = r;
	return is_step ? "($ / 32)" : "($ / 32 - 1)";
}

static void grid_leaf(finder *F, int k, int li, int d, const fe_leaf *l)
{
	fe_ast *a = F->a;
	const fe_node *x = &a->n[l->node];
	int w = F->f->kernels.items[k].launches.items[li].shared;
	/* the grid is n over a step (`(n + S - 1) / S`): a literal of the
	 * step scales with the block; one in a divisor of the step (the
	 * vector width in `32 / (E / (V * W))`) does not, whatever its value */
	/* an expansion of a macro from another file: only the one the
	 * block is written through, which must move with it everywhere */
	int br = block_root(F, k, li, d);
	const char *nm = x->spelled ? NULL : leaf_name(F, l);
	bool same_macro = nm && x->macro < 0 && br >= 0 &&
	                  F->items.items[br].name &&
	                  !strcmp(F->items.items[br].name, nm);
	if ((!x->spelled && !same_macro) || fe_cand_at(F, x->b) >= 0 ||
	    l->divisors > 1 ||
	    (w >= 0 && x->b >= a->n[w].b && x->e <= a->n[w].e))
		return;
	int root = -1;
	const char *with = follow(F, grid_unit(F, k, li, d), l->value, &root);
	if (!with)
		with = follow(F, block_root(F, k, li, d), l->value, &root);
	for (size_t t = 0; !with && t < F->targets.len; t++) {
		fe_target *g = &F->targets.items[t];
		if (g->kern == k && !g->ambiguous && !g->arith)
			with = follow(F, g->root, l->value, &root);
	}
	if (!with && d == 0)
		with = warp_step(F, k, li, l, &root);
	/* the work of a thread scales the grid: a factor or a divisor, never
	 * a rounding term (`n + b - 1`), and never a trivial 1 */
	int pu = fe_up(a, l->node);
	bool scales =
	    pu >= 0 && a->n[pu].kind == CXCursor_BinaryOperator &&
	    (a->n[pu].op == CXBinaryOperator_Mul ||
	     (a->n[pu].op == CXBinaryOperator_Div && fe_child(a, pu, 1) >= 0 &&
	      fe_strip(a, fe_child(a, pu, 1)) == l->node));
	int items = with || !scales || l->value < 2
	                ? -1
	                : items_arg(F, k, li, l->value);
	if (items >= 0) {
		root = items;
		with = "$";
	}
	/* `n / 256`: the grid divides the problem exactly, no rounding term */
	int num = pu >= 0 && a->n[pu].kind == CXCursor_BinaryOperator &&
	                  a->n[pu].op == CXBinaryOperator_Div &&
	                  fe_strip(a, fe_child(a, pu, 1)) == l->node
	              ? fe_strip(a, fe_child(a, pu, 0))
	              : -1;
	if (with && !strcmp(with, "$") && num >= 0 &&
	    a->n[num].kind != CXCursor_BinaryOperator &&
	    a->n[num].kind != CXCursor_IntegerLiteral)
		F->f->cx.items[root].divides = true;
	int times = -1;
	if (!with && d == 0) {
		times =
		    items_product(F, k, li, block_root(F, k, li, 0), l, &with);
		if (times >= 0)
			root = block_root(F, k, li, 0);
	}
	if (!with)
		return;
	int up = fe_up(a, l->node);
	kt_candidate kc = fe_cand_init();
	kc.kind = KT_CAND_LAUNCH;
	kc.role = F->items.items[root].role;
	kc.site = l->var ? KT_SITE_EXPR
	          : up >= 0 && a->n[up].kind == CXCursor_CallExpr
	              ? KT_SITE_DIM3
	              : KT_SITE_LAUNCH_GRID;
	kc.range = kt_fe_make_range(F->tu, x->b, x->e);
	kc.value = l->value;
	kc.host = true;
	kc.kernel = F->f->kernels.items[k].name;
	kc.link = root;
	kc.with = with;
	kc.link2 = times;
	kc.evidence = times >= 0 ? "the grid covers the problem in steps of "
	                           "the block times a thread's items"
	                         : "the grid covers the problem in steps of "
	                           "this value";
	fe_cand cx = fe_cx_init();
	cx.node = l->node;
	cx.kern = k;
	cx.launch = li;
	cx.dim = d;
	fe_add(F, kc, cx);
}

/* ------------------------------------------------------ blocks per SM */

/* Literal node n as a factor of an SM count (`4 * nsm`, `(int64_t)4 *
 * nsm`, `prop.multiProcessorCount * 3`): the count's name, else NULL. */
static const char *sm_factor(const fe_ast *a, int n)
{
	int up = fe_up(a, n);
	if (up < 0 || a->n[up].kind != CXCursor_BinaryOperator ||
	    a->n[up].op != CXBinaryOperator_Mul)
		return NULL;
	int l = fe_child(a, up, 0), r = fe_child(a, up, 1);
	if (l < 0 || r < 0)
		return NULL;
	return fe_strip(a, l) == n   ? fe_sm_count(a, r)
	       : fe_strip(a, r) == n ? fe_sm_count(a, l)
	                             : NULL;
}

/* Where a host literal stands, for the rewriter: through a local, in a
 * dim3 constructor, or in the launch's grid operand. */
static kt_site host_site(const fe_ast *a, int n, bool through_var)
{
	int up = fe_up(a, n);
	return through_var ? KT_SITE_EXPR
	       : up >= 0 && a->n[up].kind == CXCursor_CallExpr
	           ? KT_SITE_DIM3
	           : KT_SITE_LAUNCH_GRID;
}

/*
 * A literal k of launch li's grid that multiplies the SM count: the grid
 * is k blocks per SM, a parameter (a persistent kernel's waves, a
 * reduction's partial sums). Every other `k * <an SM count>` written in
 * the host function around the launch follows it: the work of a block is
 * often that product's share of the problem (`dk = (ne + 4*nsm - 1) /
 * (4*nsm)`), and must move with the grid; where one cannot (inside a
 * macro's argument), the literal stays, rejected as unsafe.
 */
static bool sm_leaf(finder *F, int k, int li, int d, const fe_leaf *l)
{
	fe_ast *a = F->a;
	const fe_node *x = &a->n[l->node];
	const fe_launch *L = &F->f->kernels.items[k].launches.items[li];
	const char *sm = sm_factor(a, l->node);
	int w = L->shared;
	if (!sm || !x->spelled || !x->in_main || l->value < 1 ||
	    l->value > 64 || l->divisors || fe_cand_at(F, x->b) >= 0 ||
	    (w >= 0 && x->b >= a->n[w].b && x->e <= a->n[w].e))
		return false;
	/* every other product of the literal and an SM count in the host
	 * function; each must be one the rewriter can follow: written in
	 * the file (not a macro's expansion) and no other candidate's, else
	 * the parameter would leave it behind */
	int fn = L->host_fn, blocker = -1;
	KT_VEC(int) products = {0};
	for (size_t i = 0; fn >= 0 && blocker < 0 && i < a->len; i++) {
		const fe_node *y = &a->n[i];
		if (y->kind != CXCursor_IntegerLiteral || !y->is_int ||
		    (int)i == l->node || !y->in_main || y->ival != l->value ||
		    y->b < a->n[fn].b || y->e > a->n[fn].e ||
		    !sm_factor(a, (int)i))
			continue;
		if (!y->spelled || fe_cand_at(F, y->b) >= 0)
			blocker = (int)i;
		else if (kt_vec_push(&products, (int)i))
			F->oom = 1;
	}
	if (blocker >= 0) {
		kt_vec_release(&products);
		kt_range at =
		    kt_fe_make_range(F->tu, a->n[blocker].b, a->n[blocker].e);
		reject_leaf(F, k, li, d, l, KT_REASON_UNSAFE,
		            fe_say(F,
		                   "'%lld' times the SM count '%s' also "
		                   "stands at %d:%d, where a parameter could "
		                   "not follow (%s): the grid and that "
		                   "product must move together",
		                   (long long)l->value, sm, at.begin.line,
		                   at.begin.col,
		                   a->n[blocker].spelled
		                       ? "another parameter's literal"
		                       : "in the expansion of a macro of "
		                         "another file"));
		return true;
	}
	kt_candidate kc = fe_cand_init();
	kc.kind = KT_CAND_LAUNCH;
	kc.role = KT_ROLE_GRID;
	kc.site = host_site(a, l->node, l->var != NULL);
	kc.range = kt_fe_make_range(F->tu, x->b, x->e);
	kc.value = l->value;
	kc.host = true;
	kc.kernel = F->f->kernels.items[k].name;
	kc.evidence = fe_say(F,
	                     "the grid is %lld blocks per SM (a factor of "
	                     "'%s')",
	                     (long long)l->value, sm);
	fe_cand cx = fe_cx_init();
	cx.node = l->node;
	cx.kern = k;
	cx.launch = li;
	cx.dim = d;
	int root = fe_add(F, kc, cx);
	for (size_t j = 0; root >= 0 && j < products.len; j++) {
		int i = products.items[j];
		kt_candidate lc = kc;
		lc.site =
		    host_site(a, i, fe_ancestor(a, i, CXCursor_VarDecl) >= 0);
		lc.range = kt_fe_make_range(F->tu, a->n[i].b, a->n[i].e);
		lc.link = root;
		lc.with = "$";
		lc.evidence = fe_say(F,
		                     "the same %lld blocks per SM as the "
		                     "grid's",
		                     (long long)l->value);
		fe_cand lx = cx;
		lx.node = i;
		fe_add(F, lc, lx);
	}
	kt_vec_release(&products);
	return root >= 0;
}

/* Whether grid literal l is launch li's block (root r, of dimension 0,
 * or another dimension's: a grid `(w + b.x - 1) / b.x` reads the block's
 * dim3, whose literals all come with it) or tied to it: a candidate at l,
 * the expansion of the macro r (or a candidate tied to r) makes a
 * parameter, or an expansion of the macro of another file r stands at
 * (all of whose expansions follow one parameter, or none:
 * foreign_macro_roots). */
static bool leaf_follows(finder *F, int k, int li, int r, const fe_leaf *l)
{
	const fe_node *x = &F->a->n[l->node];
	const char *nm = x->spelled ? NULL : leaf_name(F, l);
	const kt_candidate *root = &F->items.items[r];
	if (nm && x->macro < 0 && root->name && !strcmp(root->name, nm))
		return true;
	for (size_t c = 0; c < F->items.len; c++) {
		const kt_candidate *y = &F->items.items[c];
		int rt = y->link >= 0 ? y->link : (int)c;
		if (y->rejected || (rt != r && rt != block_root(F, k, li, 1) &&
		                    rt != block_root(F, k, li, 2)))
			continue;
		if (y->range.begin.offset == x->b ||
		    (!x->spelled && x->macro >= 0 && y->kind == KT_CAND_MACRO &&
		     F->f->cx.items[c].node == x->macro))
			return true;
	}
	return false;
}

/*
 * A kernel whose threads cover the work by the global index needs a grid
 * that counts blocks of its block size. Where the grid steps over the
 * problem by a multiple of the block's value that follows no parameter
 * (`(n + 511) / 512` for 128 threads of 4 items each, the product
 * folded), a block other than the default, or another number of items a
 * thread, would leave work undone: the block and the launch's items
 * arguments stay literals.
 */
/* The divisor of grid operand n's outermost division (`(rows + 3) / 4`,
 * a call `cdiv(rows, 4)`: the 4), through locals and casts; else -1. */
static int grid_step_node(finder *F, int n)
{
	fe_ast *a = F->a;
	for (int depth = 0; depth < 8; depth++) {
		n = fe_strip(a, n);
		if (n < 0)
			return -1;
		const fe_node *x = &a->n[n];
		int def =
		    x->kind == CXCursor_DeclRefExpr ? var_value(F, n) : -1;
		if (def >= 0) {
			n = def;
			continue;
		}
		if (x->kind == CXCursor_BinaryOperator &&
		    x->op == CXBinaryOperator_Div)
			return fe_child(a, n, 1);
		if (x->kind == CXCursor_CallExpr && fe_nwritten(a, n) == 3 &&
		    lower_has(x->name, "div"))
			return fe_written(a, n, 2);
		return -1;
	}
	return -1;
}

/* Leaf l of a grid's step is a thread's items (a launch's items
 * argument or a candidate of one) or the block times them. */
static bool items_step(finder *F, int k, int li, const fe_leaf *l)
{
	int c = fe_cand_at(F, F->a->n[l->node].b);
	return c >= 0 &&
	       (items_at(F, k, li, c) || F->items.items[c].link2 >= 0);
}

static void grid_steps(finder *F, int k, int li, int d, int op,
                       const fe_leaves *lv, bool alone)
{
	int r = block_root(F, k, li, d);
	if (r < 0 || F->items.items[r].value < 1)
		return;
	int64_t b = F->items.items[r].value;
	const char *why = NULL;
	if (alone) {
		/* along any dimension: the blocks times the threads are the
		 * items covered */
		char dc = "xyz"[d];
		if (fe_indexed_along(F, k, dc) && !fe_index_loops(F, k, dc))
			why =
			    fe_say(F,
			           "the grid is a fixed count of blocks and "
			           "each thread covers its global index: a "
			           "block other than %lld threads would cover "
			           "another number of items",
			           (long long)b);
	} else if (d == 0 && fe_indexed_cover(F, k)) {
		const fe_leaf *step = NULL;
		for (size_t i = 0; i < lv->len && !step; i++) {
			const fe_leaf *l = &lv->items[i];
			if (l->divisors != 1 || l->value < b || l->value % b)
				continue;
			if (F->a->n[l->node].in_main &&
			    !leaf_follows(F, k, li, r, l))
				step = l;
		}
		/* the grid's own step, whatever its value: `(rows + 3) / 4`
		 * with a warp per row and 4 warps a block */
		fe_leaves sl = {0};
		int sn = grid_step_node(F, op);
		if (!step && sn >= 0)
			collect_leaves(F, sn, &sl, NULL, 0, 0);
		if (!step && sl.len == 1 && sl.items[0].value > 1 &&
		    F->a->n[sl.items[0].node].in_main &&
		    !leaf_follows(F, k, li, r, &sl.items[0]) &&
		    !items_step(F, k, li, &sl.items[0]))
			step = &sl.items[0];
		if (step)
			why =
			    fe_say(F,
			           "the grid covers the problem in steps of "
			           "%lld, which follows no parameter: a block "
			           "other than %lld threads, or other work per "
			           "thread, would leave work undone",
			           (long long)step->value, (long long)b);
		kt_vec_release(&sl);
		step = NULL;
		if (step)
			why =
			    fe_say(F,
			           "the grid covers the problem in steps of "
			           "%lld, which follows no parameter: a block "
			           "other than %lld threads, or other work per "
			           "thread, would leave work undone",
			           (long long)step->value, (long long)b);
	}
	if (!why)
		return;
	for (size_t c = 0; c < F->items.len; c++) {
		kt_candidate *x = &F->items.items[c];
		if (x->rejected ||
		    ((int)c != r && (d != 0 || !items_at(F, k, li, (int)c))))
			continue;
		x->rejected = true;
		x->reason = KT_REASON_UNSAFE;
		x->evidence = why;
	}
}

/* The literal a grid's divisor stands for: itself, a local's literal
 * initialiser (`threads`), or a dim3's member (`b.x` of `dim3 b(16,
 * 16)`); else -1. */
static int divisor_literal(const finder *F, int n)
{
	const fe_ast *a = F->a;
	n = fe_strip(a, n);
	if (n >= 0 && a->n[n].kind == CXCursor_MemberRefExpr) {
		size_t len;
		const char *t = fe_text(a, n, &len);
		int d = len ? t[len - 1] - 'x' : -1;
		int d3 = d >= 0 && d < 3 ? fe_dim3(a, a->n[n].first) : -1;
		n = d3 >= 0 && d < fe_nwritten(a, d3)
		        ? fe_strip(a, fe_written(a, d3, d))
		        : -1;
	}
	int def = n >= 0 && a->n[n].kind == CXCursor_DeclRefExpr
	              ? var_value(F, n)
	              : -1;
	if (def >= 0)
		n = fe_strip(a, def);
	return n >= 0 && a->n[n].kind == CXCursor_IntegerLiteral ? n : -1;
}

/*
 * `n / b` in launch li's grid, no rounding term, where b is, or reads,
 * the launch's block (`width / dimBlock.x`, `n / threads`): the file
 * sizes the problem in multiples of the block, so its parameter keeps
 * the default's divisors (fe_cand.divides; grid_leaf marks a literal
 * divisor tied to the block).
 */
static void exact_divisions(finder *F, int k, int li, int n, int depth)
{
	fe_ast *a = F->a;
	n = fe_strip(a, n);
	if (n < 0 || depth > 16)
		return;
	const fe_node *x = &a->n[n];
	int def = x->kind == CXCursor_DeclRefExpr ? var_value(F, n) : -1;
	if (def >= 0) {
		exact_divisions(F, k, li, def, depth + 1);
		return;
	}
	if (x->kind == CXCursor_BinaryOperator &&
	    x->op == CXBinaryOperator_Div) {
		int num = fe_strip(a, fe_child(a, n, 0));
		int lit = divisor_literal(F, fe_child(a, n, 1));
		int c = lit >= 0 ? fe_cand_at(F, a->n[lit].b) : -1;
		const kt_candidate *y = c >= 0 ? &F->items.items[c] : NULL;
		int rt = !y || y->rejected       ? -1
		         : y->link < 0           ? c
		         : !strcmp(y->with, "$") ? y->link
		                                 : -1;
		bool block = rt >= 0 && (rt == block_root(F, k, li, 0) ||
		                         rt == block_root(F, k, li, 1) ||
		                         rt == block_root(F, k, li, 2));
		if (block && num >= 0 &&
		    a->n[num].kind != CXCursor_BinaryOperator &&
		    a->n[num].kind != CXCursor_IntegerLiteral)
			F->f->cx.items[rt].divides = true;
	}
	for (int c = x->first; c >= 0; c = a->n[c].next)
		exact_divisions(F, k, li, c, depth + 1);
}

/*
 * Launch li's dynamic shared memory counted in the block's default
 * threads (`<<<g, 256, 256 * sizeof(float)>>>` over `s[threadIdx.x]`): a
 * block of more threads would index past it, one of fewer leaves some
 * unused, and a buffer of a fixed size (256 histogram bins) serves any
 * block. The block's parameter is capped at that count (fe_cand.max).
 */
static void smem_cap(finder *F, int k, int li)
{
	const fe_launch *L = &F->f->kernels.items[k].launches.items[li];
	int r = block_root(F, k, li, 0);
	if (L->op[2] < 0 || r < 0)
		return;
	int64_t b = F->items.items[r].value;
	fe_leaves lv = {0};
	collect_leaves(F, L->op[2], &lv, NULL, 0, 0);
	bool counted = false;
	for (size_t i = 0; i < lv.len && !counted; i++)
		counted = lv.items[i].value == b &&
		          !leaf_follows(F, k, li, r, &lv.items[i]);
	kt_vec_release(&lv);
	fe_cand *cx = &F->f->cx.items[r];
	if (counted && (!cx->max || cx->max > b)) {
		cx->max = b;
		cx->smem = true;
	}
}

/* Node n is one literal, maybe through locals and casts. */
static bool lone_literal(finder *F, int n)
{
	fe_leaves lv = {0};
	int64_t v = 0;
	bool product = false;
	bool one = fe_eval(F, n, &v, &lv, &product) && product && lv.len == 1;
	kt_vec_release(&lv);
	return one;
}

/* A grid dimension d written as one literal (`<<<1024, 256>>>`, `dim3
 * grid(1024, rows)`, through a local), or as a clamp of a count at one
 * (`std::min((n + 255) / 256, 1024)`), for a kernel whose threads walk
 * their work in grid-stride loops along d (fe_grid_free): any count of
 * blocks covers the same work, so the count is a parameter. */
static void grid_count(finder *F, int k, int li, int d, int n)
{
	fe_ast *a = F->a;
	const fe_launch *L = &F->f->kernels.items[k].launches.items[li];
	fe_leaves lv = {0};
	int64_t v = 0;
	bool product = false, bounded = false;
	bool one = lone_literal(F, n) && fe_eval(F, n, &v, &lv, &product) &&
	           lv.len == 1;
	if (!one) {
		lv.len = 0;
		one = fe_block_cap(F, n, &lv, &bounded) && lv.len == 1;
	}
	const fe_node *x = one ? &a->n[lv.items[0].node] : NULL;
	int w = L->shared;
	/* a cooperative launch's blocks must all be resident at once: more
	 * than the original's may not launch */
	if (L->call >= 0 && strstr(a->n[L->call].name, "Cooperative"))
		x = NULL;
	if (!x || !x->spelled || !x->in_main || lv.items[0].value < 2 ||
	    fe_cand_at(F, x->b) >= 0 ||
	    (w >= 0 && x->b >= a->n[w].b && x->e <= a->n[w].e) ||
	    fe_grid_free(F, k, "xyz"[d])) {
		kt_vec_release(&lv);
		return;
	}
	kt_candidate kc = fe_cand_init();
	kc.kind = KT_CAND_LAUNCH;
	kc.role = KT_ROLE_GRID;
	kc.site = host_site(a, lv.items[0].node, lv.items[0].var != NULL);
	kc.range = kt_fe_make_range(F->tu, x->b, x->e);
	kc.value = lv.items[0].value;
	kc.host = true;
	kc.kernel = F->f->kernels.items[k].name;
	kc.evidence = fe_say(F,
	                     "'%s' walks its work in grid-stride loops: any "
	                     "count of blocks covers it",
	                     kc.kernel);
	fe_cand cx = fe_cx_init();
	cx.node = lv.items[0].node;
	cx.kern = k;
	cx.launch = li;
	cx.dim = d;
	cx.blocks = true;
	fe_add(F, kc, cx);
	kt_vec_release(&lv);
}

static void link_grid(finder *F, int k, int li)
{
	fe_ast *a = F->a;
	fe_launch *L = &F->f->kernels.items[k].launches.items[li];
	if (L->op[0] < 0)
		return;
	int d3 = fe_dim3(a, L->op[0]);
	int nd = d3 >= 0 ? fe_nwritten(a, d3) : 1;
	for (int d = 0; d < nd && d < 3 && !F->oom; d++) {
		int op = d3 >= 0 ? fe_written(a, d3, d) : L->op[0];
		fe_leaves lv = {0};
		collect_leaves(F, op, &lv, NULL, 0, 0);
		/* a grid that is one literal (`<<<256, 256>>>`) counts blocks,
		 * not steps of the block: it follows none, whatever its value
		 * (only grid_count makes it a parameter) */
		bool alone = lone_literal(F, op);
		for (size_t i = 0; i < lv.len; i++)
			if (!sm_leaf(F, k, li, d, &lv.items[i]) && !alone)
				grid_leaf(F, k, li, d, &lv.items[i]);
		grid_steps(F, k, li, d, op, &lv, alone);
		exact_divisions(F, k, li, op, 0);
		grid_count(F, k, li, d, op);
		kt_vec_release(&lv);
	}
	smem_cap(F, k, li);
}

/* ------------------------------------------------------------- driver */

/* Node n holds the literal written at offset off (through the locals it
 * reads): the launch is an expansion of the same macro body, whose one
 * literal is the first launch's. */
static bool holds_literal(const fe_ast *a, int n, uint32_t off, int depth)
{
	if (n < 0 || depth > 16)
		return false;
	const fe_node *x = &a->n[n];
	if (x->kind == CXCursor_IntegerLiteral)
		return x->spelled && x->b == off;
	if (x->kind == CXCursor_DeclRefExpr && x->ref >= 0 &&
	    a->n[x->ref].kind == CXCursor_VarDecl &&
	    holds_literal(a, fe_var_init(a, x->ref), off, depth + 1))
		return true;
	for (int c = x->first; c >= 0; c = a->n[c].next)
		if (holds_literal(a, c, off, depth + 1))
			return true;
	return false;
}

/* Another launch of the same kernel: its block leaves follow the first
 * launch's parameters when they have the same values; a different block
 * size leaves the parameter out (one value cannot serve both). */
static void other_dim(finder *F, int k, int li, int d, int n)
{
	int root = block_root(F, k, 0, d);
	if (root < 0 ||
	    holds_literal(F->a, n, F->items.items[root].range.begin.offset, 0))
		return;
	fe_leaves lv = {0};
	int64_t v = 0;
	bool product;
	bool ok = fe_eval(F, n, &v, &lv, &product) && product && lv.len == 1 &&
	          lv.items[0].value == F->items.items[root].value;
	/* the same cap at another launch (`std::min(d, 1024)` where the
	 * first has `std::min(d / vec, 1024)`): any block size up to it
	 * already serves there too, so its cap follows the first one's */
	bool capped = false;
	if (!ok && d == 0 && F->f->cx.items[root].max > 0) {
		lv.len = 0;
		ok = fe_block_cap(F, n, &lv, &capped) && lv.len >= 1 &&
		     lv.items[0].value == F->items.items[root].value;
	}
	int c =
	    ok ? leaf_cand(F, k, li, d, &lv.items[0], F->items.items[root].role,
	                   "the same block size at another launch")
	       : -1;
	for (size_t i = 1; ok && c >= 0 && i < lv.len; i++) {
		int o = leaf_cand(F, k, li, d, &lv.items[i],
		                  F->items.items[root].role,
		                  "the same block size at another launch");
		if (o >= 0 && o != root &&
		    F->items.items[o].kind != KT_CAND_MACRO) {
			F->items.items[o].link = root;
			F->items.items[o].with = "$";
		}
	}
	if (c >= 0 && c != root && F->items.items[c].kind != KT_CAND_MACRO) {
		F->items.items[c].link = root;
		F->items.items[c].with = "$";
	} else if (c < 0 ||
	           (c != root && F->items.items[c].kind == KT_CAND_MACRO &&
	            F->f->cx.items[c].node != F->f->cx.items[root].node)) {
		kt_candidate *r = &F->items.items[root];
		kt_pos p = kt_pos_at(F->tu->text, F->tu->len, F->a->n[n].b);
		r->rejected = true;
		r->reason = KT_REASON_AMBIGUOUS;
		r->evidence =
		    fe_say(F,
		           "the launch at %d:%d gives '%s' another "
		           "block size",
		           p.line, p.col, F->f->kernels.items[k].name);
	}
	kt_vec_release(&lv);
}

static void other_launch(finder *F, int k, int li)
{
	fe_ast *a = F->a;
	fe_launch *L = &F->f->kernels.items[k].launches.items[li];
	if (L->op[1] < 0)
		return;
	int d3 = fe_dim3(a, L->op[1]);
	int nd = d3 >= 0 ? fe_nwritten(a, d3) : 1;
	for (int d = 0; d < nd && d < 3; d++)
		other_dim(F, k, li, d,
		          d3 >= 0 ? fe_written(a, d3, d) : L->op[1]);
}

/* The text at [b, e) of the main file is `name`. */
static bool spelled_as(const finder *F, uint32_t b, uint32_t e,
                       const char *name)
{
	size_t n = strlen(name);
	return e > b && e - b == n && !memcmp(F->tu->text + b, name, n);
}

/* Candidate u is the root of another launch's block through the same
 * foreign macro as root c (or tied to such a root): that root joins c,
 * with everything tied to it, so one parameter stands at every
 * expansion, as one macro of the file's own would (two kernels launched
 * with `CUDA_IM2COL_BLOCK_SIZE` from a header). */
static bool join_root(finder *F, int c, int u)
{
	kt_candidate *r = &F->items.items[c];
	int root = F->items.items[u].link >= 0 ? F->items.items[u].link : u;
	kt_candidate *o = &F->items.items[root];
	if (root == c || o->rejected || o->link >= 0 || !o->name ||
	    strcmp(o->name, r->name) || o->value != r->value ||
	    o->role != KT_ROLE_BLOCK_SIZE || r->role != KT_ROLE_BLOCK_SIZE ||
	    F->items.items[u].rejected)
		return false;
	for (size_t i = 0; i < F->items.len; i++)
		if (F->items.items[i].link == root)
			F->items.items[i].link = c;
	o->link = c;
	o->with = "$";
	return true;
}

/* Node n stands in a host function (not `__device__`, not `__global__`,
 * not at file scope): an expression nvcc alone compiles. */
static bool in_host_function(const fe_ast *a, int n)
{
	for (int u = a->n[n].parent; u >= 0; u = a->n[u].parent) {
		enum CXCursorKind k = a->n[u].kind;
		if (k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod &&
		    k != CXCursor_FunctionTemplate &&
		    k != CXCursor_Constructor && k != CXCursor_LambdaExpr)
			continue;
		if (has_child_kind(a, u, CXCursor_CUDADeviceAttr) ||
		    has_child_kind(a, u, CXCursor_CUDAGlobalAttr))
			return false;
		if (k != CXCursor_LambdaExpr)
			return true;
	}
	return false;
}

/* Where `name` stands as a word in a preprocessor line of the main file
 * (`#if NAME > 128`, `#pragma unroll NAME`, a macro of the file's own
 * defined with it), which no edit of an expression reaches: its offset,
 * or -1. */
static long in_directive(const kt_tu *tu, const char *name)
{
	const char *t = tu->text;
	size_t n = tu->len, len = strlen(name);
	bool directive = false, start = true;
	for (size_t i = 0; i < n; i++) {
		char ch = t[i];
		if (ch == '\n') {
			if (!(i && t[i - 1] == '\\'))
				directive = false;
			start = true;
			continue;
		}
		if (start && ch == '#')
			directive = true;
		if (ch != ' ' && ch != '\t')
			start = false;
		if (!directive || i + len > n || memcmp(t + i, name, len))
			continue;
		bool word_before =
		    i && (t[i - 1] == '_' || isalnum((unsigned char)t[i - 1]));
		bool word_after =
		    i + len < n &&
		    (t[i + len] == '_' || isalnum((unsigned char)t[i + len]));
		if (!word_before && !word_after)
			return (long)i;
	}
	return -1;
}

/* Candidate u (at an expansion of root c's macro) follows c: it is c,
 * is tied to it, or is another launch's root that joins it. */
static bool follows_root(finder *F, int c, int u)
{
	return u == c ||
	       (u >= 0 && F->items.items[u].link == c &&
	        !F->items.items[u].rejected) ||
	       (u >= 0 && join_root(F, c, u));
}

/* Where root c's macro stands in the main file's code (comments,
 * strings and preprocessor lines aside) at no integer literal of the AST
 * (an array's size in a template, where libclang shows no expression)
 * and no candidate that follows c: its offset, or -1. */
static long bare_expansion(finder *F, int c)
{
	const fe_ast *a = F->a;
	const char *name = F->items.items[c].name;
	size_t at = 0, b, e, n = strlen(name);
	while (kt_c_word_next(F->tu->text, F->tu->len, &at, &b, &e)) {
		if (e - b != n || memcmp(F->tu->text + b, name, n))
			continue;
		bool lit = false;
		for (size_t j = 0; j < a->len && !lit; j++)
			lit = a->n[j].kind == CXCursor_IntegerLiteral &&
			      a->n[j].in_main && a->n[j].b == b;
		if (!lit && !follows_root(F, c, fe_cand_at(F, (uint32_t)b)))
			return (long)b;
	}
	return -1;
}

/* Adds the expansion at node x of root c's foreign macro, in host code,
 * as a use that follows the parameter (a cap of another launch's block,
 * the grid's `(n + 4*K - 1) / (4*K)` of a block in another dimension):
 * as the parameter would follow a macro of the file's own. */
static void follow_expansion(finder *F, int c, int x)
{
	const fe_node *e = &F->a->n[x];
	kt_candidate kc = fe_cand_init();
	kc.kind = KT_CAND_LAUNCH;
	kc.role = F->items.items[c].role;
	kc.site = KT_SITE_EXPR;
	kc.range = kt_fe_make_range(F->tu, e->b, e->e);
	kc.value = F->items.items[c].value;
	kc.host = true;
	kc.kernel = F->items.items[c].kernel;
	kc.link = c;
	kc.with = "$";
	kc.evidence = fe_say(F,
	                     "an expansion of '%s', which follows the "
	                     "parameter as every one in this file does",
	                     F->items.items[c].name);
	fe_cand cx = fe_cx_init();
	cx.node = x;
	cx.kern = F->f->cx.items[c].kern;
	fe_add(F, kc, cx);
}

/*
 * A parameter written at an expansion of a macro defined in another file
 * (`CUDA_ACC_BLOCK_SIZE` from a header): the definition is not the
 * file's to change, so every expansion in the file must follow it (the
 * grid's `(n + K - 1) / K` as much as the block), as every use of a
 * macro of the file's own would. An expansion in host code that nothing
 * else claims follows it (the cap of another kernel's block); one that
 * cannot (in device code, in a preprocessor line, one another parameter
 * has) drops the parameter: a block of 128 with a grid for 256 leaves
 * half the output unwritten.
 */
static void foreign_macro_roots(finder *F)
{
	/* roots the macro's other expansions join (another kernel's launch
	 * through the same macro) are checked as expansions of this one */
	fe_ast *a = F->a;
	KT_VEC(int) follow = {0};
	size_t ncand = F->items.len;
	for (size_t c = 0; c < ncand; c++) {
		const fe_cand *cx = &F->f->cx.items[c];
		if (F->items.items[c].link >= 0 || F->items.items[c].rejected ||
		    !F->items.items[c].name || cx->node < 0 ||
		    a->n[cx->node].spelled || a->n[cx->node].macro >= 0 ||
		    a->n[cx->node].kind != CXCursor_IntegerLiteral)
			continue;
		const char *name = F->items.items[c].name;
		follow.len = 0;
		long at = in_directive(F->tu, name);
		if (at < 0)
			at = bare_expansion(F, (int)c);
		for (size_t i = 0; i < a->len && at < 0; i++) {
			const fe_node *x = &a->n[i];
			if (x->kind != CXCursor_IntegerLiteral || !x->in_main ||
			    x->spelled || (int)i == cx->node ||
			    !spelled_as(F, x->b, x->e, name))
				continue;
			int u = fe_cand_at(F, x->b);
			if (follows_root(F, (int)c, u))
				continue;
			if (u < 0 && in_host_function(a, (int)i) &&
			    x->ival == F->items.items[c].value) {
				if (kt_vec_push(&follow, (int)i))
					F->oom = 1;
				continue;
			}
			at = (long)x->b;
		}
		for (size_t i = 0; at < 0 && i < follow.len; i++)
			if (fe_cand_at(F, a->n[follow.items[i]].b) < 0)
				follow_expansion(F, (int)c, follow.items[i]);
		if (at < 0)
			continue;
		kt_candidate *r = &F->items.items[c];
		kt_pos p = kt_pos_at(F->tu->text, F->tu->len, (uint32_t)at);
		r->rejected = true;
		r->reason = KT_REASON_UNSAFE;
		r->evidence = fe_say(F,
		                     "'%s' is defined in another file and "
		                     "also stands at %d:%d, which would "
		                     "not follow the parameter",
		                     name, p.line, p.col);
	}
	kt_vec_release(&follow);
}

static int find_all(finder *F)
{
	int rc = find_kernels(F);
	rc = rc ? rc : fe_find_launches(F);
	rc = rc ? rc : fe_pragma_launches(F);
	for (size_t k = 0; !rc && k < F->f->kernels.len; k++) {
		fe_kern *K = &F->f->kernels.items[k];
		if (K->broken)
			continue;
		if (K->launches.len)
			launch_block(F, (int)k, 0);
		if (K->launches.len)
			tie_template_block(F, (int)k, 0);
		for (size_t l = 1; l < K->launches.len; l++)
			other_launch(F, (int)k, (int)l);
		rc = fe_find_items(F, (int)k);
		rc = rc ? rc : fe_find_vectors(F, (int)k);
		mark_ambiguous(F, (int)k);
		rc = rc ? rc : fe_find_pragmas(F, (int)k);
		rc = rc ? rc : fe_classify_kernel(F, (int)k);
		for (size_t l = 0; !rc && l < K->launches.len; l++)
			link_grid(F, (int)k, (int)l);
	}
	rc = rc ? rc : fe_reject_device_fns(F);
	rc = rc ? rc : fe_reject_macros(F);
	foreign_macro_roots(F);
	fe_settle(F);
	if (!rc && F->oom)
		rc = kt_error(KT_ENOMEM, "out of memory");
	return rc;
}

static int publish(finder *F)
{
	kt_candidates *c = F->c;
	struct kt_fe_facts *f = F->f;
	c->items = F->items.items;
	c->len = F->items.len;
	F->items.items = NULL;
	c->nkernels = f->kernels.len;
	c->kernels = kt_arena_alloc(c->arena, (f->kernels.len + 1) *
	                                          sizeof(kt_kernel_info));
	if (!c->kernels)
		return KT_ENOMEM;
	for (size_t k = 0; k < f->kernels.len; k++) {
		fe_kern *K = &f->kernels.items[k];
		kt_kernel_info *ki = &c->kernels[k];
		ki->name = K->name;
		ki->range = kt_fe_make_range(F->tu, F->a->n[K->node].b,
		                             F->a->n[K->node].e);
		ki->body = kt_fe_make_range(F->tu, F->a->n[K->body].b,
		                            F->a->n[K->body].e);
		ki->is_template =
		    F->a->n[K->node].kind == CXCursor_FunctionTemplate;
		ki->has_errors = K->broken;
		ki->nlaunches = K->launches.len;
		ki->launches = kt_arena_alloc(c->arena, (K->launches.len + 1) *
		                                            sizeof(kt_range));
		if (!ki->launches)
			return KT_ENOMEM;
		for (size_t l = 0; l < K->launches.len; l++) {
			int call = K->launches.items[l].call;
			ki->launches[l] = kt_fe_make_range(
			    F->tu, F->a->n[call].b, F->a->n[call].e);
		}
	}
	return KT_OK;
}

static int new_candidates(kt_candidates **out, kt_tu *tu)
{
	kt_candidates *c = kt_calloc(1, sizeof(*c));
	struct kt_fe_facts *f = kt_calloc(1, sizeof(*f));
	kt_arena *arena = kt_calloc(1, sizeof(*arena));
	*out = c;
	if (!c || !f || !arena) {
		kt_free(f);
		kt_free(arena);
		return kt_error(KT_ENOMEM, "out of memory");
	}
	kt_arena_init(arena);
	c->arena = arena;
	c->facts = f;
	f->tu = tu;
	c->path = tu->path;
	c->text = tu->text;
	c->text_len = tu->len;
	return fe_ast_build(&f->ast, tu);
}

int kt_candidates_find(kt_candidates **out, kt_tu *tu, kt_diags *diags)
{
	kt_candidates *c = NULL;
	*out = NULL;
	int rc = new_candidates(&c, tu);
	if (rc) {
		kt_candidates_free(c);
		return rc;
	}
	finder F = {
	    .c = c, .f = c->facts, .a = &c->facts->ast, .tu = tu, .d = diags};
	rc = find_all(&F);
	rc = rc ? rc : publish(&F);
	kt_vec_release(&F.items);
	kt_vec_release(&F.targets);
	if (rc) {
		kt_candidates_free(c);
		return rc == KT_ENOMEM ? kt_error(rc, "out of memory") : rc;
	}
	*out = c;
	return KT_OK;
}

void kt_candidates_free(kt_candidates *c)
{
	if (!c)
		return;
	if (c->facts) {
		for (size_t k = 0; k < c->facts->kernels.len; k++) {
			kt_vec_release(&c->facts->kernels.items[k].launches);
			kt_vec_release(&c->facts->kernels.items[k].tparams);
		}
		kt_vec_release(&c->facts->kernels);
		kt_vec_release(&c->facts->cx);
		fe_ast_release(&c->facts->ast);
		kt_free(c->facts);
	}
	kt_free(c->items);
	if (c->arena) {
		kt_arena_release(c->arena);
		kt_free(c->arena);
	}
	kt_free(c);
}
