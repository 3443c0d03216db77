/*
 * complete.c - from the built-in planner's plan to the plans the loop
 * rewrites: the needs the code leaves open (problem sizes, a scalar the
 * host passes, a buffer's length) completed from the command line, and the
 * subset of the refactors each round tries.
 *
 * The design choice: the planner's `suggest` line is the one place that
 * says what is missing (`problem d values(?)`, `arg eps float = ?`,
 * `arg in bf16[?] in`); completing means writing the caller's value where
 * the `?` stands, so no second description of a pragma lives here. A need
 * the caller does not answer is an error at the place in the file it comes
 * from, and an answer no need asked for is an error too (a misspelt name
 * must not be ignored).
 */
#include "optimize/opt.h"

#include "util/str.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_VALUES = 64, MAX_SHAPES = 256 };

/* "NAME=REST": the name (checked) and the rest, or NULL. */
static const char *split(kt_arena *a, const char *s, const char **name)
{
	const char *eq = strchr(s, '=');
	if (!eq || eq == s)
		return NULL;
	char *n = kt_arena_strndup(a, s, (size_t)(eq - s));
	if (!n || !kt_is_ident(n))
		return NULL;
	*name = n;
	return eq[1] ? eq + 1 : NULL;
}

static int read_var(kt_opt_var *v, const char *s, kt_arena *a)
{
	const char *rest = split(a, s, &v->name);
	if (!rest)
		return kt_error(KT_EINVALID,
		                "--problem '%s': expected NAME=V1,V2,... with "
		                "NAME an identifier",
		                s);
	v->values = kt_arena_alloc(a, MAX_VALUES * sizeof(int64_t));
	if (!v->values)
		return kt_error(KT_ENOMEM, "out of memory");
	for (const char *p = rest;;) {
		char *end;
		errno = 0;
		long long x = strtoll(p, &end, 10);
		if (end == p || errno || x < 0 || (*end && *end != ','))
			return kt_error(KT_EINVALID,
			                "--problem '%s': '%.*s' is not a "
			                "non-negative integer",
			                s, (int)strcspn(p, ","), p);
		if (v->n == MAX_VALUES)
			return kt_error(KT_EINVALID,
			                "--problem '%s': more than %d values",
			                s, MAX_VALUES);
		for (size_t i = 0; i < v->n; i++)
			if (v->values[i] == x)
				return kt_error(KT_EINVALID,
				                "--problem '%s': %lld twice", s,
				                x);
		v->values[v->n++] = x;
		if (!*end)
			break;
		p = end + 1;
	}
	return 0;
}

/* INIT as the grammar's `init(...)` holds it: one of its kinds, with
 * its parenthesised numbers where it has them (the grammar checks them
 * when the template is read). */
static bool init_form(const char *s)
{
	static const char *const bare[] = {"zeros", "iota"};
	static const char *const call[] = {"random", "value"};
	for (int i = 0; i < 2; i++)
		if (!strcmp(s, bare[i]))
			return true;
	for (int i = 0; i < 2; i++) {
		size_t n = strlen(call[i]);
		const char *p = s + n + strspn(s + n, " ");
		const char *close = strchr(p, ')');
		if (!strncmp(s, call[i], n) && *p == '(' && close &&
		    !close[1] && !strchr(p + 1, '('))
			return true;
	}
	return false;
}

static int read_inits(kt_opt_inputs *in, const kt_optimize_options *o,
                      kt_arena *a)
{
	for (size_t i = 0; i < o->ninits; i++) {
		kt_opt_arg *g = &in->inits[in->ninits];
		g->value = split(a, o->inits[i], &g->name);
		if (!g->value || !init_form(g->value))
			return kt_error(KT_EINVALID,
			                "--init '%s': expected NAME=INIT with "
			                "NAME an identifier and INIT one of "
			                "random(LO, HI), zeros, iota, value(V)",
			                o->inits[i]);
		for (size_t k = 0; k < in->ninits; k++)
			if (!strcmp(in->inits[k].name, g->name))
				return kt_error(KT_EINVALID,
				                "--init %s given twice",
				                g->name);
		in->ninits++;
	}
	return 0;
}

