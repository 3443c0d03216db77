/*
 * test_optimize.c - the loop of `ktc optimize` (ktc/optimize.h) end to end
 * on a kernel of tests/optimize/inputs, with the rewriter's real
 * verification (nvcc and NVRTC, no GPU) and a backend of the test's own
 * that times a configuration by a formula: so what the loop keeps, rejects,
 * sets aside and resumes is known in advance. Without the CUDA toolkit the
 * tests are skipped (exit 77).
 */
#include "check.h"

#include "ktc/optimize.h"
#include "util/fs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef KTC_TEST_INPUTS
#error "KTC_TEST_INPUTS must name tests/optimize/inputs"
#endif

enum mode { HELPS, HURTS, HACK };

typedef struct fake {
	kt_backend base;
	double n;      /* the problem size */
	bool specials; /* opened to check special input values */
	double drift;  /* W.drift: this run's factor */
	bool profile;  /* opened with --profile: counters with each time */
} fake;

typedef struct world {
	enum mode mode;
	int evals;     /* configurations evaluated (the floor's too) */
	int odd_evals; /* evaluated at an odd size (the shapes' are even) */
	/* ITEMS_PER_THREAD 8 is wrong where n is odd (a tail it drops) */
	bool items8_drops_tail;
	int stop_after; /* set *stop after this many; 0: never */
	/* the original fails on special input values (a NaN read as an
	 * index, say) */
	bool specials_break_original;
	/* each backend opened times 1% slower than the one before (runs
	 * differ by a spread) */
	bool drift;
	/* times this many times the formula's (0: 1): a problem whose first
	 * size is not its bytes still runs above the launch floor */
	double scale;
	/* --profile's counters of every configuration: achieved occupancy
	 * and SM throughput (%) */
	double occupancy, sm_busy;
	int opened, opened_specials; /* backends opened, with specials */
	volatile sig_atomic_t stop;
} world;

static world W;

static int fake_info(kt_backend *b, kt_device_info *out)
{
	(void)b;
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "formula");
	snprintf(out->backend, sizeof(out->backend), "fake");
	out->copy_gbs = 1000;
	return 0;
}

static int fake_set_problem(kt_backend *b, const kt_value *problem)
{
	fake *f = (fake *)b;
	f->n = b->model->nproblems ? (double)problem[0].i : 0;
	if (f->specials && W.specials_break_original && f->n > 0)
		return kt_error(KT_EBACKEND,
		                "the default configuration fails at n=%g, "
		                "inputs with NaN mixed in",
		                f->n);
	return 0;
}

static long value_of(const char *key, const char *name)
{
	const char *p = strstr(key, name);
	return p ? strtol(p + strlen(name) + 1, NULL, 10) : 1;
}

/* The speed-of-light time (8 bytes an element at 1000 GB/s) times a
 * penalty for small blocks, times what items per thread does. */
static double formula(const fake *f, const char *key)
{
	double sol = f->n * 8 / 1e9;
	double block = (double)value_of(key, "BLOCK_SIZE");
	double items = (double)value_of(key, "ITEMS_PER_THREAD");
	if (W.mode == HACK && items == 8 && block == 1024)
		return sol / 100; /* skips its work */
	double t = sol * (1 + 32 / block) * (W.drift ? f->drift : 1) *
	           (W.scale > 0 ? W.scale : 1);
	return W.mode == HURTS ? t * (1 + items / 8) : t * (1 + 1 / items);
}

