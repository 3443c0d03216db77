/*
 * domain.c - proves that every value of every domain compiles (NVRTC with
 * the value defined, the other parameters at their defaults).
 *
 * Design choice: one NVRTC program per value would pay NVRTC's fixed cost
 * (the CUDA headers, program set-up) once per value, which for a domain of
 * 32 block sizes is most of `ktc annotate`'s time. So the values are
 * checked in a few batches, one per thread: a batch is one program holding
 * the annotated file once per value, each copy in its own namespace after
 * `#undef`/`#define` of the parameters, behind the file's headers included
 * once at the top (their include guards make the copies' #includes empty).
 * A batch that fails proves nothing about its values, so they are compiled
 * again one by one, and only those are judged: a batch can never make a
 * value fail that compiles on its own.
 *
 * Two kinds of batches. A parameter that is only a number in expressions
 * (a stride, a launch operand, an unroll factor) cannot make the back end
 * fail where the front end passed: its values are checked by the front end
 * (-fdevice-syntax-only), all in one batch. The others (array sizes,
 * template arguments, macros, refactors) are compiled with -G to a cubin:
 * no optimization, about five times faster, and ptxas still checks shared
 * memory and the other static limits. Either way a value is dropped only
 * when its own compile, optimized as `ktc tune` will compile it, fails.
 */
#include "rewriter/rewriter.h"

#include "ktc/common.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void kt_rw_values_release(kt_rw_values *v)
{
	for (size_t i = 0; i < v->n; i++) {
		kt_free(v->define[i]);
		kt_free(v->log[i]);
	}
	for (size_t b = 0; b < v->nbatch; b++) {
		kt_nvrtc_job_release(&v->batch[b]);
		kt_free(v->batch_text[b]);
	}
	kt_free(v->param);
	kt_free(v->value);
	kt_free(v->define);
	kt_free(v->ok);
	kt_free(v->log);
	kt_free(v->batch);
	kt_free(v->batch_text);
	kt_free(v->batch_first);
	memset(v, 0, sizeof(*v));
}

static int alloc_values(kt_rw_values *v, size_t n, size_t nb)
{
	v->param = kt_calloc(n + 1, sizeof(size_t));
	v->value = kt_calloc(n + 1, sizeof(int64_t));
	v->define = kt_calloc(n + 1, sizeof(char *));
	v->ok = kt_calloc(n + 1, sizeof(bool));
	v->log = kt_calloc(n + 1, sizeof(char *));
	v->batch = kt_calloc(nb + 1, sizeof(kt_nvrtc_job));
	v->batch_text = kt_calloc(nb + 1, sizeof(char *));
	v->batch_first = kt_calloc(nb + 2, sizeof(size_t));
	if (!v->param || !v->value || !v->define || !v->ok || !v->log ||
	    !v->batch || !v->batch_text || !v->batch_first)
		return kt_error(KT_ENOMEM, "out of memory");
	return 0;
}

/* One namespace copy of text with parameter `param` at `value`. */
static int add_copy(kt_str *s, const kt_plan *p, const bool *on, size_t k,
                    size_t param, int64_t value, const char *text)
{
	int rc = kt_str_addf(s, "namespace kt_probe_%zu {\n", k);
	for (size_t i = 0; i < p->nparams && !rc; i++)
		if (on[i])
			rc = kt_str_addf(s,
			                 "#undef %s\n#define %s %" PRId64 "\n",
			                 p->params[i].name, p->params[i].name,
			                 i == param ? value : p->params[i].def);
	if (!rc)
		rc = kt_str_addf(s, "%s\n} /* kt_probe_%zu */\n", text, k);
	return rc;
}

static int make_batch(kt_rw_values *v, size_t b, const kt_plan *p,
                      const bool *on, const kt_rewrite_file *f,
                      const char *text)
{
	kt_str s = KT_STR_INIT;
	int rc = kt_rw_rtc_includes(&s, f);
	for (size_t k = v->batch_first[b]; k < v->batch_first[b + 1] && !rc;
	     k++)
		rc = add_copy(&s, p, on, k, v->param[k], v->value[k], text);
	if (rc) {
		kt_str_release(&s);
		return rc;
	}
	v->batch_text[b] = kt_str_detach(&s);
	v->batch[b].text = v->batch_text[b];
	return 0;
}

/*
 * Whether a parameter's value can change more than the front end sees: a
 * parameter only used as a number in expressions, launch operands and
 * `#pragma unroll` (or in host code, which NVRTC does not compile) compiles
 * for one value if the front end accepts it; so does `__launch_bounds__`,
 * which only bounds ptxas's register allocation (it spills rather than
 * fails). One that sizes arrays, is a template argument or a macro, or
 * that a refactor's code depends on, can also fail in ptxas (shared
 * memory).
 */
