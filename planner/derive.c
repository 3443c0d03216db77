/*
 * derive.c - `#pragma kt launch / kernel / arg` lines from the launch site
 * and the kernel's signature, and "needs" where they cannot be derived.
 *
 * A launch operand is rewritten into the pragma grammar node by node: a
 * literal that became a parameter's use is written as that use (`BLOCK_SIZE`,
 * `(BLOCK_SIZE - 1)`), a host function's parameter becomes a problem
 * variable of the same name, a local variable is replaced by the
 * definition that reaches the launch (its initialiser, or the last plain
 * assignment of straight-line code: `threads = (threads + 31) / 32 * 32`).
 * Anything else (a call, a member, a variable assigned twice) makes the
 * expression underivable, and the user is told what to write. A floating-point
 * host parameter (an `eps`, a `scale`) is no problem size: its default argument
 * is its value where it has one; otherwise the user is asked for the value of
 * the kernel argument it reaches.
 */
#include "planner/planner.h"
#include "planner/poly.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Skips implicit nodes but keeps parentheses. */
static int bare(const fe_ast *a, int n)
{
	while (n >= 0) {
		const fe_node *x = &a->n[n];
		bool conv = x->kind == CXCursor_CallExpr &&
		            !strcmp(x->name, "dim3") && fe_nwritten(a, n) == 1;
		if (x->kind != CXCursor_UnexposedExpr &&
		    x->kind != CXCursor_CStyleCastExpr &&
		    x->kind != CXCursor_CXXFunctionalCastExpr &&
		    x->kind != CXCursor_CXXStaticCastExpr && !conv)
			return n;
		int c = x->last;
		if (conv)
			c = fe_written(a, n, 0);
		n = c;
	}
	return n;
}

static const char *binop(int op)
{
	static const char *const ops[] = {
	    [CXBinaryOperator_Mul] = "*",   [CXBinaryOperator_Div] = "/",
	    [CXBinaryOperator_Rem] = "%",   [CXBinaryOperator_Add] = "+",
	    [CXBinaryOperator_Sub] = "-",   [CXBinaryOperator_Shl] = "<<",
	    [CXBinaryOperator_Shr] = ">>",  [CXBinaryOperator_LT] = "<",
	    [CXBinaryOperator_GT] = ">",    [CXBinaryOperator_LE] = "<=",
	    [CXBinaryOperator_GE] = ">=",   [CXBinaryOperator_EQ] = "==",
	    [CXBinaryOperator_NE] = "!=",   [CXBinaryOperator_And] = "&",
	    [CXBinaryOperator_Xor] = "^",   [CXBinaryOperator_Or] = "|",
	    [CXBinaryOperator_LAnd] = "&&", [CXBinaryOperator_LOr] = "||",
	};
	return op > 0 && op < (int)(sizeof(ops) / sizeof(ops[0])) ? ops[op]
	                                                          : NULL;
}

static bool fold(planner *P, int n, int64_t *v, int depth);
static bool add_problem(planner *P, pl_names *problems, const char *name)
{
	for (size_t i = 0; problems && i < problems->len; i++)
		if (!strcmp(problems->items[i], name))
			return true;
	if (problems && kt_vec_push(problems, name))
		P->oom = 1;
	return true;
}

/* A literal: its parameter's use, or its value. */
static bool lit_expr(planner *P, int n, kt_str *out)
{
	const fe_ast *a = P->a;
	const fe_node *x = &a->n[n];
	for (size_t i = 0; i < P->c->len; i++) {
		const kt_candidate *c = &P->c->items[i];
		int p = pl_param_of_cand(P, (int)i);
		if (p < 0)
			continue;
		const char *name = P->params.items[p].p.name;
		/* a literal written here, or the expansion here of a macro
		 * from another file, which the candidate edits in place */
		bool foreign = !x->spelled && x->macro < 0 && x->in_main;
		bool here = (x->spelled || foreign) &&
		            c->range.begin.offset == x->b &&
		            c->kind != KT_CAND_MACRO;
		bool macro = !x->spelled && x->macro >= 0 &&
		             c->kind == KT_CAND_MACRO && c->link < 0 &&
		             P->f->cx.items[i].node == x->macro;
		if (!here && !macro)
			continue;
		if (c->link < 0 || macro)
			return !kt_str_adds(out, name);
		kt_str_adds(out, pl_with(P, (int)i, name));
		return true;
	}
	/* a number a refactor of the launch makes a parameter (threads per
	 * group: `groups * 16`), where the file writes it: the literal, or
	 * the body of the macro it comes from */
	uint32_t at = x->spelled && !P->as_written ? x->b : (uint32_t)-1;
	int64_t mv;
	uint32_t me;
	if (!x->spelled && x->macro >= 0 && !P->as_written &&
	    !fe_macro_int(a, x->macro, &mv, &at, &me))
		at = (uint32_t)-1;
	for (size_t i = 0; i < P->refactors.len; i++) {
		const kt_plan_refactor *r = &P->refactors.items[i];
		for (size_t k = 0; r->launch >= 0 && k < r->nedits; k++)
			if (r->edits[k].range.begin.offset == at &&
			    r->edits[k].range.end.offset - at ==
			        strlen(r->edits[k].text))
				return !kt_str_adds(out, r->edits[k].with);
	}
	if (x->is_int)
		return !kt_str_addf(out, "%lld", (long long)x->ival);
	return false;
}

static bool is_floating(CXType t)
{
	switch (clang_getCanonicalType(t).kind) {
	case CXType_Float:
	case CXType_Double:
	case CXType_LongDouble:
	case CXType_Half:
	case CXType_Float16:
	case CXType_BFloat16: return true;
	default: return false;
	}
}

/* A floating-point host parameter: its default argument (a literal), or
 * nothing (P->float_ref says which parameter stopped the expression). */
static bool float_parm_expr(planner *P, int d, kt_str *out)
{
	const fe_ast *a = P->a;
	int def = fe_strip(a, a->n[d].last);
	if (def >= 0 && a->n[def].in_main &&
	    (a->n[def].kind == CXCursor_FloatingLiteral ||
	     a->n[def].kind == CXCursor_IntegerLiteral))
		return pl_expr(P, def, out, NULL);
	P->float_ref = d;
	return false;
}

/* A parameter of a host function: a plain one, a function template's
 * (`template <typename T> void f_cuda(const T *x, int64_t ne00)`), a
 * member function's or a lambda's. */
static bool host_parm(const fe_ast *a, int d)
{
	int f = a->n[d].parent;
	if (f < 0)
		return false;
	enum CXCursorKind k = a->n[f].kind;
	return k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate ||
	       k == CXCursor_CXXMethod || k == CXCursor_LambdaExpr;
}

static bool is_integral(CXType t)
{
	enum CXTypeKind k = clang_getCanonicalType(t).kind;
	return k >= CXType_Char_U && k <= CXType_Int128 && k != CXType_Bool &&
	       k != CXType_Char_U && k != CXType_Char_S && k != CXType_UChar &&
	       k != CXType_SChar && k != CXType_WChar && k != CXType_Char16 &&
	       k != CXType_Char32;
}

/* Whether node n's text holds a literal that a parameter takes (written
 * there, or a macro's expansion that the parameter's candidate edits). */
static bool holds_param(planner *P, int n)
{
	const fe_ast *a = P->a;
	for (size_t i = 0; i < P->c->len; i++) {
		if (pl_param_of_cand(P, (int)i) < 0)
			continue;
		const kt_candidate *c = &P->c->items[i];
		if (c->kind != KT_CAND_MACRO) {
			if (c->range.begin.offset >= a->n[n].b &&
			    c->range.begin.offset < a->n[n].e)
				return true;
			continue;
		}
		for (size_t j = 0; j < a->len; j++)
			if (a->n[j].macro >= 0 &&
			    a->n[j].macro == P->f->cx.items[i].node &&
			    a->n[j].b >= a->n[n].b && a->n[j].e <= a->n[n].e)
				return true;
	}
	return false;
}

/*
 * An integer local of the host whose value ktc cannot follow (computed by
 * a call to a function defined elsewhere, `ggml_nelements(dst)`, read
 * from a field, changed in a loop) is a size the host decides at run
 * time: a problem variable, as a host parameter is. Not where what it is
 * computed from holds a tuning literal: the value must follow the
 * parameter then.
 */
static bool opaque_local(planner *P, int d, int def, kt_str *out,
                         pl_names *problems)
{
	const fe_ast *a = P->a;
	int fn = fe_ancestor(a, d, CXCursor_FunctionDecl);
	if (fn < 0)
		fn = fe_ancestor(a, d, CXCursor_FunctionTemplate);
	if (fn < 0)
		fn = fe_ancestor(a, d, CXCursor_CXXMethod);
	if (fn < 0 || a->n[d].parent < 0 ||
	    a->n[a->n[d].parent].kind != CXCursor_DeclStmt ||
	    !is_integral(clang_getCursorType(a->n[d].cur)) ||
	    (def >= 0 && holds_param(P, def)))
		return false;
	int init = fe_var_init(a, d);
	if (init >= 0 && init != def && holds_param(P, init))
		return false;
	kt_str_adds(out, a->n[d].name);
	return add_problem(P, problems, a->n[d].name);
}

/* A local of a const integer type (`constexpr int VPT = ...`): its
 * initialiser is its value (no valid code assigns it). */
static bool const_local(const fe_ast *a, int d)
{
	CXType t = clang_getCursorType(a->n[d].cur);
	return is_integral(t) && clang_isConstQualifiedType(t);
}

/* Whether expression n names an integer template parameter, itself or
 * through the const locals it reads. */
static bool names_tparam(const fe_ast *a, int n, int depth)
{
	if (n < 0 || depth > 24)
		return false;
	int d = a->n[n].kind == CXCursor_DeclRefExpr ? a->n[n].ref : -1;
	if (d >= 0 && a->n[d].kind == CXCursor_NonTypeTemplateParameter)
		return true;
	if (d >= 0 && a->n[d].kind == CXCursor_VarDecl && const_local(a, d) &&
	    names_tparam(a, fe_var_init(a, d), depth + 1))
		return true;
	for (int c = a->n[n].first; c >= 0; c = a->n[c].next)
		if (names_tparam(a, c, depth + 1))
			return true;
	return false;
}

/*
 * What the CUDA runtime reports of the device, as the grammar's device
 * constants: an attribute of cudaDeviceGetAttribute and a field of
 * cudaDeviceProp. `ktc tune` gives each the value of the device the
 * configuration runs on, as the original asks the device it runs on.
 */
static const struct {
	const char *attr, *field, *name;
} device_props[] = {
    {"cudaDevAttrMultiProcessorCount", "multiProcessorCount",
     "DEVICE_SM_COUNT"},
    {"cudaDevAttrMaxThreadsPerBlock", "maxThreadsPerBlock",
     "DEVICE_MAX_THREADS_PER_BLOCK"},
    {"cudaDevAttrWarpSize", "warpSize", "DEVICE_WARP_SIZE"},
    {"cudaDevAttrMaxSharedMemoryPerBlock", "sharedMemPerBlock",
     "DEVICE_SMEM_PER_BLOCK"},
    {"cudaDevAttrMaxSharedMemoryPerBlockOptin", "sharedMemPerBlockOptin",
     "DEVICE_SMEM_PER_BLOCK_OPTIN"},
    {"cudaDevAttrMaxSharedMemoryPerMultiprocessor",
     "sharedMemPerMultiprocessor", "DEVICE_SMEM_PER_SM"},
    {"cudaDevAttrMaxThreadsPerMultiProcessor", "maxThreadsPerMultiProcessor",
     "DEVICE_MAX_THREADS_PER_SM"},
    {"cudaDevAttrMaxBlocksPerMultiprocessor", "maxBlocksPerMultiProcessor",
     "DEVICE_MAX_BLOCKS_PER_SM"},
    {"cudaDevAttrL2CacheSize", "l2CacheSize", "DEVICE_L2_SIZE"},
    {"cudaDevAttrMaxRegistersPerBlock", "regsPerBlock",
     "DEVICE_REGS_PER_BLOCK"},
    {"cudaDevAttrMaxRegistersPerMultiprocessor", "regsPerMultiprocessor",
     "DEVICE_REGS_PER_SM"},
    {"cudaDevAttrComputeCapabilityMajor", "major", "DEVICE_CC_MAJOR"},
    {"cudaDevAttrComputeCapabilityMinor", "minor", "DEVICE_CC_MINOR"},
};

static const char *device_const(const char *attr, const char *field)
{
	for (size_t i = 0; i < sizeof(device_props) / sizeof(device_props[0]);
	     i++)
		if ((attr && !strcmp(attr, device_props[i].attr)) ||
		    (field && !strcmp(field, device_props[i].field)))
			return device_props[i].name;
	return NULL;
}

/* `prop.multiProcessorCount`, `props->warpSize` of a cudaDeviceProp
 * (an object, a reference or a pointer, as torch's
 * getCurrentDeviceProperties() returns): the device constant. */
static bool device_field(planner *P, int n, kt_str *out)
{
	const fe_ast *a = P->a;
	if (a->n[n].first < 0)
		return false;
	CXType t = clang_getCanonicalType(
	    clang_getCursorType(a->n[a->n[n].first].cur));
	if (t.kind == CXType_Pointer || t.kind == CXType_LValueReference)
		t = clang_getCanonicalType(clang_getPointeeType(t));
	CXString s = clang_getTypeSpelling(clang_getUnqualifiedType(t));
	const char *ts = clang_getCString(s);
	bool prop = !strcmp(ts, "cudaDeviceProp") ||
	            !strcmp(ts, "struct cudaDeviceProp");
	clang_disposeString(s);
	const char *name = prop ? device_const(NULL, a->n[n].name) : NULL;
	/* another struct's field named for the SM count (a device-info
	 * cache filled from cudaDeviceProp elsewhere: ggml's `.nsm`) */
	if (!name && fe_sm_count(a, n))
		name = "DEVICE_SM_COUNT";
	return name && !kt_str_adds(out, name);
}

