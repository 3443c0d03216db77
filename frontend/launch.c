/*
 * launch.c - where kernels are launched, in the forms serving code uses:
 * `k<<<grid, block, smem, stream>>>(args)`, the runtime's launch calls
 * (cudaLaunchKernel and cudaLaunchCooperativeKernel with their geometry
 * as arguments, cudaLaunchKernelEx with a cudaLaunchConfig_t whose fields
 * the same function assigns or brace-initialises) and wrappers: functions
 * and call operators that take the kernel as an argument and launch it in
 * one of those forms.
 *
 * A launch found with a kernel *parameter* is followed outward: each call
 * of that function binds its parameters (and, for a call operator, the
 * object's fields: an aggregate's initialiser or the constructor's member
 * initialisers) to the caller's argument expressions, up to two wrapper
 * levels, until the kernel argument is a `__global__` function. Only the
 * AST decides, never a wrapper's name. A launch operand is recorded as the
 * expression at the call site that the binding reaches; one that still
 * names a wrapper's parameter is unknown, and one that stays inside a
 * wrapper serving several calls is marked, so its literals are left alone.
 */
#include "frontend/find.h"

#include <ctype.h>
#include <string.h>

/* Where a wrapper's parameters are bound: the call into it. */
typedef struct frame {
	int fn;   /* the wrapper (function, template, method, constructor) */
	int call; /* the call into it */
	int obj;  /* a call operator's object: its initialisation, or -1 */
	struct frame *up; /* the frame of the function holding `call` */
} frame;

/* A launch as written, before its kernel is known. */
typedef struct shape {
	int call;   /* the launching call */
	int kx;     /* the kernel operand */
	int op[4];  /* grid, block, smem, stream operands, or -1 */
	int config; /* cudaLaunchKernelEx's config operand, or -1 */
	int arg0;   /* the first kernel argument, or -1 */
	bool addr;  /* arg0 is a `void *args[]` of `&x` */
} shape;

enum { MAX_LEVELS = 2, MAX_DEPTH = 24 };

static bool is_config_call(const fe_node *x)
{
	return x->kind == CXCursor_CallExpr &&
	       (!strcmp(x->name, "cudaConfigureCall") ||
	        !strcmp(x->name, "__cudaPushCallConfiguration"));
}

static bool is_ref_kind(enum CXCursorKind k)
{
	return k == CXCursor_TypeRef || k == CXCursor_TemplateRef ||
	       k == CXCursor_NamespaceRef;
}

/* The name of the function a call names; a call a template has not
 * resolved yet names its overload set. */
static const char *call_name(const fe_ast *a, int n)
{
	if (a->n[n].name[0])
		return a->n[n].name;
	int c = a->n[n].first;
	while (c >= 0 && !a->n[c].name[0] &&
	       (a->n[c].kind == CXCursor_DeclRefExpr ||
	        a->n[c].kind == CXCursor_UnexposedExpr))
		c = a->n[c].first;
	/* a qualified name (`std::forward<A>`): the set after the
	 * namespace and template references */
	while (c >= 0 && a->n[c].kind != CXCursor_OverloadedDeclRef &&
	       is_ref_kind(a->n[c].kind))
		c = a->n[c].next;
	return c >= 0 && a->n[c].kind == CXCursor_OverloadedDeclRef
	           ? a->n[c].name
	           : "";
}

/* A call of an operator member (`obj(args)`, `a = b`): its first child is
 * the object, its second the operator. */
static bool member_operator(const fe_ast *a, int n)
{
	const char *name = a->n[n].name;
	int op = fe_strip(a, fe_child(a, n, 1));
	return !strncmp(name, "operator", 8) && op >= 0 &&
	       !strcmp(a->n[op].name, name);
}

/* The lambda a call of a local closure runs (`launch(k)` after `auto
 * launch = [&](auto kernel) { kernel<<<g, b>>>(...); };`), or -1. */
static int lambda_called(const fe_ast *a, int call)
{
	/* `launch(k)` in a template, where k's type depends on it: a plain
	 * call whose callee names the closure */
	if (a->n[call].kind != CXCursor_CallExpr)
		return -1;
	int obj = fe_strip(a, a->n[call].first);
	int v = obj >= 0 && a->n[obj].kind == CXCursor_DeclRefExpr
	            ? a->n[obj].ref
	            : -1;
	if (v < 0 || a->n[v].kind != CXCursor_VarDecl || fe_assigned(a, v))
		return -1;
	int init = fe_strip(a, fe_var_init(a, v));
	return init >= 0 && a->n[init].kind == CXCursor_LambdaExpr ? init : -1;
}

/* Whether call enters function fn (a lambda's: through its closure). */
static bool enters(const fe_ast *a, int call, int fn)
{
	return fe_callee(a, call) == fn || lambda_called(a, call) == fn;
}

/* The i-th argument of a call (constructor calls included), or -1. */
static int call_arg(const fe_ast *a, int n, int i)
{
	int c = a->n[n].first;
	int d = fe_callee(a, n);
	if (d < 0 || a->n[d].kind != CXCursor_Constructor)
		c = c >= 0 ? a->n[c].next : -1; /* the callee */
	if (c >= 0 && member_operator(a, n))
		c = a->n[c].next;
	for (; c >= 0; c = a->n[c].next)
		if (!is_ref_kind(a->n[c].kind) && i-- == 0)
			return c;
	return -1;
}

static int parm_index(const fe_ast *a, int parm)
{
	int i = 0;
	for (int c = a->n[a->n[parm].parent].first; c >= 0 && c != parm;
	     c = a->n[c].next)
		i += a->n[c].kind == CXCursor_ParmDecl;
	return i;
}

static int field_index(const fe_ast *a, int field)
{
	int i = 0;
	for (int c = a->n[a->n[field].parent].first; c >= 0 && c != field;
	     c = a->n[c].next)
		i += a->n[c].kind == CXCursor_FieldDecl;
	return i;
}

/* Whether some statement assigns var (`var = E`, `var += E`). */
static bool assigned(const fe_ast *a, int var)
{
	for (size_t i = 0; i < a->len; i++) {
		bool compound;
		int lhs = fe_strip(a, fe_assign_lhs(a, (int)i, &compound));
		if (lhs >= 0 && a->n[lhs].kind == CXCursor_DeclRefExpr &&
		    a->n[lhs].ref == var)
			return true;
	}
	return false;
}

