/*
 * run.c - the differential check of an annotated file on a GPU (`ktc
 * annotate --verify-run`): each kernel's template run by the check of
 * ktc/check.h on the CUDA backend, its failing values mapped back to the
 * plan's parameters, so the rewriter drops them as it drops values that do
 * not compile.
 *
 * The design choice a reader needs: this adds no verification of its own.
 * It is `ktc check` on the text the rewriter is about to write, with the
 * same backend, worker and verification as `ktc tune`; the rewriter only
 * decides what a failure costs (the value, or the parameter when no other
 * value is left).
 */
#include "rewriter/rewriter.h"

#include "ktc/check.h"
#include "util/str.h"

#include <inttypes.h>
#include <string.h>

static int skip(kt_rw_run *out, const char *why)
{
	out->skipped = kt_strdup(why);
	return out->skipped ? 0 : kt_error(KT_ENOMEM, "out of memory");
}

static int add_failure(kt_rw_run *out, size_t param, int64_t value,
                       const char *why)
{
	size_t n = out->n + 1;
	size_t *pa = kt_realloc(out->param, n * sizeof(*pa));
	if (pa)
		out->param = pa;
	int64_t *va = kt_realloc(out->value, n * sizeof(*va));
	if (va)
		out->value = va;
	char **wa = kt_realloc(out->why, n * sizeof(*wa));
	if (wa)
		out->why = wa;
	char *w = kt_strdup(why);
	if (!pa || !va || !wa || !w) {
		kt_free(w);
		return kt_error(KT_ENOMEM, "out of memory");
	}
	out->param[out->n] = param;
	out->value[out->n] = value;
	out->why[out->n] = w;
	out->n++;
	return 0;
}

/* The plan parameter of kernel model m's parameter named name. */
static size_t plan_param(const kt_plan *p, const kt_model *m, const char *name)
{
	for (size_t i = 0; i < p->nparams; i++)
		if (!strcmp(p->params[i].name, name) &&
		    (!p->params[i].kernel ||
		     !strcmp(p->params[i].kernel, m->kernel)))
			return i;
	for (size_t i = 0; i < p->nparams; i++)
		if (!strcmp(p->params[i].name, name))
			return i;
	return SIZE_MAX;
}

static int record(kt_rw_run *out, const kt_plan *p, const kt_model *m,
                  const kt_check_report *r)
{
	for (size_t i = 0; i < r->nvalues; i++) {
		const kt_check_value *v = &r->values[i];
		kt_value val = m->params[v->param].values[v->value_index];
		size_t pi = plan_param(p, m, m->params[v->param].name);
		bool orig = !strcmp(m->params[v->param].name, KT_RW_ORIGINAL);
		/* a value that does not fit the device beside the others'
		 * defaults (registers for 1024 threads) is not wrong: the
		 * tuner pairs it with what fits */
		if (!v->run || v->status == KT_STATUS_OK ||
		    v->status == KT_STATUS_CONSTRAINTS || val.is_float ||
		    (pi == SIZE_MAX && !orig))
			continue;
		kt_str why = KT_STR_INIT;
		bool said = v->message && v->problem[0] &&
		            strstr(v->message, v->problem);
		int rc = kt_str_addf(&why, "%s on %s%s%s in %s%s%s",
		                     kt_status_name(v->status), r->device.name,
		                     said ? "" : " at ", said ? "" : v->problem,
		                     v->key, v->message ? ": " : "",
		                     v->message ? v->message : "");
		if (!rc && orig && !out->differs)
			out->differs = kt_strdup(why.ptr);
		else if (!rc && !orig)
			rc = add_failure(out, pi, val.i, why.ptr);
		kt_str_release(&why);
		if (rc)
			return rc;
	}
	out->configs += r->nconfigs;
	out->problems += r->nproblems;
	snprintf(out->device, sizeof(out->device), "%s", r->device.name);
	return 0;
}

int kt_rw_run_check(kt_rw_run *out, const kt_plan *p, const char *text,
                    const char *path, const char *worker_exe,
                    const char *backend)
{
	memset(out, 0, sizeof(*out));
	kt_diags d;
	kt_diags_init(&d);
	kt_template *t = NULL;
	int rc = 0;
	if (kt_template_parse(&t, path, text, &d)) {
		kt_diags_release(&d);
		return skip(out, "the template does not read back");
	}
	kt_diags_release(&d);
	kt_backend_options bo = {
	    .timed_runs = 3, .warmup_runs = 1, .worker_exe = worker_exe};
	for (size_t k = 0; !rc && !out->skipped && k < t->nmodels; k++) {
		const kt_model *m = &t->models[k];
		kt_backend *b = NULL;
		kt_check_report *r = NULL;
		if (m->nparams == 0)
			continue;
		if (kt_backend_open(&b, backend, m, &bo) ||
		    kt_check_run(&r, m, b, NULL)) {
			kt_str why = KT_STR_INIT;
			rc = kt_str_addf(&why, "kernel '%s': %s", m->kernel,
			                 kt_error_last());
			if (!rc)
				rc = skip(out, why.ptr);
			kt_str_release(&why);
		} else {
			rc = record(out, p, m, r);
		}
		kt_check_report_free(r);
		kt_backend_free(b);
	}
	kt_template_free(t);
	out->ran = !rc && !out->skipped;
	return rc;
}

void kt_rw_run_release(kt_rw_run *r)
{
	for (size_t i = 0; i < r->n; i++)
		kt_free(r->why[i]);
	kt_free(r->why);
	kt_free(r->param);
	kt_free(r->value);
	kt_free(r->skipped);
	kt_free(r->differs);
	memset(r, 0, sizeof(*r));
}
