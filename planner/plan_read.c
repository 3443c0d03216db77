/*
 * plan_read.c - JSON -> kt_plan, strictly: every unknown field, wrong type
 * or missing field is an error naming the field by its path
 * (`params[2].uses[0].range`), and reading goes on after an error so one
 * run reports every problem of a plan. Semantic checks (ranges against the
 * file, overlaps, cross references) follow in plan_check.c.
 *
 * A plan may come from anyone (an LLM, a hostile user), so reading it costs
 * time linear in its size: nesting is bounded before cJSON sees the text,
 * duplicate fields are found with a mask of the known ones, the lists of a
 * plan hold at most KT_PLAN_MAX_ITEMS items together (so the checks that
 * compare items pairwise stay bounded), and at most MAX_ERRORS errors are
 * kept, then counted.
 */
#include "ktc/plan.h"

#include "util/arena.h"
#include "util/str.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

/* A plan nests 6 deep; cJSON's own bound is 1000. The message says 64. */
enum { MAX_DEPTH = 64, MAX_ERRORS = 100, MAX_FIELDS = 32 };

typedef struct rd {
	kt_plan *p;
	kt_diags *d;
	const char *name;
	kt_str path;
	size_t items; /* in the lists read so far */
	int errors;
	int oom;
} rd;

static void fail(rd *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void fail(rd *r, const char *fmt, ...)
{
	/* past the cap nothing is formatted: a message may quote a long
	 * text, and formatting it for each error would be quadratic */
	if (r->errors++ >= MAX_ERRORS)
		return;
	kt_str m = KT_STR_INIT;
	va_list ap;
	va_start(ap, fmt);
	int rc = kt_str_vaddf(&m, fmt, ap);
	va_end(ap);
	if (rc ||
	    kt_diags_add(r->d, KT_DIAG_ERROR, r->name, NULL, 0, 0, 0, "%s%s%s",
	                 r->path.ptr, r->path.len ? ": " : "", m.ptr))
		r->oom = 1;
	kt_str_release(&m);
}

static size_t enter(rd *r, const char *key)
{
	size_t mark = r->path.len;
	if (kt_str_addf(&r->path, "%s%s", mark ? "." : "", key))
		r->oom = 1;
	return mark;
}

static size_t enter_index(rd *r, size_t i)
{
	size_t mark = r->path.len;
	if (kt_str_addf(&r->path, "[%zu]", i))
		r->oom = 1;
	return mark;
}

static void leave(rd *r, size_t mark)
{
	kt_str_truncate(&r->path, mark);
}

static const char *type_name(const cJSON *j)
{
	if (cJSON_IsString(j))
		return "a string";
	if (cJSON_IsNumber(j))
		return "a number";
	if (cJSON_IsBool(j))
		return "a boolean";
	if (cJSON_IsArray(j))
		return "an array";
	if (cJSON_IsObject(j))
		return "an object";
	return "null";
}

/*
 * Reports unknown and duplicate fields; false when o is not an object. A
 * known field is marked as seen (fields has at most MAX_FIELDS names), so
 * each duplicate costs one look, not a walk over the fields before it.
 */
static bool check_object(rd *r, const cJSON *o, const char *const *fields)
{
	if (!cJSON_IsObject(o)) {
		fail(r, "expected an object, got %s", type_name(o));
		return false;
	}
	uint32_t seen = 0;
	for (const cJSON *c = o->child; c; c = c->next) {
		int known = -1;
		for (int f = 0; fields[f] && known < 0 && f < MAX_FIELDS; f++)
			if (!strcmp(fields[f], c->string))
				known = f;
		size_t m = enter(r, c->string);
		if (known < 0)
			fail(r, "unknown field");
		else if (seen & (UINT32_C(1) << known))
			fail(r, "duplicate field");
		else
			seen |= UINT32_C(1) << known;
		leave(r, m);
	}
	return true;
}

/* The field key of o; reports a missing required field. */
static const cJSON *field(rd *r, const cJSON *o, const char *key, bool req)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!j && req) {
		size_t m = enter(r, key);
		fail(r, "missing required field");
		leave(r, m);
	}
	return j;
}

static bool want(rd *r, const cJSON *j, const char *key, bool ok,
                 const char *what)
{
	if (ok)
		return true;
	size_t m = enter(r, key);
	fail(r, "expected %s, got %s", what, type_name(j));
	leave(r, m);
	return false;
}

