/*
 * test_plan.c - the edit plan's JSON: a round trip keeps everything, and
 * strict validation names each problem by its field path.
 */
#include "ktc/annotate.h"

#include "check.h"

#include "util/str.h"

#include <string.h>

static const char src[] =
    "__global__ void k(float *y, int n)\n"
    "{\n"
    "\tint i = blockIdx.x * 256 + threadIdx.x;\n"
    "\tif (i < n)\n"
    "\t\ty[i] = 0.5f;\n"
    "}\n"
    "void launch(float *y, int n) { k<<<n / 256, 256>>>(y, n); }\n";

static kt_range range_of(const char *needle, int nth)
{
	const char *s = src;
	for (int i = 0; i <= nth; i++)
		s = strstr(i ? s + 1 : s, needle);
	uint32_t b = (uint32_t)(s - src), e = b + (uint32_t)strlen(needle);
	kt_range r = {kt_pos_at(src, sizeof(src) - 1, b),
	              kt_pos_at(src, sizeof(src) - 1, e)};
	return r;
}

/* The JSON text of range_of(needle, nth). */
static const char *range_text(char *buf, size_t n, const char *needle, int nth)
{
	kt_range r = range_of(needle, nth);
	snprintf(buf, n,
	         "{\"begin\": {\"offset\": %u, \"line\": %d, \"col\": %d}, "
	         "\"end\": {\"offset\": %u, \"line\": %d, \"col\": %d}}",
	         r.begin.offset, r.begin.line, r.begin.col, r.end.offset,
	         r.end.line, r.end.col);
	return buf;
}

static kt_plan_use use(kt_range r, const char *text, kt_site site, bool host)
{
	kt_plan_use u = {.range = r,
	                 .text = text,
	                 .with = "BLOCK",
	                 .site = site,
	                 .host = host,
	                 .launch = host ? 0 : -1};
	return u;
}

static kt_plan *make_plan(void)
{
	kt_plan *p = NULL;
	if (kt_plan_new(&p))
		return NULL;
	p->path = "k.cu";
	p->size = sizeof(src) - 1;
	p->hash = kt_plan_hash(src, p->size);
	p->planner = "builtin";
	p->nkernels = 1;
	p->kernels = kt_plan_alloc(p, sizeof(kt_plan_kernel));
	p->kernels[0].name = "k";
	p->kernels[0].range = range_of("__global__", 0);
	p->kernels[0].nlaunches = 1;
	p->kernels[0].launches = kt_plan_alloc(p, sizeof(kt_range));
	p->kernels[0].launches[0] = range_of("k<<<n / 256, 256>>>(y, n)", 0);
	p->nparams = 1;
	p->params = kt_plan_alloc(p, sizeof(kt_plan_param));
	kt_plan_param *pa = p->params;
	pa->name = "BLOCK";
	pa->role = KT_ROLE_BLOCK_SIZE;
	pa->kernel = "k";
	static int64_t values[] = {128, 256, 512};
	pa->values = values;
	pa->nvalues = 3;
	pa->def = 256;
	static const char *cons[] = {"BLOCK % 32 == 0"};
	pa->constraints = cons;
	pa->nconstraints = 1;
	pa->nuses = 3;
	pa->uses = kt_plan_alloc(p, 3 * sizeof(kt_plan_use));
	pa->uses[0] = use(range_of("256", 0), "256", KT_SITE_EXPR, false);
	pa->uses[1] = use(range_of("256", 1), "256", KT_SITE_LAUNCH_GRID, true);
	pa->uses[2] =
	    use(range_of("256", 2), "256", KT_SITE_LAUNCH_BLOCK, true);
	p->nrejected = 1;
	p->rejected = kt_plan_alloc(p, sizeof(kt_plan_reject));
	p->rejected[0] =
	    (kt_plan_reject){.kernel = "k",
	                     .range = range_of("0.5f", 0),
	                     .text = "0.5f",
	                     .reason = KT_REASON_MATH,
	                     .message = "a constant of the result"};
	return p;
}

static char *plan_text(void)
{
	kt_plan *p = make_plan();
	char *json = NULL;
	CHECK(p && kt_plan_to_json(&json, p) == 0);
	kt_plan_free(p);
	return json;
}