/* `b.x` (`.y`, `.z`) of a local dim3 nothing writes after its
 * construction (`dim3 b(256, 1, 1)`, `dim3 b = dim3(16, 16)`): that
 * argument of the constructor, or 1 where it has none (`(n + b.x - 1) /
 * b.x` reads the block's own literal, which the block's parameter then
 * replaces in the grid as in the block). */
static bool dim3_member(planner *P, int n, kt_str *out, pl_names *problems)
{
	const fe_ast *a = P->a;
	const char *f = a->n[n].name;
	int k = !strcmp(f, "x")   ? 0
	        : !strcmp(f, "y") ? 1
	        : !strcmp(f, "z") ? 2
	                          : -1;
	int base = k >= 0 ? fe_strip(a, a->n[n].first) : -1;
	if (base < 0 || a->n[base].kind != CXCursor_DeclRefExpr ||
	    a->n[base].ref < 0 ||
	    a->n[a->n[base].ref].kind != CXCursor_VarDecl ||
	    fe_assigned(a, a->n[base].ref))
		return false;
	int call = fe_dim3(a, base);
	if (call < 0)
		return false;
	int c = fe_written(a, call, k);
	return c >= 0 ? pl_expr(P, c, out, problems) : !kt_str_adds(out, "1");
}

/* Whether the object variable d names is one the host receives, not one
 * it builds here: a parameter, a pointer or reference, or a local a
 * function call returns (`auto p = make_params(x)`), never one an
 * initialiser list or a constructor fills. */
static bool received_object(const fe_ast *a, int d)
{
	if (a->n[d].kind == CXCursor_ParmDecl)
		return true;
	if (a->n[d].kind != CXCursor_VarDecl)
		return false;
	CXType t = clang_getCanonicalType(clang_getCursorType(a->n[d].cur));
	if (t.kind == CXType_Pointer || t.kind == CXType_LValueReference ||
	    t.kind == CXType_RValueReference)
		return true;
	int init = fe_strip(a, fe_var_init(a, d));
	if (init < 0 || a->n[init].kind != CXCursor_CallExpr)
		return false;
	CXCursor f = clang_getCursorReferenced(a->n[init].cur);
	return clang_getCursorKind(f) == CXCursor_FunctionDecl ||
	       clang_getCursorKind(f) == CXCursor_CXXMethod;
}

/*
 * An integer field of an object the host function receives, read as it
 * is (`src->ne[1]`, `params.num_tokens`, `p->rows`): a size the host
 * decides at run time, the problem variable src_ne_1, params_num_tokens,
 * p_rows (as `x.size(0)` is x_size_0). An index other than a literal
 * (`dev_data[dev].n`), an object anything writes, or one the host fills
 * here is not read this way.
 */
static bool host_field(planner *P, int n, kt_str *out, pl_names *problems)
{
	const fe_ast *a = P->a;
	int mem = n, idx = -1;
	if (a->n[n].kind == CXCursor_ArraySubscriptExpr) {
		mem = fe_strip(a, fe_child(a, n, 0));
		idx = fe_strip(a, fe_child(a, n, 1));
		if (idx < 0 || a->n[idx].kind != CXCursor_IntegerLiteral ||
		    !a->n[idx].is_int || a->n[idx].ival < 0)
			return false;
	}
	if (mem < 0 || a->n[mem].kind != CXCursor_MemberRefExpr ||
	    !is_integral(clang_getCursorType(a->n[n].cur)))
		return false;
	int base = fe_strip(a, a->n[mem].first);
	int d = base >= 0 && a->n[base].kind == CXCursor_DeclRefExpr
	            ? a->n[base].ref
	            : -1;
	/* a local's whole initialiser (`const int n = (int)x->ne[0];`):
	 * the local's own name says it (opaque_local) */
	int up = fe_up(a, n);
	if (up >= 0 && a->n[up].kind == CXCursor_VarDecl)
		return false;
	if (d < 0 || !received_object(a, d) || fe_assigned(a, d) ||
	    (fe_ancestor(a, n, CXCursor_FunctionDecl) < 0 &&
	     fe_ancestor(a, n, CXCursor_CXXMethod) < 0 &&
	     fe_ancestor(a, n, CXCursor_FunctionTemplate) < 0))
		return false;
	const char *name =
	    idx >= 0 ? pl_say(P, "%s_%s_%lld", a->n[d].name, a->n[mem].name,
	                      (long long)a->n[idx].ival)
	             : pl_say(P, "%s_%s", a->n[d].name, a->n[mem].name);
	kt_str_adds(out, name);
	return add_problem(P, problems, name);
}

/* A local the host fills from the device before the launch, and nothing
 * else writes: `cudaDeviceGetAttribute(&sms,
 * cudaDevAttrMultiProcessorCount, dev)` in the function of the use n. */
static bool device_attr_local(planner *P, int d, int n, kt_str *out)
{
	const fe_ast *a = P->a;
	int count;
	int call = fe_out_arg_call(a, d, &count);
	if (call < 0 || count != 1 || fe_assigned(a, d) ||
	    strcmp(a->n[call].name, "cudaDeviceGetAttribute") ||
	    a->n[call].e > a->n[n].b || fe_nwritten(a, call) < 3)
		return false;
	int fn = a->n[d].parent;
	while (fn >= 0 && a->n[fn].kind != CXCursor_FunctionDecl &&
	       a->n[fn].kind != CXCursor_FunctionTemplate &&
	       a->n[fn].kind != CXCursor_CXXMethod &&
	       a->n[fn].kind != CXCursor_LambdaExpr)
		fn = a->n[fn].parent;
	if (fn < 0 || !pl_inside(a, call, fn) || !pl_inside(a, n, fn))
		return false;
	/* the written arguments after the callee: &var, the attribute */
	int attr = fe_strip(a, fe_written(a, call, 2));
	if (attr < 0 || a->n[attr].kind != CXCursor_DeclRefExpr)
		return false;
	const char *name = device_const(a->n[attr].name, NULL);
	return name && !kt_str_adds(out, name);
}

static bool inlined_parm(planner *P, int d, kt_str *out, pl_names *problems,
                         bool *done);

static bool chain_expr(planner *P, int var, kt_str *out, pl_names *problems);

static bool ref_expr(planner *P, int n, kt_str *out, pl_names *problems)
{
	const fe_ast *a = P->a;
	int d = a->n[n].ref;
	int64_t hv;
	if (d < 0 && fe_header_constant(a, n, &hv))
		return !kt_str_addf(out, "%lld", (long long)hv);
	if (d < 0)
		return false;
	const fe_node *decl = &a->n[d];
	if (decl->kind == CXCursor_ParmDecl && P->ninl) {
		bool done;
		bool ok = inlined_parm(P, d, out, problems, &done);
		if (done)
			return ok;
	}
	if (decl->kind == CXCursor_ParmDecl && host_parm(a, d)) {
		CXType t =
		    clang_getCanonicalType(clang_getCursorType(decl->cur));
		if (t.kind == CXType_Unexposed || t.kind == CXType_Dependent ||
		    t.kind == CXType_Pointer || t.kind == CXType_Record)
			return false; /* of a template's type, a pointer (a
			                 `p ? p->n : 0` test), a struct: no size
			               */
		/* the literal the function's one call gives it: a float the
		 * host passes (`launch(2.0f, ...)`), or a literal a
		 * parameter took (`launch(x, n, 256)`, the block) */
		int bound = fe_bound_arg(a, d);
		if (bound >= 0 && (is_floating(t) || holds_param(P, bound)))
			return pl_expr(P, bound, out, problems);
		if (is_floating(t))
			return float_parm_expr(P, d, out);
		kt_str_adds(out, decl->name);
		return add_problem(P, problems, decl->name);
	}
	if (decl->kind == CXCursor_NonTypeTemplateParameter) {
		for (size_t i = 0; i < P->c->len; i++) {
			const fe_cand *cx = &P->f->cx.items[i];
			if (cx->tparam < 0 || cx->kern < 0)
				continue;
			const fe_kern *K = &P->f->kernels.items[cx->kern];
			int p = pl_param_of_cand(P, (int)i);
			if (p >= 0 && K->tparams.items[cx->tparam] == d)
				return !kt_str_adds(out,
				                    P->params.items[p].p.name);
		}
		/* bound at the instantiation the kernel's first launch
		 * makes (`template(64)`) */
		int64_t v;
		return fold(P, n, &v, 0) &&
		       !kt_str_addf(out, "%lld", (long long)v);
	}
	/* a constant computed from a template parameter (`constexpr int
	 * rows = 4 * (32 / (E / VPT))` in a host function template): its
	 * value at that instantiation */
	int64_t v;
	if (decl->kind == CXCursor_VarDecl && const_local(a, d) &&
	    fe_var_init(a, d) >= 0 && names_tparam(a, fe_var_init(a, d), 0) &&
	    fold(P, n, &v, 0))
		return !kt_str_addf(out, "%lld", (long long)v);
	if (decl->kind == CXCursor_VarDecl && device_attr_local(P, d, n, out))
		return true;
	if (decl->kind == CXCursor_VarDecl && chain_expr(P, d, out, problems))
		return true;
	int def = decl->kind == CXCursor_VarDecl
	              ? fe_def_before(a, d, a->n[n].b)
	              : -1;
	if (def < 0)
		return decl->kind == CXCursor_VarDecl &&
		       opaque_local(P, d, def, out, problems);
	kt_str e = KT_STR_INIT;
	size_t had = problems ? problems->len : 0;
	bool ok = pl_expr(P, def, &e, problems);
	if (!ok && problems) /* what the failed try added is not a size */
		problems->len = had;
	if (!ok) {
		kt_str_release(&e);
		return opaque_local(P, d, def, out, problems);
	}
	bool simple = strspn(e.ptr, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"
	                            "OPQRSTUVWXYZ0123456789_") == e.len ||
	              (e.ptr[0] == '(' && e.ptr[e.len - 1] == ')' &&
	               !strchr(e.ptr + 1, '('));
	kt_str_addf(out, simple ? "%s" : "(%s)", e.ptr);
	kt_str_release(&e);
	return ok;
}

/* `N.unwrap()`, `shape.rows()`: an integer an object of the host gives
 * with no argument, which ktc cannot follow: a size the host decides at
 * run time, the problem variable N_unwrap (as `x.numel()` is x_numel). */
static bool opaque_member_call(planner *P, int n, kt_str *out,
                               pl_names *problems)
{
	const fe_ast *a = P->a;
	int callee = a->n[n].first;
	int base = callee >= 0 && a->n[callee].kind == CXCursor_MemberRefExpr
	               ? fe_strip(a, a->n[callee].first)
	               : -1;
	if (base < 0 || a->n[base].kind != CXCursor_DeclRefExpr ||
	    a->n[base].ref < 0 || fe_nwritten(a, n) != 1 ||
	    !is_integral(clang_getCursorType(a->n[n].cur)) ||
	    (fe_ancestor(a, n, CXCursor_FunctionDecl) < 0 &&
	     fe_ancestor(a, n, CXCursor_CXXMethod) < 0 &&
	     fe_ancestor(a, n, CXCursor_FunctionTemplate) < 0))
		return false;
	const char *name =
	    pl_say(P, "%s_%s", a->n[a->n[base].ref].name, a->n[callee].name);
	kt_str_adds(out, name);
	return add_problem(P, problems, name);
}

/* The function node a call enters, or -1. */
static int callee_of(const fe_ast *a, int call)
{
	int f = fe_callee(a, call);
	return f >= 0 && (a->n[f].kind == CXCursor_FunctionDecl ||
	                  a->n[f].kind == CXCursor_FunctionTemplate)
	           ? f
	           : -1;
}

/* A literal other than 0 and 1 in subtree n: a value of its own. */
static bool own_value(const fe_ast *a, int n)
{
	if ((a->n[n].kind == CXCursor_IntegerLiteral ||
	     a->n[n].kind == CXCursor_FloatingLiteral) &&
	    !(a->n[n].is_int && (a->n[n].ival == 0 || a->n[n].ival == 1)))
		return true;
	for (int c = a->n[n].first; c >= 0; c = a->n[c].next)
		if (own_value(a, c))
			return true;
	return false;
}

/*
 * The expression E of a function whose body is `{ return E; }`, or -1.
 * E is arithmetic on the parameters (`(a + b - 1) / b`): a helper that
 * writes a value of its own (`blocks_for(n)`: `(n + 255) / 256`) holds
 * what may be the launch's block size, which a parameter replacing the
 * launch's 256 would not change, so it is not read through.
 */
static int one_return(const fe_ast *a, int f)
{
	int body = a->n[f].last;
	if (body < 0 || a->n[body].kind != CXCursor_CompoundStmt ||
	    fe_nchildren(a, body) != 1)
		return -1;
	int r = a->n[body].first;
	int e = a->n[r].kind == CXCursor_ReturnStmt ? a->n[r].first : -1;
	return e >= 0 && !own_value(a, e) ? e : -1;
}

/* Argument k of call (its callee the first child), or -1. */
static int helper_arg(const fe_ast *a, int call, int k)
{
	int c = a->n[call].first;
	for (c = c >= 0 ? a->n[c].next : -1; c >= 0 && k > 0; k--)
		c = a->n[c].next;
	return c;
}

/*
 * A call of a helper whose body is one `return E;` (`div_ceil(n, 256)`,
 * `(a + b - 1) / b`), a function of the file or of a project header
 * (frontend/ast.c walks those): E with each of the helper's parameters
 * read as the call's argument, in parentheses.
 */