/* A call that copies or moves an object: its one argument is the value. */
static bool copy_construct(const fe_node *x)
{
	CXCursor ref = clang_getCursorReferenced(x->cur);
	return clang_getCursorKind(ref) == CXCursor_Constructor &&
	       (clang_CXXConstructor_isCopyConstructor(ref) ||
	        clang_CXXConstructor_isMoveConstructor(ref));
}

/* `field` (a MemberRefExpr) names a member of the object itself. */
static bool own_member(const fe_ast *a, int n)
{
	int base = fe_strip(a, a->n[n].first);
	return a->n[n].kind == CXCursor_MemberRefExpr && a->n[n].ref >= 0 &&
	       a->n[a->n[n].ref].kind == CXCursor_FieldDecl &&
	       (base < 0 || a->n[base].kind == CXCursor_CXXThisExpr);
}

static bool inside(const fe_ast *a, int n, int fn)
{
	return fn >= 0 && a->n[n].in_main && a->n[fn].in_main &&
	       a->n[n].b >= a->n[fn].b && a->n[n].e <= a->n[fn].e;
}

static int resolve(const fe_ast *a, int n, frame *fr, frame **at, int depth);
static int member_value(const fe_ast *a, int n, const char *name, frame *fr,
                        frame **at, int depth);

/* n resolved inside function fn, entered by call from frame fr: -1 when
 * the result stays inside fn (its frame cannot outlive this call). */
static int resolve_inside(const fe_ast *a, int n, int fn, int call, frame *fr,
                          frame **at, int depth)
{
	frame cf = {fn, call, -1, fr};
	int r = resolve(a, n, &cf, at, depth + 1);
	return *at == &cf ? -1 : r;
}

/* The constructor a construction call runs, or -1. */
static int ctor_of(const fe_ast *a, int call)
{
	int c = a->n[call].kind == CXCursor_CallExpr ? fe_callee(a, call) : -1;
	return c >= 0 && a->n[c].kind == CXCursor_Constructor ? c : -1;
}

/* The member initialiser constructor ctor gives a field: the field's
 * declaration node (field >= 0), else the field called name; -1 when it
 * has none. */
static int member_init(const fe_ast *a, int ctor, int field, const char *name)
{
	for (int c = a->n[ctor].first; c >= 0; c = a->n[c].next)
		if (a->n[c].kind == CXCursor_MemberRef && a->n[c].next >= 0 &&
		    (field >= 0 ? fe_decl_of(a, clang_getCursorReferenced(
		                                    a->n[c].cur)) == field
		                : !strcmp(a->n[c].name, name)))
			return a->n[c].next;
	return -1;
}

/* The value an object's field was given: an aggregate's element, or a
 * constructor's member initialiser (its parameters bound to the
 * construction's arguments). */
static int field_value(const fe_ast *a, int field, frame *fr, frame **at,
                       int depth)
{
	int obj = fr->obj;
	if (a->n[obj].kind == CXCursor_InitListExpr)
		return resolve(a, fe_child(a, obj, field_index(a, field)),
		               fr->up, at, depth + 1);
	int ctor = ctor_of(a, obj);
	int init = ctor >= 0 ? member_init(a, ctor, field, NULL) : -1;
	return init >= 0 ? resolve_inside(a, init, ctor, obj, fr->up, at, depth)
	                 : -1;
}

/* The call-site expression that node n (in the function of frame fr, or
 * in the launching host function when fr is NULL) stands for: wrapper
 * parameters, fields and local copies are followed outward. *at: the
 * frame the result lies in (NULL: outside every wrapper). */
static int resolve(const fe_ast *a, int n, frame *fr, frame **at, int depth)
{
	*at = fr;
	int s = fe_strip(a, n);
	if (!fr || s < 0 || depth > MAX_DEPTH)
		return n;
	const fe_node *x = &a->n[s];
	int d = x->ref;
	if (x->kind == CXCursor_PackExpansionExpr)
		return resolve(a, x->first, fr, at, depth + 1);
	if (x->kind == CXCursor_DeclRefExpr && d >= 0 &&
	    a->n[d].kind == CXCursor_ParmDecl && a->n[d].parent == fr->fn)
		return resolve(a, call_arg(a, fr->call, parm_index(a, d)),
		               fr->up, at, depth + 1);
	if (x->kind == CXCursor_DeclRefExpr && d >= 0 &&
	    a->n[d].kind == CXCursor_VarDecl && inside(a, d, fr->fn) &&
	    fe_def_before(a, d, x->b) >= 0)
		return resolve(a, fe_def_before(a, d, x->b), fr, at, depth + 1);
	if (own_member(a, s) && fr->obj >= 0)
		return field_value(a, d, fr, at, depth);
	if (x->kind == CXCursor_DeclRefExpr && d >= 0 &&
	    a->n[d].kind == CXCursor_VarDecl && a->n[d].in_header &&
	    fe_ancestor(a, d, a->n[fr->fn].kind) == fr->fn && !assigned(a, d) &&
	    fe_var_init(a, d) >= 0)
		/* a local of a header function, never assigned: its
		 * initialiser (no offsets there to order assignments by) */
		return resolve(a, fe_var_init(a, d), fr, at, depth + 1);
	if (x->kind == CXCursor_MemberRefExpr && !own_member(a, s) &&
	    x->first >= 0) {
		/* `p.field` of an object the caller passed in */
		frame *bat = NULL;
		int base = resolve(a, x->first, fr, &bat, depth + 1);
		int r = base >= 0 && fe_strip(a, base) != fe_strip(a, x->first)
		            ? member_value(a, base, x->name, bat, at, depth + 1)
		            : -1;
		if (r >= 0)
			return r;
		*at = fr;
	}
	if (x->kind == CXCursor_CallExpr && copy_construct(x) &&
	    x->first >= 0 && a->n[x->first].next < 0)
		/* a copy of an object (a `const dim3 &` stored in a field) */
		return resolve(a, x->first, fr, at, depth + 1);
	if (x->kind == CXCursor_CallExpr &&
	    !strcmp(call_name(a, s), "forward") && call_arg(a, s, 1) < 0 &&
	    call_arg(a, s, 0) >= 0)
		/* std::forward<A>(a): a itself */
		return resolve(a, call_arg(a, s, 0), fr, at, depth + 1);
	return n;
}

/* ------------------------------------------------- cudaLaunchConfig_t */

typedef struct field_pos {
	const char *name;
	int index, i;
} field_pos;

static enum CXVisitorResult count_field(CXCursor c, CXClientData data)
{
	field_pos *p = data;
	CXString s = clang_getCursorSpelling(c);
	bool hit = !strcmp(clang_getCString(s), p->name);
	clang_disposeString(s);
	if (hit) {
		p->index = p->i;
		return CXVisit_Break;
	}
	p->i++;
	return CXVisit_Continue;
}

