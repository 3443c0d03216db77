/*
 * sim.c - the simulation backend: answers each evaluation from a recorded
 * results file (a T4 file, or a ktc cache), so strategies and the tuning
 * loop run, and can be tested and compared, with no GPU.
 *
 * It never invents a number: a configuration that the recording lacks is an
 * error of the run (KT_ENOTFOUND, naming the configuration), because a
 * search that silently got made-up answers would report a made-up optimum.
 * Recorded configurations are matched by value, parameter by parameter,
 * against the template's domains, so the recording's parameter order and
 * number formatting do not matter.
 */
#include "runtime/backend_impl.h"

#include "ktc/results.h"
#include "util/table.h"
#include "util/fs.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

typedef struct sim {
	kt_backend base;
	char *from;
	kt_results *rec;
	uint32_t *idx;  /* nrecords x nparams domain indices */
	bool *mapped;   /* per record: every value is in its domain */
	kt_table table; /* hash of an idx row -> record */
	double delay_ms;
} sim;

static uint64_t row_hash(const uint32_t *idx, size_t n)
{
	return kt_hash(KT_HASH_INIT, idx, n * sizeof(uint32_t));
}

/* The record of a configuration, or NULL. */
static const kt_record *lookup(const sim *s, const uint32_t *param_idx)
{
	size_t np = s->base.model->nparams, pos = 0, i;
	uint64_t h = row_hash(param_idx, np);
	while ((i = kt_table_next(&s->table, h, &pos)) != SIZE_MAX)
		if (!memcmp(&s->idx[i * np], param_idx, np * sizeof(uint32_t)))
			return &s->rec->records[i];
	return NULL;
}

static int sim_device_info(kt_backend *b, kt_device_info *out)
{
	sim *s = (sim *)b;
	*out = s->rec->info.device;
	if (!out->name[0])
		snprintf(out->name, sizeof(out->name),
		         "unknown (recorded in %s)", s->from);
	snprintf(out->backend, sizeof(out->backend), "sim");
	return 0;
}

static void value_text(char *buf, size_t cap, kt_value v)
{
	if (v.is_float)
		snprintf(buf, cap, "%.17g", v.f);
	else
		snprintf(buf, cap, "%lld", (long long)v.i);
}

static int sim_set_problem(kt_backend *b, const kt_value *problem)
{
	sim *s = (sim *)b;
	const kt_model *m = b->model;
	const kt_results_info *info = &s->rec->info;
	for (size_t p = 0; p < m->nproblems; p++) {
		kt_value want = kt_model_problem_value(m, problem, p);
		for (size_t i = 0; i < info->nproblems; i++) {
			if (strcmp(info->problem_names[i],
			           m->problems[p].name) ||
			    kt_value_as_double(info->problem[i]) ==
			        kt_value_as_double(want))
				continue;
			char have[32], asked[32];
			value_text(have, sizeof(have), info->problem[i]);
			value_text(asked, sizeof(asked), want);
			return kt_error(
			    KT_EINVALID,
			    "recording '%s' holds problem %s=%s, not %s=%s",
			    s->from, m->problems[p].name, have,
			    m->problems[p].name, asked);
		}
	}
	return 0;
}

