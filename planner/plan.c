/*
 * plan.c - the edit plan's life cycle, its refactor names, and its JSON
 * writer (the candidates' enum names are frontend/names.c's).
 *
 * This file and plan_read.c / plan_check.c build without libclang: a plan
 * written by an LLM or by hand is read and checked on any machine. The
 * writer prints small objects (positions, ranges, domains) on one line and
 * larger ones indented, so a plan reads well in a review.
 */
#include "ktc/plan.h"

#include "util/arena.h"
#include "util/fs.h"
#include "util/str.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <inttypes.h>
#include <string.h>

static const char *const refactor_names[KT_REFACTOR_COUNT_] = {
    "stride_follows_block",
    "vectorize",
    "items_per_thread",
    "grid_stride",
    "row_split",
    "hoist_loads",
    "launch_bounds",
    "pack_stores",
    "variant",
    "warp_reduce",
    "warp_per_row",
    "pad_shared",
    "warp_scan",
    "cluster_split",
    "fast_div",
    "threads_per_group",
    "groups_per_block",
};

const char *kt_refactor_kind_name(kt_refactor_kind k)
{
	int v = (int)k;
	return v >= 0 && v < KT_REFACTOR_COUNT_ ? refactor_names[v] : "?";
}
const char *kt_refactor_not_in_opencl(kt_refactor_kind k)
{
	switch (k) {
	case KT_REFACTOR_PACK_STORES:
		return "its vector copies are C++ templates over CUDA's "
		       "vector types (kt_vec<N>) and reinterpret_cast";
	case KT_REFACTOR_GRID_STRIDE:
		return "it keeps the original body under `if constexpr`, "
		       "which is C++17";
	case KT_REFACTOR_LAUNCH_BOUNDS:
		return "OpenCL C has no __launch_bounds__ (its "
		       "reqd_work_group_size fixes the block, it does not "
		       "bound it)";
	case KT_REFACTOR_WARP_REDUCE:
	case KT_REFACTOR_WARP_PER_ROW:
	case KT_REFACTOR_WARP_SCAN:
		return "its warp shuffles (__shfl_xor_sync) and warp barrier "
		       "(__syncwarp) have no core OpenCL C spelling (sub-group "
		       "shuffles are an extension)";
	case KT_REFACTOR_CLUSTER_SPLIT:
		return "thread-block clusters and distributed shared memory "
		       "are CUDA's (sm_90), with no OpenCL C spelling";
	case KT_REFACTOR_THREADS_PER_GROUP:
		return "its groups reduce with warp shuffles "
		       "(__shfl_xor_sync), which core OpenCL C lacks";
	case KT_REFACTOR_FAST_DIV:
		return "its helper is written in CUDA (__device__, __umulhi, "
		       "__clz; OpenCL C spells them mul_hi and clz)";
	default: return NULL;
	}
}

int kt_refactor_kind_from_name(const char *s)
{
	for (int i = 0; s && i < KT_REFACTOR_COUNT_; i++)
		if (!strcmp(refactor_names[i], s))
			return i;
	return -1;
}

int kt_plan_new(kt_plan **out)
{
	*out = NULL;
	kt_plan *p = kt_calloc(1, sizeof(*p));
	kt_arena *a = kt_calloc(1, sizeof(*a));
	if (!p || !a) {
		kt_free(p);
		kt_free(a);
		return kt_error(KT_ENOMEM, "out of memory");
	}
	kt_arena_init(a);
	p->arena = a;
	p->version = KT_PLAN_VERSION;
	*out = p;
	return KT_OK;
}

void kt_plan_free(kt_plan *p)
{
	if (!p)
		return;
	kt_arena_release(p->arena);
	kt_free(p->arena);
	kt_free(p);
}

void *kt_plan_alloc(kt_plan *p, size_t n)
{
	return kt_arena_alloc(p->arena, n ? n : 1);
}

char *kt_plan_strdup(kt_plan *p, const char *s)
{
	return s ? kt_arena_strdup(p->arena, s) : NULL;
}

uint64_t kt_plan_hash(const char *src, size_t len)
{
	return kt_hash(KT_HASH_INIT, src, len);
}

/* ------------------------------------------------------------ writing */

static cJSON *pos_json(kt_pos p)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "offset", p.offset);
	cJSON_AddNumberToObject(o, "line", p.line);
	cJSON_AddNumberToObject(o, "col", p.col);
	return o;
}