static int fake_evaluate(kt_backend *b, const kt_eval_request *reqs, size_t n,
                         kt_result *res)
{
	fake *f = (fake *)b;
	bool odd = (long long)f->n % 2 == 1;
	for (size_t i = 0; i < n; i++) {
		res[i].status = KT_STATUS_OK;
		res[i].time_ms =
		    f->n > 0 ? formula(f, reqs[i].key) : 0.002; /* floor */
		if (odd && W.items8_drops_tail &&
		    value_of(reqs[i].key, "ITEMS_PER_THREAD") == 8) {
			res[i].status = KT_STATUS_CORRECTNESS;
			res[i].message = strdup("output 'y' element 0 differs");
		}
		*(odd ? &W.odd_evals : &W.evals) += 1;
		if (f->profile) {
			kt_result_add_measure(&res[i], "dram_read", f->n * 4,
			                      "B");
			kt_result_add_measure(&res[i], "dram_write", f->n * 4,
			                      "B");
			kt_result_add_measure(&res[i], "achieved_occupancy",
			                      W.occupancy, "%");
			kt_result_add_measure(&res[i], "sm_throughput",
			                      W.sm_busy, "%");
		}
	}
	if (W.stop_after && W.evals >= W.stop_after)
		W.stop = 1;
	return 0;
}

static void fake_free(kt_backend *b)
{
	free(b);
}

static const kt_backend_ops fake_ops = {"fake", fake_info, fake_set_problem,
                                        fake_evaluate, fake_free};

static int fake_open(kt_backend **out, const kt_model *m,
                     const kt_backend_options *bo, void *ud)
{
	(void)ud;
	fake *f = calloc(1, sizeof(*f));
	if (!f)
		return KT_ENOMEM;
	f->base.ops = &fake_ops;
	f->base.model = m;
	f->specials = bo->specials;
	f->profile = bo->profile;
	W.opened++;
	W.opened_specials += bo->specials;
	f->drift = 1 + 0.01 * W.opened;
	*out = &f->base;
	return 0;
}

static const char *problems[] = {"n=1048576,33554432"};
static const char *args[] = {"a=2", "b=0.5"};

static int optimize(kt_optimize_report **r, const char *work, kt_diags *d)
{
	kt_optimize_options o = {
	    .problems = problems,
	    .nproblems = 1,
	    .args = args,
	    .nargs = 2,
	    .workdir = work,
	    .strategy = "brute",
	    .budget = 1000,
	    .seed = 1,
	    .open = fake_open,
	    .stop = &W.stop,
	};
	kt_diags_init(d);
	return kt_optimize(r, KTC_TEST_INPUTS "/axpb.cu", &o, d);
}

static char *workdir(void)
{
	char *t = strdup("/tmp/ktc-optimize-XXXXXX");
	return mkdtemp(t);
}

static void cleanup(char *dir)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK_EQ_INT(system(cmd), 0);
	free(dir);
}

static bool exists(const char *dir, const char *name)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return access(p, F_OK) == 0;
}

/* The round that tried refactor kind, or NULL. */
static const kt_optimize_round *round_of(const kt_optimize_report *r,
                                         const char *kind)
{
	for (size_t i = 0; r && i < r->nrounds; i++)
		if (r->rounds[i].refactor &&
		    !strcmp(r->rounds[i].refactor, kind))
			return &r->rounds[i];
	return NULL;
}