static void sleep_ms(double ms)
{
	struct timespec ts = {(time_t)(ms / 1000),
	                      (long)(fmod(ms, 1000) * 1e6)};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static int sim_evaluate(kt_backend *b, const kt_eval_request *reqs, size_t n,
                        kt_result *results)
{
	sim *s = (sim *)b;
	for (size_t i = 0; i < n; i++)
		if (!lookup(s, reqs[i].param_idx))
			return kt_error(
			    KT_ENOTFOUND,
			    "configuration '%s' is not in the recording '%s' "
			    "(the sim backend answers only recorded "
			    "configurations)",
			    reqs[i].key ? reqs[i].key : "?", s->from);
	for (size_t i = 0; i < n; i++) {
		if (s->delay_ms > 0)
			sleep_ms(s->delay_ms);
		kt_result_release(&results[i]);
		int rc = kt_result_copy(&results[i],
		                        &lookup(s, reqs[i].param_idx)->result);
		if (rc)
			return rc;
		results[i].timestamp = 0;
		struct timespec ts;
		if (clock_gettime(CLOCK_REALTIME, &ts) == 0)
			results[i].timestamp =
			    (double)ts.tv_sec + ts.tv_nsec * 1e-9;
	}
	return 0;
}

static void sim_free(kt_backend *b)
{
	sim *s = (sim *)b;
	kt_results_free(s->rec);
	kt_free(s->idx);
	kt_free(s->mapped);
	kt_table_release(&s->table);
	kt_free(s->from);
	kt_free(s);
}

static const kt_backend_ops sim_ops = {
    .name = "sim",
    .device_info = sim_device_info,
    .set_problem = sim_set_problem,
    .evaluate = sim_evaluate,
    .free = sim_free,
};

static bool model_has_param(const kt_model *m, const char *name)
{
	for (size_t p = 0; p < m->nparams; p++)
		if (!strcmp(m->params[p].name, name))
			return true;
	return false;
}

/* col[p]: the recording's column of model parameter p. */
static int map_columns(size_t *col, const sim *s)
{
	const kt_model *m = s->base.model;
	const kt_results_info *info = &s->rec->info;
	if (s->rec->nrecords == 0)
		return kt_error(KT_EINVALID, "recording '%s' holds no results",
		                s->from);
	for (size_t c = 0; c < info->nparams; c++)
		if (!model_has_param(m, info->param_names[c]))
			return kt_error(
			    KT_EINVALID,
			    "recording '%s' has parameter '%s', which kernel "
			    "'%s' does not have",
			    s->from, info->param_names[c], m->kernel);
	for (size_t p = 0; p < m->nparams; p++) {
		col[p] = SIZE_MAX;
		for (size_t c = 0; c < info->nparams; c++)
			if (!strcmp(info->param_names[c], m->params[p].name))
				col[p] = c;
		if (col[p] == SIZE_MAX)
			return kt_error(KT_EINVALID,
			                "recording '%s' has no parameter '%s' "
			                "of kernel '%s'",
			                s->from, m->params[p].name, m->kernel);
	}
	return 0;
}

/* The domain index of v in parameter p, or UINT32_MAX. */
static uint32_t domain_index(const kt_param *p, kt_value v)
{
	for (size_t i = 0; i < p->nvalues; i++)
		if (kt_value_as_double(p->values[i]) == kt_value_as_double(v))
			return (uint32_t)i;
	return UINT32_MAX;
}

static int index_recording(sim *s)
{
	const kt_model *m = s->base.model;
	size_t np = m->nparams, nr = s->rec->nrecords;
	size_t *col = kt_calloc(np + 1, sizeof(size_t));
	s->idx = kt_calloc(nr * np + 1, sizeof(uint32_t));
	s->mapped = kt_calloc(nr + 1, sizeof(bool));
	int rc = (!col || !s->idx || !s->mapped)
	             ? kt_error(KT_ENOMEM, "out of memory")
	             : map_columns(col, s);
	for (size_t r = 0; !rc && r < nr; r++) {
		uint32_t *row = &s->idx[r * np];
		s->mapped[r] = true;
		for (size_t p = 0; p < np; p++) {
			row[p] = domain_index(
			    &m->params[p], s->rec->records[r].values[col[p]]);
			if (row[p] == UINT32_MAX)
				s->mapped[r] = false;
		}
		/* the first record of a configuration wins, as in a cache */
		if (s->mapped[r] && !lookup(s, row))
			rc = kt_table_put(&s->table, row_hash(row, np), r);
	}
	kt_free(col);
	return rc;
}

int kt_backend_sim_open(kt_backend **out, const kt_model *m,
                        const kt_backend_options *opt)
{
	*out = NULL;
	if (!opt->from)
		return kt_error(KT_EINVALID, "the sim backend needs a recorded "
		                             "results file (--from FILE)");
	if (opt->compile_only)
		return kt_error(KT_EUNSUPPORTED,
		                "the sim backend compiles nothing; "
		                "--compile-only needs a GPU backend");
	sim *s = kt_calloc(1, sizeof(*s));
	if (!s || !(s->from = kt_strdup(opt->from))) {
		kt_free(s);
		return kt_error(KT_ENOMEM, "out of memory");
	}
	s->base.ops = &sim_ops;
	s->base.model = m;
	s->delay_ms = opt->sim_delay_ms;
	int rc = kt_results_load(&s->rec, opt->from);
	if (!rc && s->rec->info.kernel && s->rec->info.kernel[0] &&
	    strcmp(s->rec->info.kernel, m->kernel))
		rc = kt_error(KT_EINVALID,
		              "recording '%s' is of kernel '%s', not '%s'",
		              opt->from, s->rec->info.kernel, m->kernel);
	if (!rc)
		rc = index_recording(s);
	if (rc) {
		sim_free(&s->base);
		return rc;
	}
	*out = &s->base;
	return 0;
}