int kt_opt_inputs_read(kt_opt_inputs *in, const kt_optimize_options *o,
                       kt_arena *a)
{
	memset(in, 0, sizeof(*in));
	in->vars = kt_arena_alloc(a, (o->nproblems + 1) * sizeof(*in->vars));
	in->args = kt_arena_alloc(a, (o->nargs + 1) * sizeof(*in->args));
	in->inits = kt_arena_alloc(a, (o->ninits + 1) * sizeof(*in->inits));
	if (!in->vars || !in->args || !in->inits)
		return kt_error(KT_ENOMEM, "out of memory");
	in->nshapes = 1;
	for (size_t i = 0; i < o->nproblems; i++) {
		kt_opt_var *v = &in->vars[in->nvars];
		int rc = read_var(v, o->problems[i], a);
		if (rc)
			return rc;
		for (size_t k = 0; k < in->nvars; k++)
			if (!strcmp(in->vars[k].name, v->name))
				return kt_error(KT_EINVALID,
				                "--problem %s given twice",
				                v->name);
		in->nvars++;
		in->nshapes *= v->n;
		if (in->nshapes > MAX_SHAPES)
			return kt_error(KT_EINVALID,
			                "the problem values make more than %d "
			                "shapes",
			                MAX_SHAPES);
	}
	for (size_t i = 0; i < o->nargs; i++) {
		kt_opt_arg *g = &in->args[in->nargs];
		g->value = split(a, o->args[i], &g->name);
		if (!g->value)
			return kt_error(KT_EINVALID,
			                "--arg '%s': expected NAME=VALUE with "
			                "NAME an identifier",
			                o->args[i]);
		for (size_t k = 0; k < in->nargs; k++)
			if (!strcmp(in->args[k].name, g->name))
				return kt_error(KT_EINVALID,
				                "--arg %s given twice",
				                g->name);
		in->nargs++;
	}
	return read_inits(in, o, a);
}

int64_t kt_opt_shape_value(const kt_opt_inputs *in, size_t v, size_t s)
{
	size_t stride = 1;
	for (size_t k = v + 1; k < in->nvars; k++)
		stride *= in->vars[k].n;
	return in->vars[v].values[(s / stride) % in->vars[v].n];
}

/* The word after `problem ` or `arg ` in a suggested line. */
static size_t word(const char *s, const char **w)
{
	s += strcspn(s, " ");
	s += strspn(s, " ");
	*w = s;
	return strcspn(s, " [=");
}

static kt_opt_var *find_var(kt_opt_inputs *in, const char *w, size_t n)
{
	for (size_t i = 0; i < in->nvars; i++)
		if (strlen(in->vars[i].name) == n &&
		    !strncmp(in->vars[i].name, w, n))
			return &in->vars[i];
	return NULL;
}

static kt_opt_arg *find_arg(kt_opt_inputs *in, const char *w, size_t n)
{
	for (size_t i = 0; i < in->nargs; i++)
		if (strlen(in->args[i].name) == n &&
		    !strncmp(in->args[i].name, w, n))
			return &in->args[i];
	return NULL;
}

/* The completed line for need n, NULL when the inputs do not say it (the
 * diagnostic is added then), or "" when out of memory. */