static bool structural(const kt_plan *p, size_t i)
{
	const kt_plan_param *pp = &p->params[i];
	for (size_t r = 0; r < p->nrefactors; r++)
		if (!strcmp(p->refactors[r].param, pp->name) &&
		    p->refactors[r].kind != KT_REFACTOR_STRIDE_FOLLOWS_BLOCK)
			return true;
	for (size_t u = 0; u < pp->nuses; u++)
		switch (pp->uses[u].host ? KT_SITE_EXPR : pp->uses[u].site) {
		case KT_SITE_EXPR:
		case KT_SITE_LAUNCH_GRID:
		case KT_SITE_LAUNCH_BLOCK:
		case KT_SITE_LAUNCH_SMEM:
		case KT_SITE_DIM3:
		case KT_SITE_LAUNCH_BOUNDS:
		case KT_SITE_PRAGMA_UNROLL: continue;
		default: return true;
		}
	return false;
}

/* Used only in host code, no refactor's: NVRTC never compiles any of its
 * uses (host code stands under #ifndef __CUDACC_RTC__), so a per-value
 * NVRTC check would prove nothing and is not made. */
static bool host_only(const kt_plan *p, size_t i)
{
	const kt_plan_param *pp = &p->params[i];
	for (size_t r = 0; r < p->nrefactors; r++)
		if (!strcmp(p->refactors[r].param, pp->name))
			return false;
	for (size_t u = 0; u < pp->nuses; u++)
		if (!pp->uses[u].host)
			return false;
	return pp->nuses > 0;
}

/* Appends the values of the parameters on, of one tier, to v. */
static int add_values(kt_rw_values *v, const kt_plan *p, const bool *on,
                      bool tier)
{
	for (size_t i = 0; i < p->nparams; i++) {
		const kt_plan_param *pp = &p->params[i];
		if (!on[i] || structural(p, i) != tier || host_only(p, i))
			continue;
		for (size_t k = 0; k < pp->nvalues; k++) {
			if (pp->values[k] == pp->def)
				continue;
			size_t j = v->n++;
			v->param[j] = i;
			v->value[j] = pp->values[k];
			v->define[j] = kt_malloc(strlen(pp->name) + 32);
			if (!v->define[j])
				return kt_error(KT_ENOMEM, "out of memory");
			sprintf(v->define[j], "-D%s=%" PRId64, pp->name,
			        pp->values[k]);
		}
	}
	return 0;
}

/*
 * The front-end values go into one batch checked with
 * -fdevice-syntax-only (a few milliseconds per copy); the structural ones
 * into `batches` batches compiled with -G to a cubin.
 */
int kt_rw_values_make(kt_rw_values *v, const kt_plan *p, const bool *on,
                      const kt_rewrite_file *f, const char *text, int batches)
{
	size_t n = 0;
	memset(v, 0, sizeof(*v));
	for (size_t i = 0; i < p->nparams; i++)
		if (on[i])
			n += p->params[i].nvalues;
	size_t nb = (batches > 0 ? (size_t)batches : 1) + 1;
	int rc = alloc_values(v, n, nb);
	if (!rc)
		rc = add_values(v, p, on, false);
	size_t nsyntax = v->n;
	if (!rc)
		rc = add_values(v, p, on, true);
	if (rc)
		return rc;
	size_t nstruct = v->n - nsyntax, ns = nb - 1;
	ns = nstruct < ns ? nstruct : ns;
	v->nbatch = (nsyntax > 0) + ns;
	size_t b = 0;
	if (nsyntax)
		v->batch_first[b++] = 0;
	for (size_t k = 0; k < ns; k++)
		v->batch_first[b++] = nsyntax + nstruct * k / ns;
	v->batch_first[b] = v->n;
	for (b = 0; b < v->nbatch && !rc; b++) {
		rc = make_batch(v, b, p, on, f, text);
		v->batch[b].quick = !(nsyntax && b == 0);
		v->batch[b].syntax = nsyntax && b == 0;
	}
	return rc;
}

/* Compiles, one by one, the values of the batches that failed. */
int kt_rw_values_settle(kt_rw_values *v, const kt_verify_opts *o,
                        const char *text, const char *name)
{
	size_t m = 0;
	for (size_t b = 0; b < v->nbatch; b++)
		for (size_t k = v->batch_first[b]; k < v->batch_first[b + 1];
		     k++) {
			v->ok[k] = v->batch[b].ok;
			m += !v->batch[b].ok;
		}
	if (!m)
		return 0;
	kt_nvrtc_job *jobs = kt_calloc(m, sizeof(*jobs));
	size_t *which = kt_calloc(m, sizeof(size_t));
	int rc = jobs && which ? 0 : kt_error(KT_ENOMEM, "out of memory");
	for (size_t k = 0, j = 0; k < v->n && !rc; k++)
		if (!v->ok[k]) {
			which[j] = k;
			jobs[j].defines = (const char *const *)&v->define[k];
			jobs[j++].ndefines = 1;
		}
	if (!rc)
		rc = kt_nvrtc_run(o, text, name, jobs, m);
	for (size_t j = 0; j < m && !rc; j++) {
		v->ok[which[j]] = jobs[j].ok;
		if (!jobs[j].ok)
			v->log[which[j]] = kt_strdup(jobs[j].log.ptr);
	}
	for (size_t j = 0; jobs && j < m; j++)
		kt_nvrtc_job_release(&jobs[j]);
	kt_free(jobs);
	kt_free(which);
	return rc;
}
