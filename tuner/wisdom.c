/*
 * wisdom.c - the wisdom file (ktc/wisdom.h): per shape the best
 * configuration of one kernel on one device, written by `ktc tune` over a
 * grid of shapes, read by the runtime library and `ktc export`.
 *
 * The design choice a reader needs: this file links only util and cJSON
 * (and the model's value type), because the runtime library (ktcrt)
 * compiles it in without the tuner. Numbers are written with the fewest
 * digits that read back to the same double, like the cache.
 */
#include "ktc/wisdom.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fs.h"
#include "util/num.h"

enum { WISDOM_FORMAT = 1 };

static char **copy_names(const char *const *names, size_t n)
{
	char **out = kt_calloc(n + 1, sizeof(char *));
	for (size_t i = 0; out && i < n; i++)
		if (!(out[i] = kt_strdup(names[i]))) {
			for (size_t k = 0; k < i; k++)
				kt_free(out[k]);
			kt_free(out);
			return NULL;
		}
	return out;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; names && i < n; i++)
		kt_free(names[i]);
	kt_free(names);
}

int kt_wisdom_new(kt_wisdom **out, const kt_model *m, const char *template_path,
                  uint64_t template_hash, const char *objective)
{
	*out = NULL;
	kt_wisdom *w = kt_calloc(1, sizeof(*w));
	const char **pn = kt_calloc(m->nparams + 1, sizeof(char *));
	const char **qn = kt_calloc(m->nproblems + 1, sizeof(char *));
	if (!w || !pn || !qn)
		goto oom;
	for (size_t i = 0; i < m->nparams; i++)
		pn[i] = m->params[i].name;
	for (size_t i = 0; i < m->nproblems; i++)
		qn[i] = m->problems[i].name;
	w->nparams = m->nparams;
	w->nproblems = m->nproblems;
	w->param_names = copy_names(pn, m->nparams);
	w->problem_names = copy_names(qn, m->nproblems);
	w->template_path = kt_strdup(template_path ? template_path : "");
	w->kernel = kt_strdup(m->kernel);
	w->objective = kt_strdup(objective ? objective : "cold");
	w->template_hash = template_hash;
	if (!w->param_names || !w->problem_names || !w->template_path ||
	    !w->kernel || !w->objective)
		goto oom;
	kt_free(pn);
	kt_free(qn);
	*out = w;
	return 0;
oom:
	kt_free(pn);
	kt_free(qn);
	kt_wisdom_free(w);
	return kt_error(KT_ENOMEM, "out of memory");
}

static bool same_values(const kt_value *a, const kt_value *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (kt_value_as_double(a[i]) != kt_value_as_double(b[i]))
			return false;
	return true;
}

static kt_value *copy_values(const kt_value *v, size_t n)
{
	kt_value *c = kt_calloc(n + 1, sizeof(kt_value));
	if (c && n)
		memcpy(c, v, n * sizeof(kt_value));
	return c;
}

int kt_wisdom_set(kt_wisdom *w, const kt_value *problem, const kt_value *best,
                  double time_ms, double default_ms)
{
	size_t i = 0;
	while (i < w->nshapes &&
	       !same_values(w->shapes[i].problem, problem, w->nproblems))
		i++;
	if (i == w->nshapes) {
		kt_wisdom_shape *s =
		    kt_realloc(w->shapes, (i + 1) * sizeof(*s));
		if (!s)
			return kt_error(KT_ENOMEM, "out of memory");
		w->shapes = s;
		memset(&s[i], 0, sizeof(*s));
		if (!(s[i].problem = copy_values(problem, w->nproblems)))
			return kt_error(KT_ENOMEM, "out of memory");
		w->nshapes++;
	}
	kt_value *b = copy_values(best, w->nparams);
	if (!b)
		return kt_error(KT_ENOMEM, "out of memory");
	kt_free(w->shapes[i].best);
	w->shapes[i].best = b;
	w->shapes[i].time_ms = time_ms;
	w->shapes[i].default_ms = default_ms;
	return 0;
}

void kt_wisdom_free(kt_wisdom *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->nshapes; i++) {
		kt_free(w->shapes[i].problem);
		kt_free(w->shapes[i].best);
	}
	kt_free(w->shapes);
	free_names(w->param_names, w->nparams);
	free_names(w->problem_names, w->nproblems);
	kt_free(w->template_path);
	kt_free(w->kernel);
	kt_free(w->objective);
	kt_free(w);
}

/* ---- writing -------------------------------------------------------- */

