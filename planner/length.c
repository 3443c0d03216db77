/*
 * length.c - the element count of a kernel's pointer argument, where the
 * code determines it, written over the launch's host values.
 *
 * Two sources, each from the AST alone:
 *  - the kernel body (extent.c): the largest element index + 1 over
 *    every access through the pointer and the local pointers made from
 *    it, each index proven >= 0 and bounded by guards, the grid, the
 *    block and the launch's values;
 *  - the host code: what the launch passes, traced to where it was
 *    allocated (`cudaMalloc(&p, BYTES)` and its siblings, `new T[n]`, a
 *    vector's `data()`, `p + off`, `&p[off]`).
 * A length is a promise `ktc tune` allocates by: one too small makes a
 * correct kernel fail, so anything not proven (an index with no guard, a
 * pointer assigned twice, two sources that do not say the same) is left
 * to the user.
 */
#include "planner/planner.h"

#include <string.h>

/* Implicit wrappers and parentheses only: a cast changes what an index
 * counts. */
static int implicit(const fe_ast *a, int n)
{
	while (n >= 0 &&
	       (a->n[n].kind == CXCursor_UnexposedExpr ||
	        a->n[n].kind == CXCursor_ParenExpr) &&
	       fe_nchildren(a, n) == 1)
		n = a->n[n].first;
	return n;
}

bool pl_inside(const fe_ast *a, int n, int region)
{
	return a->n[n].in_main && a->n[region].in_main &&
	       a->n[n].b >= a->n[region].b && a->n[n].e <= a->n[region].e;
}

/* Something in region writes var: an assignment, ++/--, or its address
 * taken (whoever holds it may write). */
bool pl_writes(const fe_ast *a, int region, int var, int skip)
{
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		if (!pl_inside(a, (int)i, region) ||
		    (skip >= 0 && pl_inside(a, (int)i, skip)))
			continue;
		bool compound;
		int lhs = fe_assign_lhs(a, (int)i, &compound);
		if (x->kind == CXCursor_UnaryOperator &&
		    ((x->op >= CXUnaryOperator_PostInc &&
		      x->op <= CXUnaryOperator_PreDec) ||
		     x->op == CXUnaryOperator_AddrOf))
			lhs = implicit(a, x->first);
		if (lhs >= 0 && a->n[lhs].kind == CXCursor_DeclRefExpr &&
		    a->n[lhs].ref == var)
			return true;
	}
	return false;
}

static bool is_integer(CXType t)
{
	enum CXTypeKind k = clang_getCanonicalType(t).kind;
	return k >= CXType_Char_U && k <= CXType_Int128 && k != CXType_Bool;
}

/* Wraps e in parentheses unless it is a name, a number or one
 * parenthesized whole. */
static void add_operand(kt_str *out, const kt_str *e)
{
	size_t word = strspn(e->ptr, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"
	                             "OPQRSTUVWXYZ0123456789_");
	bool whole = e->len >= 2 && e->ptr[0] == '(';
	for (size_t i = 0, depth = 0; whole && i < e->len; i++) {
		depth += (e->ptr[i] == '(') - (e->ptr[i] == ')');
		whole = depth > 0 || i == e->len - 1;
	}
	if (word == e->len || whole)
		kt_str_adds(out, e->ptr);
	else
		kt_str_addf(out, "(%s)", e->ptr);
}

/* Whether expression text e names a tuning parameter: a length must
 * not change with the configuration, or the configurations' outputs
 * would not be compared element for element. */
bool pl_names_param(const planner *P, const char *e)
{
	for (const char *p = e; *p;) {
		size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLM"
		                     "NOPQRSTUVWXYZ0123456789_");
		if (!n) {
			p++;
			continue;
		}
		char name[128];
		if (n < sizeof(name)) {
			memcpy(name, p, n);
			name[n] = '\0';
			if (pl_find_param(P, name) >= 0)
				return true;
		}
		p += n;
	}
	return false;
}

/* ---------------------------------------------------------- host code */

