/* test_tune.c - the simulation backend, synthetic landscapes, the driver. */
#include "check.h"

#include "ktc/results.h"
#include "ktc/tune.h"
#include "util/fs.h"
#include "util/str.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/ktc-test-tune-XXXXXX";

static const char *const template_text =
    "#pragma kt problem N values(1024, 64) default(1024)\n"
    "#pragma kt param B pow2(32, 512) default(128)\n"
    "#pragma kt param I values(1, 2, 4, 8) default(1)\n"
    "#pragma kt param U values(1, 2, 4) default(1)\n"
    "#pragma kt constraint B * I <= 2048\n"
    "#pragma kt constraint U <= I\n"
    "#pragma kt launch grid(div_ceil(N, B * I)) block(B)\n"
    "#pragma kt arg out float[N] out\n"
    "#pragma kt arg in float[N] in\n"
    "__global__ void k(float *out, const float *in) {}\n";

static kt_template *tmpl;
static const kt_model *model;

static char *tmp_path(const char *name)
{
	static char buf[8][256];
	static int next;
	char *p = buf[next++ % 8];
	snprintf(p, 256, "%s/%s", tmpdir, name);
	return p;
}

/* ---- a brute-force strategy of the test's own: index order ------------- */

extern const kt_strategy_ops test_order_ops;

typedef struct order {
	kt_strategy base;
	uint64_t next, count;
	uint64_t told;
} order;

static int order_create(kt_strategy **out, const kt_space *space,
                        const kt_strategy_options *opt)
{
	order *o = kt_calloc(1, sizeof(*o));
	if (!o)
		return KT_ENOMEM;
	o->base.ops = &test_order_ops;
	o->count = kt_space_count(space);
	*out = &o->base;
	return 0;
}

static int order_ask(kt_strategy *s, uint64_t *out, size_t max, size_t *n)
{
	order *o = (order *)s;
	for (*n = 0; *n < max && o->next < o->count; (*n)++)
		out[*n] = o->next++;
	return 0;
}

static int order_tell(kt_strategy *s, uint64_t index, double y)
{
	((order *)s)->told++;
	return 0;
}

static void order_free(kt_strategy *s)
{
	kt_free(s);
}

const kt_strategy_ops test_order_ops = {
    "test_order", "index order", order_create,
    order_ask,    order_tell,    order_free,
};

/* ---- helpers ------------------------------------------------------------- */

static kt_backend *open_sim(const char *from)
{
	kt_backend *b = NULL;
	kt_backend_options bo = {.from = from};
	int rc = kt_backend_open(&b, "sim", model, &bo);
	if (rc)
		fprintf(stderr, "sim: %s\n", kt_error_last());
	CHECK_EQ_INT(rc, 0);
	return b;
}

static kt_tune_report *tune(const char *from, const kt_tune_options *opt)
{
	kt_backend *b = open_sim(from);
	kt_tune_report *r = NULL;
	if (!b)
		return NULL;
	int rc = kt_tune_run(&r, model, b, opt);
	if (rc)
		fprintf(stderr, "tune: %s\n", kt_error_last());
	CHECK_EQ_INT(rc, 0);
	kt_backend_free(b);
	return r;
}

static bool same_entries(const kt_tune_report *a, const kt_tune_report *b)
{
	if (!a || !b || a->nentries != b->nentries)
		return false;
	for (size_t i = 0; i < a->nentries; i++) {
		const kt_result *x = &a->entries[i].result,
		                *y = &b->entries[i].result;
		if (a->entries[i].index != b->entries[i].index ||
		    x->status != y->status ||
		    (x->time_ms != y->time_ms &&
		     !(isnan(x->time_ms) && isnan(y->time_ms))))
			return false;
	}
	return true;
}

/* A recording of three configurations, written as T4. */
static const char *small_recording(void)
{
	const char *path = tmp_path("small.t4.json");
	kt_results_info info;
	kt_device_info dev = {.name = "Recorded GPU"};
	dev.consts[0] = 100;
	dev.has_const[0] = true;
	CHECK_EQ_INT(kt_results_info_from_model(&info, model, NULL, &dev), 0);
	kt_value v[3][3] = {{kt_int(128), kt_int(1), kt_int(1)},
	                    {kt_int(256), kt_int(2), kt_int(2)},
	                    {kt_int(32), kt_int(8), kt_int(4)}};
	kt_result r[3];
	kt_t4_row rows[3];
	for (int i = 0; i < 3; i++) {
		kt_result_init(&r[i]);
		r[i].time_ms = 1.0 + i;
		rows[i] = (kt_t4_row){v[i], &r[i]};
	}
	r[2].status = KT_STATUS_COMPILE;
	r[2].time_ms = NAN;
	CHECK_EQ_INT(kt_t4_write(path, &info, "cuda", rows, 3), 0);
	kt_results_info_release(&info);
	return path;
}