static cJSON *number(double d)
{
	if (!isfinite(d))
		return cJSON_CreateNull();
	char buf[KT_NUM_MAX];
	kt_num_shortest(buf, sizeof(buf), d);
	return cJSON_CreateRaw(buf);
}

static cJSON *value(kt_value v)
{
	if (v.is_float)
		return number(v.f);
	char buf[32];
	snprintf(buf, sizeof(buf), "%lld", (long long)v.i);
	return cJSON_CreateRaw(buf);
}

static cJSON *named_values(char *const *names, const kt_value *v, size_t n)
{
	cJSON *o = cJSON_CreateObject();
	for (size_t i = 0; o && i < n; i++)
		cJSON_AddItemToObject(o, names[i], value(v[i]));
	return o;
}

static cJSON *shape_json(const kt_wisdom *w, const kt_wisdom_shape *s)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddItemToObject(
	    j, "problem",
	    named_values(w->problem_names, s->problem, w->nproblems));
	cJSON_AddItemToObject(
	    j, "best", named_values(w->param_names, s->best, w->nparams));
	cJSON_AddItemToObject(j, "time_ms", number(s->time_ms));
	cJSON_AddItemToObject(j, "default_ms", number(s->default_ms));
	return j;
}

static cJSON *wisdom_json(const kt_wisdom *w)
{
	char hash[32];
	snprintf(hash, sizeof(hash), "%016" PRIx64, w->template_hash);
	cJSON *j = cJSON_CreateObject();
	cJSON_AddItemToObject(j, "ktc_wisdom", value(kt_int(WISDOM_FORMAT)));
	cJSON_AddStringToObject(j, "ktc_version", KTC_VERSION);
	cJSON_AddStringToObject(j, "template", w->template_path);
	cJSON_AddStringToObject(j, "template_hash", hash);
	cJSON_AddStringToObject(j, "kernel", w->kernel);
	cJSON_AddStringToObject(j, "objective", w->objective);
	cJSON *d = cJSON_AddObjectToObject(j, "device");
	cJSON_AddStringToObject(d, "name", w->device);
	cJSON_AddStringToObject(d, "arch", w->arch);
	cJSON_AddStringToObject(d, "compute_capability", w->compute_capability);
	cJSON_AddStringToObject(d, "driver", w->driver);
	cJSON *p = cJSON_AddArrayToObject(j, "params");
	for (size_t i = 0; i < w->nparams; i++)
		cJSON_AddItemToArray(p, cJSON_CreateString(w->param_names[i]));
	cJSON *q = cJSON_AddArrayToObject(j, "problem");
	for (size_t i = 0; i < w->nproblems; i++)
		cJSON_AddItemToArray(q,
		                     cJSON_CreateString(w->problem_names[i]));
	cJSON *s = cJSON_AddArrayToObject(j, "shapes");
	for (size_t i = 0; i < w->nshapes; i++)
		cJSON_AddItemToArray(s, shape_json(w, &w->shapes[i]));
	return j;
}

int kt_wisdom_write(const kt_wisdom *w, const char *path)
{
	cJSON *j = wisdom_json(w);
	char *text = j ? cJSON_Print(j) : NULL;
	cJSON_Delete(j);
	if (!text)
		return kt_error(KT_ENOMEM, "out of memory");
	size_t n = strlen(text);
	char *nl = kt_malloc(n + 2);
	int rc = nl ? 0 : kt_error(KT_ENOMEM, "out of memory");
	if (!rc) {
		memcpy(nl, text, n);
		nl[n] = '\n';
		rc = kt_fs_write_atomic(path, nl, n + 1);
	}
	kt_free(nl);
	cJSON_free(text);
	return rc;
}

/* ---- reading -------------------------------------------------------- */

typedef struct reader {
	const char *name;
	kt_wisdom *w;
} reader;

static int bad(const reader *r, const char *field, const char *what)
{
	return kt_error(KT_EPARSE, "wisdom '%s': %s %s", r->name, field, what);
}

static int get_string(const reader *r, const cJSON *o, const char *field,
                      char *buf, size_t cap, char **dup)
{
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, field);
	if (!cJSON_IsString(s))
		return bad(r, field, "is missing or not a string");
	if (buf)
		snprintf(buf, cap, "%s", s->valuestring);
	if (dup && !(*dup = kt_strdup(s->valuestring)))
		return kt_error(KT_ENOMEM, "out of memory");
	return 0;
}