/* A count of bytes as `e * unit` (unit 1 when e counts bytes). */
typedef struct bytes {
	kt_str e;
	int64_t unit;
	bool fresh; /* e is a tensor's numel: a new problem variable */
} bytes;

static int64_t size_of(CXType t)
{
	long long s = clang_Type_getSizeOf(t);
	return s > 0 ? s : 0;
}

static int64_t sizeof_value(const fe_ast *a, int n)
{
	n = implicit(a, n);
	size_t len;
	const char *t = n >= 0 ? fe_text(a, n, &len) : NULL;
	if (!t || len < 6 || strncmp(t, "sizeof", 6) ||
	    a->n[n].kind != CXCursor_UnaryExpr)
		return 0;
	CXEvalResult r = clang_Cursor_Evaluate(a->n[n].cur);
	int64_t v = r && clang_EvalResult_getKind(r) == CXEval_Int
	                ? clang_EvalResult_getAsLongLong(r)
	                : 0;
	if (r)
		clang_EvalResult_dispose(r);
	return v;
}

/* The factors of a product (through implicit wrappers and parentheses). */
static int factors(const fe_ast *a, int n, int *out, int max, int k)
{
	int x = implicit(a, n);
	if (x >= 0 && a->n[x].kind == CXCursor_BinaryOperator &&
	    a->n[x].op == CXBinaryOperator_Mul) {
		k = factors(a, fe_child(a, x, 0), out, max, k);
		return factors(a, fe_child(a, x, 1), out, max, k);
	}
	if (k < max)
		out[k] = n;
	return k + 1;
}

/* BYTES of an allocation: a product with a `sizeof(T)` factor as the
 * other factors and the size, anything else as itself. */
static bool alloc_bytes(planner *P, int n, pl_names *problems, bytes *out)
{
	const fe_ast *a = P->a;
	int f[16], k = factors(a, n, f, 16, 0), unit = -1;
	for (int i = 0; i < k && k <= 16 && unit < 0; i++)
		if (sizeof_value(a, f[i]))
			unit = i;
	if (unit < 0 || k < 2) {
		out->unit = 1;
		return pl_expr(P, n, &out->e, problems);
	}
	out->unit = sizeof_value(a, f[unit]);
	for (int i = 0, w = 0; i < k; i++) {
		if (i == unit)
			continue;
		kt_str e = KT_STR_INIT;
		bool ok = pl_expr(P, f[i], &e, problems);
		if (ok && w++)
			kt_str_adds(&out->e, " * ");
		if (ok)
			add_operand(&out->e, &e);
		kt_str_release(&e);
		if (!ok)
			return false;
	}
	return true;
}

static const char *const allocators[] = {"cudaMalloc", "cudaMallocAsync",
                                         "cudaMallocManaged", "cudaMallocHost"};

static bool is_allocator(const char *name)
{
	for (size_t i = 0; i < sizeof(allocators) / sizeof(*allocators); i++)
		if (!strcmp(name, allocators[i]))
			return true;
	return false;
}

/* `cudaMalloc(&var, BYTES)` in fn (the first argument maybe cast): the
 * call, or -1; -2 when there are two. */
static int malloc_of(const fe_ast *a, int fn, int var)
{
	int found = -1;
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		if (x->kind != CXCursor_CallExpr || !pl_inside(a, (int)i, fn) ||
		    !is_allocator(x->name))
			continue;
		int p = fe_strip(a, fe_child(a, (int)i, 1));
		int v = p >= 0 && a->n[p].kind == CXCursor_UnaryOperator &&
		                a->n[p].op == CXUnaryOperator_AddrOf
		            ? implicit(a, a->n[p].first)
		            : -1;
		if (v < 0 || a->n[v].kind != CXCursor_DeclRefExpr ||
		    a->n[v].ref != var)
			continue;
		if (found != -1)
			return -2;
		found = (int)i;
	}
	return found;
}

