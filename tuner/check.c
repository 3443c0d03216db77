/*
 * check.c - the differential check (ktc/check.h): every value of every
 * parameter run at least once against the default configuration, at every
 * value of every problem variable.
 *
 * The design choice a reader needs: the check is a tuning run with a
 * strategy of its own, not a second driver. The sweep strategy below hands
 * out the configurations that cover each value once, kt_tune_run evaluates
 * them exactly as `ktc tune` would (the default first as the reference,
 * verification of every run, timed runs checked too), and the report is
 * read off the run's entries. So what the check calls correct is what the
 * tuner would call correct, by the same code.
 */
#include "ktc/check.h"
#include "ktc/space.h"
#include "ktc/tune.h"

#include "util/str.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

/* Configurations scanned for one holding a value that the one-value change
 * of the default cannot (a constraint forbids it). */
enum { SCAN_MAX = 1 << 16 };

/* ---- the sweep strategy ----------------------------------------------- */

typedef struct sweep {
	kt_strategy pub;
	uint64_t *list;
	size_t n, next;
} sweep;

static int list_add(sweep *s, uint64_t index)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->list[i] == index)
			return 0;
	s->list[s->n++] = index;
	return 0;
}

/*
 * For each value no one-value change of the default reaches, the scanned
 * configuration holding it that differs from def in the fewest parameters.
 */
static int scan_for(sweep *s, const kt_space *space, const uint32_t *def,
                    const kt_model *m, bool **found)
{
	size_t np = m->nparams;
	uint64_t count = kt_space_count(space);
	uint64_t lim = count < SCAN_MAX ? count : SCAN_MAX;
	uint32_t *cfg = kt_calloc(np + 1, sizeof(uint32_t));
	size_t **dist = kt_calloc(np + 1, sizeof(size_t *));
	uint64_t **best = kt_calloc(np + 1, sizeof(uint64_t *));
	int rc = cfg && dist && best ? 0 : kt_error(KT_ENOMEM, "out of memory");
	for (size_t p = 0; !rc && p < np; p++) {
		dist[p] = kt_calloc(m->params[p].nvalues, sizeof(size_t));
		best[p] = kt_calloc(m->params[p].nvalues, sizeof(uint64_t));
		if (!dist[p] || !best[p])
			rc = kt_error(KT_ENOMEM, "out of memory");
		for (size_t k = 0; !rc && k < m->params[p].nvalues; k++)
			dist[p][k] = SIZE_MAX;
	}
	for (uint64_t i = 0; !rc && i < lim; i++) {
		if ((rc = kt_space_get(space, i, cfg)))
			break;
		size_t d = 0;
		for (size_t p = 0; p < np; p++)
			d += cfg[p] != def[p];
		for (size_t p = 0; p < np; p++)
			if (!found[p][cfg[p]] && d < dist[p][cfg[p]]) {
				dist[p][cfg[p]] = d;
				best[p][cfg[p]] = i;
			}
	}
	for (size_t p = 0; !rc && p < np; p++)
		for (size_t k = 0; k < m->params[p].nvalues; k++)
			if (!found[p][k] && dist[p][k] != SIZE_MAX)
				list_add(s, best[p][k]);
	for (size_t p = 0; dist && best && p < np; p++) {
		kt_free(dist[p]);
		kt_free(best[p]);
	}
	kt_free(dist);
	kt_free(best);
	kt_free(cfg);
	return rc;
}

static int sweep_build(sweep *s, const kt_space *space)
{
	const kt_model *m = kt_space_model(space);
	size_t np = m->nparams, total = 1;
	for (size_t p = 0; p < np; p++)
		total += m->params[p].nvalues;
	int64_t d = kt_space_default_index(space);
	if (d < 0)
		return kt_error(KT_EINVALID,
		                "the default configuration of '%s' violates a "
		                "constraint",
		                m->kernel);
	uint32_t *def = kt_calloc(np + 1, sizeof(uint32_t));
	uint32_t *cfg = kt_calloc(np + 1, sizeof(uint32_t));
	bool **found = kt_calloc(np + 1, sizeof(bool *));
	s->list = kt_calloc(total, sizeof(uint64_t));
	int rc = def && cfg && found && s->list
	             ? kt_space_get(space, (uint64_t)d, def)
	             : kt_error(KT_ENOMEM, "out of memory");
	bool missing = false;
	for (size_t p = 0; !rc && p < np; p++) {
		const kt_param *pp = &m->params[p];
		if (!(found[p] = kt_calloc(pp->nvalues, sizeof(bool)))) {
			rc = kt_error(KT_ENOMEM, "out of memory");
			break;
		}
		found[p][def[p]] = true;
		for (uint32_t k = 0; k < pp->nvalues; k++) {
			if (k == def[p])
				continue;
			memcpy(cfg, def, np * sizeof(uint32_t));
			cfg[p] = k;
			int64_t i = kt_space_index_of(space, cfg);
			if (i >= 0) {
				list_add(s, (uint64_t)i);
				found[p][k] = true;
			} else {
				missing = true;
			}
		}
	}
	if (!rc && missing)
		rc = scan_for(s, space, def, m, found);
	for (size_t p = 0; found && p < np; p++)
		kt_free(found[p]);
	kt_free(found);
	kt_free(def);
	kt_free(cfg);
	return rc;
}