static bool rd_str(rd *r, const cJSON *o, const char *key, bool req,
                   const char **out)
{
	const cJSON *j = field(r, o, key, req);
	if (!j || !want(r, j, key, cJSON_IsString(j), "a string"))
		return false;
	*out = kt_plan_strdup(r->p, j->valuestring);
	if (!*out)
		r->oom = 1;
	return *out != NULL;
}

static bool as_int(rd *r, const cJSON *j, int64_t lo, int64_t hi, int64_t *out)
{
	if (!cJSON_IsNumber(j)) {
		fail(r, "expected an integer, got %s", type_name(j));
		return false;
	}
	double v = j->valuedouble;
	if (v != floor(v) || v < (double)lo || v > (double)hi) {
		fail(r,
		     "expected an integer in [%" PRId64 ", %" PRId64
		     "], got %g",
		     lo, hi, v);
		return false;
	}
	*out = (int64_t)v;
	return true;
}

static bool rd_int(rd *r, const cJSON *o, const char *key, bool req, int64_t lo,
                   int64_t hi, int64_t *out)
{
	const cJSON *j = field(r, o, key, req);
	if (!j)
		return false;
	size_t m = enter(r, key);
	bool ok = as_int(r, j, lo, hi, out);
	leave(r, m);
	return ok;
}

static bool rd_bool(rd *r, const cJSON *o, const char *key, bool req, bool *out)
{
	const cJSON *j = field(r, o, key, req);
	if (!j || !want(r, j, key, cJSON_IsBool(j), "a boolean"))
		return false;
	*out = cJSON_IsTrue(j);
	return true;
}

static bool rd_enum(rd *r, const cJSON *o, const char *key,
                    int (*from)(const char *), int *out)
{
	const char *s = NULL;
	if (!rd_str(r, o, key, true, &s))
		return false;
	int v = from(s);
	if (v < 0) {
		size_t m = enter(r, key);
		fail(r, "unknown value '%s'", s);
		leave(r, m);
		return false;
	}
	*out = v;
	return true;
}

static const char *const pos_fields[] = {"offset", "line", "col", NULL};
static const char *const range_fields[] = {"begin", "end", NULL};

static void rd_pos(rd *r, const cJSON *o, const char *key, kt_pos *out)
{
	const cJSON *j = field(r, o, key, true);
	size_t m = enter(r, key);
	int64_t off = 0, line = 0, col = 0;
	if (j && check_object(r, j, pos_fields)) {
		rd_int(r, j, "offset", true, 0, UINT32_MAX, &off);
		rd_int(r, j, "line", true, 1, INT32_MAX, &line);
		rd_int(r, j, "col", true, 1, INT32_MAX, &col);
	}
	out->offset = (uint32_t)off;
	out->line = (int)line;
	out->col = (int)col;
	leave(r, m);
}

static bool rd_range(rd *r, const cJSON *o, const char *key, bool req,
                     kt_range *out)
{
	const cJSON *j = field(r, o, key, req);
	if (!j)
		return false;
	size_t m = enter(r, key);
	if (check_object(r, j, range_fields)) {
		rd_pos(r, j, "begin", &out->begin);
		rd_pos(r, j, "end", &out->end);
	}
	leave(r, m);
	return true;
}

typedef void (*each_fn)(rd *r, const cJSON *j, void *elem);

/* An array of objects (or of anything each() reads) into arena memory. */
static void *rd_list(rd *r, const cJSON *o, const char *key, bool req,
                     size_t elem, size_t *n, each_fn each)
{
	*n = 0;
	const cJSON *a = field(r, o, key, req);
	if (!a || !want(r, a, key, cJSON_IsArray(a), "an array"))
		return NULL;
	size_t count = (size_t)cJSON_GetArraySize(a);
	r->items += count;
	if (r->items > KT_PLAN_MAX_ITEMS) {
		size_t m = enter(r, key);
		fail(r,
		     "%zu items, %zu in the lists so far: a plan holds at most "
		     "%d in all its lists",
		     count, r->items, KT_PLAN_MAX_ITEMS);
		leave(r, m);
		return NULL;
	}
	char *items = kt_plan_alloc(r->p, count * elem);
	if (!items) {
		r->oom = 1;
		return NULL;
	}
	size_t m = enter(r, key), i = 0;
	for (const cJSON *c = a->child; c; c = c->next, i++) {
		size_t mi = enter_index(r, i);
		each(r, c, items + i * elem);
		leave(r, mi);
	}
	leave(r, m);
	*n = count;
	return items;
}

