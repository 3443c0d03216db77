/*
 * precond.c - a host launcher's preconditions as constraints over the
 * problem variables: `if (d % 8 || tokens <= 0) return
 * cudaErrorInvalidValue;` before the launch says the kernel never runs
 * with d % 8 != 0 or tokens <= 0, so the template says
 * `#pragma kt constraint d % 8 == 0` and `tokens > 0`.
 *
 * Why it matters: the tuner checks each configuration at one size besides
 * the tuned one (runtime/cuda/backend.c: about half of each size, odd,
 * where the constraints allow), and a kernel run outside its host's
 * precondition faults (a misaligned vector load) before any configuration
 * is tried. Each disjunct of an early exit's condition is a separate fact
 * (the launch runs only when every one is false), so a disjunct that is
 * not over problem variables (a null pointer, a dtype) is left out without
 * losing the others. Only the statements of the launching function that
 * come before the statement holding the launch are read: a guard in a
 * branch or after the launch says nothing about it.
 */
#include "planner/planner.h"

#include <string.h>

static const char *negated(int op)
{
	switch (op) {
	case CXBinaryOperator_LT: return ">=";
	case CXBinaryOperator_GT: return "<=";
	case CXBinaryOperator_LE: return ">";
	case CXBinaryOperator_GE: return "<";
	case CXBinaryOperator_EQ: return "!=";
	case CXBinaryOperator_NE: return "==";
	default: return NULL;
	}
}

/* An early exit: `return ...;` or `{ return ...; }`, or a throw. */
static bool exits(const fe_ast *a, int s)
{
	if (s >= 0 && a->n[s].kind == CXCursor_CompoundStmt &&
	    fe_nchildren(a, s) == 1)
		s = a->n[s].first;
	return s >= 0 && (a->n[s].kind == CXCursor_ReturnStmt ||
	                  a->n[s].kind == CXCursor_CXXThrowExpr);
}

/* Translates e; false when it names a problem variable not known (no new
 * one) or something else than problem variables and constants. */
static bool over_problems(planner *P, int e, kt_str *out,
                          const pl_names *problems, size_t *named)
{
	pl_names seen = {0};
	bool ok = pl_expr(P, e, out, &seen);
	for (size_t i = 0; ok && i < seen.len; i++) {
		bool known = false;
		for (size_t k = 0; k < problems->len && !known; k++)
			known = !strcmp(problems->items[k], seen.items[i]);
		ok = known;
	}
	*named += seen.len;
	kt_vec_release(&seen);
	return ok;
}

static void add_line(planner *P, const char *kernel, const char *line)
{
	for (size_t i = 0; i < P->pragmas.len; i++)
		if (!strcmp(P->pragmas.items[i].kernel, kernel) &&
		    !strcmp(P->pragmas.items[i].line, line))
			return;
	kt_plan_pragma g = {pl_dup(P, kernel), pl_dup(P, line)};
	if (!g.kernel || !g.line || kt_vec_push(&P->pragmas, g))
		P->oom = 1;
}

/* The constraint that disjunct d is false, if it is over problems. */
static void disjunct(planner *P, const char *kernel, int d,
                     const pl_names *problems)
{
	const fe_ast *a = P->a;
	d = fe_strip(a, d);
	if (d < 0)
		return;
	const fe_node *x = &a->n[d];
	if (x->kind == CXCursor_BinaryOperator &&
	    x->op == CXBinaryOperator_LOr) {
		disjunct(P, kernel, fe_child(a, d, 0), problems);
		disjunct(P, kernel, fe_child(a, d, 1), problems);
		return;
	}
	kt_str l = KT_STR_INIT, r = KT_STR_INIT;
	size_t named = 0;
	const char *neg =
	    x->kind == CXCursor_BinaryOperator ? negated(x->op) : NULL;
	if (neg && over_problems(P, fe_child(a, d, 0), &l, problems, &named) &&
	    over_problems(P, fe_child(a, d, 1), &r, problems, &named) && named)
		add_line(P, kernel,
		         pl_say(P, "constraint %s %s %s", l.ptr, neg, r.ptr));
	else if (!neg && x->kind == CXCursor_BinaryOperator &&
	         x->op == CXBinaryOperator_Rem &&
	         over_problems(P, d, &l, problems, &named) && named)
		add_line(P, kernel, pl_say(P, "constraint %s == 0", l.ptr));
	kt_str_release(&l);
	kt_str_release(&r);
}

void pl_host_preconditions(planner *P, const fe_kern *K, const fe_launch *L,
                           const pl_names *problems)
{
	const fe_ast *a = P->a;
	if (L->host_fn < 0 || !problems->len)
		return;
	int body = -1;
	for (int c = a->n[L->host_fn].first; c >= 0; c = a->n[c].next)
		if (a->n[c].kind == CXCursor_CompoundStmt)
			body = c;
	uint32_t at = a->n[L->call].b;
	for (int s = body >= 0 ? a->n[body].first : -1;
	     s >= 0 && a->n[s].e <= at; s = a->n[s].next)
		if (a->n[s].kind == CXCursor_IfStmt &&
		    fe_nchildren(a, s) == 2 && exits(a, fe_child(a, s, 1)))
			disjunct(P, K->name, fe_child(a, s, 0), problems);
}
