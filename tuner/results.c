/*
 * results.c - what the cache and T4 files share: the description of what a
 * set of results is about (kt_results_info), the JSON shape of values,
 * devices and problems, and kt_results_load, which tells the two formats
 * apart by their first JSON value (a cache starts with a header line that
 * carries "ktc_cache"; a T4 file is one object with "schema_version").
 */
#include "tuner/results_impl.h"

#include "util/fs.h"
#include "util/num.h"
#include "util/str.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double kt_results_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

cJSON *kt_json_from_value(kt_value v)
{
	if (v.is_float)
		return kt_json_number(v.f);
	char buf[32];
	snprintf(buf, sizeof(buf), "%lld", (long long)v.i);
	return cJSON_CreateRaw(buf);
}

int kt_json_to_value(const cJSON *j, kt_value *out)
{
	if (!cJSON_IsNumber(j))
		return kt_error(KT_EINVALID, "expected a number");
	double d = j->valuedouble;
	if (d == floor(d) && fabs(d) < 9007199254740992.0)
		*out = kt_int((int64_t)d);
	else
		*out = kt_float(d);
	return 0;
}

/*
 * cJSON prints a double with 15 digits when that reads back within an
 * epsilon, which loses the last bits; a resumed run must see exactly the
 * times the interrupted one saw, so numbers are printed here with the
 * fewest digits that read back to the same double.
 */
cJSON *kt_json_number(double d)
{
	if (!isfinite(d))
		return cJSON_CreateNull();
	char buf[KT_NUM_MAX];
	kt_num_shortest(buf, sizeof(buf), d);
	return cJSON_CreateRaw(buf);
}

bool kt_json_add_number(cJSON *obj, const char *name, double d)
{
	cJSON *n = kt_json_number(d);
	if (!n || !cJSON_AddItemToObject(obj, name, n)) {
		cJSON_Delete(n);
		return false;
	}
	return true;
}

double kt_json_get_number(const cJSON *obj, const char *name, double dflt)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, name);
	return cJSON_IsNumber(j) ? j->valuedouble : dflt;
}

const char *kt_json_get_string(const cJSON *obj, const char *name)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, name);
	return cJSON_IsString(j) ? j->valuestring : NULL;
}

static void copy_str(char *dst, size_t cap, const char *src)
{
	snprintf(dst, cap, "%s", src ? src : "");
}

cJSON *kt_json_from_device(const kt_device_info *d)
{
	cJSON *j = cJSON_CreateObject();
	cJSON *c = cJSON_AddObjectToObject(j, "constants");
	if (!c)
		goto oom;
	if (!cJSON_AddStringToObject(j, "name", d->name) ||
	    !cJSON_AddStringToObject(j, "backend", d->backend) ||
	    !cJSON_AddStringToObject(j, "driver", d->driver) ||
	    !cJSON_AddStringToObject(j, "runtime", d->runtime) ||
	    !cJSON_AddStringToObject(j, "arch", d->arch) ||
	    !kt_json_add_number(j, "copy_gbs", d->copy_gbs))
		goto oom;
	for (size_t i = 0; i < kt_device_nconsts && i < 64; i++)
		if (d->has_const[i] &&
		    !cJSON_AddItemToObject(
		        c, kt_device_consts[i].name,
		        kt_json_from_value(kt_int(d->consts[i]))))
			goto oom;
	return j;
oom:
	cJSON_Delete(j);
	return NULL;
}

void kt_json_to_device(const cJSON *j, kt_device_info *d)
{
	memset(d, 0, sizeof(*d));
	if (cJSON_IsString(j)) { /* a bare device name, as some tools write */
		copy_str(d->name, sizeof(d->name), j->valuestring);
		return;
	}
	copy_str(d->name, sizeof(d->name), kt_json_get_string(j, "name"));
	copy_str(d->backend, sizeof(d->backend),
	         kt_json_get_string(j, "backend"));
	copy_str(d->driver, sizeof(d->driver), kt_json_get_string(j, "driver"));
	copy_str(d->runtime, sizeof(d->runtime),
	         kt_json_get_string(j, "runtime"));
	copy_str(d->arch, sizeof(d->arch), kt_json_get_string(j, "arch"));
	d->copy_gbs = kt_json_get_number(j, "copy_gbs", 0);
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(j, "constants");
	for (size_t i = 0; i < kt_device_nconsts && i < 64; i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(
		    c, kt_device_consts[i].name);
		if (cJSON_IsNumber(v)) {
			d->consts[i] = (int64_t)v->valuedouble;
			d->has_const[i] = true;
		}
	}
}

cJSON *kt_json_from_problem(const kt_results_info *info)
{
	cJSON *j = cJSON_CreateObject();
	for (size_t i = 0; j && i < info->nproblems; i++) {
		cJSON *v = kt_json_from_value(info->problem[i]);
		if (!v ||
		    !cJSON_AddItemToObject(j, info->problem_names[i], v)) {
			cJSON_Delete(v);
			cJSON_Delete(j);
			return NULL;
		}
	}
	return j;
}