static void test_built_plan_validates_against_its_file(void)
{
	kt_plan *p = make_plan();
	kt_diags d;
	kt_diags_init(&d);
	CHECK_EQ_INT(kt_plan_validate(p, "plan.json", src, sizeof(src) - 1, &d),
	             0);
	CHECK_EQ_INT(d.errors, 0);
	kt_diags_print(&d, stderr, 0);
	kt_diags_release(&d);
	kt_plan_free(p);
}

static void test_json_round_trip_is_identical(void)
{
	char *json = plan_text();
	kt_diags d;
	kt_diags_init(&d);
	kt_plan *p = NULL;
	CHECK_EQ_INT(kt_plan_from_json(&p, json, strlen(json), "plan.json", src,
	                               sizeof(src) - 1, &d),
	             0);
	kt_diags_print(&d, stderr, 0);
	char *again = NULL;
	CHECK(p && kt_plan_to_json(&again, p) == 0);
	CHECK_EQ_STR(again, json);
	CHECK(p && p->nparams == 1 && p->params[0].nuses == 3);
	CHECK(p && p->params[0].uses[1].site == KT_SITE_LAUNCH_GRID);
	CHECK(p && p->params[0].uses[1].launch == 0);
	CHECK(p && p->rejected[0].reason == KT_REASON_MATH);
	kt_free(again);
	kt_free(json);
	kt_plan_free(p);
	kt_diags_release(&d);
}

/* Replaces the first `from` in json by `to`, parses against src, and
 * checks that some error message contains `want`. */
static void expect_error(const char *from, const char *to, const char *want,
                         const char *source, size_t source_len)
{
	char *json = plan_text();
	char *at = json ? strstr(json, from) : NULL;
	CHECK(at != NULL);
	if (!at) {
		kt_free(json);
		return;
	}
	size_t n = strlen(json) + strlen(to) + 1;
	char *edited = kt_malloc(n);
	snprintf(edited, n, "%.*s%s%s", (int)(at - json), json, to,
	         at + strlen(from));
	kt_diags d;
	kt_diags_init(&d);
	kt_plan *p = NULL;
	CHECK_EQ_INT(kt_plan_from_json(&p, edited, strlen(edited), "plan.json",
	                               source, source_len, &d),
	             KT_EPARSE);
	CHECK(p == NULL);
	bool found = false;
	for (size_t i = 0; i < d.len; i++)
		found |= strstr(d.items[i].message, want) != NULL;
	if (!found) {
		fprintf(stderr, "wanted an error containing '%s', got:\n",
		        want);
		kt_diags_print(&d, stderr, 0);
	}
	CHECK(found);
	kt_diags_release(&d);
	kt_free(edited);
	kt_free(json);
}

#define SRC src, sizeof(src) - 1

static void test_unknown_field_is_an_error(void)
{
	expect_error("\"role\"", "\"colour\": 1, \"role\"",
	             "params[0].colour: unknown field", SRC);
}

static void test_wrong_type_is_an_error(void)
{
	expect_error("\"values\": [128", "\"values\": [\"128\"",
	             "params[0].values[0]: expected an integer, got a string",
	             SRC);
	expect_error("\"host\": true", "\"host\": 1",
	             "params[0].uses[1].host: expected a boolean, got a number",
	             SRC);
}

static void test_missing_field_is_an_error(void)
{
	expect_error("\"kernel\": \"k\",", "",
	             "params[0].kernel: missing required field", SRC);
}

static void test_range_outside_file_is_an_error(void)
{
	expect_error("\"end\": {\"offset\": 62", "\"end\": {\"offset\": 9999",
	             "params[0].uses[0].range: end offset 9999 is past the end",
	             SRC);
}

static void test_line_col_must_match_offset(void)
{
	expect_error("\"line\": 3, \"col\": 23", "\"line\": 3, \"col\": 21",
	             "params[0].uses[0].range: begin offset 59 is line 3 col "
	             "23, not line 3 col 21",
	             SRC);
}

static void test_text_must_match_source(void)
{
	expect_error("\"text\": \"0.5f\"", "\"text\": \"0.25f\"",
	             "rejected[0].range: the file has '0.5f' there", SRC);
}