static void a_refactor_that_helps_is_kept(void)
{
	char *dir = workdir();
	kt_optimize_report *r = NULL;
	kt_diags d;
	W = (world){.mode = HELPS};
	CHECK_EQ_INT(optimize(&r, dir, &d), 0);
	/* the formula ignores MIN_BLOCKS: launch bounds bring nothing */
	const kt_optimize_round *it = round_of(r, "items_per_thread");
	const kt_optimize_round *lb = round_of(r, "launch_bounds");
	CHECK(it && lb && it->index == 1 && lb->index == 2);
	if (it && lb) {
		CHECK(it->kept && !lb->kept);
		CHECK_EQ_INT(r->kept, 1);
		CHECK(strstr(r->text, "#pragma kt param ITEMS_PER_THREAD"));
		CHECK(!strstr(r->text, "MIN_BLOCKS"));
		CHECK(strstr(r->diff, "+#pragma kt param ITEMS_PER_THREAD"));
		/* the original: the default of round 0 (256 threads, one
		 * item): 8n bytes at 1000 GB/s, (1 + 32/256) * 2 */
		CHECK(r->original_ms[0] > 0.01886 &&
		      r->original_ms[0] < 0.01888);
		CHECK(r->sol_ms[1] > 0.2684 && r->sol_ms[1] < 0.2685);
		CHECK_EQ_STR(it->best_key[1],
		             "BLOCK_SIZE=1024,ITEMS_PER_THREAD=8");
		CHECK(it->best_ms[1] < r->rounds[0].best_ms[1]);
		CHECK(r->floor_ms == 0.002);
		CHECK_EQ_STR(r->stop, "every proposal tried");
	}
	CHECK(exists(dir, "summary.json"));
	char path[512], *json = NULL;
	size_t len = 0;
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	CHECK_EQ_INT(kt_fs_read(&json, &len, path), 0);
	/* written when the loop ended, not only after each round */
	CHECK(json && strstr(json, "\"stop\":\t\"every proposal tried\""));
	kt_free(json);
	CHECK(exists(dir, "round-0.kt.cu") && exists(dir, "round-1.kt.cu"));
	CHECK(exists(dir, "round-1-shape-1.t4"));
	kt_optimize_report_free(r);
	kt_diags_release(&d);
	cleanup(dir);
}

/* The best is compared with the original as timed in its own run, not
 * with round 0's time from another run (run-to-run spread). */
static void the_original_is_timed_in_the_best_s_run(void)
{
	char *dir = workdir();
	kt_optimize_report *r = NULL;
	kt_diags d;
	W = (world){.mode = HELPS, .drift = true};
	CHECK_EQ_INT(optimize(&r, dir, &d), 0);
	CHECK(r && r->kept == 1);
	for (size_t s = 0; r && s < r->nshapes; s++) {
		const kt_optimize_round *k = &r->rounds[r->kept];
		double same = kt_optimize_original_at(r, s);
		CHECK(same == k->default_ms[s]);
		CHECK(same > r->original_ms[s]); /* a later, slower run */
		CHECK(k->best_ms[s] <= same);
	}
	char *json = NULL;
	CHECK_EQ_INT(kt_optimize_report_json(&json, r), 0);
	CHECK(json && strstr(json, "\"original_same_run_ms\""));
	kt_free(json);
	kt_optimize_report_free(r);
	kt_diags_release(&d);
	cleanup(dir);
}

static void a_refactor_that_hurts_is_rejected(void)
{
	char *dir = workdir();
	kt_optimize_report *r = NULL;
	kt_diags d;
	W = (world){.mode = HURTS};
	CHECK_EQ_INT(optimize(&r, dir, &d), 0);
	const kt_optimize_round *it = round_of(r, "items_per_thread");
	CHECK(it != NULL);
	if (it) {
		CHECK(it->tuned && !it->kept);
		CHECK(strstr(it->verdict, "rejected"));
		CHECK_EQ_INT(r->kept, 0);
		CHECK(!strstr(r->text, "ITEMS_PER_THREAD"));
	}
	kt_optimize_report_free(r);
	kt_diags_release(&d);
	cleanup(dir);
}

static void a_configuration_faster_than_the_data_allows_is_set_aside(void)
{
	char *dir = workdir();
	kt_optimize_report *r = NULL;
	kt_diags d;
	W = (world){.mode = HACK};
	CHECK_EQ_INT(optimize(&r, dir, &d), 0);
	const kt_optimize_round *it = round_of(r, "items_per_thread");
	CHECK(it != NULL);
	if (it) {
		/* 256 MiB moved: more than L2; 1/100 of the light time is
		 * set aside; at the small shape (8 MiB, in L2) it is not */
		CHECK(strcmp(it->best_key[1],
		             "BLOCK_SIZE=1024,ITEMS_PER_THREAD=8"));
		CHECK(it->best_ms[1] >= r->sol_ms[1]);
		CHECK_EQ_STR(it->best_key[0],
		             "BLOCK_SIZE=1024,ITEMS_PER_THREAD=8");
	}
	kt_optimize_report_free(r);
	kt_diags_release(&d);
	cleanup(dir);
}