static kt_eval_request request(uint32_t *idx, uint32_t b, uint32_t i,
                               uint32_t u)
{
	idx[0] = b;
	idx[1] = i;
	idx[2] = u;
	return (kt_eval_request){idx, NULL, "key"};
}

/* ---- the simulation backend ---------------------------------------------- */

static void sim_answers_recorded_configurations(void)
{
	kt_backend *b = open_sim(small_recording());
	if (!b)
		return;
	uint32_t idx[2][3];
	/* B=256 is index 3 of pow2(32, 512); I=2 index 1; U=2 index 1 */
	kt_eval_request req[2] = {request(idx[0], 2, 0, 0),
	                          request(idx[1], 3, 1, 1)};
	kt_result res[2];
	kt_result_init(&res[0]);
	kt_result_init(&res[1]);
	CHECK_EQ_INT(b->ops->set_problem(b, NULL), 0);
	CHECK_EQ_INT(b->ops->evaluate(b, req, 2, res), 0);
	CHECK(res[0].status == KT_STATUS_OK && res[0].time_ms == 1.0);
	CHECK(res[1].status == KT_STATUS_OK && res[1].time_ms == 2.0);
	CHECK(res[0].timestamp > 1.6e9); /* the time it was answered */
	kt_result_release(&res[0]);
	kt_result_release(&res[1]);
	kt_backend_free(b);
}

static void sim_reports_a_missing_configuration_as_an_error(void)
{
	kt_backend *b = open_sim(small_recording());
	if (!b)
		return;
	uint32_t idx[3];
	kt_eval_request req = request(idx, 0, 0, 0);
	req.key = "B=32,I=1,U=1";
	kt_result res;
	kt_result_init(&res);
	CHECK_EQ_INT(b->ops->evaluate(b, &req, 1, &res), KT_ENOTFOUND);
	CHECK(strstr(kt_error_last(),
	             "configuration 'B=32,I=1,U=1' is not in the "
	             "recording") != NULL);
	kt_result_release(&res);
	kt_backend_free(b);
}

static void sim_reports_the_recorded_device(void)
{
	kt_backend *b = open_sim(small_recording());
	if (!b)
		return;
	kt_device_info d;
	CHECK_EQ_INT(b->ops->device_info(b, &d), 0);
	CHECK_EQ_STR(d.name, "Recorded GPU");
	CHECK_EQ_STR(d.backend, "sim");
	CHECK(d.has_const[0] && d.consts[0] == 100);
	kt_backend_free(b);
}

static void sim_refuses_another_problem(void)
{
	kt_backend *b = open_sim(small_recording());
	if (!b)
		return;
	kt_value n = kt_int(64);
	CHECK(b->ops->set_problem(b, &n) < 0);
	CHECK(strstr(kt_error_last(), "holds problem N=1024, not N=64") !=
	      NULL);
	kt_backend_free(b);
}

static void sim_refuses_a_recording_of_other_parameters(void)
{
	const char *path = tmp_path("other.t4.json");
	const char *text =
	    "{\"schema_version\":\"1.0.0\",\"results\":[{\"configuration\":"
	    "{\"B\":32,\"I\":1,\"X\":1},\"times\":{\"runtimes\":[1]},"
	    "\"invalidity\":"
	    "\"correct\",\"correctness\":1}],\"metadata\":{}}";
	CHECK_EQ_INT(kt_fs_write_atomic(path, text, strlen(text)), 0);
	kt_backend *b = NULL;
	kt_backend_options bo = {.from = path};
	CHECK(kt_backend_open(&b, "sim", model, &bo) < 0);
	CHECK(strstr(kt_error_last(),
	             "has parameter 'X', which kernel 'k' does "
	             "not have") != NULL);
	bo.from = NULL;
	CHECK(kt_backend_open(&b, "sim", model, &bo) < 0);
	CHECK(strstr(kt_error_last(), "--from") != NULL);
}