static void test_overlapping_edits_are_an_error(void)
{
	/* A refactor whose edit replaces the literal a use replaces too. */
	char region[160], lit[160], json[600];
	snprintf(json, sizeof(json),
	         "\"refactors\": [{\"kind\": \"stride_follows_block\", "
	         "\"kernel\": \"k\", \"param\": \"BLOCK\", \"index_var\": "
	         "\"i\", \"region\": %s, \"edits\": [{\"range\": %s, "
	         "\"text\": \"256\", \"with\": \"BLOCK\"}]}]",
	         range_text(region, sizeof(region), "int i", 0),
	         range_text(lit, sizeof(lit), "256", 0));
	expect_error("\"refactors\": []", json,
	             "overlaps params[0].uses[0].range", SRC);
}

static void test_edit_partly_inside_region_is_an_error(void)
{
	char region[160], json[600];
	snprintf(json, sizeof(json),
	         "\"refactors\": [{\"kind\": \"stride_follows_block\", "
	         "\"kernel\": \"k\", \"param\": \"BLOCK\", \"index_var\": "
	         "\"i\", \"region\": %s, \"edits\": []}]",
	         range_text(region, sizeof(region), "blockIdx.x * 25", 0));
	expect_error("\"refactors\": []", json,
	             "params[0].uses[0].range: partly overlaps "
	             "refactors[0].region",
	             SRC);
}

static void test_stale_plan_is_refused(void)
{
	char other[sizeof(src)];
	memcpy(other, src, sizeof(src));
	other[3] = 'X';
	expect_error("\"planner\"", "\"planner\"",
	             "file.hash: the content of 'k.cu' differs", other,
	             sizeof(other) - 1);
	expect_error("\"planner\"", "\"planner\"", "file.size: the plan is for",
	             src, sizeof(src) - 2);
}

static void test_unknown_name_in_constraint_is_an_error(void)
{
	expect_error("BLOCK % 32 == 0", "BLOK % 32 == 0",
	             "params[0].constraints[0]: unknown name 'BLOK'", SRC);
}

static void test_default_outside_domain_is_an_error(void)
{
	expect_error("\"default\": 256", "\"default\": 64",
	             "params[0].values: the domain does not contain the "
	             "default 64",
	             SRC);
}

static void test_launch_index_must_exist(void)
{
	expect_error("\"launch\": 0", "\"launch\": 3",
	             "params[0].uses[1]: launch 3 does not exist", SRC);
}

static void test_unknown_enum_value_is_an_error(void)
{
	expect_error("\"block_size\"", "\"blocksize\"",
	             "params[0].role: unknown value 'blocksize'", SRC);
}

static void test_bad_version_is_refused(void)
{
	expect_error("\"ktc_plan\": 1", "\"ktc_plan\": 2",
	             "unsupported plan version 2", SRC);
}

static void test_invalid_json_is_an_error(void)
{
	expect_error("\"params\": [", "\"params\": [,",
	             "plan is not valid JSON", SRC);
}

static void test_reserved_name_is_an_error(void)
{
	expect_error("\"name\": \"BLOCK\"", "\"name\": \"blockDim\"",
	             "params[0].name: 'blockDim' is a reserved name", SRC);
}

static void test_refactor_needs_its_arguments(void)
{
	char region[160], json[600];
	snprintf(json, sizeof(json),
	         "\"refactors\": [{\"kind\": \"vectorize\", \"kernel\": "
	         "\"k\", \"param\": \"BLOCK\", \"index_var\": \"i\", "
	         "\"region\": %s}]",
	         range_text(region, sizeof(region), "if (i < n)", 0));
	expect_error("\"refactors\": []", json,
	             "refactors[0]: a 'vectorize' refactor needs 'bound'", SRC);
}

static void expect_refactor_error(const char *fields, const char *want)
{
	char region[160], json[800];
	snprintf(json, sizeof(json),
	         "\"refactors\": [{\"kernel\": \"k\", \"param\": \"BLOCK\", "
	         "\"region\": %s, %s}]",
	         range_text(region, sizeof(region), "if (i < n)", 0), fields);
	expect_error("\"refactors\": []", json, want, SRC);
}