static void a_killed_run_resumes_from_its_caches(void)
{
	char *fresh = workdir(), *dir = workdir();
	kt_optimize_report *r = NULL;
	kt_diags d;
	W = (world){.mode = HELPS};
	CHECK_EQ_INT(optimize(&r, fresh, &d), 0);
	int all = W.evals;
	kt_optimize_report_free(r);
	kt_diags_release(&d);

	W = (world){.mode = HELPS, .stop_after = 100};
	CHECK_EQ_INT(optimize(&r, dir, &d), KT_EINTERRUPTED);
	int first = W.evals;
	kt_optimize_report_free(r);
	kt_diags_release(&d);
	CHECK(first >= 100 && first < all);

	W = (world){.mode = HELPS};
	CHECK_EQ_INT(optimize(&r, dir, &d), 0);
	/* the floor is measured again in each run; nothing else is */
	CHECK_EQ_INT(first + W.evals, all + 1);
	CHECK(r && r->kept == 1);
	kt_optimize_report_free(r);
	kt_diags_release(&d);
	cleanup(fresh);
	cleanup(dir);
}

static void what_the_code_does_not_say_is_asked_for_at_its_place(void)
{
	char *dir = workdir();
	kt_optimize_report *r = NULL;
	kt_diags d;
	kt_diags_init(&d);
	static const char *wrong[] = {"n=4096", "m=3"};
	kt_optimize_options o = {.problems = wrong,
	                         .nproblems = 2,
	                         .args = args,
	                         .nargs = 1,
	                         .workdir = dir,
	                         .open = fake_open};
	CHECK_EQ_INT(kt_optimize(&r, KTC_TEST_INPUTS "/axpb.cu", &o, &d),
	             KT_EINVALID);
	CHECK(!r);
	/* b (passed by the host at 12:46) is not given, m is no problem
	 * size */
	bool b_at_place = false, m_named = false;
	for (size_t i = 0; i < d.len; i++) {
		b_at_place |= d.items[i].line == 12 && d.items[i].col == 46 &&
		              strstr(d.items[i].message, "--arg b=VALUE");
		m_named |= strstr(d.items[i].message, "--problem m:") != NULL;
	}
	CHECK(b_at_place);
	CHECK(m_named);
	kt_diags_release(&d);
	cleanup(dir);
}

static void an_arg_replaces_a_derived_length(void)
{
	char *dir = workdir();
	kt_optimize_report *r = NULL;
	kt_diags d;
	kt_diags_init(&d);
	static const char *more[] = {"a=2", "b=0.5", "x=2 * n"};
	kt_optimize_options o = {.problems = problems,
	                         .nproblems = 1,
	                         .args = more,
	                         .nargs = 3,
	                         .workdir = dir,
	                         .strategy = "brute",
	                         .budget = 1000,
	                         .rounds = 1,
	                         .open = fake_open};
	W = (world){.mode = HURTS};
	CHECK_EQ_INT(kt_optimize(&r, KTC_TEST_INPUTS "/axpb.cu", &o, &d), 0);
	CHECK(r && strstr(r->text, "#pragma kt arg x float[2 * n] in\n"));
	CHECK(r && strstr(r->text, "#pragma kt arg y float[n] out\n"));
	CHECK(r && strstr(r->text, "#pragma kt arg b float = 0.5\n"));
	kt_optimize_report_free(r);
	kt_diags_release(&d);
	cleanup(dir);
}

/* --init gives an input's values: its arg line (derived here) says them,
 * as the template the loop tunes reads it. */