/* The position of a field in a record type (declared anywhere), or -1. */
static int type_field(CXType t, const char *name)
{
	field_pos p = {name, -1, 0};
	clang_Type_visitFields(clang_getCanonicalType(t), count_field, &p);
	return p.index;
}

/* The right side of `var.field = E` (a plain or a class assignment). */
static int field_assigned(const fe_ast *a, int n, int var, const char *name)
{
	bool compound;
	int lhs = fe_assign_lhs(a, n, &compound);
	if (lhs < 0 || compound || a->n[lhs].kind != CXCursor_MemberRefExpr ||
	    strcmp(a->n[lhs].name, name))
		return -1;
	int base = fe_strip(a, a->n[lhs].first);
	if (base < 0 || a->n[base].kind != CXCursor_DeclRefExpr ||
	    a->n[base].ref != var)
		return -1;
	return a->n[n].last;
}

static int member_value(const fe_ast *a, int n, const char *name, frame *fr,
                        frame **at, int depth);

/* A local variable's field: the last assignment before `at_off` in its
 * function, else its brace initialiser's element, else the field of what
 * a function it is initialised from returns. */
static int var_member(const fe_ast *a, int var, const char *name,
                      uint32_t at_off, frame *fr, frame **at, int depth)
{
	int fn = fe_ancestor(a, var, CXCursor_CompoundStmt);
	int best = -1;
	for (size_t i = 0; fn >= 0 && i < a->len; i++) {
		int rhs = inside(a, (int)i, fn) && a->n[i].e <= at_off
		              ? field_assigned(a, (int)i, var, name)
		              : -1;
		if (rhs >= 0)
			best = rhs;
	}
	if (best >= 0)
		return resolve(a, best, fr, at, depth + 1);
	int init = fe_strip(a, fe_var_init(a, var));
	if (init < 0)
		return -1;
	if (a->n[init].kind == CXCursor_InitListExpr) {
		int i = type_field(clang_getCursorType(a->n[var].cur), name);
		int e = i >= 0 ? fe_child(a, init, i) : -1;
		return e >= 0 && a->n[e].in_main
		           ? resolve(a, e, fr, at, depth + 1)
		           : -1;
	}
	return member_value(a, init, name, fr, at, depth + 1);
}

/* Field `name` of an object a constructor call makes: the constructor's
 * member initialiser for it, its parameters bound to the call's
 * arguments. */
static int ctor_member(const fe_ast *a, int call, const char *name, frame *fr,
                       frame **at, int depth)
{
	int ctor = ctor_of(a, call);
	int init = ctor >= 0 ? member_init(a, ctor, -1, name) : -1;
	return init >= 0 ? resolve_inside(a, init, ctor, call, fr, at, depth)
	                 : -1;
}

/* Whether node n lies inside node root. */
static bool below(const fe_ast *a, int n, int root)
{
	for (; n >= 0; n = a->n[n].parent)
		if (n == root)
			return true;
	return false;
}

/* Field `name` of field `f` of an object a constructor call makes, as the
 * constructor's body sets it (`f.name = E`, the last such statement):
 * `cfg.blockDim = params.block_dims` in a launch helper's constructor. */
static int ctor_body_member(const fe_ast *a, int call, const char *f,
                            const char *name, frame *fr, frame **at, int depth)
{
	int ctor = ctor_of(a, call);
	if (ctor < 0)
		return -1;
	int best = -1;
	for (size_t i = (size_t)ctor + 1; i < a->len && below(a, (int)i, ctor);
	     i++) {
		bool compound;
		int lhs = fe_strip(a, fe_assign_lhs(a, (int)i, &compound));
		if (lhs < 0 || compound ||
		    a->n[lhs].kind != CXCursor_MemberRefExpr ||
		    strcmp(a->n[lhs].name, name))
			continue;
		int base = fe_strip(a, a->n[lhs].first);
		if (base >= 0 && own_member(a, base) &&
		    !strcmp(a->n[base].name, f))
			best = a->n[i].last;
	}
	return best < 0 ? -1
	                : resolve_inside(a, best, ctor, call, fr, at, depth);
}

/* Field `name` of what a function call returns, when the function
 * returns one local (`auto c = cudaLaunchConfig_t{}; c.blockDim = b;
 * return c;`): the last `local.name = E` before the return. */
static int returned_member(const fe_ast *a, int call, const char *name,
                           frame *fr, frame **at, int depth)
{
	int fn = fe_callee(a, call);
	if (fn < 0 || a->n[fn].kind == CXCursor_Constructor)
		return -1;
	int var = -1, nret = 0, best = -1;
	for (size_t i = (size_t)fn + 1; i < a->len && below(a, (int)i, fn);
	     i++) {
		if (a->n[i].kind != CXCursor_ReturnStmt)
			continue;
		int e = fe_strip(a, a->n[i].first);
		if (e >= 0 && a->n[e].kind == CXCursor_CallExpr &&
		    copy_construct(&a->n[e]) && a->n[e].first >= 0)
			e = fe_strip(a, a->n[e].first); /* `return c;` copies */
		nret++;
		var = e >= 0 && a->n[e].kind == CXCursor_DeclRefExpr &&
		              a->n[e].ref >= 0 &&
		              a->n[a->n[e].ref].kind == CXCursor_VarDecl &&
		              below(a, a->n[e].ref, fn)
		          ? a->n[e].ref
		          : -1;
	}
	if (nret != 1 || var < 0)
		return -1;
	for (size_t i = (size_t)fn + 1; i < a->len && below(a, (int)i, fn);
	     i++) {
		bool compound;
		int lhs = fe_strip(a, fe_assign_lhs(a, (int)i, &compound));
		if (lhs < 0 || a->n[lhs].kind != CXCursor_MemberRefExpr ||
		    strcmp(a->n[lhs].name, name))
			continue;
		int base = fe_strip(a, a->n[lhs].first);
		if (base >= 0 && a->n[base].kind == CXCursor_DeclRefExpr &&
		    a->n[base].ref == var)
			best = compound ? -2 : a->n[i].last;
	}
	return best < 0 ? -1 : resolve_inside(a, best, fn, call, fr, at, depth);
}

/* Field `name` of the object's own field `field` (frame fr calls into a
 * member of an object made by a constructor call): member_value of the
 * constructor's initialiser of that field, in the constructor's frame. */