static bool inlined_call(planner *P, int n, kt_str *out, pl_names *problems)
{
	const fe_ast *a = P->a;
	int f = callee_of(a, n);
	int e = f >= 0 ? one_return(a, f) : -1;
	if (e < 0 || P->ninl == (int)(sizeof(P->inl) / sizeof(P->inl[0])))
		return false;
	for (int i = 0; i < P->ninl; i++)
		if (P->inl[i].fn == f)
			return false; /* recursion */
	P->inl[P->ninl].fn = f;
	P->inl[P->ninl].call = n;
	P->ninl++;
	kt_str_addc(out, '(');
	bool ok = pl_expr(P, e, out, problems);
	P->ninl--;
	return ok && !kt_str_addc(out, ')');
}

/* A reference to a parameter of an inlined helper: the call's argument
 * there, read where the call stands. */
static bool inlined_parm(planner *P, int d, kt_str *out, pl_names *problems,
                         bool *done)
{
	const fe_ast *a = P->a;
	int f = a->n[d].parent;
	*done = false;
	for (int i = P->ninl - 1; i >= 0; i--) {
		if (P->inl[i].fn != f)
			continue;
		int k = 0;
		for (int c = a->n[f].first; c >= 0 && c != d; c = a->n[c].next)
			k += a->n[c].kind == CXCursor_ParmDecl;
		int arg = helper_arg(a, P->inl[i].call, k);
		if (arg < 0)
			return false;
		/* the argument is read in the frames outside this call */
		int saved = P->ninl;
		P->ninl = i;
		kt_str e = KT_STR_INIT;
		bool ok = pl_expr(P, arg, &e, problems);
		P->ninl = saved;
		*done = true;
		if (ok)
			pl_operand(e.ptr ? e.ptr : "", out);
		kt_str_release(&e);
		return ok;
	}
	return false;
}

static bool call_expr(planner *P, int n, kt_str *out, pl_names *problems)
{
	const fe_ast *a = P->a;
	const char *name = a->n[n].name;
	if (pl_tensor_expr(P, n, out, problems))
		return true;
	size_t had = out->len, hadp = problems ? problems->len : 0;
	if (inlined_call(P, n, out, problems))
		return true;
	kt_str_truncate(out, had); /* what the failed try wrote is not it */
	if (problems)
		problems->len = hadp;
	if (strcmp(name, "min") && strcmp(name, "max"))
		return opaque_member_call(P, n, out, problems);
	kt_str_addf(out, "%s(", name);
	int k = 0;
	for (int c = a->n[a->n[n].first].next; c >= 0; c = a->n[c].next) {
		if (!a->n[c].in_main)
			continue;
		if (k++)
			kt_str_adds(out, ", ");
		if (!pl_expr(P, c, out, problems))
			return false;
	}
	kt_str_addc(out, ')');
	return k >= 2;
}

static const char *host_type_arg(planner *P, int fn, const char *name);
static const char *type_arg(planner *P, const fe_kern *K, const char *t);

/* `sizeof(T)`, T a type parameter of the kernel or host function
 * template around (`16 / sizeof(scalar_t)`): the size of the type the
 * kernel's launch, or a call or an instantiation of the template, gives
 * T, where the planner named that type from clang's own (concrete());
 * else 0. */
static long long dependent_size(planner *P, int n)
{
	const fe_ast *a = P->a;
	int ref = a->n[n].first;
	if (ref < 0 || a->n[ref].kind != CXCursor_TypeRef)
		return 0;
	int tp = fe_decl_of(a, clang_getCursorReferenced(a->n[ref].cur));
	int fn = tp >= 0 && a->n[tp].kind == CXCursor_TemplateTypeParameter
	             ? a->n[tp].parent
	             : -1;
	if (fn < 0 || a->n[fn].kind != CXCursor_FunctionTemplate)
		return 0;
	const char *t = NULL;
	bool kernel = false;
	for (size_t k = 0; k < P->f->kernels.len && !kernel; k++)
		if ((kernel = P->f->kernels.items[k].node == fn))
			t = type_arg(P, &P->f->kernels.items[k], a->n[tp].name);
	if (!kernel)
		t = host_type_arg(P, fn, a->n[tp].name);
	for (int i = 0; t && i < P->nsizes; i++)
		if (!strcmp(P->sizes[i].name, t))
			return P->sizes[i].size;
	return 0;
}

/* `sizeof(float)`, `sizeof x`: its value, when clang can evaluate it or
 * it is the size of a host template's type parameter. */
static bool sizeof_expr(planner *P, int n, kt_str *out)
{
	size_t len;
	const char *t = fe_text(P->a, n, &len);
	if (!P->a->n[n].spelled || len < 6 || strncmp(t, "sizeof", 6))
		return false;
	CXEvalResult r = clang_Cursor_Evaluate(P->a->n[n].cur);
	bool ok = r && clang_EvalResult_getKind(r) == CXEval_Int;
	if (ok)
		kt_str_addf(out, "%lld", clang_EvalResult_getAsLongLong(r));
	if (r)
		clang_EvalResult_dispose(r);
	long long size = ok ? 0 : dependent_size(P, n);
	if (size > 0)
		kt_str_addf(out, "%lld", size);
	return ok || size > 0;
}

/* A local an if-chain sets to the largest power of two up to T that
 * divides E (pl_chain_ladder): `(E % GPB == 0 ? GPB : E & -E)` where a
 * groups_per_block refactor rewrote the chain, else the chain as one
 * expression, `(E % T == 0 ? T : ... : E % 2 == 0 ? 2 : 1)`. */
static bool chain_expr(planner *P, int var, kt_str *out, pl_names *problems)
{
	int e, ifs;
	int64_t top = pl_chain_ladder(P->a, var, &e, &ifs);
	const kt_plan_refactor *r = NULL;
	for (size_t i = 0; i < P->refactors.len && top && !P->as_written; i++)
		if (P->refactors.items[i].kind ==
		        KT_REFACTOR_GROUPS_PER_BLOCK &&
		    P->refactors.items[i].index_var &&
		    P->refactors.items[i].region.begin.offset == P->a->n[ifs].b)
			r = &P->refactors.items[i];
	kt_str x = KT_STR_INIT, o = KT_STR_INIT;
	bool ok = top && pl_expr(P, e, &x, problems);
	if (ok)
		pl_operand(x.ptr, &o);
	if (ok && r)
		kt_str_addf(out, "(%s %% %s == 0 ? %s : %s & -%s)", o.ptr,
		            r->param, r->param, o.ptr, o.ptr);
	else if (ok) {
		kt_str_addc(out, '(');
		for (int64_t v = top; v >= 2; v /= 2)
			kt_str_addf(out, "%s %% %lld == 0 ? %lld : ", o.ptr,
			            (long long)v, (long long)v);
		kt_str_adds(out, "1)");
	}
	kt_str_release(&x);
	kt_str_release(&o);
	return ok;
}

/* The host's groups per block that a groups_per_block refactor makes a
 * parameter (its edit's range is n's): `(E % GPB == 0 ? GPB : E & -E)`
 * with E as a pragma expression. */
static bool ladder_expr(planner *P, int n, kt_str *out, pl_names *problems)
{
	const fe_ast *a = P->a;
	const kt_plan_refactor *r = NULL;
	for (size_t i = 0; i < P->refactors.len && !r && !P->as_written; i++)
		if (P->refactors.items[i].kind ==
		        KT_REFACTOR_GROUPS_PER_BLOCK &&
		    P->refactors.items[i].region.begin.offset == a->n[n].b &&
		    P->refactors.items[i].region.end.offset == a->n[n].e)
			r = &P->refactors.items[i];
	int c = r ? fe_strip(a, fe_child(a, n, 0)) : -1;
	int rem = c >= 0 ? fe_strip(a, fe_child(a, c, 0)) : -1;
	kt_str e = KT_STR_INIT;
	bool ok = rem >= 0 && pl_expr(P, fe_child(a, rem, 0), &e, problems);
	if (ok) {
		kt_str o = KT_STR_INIT;
		pl_operand(e.ptr, &o);
		kt_str_addf(out, "(%s %% %s == 0 ? %s : %s & -%s)", o.ptr,
		            r->param, r->param, o.ptr, o.ptr);
		kt_str_release(&o);
	}
	kt_str_release(&e);
	return ok;
}

bool pl_expr(planner *P, int n, kt_str *out, pl_names *problems)
{
	const fe_ast *a = P->a;
	n = bare(a, n);
	if (n < 0)
		return false;
	const fe_node *x = &a->n[n];
	/* arithmetic on template parameters: its value at the instantiation
	 * (`32 / (E / VPT)` -> 2) */
	int64_t v;
	if ((x->kind == CXCursor_ParenExpr ||
	     x->kind == CXCursor_BinaryOperator ||
	     x->kind == CXCursor_ConditionalOperator) &&
	    names_tparam(a, n, 0) && fold(P, n, &v, 0))
		return !kt_str_addf(out, "%lld", (long long)v);
	switch (x->kind) {
	case CXCursor_IntegerLiteral: return lit_expr(P, n, out);
	case CXCursor_FloatingLiteral: {
		size_t len;
		const char *t = fe_text(a, n, &len);
		return x->spelled && !kt_str_addf(out, "%.*s", (int)len, t);
	}
	case CXCursor_ParenExpr:
		kt_str_addc(out, '(');
		if (!pl_expr(P, x->first, out, problems))
			return false;
		return !kt_str_addc(out, ')');
	case CXCursor_BinaryOperator: {
		const char *op = binop(x->op);
		if (!op || !pl_expr(P, fe_child(a, n, 0), out, problems))
			return false;
		kt_str_addf(out, " %s ", op);
		return pl_expr(P, fe_child(a, n, 1), out, problems);
	}
	case CXCursor_UnaryOperator:
		if (x->op != CXUnaryOperator_Minus)
			return false;
		kt_str_addc(out, '-');
		return pl_expr(P, x->first, out, problems);
	case CXCursor_ConditionalOperator:
		if (ladder_expr(P, n, out, problems))
			return true;
		if (!pl_expr(P, fe_child(a, n, 0), out, problems))
			return false;
		kt_str_adds(out, " ? ");
		if (!pl_expr(P, fe_child(a, n, 1), out, problems))
			return false;
		kt_str_adds(out, " : ");
		return pl_expr(P, fe_child(a, n, 2), out, problems);
	case CXCursor_DeclRefExpr: return ref_expr(P, n, out, problems);
	case CXCursor_MemberRefExpr:
		return device_field(P, n, out) ||
		       dim3_member(P, n, out, problems) ||
		       host_field(P, n, out, problems);
	case CXCursor_ArraySubscriptExpr:
		return host_field(P, n, out, problems);
	case CXCursor_CallExpr: return call_expr(P, n, out, problems);
	case CXCursor_UnaryExpr: return sizeof_expr(P, n, out);
	default: return false;
	}
}

/* ------------------------------------------------------------- pragmas */

/* A line the file already has for the kernel is neither derived nor
 * asked for again (pl_written). */
static void add_pragma(planner *P, const char *kernel, const char *line)
{
	if (pl_written(P, kernel, line))
		return;
	kt_plan_pragma g = {pl_dup(P, kernel), pl_dup(P, line)};
	if (kt_vec_push(&P->pragmas, g))
		P->oom = 1;
}

static void add_need(planner *P, const char *kernel, const char *what,
                     kt_range r, const char *msg, const char *suggest)
{
	if (suggest && pl_written(P, kernel, suggest))
		return;
	kt_plan_need n = {pl_dup(P, kernel), what, r, msg, suggest};
	if (kt_vec_push(&P->needs, n))
		P->oom = 1;
}

/* dims of a launch operand: "a, b" for a dim3 constructor, else one. */
static bool dims_expr(planner *P, int op, kt_str *out, pl_names *problems)
{
	const fe_ast *a = P->a;
	int n = fe_dim3(a, op);
	if (n < 0)
		return pl_expr(P, op, out, problems);
	for (int k = 0, c; (c = fe_written(a, n, k)) >= 0; k++) {
		if (k)
			kt_str_adds(out, ", ");
		if (!pl_expr(P, c, out, problems))
			return false;
	}
	return true;
}

/* The parameter a refactor of kind k gives kernel's first launch, or
 * NULL. */
static const char *launch_param(const planner *P, const char *kernel,
                                kt_refactor_kind k)
{
	for (size_t i = 0; i < P->refactors.len; i++) {
		const kt_plan_refactor *r = &P->refactors.items[i];
		if (r->kind == k && r->launch == 0 &&
		    !strcmp(r->kernel, kernel))
			return r->param;
	}
	return NULL;
}