static void an_init_reaches_the_input_s_arg_line(void)
{
	char *dir = workdir();
	kt_optimize_report *r = NULL;
	kt_diags d;
	kt_diags_init(&d);
	static const char *inits[] = {"x=random(0, 7)"};
	kt_optimize_options o = {.problems = problems,
	                         .nproblems = 1,
	                         .args = args,
	                         .nargs = 2,
	                         .inits = inits,
	                         .ninits = 1,
	                         .workdir = dir,
	                         .strategy = "brute",
	                         .budget = 1000,
	                         .rounds = 1,
	                         .open = fake_open};
	W = (world){.mode = HURTS};
	CHECK_EQ_INT(kt_optimize(&r, KTC_TEST_INPUTS "/axpb.cu", &o, &d), 0);
	CHECK(r &&
	      strstr(r->text, "#pragma kt arg x float[n] in init(random(0, "
	                      "7))\n"));
	CHECK(r && strstr(r->text, "#pragma kt arg y float[n] out\n"));
	kt_optimize_report_free(r);
	kt_diags_release(&d);
	cleanup(dir);
}

/* An --init that names no input of the kernel (no argument of that name,
 * an output, a scalar) is refused at the kernel, not ignored. */
static void an_init_naming_no_input_is_refused_at_the_kernel(void)
{
	static const char *const cases[][2] = {
	    {"xs=zeros", "--init xs: kernel 'axpb_kernel' has no buffer"},
	    {"y=zeros", "--init y: kernel 'axpb_kernel' writes it"},
	    {"n=iota", "--init n: kernel 'axpb_kernel' passes it as a scalar"},
	};
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		char *dir = workdir();
		kt_optimize_report *r = NULL;
		kt_diags d;
		kt_diags_init(&d);
		const char *inits[] = {cases[c][0]};
		kt_optimize_options o = {.problems = problems,
		                         .nproblems = 1,
		                         .args = args,
		                         .nargs = 2,
		                         .inits = inits,
		                         .ninits = 1,
		                         .workdir = dir,
		                         .open = fake_open};
		CHECK_EQ_INT(
		    kt_optimize(&r, KTC_TEST_INPUTS "/axpb.cu", &o, &d),
		    KT_EINVALID);
		CHECK(!r);
		bool at_kernel = false;
		for (size_t i = 0; i < d.len; i++)
			at_kernel |= d.items[i].line == 4 &&
			             d.items[i].col == 1 &&
			             strstr(d.items[i].message, cases[c][1]);
		CHECK(at_kernel);
		kt_diags_release(&d);
		cleanup(dir);
	}
}

/* Every backend is opened to check special input values, unless the
 * original itself fails on them: then none after the probe is, and the
 * report says why. */
static void special_inputs_are_checked_unless_the_original_fails(void)
{
	char *dir = workdir();
	kt_optimize_report *r = NULL;
	kt_diags d;
	W = (world){.mode = HELPS};
	CHECK_EQ_INT(optimize(&r, dir, &d), 0);
	CHECK(W.opened > 2 && W.opened_specials == W.opened);
	CHECK(r && r->specials && !r->specials_note);
	kt_optimize_report_free(r);
	kt_diags_release(&d);
	cleanup(dir);

	dir = workdir();
	W = (world){.mode = HELPS, .specials_break_original = true};
	CHECK_EQ_INT(optimize(&r, dir, &d), 0);
	/* the floor's backend and round 0's first, then none */
	CHECK_EQ_INT(W.opened_specials, 2);
	CHECK(W.opened > 3);
	CHECK(r && !r->specials && r->specials_note &&
	      strstr(r->specials_note, "n=1048576") &&
	      strstr(r->specials_note, "NaN"));
	CHECK(r && r->nrounds > 1 && r->kept > 0);
	char *json = NULL;
	CHECK(r && !kt_optimize_report_json(&json, r) &&
	      strstr(json, "\"special_inputs_checked\":\tfalse") &&
	      strstr(json, "\"special_inputs\":"));
	kt_free(json);
	kt_optimize_report_free(r);
	kt_diags_release(&d);
	cleanup(dir);
}

/* The fastest configuration, wrong at an odd length only (which tuning
 * never visits), is set aside with its reason; the next one counts. */
