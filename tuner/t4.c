/*
 * t4.c - T4 result files: the autotuning community's results JSON
 * (schema_version "1.0.0"; KernelTuner's schema/T4/1.0.0/results-schema.json
 * and its writer), written by `ktc tune -o` and `ktc landscape`, and read by
 * the simulation backend.
 *
 * One choice a reader needs: every time in a T4 file is in the unit named
 * by metadata.timeunit, which ktc writes as "milliseconds" for all of them
 * (kernel runtimes and phase times alike), as KernelTuner's writer does; the
 * phase times of kt_result are seconds, so they are scaled here and nowhere
 * else. The objective is the measurement named "time".
 */
#include "tuner/results_impl.h"

#include "util/fs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- writing ---------------------------------------------------------- */

static void iso_time(char *buf, size_t cap, double t)
{
	time_t s = (time_t)floor(t);
	int ms = (int)((t - floor(t)) * 1000.0);
	struct tm tm;
	if (t <= 0 || !gmtime_r(&s, &tm)) {
		snprintf(buf, cap, "1970-01-01T00:00:00.000Z");
		return;
	}
	size_t n = strftime(buf, cap, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, cap - n, ".%03dZ", ms > 999 ? 999 : ms);
}

static cJSON *times_json(const kt_result *r)
{
	cJSON *t = cJSON_CreateObject();
	kt_json_add_number(t, "compilation", r->compile_s * 1e3);
	kt_json_add_number(t, "benchmark", r->benchmark_s * 1e3);
	kt_json_add_number(t, "framework", r->framework_s * 1e3);
	kt_json_add_number(t, "search_algorithm", r->strategy_s * 1e3);
	kt_json_add_number(t, "validation", r->verify_s * 1e3);
	cJSON *rt = cJSON_AddArrayToObject(t, "runtimes");
	for (size_t i = 0; i < r->nruntimes; i++)
		cJSON_AddItemToArray(rt, kt_json_number(r->runtimes_ms[i]));
	return t;
}

static void add_measurement(cJSON *arr, const char *name, double value,
                            const char *unit)
{
	cJSON *m = cJSON_CreateObject();
	cJSON_AddStringToObject(m, "name", name);
	cJSON_AddItemToObject(m, "value", kt_json_number(value));
	cJSON_AddStringToObject(m, "unit", unit);
	cJSON_AddItemToArray(arr, m);
}

static cJSON *row_json(const kt_results_info *info, const kt_t4_row *row)
{
	const kt_result *r = row->result;
	char ts[40];
	iso_time(ts, sizeof(ts), r->timestamp);
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "timestamp", ts);
	cJSON *config = cJSON_AddObjectToObject(j, "configuration");
	for (size_t i = 0; i < info->nparams; i++)
		cJSON_AddItemToObject(config, info->param_names[i],
		                      kt_json_from_value(row->values[i]));
	cJSON *obj = cJSON_AddArrayToObject(j, "objectives");
	cJSON_AddItemToArray(obj, cJSON_CreateString("time"));
	cJSON_AddItemToObject(j, "times", times_json(r));
	cJSON_AddStringToObject(j, "invalidity", kt_status_name(r->status));
	kt_json_add_number(j, "correctness", r->status == KT_STATUS_OK);
	cJSON *ms = cJSON_AddArrayToObject(j, "measurements");
	if (isfinite(r->time_ms))
		add_measurement(ms, "time", r->time_ms, "ms");
	if (isfinite(r->spread))
		add_measurement(ms, "spread", r->spread, "");
	for (size_t i = 0; i < r->nmeasures; i++)
		add_measurement(ms, r->measures[i].name, r->measures[i].value,
		                r->measures[i].unit);
	if (r->message)
		cJSON_AddStringToObject(j, "message", r->message);
	return j;
}

