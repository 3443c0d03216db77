/*
 * cmd_space.c - `ktc space FILE`: what a template's pragmas say, and the
 * size of each kernel's constrained search space.
 *
 * One design choice: `--brute-force` counts the raw product here, with
 * nothing but kt_model_bind-style slot filling and kt_expr_eval, and never
 * through tuner/space.c, so it is an independent check of the space's
 * count (bench/space.sh relies on that).
 */
#include "cli/args.h"
#include "cli/cmd.h"

#include "ktc/model.h"
#include "ktc/space.h"
#include "util/opt.h"
#include "util/str.h"

#include <cjson/cJSON.h>

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { MAX_OVERRIDES = 64, MAX_SHOWN_VALUES = 12 };

typedef struct options {
	const char *kernel;
	const char *problem[MAX_OVERRIDES];
	int nproblem;
	const char *device[MAX_OVERRIDES];
	int ndevice;
	const char *list; /* NULL: no list; "all" or a count */
	long space_limit;
	bool json, brute;
} options;

/* One kernel's space, and how it was made. */
typedef struct report {
	const kt_model *m;
	kt_value *problem, *device; /* nproblems, ndevices values */
	bool *problem_given, *device_given;
	kt_space *s;
	double build_ms;
	bool brute_done;
	uint64_t brute_count;
	double brute_ms;
} report;

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static bool known_device(const char *name)
{
	return kt_device_const_index(name) >= 0;
}

/* Sets NAME (len bytes of text) to v in every kernel that has it. */
static bool set_named(report *r, size_t n, const char *text, size_t len,
                      kt_value v, bool device)
{
	bool used = false;
	for (size_t i = 0; i < n; i++) {
		const kt_model *m = r[i].m;
		size_t cnt = device ? m->ndevices : m->nproblems;
		for (size_t j = 0; j < cnt; j++) {
			const char *name =
			    device ? m->devices[j].name : m->problems[j].name;
			if (strlen(name) != len || strncmp(name, text, len))
				continue;
			(device ? r[i].device : r[i].problem)[j] = v;
			(device ? r[i].device_given : r[i].problem_given)[j] =
			    true;
			used = true;
		}
	}
	return used;
}

/*
 * Applies NAME=V overrides to every selected kernel that has NAME. Returns
 * -1 (after a message) for malformed text, an unknown DEVICE_* name, or a
 * problem variable no selected kernel has. A known DEVICE_* constant that a
 * kernel does not use is fine: several kernels may share one --device.
 */
static int apply_overrides(report *r, size_t n, const char *const *ov, int nov,
                           bool device)
{
	for (int k = 0; k < nov; k++) {
		const char *eq = strchr(ov[k], '=');
		int len = eq ? (int)(eq - ov[k]) : 0;
		kt_value v;
		if (!eq || !len || cli_parse_number(eq + 1, &v)) {
			fprintf(stderr,
			        "ktc space: expected NAME=NUMBER, not '%s'\n",
			        ov[k]);
			return -1;
		}
		bool used = set_named(r, n, ov[k], (size_t)len, v, device);
		char *name = kt_strndup(ov[k], (size_t)len);
		bool known = device && name && known_device(name);
		if (device && !known)
			fprintf(stderr,
			        "ktc space: unknown device constant '%.*s'\n",
			        len, ov[k]);
		else if (!device && !used)
			fprintf(stderr,
			        "ktc space: no problem variable '%.*s' in %s\n",
			        len, ov[k],
			        n == 1 ? "this kernel" : "any kernel");
		kt_free(name);
		if (device ? !known : !used)
			return -1;
	}
	return 0;
}