static void backend_registry_knows_its_names(void)
{
	kt_backend *b = NULL;
	CHECK(strncmp(kt_backend_names(), "sim", 3) == 0);
	CHECK_EQ_INT(kt_backend_open(&b, "nope", model, NULL), KT_ENOTFOUND);
	CHECK(strstr(kt_error_last(), "unknown backend 'nope'") != NULL);
	if (!strstr(kt_backend_names(), "cuda")) {
		CHECK_EQ_INT(kt_backend_open(&b, "cuda", model, NULL),
		             KT_EUNSUPPORTED);
		CHECK(strstr(kt_error_last(), "not built into") != NULL);
	}
}

/* ---- landscapes ---------------------------------------------------------- */

static void landscape_records_every_valid_configuration(void)
{
	const char *path = tmp_path("land.json");
	CHECK_EQ_INT(
	    kt_landscape_write(path, model, NULL, "roofline", 3, 1000, NULL),
	    0);
	kt_results *r;
	CHECK_EQ_INT(kt_results_load(&r, path), 0);
	kt_space *s;
	kt_diags d;
	kt_diags_init(&d);
	CHECK_EQ_INT(kt_space_build(&s, model, NULL, NULL, &d), 0);
	kt_diags_release(&d);
	if (r && s) {
		CHECK_EQ_INT(r->nrecords, kt_space_count(s));
		CHECK_EQ_STR(r->info.synthetic, "roofline");
		CHECK(strstr(r->info.device.name, "synthetic") != NULL);
		size_t ok = 0;
		for (size_t i = 0; i < r->nrecords; i++)
			ok += r->records[i].result.status == KT_STATUS_OK &&
			      r->records[i].result.time_ms > 0;
		CHECK(ok > r->nrecords / 2 && ok <= r->nrecords);
	}
	kt_results_free(r);
	kt_space_free(s);
}

static void landscape_is_a_function_of_its_seed(void)
{
	char *a = NULL, *b = NULL, *c = NULL;
	CHECK_EQ_INT(kt_landscape_write(tmp_path("a.json"), model, NULL,
	                                "rugged", 9, 1000, NULL),
	             0);
	CHECK_EQ_INT(kt_landscape_write(tmp_path("b.json"), model, NULL,
	                                "rugged", 9, 1000, NULL),
	             0);
	CHECK_EQ_INT(kt_landscape_write(tmp_path("c.json"), model, NULL,
	                                "rugged", 10, 1000, NULL),
	             0);
	kt_fs_read(&a, NULL, tmp_path("a.json"));
	kt_fs_read(&b, NULL, tmp_path("b.json"));
	kt_fs_read(&c, NULL, tmp_path("c.json"));
	CHECK(a && b && !strcmp(a, b));
	CHECK(a && c && strcmp(a, c));
	kt_free(a);
	kt_free(b);
	kt_free(c);
}

static void landscape_refuses_unknown_kinds_and_big_spaces(void)
{
	CHECK_EQ_INT(kt_landscape_write(tmp_path("x.json"), model, NULL, "flat",
	                                1, 1000, NULL),
	             KT_ENOTFOUND);
	CHECK(kt_landscape_write(tmp_path("x.json"), model, NULL, "bowl", 1, 10,
	                         NULL) < 0);
	CHECK(strstr(kt_error_last(), "more than the limit of 10") != NULL);
}

/* ---- the driver ------------------------------------------------------------
 */

static const char *landscape(const char *kind, uint64_t seed)
{
	const char *path = tmp_path(kind);
	CHECK_EQ_INT(
	    kt_landscape_write(path, model, NULL, kind, seed, 1000, NULL), 0);
	return path;
}

static void tune_visits_the_default_first_and_finds_the_best(void)
{
	const char *from = landscape("bowl", 1);
	kt_tune_options o = {.strategy_ops = &test_order_ops, .batch = 5};
	kt_tune_report *r = tune(from, &o);
	kt_results *all;
	CHECK_EQ_INT(kt_results_load(&all, from), 0);
	if (!r || !all)
		return;
	CHECK_EQ_INT(r->nentries,
	             all->nrecords); /* budget 0: the whole space */
	CHECK_EQ_INT(r->stop, KT_TUNE_EXHAUSTED);
	CHECK_EQ_STR(r->entries[0].key, "B=128,I=1,U=1");
	double best = INFINITY;
	for (size_t i = 0; i < all->nrecords; i++)
		if (all->records[i].result.status == KT_STATUS_OK)
			best = fmin(best, all->records[i].result.time_ms);
	CHECK(r->best && r->best->result.time_ms == best);
	uint64_t sum = 0;
	for (int s = 0; s <= KT_STATUS_TIMEOUT; s++)
		sum += r->counts[s];
	CHECK_EQ_INT(sum, r->nentries);
	kt_results_free(all);
	kt_tune_report_free(r);
}