static int get_names(const reader *r, const cJSON *o, const char *field,
                     char ***names, size_t *n)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, field);
	if (!cJSON_IsArray(a))
		return bad(r, field, "is missing or not an array");
	size_t k = (size_t)cJSON_GetArraySize(a);
	if (!(*names = kt_calloc(k + 1, sizeof(char *))))
		return kt_error(KT_ENOMEM, "out of memory");
	const cJSON *e;
	cJSON_ArrayForEach(e, a)
	{
		if (!cJSON_IsString(e))
			return bad(r, field, "holds a name that is no string");
		if (!((*names)[*n] = kt_strdup(e->valuestring)))
			return kt_error(KT_ENOMEM, "out of memory");
		(*n)++;
	}
	return 0;
}

static int get_value(const cJSON *j, kt_value *out)
{
	if (!cJSON_IsNumber(j))
		return -1;
	double d = j->valuedouble;
	*out = d == floor(d) && fabs(d) < 9007199254740992.0
	           ? kt_int((int64_t)d)
	           : kt_float(d);
	return 0;
}

/* o's value of each name, into out; field names the object in messages. */
static int get_named(const reader *r, const cJSON *o, const char *field,
                     char *const *names, size_t n, kt_value **out)
{
	if (!cJSON_IsObject(o))
		return bad(r, field, "is missing or not an object");
	if ((size_t)cJSON_GetArraySize(o) != n)
		return bad(r, field, "does not name exactly the listed names");
	if (!(*out = kt_calloc(n + 1, sizeof(kt_value))))
		return kt_error(KT_ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, names[i]);
		if (get_value(v, &(*out)[i])) {
			char what[160];
			snprintf(what, sizeof(what), "has no number for '%s'",
			         names[i]);
			return bad(r, field, what);
		}
	}
	return 0;
}

static int get_time(const reader *r, const cJSON *o, const char *field,
                    const char *name, double *out)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, name);
	if (cJSON_IsNull(t)) {
		*out = NAN;
		return 0;
	}
	if (!cJSON_IsNumber(t) || !(t->valuedouble > 0))
		return bad(r, field,
		           "has a time that is not a positive number");
	*out = t->valuedouble;
	return 0;
}

static int get_shape(reader *r, const cJSON *j, size_t i)
{
	kt_wisdom *w = r->w;
	kt_wisdom_shape *s = &w->shapes[i];
	char field[64];
	snprintf(field, sizeof(field), "shapes[%zu].problem", i);
	int rc = get_named(r, cJSON_GetObjectItemCaseSensitive(j, "problem"),
	                   field, w->problem_names, w->nproblems, &s->problem);
	snprintf(field, sizeof(field), "shapes[%zu].best", i);
	if (!rc)
		rc = get_named(r, cJSON_GetObjectItemCaseSensitive(j, "best"),
		               field, w->param_names, w->nparams, &s->best);
	snprintf(field, sizeof(field), "shapes[%zu]", i);
	if (!rc)
		rc = get_time(r, j, field, "time_ms", &s->time_ms);
	if (!rc)
		rc = get_time(r, j, field, "default_ms", &s->default_ms);
	for (size_t k = 0; !rc && k < i; k++)
		if (same_values(w->shapes[k].problem, s->problem, w->nproblems))
			rc = bad(r, field, "repeats an earlier shape");
	return rc;
}

static int get_header(reader *r, const cJSON *j)
{
	kt_wisdom *w = r->w;
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(j, "ktc_wisdom");
	if (!cJSON_IsNumber(f))
		return bad(r, "ktc_wisdom", "is missing: not a wisdom file");
	if (f->valuedouble != WISDOM_FORMAT)
		return bad(r, "ktc_wisdom", "is a format this ktc cannot read");
	char hash[32];
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(j, "device");
	int rc = get_string(r, j, "template", NULL, 0, &w->template_path);
	if (!rc)
		rc =
		    get_string(r, j, "template_hash", hash, sizeof(hash), NULL);
	if (!rc) {
		char *end = NULL;
		w->template_hash = strtoull(hash, &end, 16);
		if (strlen(hash) != 16 || *end)
			rc = bad(r, "template_hash", "is not 16 hex digits");
	}
	if (!rc)
		rc = get_string(r, j, "kernel", NULL, 0, &w->kernel);
	if (!rc)
		rc = get_string(r, j, "objective", NULL, 0, &w->objective);
	if (!rc && !cJSON_IsObject(d))
		rc = bad(r, "device", "is missing or not an object");
	if (!rc)
		rc = get_string(r, d, "name", w->device, sizeof(w->device),
		                NULL);
	if (!rc)
		rc = get_string(r, d, "arch", w->arch, sizeof(w->arch), NULL);
	if (!rc)
		rc = get_string(r, d, "compute_capability",
		                w->compute_capability,
		                sizeof(w->compute_capability), NULL);
	if (!rc)
		rc = get_string(r, d, "driver", w->driver, sizeof(w->driver),
		                NULL);
	return rc;
}

