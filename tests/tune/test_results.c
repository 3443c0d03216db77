/* test_results.c - results, the append-only cache and T4 files. */
#include "check.h"

#include "ktc/results.h"
#include "util/fs.h"
#include "util/str.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/ktc-test-results-XXXXXX";

static char *tmp_path(const char *name)
{
	static char buf[8][256];
	static int next;
	char *p = buf[next++ % 8];
	snprintf(p, 256, "%s/%s", tmpdir, name);
	return p;
}

/* A description as a model with parameters BLOCK and VEC would give. */
static void make_info(kt_results_info *info, const char *kernel, int64_t n,
                      const char *device)
{
	memset(info, 0, sizeof(*info));
	info->kernel = kt_strdup(kernel);
	info->template_path = kt_strdup("k.kt.cu");
	info->template_hash = 0x1234abcdULL;
	info->problem_names = kt_calloc(1, sizeof(char *));
	info->problem_names[0] = kt_strdup("N");
	info->problem = kt_calloc(1, sizeof(kt_value));
	info->problem[0] = kt_int(n);
	info->nproblems = 1;
	info->param_names = kt_calloc(2, sizeof(char *));
	info->param_names[0] = kt_strdup("BLOCK");
	info->param_names[1] = kt_strdup("VEC");
	info->nparams = 2;
	snprintf(info->device.name, sizeof(info->device.name), "%s", device);
}

static void make_result(kt_result *r, kt_status st, double t)
{
	kt_result_init(r);
	r->status = st;
	r->time_ms = t;
	if (st == KT_STATUS_OK) {
		r->nruntimes = 3;
		r->runtimes_ms = kt_malloc(3 * sizeof(double));
		r->runtimes_ms[0] = t * 0.99;
		r->runtimes_ms[1] = t;
		r->runtimes_ms[2] = t * 1.0123456789;
		r->spread = 0.0234;
		kt_result_add_measure(r, "registers", 40, "");
	} else {
		r->message = kt_strdup("error: \"x\" undeclared\nline 2");
	}
	r->compile_s = 1.25;
	r->timestamp = 1700000000.5;
}

static void status_names_are_t4_invalidity_values(void)
{
	CHECK_EQ_STR(kt_status_name(KT_STATUS_OK), "correct");
	CHECK_EQ_STR(kt_status_name(KT_STATUS_COMPILE), "compile");
	CHECK_EQ_STR(kt_status_name(KT_STATUS_RUNTIME), "runtime");
	CHECK_EQ_STR(kt_status_name(KT_STATUS_CORRECTNESS), "correctness");
	CHECK_EQ_STR(kt_status_name(KT_STATUS_CONSTRAINTS), "constraints");
	CHECK_EQ_STR(kt_status_name(KT_STATUS_TIMEOUT), "timeout");
	for (int s = KT_STATUS_OK; s <= KT_STATUS_TIMEOUT; s++)
		CHECK_EQ_INT(kt_status_parse(kt_status_name((kt_status)s)), s);
}

static void status_parse_rejects_unknown_names(void)
{
	CHECK_EQ_INT(kt_status_parse("ok"), -1);
	CHECK_EQ_INT(kt_status_parse(""), -1);
	CHECK_EQ_INT(kt_status_parse(NULL), -1);
}

static void result_measures_are_added_replaced_and_found(void)
{
	kt_result r;
	kt_result_init(&r);
	CHECK(isnan(r.time_ms));
	CHECK_EQ_INT(kt_result_add_measure(&r, "registers", 32, ""), 0);
	CHECK_EQ_INT(kt_result_add_measure(&r, "bandwidth", 1500, "GB/s"), 0);
	CHECK_EQ_INT(kt_result_add_measure(&r, "registers", 40, ""), 0);
	CHECK_EQ_INT(r.nmeasures, 2);
	CHECK(kt_result_measure(&r, "registers")->value == 40);
	CHECK_EQ_STR(kt_result_measure(&r, "bandwidth")->unit, "GB/s");
	CHECK(kt_result_measure(&r, "occupancy") == NULL);
	kt_result_release(&r);
}