static int sweep_ask(kt_strategy *st, uint64_t *out, size_t max, size_t *n)
{
	sweep *s = (sweep *)st;
	size_t k = 0;
	while (k < max && s->next < s->n)
		out[k++] = s->list[s->next++];
	*n = k;
	return 0;
}

static int sweep_tell(kt_strategy *st, uint64_t index, double objective)
{
	(void)st, (void)index, (void)objective;
	return 0;
}

static void sweep_free(kt_strategy *st)
{
	sweep *s = (sweep *)st;
	if (!s)
		return;
	kt_free(s->list);
	kt_free(s);
}

static int sweep_create(kt_strategy **out, const kt_space *space,
                        const kt_strategy_options *opt);

static const kt_strategy_ops sweep_ops = {
    "sweep",      "each value of each parameter once, from the default",
    sweep_create, sweep_ask,
    sweep_tell,   sweep_free,
};

static int sweep_create(kt_strategy **out, const kt_space *space,
                        const kt_strategy_options *opt)
{
	(void)opt;
	*out = NULL;
	sweep *s = kt_calloc(1, sizeof(*s));
	if (!s)
		return kt_error(KT_ENOMEM, "out of memory");
	s->pub.ops = &sweep_ops;
	int rc = sweep_build(s, space);
	if (rc) {
		sweep_free(&s->pub);
		return rc;
	}
	*out = &s->pub;
	return 0;
}

/* ---- the check -------------------------------------------------------- */

typedef struct checker {
	const kt_model *m;
	const kt_check_options *opt;
	kt_check_report *rep;
	kt_check_value ***at; /* [param][value index] -> report entry or NULL */
	size_t instance, ninstances;
	const char *problem;
	size_t most; /* configurations an instance runs at most */
} checker;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The problem instances: the defaults, then each other value of each
 * problem variable with the others at their defaults. */
static kt_value *instances(const kt_model *m, size_t *n)
{
	size_t np = m->nproblems, count = 1;
	for (size_t i = 0; i < np; i++)
		count += m->problems[i].nvalues - 1;
	kt_value *v = kt_calloc(count * np + 1, sizeof(kt_value));
	if (!v)
		return NULL;
	for (size_t c = 0; c < count; c++)
		for (size_t i = 0; i < np; i++)
			v[c * np + i] = kt_model_problem_value(m, NULL, i);
	size_t c = 1;
	for (size_t i = 0; i < np; i++)
		for (size_t k = 0; k < m->problems[i].nvalues; k++)
			if (k != m->problems[i].default_index)
				v[c++ * np + i] = m->problems[i].values[k];
	*n = count;
	return v;
}

static char *problem_text(const kt_model *m, const kt_value *v)
{
	kt_str s = KT_STR_INIT;
	for (size_t i = 0; i < m->nproblems; i++) {
		char buf[64];
		kt_value_format(buf, sizeof(buf), v[i]);
		if (kt_str_addf(&s, "%s%s=%s", i ? "," : "",
		                m->problems[i].name, buf)) {
			kt_str_release(&s);
			return NULL;
		}
	}
	return s.ptr ? kt_str_detach(&s) : kt_strdup("");
}

static void on_progress(const kt_tune_progress *p, void *ud)
{
	const checker *c = ud;
	kt_check_progress cp = {
	    .instance = c->instance,
	    .ninstances = c->ninstances,
	    .done = p->visited,
	    .total = p->total < c->most ? p->total : c->most,
	    .problem = c->problem,
	};
	c->opt->progress(&cp, c->opt->progress_ud);
}