static bool null_init(const fe_ast *a, int init)
{
	int n = fe_strip(a, init);
	return n >= 0 && (a->n[n].kind == CXCursor_CXXNullPtrLiteralExpr ||
	                  (a->n[n].is_int && a->n[n].ival == 0) ||
	                  a->n[n].kind == CXCursor_GNUNullExpr);
}

static bool host_bytes(planner *P, const fe_launch *L, int n,
                       pl_names *problems, bytes *out);
static bool tensor_bytes(planner *P, int call, pl_names *problems, bytes *out);

/* A host pointer variable: its initialiser, or the one allocation. */
static bool var_bytes(planner *P, const fe_launch *L, int var,
                      pl_names *problems, bytes *out)
{
	const fe_ast *a = P->a;
	int fn = L->host_fn;
	if (a->n[var].kind != CXCursor_VarDecl || fn < 0 ||
	    !pl_inside(a, var, fn))
		return false;
	int init = fe_var_init(a, var);
	int call = malloc_of(a, fn, var);
	if (call == -2 || (call >= 0 && init >= 0 && !null_init(a, init)))
		return false;
	if (call < 0) {
		int def = fe_def_before(a, var, a->n[L->call].b);
		return def >= 0 && def == init && !pl_writes(a, fn, var, -1) &&
		       host_bytes(P, L, def, problems, out);
	}
	if (pl_writes(a, fn, var, fe_child(a, call, 1)) ||
	    a->n[call].e > a->n[L->call].b)
		return false;
	return alloc_bytes(P, fe_child(a, call, 2), problems, out);
}

/* `new T[n]`: n elements of T. */
static bool new_bytes(planner *P, int n, pl_names *problems, bytes *out)
{
	const fe_ast *a = P->a;
	CXType t = clang_getPointeeType(clang_getCursorType(a->n[n].cur));
	int64_t s = size_of(t);
	int count = -1;
	for (int c = a->n[n].first; c >= 0; c = a->n[c].next)
		if (clang_isExpression(a->n[c].kind))
			count = count == -1 ? c : -2;
	if (!s || count < 0 ||
	    clang_getCursorType(a->n[n].cur).kind != CXType_Pointer)
		return false;
	/* `new T(v)` has one expression too: only an array new has a count
	 * written between brackets */
	size_t len;
	const char *text = fe_text(a, n, &len);
	const char *br = memchr(text, '[', len);
	if (!br || a->n[count].b < (uint32_t)(br - a->tu->text))
		return false;
	out->unit = s;
	return pl_expr(P, count, &out->e, problems);
}

/* The std::vector / thrust vector variable `v` of `v.data()`: its count
 * when constructed with one (`v(n)`, `v(n, value)`) and never changed. */
static bool vector_bytes(planner *P, const fe_launch *L, int call,
                         pl_names *problems, bytes *out)
{
	const fe_ast *a = P->a;
	int mem = a->n[call].first;
	int base = mem >= 0 && a->n[mem].kind == CXCursor_MemberRefExpr
	               ? implicit(a, a->n[mem].first)
	               : -1;
	int var = base >= 0 && a->n[base].kind == CXCursor_DeclRefExpr
	              ? a->n[base].ref
	              : -1;
	if (fe_nwritten(a, call) != 1 || var < 0 ||
	    a->n[var].kind != CXCursor_VarDecl || L->host_fn < 0 ||
	    !pl_inside(a, var, L->host_fn))
		return false;
	CXType t = clang_getCanonicalType(clang_getCursorType(a->n[var].cur));
	CXString ts = clang_getTypeSpelling(t);
	const char *tn = clang_getCString(ts);
	bool vec = !strncmp(tn, "std::vector<", 12) ||
	           !strncmp(tn, "thrust::device_vector<", 22) ||
	           !strncmp(tn, "thrust::host_vector<", 20);
	clang_disposeString(ts);
	int64_t s = size_of(clang_Type_getTemplateArgumentAsType(t, 0));
	int ctor = fe_var_init(a, var);
	if (!vec || !s || ctor < 0 || a->n[ctor].kind != CXCursor_CallExpr)
		return false;
	int count = -1, k = 0;
	for (int c = a->n[ctor].first; c >= 0; c = a->n[c].next)
		if (a->n[c].in_main && k++ == 0)
			count = c;
	if (count < 0 || k > 2 ||
	    !is_integer(clang_getCursorType(a->n[count].cur)))
		return false;
	/* no member call but data() and size() on v, v not assigned */
	for (size_t i = 0; i < a->len; i++) {
		const fe_node *x = &a->n[i];
		if (x->kind != CXCursor_DeclRefExpr || x->ref != var)
			continue;
		int up = fe_up(a, (int)i);
		bool member =
		    up >= 0 && a->n[up].kind == CXCursor_MemberRefExpr;
		if (!member || (strcmp(a->n[up].name, "data") &&
		                strcmp(a->n[up].name, "size")))
			return false;
	}
	out->unit = s;
	return pl_expr(P, count, &out->e, problems);
}