static void result_measures_refuse_long_names_and_overflow(void)
{
	kt_result r;
	kt_result_init(&r);
	CHECK(kt_result_add_measure(
	          &r, "a_name_much_longer_than_forty_characters_x", 1, "") < 0);
	char name[16];
	for (int i = 0; i < KT_MAX_MEASURES; i++) {
		snprintf(name, sizeof(name), "m%d", i);
		CHECK_EQ_INT(kt_result_add_measure(&r, name, i, ""), 0);
	}
	CHECK(kt_result_add_measure(&r, "one_more", 1, "") < 0);
	kt_result_release(&r);
}

static void result_copy_is_deep(void)
{
	kt_result a, b;
	make_result(&a, KT_STATUS_OK, 2.0);
	CHECK_EQ_INT(kt_result_copy(&b, &a), 0);
	CHECK(b.runtimes_ms != a.runtimes_ms);
	CHECK(b.runtimes_ms[2] == a.runtimes_ms[2]);
	kt_result_release(&a);
	CHECK(b.nruntimes == 3 && b.runtimes_ms[0] == 2.0 * 0.99);
	kt_result_release(&b);
}

static void write_three(const char *path, const kt_results_info *info)
{
	kt_cache *c;
	CHECK_EQ_INT(kt_cache_open(&c, path, info, false), 0);
	if (!c)
		return;
	kt_value v[2] = {kt_int(128), kt_int(4)};
	kt_result r;
	make_result(&r, KT_STATUS_OK, 0.1 + 0.2); /* not exact in binary */
	CHECK_EQ_INT(kt_cache_append(c, "BLOCK=128,VEC=4", v, &r), 0);
	kt_result_release(&r);
	v[0] = kt_int(256);
	make_result(&r, KT_STATUS_COMPILE, NAN);
	CHECK_EQ_INT(kt_cache_append(c, "BLOCK=256,VEC=4", v, &r), 0);
	kt_result_release(&r);
	v[1] = kt_int(8);
	make_result(&r, KT_STATUS_OK, 1.0 / 3.0);
	CHECK_EQ_INT(kt_cache_append(c, "BLOCK=256,VEC=8", v, &r), 0);
	kt_result_release(&r);
	CHECK_EQ_INT(kt_cache_results(c)->nrecords, 3);
	kt_cache_close(c);
}

static void cache_round_trips_records_exactly(void)
{
	const char *path = tmp_path("round.jsonl");
	kt_results_info info;
	make_info(&info, "saxpy", 1024, "NVIDIA H100");
	write_three(path, &info);
	kt_cache *c;
	CHECK_EQ_INT(kt_cache_open(&c, path, &info, false), 0);
	if (c) {
		const kt_results *r = kt_cache_results(c);
		CHECK_EQ_INT(r->nrecords, 3);
		CHECK_EQ_INT(r->dropped, 0);
		const kt_record *a = kt_cache_find(c, "BLOCK=128,VEC=4");
		CHECK(a && a->result.time_ms == 0.1 + 0.2);
		CHECK(a && a->result.nruntimes == 3 &&
		      a->result.runtimes_ms[2] == (0.1 + 0.2) * 1.0123456789);
		CHECK(a && a->result.spread == 0.0234);
		CHECK(a && a->result.compile_s == 1.25);
		CHECK(a && a->result.timestamp == 1700000000.5);
		CHECK(a &&
		      kt_result_measure(&a->result, "registers")->value == 40);
		CHECK(a && a->values[0].i == 128 && a->values[1].i == 4);
		const kt_record *b = kt_cache_find(c, "BLOCK=256,VEC=4");
		CHECK(b && b->result.status == KT_STATUS_COMPILE);
		CHECK(b && isnan(b->result.time_ms));
		CHECK(b && !strcmp(b->result.message,
		                   "error: \"x\" undeclared\nline 2"));
		const kt_record *d = kt_cache_find(c, "BLOCK=256,VEC=8");
		CHECK(d && d->result.time_ms == 1.0 / 3.0);
		CHECK(kt_cache_find(c, "BLOCK=64,VEC=4") == NULL);
		kt_cache_close(c);
	}
	kt_results *loaded;
	CHECK_EQ_INT(kt_results_load(&loaded, path), 0);
	if (loaded) {
		CHECK_EQ_INT(loaded->format, KT_RESULTS_CACHE);
		CHECK_EQ_STR(loaded->info.kernel, "saxpy");
		CHECK_EQ_STR(loaded->info.device.name, "NVIDIA H100");
		CHECK(loaded->info.template_hash == 0x1234abcdULL);
		CHECK_EQ_INT(loaded->info.nparams, 2);
		CHECK_EQ_STR(loaded->info.param_names[1], "VEC");
		CHECK(loaded->info.nproblems == 1 &&
		      loaded->info.problem[0].i == 1024);
		kt_results_free(loaded);
	}
	kt_results_info_release(&info);
}