static cJSON *range_json(kt_range r)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddItemToObject(j, "begin", pos_json(r.begin));
	cJSON_AddItemToObject(j, "end", pos_json(r.end));
	return j;
}

static void add_range(cJSON *o, const char *key, kt_range r)
{
	cJSON_AddItemToObject(o, key, range_json(r));
}

static void add_str(cJSON *o, const char *key, const char *s)
{
	if (s)
		cJSON_AddStringToObject(o, key, s);
}

static cJSON *use_json(const kt_plan_use *u)
{
	cJSON *o = cJSON_CreateObject();
	add_range(o, "range", u->range);
	add_str(o, "text", u->text);
	add_str(o, "with", u->with);
	add_str(o, "site", kt_site_name(u->site));
	cJSON_AddBoolToObject(o, "host", u->host);
	if (u->launch >= 0)
		cJSON_AddNumberToObject(o, "launch", u->launch);
	add_str(o, "evidence", u->evidence);
	return o;
}

static cJSON *param_json(const kt_plan_param *pa)
{
	cJSON *o = cJSON_CreateObject();
	add_str(o, "name", pa->name);
	add_str(o, "role", kt_role_name(pa->role));
	add_str(o, "kernel", pa->kernel);
	cJSON *v = cJSON_AddArrayToObject(o, "values");
	for (size_t i = 0; i < pa->nvalues; i++)
		cJSON_AddItemToArray(v,
		                     cJSON_CreateNumber((double)pa->values[i]));
	cJSON_AddNumberToObject(o, "default", (double)pa->def);
	if (pa->nconstraints) {
		cJSON *c = cJSON_AddArrayToObject(o, "constraints");
		for (size_t i = 0; i < pa->nconstraints; i++)
			cJSON_AddItemToArray(
			    c, cJSON_CreateString(pa->constraints[i]));
	}
	cJSON *u = cJSON_AddArrayToObject(o, "uses");
	for (size_t i = 0; i < pa->nuses; i++)
		cJSON_AddItemToArray(u, use_json(&pa->uses[i]));
	add_str(o, "evidence", pa->evidence);
	return o;
}

static bool range_set(kt_range r)
{
	return r.begin.line > 0;
}

static void refactor_args_json(cJSON *o, const kt_plan_refactor *f)
{
	add_str(o, "index_var", f->index_var);
	if (range_set(f->index_decl))
		add_range(o, "index_decl", f->index_decl);
	add_str(o, "bound", f->bound);
	add_str(o, "elem_type", f->elem_type);
	if (f->elem_size)
		cJSON_AddNumberToObject(o, "elem_size", f->elem_size);
	if (f->narrays) {
		cJSON *a = cJSON_AddArrayToObject(o, "arrays");
		for (size_t i = 0; i < f->narrays; i++) {
			cJSON *e = cJSON_CreateObject();
			add_str(e, "name", f->arrays[i].name);
			add_str(e, "offset", f->arrays[i].offset);
			cJSON_AddBoolToObject(e, "load", f->arrays[i].load);
			cJSON_AddBoolToObject(e, "store", f->arrays[i].store);
			add_str(e, "type", f->arrays[i].type);
			cJSON_AddItemToArray(a, e);
		}
	}
	if (range_set(f->grid))
		add_range(o, "grid", f->grid);
	if (f->launch >= 0)
		cJSON_AddNumberToObject(o, "launch", f->launch);
	if (range_set(f->block))
		add_range(o, "block", f->block);
	add_str(o, "max_threads", f->max_threads);
	add_str(o, "body", f->body);
}

static cJSON *refactor_json(const kt_plan_refactor *f)
{
	cJSON *o = cJSON_CreateObject();
	add_str(o, "kind", kt_refactor_kind_name(f->kind));
	add_str(o, "kernel", f->kernel);
	add_str(o, "param", f->param);
	add_range(o, "region", f->region);
	if (f->nedits) {
		cJSON *e = cJSON_AddArrayToObject(o, "edits");
		for (size_t i = 0; i < f->nedits; i++) {
			cJSON *x = cJSON_CreateObject();
			add_range(x, "range", f->edits[i].range);
			add_str(x, "text", f->edits[i].text);
			add_str(x, "with", f->edits[i].with);
			cJSON_AddItemToArray(e, x);
		}
	}
	refactor_args_json(o, f);
	add_str(o, "note", f->note);
	return o;
}