static bool launch_line(planner *P, const char *kernel, const fe_launch *L,
                        kt_str *s, pl_names *problems)
{
	const fe_ast *a = P->a;
	kt_str_adds(s, "launch grid(");
	/* the items refactor shrinks the host launch's grid (a scalar one):
	 * the tuner's launch must shrink with it */
	const char *items =
	    launch_param(P, kernel, KT_REFACTOR_ITEMS_PER_THREAD);
	/* and the row split's blocks stand along y, in the host's too */
	const char *split = launch_param(P, kernel, KT_REFACTOR_ROW_SPLIT);
	if (!split)
		split = launch_param(P, kernel, KT_REFACTOR_CLUSTER_SPLIT);
	kt_str g = KT_STR_INIT;
	bool ok = L->op[0] >= 0 && dims_expr(P, L->op[0], &g, problems);
	if (ok && items)
		kt_str_addf(s, "div_ceil(%s, %s)", g.ptr, items);
	else if (ok)
		kt_str_adds(s, g.ptr);
	if (ok && split)
		kt_str_addf(s, ", %s", split);
	kt_str_release(&g);
	if (!ok)
		return false;
	kt_str_adds(s, ") block(");
	/* a warp per row: blocks of 32 threads per row, as the host's */
	const char *wpr = launch_param(P, kernel, KT_REFACTOR_WARP_PER_ROW);
	if (wpr)
		kt_str_addf(s, "%s > 0 ? 32 * %s : (", wpr, wpr);
	if (L->op[1] < 0 || !dims_expr(P, L->op[1], s, problems))
		return false;
	kt_str_adds(s, wpr ? "))" : ")");
	int sm = L->op[2] >= 0 ? fe_strip(a, L->op[2]) : -1;
	if (sm >= 0 && a->n[sm].in_main &&
	    !(a->n[sm].is_int && a->n[sm].ival == 0)) {
		kt_str_adds(s, " smem(");
		if (!pl_expr(P, L->op[2], s, problems))
			return false;
		kt_str_addc(s, ')');
	}
	return true;
}

/* The explicit template arguments of a launch, split at the top-level
 * commas of the callee's tokens: each one's [begin, end) offsets. */
static int template_args(planner *P, const fe_launch *L, uint32_t (*arg)[2],
                         int max)
{
	const fe_ast *a = P->a;
	kt_tu *tu = P->f->tu;
	int callee = L->kernel;
	if (callee < 0)
		return 0;
	CXToken *t = NULL;
	unsigned nt = 0;
	clang_tokenize(tu->tu, clang_getCursorExtent(a->n[callee].cur), &t,
	               &nt);
	int n = 0, depth = 0;
	/* a variable template holding the kernel: its initializer's */
	unsigned i = a->n[callee].kind == CXCursor_UnexposedDecl
	                 ? fe_var_template_init(tu, t, nt)
	                 : 0;
	bool done = false;
	for (; i < nt && n < max && !done; i++) {
		CXString sp = clang_getTokenSpelling(tu->tu, t[i]);
		const char *s = clang_getCString(sp);
		kt_range r;
		bool ok =
		    kt_fe_range(tu, clang_getTokenExtent(tu->tu, t[i]), &r);
		/* `k<T, f<T>>`: the `>>` token closes twice, a character
		 * each */
		bool twice = !strcmp(s, ">>");
		for (int piece = 0; piece <= twice && !done && n < max;
		     piece++) {
			bool open = !strcmp(s, "<") || !strcmp(s, "(");
			bool close =
			    twice || !strcmp(s, ">") || !strcmp(s, ")");
			uint32_t b = r.begin.offset + (uint32_t)piece;
			uint32_t e = twice ? b + 1 : r.end.offset;
			if (ok && depth == 1 && (!strcmp(s, ",") || close))
				n++;
			else if (ok && depth >= 1 && !(depth == 1 && open)) {
				if (arg[n][0] == 0)
					arg[n][0] = b;
				arg[n][1] = e;
			}
			depth += open - close;
			if (ok && depth == 1 && open && arg[n][0] == 0)
				arg[n][0] = arg[n][1] = 0;
			done = depth == 0 && close;
		}
		clang_disposeString(sp);
	}
	clang_disposeTokens(tu->tu, t, nt);
	return n;
}

/* ------------------------------------------------ deduced type arguments */

/* t through `depth` pointers or references (its own spelling kept). */
static CXType strip_ptrs(CXType t, int depth)
{
	while (depth-- > 0)
		t = clang_getPointeeType(t);
	return clang_getUnqualifiedType(t);
}

/* The number of pointers or references around the type parameter named
 * name in type t (`const T *__restrict__` is 1), or -1 when t is not
 * that. */
static int ptrs_to(CXType t, const char *name)
{
	for (int depth = 0; depth < 4; depth++) {
		CXString sp =
		    clang_getTypeSpelling(clang_getUnqualifiedType(t));
		bool is = !strcmp(clang_getCString(sp), name);
		clang_disposeString(sp);
		if (is)
			return depth;
		if (t.kind != CXType_Pointer &&
		    t.kind != CXType_LValueReference &&
		    t.kind != CXType_RValueReference)
			return -1;
		t = clang_getPointeeType(t);
	}
	return -1;
}

/* A type a template has fixed: no template parameter left in it. */
static const char *concrete(planner *P, CXType t)
{
	CXType c = clang_getCanonicalType(t);
	if (c.kind == CXType_Unexposed || c.kind == CXType_Invalid ||
	    c.kind == CXType_Dependent)
		return NULL;
	CXString sp = clang_getTypeSpelling(c);
	const char *r = pl_say(P, "%s", clang_getCString(sp));
	clang_disposeString(sp);
	if (strstr(r, "type-parameter"))
		return NULL;
	long long size = clang_Type_getSizeOf(c);
	bool known = false;
	for (int i = 0; i < P->nsizes && !known; i++)
		known = !strcmp(P->sizes[i].name, r);
	if (!known && size > 0 && P->nsizes < 8) {
		P->sizes[P->nsizes].name = r;
		P->sizes[P->nsizes++].size = size;
	}
	return r;
}

/* The first call at or after node i of the file's that calls a
 * specialisation of function template fn (*spec: the one called), or
 * a->len when there is none. */
static size_t next_call_of(const fe_ast *a, int fn, size_t i, CXCursor *spec)
{
	for (; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		if (x->kind != CXCursor_CallExpr || !x->in_main)
			continue;
		*spec = clang_getCursorReferenced(x->cur);
		CXCursor tmpl = clang_getSpecializedCursorTemplate(*spec);
		if (!clang_Cursor_isNull(tmpl) &&
		    clang_equalCursors(tmpl, a->n[fn].cur))
			return i;
	}
	return a->len;
}

/* The type an argument node has, through `depth` pointers; where it is a
 * parameter of the host function template around the launch, of a type
 * that names one of its own type parameters, the type that a call of
 * that template in the file gives it. */
static const char *arg_type(planner *P, int arg, int depth)
{
	const fe_ast *a = P->a;
	/* an explicit cast says the type (`(float *)dst_d`, dst_d a void *) */
	int x = arg;
	while (x >= 0 && (a->n[x].kind == CXCursor_UnexposedExpr ||
	                  a->n[x].kind == CXCursor_ParenExpr))
		x = a->n[x].last;
	bool cast =
	    x >= 0 && (a->n[x].kind == CXCursor_CStyleCastExpr ||
	               a->n[x].kind == CXCursor_CXXStaticCastExpr ||
	               a->n[x].kind == CXCursor_CXXReinterpretCastExpr ||
	               a->n[x].kind == CXCursor_CXXFunctionalCastExpr);
	const char *t =
	    cast ? concrete(P,
	                    strip_ptrs(clang_getCursorType(a->n[x].cur), depth))
	         : NULL;
	if (t)
		return t;
	int n = fe_strip(a, arg);
	if (n < 0)
		return NULL;
	t = concrete(P, strip_ptrs(clang_getCursorType(a->n[n].cur), depth));
	if (t)
		return t;
	int d = a->n[n].kind == CXCursor_DeclRefExpr ? a->n[n].ref : -1;
	int fn =
	    d >= 0 && a->n[d].kind == CXCursor_ParmDecl ? a->n[d].parent : -1;
	if (fn < 0 || a->n[fn].kind != CXCursor_FunctionTemplate)
		return NULL;
	int pos = 0;
	for (int c = a->n[fn].first; c >= 0 && c != d; c = a->n[c].next)
		pos += a->n[c].kind == CXCursor_ParmDecl;
	/* a call of the template: its argument at the same position */
	CXCursor r;
	for (size_t i = 0; (i = next_call_of(a, fn, i, &r)) < a->len; i++) {
		CXCursor ca =
		    clang_Cursor_getArgument(a->n[i].cur, (unsigned)pos);
		t = clang_Cursor_isNull(ca)
		        ? NULL
		        : concrete(P,
		                   strip_ptrs(clang_getCursorType(ca), depth));
		if (t)
			return t;
	}
	/* a type parameter of the template (`T *out`): what its calls or
	 * explicit instantiations give it */
	CXString sp = clang_getTypeSpelling(
	    strip_ptrs(clang_getCursorType(a->n[n].cur), depth));
	const char *tn = pl_say(P, "%s", clang_getCString(sp));
	clang_disposeString(sp);
	return host_type_arg(P, fn, tn);
}

static const char *host_type_arg_d(planner *P, int fn, const char *name,
                                   int depth);

/* The pointer of `p + k`, `k + p` or `p - k` (nested too), else n: inside
 * a template libclang gives such a sum no type when p's is dependent
 * (`src0_d + i3 * (nb / sizeof(T))`), while p keeps `const T *`. */
static int pointer_operand(const fe_ast *a, int n)
{
	n = fe_strip(a, n);
	while (n >= 0 && a->n[n].kind == CXCursor_BinaryOperator &&
	       (a->n[n].op == CXBinaryOperator_Add ||
	        a->n[n].op == CXBinaryOperator_Sub)) {
		int l = fe_strip(a, fe_child(a, n, 0));
		int r = fe_strip(a, fe_child(a, n, 1));
		if (l >= 0 &&
		    clang_getCanonicalType(clang_getCursorType(a->n[l].cur))
		            .kind == CXType_Pointer)
			n = l;
		else if (r >= 0 && a->n[n].op == CXBinaryOperator_Add &&
		         clang_getCanonicalType(
		             clang_getCursorType(a->n[r].cur))
		                 .kind == CXType_Pointer)
			n = r;
		else
			break;
	}
	return n;
}

/* Node i is a call of the file that enters function fn, resolved or not
 * (the callee's name is asked of libclang only where it is spelled as
 * fn's). */
static bool call_of(const fe_ast *a, size_t i, int fn)
{
	return a->n[i].kind == CXCursor_CallExpr && a->n[i].in_main &&
	       (!*a->n[i].name || !strcmp(a->n[i].name, a->n[fn].name)) &&
	       fe_callee(a, (int)i) == fn;
}

/*
 * Type parameter `name` of host function template fn, deduced at a call
 * of fn inside another function template, which clang leaves unresolved
 * (`concat_cont_cuda(src0_d, ...)` in `template <typename T> void
 * concat_cuda(...)`, src0_d a `const T *`): the argument's type through
 * as many pointers as fn's parameter has, where it is fixed, else where
 * it is a type parameter of the caller, what the caller's own calls or
 * instantiations give that (depth levels at most), or NULL.
 */
static const char *dependent_deduced(planner *P, int fn, const char *name,
                                     int depth)
{
	const fe_ast *a = P->a;
	for (size_t i = 0; i < a->len && depth < 4; i++) {
		if (!call_of(a, i, fn) ||
		    !clang_Cursor_isNull(clang_getSpecializedCursorTemplate(
		        clang_getCursorReferenced(a->n[i].cur))))
			continue;
		int caller = fe_ancestor(a, (int)i, CXCursor_FunctionTemplate);
		int pos = 0;
		for (int c = a->n[fn].first; c >= 0; c = a->n[c].next) {
			if (a->n[c].kind != CXCursor_ParmDecl)
				continue;
			int d = ptrs_to(clang_getCursorType(a->n[c].cur), name);
			int arg = d >= 0
			              ? pointer_operand(
			                    a, fe_written(a, (int)i, pos + 1))
			              : -1;
			pos++;
			CXType at = arg >= 0
			                ? clang_getCursorType(a->n[arg].cur)
			                : (CXType){.kind = CXType_Invalid};
			for (int k = 0; k < d && at.kind != CXType_Invalid; k++)
				at = clang_getPointeeType(at);
			if (at.kind == CXType_Invalid)
				continue;
			CXType t = clang_getUnqualifiedType(at);
			const char *r = concrete(P, t);
			if (r)
				return r;
			CXString sp = clang_getTypeSpelling(t);
			const char *tn = pl_say(P, "%s", clang_getCString(sp));
			clang_disposeString(sp);
			r = caller >= 0 && caller != fn
			        ? host_type_arg_d(P, caller, tn, depth + 1)
			        : NULL;
			if (r)
				return r;
		}
	}
	return NULL;
}

/* Whether function template fn has a template parameter named w. */
static bool own_tparam(const fe_ast *a, int fn, const char *w)
{
	for (int c = a->n[fn].first; c >= 0; c = a->n[c].next)
		if ((a->n[c].kind == CXCursor_TemplateTypeParameter ||
		     a->n[c].kind == CXCursor_NonTypeTemplateParameter) &&
		    !strcmp(a->n[c].name, w))
			return true;
	return false;
}

/* The function that w names (`op_neg`, `ops::op_neg`) as template
 * argument of call: the one a reference inside the call names (a header's
 * too), else the one function of the file of that name; qualified by all
 * the namespaces around it, or NULL. */