static void append_raw(const char *path, const char *text)
{
	FILE *f = fopen(path, "ab");
	fputs(text, f);
	fclose(f);
}

static void cache_drops_a_truncated_last_line(void)
{
	const char *path = tmp_path("trunc.jsonl");
	kt_results_info info;
	make_info(&info, "saxpy", 1024, "NVIDIA H100");
	write_three(path, &info);
	append_raw(path, "{\"key\":\"BLOCK=512,VEC=4\",\"config\":{\"BLO");
	kt_cache *c;
	CHECK_EQ_INT(kt_cache_open(&c, path, &info, false), 0);
	if (c) {
		CHECK_EQ_INT(kt_cache_results(c)->nrecords, 3);
		CHECK_EQ_INT(kt_cache_results(c)->dropped, 1);
		kt_value v[2] = {kt_int(512), kt_int(4)};
		kt_result r;
		make_result(&r, KT_STATUS_OK, 0.5);
		CHECK_EQ_INT(kt_cache_append(c, "BLOCK=512,VEC=4", v, &r), 0);
		kt_result_release(&r);
		kt_cache_close(c);
	}
	/* the partial line was cut off, so the new line reads back intact */
	kt_results *loaded;
	CHECK_EQ_INT(kt_results_load(&loaded, path), 0);
	if (loaded) {
		CHECK_EQ_INT(loaded->nrecords, 4);
		CHECK_EQ_INT(loaded->dropped, 0);
		CHECK_EQ_STR(loaded->records[3].key, "BLOCK=512,VEC=4");
		kt_results_free(loaded);
	}
	kt_results_info_release(&info);
}

static void cache_refuses_a_damaged_middle_line(void)
{
	const char *path = tmp_path("damaged.jsonl");
	kt_results_info info;
	make_info(&info, "saxpy", 1024, "NVIDIA H100");
	write_three(path, &info);
	append_raw(path, "{not json}\n{\"also\":1}\n");
	kt_cache *c;
	CHECK(kt_cache_open(&c, path, &info, false) < 0);
	CHECK(strstr(kt_error_last(), "line 5 is damaged") != NULL);
	kt_results_info_release(&info);
}

static void expect_refusal(const char *path, const kt_results_info *want,
                           const char *words)
{
	kt_cache *c = NULL;
	CHECK(kt_cache_open(&c, path, want, false) < 0);
	CHECK(c == NULL);
	if (!strstr(kt_error_last(), words)) {
		fprintf(stderr, "message '%s' lacks '%s'\n", kt_error_last(),
		        words);
		CHECK(0);
	}
}