/* Warm configurations come right after the default, before the strategy's
 * (those outside the space skipped, repeats visited once), and count
 * against the budget. */
static void tune_visits_warm_configurations_after_the_default(void)
{
	kt_value warm[] = {
	    /* B, I, U */
	    kt_int(256), kt_int(4), kt_int(2), /* valid */
	    kt_int(512), kt_int(8), kt_int(1), /* B * I > 2048: skipped */
	    kt_int(100), kt_int(1), kt_int(1), /* B=100 not in the domain */
	    kt_int(256), kt_int(4), kt_int(2), /* a repeat */
	    kt_int(128), kt_int(1), kt_int(1), /* the default: visited */
	    kt_int(64),  kt_int(2), kt_int(1), /* valid */
	};
	kt_tune_options o = {.strategy = "random",
	                     .max_evals = 6,
	                     .batch = 2,
	                     .warm = warm,
	                     .nwarm = 6};
	kt_tune_report *r = tune(landscape("bowl", 3), &o);
	if (!r)
		return;
	CHECK_EQ_INT(r->nentries, 6);
	CHECK_EQ_STR(r->entries[0].key, "B=128,I=1,U=1");
	CHECK_EQ_STR(r->entries[1].key, "B=256,I=4,U=2");
	CHECK_EQ_STR(r->entries[2].key, "B=64,I=2,U=1");
	kt_tune_report_free(r);
	/* a budget smaller than the warm list stops within it */
	o.max_evals = 2;
	r = tune(landscape("bowl", 3), &o);
	if (r) {
		CHECK_EQ_INT(r->nentries, 2);
		CHECK_EQ_STR(r->entries[1].key, "B=256,I=4,U=2");
	}
	kt_tune_report_free(r);
}

static void tune_budget_counts_distinct_configurations(void)
{
	kt_tune_options o = {.strategy = "random", .max_evals = 17, .batch = 4};
	kt_tune_report *r = tune(landscape("rugged", 2), &o);
	if (!r)
		return;
	CHECK_EQ_INT(r->nentries, 17);
	CHECK_EQ_INT(r->evaluated, 17);
	CHECK_EQ_INT(r->stop, KT_TUNE_BUDGET);
	for (size_t i = 0; i < r->nentries; i++)
		for (size_t j = i + 1; j < r->nentries; j++)
			CHECK(r->entries[i].index != r->entries[j].index);
	kt_tune_report_free(r);
}

static void tune_same_seed_gives_the_same_results(void)
{
	const char *from = landscape("roofline", 5);
	const char *strategies[] = {"random", "simulated_annealing", "genetic",
	                            "local_search"};
	for (size_t k = 0; k < 4; k++) {
		kt_tune_options o = {.strategy = strategies[k],
		                     .seed = 42,
		                     .max_evals = 40,
		                     .batch = 3};
		kt_tune_report *a = tune(from, &o), *b = tune(from, &o);
		o.seed = 43;
		kt_tune_report *c = tune(from, &o);
		if (!same_entries(a, b))
			fprintf(stderr, "strategy %s differs between runs\n",
			        strategies[k]);
		CHECK(same_entries(a, b));
		CHECK(!same_entries(a, c));
		kt_tune_report_free(a);
		kt_tune_report_free(b);
		kt_tune_report_free(c);
	}
}

/* Copies the first n lines of src to dst: a run killed after n - 1 results. */
static void copy_lines(const char *src, const char *dst, int n)
{
	char *text = NULL;
	CHECK_EQ_INT(kt_fs_read(&text, NULL, src), 0);
	if (!text)
		return;
	char *p = text;
	for (int i = 0; i < n && p; i++)
		p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
	size_t len = p ? (size_t)(p - text) : strlen(text);
	kt_str s = KT_STR_INIT;
	kt_str_add(&s, text, len);
	kt_str_adds(&s, "{\"key\":\"B=6"); /* and a line cut short */
	CHECK_EQ_INT(kt_fs_write_atomic(dst, s.ptr, s.len), 0);
	kt_str_release(&s);
	kt_free(text);
}

