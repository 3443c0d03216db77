/*
 * ties.c - the static check that a parameter's old text changed together:
 * where a plan replaces a name (a macro, a constant) at some of its uses,
 * every other use of that name in the file stands for the same value and
 * must follow it, or the template is wrong at every other value (a block
 * size macro followed by the launch's block but not by its grid). A plan
 * from anywhere (the built-in planner, an LLM, a hand-edited one) is held
 * to it before anything is generated.
 *
 * What it sees: the file's own text, token by token (comments, strings and
 * preprocessor lines set aside). A name used in a header, or a value that
 * reaches a use through a variable, is not seen here; the run on a GPU
 * (run.c) checks what the values compute. A number equal to the default
 * left among the operands of a launch the parameter changes is only
 * reported: two equal literals may be equal by chance (a grid of 256
 * blocks of 256 threads).
 */
#include "rewriter/rewriter.h"
#include "util/str.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Whether [b, e) lies in a use of a parameter that is on. */
static bool replaced(const kt_plan *p, const bool *on, size_t b, size_t e)
{
	for (size_t i = 0; i < p->nparams; i++)
		for (size_t u = 0; on[i] && u < p->params[i].nuses; u++) {
			const kt_range *r = &p->params[i].uses[u].range;
			if (r->begin.offset <= b && e <= r->end.offset)
				return true;
		}
	return false;
}

/* An integer literal's value (suffixes allowed); false if tok is not one. */
static bool int_value(const char *t, size_t b, size_t e, long long *v)
{
	if (!isdigit((unsigned char)t[b]))
		return false;
	char buf[64];
	size_t n = e - b < sizeof(buf) - 1 ? e - b : sizeof(buf) - 1;
	memcpy(buf, t + b, n);
	buf[n] = 0;
	char *end;
	*v = strtoll(buf, &end, 0);
	return strspn(end, "uUlL") == strlen(end);
}

static kt_pos pos_of(const char *t, size_t off)
{
	kt_pos p = {.offset = (uint32_t)off, .line = 1, .col = 1};
	for (size_t i = 0; i < off; i++) {
		if (t[i] == '\n') {
			p.line++;
			p.col = 1;
		} else {
			p.col++;
		}
	}
	return p;
}

int kt_rw_untied(kt_rw_untie *out, const kt_plan *p, const bool *on,
                 const kt_rewrite_file *f, size_t i)
{
	const kt_plan_param *pp = &p->params[i];
	memset(out, 0, sizeof(*out));
	/* a name replaced at one use and left at another */
	for (size_t u = 0; u < pp->nuses && !out->name; u++) {
		const char *name = pp->uses[u].text;
		if (!kt_is_ident(name))
			continue;
		size_t at = 0, b, e;
		while (kt_c_word_next(f->text, f->len, &at, &b, &e))
			if (e - b == strlen(name) &&
			    !memcmp(f->text + b, name, e - b) &&
			    !replaced(p, on, b, e)) {
				out->name = name;
				out->at = pos_of(f->text, b);
				break;
			}
	}
	/* the default's number left in a launch the parameter changes */
	const kt_plan_kernel *k = NULL;
	for (size_t j = 0; j < p->nkernels && pp->kernel; j++)
		if (!strcmp(p->kernels[j].name, pp->kernel))
			k = &p->kernels[j];
	for (size_t u = 0; k && u < pp->nuses && !out->number; u++) {
		int li = pp->uses[u].launch;
		if (li < 0 || (size_t)li >= k->nlaunches)
			continue;
		/* the launch's operands and template arguments: its kernel
		 * arguments (after `>>>`) are the kernel's data */
		const kt_range *r = &k->launches[li];
		size_t at = r->begin.offset, end = r->end.offset, b, e;
		for (size_t c = at; c + 3 <= end; c++)
			if (!memcmp(f->text + c, ">>>", 3)) {
				end = c;
				break;
			}
		long long v;
		while (kt_c_word_next(f->text, end, &at, &b, &e))
			if (int_value(f->text, b, e, &v) && v == pp->def &&
			    !replaced(p, on, b, e)) {
				out->number = true;
				out->num_at = pos_of(f->text, b);
				out->num_len = (int)(e - b);
				break;
			}
	}
	return 0;
}