static void cache_refuses_a_header_that_does_not_match(void)
{
	const char *path = tmp_path("header.jsonl");
	kt_results_info info, other;
	make_info(&info, "saxpy", 1024, "NVIDIA H100");
	write_three(path, &info);
	make_info(&other, "saxpy", 1024, "NVIDIA H100");
	other.template_hash = 0x99;
	expect_refusal(path, &other, "another version of the template");
	kt_results_info_release(&other);
	make_info(&other, "axpy", 1024, "NVIDIA H100");
	expect_refusal(path, &other, "kernel 'saxpy', not 'axpy'");
	kt_results_info_release(&other);
	make_info(&other, "saxpy", 2048, "NVIDIA H100");
	expect_refusal(path, &other, "problem N=1024, not N=2048");
	kt_results_info_release(&other);
	make_info(&other, "saxpy", 1024, "NVIDIA A100");
	expect_refusal(path, &other, "device 'NVIDIA H100', not 'NVIDIA A100'");
	kt_results_info_release(&other);
	kt_results_info_release(&info);
}

/* Times of the graph objective (steady state of back-to-back launches)
 * and of the cold one must not answer each other; a header without an
 * objective (older caches) is a cold one. */
static void cache_of_another_objective_is_refused(void)
{
	const char *path = tmp_path("objective.jsonl");
	kt_results_info info, other;
	make_info(&info, "saxpy", 1024, "NVIDIA H100");
	write_three(path, &info);
	make_info(&other, "saxpy", 1024, "NVIDIA H100");
	other.objective = kt_strdup("graph");
	expect_refusal(path, &other, "objective 'cold', not 'graph'");
	const char *gpath = tmp_path("objective-graph.jsonl");
	write_three(gpath, &other);
	expect_refusal(gpath, &info, "objective 'graph', not 'cold'");
	kt_cache *c = NULL;
	CHECK_EQ_INT(kt_cache_open(&c, gpath, &other, false), 0);
	if (c)
		CHECK_EQ_STR(kt_cache_results(c)->info.objective, "graph");
	kt_cache_close(c);
	kt_results_info_release(&info);
	kt_results_info_release(&other);
}

static void cache_force_new_keeps_the_old_file_aside(void)
{
	const char *path = tmp_path("force.jsonl");
	kt_results_info info, other;
	make_info(&info, "saxpy", 1024, "NVIDIA H100");
	write_three(path, &info);
	make_info(&other, "saxpy", 2048, "NVIDIA H100");
	kt_cache *c;
	CHECK_EQ_INT(kt_cache_open(&c, path, &other, true), 0);
	if (c) {
		CHECK_EQ_INT(kt_cache_results(c)->nrecords, 0);
		kt_cache_close(c);
	}
	kt_results *old;
	CHECK_EQ_INT(kt_results_load(&old, tmp_path("force.jsonl.old")), 0);
	if (old) {
		CHECK_EQ_INT(old->nrecords, 3);
		kt_results_free(old);
	}
	CHECK_EQ_INT(kt_cache_open(&c, path, &other, false), 0);
	kt_cache_close(c);
	kt_results_info_release(&other);
	kt_results_info_release(&info);
}

static void cache_is_locked_against_a_second_run(void)
{
	const char *path = tmp_path("lock.jsonl");
	kt_results_info info;
	make_info(&info, "saxpy", 1024, "NVIDIA H100");
	kt_cache *c;
	CHECK_EQ_INT(kt_cache_open(&c, path, &info, false), 0);
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) { /* another process: fcntl locks are per process */
		kt_cache *c2;
		int rc = kt_cache_open(&c2, path, &info, false);
		_exit(rc < 0 && strstr(kt_error_last(), "in use") ? 0 : 1);
	}
	int status = -1;
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	kt_cache_close(c);
	kt_results_info_release(&info);
}