static int own_field_member(const fe_ast *a, int field, const char *name,
                            frame *fr, frame **at, int depth)
{
	int ctor = ctor_of(a, fr->obj);
	int init = ctor >= 0 ? member_init(a, ctor, field, NULL) : -1;
	if (init < 0)
		return -1;
	frame cf = {ctor, fr->obj, -1, fr->up};
	int r = member_value(a, init, name, &cf, at, depth + 1);
	return *at == &cf ? -1 : r;
}

/* The value of field `name` of the record that expression n gives. */
static int member_value(const fe_ast *a, int n, const char *name, frame *fr,
                        frame **at, int depth)
{
	n = fe_strip(a, n);
	if (n < 0 || depth > MAX_DEPTH)
		return -1;
	const fe_node *x = &a->n[n];
	if (x->kind == CXCursor_UnaryOperator &&
	    x->op == CXUnaryOperator_AddrOf)
		return member_value(a, x->first, name, fr, at, depth + 1);
	if (x->kind == CXCursor_DeclRefExpr && x->ref >= 0 &&
	    a->n[x->ref].kind == CXCursor_VarDecl)
		return var_member(a, x->ref, name, x->b, fr, at, depth);
	if (x->kind == CXCursor_CallExpr) {
		int r = ctor_member(a, n, name, fr, at, depth);
		return r >= 0 ? r : returned_member(a, n, name, fr, at, depth);
	}
	if (own_member(a, n) && fr && fr->obj >= 0) {
		int r = own_field_member(a, x->ref, name, fr, at, depth);
		if (r >= 0)
			return r;
	}
	if (x->kind == CXCursor_MemberRefExpr && !own_member(a, n) &&
	    x->first >= 0) {
		/* `obj.f.name` for an object a constructor call made */
		frame *oat = NULL;
		int obj =
		    fe_strip(a, resolve(a, x->first, fr, &oat, depth + 1));
		if (obj >= 0 && a->n[obj].kind == CXCursor_CallExpr)
			return ctor_body_member(a, obj, x->name, name, oat, at,
			                        depth + 1);
	}
	frame *in = fr;
	int r = resolve(a, n, fr, &in, depth + 1);
	if (fe_strip(a, r) == n || r < 0)
		return -1;
	return member_value(a, r, name, in, at, depth + 1);
}

/* -------------------------------------------------------------- shapes */

static bool api_launch(const char *name)
{
	return !strcmp(name, "cudaLaunchKernel") ||
	       !strcmp(name, "cudaLaunchCooperativeKernel");
}

/* The launch a call is, if any: <<<>>> or one of the runtime's calls. */
static bool launch_shape(const fe_ast *a, int n, shape *s)
{
	*s = (shape){n, -1, {-1, -1, -1, -1}, -1, -1, false};
	for (int c = a->n[n].first; c >= 0; c = a->n[c].next)
		if (is_config_call(&a->n[c])) {
			s->kx = a->n[n].first;
			for (int o = a->n[a->n[c].first].next, i = 0;
			     o >= 0 && i < 4; o = a->n[o].next)
				s->op[i++] = o;
			s->arg0 = a->n[c].next;
			return true;
		}
	const char *name = call_name(a, n);
	if (api_launch(name)) {
		s->kx = call_arg(a, n, 0);
		s->op[0] = call_arg(a, n, 1);
		s->op[1] = call_arg(a, n, 2);
		s->arg0 = call_arg(a, n, 3);
		s->op[2] = call_arg(a, n, 4);
		s->op[3] = call_arg(a, n, 5);
		s->addr = true;
		return s->kx >= 0;
	}
	if (!strcmp(name, "cudaLaunchKernelEx")) {
		s->config = call_arg(a, n, 0);
		s->kx = call_arg(a, n, 1);
		s->arg0 = call_arg(a, n, 2);
		return s->kx >= 0 && s->config >= 0;
	}
	return false;
}

/* ------------------------------------------------------------ launches */

static int kernel_at(finder *F, CXCursor d)
{
	uint32_t off;
	if (clang_Cursor_isNull(d) ||
	    !kt_fe_offset(F->tu, clang_getCursorLocation(d), &off))
		return -1;
	for (size_t k = 0; k < F->f->kernels.len; k++)
		if (F->f->kernels.items[k].loc == off)
			return (int)k;
	return -1;
}

/* The kernel a launch's callee names. Inside a template whose arguments
 * the call depends on (`k<<<g, b>>>(x)` with x of type T*), the name is
 * not resolved yet: it names an overload set, whose kernel is taken when
 * it holds one. */
static int kernel_called(finder *F, int callee)
{
	CXCursor ref = clang_getCursorReferenced(F->a->n[callee].cur);
	if (clang_getCursorKind(ref) != CXCursor_OverloadedDeclRef)
		return kernel_at(F, ref);
	int found = -1;
	for (unsigned i = 0; i < clang_getNumOverloadedDecls(ref); i++) {
		int k = kernel_at(F, clang_getOverloadedDecl(ref, i));
		if (k >= 0 && found >= 0 && k != found)
			return -1; /* two kernels of one name: which is not
			              known */
		if (k >= 0)
			found = k;
	}
	return found;
}

/* Whether label node l (a case's value, an `==` operand) is v. */
static bool label_is(const fe_ast *a, int l, int64_t v)
{
	l = fe_strip(a, l);
	return l >= 0 && a->n[l].is_int && a->n[l].ival == v;
}

/* A `case V:` (also `case V: case W:`) that selects statement s of a
 * switch's body: the nearest case at or before it. */
static bool case_selects(const fe_ast *a, int body, int s, int64_t v)
{
	int last = -1;
	for (int c = a->n[body].first; c >= 0 && c != s; c = a->n[c].next)
		if (a->n[c].kind == CXCursor_CaseStmt)
			last = c;
	if (a->n[s].kind == CXCursor_CaseStmt)
		last = s;
	for (int c = last; c >= 0 && a->n[c].kind == CXCursor_CaseStmt;
	     c = fe_child(a, c, 1))
		if (label_is(a, fe_child(a, c, 0), v))
			return true;
	return false;
}

/*
 * Whether the branch around node n selects on the value v itself: a
 * `case v:` of a switch, or the then-branch of `if (x == v)`. A template
 * argument of that value is a specialisation for a run-time value
 * (`switch (k) { case 32: f<64, 32><<<...>>>` for k == 32), not a knob:
 * any other value would compute something else.
 */