static void each_int(rd *r, const cJSON *j, void *elem)
{
	as_int(r, j, INT64_MIN / 2, INT64_MAX / 2, elem);
}

static void each_str(rd *r, const cJSON *j, void *elem)
{
	if (!cJSON_IsString(j)) {
		fail(r, "expected a string, got %s", type_name(j));
		return;
	}
	*(const char **)elem = kt_plan_strdup(r->p, j->valuestring);
	if (!*(const char **)elem)
		r->oom = 1;
}

static void each_range(rd *r, const cJSON *j, void *elem)
{
	kt_range *out = elem;
	if (check_object(r, j, range_fields)) {
		rd_pos(r, j, "begin", &out->begin);
		rd_pos(r, j, "end", &out->end);
	}
}

/* ------------------------------------------------------------- objects */

static void each_kernel(rd *r, const cJSON *j, void *elem)
{
	static const char *const f[] = {"name", "range", "launches", NULL};
	kt_plan_kernel *k = elem;
	if (!check_object(r, j, f))
		return;
	rd_str(r, j, "name", true, &k->name);
	rd_range(r, j, "range", true, &k->range);
	k->launches = rd_list(r, j, "launches", true, sizeof(kt_range),
	                      &k->nlaunches, each_range);
}

static void each_use(rd *r, const cJSON *j, void *elem)
{
	static const char *const f[] = {"range", "text",   "with",     "site",
	                                "host",  "launch", "evidence", NULL};
	kt_plan_use *u = elem;
	u->launch = -1;
	if (!check_object(r, j, f))
		return;
	rd_range(r, j, "range", true, &u->range);
	rd_str(r, j, "text", true, &u->text);
	int site = KT_SITE_EXPR;
	rd_enum(r, j, "site", kt_site_from_name, &site);
	u->site = (kt_site)site;
	rd_str(r, j, "with", false, &u->with);
	rd_bool(r, j, "host", true, &u->host);
	int64_t launch = -1;
	if (rd_int(r, j, "launch", false, 0, INT32_MAX, &launch))
		u->launch = (int)launch;
	rd_str(r, j, "evidence", false, &u->evidence);
}

static void each_param(rd *r, const cJSON *j, void *elem)
{
	static const char *const f[] = {"name",   "role",     "kernel",
	                                "values", "default",  "constraints",
	                                "uses",   "evidence", NULL};
	kt_plan_param *pa = elem;
	if (!check_object(r, j, f))
		return;
	rd_str(r, j, "name", true, &pa->name);
	int role = KT_ROLE_OTHER;
	rd_enum(r, j, "role", kt_role_from_name, &role);
	pa->role = (kt_role)role;
	rd_str(r, j, "kernel", true, &pa->kernel);
	pa->values = rd_list(r, j, "values", true, sizeof(int64_t),
	                     &pa->nvalues, each_int);
	rd_int(r, j, "default", true, INT64_MIN / 2, INT64_MAX / 2, &pa->def);
	pa->constraints = rd_list(r, j, "constraints", false, sizeof(char *),
	                          &pa->nconstraints, each_str);
	pa->uses = rd_list(r, j, "uses", true, sizeof(kt_plan_use), &pa->nuses,
	                   each_use);
	rd_str(r, j, "evidence", false, &pa->evidence);
}

static void each_edit(rd *r, const cJSON *j, void *elem)
{
	static const char *const f[] = {"range", "text", "with", NULL};
	kt_plan_edit *e = elem;
	if (!check_object(r, j, f))
		return;
	rd_range(r, j, "range", true, &e->range);
	rd_str(r, j, "text", true, &e->text);
	rd_str(r, j, "with", true, &e->with);
}

static void each_access(rd *r, const cJSON *j, void *elem)
{
	static const char *const f[] = {"name",  "offset", "load",
	                                "store", "type",   NULL};
	kt_plan_access *a = elem;
	if (!check_object(r, j, f))
		return;
	rd_str(r, j, "name", true, &a->name);
	rd_str(r, j, "offset", false, &a->offset);
	rd_bool(r, j, "load", true, &a->load);
	rd_bool(r, j, "store", true, &a->store);
	rd_str(r, j, "type", false, &a->type);
}