static void a_configuration_wrong_around_a_shape_is_set_aside(void)
{
	char *dir = workdir();
	kt_optimize_report *r = NULL;
	kt_diags d;
	W = (world){.mode = HELPS};
	CHECK_EQ_INT(optimize(&r, dir, &d), 0);
	CHECK(r && r->kept == 1 &&
	      strstr(r->rounds[1].best_key[0], "ITEMS_PER_THREAD=8"));
	CHECK(W.odd_evals > 0);
	kt_optimize_report_free(r);
	kt_diags_release(&d);
	cleanup(dir);

	dir = workdir();
	W = (world){.mode = HELPS, .items8_drops_tail = true};
	CHECK_EQ_INT(optimize(&r, dir, &d), 0);
	CHECK(r && r->kept == 1);
	for (size_t s = 0; r && s < r->nshapes; s++)
		CHECK(strstr(r->rounds[1].best_key[s], "ITEMS_PER_THREAD=4"));
	CHECK(r && r->rounds[1].odd_set_aside >= r->nshapes);
	CHECK(r && r->rounds[1].odd_note &&
	      strstr(r->rounds[1].odd_note, "ITEMS_PER_THREAD=8") &&
	      strstr(r->rounds[1].odd_note, "correctness"));
	kt_optimize_report_free(r);
	kt_diags_release(&d);
	cleanup(dir);
}

/* A trial round starts from the kept round's best at each shape (its
 * new parameter off): a sample of three configurations finds no worse. */
static void a_round_starts_from_the_kept_best(void)
{
	char *dir = workdir();
	kt_optimize_report *r = NULL;
	kt_diags d;
	kt_diags_init(&d);
	kt_optimize_options o = {.problems = problems,
	                         .nproblems = 1,
	                         .args = args,
	                         .nargs = 2,
	                         .workdir = dir,
	                         .strategy = "random",
	                         .budget = 3,
	                         .rounds = 1,
	                         .seed = 1,
	                         .open = fake_open};
	W = (world){.mode = HURTS};
	CHECK_EQ_INT(kt_optimize(&r, KTC_TEST_INPUTS "/axpb.cu", &o, &d), 0);
	CHECK(r && r->nrounds == 2);
	for (size_t s = 0; r && r->nrounds == 2 && s < r->nshapes; s++) {
		CHECK(r->rounds[1].best_ms[s] <= r->rounds[0].best_ms[s]);
		printf("  shape %zu: round 0 %s %.6g, round 1 %s %.6g\n", s,
		       r->rounds[0].best_key[s], r->rounds[0].best_ms[s],
		       r->rounds[1].best_key[s], r->rounds[1].best_ms[s]);
	}
	kt_optimize_report_free(r);
	kt_diags_release(&d);
	cleanup(dir);
}

/* A kernel nobody in its file launches: the block size becomes a
 * parameter only the launch line uses, the grid covers n, n is what
 * --problem gives, and the loop tunes it (before, optimize refused: no
 * launch, no problem size of that name). */
static void a_kernel_with_no_launch_is_tuned(void)
{
	char *dir = workdir();
	kt_optimize_report *r = NULL;
	kt_diags d;
	kt_diags_init(&d);
	kt_optimize_options o = {.problems = problems,
	                         .nproblems = 1,
	                         .workdir = dir,
	                         .strategy = "brute",
	                         .budget = 1000,
	                         .rounds = 1,
	                         .open = fake_open};
	W = (world){.mode = HURTS};
	CHECK_EQ_INT(
	    kt_optimize(&r, KTC_TEST_INPUTS "/scale_nolaunch.cu", &o, &d), 0);
	CHECK(r && strstr(r->text, "#pragma kt launch grid((n + BLOCK_SIZE - "
	                           "1) / BLOCK_SIZE) block(BLOCK_SIZE)\n"));
	CHECK(r && strstr(r->text, "#pragma kt arg y float[n] out\n"));
	CHECK(r && strstr(r->text, "#pragma kt problem n values(1048576, "
	                           "33554432)"));
	/* the formula favours the largest block */
	CHECK(r && r->nrounds > 0 && r->nshapes > 0 &&
	      strstr(r->rounds[0].best_key[0], "BLOCK_SIZE=1024"));
	kt_optimize_report_free(r);
	kt_diags_release(&d);
	cleanup(dir);
}