static int read_wisdom(reader *r, const cJSON *j)
{
	kt_wisdom *w = r->w;
	int rc = get_header(r, j);
	if (!rc)
		rc = get_names(r, j, "params", &w->param_names, &w->nparams);
	if (!rc)
		rc = get_names(r, j, "problem", &w->problem_names,
		               &w->nproblems);
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(j, "shapes");
	if (!rc && !cJSON_IsArray(s))
		rc = bad(r, "shapes", "is missing or not an array");
	if (rc)
		return rc;
	size_t n = (size_t)cJSON_GetArraySize(s);
	if (!(w->shapes = kt_calloc(n + 1, sizeof(kt_wisdom_shape))))
		return kt_error(KT_ENOMEM, "out of memory");
	const cJSON *e;
	cJSON_ArrayForEach(e, s)
	{
		w->nshapes++;
		if ((rc = get_shape(r, e, w->nshapes - 1)))
			return rc;
	}
	return 0;
}

int kt_wisdom_parse(kt_wisdom **out, const char *text, const char *name)
{
	*out = NULL;
	reader r = {.name = name ? name : "<input>"};
	cJSON *j = cJSON_Parse(text);
	if (!j)
		return kt_error(KT_EPARSE, "wisdom '%s': not JSON", r.name);
	if (!(r.w = kt_calloc(1, sizeof(kt_wisdom)))) {
		cJSON_Delete(j);
		return kt_error(KT_ENOMEM, "out of memory");
	}
	int rc = cJSON_IsObject(j) ? read_wisdom(&r, j)
	                           : bad(&r, "the document", "is no object");
	cJSON_Delete(j);
	if (rc) {
		kt_wisdom_free(r.w);
		return rc;
	}
	*out = r.w;
	return 0;
}

int kt_wisdom_load(kt_wisdom **out, const char *path)
{
	char *text = NULL;
	*out = NULL;
	int rc = kt_fs_read(&text, NULL, path);
	if (!rc)
		rc = kt_wisdom_parse(out, text, path);
	kt_free(text);
	return rc;
}

/* ---- choosing a shape ---------------------------------------------- */

const char *kt_wisdom_match_name(kt_wisdom_match m)
{
	switch (m) {
	case KT_WISDOM_EXACT: return "exact";
	case KT_WISDOM_NEAREST: return "nearest";
	case KT_WISDOM_DEFAULT: return "default";
	}
	return "unknown";
}

static double log2_at_least_1(double x)
{
	return log2(x < 1 ? 1 : x);
}

double kt_wisdom_distance(const kt_value *a, const kt_value *b, size_t n)
{
	double d = 0;
	for (size_t i = 0; i < n; i++)
		d += fabs(log2_at_least_1(kt_value_as_double(a[i])) -
		          log2_at_least_1(kt_value_as_double(b[i])));
	return d;
}

/* Whether shape a is smaller than shape b: the first value that differs. */
static bool smaller(const kt_value *a, const kt_value *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		double x = kt_value_as_double(a[i]),
		       y = kt_value_as_double(b[i]);
		if (x != y)
			return x < y;
	}
	return false;
}

kt_wisdom_match kt_wisdom_select(const kt_wisdom *w, const char *device,
                                 const kt_value *problem, size_t *shape)
{
	*shape = SIZE_MAX;
	if (!w->nshapes || (device && strcmp(device, w->device)))
		return KT_WISDOM_DEFAULT;
	double best = INFINITY;
	for (size_t i = 0; i < w->nshapes; i++) {
		const kt_value *p = w->shapes[i].problem;
		double d = kt_wisdom_distance(p, problem, w->nproblems);
		if (same_values(p, problem, w->nproblems)) {
			*shape = i;
			return KT_WISDOM_EXACT;
		}
		if (d < best ||
		    (d == best &&
		     smaller(p, w->shapes[*shape].problem, w->nproblems))) {
			best = d;
			*shape = i;
		}
	}
	return KT_WISDOM_NEAREST;
}