static int init_report(report *r, const kt_model *m)
{
	memset(r, 0, sizeof(*r));
	r->m = m;
	r->problem = kt_calloc(m->nproblems + 1, sizeof(kt_value));
	r->device = kt_calloc(m->ndevices + 1, sizeof(kt_value));
	r->problem_given = kt_calloc(m->nproblems + 1, sizeof(bool));
	r->device_given = kt_calloc(m->ndevices + 1, sizeof(bool));
	if (!r->problem || !r->device || !r->problem_given || !r->device_given)
		return -1;
	for (size_t i = 0; i < m->nproblems; i++)
		r->problem[i] =
		    m->problems[i].values[m->problems[i].default_index];
	for (size_t i = 0; i < m->ndevices; i++)
		r->device[i] = m->devices[i].fallback;
	return 0;
}

static void release_report(report *r)
{
	kt_space_free(r->s);
	kt_free(r->problem);
	kt_free(r->device);
	kt_free(r->problem_given);
	kt_free(r->device_given);
}

/* ---- brute force: every raw configuration, no tuner/space.c ---- */

static bool reads_failed_set(const kt_model *m, const kt_expr *e,
                             const bool *failed)
{
	if (e->kind == KT_EXPR_SYMBOL && e->sym >= 0 &&
	    m->symbols[e->sym].kind == KT_SYM_SET &&
	    failed[m->symbols[e->sym].index])
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (reads_failed_set(m, e->args[i], failed))
			return true;
	return false;
}

/*
 * A configuration is valid when every constraint evaluates to non-zero; a
 * constraint that cannot be evaluated, or that reads a derived value that
 * cannot, does not hold (the rule docs/space.md states).
 */
static bool brute_valid(const kt_model *m, kt_value *slots, bool *failed)
{
	for (size_t i = 0; i < m->nsets; i++)
		failed[i] = reads_failed_set(m, m->sets[i].expr, failed) ||
		            kt_expr_eval(&slots[m->sets[i].sym],
		                         m->sets[i].expr, slots);
	for (size_t c = 0; c < m->nconstraints; c++) {
		const kt_expr *e = m->constraints[c].expr;
		kt_value v;
		if (reads_failed_set(m, e, failed) ||
		    kt_expr_eval(&v, e, slots) ||
		    (v.is_float ? v.f == 0.0 : v.i == 0))
			return false;
	}
	return true;
}

static int brute_force(report *r)
{
	const kt_model *m = r->m;
	kt_value *slots = kt_calloc(m->nsymbols + 1, sizeof(kt_value));
	bool *failed = kt_calloc(m->nsets + 1, sizeof(bool));
	uint32_t *idx = kt_calloc(m->nparams + 1, sizeof(uint32_t));
	double t0 = now_ms();
	bool more = slots && failed && idx;
	for (size_t p = 0; p < m->nparams; p++)
		more &= m->params[p].nvalues > 0;
	for (size_t i = 0; i < m->nproblems; i++)
		if (slots)
			slots[m->problems[i].sym] = r->problem[i];
	for (size_t i = 0; i < m->ndevices; i++)
		if (slots)
			slots[m->devices[i].sym] = r->device[i];
	r->brute_count = 0;
	while (more && !stop_requested) {
		for (size_t p = 0; p < m->nparams; p++)
			slots[m->params[p].sym] = m->params[p].values[idx[p]];
		r->brute_count += brute_valid(m, slots, failed);
		more = false;
		for (size_t p = m->nparams; p-- > 0 && !more;) {
			more = ++idx[p] < m->params[p].nvalues;
			if (!more)
				idx[p] = 0;
		}
	}
	r->brute_ms = now_ms() - t0;
	r->brute_done = slots && failed && idx && !stop_requested;
	if (stop_requested)
		fprintf(stderr,
		        "ktc space: --brute-force interrupted after %llu valid "
		        "configurations\n",
		        (unsigned long long)r->brute_count);
	kt_free(slots);
	kt_free(failed);
	kt_free(idx);
	return r->brute_done ? 0 : -1;
}

/* ---- text output ---- */

static void value_text(kt_str *s, kt_value v)
{
	if (v.is_float)
		kt_str_addf(s, "%.17g", v.f);
	else
		kt_str_addf(s, "%lld", (long long)v.i);
}