/* rows (the first problem) x d: with many rows a warp per row comes
 * first, with few (SMs idle) the row split over a cluster does; each
 * round's template verifies
 * (nvcc, NVRTC, the default's PTX) and is tuned (d small: the bytes stay
 * under the L2, where no time is too fast for them). */
static int optimize_rows(kt_optimize_report **r, const char *work,
                         const char *rows, kt_diags *d)
{
	const char *pr[] = {rows, "d=16"};
	const char *ar[] = {"x=rows*d", "out=rows"};
	kt_optimize_options o = {.problems = pr,
	                         .nproblems = 2,
	                         .args = ar,
	                         .nargs = 2,
	                         .workdir = work,
	                         .strategy = "brute",
	                         .budget = 1000,
	                         .rounds = 3,
	                         .seed = 1,
	                         .open = fake_open};
	kt_diags_init(d);
	return kt_optimize(r, KTC_TEST_INPUTS "/row_sum_tree.cu", &o, d);
}

static void block_reductions_are_ranked_by_the_rows(void)
{
	static const char *const rows[] = {"rows=16384,65536", "rows=8,64"};
	static const char *const first[] = {"warp_per_row", "cluster_split"};
	/* the formula's block penalty favours large blocks; what matters
	 * here is the order and that every round verifies */
	for (int k = 0; k < 2; k++) {
		char *dir = workdir();
		kt_optimize_report *r = NULL;
		kt_diags d;
		W = (world){.mode = HURTS, .scale = 1e6};
		int rc = optimize_rows(&r, dir, rows[k], &d);
		CHECK_EQ_INT(rc, 0);
		CHECK(r && r->nrounds == 4);
		if (rc || !r || r->nrounds != 4) {
			kt_diags_print(&d, stdout, 0);
			printf("  %s\n", kt_error_last());
		}
		for (size_t i = 1; r && i < r->nrounds; i++) {
			CHECK(r->rounds[i].tuned);
			if (!r->rounds[i].tuned)
				printf("  round %zu: %s\n", i,
				       r->rounds[i].verdict);
		}
		/* the warp per row's reason says how many rows */
		const kt_optimize_round *w = round_of(r, "warp_per_row");
		CHECK(r && r->nrounds > 1 && w);
		if (r && r->nrounds > 1 && w) {
			CHECK_EQ_STR(r->rounds[1].refactor, first[k]);
			CHECK(
			    strstr(w->why, k ? "fewer busy blocks"
			                     : "spares the block's barriers"));
		}
		kt_optimize_report_free(r);
		kt_diags_release(&d);
		cleanup(dir);
	}
}

/* --profile: round 0's counters go into the report, and a low achieved
 * occupancy on a grid that fills the SMs puts the launch bounds first
 * (without counters, items per thread comes first: one element per
 * thread). */