static bool branch_selects(const fe_ast *a, int n, int64_t v)
{
	for (int at = n, up = fe_up(a, n); up >= 0;
	     at = up, up = fe_up(a, up)) {
		const fe_node *u = &a->n[up];
		int parent = fe_up(a, up);
		if (u->kind == CXCursor_CaseStmt &&
		    label_is(a, fe_child(a, up, 0), v))
			return true;
		if (u->kind == CXCursor_CompoundStmt && parent >= 0 &&
		    a->n[parent].kind == CXCursor_SwitchStmt &&
		    case_selects(a, up, at, v))
			return true;
		if (u->kind == CXCursor_IfStmt && fe_child(a, up, 1) == at) {
			int c = fe_strip(a, fe_child(a, up, 0));
			if (c >= 0 && a->n[c].kind == CXCursor_BinaryOperator &&
			    a->n[c].op == CXBinaryOperator_EQ &&
			    (label_is(a, fe_child(a, c, 0), v) ||
			     label_is(a, fe_child(a, c, 1), v)))
				return true;
		}
	}
	return false;
}

/*
 * Which template argument of callee (`k<4, B>`) child c is, from the
 * text: the top-level commas between the `<` that encloses it and c; -1
 * where the text does not show it (a macro). The callee's children are no
 * guide: a type argument that is a builtin type has no cursor, and in a
 * template the name is a reference child of its own.
 */
static int targ_pos(const fe_ast *a, int callee, int c)
{
	size_t len;
	const char *t = fe_text(a, callee, &len);
	const fe_node *x = &a->n[c];
	if (!len || !x->in_main || x->b <= a->n[callee].b ||
	    x->b >= a->n[callee].e)
		return -1;
	int depth = 0, commas = 0;
	for (size_t i = x->b - a->n[callee].b; i-- > 0;) {
		char ch = t[i];
		if (ch == ')' || ch == ']' || ch == '}' || ch == '>')
			depth++;
		else if ((ch == '(' || ch == '[' || ch == '{' || ch == '<') &&
		         depth > 0)
			depth--;
		else if (ch == '<')
			return commas;
		else if (ch == ',' && depth == 0)
			commas++;
		else if (ch == '(' || ch == '[' || ch == '{')
			return -1;
	}
	return -1;
}

static void add_template_args(finder *F, int k, int li, int callee)
{
	fe_ast *a = F->a;
	fe_kern *K = &F->f->kernels.items[k];
	for (int c = a->n[callee].first; c >= 0; c = a->n[c].next) {
		const fe_node *x = &a->n[c];
		int idx = x->kind == CXCursor_IntegerLiteral && x->spelled
		              ? targ_pos(a, callee, c)
		              : -1;
		if (idx < 0 || (size_t)idx >= K->tparams.len ||
		    a->n[K->tparams.items[idx]].kind !=
		        CXCursor_NonTypeTemplateParameter ||
		    fe_cand_at(F, x->b) >= 0)
			continue;
		kt_candidate kc = fe_cand_init();
		kc.kind = KT_CAND_TEMPLATE_ARG;
		kc.role = KT_ROLE_TILE;
		kc.site = KT_SITE_TEMPLATE_ARG;
		kc.range = kt_fe_make_range(F->tu, x->b, x->e);
		kc.value = x->ival;
		kc.host = true;
		kc.kernel = K->name;
		kc.name = a->n[K->tparams.items[idx]].name;
		kc.evidence = fe_say(F,
		                     "template argument %s of kernel '%s' "
		                     "at its launch",
		                     kc.name, K->name);
		/* a sentinel (0: "given at run time"), or the value a branch
		 * selects on: not a knob */
		kc.rejected = x->ival <= 0 || branch_selects(a, c, x->ival);
		kc.reason = KT_REASON_UNSAFE;
		if (!kc.rejected && li > 0) {
			/* the tuner instantiates the kernel as its first launch
			 * does (`#pragma kt kernel template(...)`): a parameter
			 * here would reach the host code alone, untied from
			 * the block or grid this launch gives with it */
			kc.rejected = true;
			kc.evidence = fe_say(
			    F,
			    "template argument %s of kernel '%s' at a launch "
			    "other than its first, which alone '#pragma kt "
			    "launch' and the kernel's instantiation describe",
			    kc.name, K->name);
		} else if (kc.rejected)
			kc.evidence = fe_say(
			    F,
			    x->ival <= 0
			        ? "template argument %s of kernel '%s' is "
			          "%lld, "
			          "a value other sites give at run time"
			        : "template argument %s of kernel '%s' is the "
			          "value %lld the branch around the launch "
			          "selects on (a case label, an `==` test): a "
			          "specialisation, not a knob",
			    kc.name, K->name, (long long)x->ival);
		fe_cand cx = fe_cx_init();
		cx.node = c;
		cx.kern = k;
		cx.launch = li;
		cx.tparam = idx;
		fe_add(F, kc, cx);
	}
}

/* The kernel operand without casts and `&`. */
static int kernel_ref(const fe_ast *a, int n)
{
	n = fe_strip(a, n);
	while (n >= 0 && a->n[n].kind == CXCursor_UnaryOperator &&
	       a->n[n].op == CXUnaryOperator_AddrOf)
		n = fe_strip(a, a->n[n].first);
	return n;
}

/* How many calls in the file enter function fn. */
static int calls_of(const fe_ast *a, int fn)
{
	int k = 0;
	for (size_t i = 0; i < a->len; i++)
		k += a->n[i].kind == CXCursor_CallExpr && a->n[i].in_main &&
		     enters(a, (int)i, fn);
	return k;
}

/* True when expression n, inside wrapper fn, depends on the wrapper's
 * parameters or fields (through its local variables too). */
static bool wrapper_bound(const fe_ast *a, int n, int fn, int depth)
{
	const fe_node *x = &a->n[n];
	int d = x->ref;
	if (depth > MAX_DEPTH || own_member(a, n))
		return true;
	if (x->kind == CXCursor_DeclRefExpr && d >= 0 &&
	    a->n[d].kind == CXCursor_ParmDecl)
		return true;
	if (x->kind == CXCursor_DeclRefExpr && d >= 0 &&
	    a->n[d].kind == CXCursor_VarDecl && inside(a, d, fn)) {
		int def = fe_def_before(a, d, x->b);
		if (def < 0 || wrapper_bound(a, def, fn, depth + 1))
			return true;
	}
	for (int c = x->first; c >= 0; c = a->n[c].next)
		if (wrapper_bound(a, c, fn, depth + 1))
			return true;
	return false;
}

/* A launch operand bound to the call site: -1 when it still depends on a
 * wrapper's parameter; *shared: the wrapper it lies in, when that wrapper
 * serves more than one call. */