static void print_value(FILE *out, kt_value v)
{
	kt_str s = KT_STR_INIT;
	value_text(&s, v);
	fputs(s.ptr, out);
	kt_str_release(&s);
}

/* "1, 2, 4, ..., 512" when there are more values than fit a line. */
static void domain_text(kt_str *s, const kt_value *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (n > MAX_SHOWN_VALUES && i == MAX_SHOWN_VALUES - 3) {
			kt_str_adds(s, ", ...");
			i = n - 3;
		}
		kt_str_adds(s, i ? ", " : "");
		value_text(s, v[i]);
	}
}

static int name_width(const kt_model *m)
{
	size_t w = 4;
	for (size_t p = 0; p < m->nparams; p++)
		if (strlen(m->params[p].name) > w)
			w = strlen(m->params[p].name);
	return (int)w;
}

static void print_params(FILE *out, const kt_model *m)
{
	int w = name_width(m), dw = 0;
	kt_str *dom = kt_calloc(m->nparams + 1, sizeof(kt_str));
	if (!dom)
		return;
	for (size_t p = 0; p < m->nparams; p++) {
		kt_str_init(&dom[p], 0);
		domain_text(&dom[p], m->params[p].values, m->params[p].nvalues);
		if ((int)dom[p].len > dw)
			dw = (int)dom[p].len;
	}
	fprintf(out, "parameters (%zu):\n", m->nparams);
	for (size_t p = 0; p < m->nparams; p++) {
		const kt_param *pa = &m->params[p];
		fprintf(out, "  %-*s  %-*s  %zu value%s, default ", w, pa->name,
		        dw, dom[p].ptr, pa->nvalues,
		        pa->nvalues == 1 ? "" : "s");
		if (pa->default_index < pa->nvalues)
			print_value(out, pa->values[pa->default_index]);
		fputc('\n', out);
		kt_str_release(&dom[p]);
	}
	kt_free(dom);
}

/* Derived values, with their value at the default configuration. */
static void print_sets(FILE *out, const report *r)
{
	const kt_model *m = r->m;
	if (!m->nsets)
		return;
	kt_value *slots = kt_calloc(m->nsymbols + 1, sizeof(kt_value));
	uint32_t *idx = kt_calloc(m->nparams + 1, sizeof(uint32_t));
	int rc = slots && idx ? 0 : -1;
	if (!rc) {
		kt_model_default_config(m, idx);
		rc = kt_model_bind(slots, m, idx, r->problem, r->device);
	}
	fprintf(out, "derived values (%zu):\n", m->nsets);
	for (size_t i = 0; i < m->nsets; i++) {
		char *s = NULL;
		kt_expr_format(&s, m->sets[i].expr, m);
		fprintf(out, "  %s = %s", m->sets[i].name, s ? s : "");
		if (!rc) {
			fputs("  (", out);
			print_value(out, slots[m->sets[i].sym]);
			fputs(" at the default)", out);
		}
		fputc('\n', out);
		kt_free(s);
	}
	if (rc && slots && idx)
		fprintf(out, "  (at the default: %s)\n", kt_error_last());
	kt_free(slots);
	kt_free(idx);
}

static void print_inputs(FILE *out, const report *r)
{
	const kt_model *m = r->m;
	if (m->nproblems)
		fprintf(out, "problem (%zu):\n", m->nproblems);
	for (size_t i = 0; i < m->nproblems; i++) {
		const kt_problem *pr = &m->problems[i];
		kt_str s = KT_STR_INIT;
		domain_text(&s, pr->values, pr->nvalues);
		fprintf(out, "  %s = ", pr->name);
		print_value(out, r->problem[i]);
		fprintf(out, "  (%s; declared: %s)\n",
		        r->problem_given[i] ? "--problem" : "default", s.ptr);
		kt_str_release(&s);
	}
	if (m->ndevices)
		fprintf(out, "device constants (%zu):\n", m->ndevices);
	for (size_t i = 0; i < m->ndevices; i++) {
		fprintf(out, "  %s = ", m->devices[i].name);
		print_value(out, r->device[i]);
		fprintf(out, "  (%s)\n",
		        r->device_given[i] ? "--device" : "fallback");
	}
}

