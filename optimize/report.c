/*
 * report.c - the loop's report as JSON: `ktc optimize --json` and the work
 * folder's summary.json (rewritten after every round, so a run killed
 * between rounds leaves what it found).
 */
#include "ktc/optimize.h"

#include <cjson/cJSON.h>
#include <string.h>

static void add_str(cJSON *o, const char *k, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

static cJSON *numbers(const double *v, size_t n)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; v && i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
	return a;
}

static cJSON *round_json(const kt_optimize_round *rd, size_t nshapes)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "round", rd->index);
	add_str(o, "refactor", rd->refactor);
	add_str(o, "param", rd->param);
	add_str(o, "why", rd->why);
	add_str(o, "template", rd->template_path);
	add_str(o, "verified", rd->verified);
	cJSON_AddBoolToObject(o, "tuned", rd->tuned);
	cJSON_AddBoolToObject(o, "kept", rd->kept);
	add_str(o, "verdict", rd->verdict);
	cJSON_AddNumberToObject(o, "set_aside_around_shapes",
	                        (double)rd->odd_set_aside);
	if (rd->odd_note)
		add_str(o, "set_aside_why", rd->odd_note);
	if (rd->tuned) {
		cJSON_AddNumberToObject(o, "geomean_ms", rd->score);
		cJSON_AddItemToObject(o, "best_ms",
		                      numbers(rd->best_ms, nshapes));
		cJSON_AddItemToObject(o, "default_ms",
		                      numbers(rd->default_ms, nshapes));
		cJSON *k = cJSON_AddArrayToObject(o, "best");
		for (size_t s = 0; s < nshapes; s++)
			cJSON_AddItemToArray(
			    k, cJSON_CreateString(rd->best_key[s]));
		/* configurations with the round's parameter off its default,
		 * and those of them that passed every check */
		cJSON_AddNumberToObject(o, "off_default",
		                        (double)rd->new_tried);
		cJSON_AddNumberToObject(o, "off_default_passed",
		                        (double)rd->new_ok);
	}
	return o;
}

int kt_optimize_report_json(char **out, const kt_optimize_report *r)
{
	*out = NULL;
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return kt_error(KT_ENOMEM, "out of memory");
	cJSON_AddNumberToObject(o, "ktc_optimize", 1);
	add_str(o, "kernel", r->kernel);
	cJSON *dev = cJSON_AddObjectToObject(o, "device");
	add_str(dev, "name", r->device.name);
	add_str(dev, "backend", r->device.backend);
	cJSON_AddNumberToObject(dev, "copy_gbs", r->device.copy_gbs);
	cJSON_AddNumberToObject(o, "launch_floor_ms", r->floor_ms);
	cJSON_AddBoolToObject(o, "special_inputs_checked", r->specials);
	if (r->specials_note)
		add_str(o, "special_inputs", r->specials_note);
	cJSON *sh = cJSON_AddArrayToObject(o, "shapes");
	for (size_t s = 0; s < r->nshapes; s++)
		cJSON_AddItemToArray(sh, cJSON_CreateString(r->shapes[s]));
	cJSON_AddItemToObject(o, "bytes", numbers(r->bytes, r->nshapes));
	cJSON_AddItemToObject(o, "speed_of_light_ms",
	                      numbers(r->sol_ms, r->nshapes));
	cJSON_AddItemToObject(o, "original_ms",
	                      numbers(r->original_ms, r->nshapes));
	/* round 0's best configuration's counters (--profile; -1: not
	 * measured) */
	cJSON *cn = cJSON_AddObjectToObject(o, "counters");
	cJSON_AddItemToObject(cn, "dram_bytes",
	                      numbers(r->dram_bytes, r->nshapes));
	cJSON_AddItemToObject(cn, "achieved_occupancy_pct",
	                      numbers(r->occupancy_pct, r->nshapes));
	cJSON_AddItemToObject(cn, "sm_throughput_pct",
	                      numbers(r->sm_pct, r->nshapes));
	double *same = kt_calloc(r->nshapes ? r->nshapes : 1, sizeof(double));
	for (size_t s = 0; same && s < r->nshapes; s++)
		same[s] = kt_optimize_original_at(r, s);
	if (same) /* what the best is compared with */
		cJSON_AddItemToObject(o, "original_same_run_ms",
		                      numbers(same, r->nshapes));
	kt_free(same);
	cJSON *rs = cJSON_AddArrayToObject(o, "rounds");
	for (size_t i = 0; i < r->nrounds; i++)
		cJSON_AddItemToArray(rs, round_json(&r->rounds[i], r->nshapes));
	cJSON_AddNumberToObject(o, "kept_round", r->kept);
	add_str(o, "stop", r->stop);
	char *s = cJSON_Print(o);
	cJSON_Delete(o);
	if (!s)
		return kt_error(KT_ENOMEM, "out of memory");
	size_t n = strlen(s);
	*out = kt_malloc(n + 2);
	if (*out) {
		memcpy(*out, s, n);
		(*out)[n] = '\n';
		(*out)[n + 1] = '\0';
	}
	cJSON_free(s);
	return *out ? 0 : kt_error(KT_ENOMEM, "out of memory");
}