static void write_t4(const char *path, kt_results_info *info)
{
	kt_result r[2];
	make_result(&r[0], KT_STATUS_OK, 0.25);
	make_result(&r[1], KT_STATUS_RUNTIME, NAN);
	kt_value v[2][2] = {{kt_int(128), kt_int(4)},
	                    {kt_int(1024), kt_int(8)}};
	kt_t4_row rows[2] = {{v[0], &r[0]}, {v[1], &r[1]}};
	info->seed = 42;
	info->strategy = kt_strdup("random");
	CHECK_EQ_INT(kt_t4_write(path, info, "cuda", rows, 2), 0);
	kt_result_release(&r[0]);
	kt_result_release(&r[1]);
}

static cJSON *read_json(const char *path)
{
	char *text = NULL;
	CHECK_EQ_INT(kt_fs_read(&text, NULL, path), 0);
	cJSON *j = text ? cJSON_Parse(text) : NULL;
	kt_free(text);
	return j;
}

static void t4_file_has_the_schema_fields(void)
{
	const char *path = tmp_path("out.t4.json");
	kt_results_info info;
	make_info(&info, "saxpy", 1024, "NVIDIA H100");
	write_t4(path, &info);
	cJSON *doc = read_json(path);
	CHECK(doc != NULL);
	if (!doc)
		return;
	CHECK_EQ_STR(cJSON_GetObjectItem(doc, "schema_version")->valuestring,
	             "1.0.0");
	cJSON *results = cJSON_GetObjectItem(doc, "results");
	CHECK_EQ_INT(cJSON_GetArraySize(results), 2);
	cJSON *r0 = cJSON_GetArrayItem(results, 0);
	CHECK(cJSON_IsString(cJSON_GetObjectItem(r0, "timestamp")));
	CHECK(!strncmp(cJSON_GetObjectItem(r0, "timestamp")->valuestring,
	               "2023-11-14T22:13:20.500Z", 24));
	cJSON *config = cJSON_GetObjectItem(r0, "configuration");
	CHECK(cJSON_GetObjectItem(config, "BLOCK")->valuedouble == 128);
	CHECK_EQ_STR(
	    cJSON_GetArrayItem(cJSON_GetObjectItem(r0, "objectives"), 0)
	        ->valuestring,
	    "time");
	cJSON *times = cJSON_GetObjectItem(r0, "times");
	const char *keys[] = {"compilation", "benchmark", "framework",
	                      "search_algorithm", "validation"};
	for (size_t i = 0; i < 5; i++)
		CHECK(cJSON_IsNumber(cJSON_GetObjectItem(times, keys[i])));
	CHECK(cJSON_GetObjectItem(times, "compilation")->valuedouble == 1250);
	CHECK_EQ_INT(cJSON_GetArraySize(cJSON_GetObjectItem(times, "runtimes")),
	             3);
	CHECK_EQ_STR(cJSON_GetObjectItem(r0, "invalidity")->valuestring,
	             "correct");
	CHECK(cJSON_GetObjectItem(r0, "correctness")->valuedouble == 1);
	cJSON *m0 =
	    cJSON_GetArrayItem(cJSON_GetObjectItem(r0, "measurements"), 0);
	CHECK_EQ_STR(cJSON_GetObjectItem(m0, "name")->valuestring, "time");
	CHECK(cJSON_GetObjectItem(m0, "value")->valuedouble == 0.25);
	CHECK_EQ_STR(cJSON_GetObjectItem(m0, "unit")->valuestring, "ms");
	cJSON *r1 = cJSON_GetArrayItem(results, 1);
	CHECK_EQ_STR(cJSON_GetObjectItem(r1, "invalidity")->valuestring,
	             "runtime");
	CHECK(cJSON_GetObjectItem(r1, "correctness")->valuedouble == 0);
	cJSON *meta = cJSON_GetObjectItem(doc, "metadata");
	CHECK_EQ_STR(cJSON_GetObjectItem(meta, "timeunit")->valuestring,
	             "milliseconds");
	CHECK_EQ_STR(cJSON_GetObjectItem(meta, "backend")->valuestring, "cuda");
	CHECK_EQ_STR(cJSON_GetObjectItem(meta, "strategy")->valuestring,
	             "random");
	CHECK(cJSON_GetObjectItem(meta, "seed")->valuedouble == 42);
	CHECK_EQ_STR(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(meta, "device"), "name")
	        ->valuestring,
	    "NVIDIA H100");
	CHECK(cJSON_GetObjectItem(cJSON_GetObjectItem(meta, "problem"), "N")
	          ->valuedouble == 1024);
	CHECK(cJSON_GetObjectItem(meta, "ktc_version") != NULL);
	CHECK(cJSON_GetObjectItem(meta, "synthetic") == NULL);
	cJSON_Delete(doc);
	kt_results_info_release(&info);
}