static void print_groups(FILE *out, const report *r)
{
	const kt_model *m = r->m;
	size_t ng = kt_space_ngroups(r->s);
	fprintf(out, "groups (%zu; parameters in the order they are bound):\n",
	        ng);
	for (size_t g = 0; g < ng; g++) {
		const int *params;
		uint64_t tuples;
		size_t n = kt_space_group(r->s, g, &params, &tuples);
		double raw = 1;
		fprintf(out, "  %zu: ", g + 1);
		for (size_t k = 0; k < n; k++) {
			fprintf(out, "%s%s", k ? ", " : "",
			        m->params[params[k]].name);
			raw *= (double)m->params[params[k]].nvalues;
		}
		fprintf(out, "  (%llu of %.0f valid)\n",
		        (unsigned long long)tuples, raw);
	}
}

static void print_summary(FILE *out, const report *r)
{
	double raw = kt_space_raw_size(r->s);
	uint64_t count = kt_space_count(r->s);
	int64_t def = kt_space_default_index(r->s);
	fprintf(out, "raw product:           %.0f\n", raw);
	fprintf(out, "valid configurations:  %llu", (unsigned long long)count);
	if (raw > 0)
		fprintf(out, " (%.3g%% of the raw product)",
		        100.0 * (double)count / raw);
	fprintf(out, "\ndefault configuration: ");
	if (def >= 0)
		fprintf(out, "valid (index %lld)\n", (long long)def);
	else
		fprintf(out, "not valid\n");
	fprintf(out, "build time:            %.3f ms\n", r->build_ms);
	if (r->brute_done)
		fprintf(out,
		        "brute force:           %llu valid (%.1f ms): %s\n",
		        (unsigned long long)r->brute_count, r->brute_ms,
		        r->brute_count == count ? "matches" : "DIFFERS");
}

/* The first n configurations (all when n < 0), one key per line. */
static void print_list(FILE *out, const report *r, long n)
{
	uint64_t count = kt_space_count(r->s);
	uint64_t shown = n < 0 || (uint64_t)n > count ? count : (uint64_t)n;
	uint32_t *idx = kt_calloc(r->m->nparams + 1, sizeof(uint32_t));
	fprintf(out, "configurations (%llu of %llu):\n",
	        (unsigned long long)shown, (unsigned long long)count);
	for (uint64_t i = 0; idx && i < shown; i++) {
		char *key =
		    kt_space_get(r->s, i, idx) ? NULL : kt_space_key(r->s, idx);
		fprintf(out, "  %llu  %s\n", (unsigned long long)i,
		        key ? key : "?");
		kt_free(key);
	}
	kt_free(idx);
}

static void print_text(FILE *out, const report *r, long list)
{
	const kt_model *m = r->m;
	fprintf(out, "kernel %s (%s:%d)\n", m->kernel, m->file,
	        m->kernel_loc.line);
	print_params(out, m);
	print_sets(out, r);
	print_inputs(out, r);
	if (m->nconstraints)
		fprintf(out, "constraints (%zu):\n", m->nconstraints);
	for (size_t c = 0; c < m->nconstraints; c++)
		fprintf(out, "  %s\n", m->constraints[c].text);
	print_groups(out, r);
	print_summary(out, r);
	if (list)
		print_list(out, r, list);
}

/* ---- JSON output ---- */

static cJSON *value_json(kt_value v)
{
	if (v.is_float)
		return cJSON_CreateNumber(v.f);
	char buf[32];
	snprintf(buf, sizeof(buf), "%lld", (long long)v.i);
	return cJSON_CreateRaw(buf); /* exact beyond 2^53 */
}