static char *complete_one(kt_plan *p, const kt_plan_need *n, kt_opt_inputs *in,
                          const char *path, const char *text, kt_diags *d)
{
	const char *s = n->suggest, *w;
	size_t wl = word(s, &w);
	const char *q = strchr(s, '?');
	kt_str line = KT_STR_INIT;
	const char *hint = NULL;
	if (!strncmp(s, "problem ", 8)) {
		kt_opt_var *v = find_var(in, w, wl);
		if (v && q) {
			int64_t max = v->values[0];
			kt_str_add(&line, s, (size_t)(q - s));
			for (size_t i = 0; i < v->n; i++) {
				kt_str_addf(&line, "%s%" PRId64, i ? ", " : "",
				            v->values[i]);
				if (v->values[i] > max)
					max = v->values[i];
			}
			kt_str_addf(&line, "%s default(%" PRId64 ")", q + 1,
			            max);
			v->used = true;
		} else {
			hint = "--problem %.*s=V1,V2,... (the sizes to tune "
			       "for)";
		}
	} else if (!strncmp(s, "arg ", 4) && q) {
		kt_opt_arg *g = find_arg(in, w, wl);
		if (g) {
			kt_str_add(&line, s, (size_t)(q - s));
			kt_str_addf(&line, "%s%s", g->value, q + 1);
			g->used = true;
		} else {
			hint = q[-1] == '['
			           ? "--arg %.*s=LENGTH (its length in "
			             "elements, over the problem variables)"
			           : "--arg %.*s=VALUE (the value the host "
			             "passes)";
		}
	} else {
		hint = NULL;
	}
	if (line.len) {
		char *r = kt_plan_strdup(p, line.ptr);
		kt_str_release(&line);
		return r ? r : "";
	}
	kt_str_release(&line);
	kt_str msg = KT_STR_INIT;
	if (hint) {
		kt_str_addf(&msg, "%s; give ", n->message);
		kt_str_addf(&msg, hint, (int)wl, w);
	} else {
		kt_str_addf(&msg,
		            "%s; the command line cannot say it: run 'ktc "
		            "annotate', complete the template and tune it",
		            n->message);
	}
	kt_diags_add(d, KT_DIAG_ERROR, path, text, n->range.begin.line,
	             n->range.begin.col, 1, "%s",
	             msg.len ? msg.ptr : n->message);
	kt_str_release(&msg);
	return NULL;
}

/*
 * An --arg that names an argument whose line the planner derived replaces
 * the derived length or value: the caller knows the buffer (a derived
 * length is the largest index the guards allow, and an output longer than
 * what the kernel writes has elements no run writes, which the reference
 * check refuses).
 */
static int override_derived(kt_plan *p, const char *kernel, kt_opt_inputs *in)
{
	for (size_t i = 0; i < p->npragmas; i++) {
		kt_plan_pragma *g = &p->pragmas[i];
		const char *w;
		if (strcmp(g->kernel, kernel) || strncmp(g->line, "arg ", 4))
			continue;
		size_t wl = word(g->line, &w);
		kt_opt_arg *a = find_arg(in, w, wl);
		if (!a || a->used)
			continue;
		const char *open = strstr(w, " = "), *close = NULL;
		if (open) { /* a scalar: `arg NAME TYPE = VALUE` */
			open += 2;
			close = open + strlen(open);
		} else if ((open = strchr(w, '['))) { /* TYPE[COUNT] DIR */
			close = strchr(open, ']');
		}
		if (!open || !close)
			continue;
		kt_str line = KT_STR_INIT;
		int rc =
		    kt_str_add(&line, g->line, (size_t)(open + 1 - g->line));
		rc = rc ? rc : kt_str_adds(&line, a->value);
		rc = rc ? rc : kt_str_adds(&line, close);
		const char *l = rc ? NULL : kt_plan_strdup(p, line.ptr);
		kt_str_release(&line);
		if (!l)
			return kt_error(KT_ENOMEM, "out of memory");
		g->line = l;
		a->used = true;
	}
	return 0;
}

/* Where kernel is declared, for a diagnostic about it. */
static kt_range kernel_at(const kt_plan *p, const char *kernel)
{
	for (size_t i = 0; i < p->nkernels; i++)
		if (!strcmp(p->kernels[i].name, kernel))
			return p->kernels[i].range;
	return (kt_range){0};
}

/* `--init NAME=INIT` on the arg line of an input the plan writes
 * (derived, or completed from --arg): ` init(INIT)` after its direction.
 * Refused, at the kernel, for a name that is no input buffer of it. */
