/*
 * result.c - the outcome of one evaluation (kt_result of ktc/eval.h) and the
 * names of its statuses.
 *
 * The status names are T4's `invalidity` values, so a result file written by
 * ktc reads the same to every tool of the autotuning community; "correct"
 * is the name of success there, not "ok".
 */
#include "ktc/eval.h"
#include "ktc/results.h"

#include <math.h>
#include <string.h>

static const char *const status_names[] = {
    [KT_STATUS_OK] = "correct",
    [KT_STATUS_COMPILE] = "compile",
    [KT_STATUS_RUNTIME] = "runtime",
    [KT_STATUS_CORRECTNESS] = "correctness",
    [KT_STATUS_CONSTRAINTS] = "constraints",
    [KT_STATUS_TIMEOUT] = "timeout",
};

const char *kt_status_name(kt_status s)
{
	if ((unsigned)s >= sizeof(status_names) / sizeof(status_names[0]))
		return "unknown";
	return status_names[s];
}

int kt_status_parse(const char *name)
{
	if (!name)
		return -1;
	for (size_t i = 0; i < sizeof(status_names) / sizeof(status_names[0]);
	     i++)
		if (!strcmp(name, status_names[i]))
			return (int)i;
	return -1;
}

void kt_result_init(kt_result *r)
{
	memset(r, 0, sizeof(*r));
	r->status = KT_STATUS_OK;
	r->time_ms = NAN;
	r->spread = NAN;
}

void kt_result_release(kt_result *r)
{
	kt_free(r->runtimes_ms);
	kt_free(r->message);
	kt_result_init(r);
}

/* Copies the bounded text src into the fixed field dst; truncation is fine. */
static void copy_field(char *dst, size_t cap, const char *src)
{
	size_t n = strlen(src);
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

int kt_result_add_measure(kt_result *r, const char *name, double value,
                          const char *unit)
{
	if (strlen(name) >= sizeof(r->measures[0].name) ||
	    strlen(unit ? unit : "") >= sizeof(r->measures[0].unit))
		return kt_error(KT_EINVALID,
		                "measure name or unit too long: '%s'", name);
	kt_measure *m = (kt_measure *)kt_result_measure(r, name);
	if (!m) {
		if (r->nmeasures >= KT_MAX_MEASURES)
			return kt_error(
			    KT_EINVALID,
			    "too many measures (at most %d): cannot add '%s'",
			    KT_MAX_MEASURES, name);
		m = &r->measures[r->nmeasures++];
		copy_field(m->name, sizeof(m->name), name);
	}
	copy_field(m->unit, sizeof(m->unit), unit ? unit : "");
	m->value = value;
	return 0;
}

int kt_result_copy(kt_result *dst, const kt_result *src)
{
	*dst = *src;
	dst->runtimes_ms = NULL;
	dst->message = NULL;
	if (src->nruntimes) {
		dst->runtimes_ms = kt_malloc(src->nruntimes * sizeof(double));
		if (!dst->runtimes_ms)
			goto oom;
		memcpy(dst->runtimes_ms, src->runtimes_ms,
		       src->nruntimes * sizeof(double));
	}
	if (src->message && !(dst->message = kt_strdup(src->message)))
		goto oom;
	return 0;
oom:
	kt_result_release(dst);
	return kt_error(KT_ENOMEM, "out of memory");
}

const kt_measure *kt_result_measure(const kt_result *r, const char *name)
{
	for (size_t i = 0; i < r->nmeasures; i++)
		if (!strncmp(r->measures[i].name, name,
		             sizeof(r->measures[i].name)))
			return &r->measures[i];
	return NULL;
}