int kt_json_to_problem(const cJSON *j, kt_results_info *info)
{
	if (!j)
		return 0;
	if (!cJSON_IsObject(j))
		return kt_error(KT_EINVALID, "'problem' is not an object");
	size_t n = (size_t)cJSON_GetArraySize(j);
	info->problem_names = kt_calloc(n ? n : 1, sizeof(char *));
	info->problem = kt_calloc(n ? n : 1, sizeof(kt_value));
	if (!info->problem_names || !info->problem)
		return kt_error(KT_ENOMEM, "out of memory");
	const cJSON *v;
	cJSON_ArrayForEach(v, j)
	{
		size_t i = info->nproblems;
		if (kt_json_to_value(v, &info->problem[i]))
			return kt_error(KT_EINVALID,
			                "problem '%s' is not a number",
			                v->string);
		if (!(info->problem_names[i] = kt_strdup(v->string)))
			return kt_error(KT_ENOMEM, "out of memory");
		info->nproblems++;
	}
	return 0;
}

static char *dup_or_null(const char *s, int *rc)
{
	if (!s)
		return NULL;
	char *d = kt_strdup(s);
	if (!d)
		*rc = kt_error(KT_ENOMEM, "out of memory");
	return d;
}

int kt_results_info_from_model(kt_results_info *info, const kt_model *m,
                               const kt_value *problem,
                               const kt_device_info *device)
{
	int rc = 0;
	memset(info, 0, sizeof(*info));
	info->ktc_version = dup_or_null(KTC_VERSION, &rc);
	info->template_path = dup_or_null(m->file, &rc);
	info->kernel = dup_or_null(m->kernel, &rc);
	if (m->source)
		info->template_hash =
		    kt_hash(KT_HASH_INIT, m->source, strlen(m->source));
	if (device)
		info->device = *device;
	info->problem_names = kt_calloc(m->nproblems + 1, sizeof(char *));
	info->problem = kt_calloc(m->nproblems + 1, sizeof(kt_value));
	info->param_names = kt_calloc(m->nparams + 1, sizeof(char *));
	if (rc || !info->problem_names || !info->problem ||
	    !info->param_names) {
		rc = kt_error(KT_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < m->nproblems && !rc; i++, info->nproblems++) {
		const kt_problem *p = &m->problems[i];
		info->problem[i] = kt_model_problem_value(m, problem, i);
		info->problem_names[i] = dup_or_null(p->name, &rc);
	}
	for (size_t i = 0; i < m->nparams && !rc; i++, info->nparams++)
		info->param_names[i] = dup_or_null(m->params[i].name, &rc);
done:
	if (rc)
		kt_results_info_release(info);
	return rc;
}

static char **copy_names(char **names, size_t n, int *rc)
{
	char **out = kt_calloc(n + 1, sizeof(char *));
	if (!out)
		*rc = kt_error(KT_ENOMEM, "out of memory");
	for (size_t i = 0; out && i < n; i++)
		out[i] = dup_or_null(names[i], rc);
	return out;
}

int kt_results_info_copy(kt_results_info *dst, const kt_results_info *src)
{
	int rc = 0;
	*dst = *src;
	dst->ktc_version = dup_or_null(src->ktc_version, &rc);
	dst->template_path = dup_or_null(src->template_path, &rc);
	dst->kernel = dup_or_null(src->kernel, &rc);
	dst->objective = dup_or_null(src->objective, &rc);
	dst->strategy = dup_or_null(src->strategy, &rc);
	dst->synthetic = dup_or_null(src->synthetic, &rc);
	dst->problem_names =
	    copy_names(src->problem_names, src->nproblems, &rc);
	dst->param_names = copy_names(src->param_names, src->nparams, &rc);
	dst->problem = kt_calloc(src->nproblems + 1, sizeof(kt_value));
	if (dst->problem && src->nproblems)
		memcpy(dst->problem, src->problem,
		       src->nproblems * sizeof(kt_value));
	else if (!dst->problem)
		rc = kt_error(KT_ENOMEM, "out of memory");
	if (rc)
		kt_results_info_release(dst);
	return rc;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; names && i < n; i++)
		kt_free(names[i]);
	kt_free(names);
}

void kt_results_info_release(kt_results_info *info)
{
	kt_free(info->ktc_version);
	kt_free(info->template_path);
	kt_free(info->kernel);
	kt_free(info->objective);
	free_names(info->problem_names, info->nproblems);
	kt_free(info->problem);
	free_names(info->param_names, info->nparams);
	kt_free(info->strategy);
	kt_free(info->synthetic);
	memset(info, 0, sizeof(*info));
}