static const char *function_named(planner *P, int call, const char *w)
{
	const fe_ast *a = P->a;
	const char *last = w;
	for (const char *c = w; *c; c++)
		if (c[0] == ':' && c[1] == ':' && c > w && c[2])
			last = ++c + 1;
		else if (!isalnum((unsigned char)*c) && *c != '_')
			return NULL;
	CXCursor f = clang_getNullCursor();
	for (size_t i = (size_t)call + 1;
	     i < a->len && a->n[i].b < a->n[call].e && clang_Cursor_isNull(f);
	     i++) {
		if (a->n[i].kind != CXCursor_DeclRefExpr ||
		    strcmp(a->n[i].name, last))
			continue;
		CXCursor r = clang_getCursorReferenced(a->n[i].cur);
		if (clang_getCursorKind(r) == CXCursor_FunctionDecl)
			f = r;
	}
	for (size_t i = 0; i < a->decls.len && clang_Cursor_isNull(f); i++) {
		const fe_node *x = &a->n[a->decls.items[i]];
		if (x->kind != CXCursor_FunctionDecl || strcmp(x->name, last))
			continue;
		for (size_t j = i + 1; j < a->decls.len; j++) {
			const fe_node *y = &a->n[a->decls.items[j]];
			if (y->kind == CXCursor_FunctionDecl &&
			    !strcmp(y->name, last) &&
			    !clang_equalCursors(
			        clang_getCanonicalCursor(x->cur),
			        clang_getCanonicalCursor(y->cur)))
				return NULL; /* an overload */
		}
		f = x->cur;
	}
	if (clang_Cursor_isNull(f))
		return NULL;
	const char *q = last;
	for (CXCursor s = clang_getCursorSemanticParent(f);
	     clang_getCursorKind(s) == CXCursor_Namespace;
	     s = clang_getCursorSemanticParent(s)) {
		CXString sp = clang_getCursorSpelling(s);
		const char *ns = clang_getCString(sp);
		/* an anonymous namespace's names need no qualifier */
		if (*ns)
			q = pl_say(P, "%s::%s", ns, q);
		clang_disposeString(sp);
	}
	/* as written, or written with fewer of its namespaces */
	size_t lq = strlen(q), lw = strlen(w);
	return lq >= lw && !strcmp(q + lq - lw, w) &&
	               (lq == lw || q[lq - lw - 1] == ':')
	           ? q
	           : NULL;
}

/* A written integer template argument w (at offset off of the main
 * file, or UINT32_MAX): a literal, or an object-like macro whose body is
 * one (`QK4_0`, a header's too); for a bool (truth) only `true` or
 * `false`. NULL otherwise. */
static const char *written_int(planner *P, const char *w, uint32_t off,
                               bool truth)
{
	if (truth)
		return !strcmp(w, "true") || !strcmp(w, "false") ? w : NULL;
	char *end = NULL;
	long long v = strtoll(w, &end, 0);
	int64_t mv;
	if (*w && !*end)
		return pl_say(P, "%lld", v);
	if (off != UINT32_MAX && fe_expansion_int(P->a, off, &mv))
		return pl_say(P, "%lld", (long long)mv);
	return NULL;
}

/*
 * Non-type template parameter idx of host function template fn as a
 * call writes it, where libclang gives it no value: a pointer to a
 * function (`template <float (*op)(float)>`, fptr), which it never
 * gives, named as the call writes it (`unary_cuda<op_neg>(...)`), or an
 * integer in a call libclang leaves unresolved inside another template
 * (`get_rows_cuda_q<QK4_0, QR4_0, dq>(...)` in `template <typename dst_t>
 * void get_rows_cuda(...)`), read by written_int. Where the call passes
 * its own template's parameter on (`unary_cuda<op>` in `op_unary<op>`):
 * what that template's calls give it (depth levels at most). NULL
 * otherwise.
 */
static const char *written_arg(planner *P, int fn, int idx, bool fptr,
                               bool truth, int depth)
{
	const fe_ast *a = P->a;
	for (size_t i = 0; i < a->len && depth < 4; i++) {
		if (!call_of(a, i, fn))
			continue;
		uint32_t off;
		const char *w =
		    pl_call_targ(P, (int)i, a->n[fn].name, idx, &off);
		int caller = fe_ancestor(a, (int)i, CXCursor_FunctionTemplate);
		const char *r =
		    !w ? NULL
		    : caller >= 0 && caller != fn && own_tparam(a, caller, w)
		        ? host_type_arg_d(P, caller, w, depth + 1)
		    : fptr ? function_named(P, (int)i, w)
		           : written_int(P, w, off, truth);
		if (r)
			return r;
	}
	return NULL;
}

/* What a call of the host function template fn in the file gives its
 * type or non-type parameter named name (a type's name, an integer's
 * value), or its first explicit instantiation, or NULL. */
static const char *host_type_arg(planner *P, int fn, const char *name)
{
	return host_type_arg_d(P, fn, name, 0);
}

static const char *host_type_arg_d(planner *P, int fn, const char *name,
                                   int depth)
{
	const fe_ast *a = P->a;
	if (fn < 0 || a->n[fn].kind != CXCursor_FunctionTemplate)
		return NULL;
	int idx = -1, k = 0;
	bool type = true, truth = false, fptr = false;
	for (int c = a->n[fn].first; c >= 0 && idx < 0; c = a->n[c].next) {
		enum CXCursorKind ck = a->n[c].kind;
		if ((ck == CXCursor_TemplateTypeParameter ||
		     ck == CXCursor_NonTypeTemplateParameter) &&
		    !strcmp(a->n[c].name, name)) {
			idx = k;
			type = ck == CXCursor_TemplateTypeParameter;
			CXType pt = clang_getCanonicalType(
			    clang_getCursorType(a->n[c].cur));
			truth = !type && pt.kind == CXType_Bool;
			fptr = !type && pt.kind == CXType_Pointer &&
			       clang_getPointeeType(pt).kind ==
			           CXType_FunctionProto;
		}
		k += ck == CXCursor_TemplateTypeParameter ||
		     ck == CXCursor_NonTypeTemplateParameter ||
		     ck == CXCursor_TemplateTemplateParameter;
	}
	if (idx < 0)
		return NULL;
	CXCursor r;
	for (size_t i = 0; (i = next_call_of(a, fn, i, &r)) < a->len; i++) {
		if (clang_Cursor_getNumTemplateArguments(r) <= idx)
			continue;
		enum CXTemplateArgumentKind ak =
		    clang_Cursor_getTemplateArgumentKind(r, (unsigned)idx);
		/* a bool's value is one bit, which libclang sign-extends
		 * (true reads -1); `k<1>` would not convert to bool */
		if (truth && ak == CXTemplateArgumentKind_Integral)
			return clang_Cursor_getTemplateArgumentValue(
			           r, (unsigned)idx)
			           ? "true"
			           : "false";
		if (!type && ak == CXTemplateArgumentKind_Integral)
			return pl_say(P, "%lld",
			              clang_Cursor_getTemplateArgumentValue(
			                  r, (unsigned)idx));
		if (!type || ak != CXTemplateArgumentKind_Type)
			continue;
		const char *t = concrete(
		    P, clang_Cursor_getTemplateArgumentType(r, (unsigned)idx));
		if (t)
			return t;
	}
	const char *w =
	    type ? NULL : written_arg(P, fn, idx, fptr, truth, depth);
	if (w || fptr)
		return w;
	/* an explicit instantiation: a type as written (at namespace
	 * scope, so fixed) or deduced from its parameters, an integer only
	 * as a literal */
	int depth_of[32], np = 0;
	for (int c = a->n[fn].first; c >= 0 && np < 32; c = a->n[c].next)
		if (a->n[c].kind == CXCursor_ParmDecl)
			depth_of[np++] =
			    type ? ptrs_to(clang_getCursorType(a->n[c].cur),
			                   name)
			         : -1;
	const char *t = pl_instance_arg(P, fn, idx, type, depth_of, np);
	if (!t && type)
		return dependent_deduced(P, fn, name, depth);
	if (!t || type)
		return t;
	if (truth)
		return !strcmp(t, "true") || !strcmp(t, "false") ? t : NULL;
	char *end = NULL;
	long long v = strtoll(t, &end, 0);
	return *t && !*end ? pl_say(P, "%lld", v) : NULL;
}

/* Whether text names a template parameter of a template around node n
 * (a class's, a variable template's, a function's) other than skip's
 * (its word, not part of a longer name). */
/* Whether text holds name as a whole identifier. */
static bool word_in(const char *text, const char *name)
{
	size_t len = strlen(name);
	for (const char *h = strstr(text, name); h && len;
	     h = strstr(h + 1, name))
		if ((h == text ||
		     !(isalnum((unsigned char)h[-1]) || h[-1] == '_')) &&
		    !(isalnum((unsigned char)h[len]) || h[len] == '_'))
			return true;
	return false;
}

static bool tparam_in(planner *P, int n, int skip, const char *text)
{
	const fe_ast *a = P->a;
	for (int c = n; c >= 0; c = a->n[c].parent) {
		if (c == skip)
			continue;
		for (int p = a->n[c].first; p >= 0; p = a->n[p].next) {
			if (a->n[p].kind != CXCursor_TemplateTypeParameter &&
			    a->n[p].kind != CXCursor_NonTypeTemplateParameter)
				continue;
			if (word_in(text, a->n[p].name))
				return true;
		}
	}
	return false;
}

/* Whether text names a parameter of variable template n (`template
 * <int kSplit, typename I> static constexpr auto kern = k<kSplit, I>;`,
 * whose arguments the reference to it binds): libclang does not walk
 * the template's parameters, so its header's tokens are read, a name
 * being an identifier that `,`, `>` or `=` follows. */
static bool var_tparam_in(planner *P, int n, const char *text)
{
	if (n < 0 || P->a->n[n].kind != CXCursor_UnexposedDecl)
		return false;
	kt_tu *tu = P->f->tu;
	CXToken *t = NULL;
	unsigned nt = 0;
	clang_tokenize(tu->tu, clang_getCursorExtent(P->a->n[n].cur), &t, &nt);
	bool hit = false;
	int depth = 0;
	for (unsigned i = 0; i + 1 < nt && !hit; i++) {
		CXString sp = clang_getTokenSpelling(tu->tu, t[i]);
		CXString nx = clang_getTokenSpelling(tu->tu, t[i + 1]);
		const char *x = clang_getCString(sp), *y = clang_getCString(nx);
		depth += !strcmp(x, "<") - !strcmp(x, ">");
		if (depth == 1 &&
		    clang_getTokenKind(t[i]) == CXToken_Identifier &&
		    (!strcmp(y, ",") || !strcmp(y, ">") || !strcmp(y, "="))) {
			hit = word_in(text, x);
		}
		bool end = depth == 0 && !strcmp(x, ">");
		clang_disposeString(sp);
		clang_disposeString(nx);
		if (end)
			break;
	}
	clang_disposeTokens(tu->tu, t, nt);
	return hit;
}

/* Whether the expression at [b, e) is a name of a function's parameter
 * or local (a generic lambda's `auto d` holding an integral_constant):
 * a name nothing defines where `ktc tune` instantiates the kernel. */
static bool names_local(const fe_ast *a, uint32_t b, uint32_t e)
{
	for (size_t j = 0; j < a->len; j++) {
		if (a->n[j].b != b || a->n[j].e != e || !a->n[j].in_main)
			continue;
		int r = fe_strip(a, (int)j);
		int d = r >= 0 && a->n[r].kind == CXCursor_DeclRefExpr
		            ? a->n[r].ref
		            : -1;
		if (d >= 0 &&
		    (a->n[d].kind == CXCursor_ParmDecl ||
		     a->n[d].kind == CXCursor_VarDecl) &&
		    (fe_ancestor(a, d, CXCursor_FunctionDecl) >= 0 ||
		     fe_ancestor(a, d, CXCursor_FunctionTemplate) >= 0 ||
		     fe_ancestor(a, d, CXCursor_CXXMethod) >= 0 ||
		     fe_ancestor(a, d, CXCursor_LambdaExpr) >= 0))
			return true;
	}
	return false;
}

/* The text of a launch's template argument [b, e) as the kernel is
 * instantiated: where it is a type parameter of the host function
 * template around the launch (`k<T><<<...>>>` in `template <typename T>
 * void f(...)`), the type a call of that template gives it; NULL when
 * that is not known. */
static const char *arg_text(planner *P, const fe_launch *L, uint32_t b,
                            uint32_t e)
{
	const char *t = pl_say(P, "%.*s", (int)(e - b), P->c->text + b);
	if (strpbrk(t, "\\\n"))
		return NULL; /* a macro body's text (`KERNEL<scalar_t>, \`) */
	/* a parameter of a template around the kernel's reference or the
	 * launch (`k<T>` in `template <typename T> struct Launcher { static
	 * void run(...) ... }`), other than the host function template's
	 * (below): not followed, so the line is left to complete rather
	 * than naming what nothing defines where `ktc tune` instantiates */
	if (tparam_in(P, L->kernel, L->host_fn, t) ||
	    tparam_in(P, L->host_fn, L->host_fn, t) ||
	    var_tparam_in(P, L->kernel, t) || names_local(P->a, b, e))
		return NULL;
	int fn = L->host_fn;
	if (fn < 0 || P->a->n[fn].kind != CXCursor_FunctionTemplate)
		return t;
	for (int c = P->a->n[fn].first; c >= 0; c = P->a->n[c].next)
		if ((P->a->n[c].kind == CXCursor_TemplateTypeParameter ||
		     P->a->n[c].kind == CXCursor_NonTypeTemplateParameter) &&
		    strstr(t, P->a->n[c].name)) {
			if (strcmp(t, P->a->n[c].name))
				return NULL; /* `vec<T>`: not followed */
			return host_type_arg(P, fn, t);
		}
	return t;
}

/* ------------------------------------------------ values at instantiation */

/* The value template parameter d (a NonTypeTemplateParameter) has at the
 * instantiation the planner describes: for a kernel's, the argument its
 * first launch writes (a literal no parameter took, or the host function
 * template's parameter it passes on); for a host function template's,
 * the argument the template's first call in the file gives it. */