static void tune_resumed_from_a_partial_cache_equals_a_full_run(void)
{
	const char *from = landscape("rugged", 8);
	const char *full = tmp_path("full.jsonl"),
	           *part = tmp_path("part.jsonl");
	kt_tune_options o = {.strategy = "simulated_annealing",
	                     .seed = 7,
	                     .max_evals = 30,
	                     .batch = 4,
	                     .cache_path = full};
	kt_tune_report *a = tune(from, &o);
	copy_lines(full, part, 1 + 13); /* header + 13 results */
	o.cache_path = part;
	kt_tune_report *b = tune(from, &o);
	CHECK(same_entries(a, b));
	CHECK(a && a->nentries == 30 && a->evaluated == 30);
	CHECK(b && b->cached == 13 && b->evaluated == 30 - 13);
	kt_tune_report *c = tune(from, &o); /* everything is cached now */
	CHECK(same_entries(a, c));
	CHECK(c && c->cached == 30 && c->evaluated == 0);
	kt_tune_report_free(a);
	kt_tune_report_free(b);
	kt_tune_report_free(c);
}

static void tune_stops_when_the_default_is_not_correct(void)
{
	/* small_recording holds B=128,I=1,U=1 as correct; make it fail */
	const char *path = tmp_path("baddefault.t4.json");
	kt_results_info info;
	CHECK_EQ_INT(kt_results_info_from_model(&info, model, NULL, NULL), 0);
	kt_value v[3] = {kt_int(128), kt_int(1), kt_int(1)};
	kt_result r;
	kt_result_init(&r);
	r.status = KT_STATUS_COMPILE;
	r.message = kt_strdup("error: 'x' undeclared");
	kt_t4_row row = {v, &r};
	CHECK_EQ_INT(kt_t4_write(path, &info, "cuda", &row, 1), 0);
	kt_result_release(&r);
	kt_results_info_release(&info);
	kt_backend *b = open_sim(path);
	kt_tune_report *rep = NULL;
	kt_tune_options o = {.strategy = "random"};
	CHECK(b && kt_tune_run(&rep, model, b, &o) < 0);
	CHECK(strstr(kt_error_last(),
	             "the default configuration (B=128,I=1,U=1) "
	             "is not correct (compile: error: 'x' "
	             "undeclared)") != NULL);
	CHECK(rep && rep->nentries == 1);
	kt_tune_report_free(rep);
	kt_backend_free(b);
}

static void tune_stops_on_a_configuration_missing_from_the_recording(void)
{
	kt_backend *b = open_sim(small_recording());
	kt_tune_report *rep = NULL;
	kt_tune_options o = {.strategy_ops = &test_order_ops,
	                     .batch = 1,
	                     .t4_path = tmp_path("partial.t4.json")};
	CHECK(b && kt_tune_run(&rep, model, b, &o) == KT_ENOTFOUND);
	CHECK(strstr(kt_error_last(), "is not in the recording") != NULL);
	/* what was done is kept: the default, and the T4 file holds it */
	CHECK(rep && rep->nentries == 1);
	kt_results *t4;
	CHECK_EQ_INT(kt_results_load(&t4, tmp_path("partial.t4.json")), 0);
	CHECK(t4 && t4->nrecords == 1);
	kt_results_free(t4);
	kt_tune_report_free(rep);
	kt_backend_free(b);
}

static volatile sig_atomic_t stop_flag;

static void stop_after_ten(const kt_tune_progress *p, void *ud)
{
	if (p->visited >= 10)
		stop_flag = 1;
}

static void tune_stops_cleanly_when_asked(void)
{
	stop_flag = 0;
	kt_tune_options o = {.strategy = "random",
	                     .batch = 4,
	                     .max_evals = 50,
	                     .progress = stop_after_ten,
	                     .stop = &stop_flag,
	                     .t4_path = tmp_path("stopped.t4.json")};
	kt_tune_report *r = tune(landscape("bowl", 3), &o);
	if (!r)
		return;
	CHECK_EQ_INT(r->stop, KT_TUNE_INTERRUPTED);
	CHECK_EQ_INT(r->nentries, 13); /* the default, then batches of 4 */
	kt_results *t4;
	CHECK_EQ_INT(kt_results_load(&t4, tmp_path("stopped.t4.json")), 0);
	CHECK(t4 && t4->nrecords == 13);
	kt_results_free(t4);
	kt_tune_report_free(r);
}