static void t4_file_reads_back(void)
{
	const char *path = tmp_path("back.t4.json");
	kt_results_info info;
	make_info(&info, "saxpy", 1024, "NVIDIA H100");
	write_t4(path, &info);
	kt_results *r;
	CHECK_EQ_INT(kt_results_load(&r, path), 0);
	if (r) {
		CHECK_EQ_INT(r->format, KT_RESULTS_T4);
		CHECK_EQ_INT(r->nrecords, 2);
		CHECK_EQ_STR(r->info.param_names[0], "BLOCK");
		CHECK_EQ_STR(r->info.kernel, "saxpy");
		CHECK_EQ_STR(r->info.strategy, "random");
		CHECK(r->info.seed == 42);
		CHECK(r->records[0].result.time_ms == 0.25);
		CHECK(r->records[0].result.spread == 0.0234);
		CHECK(r->records[0].result.compile_s == 1.25);
		CHECK(r->records[0].result.timestamp == 1700000000.5);
		CHECK(kt_result_measure(&r->records[0].result, "registers")
		          ->value == 40);
		CHECK(r->records[1].values[0].i == 1024);
		CHECK(r->records[1].result.status == KT_STATUS_RUNTIME);
		CHECK(isnan(r->records[1].result.time_ms));
		kt_results_free(r);
	}
	kt_results_info_release(&info);
}

static void foreign_t4_without_time_takes_the_median_runtime(void)
{
	const char *path = tmp_path("foreign.t4.json");
	const char *text =
	    "{\"schema_version\":\"1.0.0\",\"results\":[{\"configuration\":"
	    "{\"X\":1.5},\"times\":{\"runtimes\":[3,1,2]},\"invalidity\":"
	    "\"correct\",\"correctness\":1}],\"metadata\":{\"timeunit\":"
	    "\"seconds\"}}";
	CHECK_EQ_INT(kt_fs_write_atomic(path, text, strlen(text)), 0);
	kt_results *r;
	CHECK_EQ_INT(kt_results_load(&r, path), 0);
	if (r) {
		CHECK(r->records[0].values[0].is_float &&
		      r->records[0].values[0].f == 1.5);
		CHECK(r->records[0].result.time_ms == 2000);
		kt_results_free(r);
	}
}

/* A seed no ktc wrote (past uint64_t, negative, fractional) reads as 0,
 * not as an out-of-range conversion (UBSan; found by fuzz_results). */
static void t4_seed_out_of_range_reads_as_zero(void)
{
	static const char *const seeds[] = {"1.55556e119", "-3", "1e300"};
	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		const char *path = tmp_path("seed.t4.json");
		char text[512];
		snprintf(text, sizeof(text),
		         "{\"schema_version\":\"1.0.0\",\"results\":[],"
		         "\"metadata\":{\"timeunit\":\"seconds\",\"seed\":%s}}",
		         seeds[i]);
		CHECK_EQ_INT(kt_fs_write_atomic(path, text, strlen(text)), 0);
		kt_results *r = NULL;
		CHECK_EQ_INT(kt_results_load(&r, path), 0);
		if (r)
			CHECK(r->info.seed == 0);
		kt_results_free(r);
	}
}