static void test_row_refactors_need_their_arguments(void)
{
	expect_refactor_error("\"kind\": \"row_split\", \"index_var\": \"i\"",
	                      "a 'row_split' refactor needs 'grid'");
	expect_refactor_error(
	    "\"kind\": \"hoist_loads\", \"index_var\": \"i\", \"bound\": "
	    "\"n\", \"arrays\": [{\"name\": \"y\", \"load\": true, "
	    "\"store\": false}]",
	    "a 'hoist_loads' array is loaded, never stored, and has a 'type'");
	expect_refactor_error("\"kind\": \"launch_bounds\"",
	                      "a 'launch_bounds' refactor needs 'max_threads'");
	expect_refactor_error(
	    "\"kind\": \"pack_stores\", \"index_var\": \"k\", \"bound\": "
	    "\"3\", \"elem_type\": \"__half\", \"elem_size\": 2, \"arrays\": "
	    "[{\"name\": \"y\", \"load\": false, \"store\": true}]",
	    "a 'pack_stores' vector is 4, 8 or 16 bytes, not 6");
	expect_refactor_error(
	    "\"kind\": \"pack_stores\", \"index_var\": \"k\", \"bound\": "
	    "\"n\", \"elem_type\": \"__half\", \"elem_size\": 2, \"arrays\": "
	    "[{\"name\": \"y\", \"load\": false, \"store\": true}]",
	    "a 'pack_stores' loop's count is an integer from 2 to 16");
	expect_refactor_error(
	    "\"kind\": \"pack_stores\", \"index_var\": \"k\", \"bound\": "
	    "\"8\", \"elem_type\": \"__half\", \"elem_size\": 2, \"arrays\": "
	    "[{\"name\": \"y\", \"load\": true, \"store\": true}]",
	    "a 'pack_stores' refactor has one array, stored and not loaded");
}

/* A groups_per_block refactor's if-chain form names one local and
 * replaces an `if` statement, nothing else. */
static void test_groups_per_block_chain_form(void)
{
	char edit[160], fields[480];
	snprintf(fields, sizeof(fields),
	         "\"kind\": \"groups_per_block\", \"index_var\": \"i\", "
	         "\"bound\": \"n\", \"elem_type\": \"int\", \"launch\": 0, "
	         "\"edits\": [{\"range\": %s, \"text\": \"i < n\", "
	         "\"with\": \"BLOCK\"}]",
	         range_text(edit, sizeof(edit), "i < n", 0));
	expect_refactor_error(fields, "names one local ('i') and replaces an "
	                              "'if' statement");
	snprintf(fields, sizeof(fields),
	         "\"kind\": \"groups_per_block\", \"index_var\": \"y[0]\", "
	         "\"bound\": \"n\", \"elem_type\": \"int\", \"launch\": 0, "
	         "\"edits\": [{\"range\": %s, \"text\": \"if (i < n)\", "
	         "\"with\": \"BLOCK\"}]",
	         range_text(edit, sizeof(edit), "if (i < n)", 0));
	expect_refactor_error(fields, "names one local ('y[0]')");
}

/* What the rewriter writes into the code from a plan is one expression
 * or type: no statements, directives, comments or asm ride along. */
static void test_code_fields_carry_no_code(void)
{
	expect_refactor_error(
	    "\"kind\": \"pack_stores\", \"index_var\": \"k\", \"bound\": "
	    "\"8\", \"elem_type\": \"__half; asm(\\\"trap;\\\")\", "
	    "\"elem_size\": 2, \"arrays\": [{\"name\": \"y\", \"load\": "
	    "false, \"store\": true}]",
	    "elem_type: '__half; asm(");
	expect_refactor_error(
	    "\"kind\": \"hoist_loads\", \"index_var\": \"i\", \"bound\": "
	    "\"n\", \"arrays\": [{\"name\": \"y\", \"offset\": \"0] = 1; "
	    "y[0\", \"load\": true, \"store\": false, \"type\": \"float\"}]",
	    "arrays[0]: offset: '0] = 1; y[0'");
	expect_refactor_error(
	    "\"kind\": \"vectorize\", \"index_var\": \"i\", \"bound\": "
	    "\"n\", \"elem_type\": \"asm volatile\", \"elem_size\": 4, "
	    "\"arrays\": [{\"name\": \"y\", \"load\": true, \"store\": true}]",
	    "elem_type: 'asm volatile' is not one expression");
}

static int parse_edited(kt_diags *d, const char *from, const char *to);

