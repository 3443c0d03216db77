/*
 * results_impl.h - what results.c, cache.c and t4.c share: the JSON shape of
 * values, devices and problems, and growing a kt_results. Internal; the
 * public side is ktc/results.h.
 */
#ifndef KTC_TUNER_RESULTS_IMPL_H
#define KTC_TUNER_RESULTS_IMPL_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "ktc/results.h"

/* Unix time in seconds, with sub-second precision. */
double kt_results_now(void);

/* A parameter or problem value as a JSON number (NULL when out of memory). */
cJSON *kt_json_from_value(kt_value v);
/* A JSON number back into a value: integral numbers become integers. */
int kt_json_to_value(const cJSON *j, kt_value *out);
/* A finite number, or JSON null for NaN and infinities. */
cJSON *kt_json_number(double d);
/* Adds kt_json_number(d) to obj as name; false when out of memory. */
bool kt_json_add_number(cJSON *obj, const char *name, double d);
/* A number member of obj, or dflt when absent or null. */
double kt_json_get_number(const cJSON *obj, const char *name, double dflt);
/* A string member of obj, or NULL. */
const char *kt_json_get_string(const cJSON *obj, const char *name);

cJSON *kt_json_from_device(const kt_device_info *d);
void kt_json_to_device(const cJSON *j, kt_device_info *d);
cJSON *kt_json_from_problem(const kt_results_info *info);
int kt_json_to_problem(const cJSON *j, kt_results_info *info);

/* A deep copy of src into dst (released first by the caller). */
int kt_results_info_copy(kt_results_info *dst, const kt_results_info *src);

/*
 * Whether a record read from a file may be believed: a correct result has a
 * positive finite time and positive finite runtimes, and a key (NULL in T4
 * files, which have none) names exactly the record's values. KT_EINVALID
 * with the reason, or 0.
 */
int kt_record_check(const kt_record *rec, const kt_results_info *info);

/* Appends rec (taking its memory) to r. */
int kt_results_push(kt_results *r, kt_record *rec);
void kt_record_release(kt_record *rec);

/* A T4 document built row by row (kt_t4_write in steps, for large files). */
cJSON *kt_t4_doc_new(void);
int kt_t4_doc_add(cJSON *doc, const kt_results_info *info,
                  const kt_t4_row *row);
/* Adds the metadata and writes doc atomically; the caller deletes doc. */
int kt_t4_doc_write(cJSON *doc, const char *path, const kt_results_info *info,
                    const char *backend);

/* Readers of each format, filling an initialised r. */
int kt_cache_parse(kt_results *r, const char *text, size_t len,
                   const char *path);
int kt_t4_parse(kt_results *r, const char *text, size_t len, const char *path);

#endif