static cJSON *params_json(const kt_model *m)
{
	cJSON *arr = cJSON_CreateArray();
	for (size_t p = 0; p < m->nparams; p++) {
		const kt_param *pa = &m->params[p];
		cJSON *o = cJSON_CreateObject(), *vals = cJSON_CreateArray();
		cJSON_AddStringToObject(o, "name", pa->name);
		for (size_t i = 0; i < pa->nvalues; i++)
			cJSON_AddItemToArray(vals, value_json(pa->values[i]));
		cJSON_AddItemToObject(o, "values", vals);
		if (pa->default_index < pa->nvalues)
			cJSON_AddItemToObject(
			    o, "default",
			    value_json(pa->values[pa->default_index]));
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

static cJSON *inputs_json(const report *r, bool device)
{
	const kt_model *m = r->m;
	cJSON *o = cJSON_CreateObject();
	size_t n = device ? m->ndevices : m->nproblems;
	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToObject(
		    o, device ? m->devices[i].name : m->problems[i].name,
		    value_json(device ? r->device[i] : r->problem[i]));
	return o;
}

static cJSON *model_json(const report *r)
{
	const kt_model *m = r->m;
	cJSON *o = cJSON_CreateObject(), *sets = cJSON_CreateArray();
	cJSON *cons = cJSON_CreateArray();
	cJSON_AddStringToObject(o, "kernel", m->kernel);
	cJSON_AddNumberToObject(o, "line", m->kernel_loc.line);
	cJSON_AddItemToObject(o, "parameters", params_json(m));
	for (size_t i = 0; i < m->nsets; i++) {
		char *s = NULL;
		cJSON *d = cJSON_CreateObject();
		kt_expr_format(&s, m->sets[i].expr, m);
		cJSON_AddStringToObject(d, "name", m->sets[i].name);
		cJSON_AddStringToObject(d, "expr", s ? s : "");
		cJSON_AddItemToArray(sets, d);
		kt_free(s);
	}
	cJSON_AddItemToObject(o, "derived", sets);
	cJSON_AddItemToObject(o, "problem", inputs_json(r, false));
	cJSON_AddItemToObject(o, "device", inputs_json(r, true));
	for (size_t c = 0; c < m->nconstraints; c++)
		cJSON_AddItemToArray(
		    cons, cJSON_CreateString(m->constraints[c].text));
	cJSON_AddItemToObject(o, "constraints", cons);
	return o;
}

static cJSON *groups_json(const report *r)
{
	cJSON *arr = cJSON_CreateArray();
	for (size_t g = 0; g < kt_space_ngroups(r->s); g++) {
		const int *params;
		uint64_t tuples;
		size_t n = kt_space_group(r->s, g, &params, &tuples);
		cJSON *o = cJSON_CreateObject(), *names = cJSON_CreateArray();
		for (size_t k = 0; k < n; k++)
			cJSON_AddItemToArray(
			    names,
			    cJSON_CreateString(r->m->params[params[k]].name));
		cJSON_AddItemToObject(o, "parameters", names);
		cJSON_AddItemToObject(o, "valid",
		                      value_json(kt_int((int64_t)tuples)));
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

static cJSON *space_json(const report *r, long list)
{
	cJSON *o = model_json(r);
	int64_t def = kt_space_default_index(r->s);
	uint64_t count = kt_space_count(r->s);
	cJSON_AddItemToObject(o, "groups", groups_json(r));
	cJSON_AddNumberToObject(o, "raw_size", kt_space_raw_size(r->s));
	cJSON_AddItemToObject(o, "count", value_json(kt_int((int64_t)count)));
	cJSON_AddItemToObject(o, "default_index",
	                      def >= 0 ? value_json(kt_int(def))
	                               : cJSON_CreateNull());
	cJSON_AddNumberToObject(o, "build_ms", r->build_ms);
	if (r->brute_done) {
		cJSON *b = cJSON_AddObjectToObject(o, "brute_force");
		cJSON_AddItemToObject(
		    b, "count", value_json(kt_int((int64_t)r->brute_count)));
		cJSON_AddNumberToObject(b, "ms", r->brute_ms);
		cJSON_AddBoolToObject(b, "matches", r->brute_count == count);
	}
	if (!list)
		return o;
	cJSON *keys = cJSON_AddArrayToObject(o, "configurations");
	uint32_t *idx = kt_calloc(r->m->nparams + 1, sizeof(uint32_t));
	for (uint64_t i = 0;
	     idx && i < count && (list < 0 || i < (uint64_t)list); i++) {
		char *key =
		    kt_space_get(r->s, i, idx) ? NULL : kt_space_key(r->s, idx);
		cJSON_AddItemToArray(keys, cJSON_CreateString(key ? key : "?"));
		kt_free(key);
	}
	kt_free(idx);
	return o;
}

static void print_json(const char *path, const report *r, size_t n, long list)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "file", path);
	cJSON *arr = cJSON_AddArrayToObject(root, "kernels");
	for (size_t i = 0; i < n; i++)
		if (r[i].s)
			cJSON_AddItemToArray(arr, space_json(&r[i], list));
	char *text = cJSON_Print(root);
	if (text)
		printf("%s\n", text);
	cJSON_free(text);
	cJSON_Delete(root);
}

/* ---- the command ---- */

/* Builds (and checks) each kernel's space; 0, or 1 if any failed. */
static int build_all(report *r, size_t n, const options *o, kt_diags *d)
{
	int status = 0;
	kt_space_limits lim = {.max_bindings = cli_space_limit(o->space_limit),
	                       .stop = &stop_requested};
	/* while the spaces are built, SIGINT/SIGTERM stops the build with
	 * a message */
	cli_catch_signals(on_signal);
	for (size_t i = 0; i < n; i++) {
		double t0 = now_ms();
		int rc = kt_space_build_limited(&r[i].s, r[i].m, r[i].problem,
		                                r[i].device, &lim, d);
		r[i].build_ms = now_ms() - t0;
		if (rc && rc != KT_EPARSE)
			fprintf(stderr, "ktc space: %s\n", kt_error_last());
		cli_space_limit_hint("ktc space", rc, stop_requested,
		                     o->space_limit);
		if (rc)
			status = 1;
		else if (o->brute && brute_force(&r[i]))
			status = 1;
		else if (o->brute && r[i].brute_count != kt_space_count(r[i].s))
			status = 1;
		if (stop_requested)
			break;
	}
	cli_catch_signals(NULL);
	if (stop_requested && !status)
		fprintf(stderr, "ktc space: interrupted\n");
	status |= stop_requested;
	return status;
}

/* The kernels to show: the one --kernel names, or all of them. */
static int select_kernels(report **out, size_t *n, const kt_template *t,
                          const options *o)
{
	const kt_model *only =
	    o->kernel ? kt_template_model(t, o->kernel) : NULL;
	*n = o->kernel ? 1 : t->nmodels;
	if (o->kernel && !only) {
		fprintf(stderr, "ktc space: no annotated kernel '%s' in '%s'\n",
		        o->kernel, t->path);
		return 1;
	}
	if (*n == 0) {
		fprintf(stderr, "ktc space: no '#pragma kt' kernel in '%s'\n",
		        t->path);
		return 1;
	}
	report *r = kt_calloc(*n, sizeof(report));
	int rc = r ? 0 : -1;
	for (size_t i = 0; r && i < *n; i++)
		rc |= init_report(&r[i], only ? only : &t->models[i]);
	if (rc) {
		for (size_t i = 0; r && i < *n; i++)
			release_report(&r[i]);
		kt_free(r);
		fprintf(stderr, "ktc space: out of memory\n");
		return 1;
	}
	*out = r;
	return 0;
}

/* `--list` may stand alone: it becomes --list=all unless a count follows. */
static void fix_list_arg(int argc, char **argv)
{
	static char list_all[] = "--list=all";
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return;
		if (strcmp(argv[i], "--list"))
			continue;
		const char *next = i + 1 < argc ? argv[i + 1] : "";
		if (!next[0] || strspn(next, "0123456789") != strlen(next))
			argv[i] = list_all;
	}
}

/* 0: no list; -1: all; else how many; -2: not a count. */
static long list_count(const char *text)
{
	char *end;
	if (!text)
		return 0;
	if (!strcmp(text, "all"))
		return -1;
	errno = 0;
	long n = strtol(text, &end, 10);
	return errno || *end || end == text || n < 0 ? -2 : n;
}

static int run(const options *o, const char *path, long list)
{
	kt_diags d;
	kt_template *t = NULL;
	report *r = NULL;
	size_t n = 0;
	int color = isatty(2);
	kt_diags_init(&d);
	int status = kt_template_load(&t, path, &d) ? 1 : 0;
	if (status && d.errors == 0)
		fprintf(stderr, "ktc space: %s\n", kt_error_last());
	if (!status)
		status = select_kernels(&r, &n, t, o);
	if (!status && (apply_overrides(r, n, o->problem, o->nproblem, false) ||
	                apply_overrides(r, n, o->device, o->ndevice, true)))
		status = 2;
	if (!status)
		status = build_all(r, n, o, &d);
	kt_diags_print(&d, stderr, color);
	if (r && status != 2 && o->json)
		print_json(path, r, n, list);
	for (size_t i = 0; r && status != 2 && !o->json && i < n; i++)
		if (r[i].s) {
			if (i)
				putchar('\n');
			print_text(stdout, &r[i], list);
		}
	for (size_t i = 0; r && i < n; i++)
		release_report(&r[i]);
	kt_free(r);
	kt_template_free(t);
	kt_diags_release(&d);
	return status;
}

int cmd_space(int argc, char **argv)
{
	options o = {.space_limit = KT_SPACE_MAX_BINDINGS};
	const kt_opt opts[] = {
	    KT_OPT_STRING_('k', "kernel", &o.kernel, "NAME",
	                   "only the kernel called NAME"),
	    KT_OPT_LIST_('p', "problem", o.problem, &o.nproblem, MAX_OVERRIDES,
	                 "NAME=V",
	                 "a problem variable's value (default: its first)"),
	    KT_OPT_LIST_('d', "device", o.device, &o.ndevice, MAX_OVERRIDES,
	                 "NAME=V",
	                 "a DEVICE_* constant's value (default: an H100's)"),
	    KT_OPT_STRING_(0, "list", &o.list, "[N]",
	                   "list the first N valid configurations (all)"),
	    KT_OPT_FLAG_(0, "json", &o.json, "print JSON instead of text"),
	    KT_OPT_FLAG_(0, "brute-force", &o.brute,
	                 "count the raw product one by one too (a check)"),
	    KT_OPT_INT_(0, "space-limit", &o.space_limit, "N",
	                "values bound while building a space before giving "
	                "up (default 33554432; 0: no limit)"),
	    KT_OPT_END_,
	};
	const kt_cmd_info info = {
	    .usage = "ktc space [options] FILE",
	    .summary = "Prints, for each annotated kernel of FILE, its "
	               "parameters, derived values and\nconstraints, the "
	               "groups of parameters the constraints tie together, "
	               "and\nthe number of valid configurations. Exit status: "
	               "0 ok, 1 errors, 2 usage.",
	    .opts = opts,
	};
	static char name[] = "ktc space";
	int npos;
	argv[0] = name; /* for the option parser's messages */
	fix_list_arg(argc, argv);
	int rc = kt_opt_parse(&info, argc, argv, &npos);
	if (rc)
		return rc > 0 ? 0 : 2;
	long list = list_count(o.list);
	if (o.space_limit < 0) {
		fprintf(stderr, "ktc space: --space-limit must be >= 0\n");
		return 2;
	}
	if (list == -2) {
		fprintf(stderr, "ktc space: --list expects a count, not '%s'\n",
		        o.list);
		return 2;
	}
	if (npos != 1) {
		fprintf(stderr, "usage: %s (see 'ktc space --help')\n",
		        info.usage);
		return 2;
	}
	return run(&o, argv[0], list);
}