/* Records one evaluated configuration for each non-default value it has. */
static int record(checker *c, const kt_tune_entry *e, const uint32_t *def)
{
	for (size_t p = 0; p < c->m->nparams; p++) {
		if (e->param_idx[p] == def[p])
			continue;
		kt_check_value *v = c->at[p][e->param_idx[p]];
		bool failed = e->result.status != KT_STATUS_OK;
		/* the first failure is the one reported */
		if (v->run && (v->status != KT_STATUS_OK || !failed))
			continue;
		v->run = true;
		v->status = e->result.status;
		kt_free(v->key);
		kt_free(v->problem);
		kt_free(v->message);
		v->key = kt_strdup(e->key);
		v->problem = kt_strdup(c->problem);
		v->message =
		    e->result.message ? kt_strdup(e->result.message) : NULL;
		if (!v->key || !v->problem ||
		    (e->result.message && !v->message))
			return kt_error(KT_ENOMEM, "out of memory");
	}
	return 0;
}

static int run_instance(checker *c, kt_backend *b, const kt_value *problem,
                        const uint32_t *def)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	kt_tune_options to = {
	    .strategy_ops = &sweep_ops,
	    .batch = c->opt->batch ? c->opt->batch
	             : cpus > 0    ? (size_t)cpus
	                           : 8,
	    .problem = problem,
	    .stop = c->opt->stop,
	    .progress = c->opt->progress ? on_progress : NULL,
	    .progress_ud = c,
	};
	kt_tune_report *tr = NULL;
	int rc = kt_tune_run(&tr, c->m, b, &to);
	if (tr) {
		c->rep->device = tr->device;
		c->rep->nconfigs += tr->nentries;
		for (size_t i = 1; !rc && i < tr->nentries; i++)
			rc = record(c, &tr->entries[i], def);
		c->rep->interrupted = tr->stop == KT_TUNE_INTERRUPTED;
	}
	kt_tune_report_free(tr);
	return rc;
}

static int make_report(checker *c)
{
	const kt_model *m = c->m;
	size_t total = 0;
	for (size_t p = 0; p < m->nparams; p++)
		total += m->params[p].nvalues - 1;
	c->most = total + 1;
	c->rep = kt_calloc(1, sizeof(*c->rep));
	c->at = kt_calloc(m->nparams + 1, sizeof(*c->at));
	if (!c->rep || !c->at ||
	    !(c->rep->values = kt_calloc(total + 1, sizeof(kt_check_value))))
		return kt_error(KT_ENOMEM, "out of memory");
	for (size_t p = 0; p < m->nparams; p++) {
		const kt_param *pp = &m->params[p];
		if (!(c->at[p] = kt_calloc(pp->nvalues, sizeof(*c->at[p]))))
			return kt_error(KT_ENOMEM, "out of memory");
		for (size_t k = 0; k < pp->nvalues; k++) {
			if (k == pp->default_index)
				continue;
			kt_check_value *v = &c->rep->values[c->rep->nvalues++];
			v->param = p;
			v->value_index = k;
			c->at[p][k] = v;
		}
	}
	return 0;
}

int kt_check_run(kt_check_report **out, const kt_model *m, kt_backend *b,
                 const kt_check_options *opt)
{
	static const kt_check_options none = {0};
	checker c = {.m = m, .opt = opt ? opt : &none};
	double t0 = now_s();
	*out = NULL;
	uint32_t *def = kt_calloc(m->nparams + 1, sizeof(uint32_t));
	kt_value *inst = instances(m, &c.ninstances);
	int rc = def && inst ? make_report(&c)
	                     : kt_error(KT_ENOMEM, "out of memory");
	if (def)
		kt_model_default_config(m, def);
	if (c.rep)
		c.rep->ninstances = c.ninstances;
	for (size_t i = 0; !rc && i < c.ninstances && !c.rep->interrupted;
	     i++) {
		char *text = problem_text(m, &inst[i * m->nproblems]);
		if (!text) {
			rc = kt_error(KT_ENOMEM, "out of memory");
			break;
		}
		c.instance = i + 1;
		c.problem = text;
		rc = run_instance(&c, b, &inst[i * m->nproblems], def);
		kt_free(text);
		c.rep->nproblems++;
	}
	for (size_t i = 0; c.rep && i < c.rep->nvalues; i++) {
		c.rep->nfailed += c.rep->values[i].status != KT_STATUS_OK;
		c.rep->nnot_run += !c.rep->values[i].run;
	}
	for (size_t p = 0; c.at && p < m->nparams; p++)
		kt_free(c.at[p]);
	kt_free(c.at);
	kt_free(def);
	kt_free(inst);
	if (rc) {
		kt_check_report_free(c.rep);
		return rc;
	}
	c.rep->elapsed_s = now_s() - t0;
	*out = c.rep;
	return 0;
}

void kt_check_report_free(kt_check_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nvalues; i++) {
		kt_free(r->values[i].key);
		kt_free(r->values[i].problem);
		kt_free(r->values[i].message);
	}
	kt_free(r->values);
	kt_free(r);
}