/* max_threads lands in the file: parameters and literals, no code. */
static void test_launch_bounds_max_threads_is_checked(void)
{
	expect_refactor_error(
	    "\"kind\": \"launch_bounds\", \"max_threads\": "
	    "\"BLOCK * NOPE\"",
	    "max_threads: 'max_threads' must be an expression "
	    "over parameters and integer literals (+ - * / % "
	    "<< >>, parentheses): a name that is not a "
	    "parameter at character 9");
	expect_refactor_error("\"kind\": \"launch_bounds\", \"max_threads\": "
	                      "\"BLOCK); int x(\"",
	                      "an unmatched ')' at character 6");
	expect_refactor_error("\"kind\": \"launch_bounds\", \"max_threads\": "
	                      "\"system(1)\"",
	                      "a name that is not a parameter at character 1");
	/* the planner's forms: a parameter, times literals or parameters */
	static const char *const good[] = {"BLOCK", "BLOCK * 8",
	                                   "BLOCK * BLOCK", "256"};
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		char region[160], json[600];
		snprintf(json, sizeof(json),
		         "\"refactors\": [{\"kernel\": \"k\", \"param\": "
		         "\"BLOCK\", \"region\": %s, \"kind\": "
		         "\"launch_bounds\", \"max_threads\": \"%s\"}]",
		         range_text(region, sizeof(region), "if (i < n)", 0),
		         good[i]);
		kt_diags d;
		kt_diags_init(&d);
		int rc = parse_edited(&d, "\"refactors\": []", json);
		if (rc)
			kt_diags_print(&d, stderr, 0);
		CHECK_EQ_INT(rc, 0);
		kt_diags_release(&d);
	}
}

/* ---- hostile plans: read in linear time, errors capped ---- */

/* n copies of piece, then tail (kt_free the result). */
static char *repeat(const char *piece, size_t n, const char *tail)
{
	size_t k = strlen(piece), t = strlen(tail);
	char *s = kt_malloc(n * k + t + 1);
	for (size_t i = 0; s && i < n; i++)
		memcpy(s + i * k, piece, k);
	if (s)
		memcpy(s + n * k, tail, t + 1);
	return s;
}

/* Parses plan_text() with its first `from` replaced by `to`; the diags
 * are d's. */
static int parse_edited(kt_diags *d, const char *from, const char *to)
{
	char *json = plan_text();
	char *at = json ? strstr(json, from) : NULL;
	CHECK(at != NULL);
	kt_str e = KT_STR_INIT;
	kt_plan *p = NULL;
	int rc = -100;
	if (at && !kt_str_add(&e, json, (size_t)(at - json)) &&
	    !kt_str_add(&e, to, strlen(to)) &&
	    !kt_str_add(&e, at + strlen(from), strlen(at + strlen(from))))
		rc = kt_plan_from_json(&p, e.ptr, e.len, "plan.json", src,
		                       sizeof(src) - 1, d);
	kt_plan_free(p);
	kt_str_release(&e);
	kt_free(json);
	return rc;
}

static bool some_error(const kt_diags *d, const char *want)
{
	for (size_t i = 0; i < d->len; i++)
		if (strstr(d->items[i].message, want))
			return true;
	fprintf(stderr, "wanted an error containing '%s', got %zu:\n", want,
	        d->len);
	return false;
}

/* 2M values hung the checks (each value compared to every earlier one). */
static void test_lists_beyond_the_limit_are_refused(void)
{
	static const size_t counts[] = {30000, 2000000};
	for (size_t k = 0; k < 2; k++) {
		kt_diags d;
		kt_diags_init(&d);
		char *many = repeat("1024, ", counts[k], "");
		kt_str to = KT_STR_INIT;
		kt_str_addf(&to, "\"values\": [%s", many);
		CHECK_EQ_INT(parse_edited(&d, "\"values\": [", to.ptr),
		             KT_EPARSE);
		CHECK(some_error(&d, "a plan holds at most 20000"));
		CHECK(d.len <= 101);
		kt_str_release(&to);
		kt_free(many);
		kt_diags_release(&d);
	}
}

/* Each duplicate was compared to, and reported against, every earlier
 * one: n^2/2 errors (13 GB for 100000 copies of a field). */
static void test_duplicate_fields_are_reported_linearly(void)
{
	kt_diags d;
	kt_diags_init(&d);
	char *dups = repeat("\"planner\":\"x\",", 3000, "\"planner\":");
	CHECK_EQ_INT(parse_edited(&d, "\"planner\":", dups), KT_EPARSE);
	CHECK(some_error(&d, "planner: duplicate field"));
	CHECK(d.len <= 101);
	CHECK(some_error(&d, "and 2900 more errors"));
	kt_free(dups);
	kt_diags_release(&d);
}