static int apply_inits(kt_plan *p, const char *kernel, kt_opt_inputs *in,
                       const char *path, const char *text, kt_diags *d)
{
	kt_range at = kernel_at(p, kernel);
	for (size_t k = 0; k < in->ninits; k++) {
		kt_opt_arg *g = &in->inits[k];
		kt_plan_pragma *line = NULL;
		for (size_t i = 0; i < p->npragmas && !line; i++) {
			const char *w;
			kt_plan_pragma *pr = &p->pragmas[i];
			if (strcmp(pr->kernel, kernel) ||
			    strncmp(pr->line, "arg ", 4))
				continue;
			size_t wl = word(pr->line, &w);
			if (wl == strlen(g->name) && !strncmp(w, g->name, wl))
				line = pr;
		}
		const char *close = line ? strchr(line->line, ']') : NULL;
		const char *why =
		    !line    ? "has no buffer argument of that name whose line "
		               "the command completes"
		    : !close ? "passes it as a scalar, not a buffer"
		    : !strncmp(close, "] out", 5) &&
		            (close[5] == 0 || close[5] == ' ')
		        ? "writes it: an output, poisoned before each run, "
		          "not drawn"
		        : NULL;
		if (why) {
			kt_diags_add(d, KT_DIAG_ERROR, path, text,
			             at.begin.line, at.begin.col, 1,
			             "--init %s: kernel '%s' %s; --init gives "
			             "an input's values",
			             g->name, kernel, why);
			continue;
		}
		kt_str s = KT_STR_INIT;
		int rc = kt_str_addf(&s, "%s init(%s)", line->line, g->value);
		const char *l = rc ? NULL : kt_plan_strdup(p, s.ptr);
		kt_str_release(&s);
		if (!l)
			return kt_error(KT_ENOMEM, "out of memory");
		line->line = l;
		g->used = true;
	}
	return 0;
}

int kt_opt_complete(kt_plan *p, const char *kernel, kt_opt_inputs *in,
                    const char *path, const char *text, kt_diags *d)
{
	kt_plan_pragma *pr =
	    kt_plan_alloc(p, (p->npragmas + p->nneeds + 1) * sizeof(*pr));
	if (!pr)
		return kt_error(KT_ENOMEM, "out of memory");
	memcpy(pr, p->pragmas, p->npragmas * sizeof(*pr));
	size_t npr = p->npragmas, keep = 0;
	int errors = d->errors;
	for (size_t i = 0; i < p->nneeds; i++) {
		const kt_plan_need *n = &p->needs[i];
		if (strcmp(n->kernel, kernel) || !n->suggest) {
			p->needs[keep++] = *n;
			continue;
		}
		char *line = complete_one(p, n, in, path, text, d);
		if (line && !*line)
			return kt_error(KT_ENOMEM, "out of memory");
		if (line)
			pr[npr++] = (kt_plan_pragma){n->kernel, line};
		else
			p->needs[keep++] = *n;
	}
	p->pragmas = pr;
	p->npragmas = npr;
	p->nneeds = keep;
	int rc = override_derived(p, kernel, in);
	rc = rc ? rc : apply_inits(p, kernel, in, path, text, d);
	if (rc)
		return rc;
	for (size_t i = 0; i < in->nvars; i++)
		if (!in->vars[i].used)
			kt_diags_add(d, KT_DIAG_ERROR, NULL, NULL, 0, 0, 0,
			             "--problem %s: kernel '%s' has no problem "
			             "size of that name left to give",
			             in->vars[i].name, kernel);
	for (size_t i = 0; i < in->nargs; i++)
		if (!in->args[i].used)
			kt_diags_add(d, KT_DIAG_ERROR, NULL, NULL, 0, 0, 0,
			             "--arg %s: kernel '%s' has no argument of "
			             "that name left to give",
			             in->args[i].name, kernel);
	if (d->errors > errors)
		return kt_error(KT_EINVALID,
		                "kernel '%s' needs what the code does not say "
		                "(see above)",
		                kernel);
	return 0;
}

/* ------------------------------------------------------------- subsets */