/* In elements of size s: `e` itself when its unit is s, else scaled. */
static void count_in(const bytes *b, int64_t s, kt_str *out)
{
	if (b->unit == s)
		kt_str_adds(out, b->e.ptr);
	else if (b->unit == 1)
		kt_str_addf(out, "(%s) / %lld", b->e.ptr, (long long)s);
	else if (b->unit % s == 0) {
		add_operand(out, &b->e);
		kt_str_addf(out, " * %lld", (long long)(b->unit / s));
	} else {
		kt_str_addc(out, '(');
		add_operand(out, &b->e);
		kt_str_addf(out, " * %lld) / %lld", (long long)b->unit,
		            (long long)s);
	}
}

/* `p + off`, `&p[off]`: p's bytes less off elements of p. */
static bool offset_bytes(planner *P, const fe_launch *L, int base, int off,
                         pl_names *problems, bytes *out)
{
	const fe_ast *a = P->a;
	CXType pt = clang_getCursorType(a->n[implicit(a, base)].cur);
	int64_t s = size_of(clang_getPointeeType(pt));
	bytes b = {KT_STR_INIT, 1, false};
	kt_str o = KT_STR_INIT;
	bool ok = s && pt.kind == CXType_Pointer &&
	          host_bytes(P, L, base, problems, &b) &&
	          pl_expr(P, off, &o, problems);
	if (ok) {
		kt_str c = KT_STR_INIT;
		count_in(&b, s, &c);
		kt_str_addc(&out->e, '(');
		kt_str_addf(&out->e, "%s - ", c.ptr);
		add_operand(&out->e, &o);
		kt_str_addc(&out->e, ')');
		out->unit = s;
		kt_str_release(&c);
	}
	kt_str_release(&b.e);
	kt_str_release(&o);
	return ok;
}

/* What a host pointer expression points into, in bytes from it on. */
static bool host_bytes(planner *P, const fe_launch *L, int n,
                       pl_names *problems, bytes *out)
{
	const fe_ast *a = P->a;
	n = fe_strip(a, n);
	if (n < 0)
		return false;
	const fe_node *x = &a->n[n];
	switch (x->kind) {
	case CXCursor_DeclRefExpr:
		return x->ref >= 0 && var_bytes(P, L, x->ref, problems, out);
	case CXCursor_CXXNewExpr: return new_bytes(P, n, problems, out);
	case CXCursor_CallExpr:
		if (!strcmp(x->name, "raw_pointer_cast") &&
		    fe_nwritten(a, n) == 2)
			return host_bytes(P, L, fe_child(a, n, 1), problems,
			                  out);
		if (!strcmp(x->name, "data_ptr"))
			return tensor_bytes(P, n, problems, out);
		return !strcmp(x->name, "data") &&
		       vector_bytes(P, L, n, problems, out);
	case CXCursor_BinaryOperator:
		if (x->op == CXBinaryOperator_Add &&
		    clang_getCursorType(x->cur).kind == CXType_Pointer)
			return offset_bytes(P, L, fe_child(a, n, 0),
			                    fe_child(a, n, 1), problems, out);
		return false;
	case CXCursor_UnaryOperator: {
		int sub = implicit(a, x->first);
		if (x->op != CXUnaryOperator_AddrOf || sub < 0 ||
		    a->n[sub].kind != CXCursor_ArraySubscriptExpr)
			return false;
		return offset_bytes(P, L, fe_child(a, sub, 0),
		                    fe_child(a, sub, 1), problems, out);
	}
	default: return false;
	}
}