static void tune_stops_at_the_time_limit(void)
{
	kt_backend *b = NULL;
	kt_backend_options bo = {.from = landscape("bowl", 6),
	                         .sim_delay_ms = 10};
	CHECK_EQ_INT(kt_backend_open(&b, "sim", model, &bo), 0);
	kt_tune_options o = {.strategy = "random", .max_seconds = 0.1};
	kt_tune_report *r = NULL;
	CHECK(b && kt_tune_run(&r, model, b, &o) == 0);
	if (r) { /* about 10 evaluations of 10 ms fit in 0.1 s */
		CHECK_EQ_INT(r->stop, KT_TUNE_TIME);
		CHECK(r->nentries >= 2 && r->nentries < r->space_size);
	}
	kt_tune_report_free(r);
	kt_backend_free(b);
}

static void tune_writes_t4_in_visiting_order(void)
{
	kt_tune_options o = {.strategy = "random",
	                     .seed = 9,
	                     .max_evals = 12,
	                     .batch = 2,
	                     .t4_path = tmp_path("run.t4.json")};
	kt_tune_report *r = tune(landscape("bowl", 4), &o);
	kt_results *t4;
	CHECK_EQ_INT(kt_results_load(&t4, tmp_path("run.t4.json")), 0);
	if (r && t4) {
		CHECK_EQ_INT(t4->nrecords, r->nentries);
		CHECK_EQ_STR(t4->info.strategy, "random");
		CHECK(t4->info.seed == 9);
		/* results answered from a landscape stay marked synthetic */
		CHECK_EQ_STR(t4->info.synthetic, "bowl");
		for (size_t i = 0; i < t4->nrecords; i++) {
			CHECK(t4->records[i].result.time_ms ==
			          r->entries[i].result.time_ms ||
			      t4->records[i].result.status != KT_STATUS_OK);
			for (size_t p = 0; p < model->nparams; p++)
				CHECK(t4->records[i].values[p].i ==
				      r->entries[i].values[p].i);
		}
	}
	kt_results_free(t4);
	kt_tune_report_free(r);
}

static void tune_refuses_a_cache_of_another_device(void)
{
	const char *cache = tmp_path("dev.jsonl");
	kt_tune_options o = {
	    .strategy = "random", .max_evals = 5, .cache_path = cache};
	kt_tune_report *r = tune(landscape("bowl", 5), &o);
	kt_tune_report_free(r);
	kt_backend *b =
	    open_sim(landscape("roofline", 5)); /* another "device" */
	r = NULL;
	CHECK(b && kt_tune_run(&r, model, b, &o) < 0);
	CHECK(strstr(kt_error_last(), "was written on device") != NULL);
	CHECK(r == NULL);
	kt_backend_free(b);
}

int main(void)
{
	if (!mkdtemp(tmpdir))
		return 1;
	kt_diags d;
	kt_diags_init(&d);
	if (kt_template_parse(&tmpl, "t.kt.cu", template_text, &d)) {
		kt_diags_print(&d, stderr, 0);
		return 1;
	}
	kt_diags_release(&d);
	model = kt_template_model(tmpl, NULL);
	RUN(sim_answers_recorded_configurations);
	RUN(sim_reports_a_missing_configuration_as_an_error);
	RUN(sim_reports_the_recorded_device);
	RUN(sim_refuses_another_problem);
	RUN(sim_refuses_a_recording_of_other_parameters);
	RUN(backend_registry_knows_its_names);
	RUN(landscape_records_every_valid_configuration);
	RUN(landscape_is_a_function_of_its_seed);
	RUN(landscape_refuses_unknown_kinds_and_big_spaces);
	RUN(tune_visits_the_default_first_and_finds_the_best);
	RUN(tune_budget_counts_distinct_configurations);
	RUN(tune_visits_warm_configurations_after_the_default);
	RUN(tune_same_seed_gives_the_same_results);
	RUN(tune_resumed_from_a_partial_cache_equals_a_full_run);
	RUN(tune_stops_when_the_default_is_not_correct);
	RUN(tune_stops_on_a_configuration_missing_from_the_recording);
	RUN(tune_stops_cleanly_when_asked);
	RUN(tune_stops_at_the_time_limit);
	RUN(tune_writes_t4_in_visiting_order);
	RUN(tune_refuses_a_cache_of_another_device);
	kt_template_free(tmpl);
	kt_str cmd = KT_STR_INIT;
	kt_str_addf(&cmd, "rm -rf '%s'", tmpdir);
	if (system(cmd.ptr) != 0)
		fprintf(stderr, "could not remove %s\n", tmpdir);
	kt_str_release(&cmd);
	return check_summary();
}