/* A cache of write_three's lines plus line (the 5th), loaded. */
static int load_with_line(const char *name, const char *line)
{
	const char *path = tmp_path(name);
	kt_results_info info;
	make_info(&info, "saxpy", 1024, "NVIDIA H100");
	unlink(path);
	write_three(path, &info);
	append_raw(path, line);
	kt_results *r = NULL;
	int rc = kt_results_load(&r, path);
	kt_results_free(r);
	kt_results_info_release(&info);
	return rc;
}

static void cache_refuses_records_that_cannot_be_true(void)
{
	static const char *lines[] = {
	    /* a correct result in no time, or in negative or infinite time */
	    "{\"key\":\"BLOCK=64,VEC=4\",\"config\":{\"BLOCK\":64,\"VEC\":4},"
	    "\"status\":\"correct\",\"time_ms\":0}\n",
	    "{\"key\":\"BLOCK=64,VEC=4\",\"config\":{\"BLOCK\":64,\"VEC\":4},"
	    "\"status\":\"correct\",\"time_ms\":-1}\n",
	    "{\"key\":\"BLOCK=64,VEC=4\",\"config\":{\"BLOCK\":64,\"VEC\":4},"
	    "\"status\":\"correct\",\"time_ms\":1e999}\n",
	    "{\"key\":\"BLOCK=64,VEC=4\",\"config\":{\"BLOCK\":64,\"VEC\":4},"
	    "\"status\":\"correct\"}\n",
	    /* a runtime that is not a positive number */
	    "{\"key\":\"BLOCK=64,VEC=4\",\"config\":{\"BLOCK\":64,\"VEC\":4},"
	    "\"status\":\"correct\",\"time_ms\":1,\"runtimes\":[1,-3]}\n",
	    /* a key that names another configuration than its values */
	    "{\"key\":\"BLOCK=64,VEC=4\",\"config\":{\"BLOCK\":32,\"VEC\":4},"
	    "\"status\":\"correct\",\"time_ms\":0.001}\n",
	};
	static const char *why[] = {"time", "time",    "time",
	                            "time", "runtime", "key"};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		CHECK(load_with_line("bad_record.jsonl", lines[i]) < 0);
		if (!strstr(kt_error_last(), "line 5") ||
		    !strstr(kt_error_last(), why[i])) {
			fprintf(stderr, "case %zu: '%s'\n", i, kt_error_last());
			CHECK(0);
		}
	}
	/* a failed configuration has no time, and that is fine */
	CHECK_EQ_INT(load_with_line("ok_record.jsonl",
	                            "{\"key\":\"BLOCK=64,VEC=4\",\"config\":"
	                            "{\"BLOCK\":64,\"VEC\":4},\"status\":"
	                            "\"runtime\"}\n"),
	             0);
}

static void cache_refuses_an_unknown_version(void)
{
	const char *path = tmp_path("version.jsonl");
	const char *text = "{\"ktc_cache\":2,\"kernel\":\"saxpy\",\"params\":"
	                   "[\"BLOCK\"]}\n";
	CHECK_EQ_INT(kt_fs_write_atomic(path, text, strlen(text)), 0);
	kt_results *r = NULL;
	CHECK(kt_results_load(&r, path) < 0);
	CHECK(strstr(kt_error_last(), "version 2") != NULL);
	kt_results_free(r);
}

static void cache_of_a_device_with_other_constants_is_refused(void)
{
	const char *path = tmp_path("consts.jsonl");
	kt_results_info info, other;
	make_info(&info, "saxpy", 1024, "NVIDIA H100");
	make_info(&other, "saxpy", 1024, "NVIDIA H100");
	info.device.consts[0] = 132;
	info.device.has_const[0] = true;
	other.device.consts[0] = 114; /* same name, fewer SMs (a MIG slice) */
	other.device.has_const[0] = true;
	write_three(path, &info);
	expect_refusal(path, &other, kt_device_consts[0].name);
	kt_results_info_release(&info);
	kt_results_info_release(&other);
}