static bool tparam_value(planner *P, int d, int64_t *v, int depth)
{
	const fe_ast *a = P->a;
	int fn = a->n[d].parent;
	if (fn < 0)
		return false;
	const char *text = NULL;
	for (size_t k = 0; k < P->f->kernels.len && !text; k++) {
		const fe_kern *K = &P->f->kernels.items[k];
		if (K->node != fn)
			continue;
		if (!K->launches.len)
			return false;
		const fe_launch *L = &K->launches.items[0];
		int lit = pl_template_lit(P, K, L, d);
		if (lit >= 0)
			return fold(P, lit, v, depth + 1);
		uint32_t arg[16][2] = {{0}};
		int n = template_args(P, L, arg, 16);
		for (int i = 0; i < n && i < (int)K->tparams.len; i++)
			if (K->tparams.items[i] == d)
				text = arg_text(P, L, arg[i][0], arg[i][1]);
		if (!text)
			return false;
	}
	if (!text)
		text = host_type_arg(P, fn, a->n[d].name);
	char *end = NULL;
	long long x = text ? strtoll(text, &end, 10) : 0;
	if (!text || !*text || *end)
		return false;
	*v = x;
	return true;
}

static bool fold_binop(int op, int64_t x, int64_t y, int64_t *v)
{
	/* an overflow, a division by zero or a negative shift: not what the
	 * compiler computes, no value */
	switch (op) {
	case CXBinaryOperator_Mul: return !__builtin_mul_overflow(x, y, v);
	case CXBinaryOperator_Div:
		*v = y && !(x == INT64_MIN && y == -1) ? x / y : 0;
		return y && !(x == INT64_MIN && y == -1);
	case CXBinaryOperator_Rem:
		*v = y && !(x == INT64_MIN && y == -1) ? x % y : 0;
		return y && !(x == INT64_MIN && y == -1);
	case CXBinaryOperator_Add: return !__builtin_add_overflow(x, y, v);
	case CXBinaryOperator_Sub: return !__builtin_sub_overflow(x, y, v);
	case CXBinaryOperator_Shl:
		*v = x >= 0 && y >= 0 && y < 63 ? x << y : 0;
		return x >= 0 && y >= 0 && y < 63 && (*v >> y) == x;
	case CXBinaryOperator_Shr:
		*v = y >= 0 && y < 63 ? x >> y : 0;
		return y >= 0 && y < 63;
	case CXBinaryOperator_LT: *v = x < y; return true;
	case CXBinaryOperator_GT: *v = x > y; return true;
	case CXBinaryOperator_LE: *v = x <= y; return true;
	case CXBinaryOperator_GE: *v = x >= y; return true;
	case CXBinaryOperator_EQ: *v = x == y; return true;
	case CXBinaryOperator_NE: *v = x != y; return true;
	case CXBinaryOperator_And: *v = x & y; return true;
	case CXBinaryOperator_Xor: *v = x ^ y; return true;
	case CXBinaryOperator_Or: *v = x | y; return true;
	case CXBinaryOperator_LAnd: *v = x && y; return true;
	case CXBinaryOperator_LOr: *v = x || y; return true;
	default: return false;
	}
}

/*
 * The value of integer expression n at that instantiation, as the
 * compiler computes it: literals (none a tuning parameter took), sizeof,
 * arithmetic, template parameters (tparam_value) and the const locals
 * computed from them. What a configuration changes does not fold.
 */
static bool fold(planner *P, int n, int64_t *v, int depth)
{
	const fe_ast *a = P->a;
	n = bare(a, n);
	if (n < 0 || depth > 32)
		return false;
	const fe_node *x = &a->n[n];
	int64_t l, r;
	switch (x->kind) {
	case CXCursor_IntegerLiteral:
		*v = P->subst_on && n == P->subst ? P->subst_val : x->ival;
		return x->is_int &&
		       ((P->subst_on && n == P->subst) || !holds_param(P, n));
	case CXCursor_ParenExpr: return fold(P, x->first, v, depth + 1);
	case CXCursor_UnaryOperator:
		if (!fold(P, x->first, &l, depth + 1))
			return false;
		*v = x->op == CXUnaryOperator_Minus && l != INT64_MIN ? -l : !l;
		return (x->op == CXUnaryOperator_Minus && l != INT64_MIN) ||
		       x->op == CXUnaryOperator_LNot;
	case CXCursor_BinaryOperator:
		return fold(P, fe_child(a, n, 0), &l, depth + 1) &&
		       fold(P, fe_child(a, n, 1), &r, depth + 1) &&
		       fold_binop(x->op, l, r, v);
	case CXCursor_ConditionalOperator:
		if (!fold(P, fe_child(a, n, 0), &l, depth + 1))
			return false;
		return fold(P, fe_child(a, n, l ? 1 : 2), v, depth + 1);
	case CXCursor_UnaryExpr: {
		kt_str s = KT_STR_INIT;
		bool ok = sizeof_expr(P, n, &s);
		*v = ok ? strtoll(s.ptr, NULL, 10) : 0;
		kt_str_release(&s);
		return ok;
	}
	case CXCursor_DeclRefExpr: {
		int d = x->ref;
		if (d >= 0 && a->n[d].kind == CXCursor_NonTypeTemplateParameter)
			return tparam_value(P, d, v, depth);
		return d >= 0 && a->n[d].kind == CXCursor_VarDecl &&
		       const_local(a, d) &&
		       fold(P, fe_var_init(a, d), v, depth + 1);
	}
	default: return false;
	}
}

bool pl_fold(planner *P, int n, int64_t *v)
{
	return fold(P, n, v, 0);
}

bool pl_fold_with(planner *P, int n, int lit, int64_t val, int64_t *v)
{
	P->subst_on = true;
	P->subst = lit;
	P->subst_val = val;
	bool ok = fold(P, n, v, 0);
	P->subst_on = false;
	return ok;
}

/* The type template parameter tp of kernel K, deduced from the launch's
 * arguments as the compiler deduces it (`k<<<g, b>>>(x)` with `T *x` and
 * x a `float *`), or NULL. */
static const char *deduced(planner *P, const fe_kern *K, const fe_launch *L,
                           int tp)
{
	const fe_ast *a = P->a;
	if (a->n[tp].kind != CXCursor_TemplateTypeParameter)
		return NULL;
	int j = 0;
	for (int c = a->n[K->node].first; c >= 0; c = a->n[c].next) {
		if (a->n[c].kind != CXCursor_ParmDecl)
			continue;
		int depth =
		    ptrs_to(clang_getCursorType(a->n[c].cur), a->n[tp].name);
		int arg = fe_launch_arg(a, L, j++);
		const char *t =
		    depth >= 0 && arg >= 0 ? arg_type(P, arg, depth) : NULL;
		if (t)
			return t;
	}
	return NULL;
}

/* Template argument i of the kernel the launch names, as the compiler
 * instantiated it there (a type quoted, an integer as its value), or
 * NULL where the launch is in a template or the argument is neither. */
static const char *instantiated(planner *P, const fe_kern *K,
                                const fe_launch *L, int i)
{
	const fe_ast *a = P->a;
	CXCursor r = clang_getCursorReferenced(a->n[L->kernel].cur);
	if (clang_Cursor_isNull(r) ||
	    clang_Cursor_getNumTemplateArguments(r) <= 0)
		r = fe_lambda_instance(a, L->kernel);
	if (clang_Cursor_isNull(r) ||
	    clang_Cursor_getNumTemplateArguments(r) <= i)
		return NULL;
	/* the kernel's i-th template parameter: a bool's one bit reads -1 */
	bool truth = false;
	int j = 0;
	for (int c = a->n[K->node].first; c >= 0; c = a->n[c].next) {
		enum CXCursorKind ck = a->n[c].kind;
		if (ck != CXCursor_TemplateTypeParameter &&
		    ck != CXCursor_NonTypeTemplateParameter &&
		    ck != CXCursor_TemplateTemplateParameter)
			continue;
		if (j++ == i)
			truth = clang_getCursorType(a->n[c].cur).kind ==
			        CXType_Bool;
	}
	switch (clang_Cursor_getTemplateArgumentKind(r, (unsigned)i)) {
	case CXTemplateArgumentKind_Integral:
		if (truth)
			return clang_Cursor_getTemplateArgumentValue(
			           r, (unsigned)i)
			           ? "\"true\""
			           : "\"false\"";
		return pl_say(
		    P, "%lld",
		    clang_Cursor_getTemplateArgumentValue(r, (unsigned)i));
	case CXTemplateArgumentKind_Type: {
		const char *t = concrete(
		    P, clang_Cursor_getTemplateArgumentType(r, (unsigned)i));
		return t ? pl_say(P, "\"%s\"", t) : NULL;
	}
	default: return NULL;
	}
}

/* The argument at [b, e) names a constant never written after its
 * declaration (`const int threads = 256;`, `constexpr int kThreads =
 * 256;`) whose initialiser is an integer literal of the file: that
 * literal (the parameter it became, in the template), else -1; *named:
 * the argument names such a constant at all. A string `"threads"` would
 * name a local of the host the tuner never sees. */
static int const_literal(const fe_ast *a, uint32_t b, uint32_t e, int fn,
                         bool *named)
{
	*named = false;
	int var = -1;
	for (size_t j = 0; j < a->len && var < 0; j++) {
		if (a->n[j].b != b || a->n[j].e != e || !a->n[j].in_main)
			continue;
		int r = fe_strip(a, (int)j);
		if (r >= 0 && a->n[r].kind == CXCursor_DeclRefExpr &&
		    a->n[r].ref >= 0 &&
		    a->n[a->n[r].ref].kind == CXCursor_VarDecl)
			var = a->n[r].ref;
	}
	/* a name in a macro's argument (`LAUNCH(T, NUM_THREADS)`): its
	 * reference stands at the whole expansion; the function's local
	 * of that name, declared before it */
	for (size_t j = 0; j < a->len && var < 0 && fn >= 0; j++)
		if (a->n[j].kind == CXCursor_VarDecl && a->n[j].in_main &&
		    a->n[j].b >= a->n[fn].b && a->n[j].e <= b &&
		    strlen(a->n[j].name) == e - b &&
		    !strncmp(a->n[j].name, a->tu->text + b, e - b))
			var = (int)j;
	if (var < 0 || fe_assigned(a, var))
		return -1;
	*named = true;
	int init = fe_strip(a, fe_var_init(a, var));
	if (init >= 0 && a->n[init].kind == CXCursor_IntegerLiteral &&
	    a->n[init].spelled)
		return init;
	return -1;
}

/*
 * Template argument i at [arg[i][0], arg[i][1]) is a parameter of the
 * launching macro (`k<scalar_t, NUM_THREADS>` in `#define LAUNCH(scalar_t,
 * NUM_THREADS)`) and the launch, in a host template, instantiates nothing
 * libclang can tell: moved to what the macro's expansion passes
 * (`LAUNCH(scalar_t, NUM_THREADS)` in `template <typename scalar_t> void
 * launcher(...)`), which is then read as a written argument is (the host
 * template's parameter, a constant, a literal). False, arg unchanged,
 * where the launch instantiates it or the expansion does not show it.
 */
static bool macro_arg(planner *P, const fe_launch *L, int i, uint32_t (*arg)[2])
{
	CXCursor r = clang_getCursorReferenced(P->a->n[L->kernel].cur);
	uint32_t b, e;
	if ((!clang_Cursor_isNull(r) &&
	     clang_Cursor_getNumTemplateArguments(r) > i) ||
	    !fe_macro_param_arg(P->a, L->kernel, arg[i][0], &b, &e))
		return false;
	arg[i][0] = b;
	arg[i][1] = e;
	return true;
}

/*
 * Template argument i of the launch, a declaration (a function) that the
 * launching macro writes (`KERNEL<scalar_t>` in `k<scalar_t,
 * KERNEL<scalar_t>>`, which libclang gives no value): its text with each
 * of the macro's parameters replaced by what the expansion passes
 * (`act::silu_kernel`) and a name that another argument of the launch
 * writes alone (`scalar_t`) by the type the launch instantiates there:
 * `"act::silu_kernel<float>"`; else NULL.
 */
static const char *decl_arg(planner *P, const fe_kern *K, const fe_launch *L,
                            int i, uint32_t (*arg)[2], int n)
{
	const fe_ast *a = P->a;
	kt_tu *tu = P->f->tu;
	CXCursor r = clang_getCursorReferenced(a->n[L->kernel].cur);
	if (clang_Cursor_isNull(r) ||
	    clang_Cursor_getNumTemplateArguments(r) <= i ||
	    clang_Cursor_getTemplateArgumentKind(r, (unsigned)i) !=
	        CXTemplateArgumentKind_Declaration)
		return NULL;
	CXToken *t = NULL;
	unsigned nt = 0;
	clang_tokenize(
	    tu->tu,
	    clang_getRange(
	        clang_getLocationForOffset(tu->tu, tu->file, arg[i][0]),
	        clang_getLocationForOffset(tu->tu, tu->file, arg[i][1])),
	    &t, &nt);
	kt_str out = KT_STR_INIT;
	bool ok = nt > 0, word = false;
	for (unsigned k = 0; k < nt && ok; k++) {
		kt_range kr;
		CXString sp = clang_getTokenSpelling(tu->tu, t[k]);
		const char *w = clang_getCString(sp);
		bool id = clang_getTokenKind(t[k]) == CXToken_Identifier;
		uint32_t mb, me;
		const char *by = NULL;
		if (id &&
		    kt_fe_range(tu, clang_getTokenExtent(tu->tu, t[k]), &kr) &&
		    kr.begin.offset < arg[i][1] &&
		    fe_macro_param_arg(a, L->kernel, kr.begin.offset, &mb, &me))
			by = pl_say(P, "%.*s", (int)(me - mb), tu->text + mb);
		for (int j = 0; id && !by && j < n; j++) {
			size_t len = arg[j][1] - arg[j][0];
			const char *q =
			    j != i && strlen(w) == len &&
			            !strncmp(tu->text + arg[j][0], w, len)
			        ? instantiated(P, K, L, j)
			        : NULL;
			size_t ql = q ? strlen(q) : 0;
			if (ql > 2 && q[0] == '"')
				by = pl_say(P, "%.*s", (int)ql - 2, q + 1);
		}
		/* the first half of a `>>` that closes the launch's list too */
		bool half =
		    !strcmp(w, ">>") &&
		    kt_fe_range(tu, clang_getTokenExtent(tu->tu, t[k]), &kr) &&
		    kr.end.offset > arg[i][1];
		if (word && id)
			kt_str_addc(&out, ' ');
		kt_str_adds(&out, by ? by : half ? ">" : w);
		word = id;
		clang_disposeString(sp);
	}
	clang_disposeTokens(tu->tu, t, nt);
	const char *q = ok && out.len && !strchr(out.ptr, '"')
	                    ? pl_say(P, "\"%s\"", out.ptr)
	                    : NULL;
	kt_str_release(&out);
	return q;
}