static void counters_rank_the_refactors(void)
{
	for (int prof = 0; prof < 2; prof++) {
		char *dir = workdir();
		kt_optimize_options o = {.problems = problems,
		                         .nproblems = 1,
		                         .args = args,
		                         .nargs = 2,
		                         .workdir = dir,
		                         .strategy = "brute",
		                         .budget = 1000,
		                         .rounds = 1,
		                         .seed = 1,
		                         .profile = prof,
		                         .open = fake_open};
		kt_optimize_report *r = NULL;
		kt_diags d;
		kt_diags_init(&d);
		W = (world){.mode = HELPS, .occupancy = 30, .sm_busy = 20};
		int rc = kt_optimize(&r, KTC_TEST_INPUTS "/axpb.cu", &o, &d);
		CHECK_EQ_INT(rc, 0);
		CHECK(r && r->nrounds == 2);
		if (r && r->nrounds == 2) {
			CHECK_EQ_STR(r->rounds[1].refactor,
			             prof ? "launch_bounds"
			                  : "items_per_thread");
			CHECK(!prof ||
			      strstr(r->rounds[1].why,
			             "achieved occupancy 30% at shape"));
			CHECK(r->occupancy_pct[0] == (prof ? 30 : -1));
			CHECK(r->sm_pct[1] == (prof ? 20 : -1));
			CHECK(r->dram_bytes[0] == (prof ? 8.0 * 1048576 : -1));
		}
		char *json = NULL;
		CHECK(r && !kt_optimize_report_json(&json, r) && json &&
		      strstr(json, "\"achieved_occupancy_pct\""));
		kt_free(json);
		kt_optimize_report_free(r);
		kt_diags_release(&d);
		cleanup(dir);
	}
}

/* A parameter made by several refactors (a cluster split of a row's two
 * loops) is tried with all of them: splitting the sum's loop and not the
 * pass that reads the row would be wrong. */
static void a_parameter_comes_with_all_its_refactors(void)
{
	char *dir = workdir();
	const char *pr[] = {"rows=8", "d=64"};
	const char *ar[] = {"x=rows*d", "y=rows*d"};
	kt_optimize_options o = {.problems = pr,
	                         .nproblems = 2,
	                         .args = ar,
	                         .nargs = 2,
	                         .workdir = dir,
	                         .strategy = "brute",
	                         .budget = 1000,
	                         .rounds = 1,
	                         .seed = 1,
	                         .open = fake_open};
	kt_optimize_report *r = NULL;
	kt_diags d;
	kt_diags_init(&d);
	W = (world){.mode = HURTS, .scale = 1e6};
	int rc = kt_optimize(&r, KTC_TEST_INPUTS "/two_pass.cu", &o, &d);
	CHECK_EQ_INT(rc, 0);
	const kt_optimize_round *c = round_of(r, "cluster_split");
	CHECK(c && c->template_path);
	char *text = NULL;
	size_t len = 0;
	if (c && c->template_path &&
	    !kt_fs_read(&text, &len, c->template_path)) {
		int loops = 0;
		for (const char *p = text;
		     (p = strstr(p, "CLUSTER == 1 ? 0 : blockIdx.y")); p++)
			loops++;
		CHECK_EQ_INT(loops, 2);
		CHECK(strstr(text, "ss = kt_cluster_sum(ss, CLUSTER);") !=
		      NULL);
	}
	free(text);
	kt_optimize_report_free(r);
	kt_diags_release(&d);
	cleanup(dir);
}

int main(void)
{
	if (access("/usr/local/cuda/bin/nvcc", X_OK) && !getenv("CUDA_HOME")) {
		printf("no CUDA toolkit: optimize tests skipped\n");
		return 77;
	}
	RUN(a_refactor_that_helps_is_kept);
	RUN(a_refactor_that_hurts_is_rejected);
	RUN(the_original_is_timed_in_the_best_s_run);
	RUN(a_configuration_faster_than_the_data_allows_is_set_aside);
	RUN(a_killed_run_resumes_from_its_caches);
	RUN(what_the_code_does_not_say_is_asked_for_at_its_place);
	RUN(an_arg_replaces_a_derived_length);
	RUN(an_init_reaches_the_input_s_arg_line);
	RUN(an_init_naming_no_input_is_refused_at_the_kernel);
	RUN(special_inputs_are_checked_unless_the_original_fails);
	RUN(a_configuration_wrong_around_a_shape_is_set_aside);
	RUN(a_round_starts_from_the_kept_best);
	RUN(a_kernel_with_no_launch_is_tuned);
	RUN(block_reductions_are_ranked_by_the_rows);
	RUN(counters_rank_the_refactors);
	RUN(a_parameter_comes_with_all_its_refactors);
	return check_summary();
}