void kt_record_release(kt_record *rec)
{
	kt_free(rec->key);
	kt_free(rec->values);
	kt_result_release(&rec->result);
	memset(rec, 0, sizeof(*rec));
}

/* Whether key is "NAME=V,NAME=V" of info's names and values, as
 * kt_space_key writes it. */
static bool key_matches(const char *key, const kt_results_info *info,
                        const kt_value *values)
{
	kt_str k = KT_STR_INIT;
	int rc = 0;
	for (size_t p = 0; !rc && p < info->nparams; p++) {
		kt_value v = values[p];
		rc = kt_str_addf(&k, "%s%s=", p ? "," : "",
		                 info->param_names[p]);
		if (!rc)
			rc = v.is_float
			         ? kt_str_addf(&k, "%.17g", v.f)
			         : kt_str_addf(&k, "%lld", (long long)v.i);
	}
	bool same = !rc && !strcmp(k.ptr, key);
	kt_str_release(&k);
	return same;
}

int kt_record_check(const kt_record *rec, const kt_results_info *info)
{
	const kt_result *r = &rec->result;
	if (rec->key && !key_matches(rec->key, info, rec->values))
		return kt_error(KT_EINVALID,
		                "the key '%s' does not name the configuration "
		                "of its values",
		                rec->key);
	if (r->status != KT_STATUS_OK)
		return 0;
	if (!isfinite(r->time_ms) || r->time_ms <= 0)
		return kt_error(KT_EINVALID,
		                "a correct result's time is %g ms, not a "
		                "positive number",
		                r->time_ms);
	for (size_t i = 0; i < r->nruntimes; i++)
		if (!isfinite(r->runtimes_ms[i]) || r->runtimes_ms[i] <= 0)
			return kt_error(KT_EINVALID,
			                "runtime %zu is %g ms, not a positive "
			                "number",
			                i, r->runtimes_ms[i]);
	return 0;
}

int kt_results_push(kt_results *r, kt_record *rec)
{
	if (r->nrecords == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 64;
		kt_record *p = kt_realloc(r->records, cap * sizeof(*p));
		if (!p)
			return kt_error(KT_ENOMEM, "out of memory");
		r->records = p;
		r->cap = cap;
	}
	r->records[r->nrecords++] = *rec;
	memset(rec, 0, sizeof(*rec));
	return 0;
}

/* The first non-blank character of text, or 0. */
static char first_char(const char *text)
{
	while (*text == ' ' || *text == '\t' || *text == '\n' || *text == '\r')
		text++;
	return *text;
}

int kt_results_load(kt_results **out, const char *path)
{
	*out = NULL;
	char *text = NULL;
	size_t len = 0;
	int rc = kt_fs_read(&text, &len, path);
	if (rc)
		return rc;
	kt_results *r = kt_calloc(1, sizeof(*r));
	if (!r) {
		rc = kt_error(KT_ENOMEM, "out of memory");
		goto done;
	}
	if (first_char(text) != '{') {
		rc =
		    kt_error(KT_EPARSE,
		             "'%s' is neither a ktc cache nor a T4 file", path);
		goto done;
	}
	/* A cache's first line is a complete object naming itself. */
	const char *nl = memchr(text, '\n', len);
	cJSON *first =
	    cJSON_ParseWithLength(text, nl ? (size_t)(nl - text) : len);
	bool is_cache =
	    first && cJSON_GetObjectItemCaseSensitive(first, "ktc_cache");
	cJSON_Delete(first);
	rc = is_cache ? kt_cache_parse(r, text, len, path)
	              : kt_t4_parse(r, text, len, path);
done:
	kt_free(text);
	if (rc)
		kt_results_free(r);
	else
		*out = r;
	return rc;
}

void kt_results_free(kt_results *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nrecords; i++)
		kt_record_release(&r->records[i]);
	kt_free(r->records);
	kt_results_info_release(&r->info);
	kt_free(r);
}

const kt_record *kt_results_best(const kt_results *r)
{
	const kt_record *best = NULL;
	for (size_t i = 0; r && i < r->nrecords; i++) {
		const kt_result *x = &r->records[i].result;
		if (x->status == KT_STATUS_OK && isfinite(x->time_ms) &&
		    (!best || x->time_ms < best->result.time_ms))
			best = &r->records[i];
	}
	return best;
}

int kt_results_config(kt_value *out, const kt_results *r, const kt_record *rec,
                      const kt_model *m)
{
	for (size_t p = 0; p < m->nparams; p++) {
		size_t k = 0;
		while (k < r->info.nparams &&
		       strcmp(r->info.param_names[k], m->params[p].name))
			k++;
		if (k == r->info.nparams)
			return kt_error(KT_EINVALID,
			                "the results have no value for "
			                "parameter '%s'",
			                m->params[p].name);
		out[p] = rec->values[k];
	}
	return 0;
}