/* `kernel template(...)`: an argument written as an integer literal is
 * written as its parameter (or value), one that a host template's call
 * makes an integer as that number, any other as a string; a type
 * argument the launch leaves to deduction, as the deduced type. */
static bool template_line(planner *P, const fe_kern *K, const fe_launch *L,
                          kt_str *s, pl_names *problems)
{
	const fe_ast *a = P->a;
	uint32_t arg[16][2] = {{0}};
	int n = template_args(P, L, arg, 16);
	if (n > (int)K->tparams.len || K->tparams.len > 16)
		return false;
	kt_str_adds(s, "kernel template(");
	for (int i = 0; i < (int)K->tparams.len; i++) {
		if (i)
			kt_str_adds(s, ", ");
		if (i >= n) {
			const char *t = deduced(P, K, L, K->tparams.items[i]);
			if (!t || kt_str_addf(s, "\"%s\"", t))
				return false;
			continue;
		}
		if (fe_in_macro_definition(a, arg[i][0]) &&
		    !macro_arg(P, L, i, arg)) {
			/* a macro's parameter (`k<T>` in a launching
			 * macro): what the launch instantiates */
			const char *t = instantiated(P, K, L, i);
			if (!t)
				t = decl_arg(P, K, L, i, arg, n);
			if (!t || kt_str_adds(s, t))
				return false;
			continue;
		}
		int lit = -1;
		for (size_t j = 0; j < a->len && lit < 0; j++)
			if (a->n[j].kind == CXCursor_IntegerLiteral &&
			    a->n[j].spelled && a->n[j].b == arg[i][0] &&
			    a->n[j].e == arg[i][1])
				lit = (int)j;
		bool named = false;
		if (lit < 0)
			lit = const_literal(a, arg[i][0], arg[i][1], L->host_fn,
			                    &named);
		if (lit < 0 && named) {
			/* a constant of another initialiser (`constexpr
			 * bool kFast = true;`): the value the launch
			 * instantiates */
			const char *t = instantiated(P, K, L, i);
			if (!t || kt_str_adds(s, t))
				return false;
			continue;
		}
		if (lit < 0 &&
		    !clang_Cursor_isNull(fe_lambda_instance(a, L->kernel))) {
			/* `k<T>` with T from a generic lambda's argument:
			 * what its first call instantiates */
			const char *t = instantiated(P, K, L, i);
			if (!t || kt_str_adds(s, t))
				return false;
			continue;
		}
		const char *text =
		    lit >= 0 ? NULL : arg_text(P, L, arg[i][0], arg[i][1]);
		char *end = NULL;
		if (text)
			(void)strtoll(text, &end, 10);
		bool number = text && *text && end && !*end;
		if (lit >= 0 ? !pl_expr(P, lit, s, problems)
		             : !text || kt_str_addf(s, number ? "%s" : "\"%s\"",
		                                    text) != 0)
			return false;
	}
	return !kt_str_addc(s, ')');
}

int pl_template_lit(planner *P, const fe_kern *K, const fe_launch *L, int tp)
{
	const fe_ast *a = P->a;
	uint32_t arg[16][2] = {{0}};
	int n = template_args(P, L, arg, 16);
	for (int i = 0; i < n && i < (int)K->tparams.len; i++) {
		if (K->tparams.items[i] != tp)
			continue;
		for (size_t j = 0; j < a->len; j++)
			if (a->n[j].kind == CXCursor_IntegerLiteral &&
			    a->n[j].spelled && a->n[j].b == arg[i][0] &&
			    a->n[j].e == arg[i][1])
				return (int)j;
		/* a constant's name (`k<T, kThreads>` after `constexpr int
		 * kThreads = 256;`): its literal */
		bool named;
		return const_literal(a, arg[i][0], arg[i][1], L->host_fn,
		                     &named);
	}
	return -1;
}

/* The text of the launch's template argument for a type parameter named
 * like t, or NULL. */
static const char *type_arg(planner *P, const fe_kern *K, const char *t)
{
	uint32_t arg[16][2] = {{0}};
	if (!K->launches.len)
		return NULL;
	const fe_launch *L = &K->launches.items[0];
	int n = template_args(P, L, arg, 16);
	for (int i = 0; i < (int)K->tparams.len; i++) {
		const fe_node *tp = &P->a->n[K->tparams.items[i]];
		if (tp->kind != CXCursor_TemplateTypeParameter ||
		    strcmp(tp->name, t))
			continue;
		if (i >= n)
			return deduced(P, K, L, K->tparams.items[i]);
		if ((fe_in_macro_definition(P->a, arg[i][0]) &&
		     !macro_arg(P, L, i, arg)) ||
		    !clang_Cursor_isNull(fe_lambda_instance(P->a, L->kernel))) {
			/* `k<T>` in a launching macro or a generic lambda:
			 * the type the launch instantiates, as the `kernel
			 * template` line says it (quoted there) */
			const char *q = instantiated(P, K, L, i);
			size_t len = q ? strlen(q) : 0;
			return len > 2 && q[0] == '"'
			           ? pl_say(P, "%.*s", (int)len - 2, q + 1)
			           : NULL;
		}
		return arg_text(P, L, arg[i][0], arg[i][1]);
	}
	return NULL;
}

/* Whether t is the name of one of kernel K's type template parameters:
 * a type the grammar knows only through the `kernel template` line. */
static bool kernel_type_param(const planner *P, const fe_kern *K, const char *t)
{
	for (size_t i = 0; i < K->tparams.len; i++) {
		const fe_node *tp = &P->a->n[K->tparams.items[i]];
		if (tp->kind == CXCursor_TemplateTypeParameter &&
		    !strcmp(tp->name, t))
			return true;
	}
	return false;
}

/* ----------------------------------------------------------------- args */

static const char *type_name(planner *P, CXType t)
{
	CXType u = clang_getUnqualifiedType(t);
	CXString s = clang_getTypeSpelling(u);
	const char *r = pl_say(P, "%s", clang_getCString(s));
	clang_disposeString(s);
	return r;
}

/* A CUDA vector type (float4, int2, uchar4, double2...): a struct of 2
 * to 4 fields of one arithmetic type and no padding. */
typedef struct lanes {
	CXType elem;
	int n;
	bool mixed;
} lanes;

static enum CXVisitorResult count_lane(CXCursor c, CXClientData data)
{
	lanes *l = data;
	CXType t = clang_getCanonicalType(clang_getCursorType(c));
	if (t.kind < CXType_Bool || t.kind > CXType_LongDouble ||
	    (l->n && t.kind != l->elem.kind))
		l->mixed = true;
	if (!l->n)
		l->elem = clang_getCursorType(c);
	l->n++;
	return CXVisit_Continue;
}

/* The lanes of vector type t (its element type in *elem), or 0. */
static int vector_lanes(CXType t, CXType *elem)
{
	CXType u = clang_getCanonicalType(t);
	lanes l = {.n = 0};
	if (u.kind != CXType_Record)
		return 0;
	clang_Type_visitFields(u, count_lane, &l);
	long long size = clang_Type_getSizeOf(u);
	if (l.mixed || l.n < 2 || l.n > 4 ||
	    size != l.n * clang_Type_getSizeOf(l.elem))
		return 0;
	*elem = l.elem;
	return l.n;
}

static void buffer_arg(planner *P, const fe_kern *K, const fe_launch *L,
                       int parm, CXType pt, pl_names *problems)
{
	int use = fe_pointer_access(P->a, K->body, parm);
	bool cnst = clang_isConstQualifiedType(pt);
	const char *dir = cnst || !(use & FE_WRITE) ? "in"
	                  : use & FE_READ           ? "inout"
	                                            : "out";
	const char *name = P->a->n[parm].name;
	const char *type = type_name(P, pt);
	const char *inst = type_arg(P, K, type);
	type = inst ? inst : type;
	long long elem = clang_Type_getSizeOf(pt);
	/* a vector type is its lanes to the grammar: `float4 *y` of N
	 * elements is `float[4 * (N)]`, the same bytes */
	CXType lane;
	int nl = vector_lanes(pt, &lane);
	if (nl)
		type = type_name(P, lane);
	kt_str len = KT_STR_INIT, why = KT_STR_INIT;
	/* a refactor computes what the original does: its buffers are the
	 * original's, whatever the configuration */
	P->as_written = true;
	bool known = pl_buffer_len(P, K, L, parm, elem > 0 ? elem : 0, &len,
	                           problems, &why);
	P->as_written = false;
	/* `T *y` where the instantiation is not known: T names nothing
	 * where `ktc tune` reads the line, so its type is asked for, with
	 * the length where that is known */
	bool unknown_type = !inst && !nl && kernel_type_param(P, K, type);
	if (unknown_type)
		add_need(
		    P, K->name, "arg_type", pl_range(P, parm),
		    pl_say(P,
		           "the element type of '%s' is the kernel's "
		           "template parameter '%s', which no launch in "
		           "this file fixes: add '#pragma kt arg %s "
		           "TYPE[%s] %s' with the type the kernel template "
		           "line gives '%s'",
		           name, type, name, known ? len.ptr : "COUNT", dir,
		           type),
		    pl_say(P, "arg %s ?[%s] %s", name, known ? len.ptr : "?",
		           dir));
	else if (known)
		add_pragma(P, K->name,
		           nl ? pl_say(P, "arg %s %s[%d * (%s)] %s", name, type,
		                       nl, len.ptr, dir)
		              : pl_say(P, "arg %s %s[%s] %s", name, type,
		                       len.ptr, dir));
	else
		add_need(P, K->name, "arg_count", pl_range(P, parm),
		         pl_say(P,
		                "the length of '%s' is not known: %sadd "
		                "'#pragma kt arg %s %s[COUNT] %s' with COUNT "
		                "over problem variables%s",
		                name, why.ptr, name, type, dir,
		                nl ? " (COUNT in lanes: a vector element is "
		                     "several)"
		                   : ""),
		         pl_say(P, "arg %s %s[?] %s", name, type, dir));
	kt_str_release(&len);
	kt_str_release(&why);
}

static void scalar_arg(planner *P, const fe_kern *K, int parm, int arg,
                       pl_names *problems)
{
	const char *name = P->a->n[parm].name;
	const char *type = type_name(P, clang_getCursorType(P->a->n[parm].cur));
	const char *inst = type_arg(P, K, type); /* `T a` of kernel<float> */
	type = inst ? inst : type;
	kt_str e = KT_STR_INIT;
	P->float_ref = -1;
	if (arg >= 0 && pl_expr(P, arg, &e, problems))
		add_pragma(P, K->name,
		           pl_say(P, "arg %s %s = %s", name, type, e.ptr));
	else if (P->float_ref >= 0)
		add_need(P, K->name, "arg", pl_range(P, P->float_ref),
		         pl_say(P,
		                "'%s' is a %s the host passes to the kernel, "
		                "not a problem size: add '#pragma kt arg %s %s "
		                "= VALUE' with a literal (the value it is run "
		                "with) or an expression over problem variables",
		                P->a->n[P->float_ref].name,
		                type_name(P, clang_getCursorType(
		                                 P->a->n[P->float_ref].cur)),
		                name, type),
		         pl_say(P, "arg %s %s = ?", name, type));
	else if (P->synth)
		add_need(P, K->name, "arg", pl_range(P, parm),
		         pl_say(P,
		                "no launch in this file passes '%s': add "
		                "'#pragma kt arg %s %s = VALUE' with a literal "
		                "(the value it is run with) or an expression "
		                "over problem variables",
		                name, name, type),
		         pl_say(P, "arg %s %s = ?", name, type));
	else
		add_need(P, K->name, "arg", pl_range(P, parm),
		         pl_say(P,
		                "the value of '%s' at the launch cannot be "
		                "derived: add '#pragma kt arg %s %s = EXPR'",
		                name, name, type),
		         pl_say(P, "arg %s %s = ?", name, type));
	kt_str_release(&e);
}

/* The call's argument for the kernel's i-th parameter, or -1. */
static int call_arg(const planner *P, const fe_launch *L, int i)
{
	return fe_launch_arg(P->a, L, i);
}

int pl_call_arg(const planner *P, const fe_launch *L, int parm)
{
	const fe_ast *a = P->a;
	int i = 0;
	for (int c = a->n[a->n[parm].parent].first; c >= 0 && c != parm;
	     c = a->n[c].next)
		i += a->n[c].kind == CXCursor_ParmDecl;
	return call_arg(P, L, i);
}

bool pl_launch_arg(planner *P, const fe_launch *L, int parm, kt_str *out)
{
	int arg = pl_call_arg(P, L, parm);
	return arg >= 0 && pl_expr(P, arg, out, NULL);
}

/*
 * A parameter the kernel's body never names (`int64_t` with no name): its
 * value changes nothing, so it needs no completing. A number gets the
 * launch's value where that is derived, else 0; a pointer one element
 * nothing reads. One without a name gets kt_argI (the grammar's
 * arguments go by position; the name is a label). A struct by value goes
 * the ordinary way: no number stands for it.
 */