/* A T4 file holding one result row `row` is refused, the message
 * holding `why`. */
static void expect_t4_refused(const char *name, const char *row,
                              const char *why)
{
	const char *path = tmp_path(name);
	kt_str text = KT_STR_INIT;
	kt_str_addf(&text,
	            "{\"schema_version\":\"1.0.0\",\"results\":[%s],"
	            "\"metadata\":{}}",
	            row);
	CHECK_EQ_INT(kt_fs_write_atomic(path, text.ptr, text.len), 0);
	kt_str_release(&text);
	kt_results *r = NULL;
	CHECK(kt_results_load(&r, path) < 0);
	CHECK(strstr(kt_error_last(), why) != NULL);
	kt_results_free(r);
}

static void t4_refuses_a_correct_result_without_a_positive_time(void)
{
	expect_t4_refused("negative.t4.json",
	                  "{\"configuration\":{\"X\":1},\"times\":{"
	                  "\"runtimes\":[-3,-1,-2]},\"invalidity\":"
	                  "\"correct\",\"correctness\":1}",
	                  "result 0");
}

/* The first row's configuration names the parameters: a list there (no
 * names) is refused, not read as names. */
static void t4_refuses_a_configuration_that_is_not_an_object(void)
{
	expect_t4_refused("list.t4.json",
	                  "{\"configuration\":[1,2],\"times\":{\"runtimes\":"
	                  "[1]},\"invalidity\":\"correct\",\"correctness\":1}",
	                  "'configuration'");
}

static void results_load_rejects_other_files(void)
{
	const char *path = tmp_path("other.json");
	CHECK_EQ_INT(kt_fs_write_atomic(path, "[1,2]", 5), 0);
	kt_results *r;
	CHECK(kt_results_load(&r, path) < 0);
	CHECK(strstr(kt_error_last(), "neither a ktc cache nor a T4 file") !=
	      NULL);
	CHECK_EQ_INT(kt_fs_write_atomic(path, "{\"a\":1}", 7), 0);
	CHECK(kt_results_load(&r, path) < 0);
	CHECK(strstr(kt_error_last(), "not a T4 file") != NULL);
}

int main(void)
{
	if (!mkdtemp(tmpdir))
		return 1;
	RUN(status_names_are_t4_invalidity_values);
	RUN(status_parse_rejects_unknown_names);
	RUN(result_measures_are_added_replaced_and_found);
	RUN(result_measures_refuse_long_names_and_overflow);
	RUN(result_copy_is_deep);
	RUN(cache_round_trips_records_exactly);
	RUN(cache_drops_a_truncated_last_line);
	RUN(cache_refuses_a_damaged_middle_line);
	RUN(cache_refuses_a_header_that_does_not_match);
	RUN(cache_of_another_objective_is_refused);
	RUN(cache_force_new_keeps_the_old_file_aside);
	RUN(cache_is_locked_against_a_second_run);
	RUN(t4_file_has_the_schema_fields);
	RUN(t4_file_reads_back);
	RUN(foreign_t4_without_time_takes_the_median_runtime);
	RUN(t4_seed_out_of_range_reads_as_zero);
	RUN(results_load_rejects_other_files);
	RUN(cache_refuses_records_that_cannot_be_true);
	RUN(cache_refuses_an_unknown_version);
	RUN(cache_of_a_device_with_other_constants_is_refused);
	RUN(t4_refuses_a_correct_result_without_a_positive_time);
	RUN(t4_refuses_a_configuration_that_is_not_an_object);
	kt_str cmd = KT_STR_INIT;
	kt_str_addf(&cmd, "rm -rf '%s'", tmpdir);
	if (system(cmd.ptr) != 0)
		fprintf(stderr, "could not remove %s\n", tmpdir);
	kt_str_release(&cmd);
	return check_summary();
}