static int bind_op(finder *F, int op, frame *fr, int *shared)
{
	fe_ast *a = F->a;
	frame *at = NULL;
	int r = op >= 0 ? resolve(a, op, fr, &at, 0) : -1;
	if (r < 0 || !at)
		return r;
	if (wrapper_bound(a, r, at->fn, 0))
		return -1;
	if (calls_of(a, at->fn) > 1)
		*shared = at->fn;
	return r;
}

static int config_op(finder *F, const shape *s, const char *field, frame *fr,
                     int *shared)
{
	frame *at = NULL;
	int r = member_value(F->a, s->config, field, fr, &at, 0);
	if (r < 0 || !at)
		return r;
	/* bound inside a wrapper: check it as an operand there */
	return bind_op(F, r, at, shared);
}

/* The first kernel argument at the call site: a parameter pack (or the
 * launch's own arguments when no wrapper is in between). */
static int bind_args(finder *F, const shape *s, frame *fr)
{
	fe_ast *a = F->a;
	if (s->arg0 < 0 || !fr)
		return s->arg0;
	frame *at = NULL;
	int first = fe_strip(F->a, s->arg0);
	/* a lambda's launch names what it captures, as the function around
	 * it would */
	if (first >= 0 && a->n[first].kind != CXCursor_PackExpansionExpr &&
	    !fr->up && a->n[fr->fn].kind == CXCursor_LambdaExpr)
		return s->arg0;
	if (first < 0 || a->n[first].kind != CXCursor_PackExpansionExpr)
		return -1;
	int r = resolve(a, s->arg0, fr, &at, 0);
	return at ? -1 : r;
}

/* The host function around node n: a plain one, a function template or
 * a member function; -1 when there is none. */
static int host_function(const fe_ast *a, int n)
{
	for (; n >= 0; n = a->n[n].parent) {
		enum CXCursorKind k = a->n[n].kind;
		if (k == CXCursor_FunctionDecl ||
		    k == CXCursor_FunctionTemplate || k == CXCursor_CXXMethod)
			return n;
	}
	return -1;
}

static int add_launch(finder *F, const shape *s, int k, int kx, frame *fr)
{
	fe_ast *a = F->a;
	frame *outer = fr;
	while (outer && outer->up)
		outer = outer->up;
	int call = outer ? outer->call : s->call;
	fe_launch l = {.call = call,
	               .kernel = kx,
	               .op = {-1, -1, -1, -1},
	               .host_fn = host_function(a, call),
	               .block = {1, 1, 1},
	               .shared = -1};
	static const char *const fields[4] = {"gridDim", "blockDim",
	                                      "dynamicSmemBytes", "stream"};
	for (int i = 0; i < 4; i++)
		l.op[i] = s->config >= 0
		              ? config_op(F, s, fields[i], fr, &l.shared)
		              : bind_op(F, s->op[i], fr, &l.shared);
	l.arg0 = bind_args(F, s, fr);
	l.arg_addr = s->addr;
	if (l.arg_addr && l.arg0 >= 0) {
		/* `void *args[] = {&x, ...}`: its elements */
		int v = fe_strip(a, l.arg0);
		int init = v >= 0 && a->n[v].kind == CXCursor_DeclRefExpr &&
		                   a->n[v].ref >= 0
		               ? fe_strip(a, fe_var_init(a, a->n[v].ref))
		               : -1;
		l.arg0 = init >= 0 && a->n[init].kind == CXCursor_InitListExpr
		             ? a->n[init].first
		             : -1;
	}
	fe_kern *K = &F->f->kernels.items[k];
	if (kt_vec_push(&K->launches, l))
		return KT_ENOMEM;
	add_template_args(F, k, (int)K->launches.len - 1, kx);
	return KT_OK;
}

/* `o.m(...)` where every return of method m is `return *this;` (a
 * setter that chains, `LaunchKernel(...).enable_pdl(on)`): o; else -1. */
static int self_call_base(const fe_ast *a, int call)
{
	int m = a->n[call].kind == CXCursor_CallExpr ? fe_callee(a, call) : -1;
	int callee = fe_strip(a, a->n[call].first);
	if (m < 0 || a->n[m].kind != CXCursor_CXXMethod || callee < 0 ||
	    a->n[callee].kind != CXCursor_MemberRefExpr)
		return -1;
	int nret = 0;
	for (size_t i = (size_t)m + 1; i < a->len && below(a, (int)i, m); i++) {
		if (a->n[i].kind != CXCursor_ReturnStmt)
			continue;
		int e = fe_strip(a, a->n[i].first);
		int t = e >= 0 && a->n[e].kind == CXCursor_UnaryOperator &&
		                a->n[e].op == CXUnaryOperator_Deref
		            ? fe_strip(a, a->n[e].first)
		            : -1;
		if (t < 0 || a->n[t].kind != CXCursor_CXXThisExpr)
			return -1;
		nret++;
	}
	return nret > 0 ? fe_strip(a, a->n[callee].first) : -1;
}

static int follow(finder *F, const shape *s, frame *inner, frame *last,
                  int level);

/*
 * The kernel a variable template holds (`template <Act kA> static
 * constexpr auto kern = k<T, kA>;`): libclang does not walk such a
 * template's initializer, so its tokens are read: the name after `=`
 * (past its qualifiers), taken where exactly one kernel of the file has
 * it and template arguments or the end follow. -1 otherwise.
 */
static int var_template_kernel(finder *F, int v)
{
	kt_tu *tu = F->tu;
	CXToken *t = NULL;
	unsigned nt = 0;
	clang_tokenize(tu->tu, clang_getCursorExtent(F->a->n[v].cur), &t, &nt);
	int k = -1;
	/* `= ns::k<...>;`: the name before `<` or `;` */
	for (unsigned i = fe_var_template_init(tu, t, nt);
	     i < nt && k == -1 &&
	     clang_getTokenKind(t[i]) == CXToken_Identifier;
	     i += 2) {
		CXString sp = clang_getTokenSpelling(tu->tu, t[i]);
		CXString nx =
		    clang_getTokenSpelling(tu->tu, t[i + 1 < nt ? i + 1 : i]);
		const char *name = clang_getCString(sp);
		const char *next = i + 1 < nt ? clang_getCString(nx) : "";
		if (strcmp(next, "::") &&
		    (!strcmp(next, "<") || !strcmp(next, ";"))) {
			for (size_t j = 0; j < F->f->kernels.len; j++)
				if (!strcmp(F->f->kernels.items[j].name, name))
					k = k == -1 ? (int)j
					            : -2; /* two of one name */
			k = k == -1 ? -2 : k;
		} else if (strcmp(next, "::")) {
			k = -2;
		}
		clang_disposeString(sp);
		clang_disposeString(nx);
	}
	clang_disposeTokens(tu->tu, t, nt);
	return k >= 0 ? k : -1;
}