static void unused_arg(planner *P, const fe_kern *K, const fe_launch *L,
                       int parm, int i, pl_names *problems)
{
	const fe_ast *a = P->a;
	CXType t = clang_getCursorType(a->n[parm].cur);
	const char *name =
	    *a->n[parm].name ? a->n[parm].name : pl_say(P, "kt_arg%d", i);
	if (t.kind == CXType_Pointer) {
		CXType pt = clang_getPointeeType(t), lane;
		const char *type = type_name(P, pt);
		const char *inst = type_arg(P, K, type);
		int nl = vector_lanes(pt, &lane); /* a float4 is 4 floats */
		add_pragma(P, K->name,
		           pl_say(P, "arg %s %s[%d] in", name,
		                  nl     ? type_name(P, lane)
		                  : inst ? inst
		                         : type,
		                  nl ? nl : 1));
		return;
	}
	const char *type = type_name(P, t);
	const char *inst = type_arg(P, K, type);
	kt_str e = KT_STR_INIT;
	int arg = L ? call_arg(P, L, i) : -1;
	/* the launch's value only over problem variables already asked for:
	 * an unused argument must not add one to complete */
	pl_names mine = {0};
	bool known = arg >= 0 && pl_expr(P, arg, &e, &mine);
	for (size_t k = 0; known && k < mine.len; k++) {
		bool had = false;
		for (size_t j = 0; !had && j < problems->len; j++)
			had = !strcmp(problems->items[j], mine.items[k]);
		known = had;
	}
	kt_vec_release(&mine);
	add_pragma(P, K->name,
	           pl_say(P, "arg %s %s = %s", name, inst ? inst : type,
	                  known ? e.ptr : "0"));
	kt_str_release(&e);
}

static void arg_lines(planner *P, const fe_kern *K, const fe_launch *L,
                      pl_names *problems)
{
	const fe_ast *a = P->a;
	int i = 0;
	for (int c = a->n[K->node].first; c >= 0; c = a->n[c].next) {
		if (a->n[c].kind != CXCursor_ParmDecl)
			continue;
		CXType t = clang_getCursorType(a->n[c].cur);
		const char *var = !L && P->synth && i < PL_SYNTH_ARGS
		                      ? P->synth->arg[i]
		                      : NULL;
		enum CXTypeKind ck = clang_getCanonicalType(t).kind;
		bool plain = t.kind == CXType_Pointer ||
		             (ck >= CXType_Bool && ck <= CXType_LongDouble);
		if (K->body >= 0 && plain &&
		    (!*a->n[c].name || !fe_refers_to(a, K->body, c))) {
			unused_arg(P, K, L, c, i, problems);
			i++;
			continue;
		}
		if (t.kind == CXType_Pointer)
			buffer_arg(P, K, L, c, clang_getPointeeType(t),
			           problems);
		else if (var)
			add_pragma(P, K->name,
			           pl_say(P, "arg %s %s = %s", a->n[c].name,
			                  type_name(P, t), var));
		else
			scalar_arg(P, K, c, L ? call_arg(P, L, i) : -1,
			           problems);
		i++;
	}
}

static void problem_needs(planner *P, const fe_kern *K, const fe_launch *L,
                          pl_names *problems)
{
	const fe_ast *a = P->a;
	for (size_t i = 0; i < problems->len; i++) {
		const char *name = problems->items[i];
		kt_range r = pl_range(P, L->call);
		for (int c = L->host_fn >= 0 ? a->n[L->host_fn].first : -1;
		     c >= 0; c = a->n[c].next)
			if (a->n[c].kind == CXCursor_ParmDecl &&
			    !strcmp(a->n[c].name, name))
				r = pl_range(P, c);
		/* or the host's local it is (see opaque_local) */
		for (size_t j = 0; L->host_fn >= 0 && j < a->len; j++)
			if (a->n[j].kind == CXCursor_VarDecl &&
			    a->n[j].b >= a->n[L->host_fn].b &&
			    a->n[j].e <= a->n[L->host_fn].e &&
			    a->n[j].e <= a->n[L->call].b &&
			    !strcmp(a->n[j].name, name))
				r = pl_range(P, (int)j);
		add_need(
		    P, K->name, "problem_values", r,
		    pl_say(P,
		           "'%s' is a problem size: add '#pragma kt "
		           "problem %s values(...)' with the sizes to tune "
		           "for",
		           name, name),
		    pl_say(P, "problem %s values(?)", name));
	}
}

/* Whether kernel K's own `#pragma kt` lines (read by the grammar, see
 * pl_written) declare name with a `WHAT name` line. */
static bool declared(planner *P, const fe_kern *K, const char *what,
                     const char *name)
{
	return pl_written(P, K->name, pl_say(P, "%s %s", what, name));
}

/* The names the user's `#pragma kt launch` line uses that no `#pragma kt`
 * line of the file declares: problem sizes, as a launch in code makes its
 * free variables. */
static void pragma_problems(planner *P, const fe_kern *K)
{
	const char *t = P->f->tu->text;
	kt_range ops[2] = {K->pgrid, K->pblock};
	for (int o = 0; o < 2; o++)
		for (uint32_t i = ops[o].begin.offset; i < ops[o].end.offset;) {
			uint32_t b = i;
			while (i < ops[o].end.offset &&
			       (isalnum((unsigned char)t[i]) || t[i] == '_'))
				i++;
			if (b == i) {
				i++;
				continue;
			}
			const char *name =
			    pl_say(P, "%.*s", (int)(i - b), t + b);
			/* a function of the grammar, a device constant */
			if (!name || isdigit((unsigned char)t[b]) ||
			    t[i] == '(' || !strncmp(name, "DEVICE_", 7) ||
			    declared(P, K, "problem", name) ||
			    declared(P, K, "param", name) ||
			    declared(P, K, "set", name))
				continue;
			const char *line =
			    pl_say(P, "problem %s values(?)", name);
			bool dup = false;
			for (size_t n = 0; n < P->needs.len; n++)
				dup |= !strcmp(P->needs.items[n].kernel,
				               K->name) &&
				       P->needs.items[n].suggest &&
				       !strcmp(P->needs.items[n].suggest, line);
			if (!dup)
				add_need(
				    P, K->name, "problem_values", ops[o],
				    pl_say(P,
				           "'%s' is a problem size: add "
				           "'#pragma kt problem %s "
				           "values(...)' with the sizes to "
				           "tune for",
				           name, name),
				    line);
		}
}

/* The problem variables of a kernel with no launch: each asked for at the
 * parameter it stands for, or at the kernel for one the grid adds. */
static void synth_problem_needs(planner *P, const fe_kern *K,
                                const pl_names *problems)
{
	const fe_ast *a = P->a;
	for (size_t i = 0; i < problems->len; i++) {
		const char *name = problems->items[i];
		int at = -1;
		for (int c = a->n[K->node].first; c >= 0 && at < 0;
		     c = a->n[c].next)
			if (a->n[c].kind == CXCursor_ParmDecl &&
			    !strcmp(a->n[c].name, name))
				at = c;
		const char *what =
		    at >= 0
		        ? pl_say(P,
		                 "'%s' is a problem size (no launch in this "
		                 "file passes it)",
		                 name)
		        : pl_say(P,
		                 "'%s' is the number of blocks (a row each) "
		                 "no launch in this file gives",
		                 name);
		add_need(P, K->name, "problem_values",
		         pl_range(P, at >= 0 ? at : K->node),
		         pl_say(P,
		                "%s: add '#pragma kt problem %s values(...)' "
		                "with the sizes to tune for",
		                what, name),
		         pl_say(P, "problem %s values(?)", name));
	}
}

/* `grid(a, b) block(c, d)` of a synthesised launch. */
static void synth_launch_line(const pl_synth *S, kt_str *s)
{
	kt_str_adds(s, "launch grid(");
	for (int d = 0; d < S->ndims; d++)
		kt_str_addf(s, "%s%s", d ? ", " : "", S->grid[d]);
	kt_str_adds(s, ") block(");
	for (int d = 0; d < S->ndims; d++)
		kt_str_addf(s, "%s%s", d ? ", " : "", S->block[d]);
	kt_str_addc(s, ')');
}

/*
 * A kernel nobody in the file launches: the launch follows from the body
 * where nolaunch.c recognises how threads map to work, and the integer
 * parameters are problem variables either way, so the lengths of the
 * buffers come from the body as for a launched kernel.
 */
static void derive_unlaunched(planner *P, const fe_kern *K, pl_names *problems)
{
	pl_synth S;
	/* the file's own launch line is the launch: no geometry of ours, and
	 * of the kernel's integer parameters only those a written `problem`
	 * line declares are problem sizes (what the others are over the
	 * launch line's names is asked for) */
	bool own = pl_written(P, K->name, "launch");
	size_t had = problems->len;
	pl_synth_args(P, K, &S, problems);
	for (int i = 0; own && i < PL_SYNTH_ARGS; i++)
		if (S.arg[i] && !declared(P, K, "problem", S.arg[i]))
			S.arg[i] = NULL;
	if (own) /* keep the declared ones, in order */
		for (size_t i = had, j = had; i <= problems->len; i++) {
			if (i == problems->len) {
				problems->len = j;
				break;
			}
			if (declared(P, K, "problem", problems->items[i]))
				problems->items[j++] = problems->items[i];
		}
	bool ok = !own && pl_synth_launch(P, K, &S, problems);
	if (own)
		pl_written_launch(P, K);
	if (K->pragma_launch) /* names it uses that nothing declares */
		pragma_problems(P, K);
	if (P->a->n[K->node].kind == CXCursor_FunctionTemplate)
		add_need(P, K->name, "kernel_template", pl_range(P, K->node),
		         pl_say(P,
		                "no launch of '%s' in this file gives its "
		                "template arguments: add '#pragma kt kernel "
		                "template(...)'",
		                K->name),
		         "kernel template(?)");
	if (ok) {
		kt_str s = KT_STR_INIT;
		synth_launch_line(&S, &s);
		add_pragma(P, K->name, s.ptr);
		kt_str_release(&s);
	} else {
		add_need(P, K->name, "launch", pl_range(P, K->node),
		         pl_say(P,
		                "no launch of '%s' in this file, and its body "
		                "does not show how its threads cover the work "
		                "(a global index guarded by a size parameter, "
		                "a grid-stride loop, a row per block): add "
		                "'#pragma kt launch grid(...) block(...)'",
		                K->name),
		         "launch grid(?) block(?)");
		memset(S.grid, 0, sizeof(S.grid));
		memset(S.block, 0, sizeof(S.block));
		S.ndims = 3;
	}
	P->synth = &S;
	arg_lines(P, K, NULL, problems);
	P->synth = NULL;
	synth_problem_needs(P, K, problems);
}

/* A launch line the file has for a kernel it also launches is kept as
 * written; where the one derived from the launch differs (a literal that
 * became a parameter, a refactor's grid), the written one does not follow
 * it, which is said. */
static void written_launch_differs(planner *P, const fe_kern *K,
                                   const fe_launch *L, const char *derived)
{
	const kt_pragma_text *w = pl_written_line(P, K->name, derived);
	if (!w)
		return;
	const char *t = P->c->text;
	size_t b = w->body, e = w->end;
	while (b < e && (t[b] == ' ' || t[b] == '\t'))
		b++;
	while (e > b && (t[e - 1] == ' ' || t[e - 1] == '\t' ||
	                 t[e - 1] == '\n' || t[e - 1] == '\r'))
		e--;
	if (e - b == strlen(derived) && !strncmp(t + b, derived, e - b))
		return;
	kt_range r =
	    kt_fe_make_range(P->f->tu, (uint32_t)w->begin, (uint32_t)w->end);
	kt_range at = pl_range(P, L->call);
	kt_diags_add(P->d, KT_DIAG_WARNING, P->c->path, P->c->text,
	             r.begin.line, r.begin.col, (int)(e - w->begin),
	             "the launch line written for '%s' is kept as it is; the "
	             "launch at %d:%d gives '%s', which it does not follow: "
	             "write it so or remove it to have it derived",
	             K->name, at.begin.line, at.begin.col, derived);
}

int pl_derive_pragmas(planner *P, int k)
{
	const fe_kern *K = &P->f->kernels.items[k];
	pl_names problems = {0};
	if (!K->launches.len) {
		derive_unlaunched(P, K, &problems);
		kt_vec_release(&problems);
		return P->oom ? KT_ENOMEM : KT_OK;
	}
	const fe_launch *L = &K->launches.items[0];
	kt_str s = KT_STR_INIT;
	if (P->a->n[K->node].kind == CXCursor_FunctionTemplate) {
		if (template_line(P, K, L, &s, &problems))
			add_pragma(P, K->name, s.ptr);
		else
			add_need(
			    P, K->name, "kernel_template", pl_range(P, L->call),
			    "the template arguments of the launch cannot be "
			    "derived: add '#pragma kt kernel template(...)'",
			    "kernel template(?)");
		kt_str_clear(&s);
	}
	if (launch_line(P, K->name, L, &s, &problems)) {
		written_launch_differs(P, K, L, s.ptr);
		add_pragma(P, K->name, s.ptr);
	} else
		add_need(P, K->name, "launch", pl_range(P, L->call),
		         pl_say(P,
		                "the launch geometry of '%s' cannot be "
		                "derived: add '#pragma kt launch grid(...) "
		                "block(...)'",
		                K->name),
		         "launch grid(?) block(?)");
	kt_str_release(&s);
	arg_lines(P, K, L, &problems);
	problem_needs(P, K, L, &problems);
	pl_host_preconditions(P, K, L, &problems);
	kt_vec_release(&problems);
	return P->oom ? KT_ENOMEM : KT_OK;
}