static cJSON *kernel_json(const kt_plan_kernel *k)
{
	cJSON *o = cJSON_CreateObject();
	add_str(o, "name", k->name);
	add_range(o, "range", k->range);
	cJSON *l = cJSON_AddArrayToObject(o, "launches");
	for (size_t i = 0; i < k->nlaunches; i++)
		cJSON_AddItemToArray(l, range_json(k->launches[i]));
	return o;
}

static void add_tail(cJSON *root, const kt_plan *p)
{
	cJSON *a = cJSON_AddArrayToObject(root, "pragmas");
	for (size_t i = 0; i < p->npragmas; i++) {
		cJSON *o = cJSON_CreateObject();
		add_str(o, "kernel", p->pragmas[i].kernel);
		add_str(o, "line", p->pragmas[i].line);
		cJSON_AddItemToArray(a, o);
	}
	a = cJSON_AddArrayToObject(root, "needs");
	for (size_t i = 0; i < p->nneeds; i++) {
		const kt_plan_need *n = &p->needs[i];
		cJSON *o = cJSON_CreateObject();
		add_str(o, "kernel", n->kernel);
		add_str(o, "what", n->what);
		add_range(o, "range", n->range);
		add_str(o, "message", n->message);
		add_str(o, "suggest", n->suggest);
		cJSON_AddItemToArray(a, o);
	}
	a = cJSON_AddArrayToObject(root, "rejected");
	for (size_t i = 0; i < p->nrejected; i++) {
		const kt_plan_reject *r = &p->rejected[i];
		cJSON *o = cJSON_CreateObject();
		add_str(o, "kernel", r->kernel);
		add_range(o, "range", r->range);
		add_str(o, "text", r->text);
		add_str(o, "reason", kt_reason_name(r->reason));
		add_str(o, "message", r->message);
		cJSON_AddItemToArray(a, o);
	}
}

static cJSON *plan_json(const kt_plan *p)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddNumberToObject(root, "ktc_plan", p->version);
	cJSON *f = cJSON_AddObjectToObject(root, "file");
	add_str(f, "path", p->path ? p->path : "");
	cJSON_AddNumberToObject(f, "size", (double)p->size);
	char hash[32];
	snprintf(hash, sizeof(hash), "fnv1a64:%016" PRIx64, p->hash);
	cJSON_AddStringToObject(f, "hash", hash);
	add_str(root, "planner", p->planner);
	cJSON *a = cJSON_AddArrayToObject(root, "kernels");
	for (size_t i = 0; i < p->nkernels; i++)
		cJSON_AddItemToArray(a, kernel_json(&p->kernels[i]));
	a = cJSON_AddArrayToObject(root, "params");
	for (size_t i = 0; i < p->nparams; i++)
		cJSON_AddItemToArray(a, param_json(&p->params[i]));
	a = cJSON_AddArrayToObject(root, "refactors");
	for (size_t i = 0; i < p->nrefactors; i++)
		cJSON_AddItemToArray(a, refactor_json(&p->refactors[i]));
	add_tail(root, p);
	return root;
}

/*
 * Pretty printer: a value whose compact form fits in the line stays on one
 * line; otherwise its members go on their own lines, indented by 2.
 */
#define LINE_MAX_ 120

static int print_value(kt_str *s, const cJSON *j, int indent, size_t prefix);

static int print_compact(kt_str *s, const cJSON *j)
{
	char *t = cJSON_PrintUnformatted(j);
	if (!t)
		return kt_error(KT_ENOMEM, "out of memory");
	/* cJSON's compact form has no spaces; add one after ':' and ','
	 * outside strings for readability. */
	int rc = KT_OK, in_str = 0;
	for (const char *c = t; *c && !rc; c++) {
		rc = kt_str_addc(s, *c);
		if (*c == '"' && (c == t || c[-1] != '\\'))
			in_str = !in_str;
		else if (!in_str && (*c == ':' || *c == ','))
			rc = rc ? rc : kt_str_addc(s, ' ');
	}
	cJSON_free(t);
	return rc;
}

static size_t compact_len(const cJSON *j)
{
	char *t = cJSON_PrintUnformatted(j);
	size_t n = t ? strlen(t) : SIZE_MAX / 2;
	size_t extra = 0;
	for (const char *c = t; c && *c; c++)
		extra += *c == ',' || *c == ':';
	cJSON_free(t);
	return n + extra;
}