/*
 * A call of a function whose returns all name one kernel, a selector
 * (`select(silu)` returning `k<T, Act::kSilu>` or `k<T, Act::kGelu>`;
 * a `return nullptr;` after a failed check is no kernel and is passed
 * over): the first return's reference, whose template arguments the
 * launch takes, and in *kernel the kernel; -1 where the returns name
 * other kernels or other things, or the function's body is not in the
 * AST. A return may name a constant or a variable template holding the
 * kernel (`static constexpr auto kern = k<T, Act::kGelu>;`): then the
 * reference is that variable's declaration, whose initializer has the
 * arguments.
 */
static int selected_kernel(finder *F, int call, int *kernel)
{
	const fe_ast *a = F->a;
	call = fe_strip(a, call);
	int fn = call >= 0 && a->n[call].kind == CXCursor_CallExpr
	             ? fe_callee(a, call)
	             : -1;
	int first = -1, k0 = -1;
	for (size_t i = (size_t)fn + 1;
	     fn >= 0 && i < a->len && below(a, (int)i, fn); i++) {
		if (a->n[i].kind != CXCursor_ReturnStmt || a->n[i].first < 0)
			continue;
		int e = kernel_ref(a, a->n[i].first);
		if (e >= 0 && a->n[e].kind == CXCursor_CXXNullPtrLiteralExpr)
			continue;
		int k = e >= 0 && a->n[e].kind == CXCursor_DeclRefExpr
		            ? kernel_called(F, e)
		            : -1;
		if (k < 0 && e >= 0 && a->n[e].kind == CXCursor_DeclRefExpr) {
			/* a constant holding the kernel; in a class template
			 * the name is looked up when it is instantiated */
			CXCursor r = clang_getCursorReferenced(a->n[e].cur);
			if (clang_getCursorKind(r) ==
			        CXCursor_OverloadedDeclRef &&
			    clang_getNumOverloadedDecls(r) == 1)
				r = clang_getOverloadedDecl(r, 0);
			CXCursor t = clang_getSpecializedCursorTemplate(r);
			int v = fe_decl_of(a, clang_Cursor_isNull(t) ? r : t);
			int init = v >= 0 && a->n[v].kind == CXCursor_VarDecl
			               ? fe_var_init(a, v)
			               : -1;
			e = init >= 0 ? kernel_ref(a, init) : -1;
			k = e >= 0 && a->n[e].kind == CXCursor_DeclRefExpr
			        ? kernel_called(F, e)
			        : -1;
			if (v >= 0 && a->n[v].kind == CXCursor_UnexposedDecl &&
			    clang_getCursorKind(r) == CXCursor_UnexposedDecl &&
			    (k = var_template_kernel(F, v)) >= 0)
				e = v;
		}
		if (k < 0 || (k0 >= 0 && k != k0))
			return -1;
		if (first < 0)
			first = e, k0 = k;
	}
	*kernel = k0;
	return first;
}

/* The kernel operand of shape s, bound through the frames from `inner`
 * out to `last`: a kernel (a launch), a parameter of one more wrapper
 * (each of its calls followed), or neither. */
static int follow(finder *F, const shape *s, frame *inner, frame *last,
                  int level)
{
	fe_ast *a = F->a;
	frame *at = NULL;
	int kx = kernel_ref(a, resolve(a, s->kx, inner, &at, 0));
	int k = -1;
	/* a local that holds the kernel (`auto kernel = k<T, 16>;`), or
	 * what a selector returns (`auto kernel = select(silu);`) */
	for (int hop = 0;
	     kx >= 0 && !at && hop < MAX_DEPTH &&
	     a->n[kx].kind == CXCursor_DeclRefExpr && a->n[kx].ref >= 0 &&
	     a->n[a->n[kx].ref].kind == CXCursor_VarDecl;
	     hop++) {
		int def = fe_def_before(a, a->n[kx].ref, a->n[kx].b);
		if (def < 0)
			break;
		int sel = selected_kernel(F, def, &k);
		int c = fe_strip(a, def);
		if (sel < 0 && c >= 0 &&
		    a->n[c].kind == CXCursor_ConditionalOperator) {
			/* `wide ? select<int64_t>(n) : select<int32_t>(n)`:
			 * both selecting one kernel */
			int t =
			    a->n[c].first >= 0 ? a->n[a->n[c].first].next : -1;
			int f = t >= 0 ? a->n[t].next : -1, kf = -1;
			sel = t >= 0 ? selected_kernel(F, t, &k) : -1;
			if (sel >= 0 &&
			    (f < 0 || selected_kernel(F, f, &kf) < 0 ||
			     kf != k))
				sel = -1, k = -1;
		}
		kx = sel >= 0 ? sel : kernel_ref(a, def);
	}
	if (kx < 0)
		return KT_OK;
	if (k < 0)
		k = a->n[kx].kind == CXCursor_DeclRefExpr && !at
		        ? kernel_called(F, kx)
		        : -1;
	if (k >= 0)
		return add_launch(F, s, k, kx, inner);
	/* a parameter of the outermost function so far: follow its calls */
	int p = a->n[kx].kind == CXCursor_DeclRefExpr ? a->n[kx].ref : -1;
	if (p < 0 || a->n[p].kind != CXCursor_ParmDecl || at ||
	    level >= MAX_LEVELS)
		return KT_OK;
	int fn = a->n[p].parent;
	for (size_t i = 0; i < a->len; i++) {
		if (a->n[i].kind != CXCursor_CallExpr || !a->n[i].in_main ||
		    !enters(a, (int)i, fn))
			continue;
		int obj = -1;
		if (a->n[fn].kind != CXCursor_LambdaExpr &&
		    (member_operator(a, (int)i) ||
		     !clang_Cursor_isNull(fe_dependent_call_op(a->n[i].cur)))) {
			obj = fe_strip(a, a->n[i].first);
			if (obj >= 0 &&
			    a->n[obj].kind == CXCursor_DeclRefExpr &&
			    a->n[obj].ref >= 0)
				obj =
				    fe_strip(a, fe_var_init(a, a->n[obj].ref));
			for (int hop = 0; obj >= 0 && hop < MAX_DEPTH; hop++) {
				int base = self_call_base(a, obj);
				if (a->n[obj].kind ==
				    CXCursor_CXXFunctionalCastExpr)
					obj = fe_strip(a, a->n[obj].last);
				else if (base >= 0)
					obj = base;
				else
					break;
			}
		}
		frame f = {fn, (int)i, obj, NULL};
		if (last)
			last->up = &f;
		int rc = follow(F, s, last ? inner : &f, &f, level + 1);
		if (last)
			last->up = NULL;
		if (rc)
			return rc;
	}
	return KT_OK;
}