static void test_errors_are_capped(void)
{
	kt_diags d;
	kt_diags_init(&d);
	kt_str many = KT_STR_INIT;
	for (int i = 0; i < 1000000; i++)
		kt_str_addf(&many, "\"x%d\": 1, ", i);
	kt_str_add(&many, "\"planner\":", 10);
	CHECK_EQ_INT(parse_edited(&d, "\"planner\":", many.ptr), KT_EPARSE);
	CHECK(some_error(&d, "x99: unknown field"));
	CHECK(some_error(&d, "and 999900 more errors"));
	CHECK(d.len <= 101);
	kt_str_release(&many);
	kt_diags_release(&d);
}

static void test_deep_nesting_is_refused(void)
{
	kt_diags d;
	kt_diags_init(&d);
	char *open = repeat("[", 100000, "");
	char *close = repeat("]", 100000, ",");
	kt_str to = KT_STR_INIT;
	kt_str_addf(&to, "\"planner\":%s%s\"planner\":", open, close);
	CHECK_EQ_INT(parse_edited(&d, "\"planner\":", to.ptr), KT_EPARSE);
	CHECK(some_error(&d, "nested deeper than 64 levels"));
	CHECK(d.len == 1);
	kt_str_release(&to);
	kt_free(open);
	kt_free(close);
	kt_diags_release(&d);
}

/* A long string is read once: 64 MiB of planner name is a valid plan. */
static void test_long_string_is_read(void)
{
	kt_diags d;
	kt_diags_init(&d);
	char *name = repeat("a", 64 << 20, "\",");
	kt_str to = KT_STR_INIT;
	kt_str_addf(&to, "\"planner\":\"%s", name);
	CHECK_EQ_INT(parse_edited(&d, "\"planner\": \"builtin\",", to.ptr), 0);
	kt_str_release(&to);
	kt_free(name);
	kt_diags_release(&d);
}

/* The plan with the `with` of uses[nth] (0: device, 1: host) set to with;
 * KT_EPARSE and an error at that field containing want are expected. */
static void expect_with_error(int nth, const char *with, const char *want)
{
	char *json = plan_text();
	const char *from = "\"with\": \"BLOCK\"";
	char *at = json ? strstr(json, from) : NULL;
	for (int i = 0; at && i < nth; i++)
		at = strstr(at + 1, from);
	CHECK(at != NULL);
	kt_str e = KT_STR_INIT, w = KT_STR_INIT;
	kt_diags d;
	kt_diags_init(&d);
	kt_plan *p = NULL;
	int rc = -100;
	if (at && !kt_str_add(&e, json, (size_t)(at - json)) &&
	    !kt_str_addf(&e, "\"with\": \"%s\"", with) &&
	    !kt_str_adds(&e, at + strlen(from)))
		rc = kt_plan_from_json(&p, e.ptr, e.len, "plan.json", src,
		                       sizeof(src) - 1, &d);
	CHECK_EQ_INT(rc, KT_EPARSE);
	CHECK(p == NULL);
	kt_str_addf(&w, "params[0].uses[%d].with: ", nth);
	bool found = false;
	for (size_t i = 0; i < d.len; i++)
		found |= strstr(d.items[i].message, w.ptr) &&
		         strstr(d.items[i].message, want);
	if (!found) {
		fprintf(stderr, "'%s': wanted '%s%s', got:\n", with, w.ptr,
		        want);
		kt_diags_print(&d, stderr, 0);
	}
	CHECK(found);
	kt_plan_free(p);
	kt_diags_release(&d);
	kt_str_release(&w);
	kt_str_release(&e);
	kt_free(json);
}