static int print_members(kt_str *s, const cJSON *j, int indent)
{
	int rc = KT_OK;
	bool obj = cJSON_IsObject(j);
	for (const cJSON *c = j->child; c && !rc; c = c->next) {
		rc = kt_str_addf(s, "%*s", indent + 2, "");
		size_t prefix = (size_t)indent + 2;
		if (!rc && obj) {
			cJSON *k = cJSON_CreateString(c->string);
			rc = k ? print_compact(s, k) : KT_ENOMEM;
			rc = rc ? rc : kt_str_adds(s, ": ");
			prefix += strlen(c->string) + 4;
			cJSON_Delete(k);
		}
		rc = rc ? rc : print_value(s, c, indent + 2, prefix);
		rc = rc ? rc : kt_str_adds(s, c->next ? ",\n" : "\n");
	}
	return rc;
}

static int print_value(kt_str *s, const cJSON *j, int indent, size_t prefix)
{
	bool nest = cJSON_IsObject(j) || cJSON_IsArray(j);
	if (!nest || !j->child || prefix + compact_len(j) <= LINE_MAX_)
		return print_compact(s, j);
	int rc = kt_str_adds(s, cJSON_IsObject(j) ? "{\n" : "[\n");
	rc = rc ? rc : print_members(s, j, indent);
	rc = rc ? rc
	        : kt_str_addf(s, "%*s%c", indent, "",
	                      cJSON_IsObject(j) ? '}' : ']');
	return rc;
}

int kt_plan_to_json(char **out, const kt_plan *p)
{
	*out = NULL;
	cJSON *root = plan_json(p);
	if (!root)
		return kt_error(KT_ENOMEM, "out of memory");
	kt_str s = KT_STR_INIT;
	int rc = print_value(&s, root, 0, 0);
	rc = rc ? rc : kt_str_addc(&s, '\n');
	cJSON_Delete(root);
	if (rc) {
		kt_str_release(&s);
		return rc;
	}
	*out = kt_str_detach(&s);
	return KT_OK;
}

/* ------------------------------------------------ one kernel of a plan */

static bool keep(const char *kernel, const char *want)
{
	return !kernel || !strcmp(kernel, want);
}

/* Keeps only what the plan says about one kernel (--kernel NAME). */
#define KEEP_ONLY(arr, n, field, want)                                         \
	do {                                                                   \
		size_t k_ = 0;                                                 \
		for (size_t i_ = 0; i_ < (n); i_++)                            \
			if (keep((arr)[i_].field, (want)))                     \
				(arr)[k_++] = (arr)[i_];                       \
		(n) = k_;                                                      \
	} while (0)

int kt_plan_only_kernel(kt_plan *p, const char *name)
{
	bool found = false;
	for (size_t i = 0; i < p->nkernels; i++)
		found |= !strcmp(p->kernels[i].name, name);
	if (!found)
		return kt_error(KT_ENOTFOUND, "no kernel '%s' in '%s'", name,
		                p->path ? p->path : "the file");
	KEEP_ONLY(p->kernels, p->nkernels, name, name);
	KEEP_ONLY(p->params, p->nparams, kernel, name);
	KEEP_ONLY(p->refactors, p->nrefactors, kernel, name);
	KEEP_ONLY(p->pragmas, p->npragmas, kernel, name);
	KEEP_ONLY(p->needs, p->nneeds, kernel, name);
	KEEP_ONLY(p->rejected, p->nrejected, kernel, name);
	return 0;
}

/* ------------------------------------------------ names to defaults */

const char *kt_plan_with_defaults(kt_plan *out, const char *s, const kt_plan *p,
                                  const bool *gone)
{
	kt_str r = KT_STR_INIT;
	bool changed = false;
	int rc = 0;
	for (const char *c = s; *c && !rc;) {
		if (!(isalpha((unsigned char)*c) || *c == '_')) {
			rc = kt_str_addc(&r, *c++);
			continue;
		}
		size_t n = 1;
		while (isalnum((unsigned char)c[n]) || c[n] == '_')
			n++;
		size_t i = 0;
		for (; i < p->nparams; i++)
			if (gone[i] && strlen(p->params[i].name) == n &&
			    !strncmp(p->params[i].name, c, n))
				break;
		if (i < p->nparams) {
			rc = kt_str_addf(&r, "%" PRId64, p->params[i].def);
			changed = true;
		} else {
			rc = kt_str_add(&r, c, n);
		}
		c += n;
	}
	const char *res = rc ? NULL : changed ? kt_plan_strdup(out, r.ptr) : s;
	kt_str_release(&r);
	return res;
}