static cJSON *metadata_json(const kt_results_info *info, const char *backend)
{
	char hash[20];
	snprintf(hash, sizeof(hash), "%016llx",
	         (unsigned long long)info->template_hash);
	cJSON *m = cJSON_CreateObject();
	cJSON_AddStringToObject(m, "timeunit", "milliseconds");
	cJSON_AddStringToObject(m, "tool", "ktc");
	cJSON_AddStringToObject(m, "ktc_version", KTC_VERSION);
	cJSON_AddStringToObject(m, "backend", backend ? backend : "");
	cJSON_AddItemToObject(m, "device", kt_json_from_device(&info->device));
	cJSON_AddStringToObject(m, "template",
	                        info->template_path ? info->template_path : "");
	cJSON_AddStringToObject(m, "template_hash", hash);
	cJSON_AddStringToObject(m, "kernel", info->kernel ? info->kernel : "");
	cJSON_AddItemToObject(m, "problem", kt_json_from_problem(info));
	if (info->objective)
		cJSON_AddStringToObject(m, "objective", info->objective);
	if (info->strategy)
		cJSON_AddStringToObject(m, "strategy", info->strategy);
	char seed[24];
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)info->seed);
	cJSON_AddItemToObject(m, "seed", cJSON_CreateRaw(seed));
	/* a landscape's device says so, also when tuning on it with sim */
	const char *synthetic = info->synthetic ? info->synthetic
	                        : !strcmp(info->device.driver, "synthetic")
	                            ? info->device.runtime
	                            : NULL;
	if (synthetic) {
		cJSON *s = cJSON_AddObjectToObject(m, "synthetic");
		cJSON_AddStringToObject(s, "kind", synthetic);
		cJSON_AddStringToObject(
		    s, "note",
		    "synthetic landscape: every time in this file comes from a "
		    "formula (ktc landscape, docs/tuning.md), not from running "
		    "a "
		    "kernel; use it to compare search strategies, never as a "
		    "measurement");
	}
	return m;
}

cJSON *kt_t4_doc_new(void)
{
	cJSON *doc = cJSON_CreateObject();
	if (!cJSON_AddStringToObject(doc, "schema_version", "1.0.0") ||
	    !cJSON_AddArrayToObject(doc, "results")) {
		cJSON_Delete(doc);
		return NULL;
	}
	return doc;
}

int kt_t4_doc_add(cJSON *doc, const kt_results_info *info, const kt_t4_row *row)
{
	cJSON *j = row_json(info, row);
	if (!j ||
	    !cJSON_AddItemToArray(cJSON_GetObjectItem(doc, "results"), j)) {
		cJSON_Delete(j);
		return kt_error(KT_ENOMEM, "out of memory");
	}
	return 0;
}

int kt_t4_doc_write(cJSON *doc, const char *path, const kt_results_info *info,
                    const char *backend)
{
	cJSON_AddItemToObject(doc, "metadata", metadata_json(info, backend));
	char *text = cJSON_Print(doc);
	if (!text)
		return kt_error(KT_ENOMEM, "out of memory writing '%s'", path);
	int rc = kt_fs_write_atomic(path, text, strlen(text));
	cJSON_free(text);
	return rc;
}

int kt_t4_write(const char *path, const kt_results_info *info,
                const char *backend, const kt_t4_row *rows, size_t n)
{
	cJSON *doc = kt_t4_doc_new();
	int rc = doc ? 0 : kt_error(KT_ENOMEM, "out of memory");
	for (size_t i = 0; !rc && i < n; i++)
		rc = kt_t4_doc_add(doc, info, &rows[i]);
	if (!rc)
		rc = kt_t4_doc_write(doc, path, info, backend);
	cJSON_Delete(doc);
	return rc;
}

/* ---- reading ---------------------------------------------------------- */

/* Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm). */
static long days_from_civil(long y, long m, long d)
{
	y -= m <= 2;
	long era = (y >= 0 ? y : y - 399) / 400;
	long yoe = y - era * 400;
	long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* "2025-01-31T12:00:00.123Z" (or with +00:00, or none) to unix seconds. */
static double parse_iso_time(const char *s)
{
	int y, mo, d, h, mi;
	double sec;
	if (!s ||
	    sscanf(s, "%d-%d-%dT%d:%d:%lf", &y, &mo, &d, &h, &mi, &sec) != 6)
		return 0;
	return (double)days_from_civil(y, mo, d) * 86400.0 + h * 3600.0 +
	       mi * 60.0 + sec;
}

/* Milliseconds per unit of metadata.timeunit. */
static double unit_to_ms(const char *unit)
{
	if (!unit || !strcmp(unit, "milliseconds") || !strcmp(unit, "ms"))
		return 1;
	if (!strcmp(unit, "seconds") || !strcmp(unit, "s"))
		return 1e3;
	if (!strcmp(unit, "microseconds") || !strcmp(unit, "us"))
		return 1e-3;
	return 1;
}

static int names_from(kt_results_info *info, const cJSON *config)
{
	if (!cJSON_IsObject(config)) /* a list has no names */
		return kt_error(KT_EINVALID, "a result has no 'configuration'");
	size_t n = (size_t)cJSON_GetArraySize(config);
	if (!(info->param_names = kt_calloc(n + 1, sizeof(char *))))
		return kt_error(KT_ENOMEM, "out of memory");
	const cJSON *v;
	cJSON_ArrayForEach(v, config)
	{
		if (!(info->param_names[info->nparams++] =
		          kt_strdup(v->string)))
			return kt_error(KT_ENOMEM, "out of memory");
	}
	return 0;
}

static int read_measurements(kt_result *r, const cJSON *arr, double tu)
{
	const cJSON *m;
	cJSON_ArrayForEach(m, arr)
	{
		const char *name = kt_json_get_string(m, "name");
		const char *unit = kt_json_get_string(m, "unit");
		double v = kt_json_get_number(m, "value", NAN);
		if (!name)
			continue;
		if (!strcmp(name, "time")) {
			r->time_ms = v * (unit ? unit_to_ms(unit) : tu);
		} else if (!strcmp(name, "spread")) {
			r->spread = v;
		} else {
			int rc = kt_result_add_measure(r, name, v, unit);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static int read_times(kt_result *r, const cJSON *t, double tu)
{
	double s = tu * 1e-3; /* file unit to seconds */
	r->compile_s =
	    kt_json_get_number(t, "compilation",
	                       kt_json_get_number(t, "compilation_time", 0)) *
	    s;
	r->benchmark_s = kt_json_get_number(t, "benchmark", 0) * s;
	r->framework_s = kt_json_get_number(t, "framework", 0) * s;
	r->strategy_s = kt_json_get_number(t, "search_algorithm", 0) * s;
	r->verify_s = kt_json_get_number(t, "validation", 0) * s;
	const cJSON *rt = cJSON_GetObjectItemCaseSensitive(t, "runtimes");
	size_t n = (size_t)cJSON_GetArraySize(rt);
	if (!cJSON_IsArray(rt) || n == 0)
		return 0;
	if (!(r->runtimes_ms = kt_malloc(n * sizeof(double))))
		return kt_error(KT_ENOMEM, "out of memory");
	const cJSON *v;
	cJSON_ArrayForEach(v, rt) r->runtimes_ms[r->nruntimes++] =
	    cJSON_IsNumber(v) ? v->valuedouble * tu : NAN;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* A result without a "time" measurement: the median of its runtimes. */
static double median_ms(const kt_result *r)
{
	if (!r->nruntimes)
		return NAN;
	double *tmp = kt_malloc(r->nruntimes * sizeof(double));
	if (!tmp)
		return NAN;
	memcpy(tmp, r->runtimes_ms, r->nruntimes * sizeof(double));
	qsort(tmp, r->nruntimes, sizeof(double), cmp_double);
	size_t n = r->nruntimes;
	double m = n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
	kt_free(tmp);
	return m;
}

static int read_row(kt_record *rec, const cJSON *row,
                    const kt_results_info *info, double tu)
{
	const cJSON *config =
	    cJSON_GetObjectItemCaseSensitive(row, "configuration");
	const char *inv = kt_json_get_string(row, "invalidity");
	int st = kt_status_parse(inv ? inv : "correct");
	if (!cJSON_IsObject(config))
		return kt_error(KT_EINVALID, "a result has no 'configuration'");
	if (st < 0)
		return kt_error(KT_EINVALID, "unknown invalidity '%s'", inv);
	if ((size_t)cJSON_GetArraySize(config) != info->nparams)
		return kt_error(KT_EINVALID,
		                "results configure different parameters");
	kt_result *r = &rec->result;
	r->status = (kt_status)st;
	r->timestamp = parse_iso_time(kt_json_get_string(row, "timestamp"));
	const char *msg = kt_json_get_string(row, "message");
	if ((msg && !(r->message = kt_strdup(msg))) ||
	    !(rec->values = kt_calloc(info->nparams + 1, sizeof(kt_value))))
		return kt_error(KT_ENOMEM, "out of memory");
	for (size_t i = 0; i < info->nparams; i++)
		if (kt_json_to_value(cJSON_GetObjectItemCaseSensitive(
		                         config, info->param_names[i]),
		                     &rec->values[i]))
			return kt_error(
			    KT_EINVALID,
			    "parameter '%s' missing or not a number",
			    info->param_names[i]);
	int rc =
	    read_times(r, cJSON_GetObjectItemCaseSensitive(row, "times"), tu);
	if (!rc)
		rc = read_measurements(
		    r, cJSON_GetObjectItemCaseSensitive(row, "measurements"),
		    tu);
	if (!rc && isnan(r->time_ms) && st == KT_STATUS_OK)
		r->time_ms = median_ms(r);
	return rc;
}

static int read_metadata(kt_results_info *info, const cJSON *m)
{
	const char *s;
	if ((s = kt_json_get_string(m, "kernel")) &&
	    !(info->kernel = kt_strdup(s)))
		return kt_error(KT_ENOMEM, "out of memory");
	if ((s = kt_json_get_string(m, "template")) &&
	    !(info->template_path = kt_strdup(s)))
		return kt_error(KT_ENOMEM, "out of memory");
	if ((s = kt_json_get_string(m, "ktc_version")) &&
	    !(info->ktc_version = kt_strdup(s)))
		return kt_error(KT_ENOMEM, "out of memory");
	if ((s = kt_json_get_string(m, "strategy")) &&
	    !(info->strategy = kt_strdup(s)))
		return kt_error(KT_ENOMEM, "out of memory");
	if ((s = kt_json_get_string(m, "template_hash")))
		sscanf(s, "%16llx", (unsigned long long *)&info->template_hash);
	/* a seed no ktc wrote (negative, past uint64_t) reads as 0, never as
	 * an out-of-range conversion */
	double seed = kt_json_get_number(m, "seed", 0);
	info->seed = seed >= 0 && seed < 0x1p64 ? (uint64_t)seed : 0;
	const cJSON *syn = cJSON_GetObjectItemCaseSensitive(m, "synthetic");
	if ((s = kt_json_get_string(syn, "kind")) &&
	    !(info->synthetic = kt_strdup(s)))
		return kt_error(KT_ENOMEM, "out of memory");
	kt_json_to_device(cJSON_GetObjectItemCaseSensitive(m, "device"),
	                  &info->device);
	return kt_json_to_problem(
	    cJSON_GetObjectItemCaseSensitive(m, "problem"), info);
}

static int read_results(kt_results *r, const cJSON *results, double tu,
                        const char *path)
{
	size_t i = 0;
	const cJSON *row;
	cJSON_ArrayForEach(row, results)
	{
		kt_record rec = {0};
		kt_result_init(&rec.result);
		int rc = 0;
		if (i == 0)
			rc = names_from(&r->info,
			                cJSON_GetObjectItemCaseSensitive(
			                    row, "configuration"));
		if (!rc)
			rc = read_row(&rec, row, &r->info, tu);
		if (!rc)
			rc = kt_record_check(&rec, &r->info);
		if (rc)
			rc = kt_error(rc, "'%s' result %zu: %s", path, i,
			              kt_error_last());
		else
			rc = kt_results_push(r, &rec);
		kt_record_release(&rec);
		if (rc)
			return rc;
		i++;
	}
	return 0;
}

int kt_t4_parse(kt_results *r, const char *text, size_t len, const char *path)
{
	r->format = KT_RESULTS_T4;
	cJSON *doc = cJSON_ParseWithLength(text, len);
	int rc = 0;
	if (!doc) {
		rc = kt_error(KT_EPARSE, "'%s' is not valid JSON", path);
		goto done;
	}
	const cJSON *results = cJSON_GetObjectItemCaseSensitive(doc, "results");
	const cJSON *meta = cJSON_GetObjectItemCaseSensitive(doc, "metadata");
	if (!kt_json_get_string(doc, "schema_version") ||
	    !cJSON_IsArray(results)) {
		rc = kt_error(
		    KT_EPARSE,
		    "'%s' is not a T4 file (no schema_version and results)",
		    path);
		goto done;
	}
	double tu = unit_to_ms(kt_json_get_string(meta, "timeunit"));
	if ((rc = read_metadata(&r->info, meta))) {
		rc = kt_error(rc, "'%s' metadata: %s", path, kt_error_last());
		goto done;
	}
	rc = read_results(r, results, tu, path);
done:
	cJSON_Delete(doc);
	return rc;
}