/* ------------------------------------------------------------- entry */

/* Text without blanks and outer parentheses, to compare two lengths. */
static void normal(const char *s, kt_str *out)
{
	for (; *s; s++)
		if (*s != ' ')
			kt_str_addc(out, *s);
	while (out->len >= 2 && out->ptr[0] == '(' &&
	       out->ptr[out->len - 1] == ')') {
		int depth = 0;
		bool whole = true;
		for (size_t i = 0; whole && i < out->len; i++) {
			depth += (out->ptr[i] == '(') - (out->ptr[i] == ')');
			whole = depth > 0 || i == out->len - 1;
		}
		if (!whole)
			break;
		memmove(out->ptr, out->ptr + 1, out->len - 2);
		kt_str_truncate(out, out->len - 2);
	}
}

static void merge(planner *P, pl_names *problems, const pl_names *found)
{
	for (size_t i = 0; i < found->len; i++) {
		bool known = false;
		for (size_t j = 0; j < problems->len; j++)
			known |= !strcmp(problems->items[j], found->items[i]);
		if (!known && kt_vec_push(problems, found->items[i]))
			P->oom = 1;
	}
}

/* The two sources must say the same; a tensor's numel is no value but a
 * new variable, so a proven guard bound goes before it. */
bool pl_buffer_len(planner *P, const fe_kern *K, const fe_launch *L, int parm,
                   int64_t elem, kt_str *out, pl_names *problems, kt_str *why)
{
	if (!L && !P->synth)
		return false;
	pl_names kp = {0}, hp = {0};
	kt_str kb = KT_STR_INIT, hb = KT_STR_INIT;
	bytes h = {KT_STR_INIT, 1, false};
	bool from_body = pl_body_len(P, K, L, parm, elem, &kb, &kp);
	int arg = L ? pl_call_arg(P, L, parm) : -1;
	bool from_host = elem > 0 && arg >= 0 && host_bytes(P, L, arg, &hp, &h);
	if (from_host)
		count_in(&h, elem, &hb);
	if (from_body && from_host && h.fresh)
		from_host = false;
	kt_str nk = KT_STR_INIT, nh = KT_STR_INIT;
	normal(kb.ptr, &nk);
	normal(hb.ptr, &nh);
	bool ok = (from_body || from_host) &&
	          !(from_body && from_host && strcmp(nk.ptr, nh.ptr));
	if (ok) {
		kt_str_adds(out, from_body ? kb.ptr : hb.ptr);
		merge(P, problems, from_body ? &kp : &hp);
	} else if (from_body && from_host)
		kt_str_addf(why,
		            "the kernel's guards bound it by %s elements, the "
		            "launch passes a buffer of %s: ",
		            kb.ptr, hb.ptr);
	kt_vec_release(&kp);
	kt_vec_release(&hp);
	kt_str_release(&kb);
	kt_str_release(&hb);
	kt_str_release(&h.e);
	kt_str_release(&nk);
	kt_str_release(&nh);
	return ok;
}

/* ------------------------------------------------------------ tensors */

typedef struct members {
	bool data_ptr, size, numel;
	int depth;
} members;

static void record_members(CXCursor rec, members *m);