static void refactor_args(rd *r, const cJSON *j, kt_plan_refactor *f)
{
	rd_str(r, j, "index_var", false, &f->index_var);
	rd_range(r, j, "index_decl", false, &f->index_decl);
	rd_str(r, j, "bound", false, &f->bound);
	rd_str(r, j, "elem_type", false, &f->elem_type);
	int64_t v = 0;
	if (rd_int(r, j, "elem_size", false, 1, 64, &v))
		f->elem_size = (int)v;
	f->arrays = rd_list(r, j, "arrays", false, sizeof(kt_plan_access),
	                    &f->narrays, each_access);
	rd_range(r, j, "grid", false, &f->grid);
	if (rd_int(r, j, "launch", false, 0, INT32_MAX, &v))
		f->launch = (int)v;
	rd_range(r, j, "block", false, &f->block);
	rd_str(r, j, "max_threads", false, &f->max_threads);
	rd_str(r, j, "body", false, &f->body);
}

static void each_refactor(rd *r, const cJSON *j, void *elem)
{
	static const char *const f[] = {
	    "kind",      "kernel",     "param",  "region",    "edits",
	    "index_var", "index_decl", "bound",  "elem_type", "elem_size",
	    "arrays",    "grid",       "launch", "note",      "max_threads",
	    "body",      "block",      NULL};
	kt_plan_refactor *x = elem;
	x->launch = -1;
	if (!check_object(r, j, f))
		return;
	int kind = 0;
	rd_enum(r, j, "kind", kt_refactor_kind_from_name, &kind);
	x->kind = (kt_refactor_kind)kind;
	rd_str(r, j, "kernel", true, &x->kernel);
	rd_str(r, j, "param", true, &x->param);
	rd_range(r, j, "region", true, &x->region);
	x->edits = rd_list(r, j, "edits", false, sizeof(kt_plan_edit),
	                   &x->nedits, each_edit);
	refactor_args(r, j, x);
	rd_str(r, j, "note", false, &x->note);
}

static void each_pragma(rd *r, const cJSON *j, void *elem)
{
	static const char *const f[] = {"kernel", "line", NULL};
	kt_plan_pragma *g = elem;
	if (!check_object(r, j, f))
		return;
	rd_str(r, j, "kernel", true, &g->kernel);
	rd_str(r, j, "line", true, &g->line);
}

static void each_need(rd *r, const cJSON *j, void *elem)
{
	static const char *const f[] = {"kernel",  "what",    "range",
	                                "message", "suggest", NULL};
	kt_plan_need *n = elem;
	if (!check_object(r, j, f))
		return;
	rd_str(r, j, "kernel", true, &n->kernel);
	rd_str(r, j, "what", true, &n->what);
	rd_range(r, j, "range", true, &n->range);
	rd_str(r, j, "message", true, &n->message);
	rd_str(r, j, "suggest", false, &n->suggest);
}

static void each_reject(rd *r, const cJSON *j, void *elem)
{
	static const char *const f[] = {"kernel", "range",   "text",
	                                "reason", "message", NULL};
	kt_plan_reject *x = elem;
	if (!check_object(r, j, f))
		return;
	rd_str(r, j, "kernel", false, &x->kernel);
	rd_range(r, j, "range", true, &x->range);
	rd_str(r, j, "text", true, &x->text);
	int reason = 0;
	rd_enum(r, j, "reason", kt_reason_from_name, &reason);
	x->reason = (kt_reason)reason;
	rd_str(r, j, "message", true, &x->message);
}

static bool parse_hash(const char *s, uint64_t *out)
{
	if (strncmp(s, "fnv1a64:", 8) || strlen(s) != 24)
		return false;
	uint64_t h = 0;
	for (s += 8; *s; s++) {
		int d = isdigit((unsigned char)*s) ? *s - '0'
		        : *s >= 'a' && *s <= 'f'   ? *s - 'a' + 10
		                                   : -1;
		if (d < 0)
			return false;
		h = h << 4 | (uint64_t)d;
	}
	*out = h;
	return true;
}

static void rd_file(rd *r, const cJSON *root)
{
	static const char *const f[] = {"path", "size", "hash", NULL};
	const cJSON *j = field(r, root, "file", true);
	if (!j)
		return;
	size_t m = enter(r, "file");
	const char *hash = NULL;
	int64_t size = 0;
	if (check_object(r, j, f)) {
		rd_str(r, j, "path", true, &r->p->path);
		if (rd_int(r, j, "size", true, 0, UINT32_MAX, &size))
			r->p->size = (size_t)size;
		rd_str(r, j, "hash", true, &hash);
	}
	if (hash && !parse_hash(hash, &r->p->hash)) {
		size_t mh = enter(r, "hash");
		fail(r, "expected 'fnv1a64:' and 16 hex digits, got '%s'",
		     hash);
		leave(r, mh);
	}
	leave(r, m);
}