int fe_find_launches(finder *F)
{
	fe_ast *a = F->a;
	for (size_t i = 0; i < a->len; i++) {
		shape s;
		/* a launch in the file, or in a header function it calls
		 * (whose kernel is then one of the function's parameters) */
		if (a->n[i].kind != CXCursor_CallExpr ||
		    !(a->n[i].in_main || a->n[i].in_header) ||
		    !launch_shape(a, (int)i, &s))
			continue;
		int rc = follow(F, &s, NULL, NULL, 0);
		if (rc)
			return rc;
	}
	return KT_OK;
}

/* The offset just past the `)` that closes the `(` at t[i], or 0. */
static size_t close_paren(const char *t, size_t i, size_t end)
{
	int depth = 0;
	for (; i < end && t[i] != '\n'; i++) {
		depth += (t[i] == '(') - (t[i] == ')');
		if (depth == 0)
			return i + 1;
	}
	return 0;
}

/* `WORD(...)` in line [b, e): the range inside the parentheses. */
static bool pragma_operand(const kt_tu *tu, size_t b, size_t e,
                           const char *word, kt_range *out)
{
	const char *t = tu->text;
	size_t n = strlen(word);
	for (size_t i = b; i + n < e; i++) {
		if (strncmp(t + i, word, n) || t[i + n] != '(' ||
		    (i > b &&
		     (isalnum((unsigned char)t[i - 1]) || t[i - 1] == '_')))
			continue;
		size_t c = close_paren(t, i + n, e);
		if (!c)
			return false;
		*out = kt_fe_make_range(tu, (uint32_t)(i + n + 1),
		                        (uint32_t)(c - 1));
		return true;
	}
	return false;
}

/*
 * A kernel no code of the file launches (OpenCL C: its host program is
 * elsewhere) is launched as the user's `#pragma kt launch grid(G) block(B)`
 * line says, the last such line between the previous kernel and this one.
 * This is the only place such a line is read; what the planner derives
 * from a launch in code it does not derive from it.
 */
static void pragma_launch(finder *F, fe_kern *K, uint32_t from)
{
	const kt_tu *tu = F->tu;
	const char *t = tu->text;
	uint32_t to = F->a->n[K->node].b;
	for (size_t b = from; b < to;) {
		const char *nl = memchr(t + b, '\n', to - b);
		size_t e = nl ? (size_t)(nl - t) : to, i = b;
		while (i < e && (t[i] == ' ' || t[i] == '\t'))
			i++;
		kt_range g, bl;
		if (!strncmp(t + i, "#pragma kt launch ", 18) &&
		    pragma_operand(tu, i, e, "grid", &g) &&
		    pragma_operand(tu, i, e, "block", &bl)) {
			K->pragma_launch = true;
			K->pgrid = g;
			K->pblock = bl;
		}
		b = e + 1;
	}
}

int fe_pragma_launches(finder *F)
{
	uint32_t from = 0;
	for (size_t k = 0; k < F->f->kernels.len; k++) {
		fe_kern *K = &F->f->kernels.items[k];
		if (!K->launches.len)
			pragma_launch(F, K, from);
		from = F->a->n[K->node].e;
	}
	return KT_OK;
}

typedef struct named_at {
	const kt_tu *tu;
	uint32_t off;
	CXCursor found;
} named_at;

static enum CXChildVisitResult find_named(CXCursor c, CXCursor parent,
                                          CXClientData data)
{
	(void)parent;
	named_at *f = data;
	uint32_t off;
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr ||
	    !kt_fe_offset(f->tu, clang_getCursorLocation(c), &off) ||
	    off != f->off)
		return CXChildVisit_Recurse;
	CXCursor r = clang_getCursorReferenced(c);
	if (clang_Cursor_isNull(r) ||
	    clang_Cursor_getNumTemplateArguments(r) <= 0)
		return CXChildVisit_Recurse;
	f->found = r;
	return CXChildVisit_Break;
}

CXCursor fe_lambda_instance(const fe_ast *a, int kernel)
{
	int lam = kernel >= 0 && a->n[kernel].in_main
	              ? fe_ancestor(a, kernel, CXCursor_LambdaExpr)
	              : -1;
	if (lam < 0)
		return clang_getNullCursor();
	for (size_t i = 0; i < a->len; i++) {
		if (!a->n[i].in_main || lambda_called(a, (int)i) != lam)
			continue;
		/* the first call: its call operator, instantiated */
		named_at f = {a->tu, a->n[kernel].b, clang_getNullCursor()};
		clang_visitChildren(clang_getCursorReferenced(a->n[i].cur),
		                    find_named, &f);
		return f.found;
	}
	return clang_getNullCursor();
}

int fe_launch_arg(const fe_ast *a, const fe_launch *L, int i)
{
	int c = L->arg0;
	while (c >= 0 && i-- > 0)
		c = a->n[c].next;
	if (c < 0 || !L->arg_addr)
		return c;
	int n = fe_strip(a, c);
	if (n < 0 || a->n[n].kind != CXCursor_UnaryOperator ||
	    a->n[n].op != CXUnaryOperator_AddrOf)
		return -1;
	return a->n[n].first;
}

bool fe_foreign_launch(const fe_ast *a, CXCursor *kernel, int *call)
{
	for (size_t i = 0; i < a->len; i++) {
		shape s;
		if (a->n[i].kind != CXCursor_CallExpr || !a->n[i].in_main ||
		    !launch_shape(a, (int)i, &s))
			continue;
		int kx = kernel_ref(a, s.kx);
		CXCursor r = kx >= 0 ? clang_getCursorReferenced(a->n[kx].cur)
		                     : clang_getNullCursor();
		if (clang_Cursor_isNull(r) ||
		    clang_getCursorKind(r) == CXCursor_ParmDecl ||
		    clang_getCursorKind(r) == CXCursor_VarDecl)
			continue;
		*kernel = r;
		*call = (int)i;
		return true;
	}
	return false;
}