static enum CXChildVisitResult member_visit(CXCursor c, CXCursor parent,
                                            CXClientData data)
{
	(void)parent;
	members *m = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_CXXBaseSpecifier) {
		CXCursor base = clang_getTypeDeclaration(
		    clang_getCanonicalType(clang_getCursorType(c)));
		record_members(base, m);
		return CXChildVisit_Continue;
	}
	if (k != CXCursor_CXXMethod && k != CXCursor_FunctionTemplate)
		return CXChildVisit_Continue;
	CXString s = clang_getCursorSpelling(c);
	const char *name = clang_getCString(s);
	m->data_ptr |= !strcmp(name, "data_ptr");
	m->size |= !strcmp(name, "size");
	m->numel |= !strcmp(name, "numel");
	clang_disposeString(s);
	return CXChildVisit_Continue;
}

static void record_members(CXCursor rec, members *m)
{
	if (clang_Cursor_isNull(rec) || m->depth > 8)
		return;
	m->depth++;
	clang_visitChildren(rec, member_visit, m);
	m->depth--;
}

/* A type with `data_ptr`, `size` and `numel` members (its own or its
 * bases'): a tensor, whatever its name (at::Tensor, TensorView). */
static bool tensor_like(CXType t)
{
	if (t.kind == CXType_LValueReference ||
	    t.kind == CXType_RValueReference)
		t = clang_getPointeeType(t);
	t = clang_getCanonicalType(t);
	if (t.kind != CXType_Record)
		return false;
	members m = {0};
	record_members(clang_getTypeDeclaration(t), &m);
	return m.data_ptr && m.size && m.numel;
}

/* `x.METHOD(...)` on a tensor variable x: the call's method name, and x
 * (its declaration node in *var); NULL otherwise. */
static const char *tensor_call(const fe_ast *a, int call, int *var)
{
	int mem = a->n[call].kind == CXCursor_CallExpr ? a->n[call].first : -1;
	int base = mem >= 0 && a->n[mem].kind == CXCursor_MemberRefExpr
	               ? implicit(a, a->n[mem].first)
	               : -1;
	if (base < 0 || a->n[base].kind != CXCursor_DeclRefExpr ||
	    a->n[base].ref < 0 ||
	    !tensor_like(clang_getCursorType(a->n[a->n[base].ref].cur)))
		return NULL;
	*var = a->n[base].ref;
	return a->n[mem].name;
}

static void add_name(planner *P, pl_names *problems, const char *name)
{
	for (size_t i = 0; problems && i < problems->len; i++)
		if (!strcmp(problems->items[i], name))
			return;
	if (problems && kt_vec_push(problems, name))
		P->oom = 1;
}

bool pl_tensor_expr(planner *P, int call, kt_str *out, pl_names *problems)
{
	const fe_ast *a = P->a;
	int var = -1;
	const char *m = tensor_call(a, call, &var);
	if (!m)
		return false;
	int nargs = fe_nwritten(a, call) - 1;
	int arg = fe_strip(a, fe_child(a, call, 1));
	const char *name = NULL;
	if ((!strcmp(m, "numel") || !strcmp(m, "dim")) && nargs == 0)
		name = pl_say(P, "%s_%s", a->n[var].name, m);
	else if ((!strcmp(m, "size") || !strcmp(m, "stride")) && nargs == 1 &&
	         arg >= 0 && a->n[arg].is_int && a->n[arg].ival >= 0)
		name = pl_say(P, "%s_%s_%lld", a->n[var].name, m,
		              (long long)a->n[arg].ival);
	if (!name)
		return false;
	add_name(P, problems, name);
	return !kt_str_adds(out, name);
}

/* `x.data_ptr<T>()`: the tensor's numel elements of T. */
static bool tensor_bytes(planner *P, int call, pl_names *problems, bytes *out)
{
	const fe_ast *a = P->a;
	int var = -1;
	const char *m = tensor_call(a, call, &var);
	CXType t = clang_getCursorType(a->n[call].cur);
	int64_t s =
	    t.kind == CXType_Pointer ? size_of(clang_getPointeeType(t)) : 0;
	if (!m || strcmp(m, "data_ptr") || !s)
		return false;
	const char *name = pl_say(P, "%s_numel", a->n[var].name);
	add_name(P, problems, name);
	out->unit = s;
	out->fresh = true;
	return !kt_str_adds(&out->e, name);
}