static void rd_plan(rd *r, const cJSON *root)
{
	static const char *const f[] = {
	    "ktc_plan",  "file",    "planner", "kernels",  "params",
	    "refactors", "pragmas", "needs",   "rejected", NULL};
	kt_plan *p = r->p;
	if (!check_object(r, root, f))
		return;
	int64_t version = 0;
	if (rd_int(r, root, "ktc_plan", true, 0, INT32_MAX, &version) &&
	    version != KT_PLAN_VERSION) {
		size_t m = enter(r, "ktc_plan");
		fail(r,
		     "unsupported plan version %" PRId64 " (this ktc reads "
		     "version %d)",
		     version, KT_PLAN_VERSION);
		leave(r, m);
		return;
	}
	rd_file(r, root);
	rd_str(r, root, "planner", false, &p->planner);
	p->kernels = rd_list(r, root, "kernels", true, sizeof(kt_plan_kernel),
	                     &p->nkernels, each_kernel);
	p->params = rd_list(r, root, "params", true, sizeof(kt_plan_param),
	                    &p->nparams, each_param);
	p->refactors =
	    rd_list(r, root, "refactors", false, sizeof(kt_plan_refactor),
	            &p->nrefactors, each_refactor);
	p->pragmas = rd_list(r, root, "pragmas", false, sizeof(kt_plan_pragma),
	                     &p->npragmas, each_pragma);
	p->needs = rd_list(r, root, "needs", false, sizeof(kt_plan_need),
	                   &p->nneeds, each_need);
	p->rejected =
	    rd_list(r, root, "rejected", false, sizeof(kt_plan_reject),
	            &p->nrejected, each_reject);
}

/* Where the text nests deeper than MAX_DEPTH, or -1 (strings skipped). */
static long too_deep(const char *json, size_t len)
{
	int depth = 0;
	bool in_string = false;
	for (size_t i = 0; i < len; i++) {
		char ch = json[i];
		if (in_string && ch == '\\')
			i++;
		else if (ch == '"')
			in_string = !in_string;
		else if (!in_string && (ch == '[' || ch == '{') &&
		         ++depth > MAX_DEPTH)
			return (long)i;
		else if (!in_string && (ch == ']' || ch == '}'))
			depth--;
	}
	return -1;
}

/* One error at offset off of the text. */
static void text_error(rd *r, const char *json, size_t len, size_t off,
                       const char *msg)
{
	kt_pos pos = kt_pos_at(json, len, (uint32_t)off);
	r->errors++;
	if (kt_diags_add(r->d, KT_DIAG_ERROR, r->name, json, pos.line, pos.col,
	                 1, "%s", msg))
		r->oom = 1;
}

static void syntax_error(rd *r, const char *json, size_t len)
{
	const char *at = cJSON_GetErrorPtr();
	size_t off =
	    at && at >= json && at <= json + len ? (size_t)(at - json) : 0;
	text_error(r, json, len, off, "plan is not valid JSON");
}

int kt_plan_from_json(kt_plan **out, const char *json, size_t len,
                      const char *name, const char *src, size_t src_len,
                      kt_diags *diags)
{
	*out = NULL;
	rd r = {.d = diags, .name = name ? name : "plan"};
	kt_str_init(&r.path, 0);
	int rc = kt_plan_new(&r.p);
	if (rc)
		return rc;
	long deep = too_deep(json, len);
	cJSON *root = deep < 0 ? cJSON_ParseWithLength(json, len) : NULL;
	if (deep >= 0)
		text_error(&r, json, len, (size_t)deep,
		           "the plan is nested deeper than 64 levels");
	else if (!root)
		syntax_error(&r, json, len);
	else
		rd_plan(&r, root);
	cJSON_Delete(root);
	if (r.errors > MAX_ERRORS &&
	    kt_diags_add(diags, KT_DIAG_ERROR, r.name, NULL, 0, 0, 0,
	                 "and %d more errors", r.errors - MAX_ERRORS))
		r.oom = 1;
	kt_str_release(&r.path);
	if (r.oom)
		rc = kt_error(KT_ENOMEM, "out of memory");
	else if (r.errors)
		rc = kt_error(KT_EPARSE, "invalid plan '%s'", r.name);
	else
		rc = kt_plan_validate(r.p, r.name, src, src_len, diags);
	if (rc) {
		kt_plan_free(r.p);
		return rc;
	}
	*out = r.p;
	return KT_OK;
}