static const kt_plan_param *param_of(const kt_plan *p, const char *kernel,
                                     const char *name)
{
	for (size_t i = 0; name && i < p->nparams; i++)
		if (!strcmp(p->params[i].name, name) &&
		    !strcmp(p->params[i].kernel, kernel))
			return &p->params[i];
	return NULL;
}

bool kt_opt_creates(const kt_plan *p, const kt_plan_refactor *r)
{
	const kt_plan_param *pp = param_of(p, r->kernel, r->param);
	return pp && pp->nuses == 0;
}

int kt_opt_subset(kt_plan **out, const kt_plan *p, const bool *on)
{
	kt_plan *q = NULL;
	if (kt_plan_new(&q))
		return KT_ENOMEM;
	struct kt_arena *keep_arena = q->arena;
	*q = *p;
	q->arena = keep_arena;
	bool *gone = kt_plan_alloc(q, (p->nparams + 1) * sizeof(bool));
	q->refactors =
	    kt_plan_alloc(q, (p->nrefactors + 1) * sizeof(*q->refactors));
	q->params = kt_plan_alloc(q, (p->nparams + 1) * sizeof(*q->params));
	q->pragmas = kt_plan_alloc(q, (p->npragmas + 1) * sizeof(*q->pragmas));
	if (!gone || !q->refactors || !q->params || !q->pragmas) {
		kt_plan_free(q);
		return kt_error(KT_ENOMEM, "out of memory");
	}
	q->nrefactors = q->nparams = 0;
	bool oom = false;
	/* a parameter is made by all its refactors or none: a cluster's
	 * split of one loop of two would split the row's sum and not the
	 * pass that reads it */
	bool *lit = kt_plan_alloc(q, (p->nparams + 1) * sizeof(bool));
	if (!lit) {
		kt_plan_free(q);
		return kt_error(KT_ENOMEM, "out of memory");
	}
	for (size_t r = 0; r < p->nrefactors; r++) {
		const kt_plan_refactor *f = &p->refactors[r];
		const kt_plan_param *pp = param_of(p, f->kernel, f->param);
		if (on[r] && pp)
			lit[pp - p->params] = true;
	}
	for (size_t r = 0; r < p->nrefactors; r++) {
		const kt_plan_refactor *f = &p->refactors[r];
		const kt_plan_param *pp = param_of(p, f->kernel, f->param);
		if (!kt_opt_creates(p, f) || on[r] ||
		    (pp && lit[pp - p->params])) {
			q->refactors[q->nrefactors++] = *f;
			continue;
		}
		gone[pp - p->params] = true;
	}
	/* a parameter another kept refactor creates stays */
	for (size_t r = 0; r < q->nrefactors; r++) {
		const kt_plan_param *pp =
		    param_of(p, q->refactors[r].kernel, q->refactors[r].param);
		if (pp)
			gone[pp - p->params] = false;
	}
	for (size_t i = 0; i < p->nparams; i++) {
		if (gone[i])
			continue;
		kt_plan_param pp = p->params[i];
		if (pp.nconstraints) {
			const char **c =
			    kt_plan_alloc(q, pp.nconstraints * sizeof(*c));
			if (!c) {
				kt_plan_free(q);
				return kt_error(KT_ENOMEM, "out of memory");
			}
			for (size_t k = 0; k < pp.nconstraints; k++)
				if (!(c[k] = kt_plan_with_defaults(
				          q, pp.constraints[k], p, gone)))
					oom = true;
			pp.constraints = c;
		}
		q->params[q->nparams++] = pp;
	}
	for (size_t i = 0; i < p->npragmas; i++) {
		q->pragmas[i] = p->pragmas[i];
		q->pragmas[i].line =
		    kt_plan_with_defaults(q, p->pragmas[i].line, p, gone);
		oom |= !q->pragmas[i].line;
	}
	if (oom) {
		kt_plan_free(q);
		return kt_error(KT_ENOMEM, "out of memory");
	}
	*out = q;
	return 0;
}