/* Each form that could smuggle code into the user's file, device and host. */
static void test_with_must_be_an_expression_over_the_parameter(void)
{
	static const struct {
		const char *with, *want;
	} bad[] = {
	    {"BLOCK + n", "a name that is not a parameter at character 9"},
	    {"f(BLOCK)", "a name that is not a parameter at character 1"},
	    {"BLOCK; system(0)", "text after the expression at character 6"},
	    {"BLOCK } int x; {", "text after the expression"},
	    {"BLOCK /* x */", "a character that starts no operand"},
	    {"BLOCK // x", "a character that starts no operand"},
	    {"BLOCK\\n#include <x>", "text after the expression"},
	    {"#define BLOCK 1", "a character that starts no operand"},
	    {"\\\"s\\\" BLOCK", "a character that starts no operand"},
	    {"'a' + BLOCK", "a character that starts no operand"},
	    {"BLOCK, 1", "text after the expression"},
	    {"BLOCK ? 1 : 2", "text after the expression"},
	    {"(BLOCK", "a missing ')'"},
	    {"BLOCK)", "an unmatched ')'"},
	    {"BLOCK + 1.5", "not a small decimal integer"},
	    {"BLOCK + 0x10", "not a small decimal integer"},
	    {"BLOCK + 1u", "not a small decimal integer"},
	    {"BLOCK + 99999999999999999999", "not a small decimal integer"},
	    {"BLOCKS", "a name that is not a parameter"},
	    {"BLOCK +", "a character that starts no operand"},
	    {"((((((((((((((((((BLOCK))))))))))))))))))", "nested too deep"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		for (int nth = 0; nth < 2; nth++)
			expect_with_error(nth, bad[i].with, bad[i].want);
}

static void test_with_expressions_the_planner_writes_are_read(void)
{
	static const char *const good[] = {
	    "BLOCK",     "(BLOCK - 1)", "(BLOCK / 32)",          "(BLOCK * 4)",
	    "BLOCK + 1", "-BLOCK",      "(BLOCK << 1) % 7 >> 1", "2 * (BLOCK)"};
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		kt_str to = KT_STR_INIT;
		kt_diags d;
		kt_diags_init(&d);
		kt_str_addf(&to, "\"with\": \"%s\"", good[i]);
		int rc = parse_edited(&d, "\"with\": \"BLOCK\"", to.ptr);
		if (rc)
			kt_diags_print(&d, stderr, 0);
		CHECK_EQ_INT(rc, 0);
		kt_diags_release(&d);
		kt_str_release(&to);
	}
}

static void test_refactor_edit_with_is_checked(void)
{
	char region[160], lit[160], json[600];
	snprintf(json, sizeof(json),
	         "\"refactors\": [{\"kind\": \"stride_follows_block\", "
	         "\"kernel\": \"k\", \"param\": \"BLOCK\", \"index_var\": "
	         "\"i\", \"region\": %s, \"edits\": [{\"range\": %s, "
	         "\"text\": \"256\", \"with\": \"BLOCK; }\"}]}]",
	         range_text(region, sizeof(region), "int i", 0),
	         range_text(lit, sizeof(lit), "256", 0));
	expect_error("\"refactors\": []", json,
	             "refactors[0].edits[0].with: 'with' must be an "
	             "expression over 'BLOCK'",
	             SRC);
}

int main(void)
{
	RUN(test_built_plan_validates_against_its_file);
	RUN(test_json_round_trip_is_identical);
	RUN(test_groups_per_block_chain_form);
	RUN(test_unknown_field_is_an_error);
	RUN(test_wrong_type_is_an_error);
	RUN(test_missing_field_is_an_error);
	RUN(test_range_outside_file_is_an_error);
	RUN(test_line_col_must_match_offset);
	RUN(test_text_must_match_source);
	RUN(test_overlapping_edits_are_an_error);
	RUN(test_edit_partly_inside_region_is_an_error);
	RUN(test_stale_plan_is_refused);
	RUN(test_unknown_name_in_constraint_is_an_error);
	RUN(test_default_outside_domain_is_an_error);
	RUN(test_launch_index_must_exist);
	RUN(test_unknown_enum_value_is_an_error);
	RUN(test_bad_version_is_refused);
	RUN(test_invalid_json_is_an_error);
	RUN(test_reserved_name_is_an_error);
	RUN(test_refactor_needs_its_arguments);
	RUN(test_row_refactors_need_their_arguments);
	RUN(test_code_fields_carry_no_code);
	RUN(test_launch_bounds_max_threads_is_checked);
	RUN(test_lists_beyond_the_limit_are_refused);
	RUN(test_duplicate_fields_are_reported_linearly);
	RUN(test_errors_are_capped);
	RUN(test_deep_nesting_is_refused);
	RUN(test_long_string_is_read);
	RUN(test_with_must_be_an_expression_over_the_parameter);
	RUN(test_with_expressions_the_planner_writes_are_read);
	RUN(test_refactor_edit_with_is_checked);
	return check_summary();
}
