/*
 * test_cuda_gpu.c - the CUDA backend on a real GPU, with the broken
 * configurations of tests/cuda/faults.kt.cu in one batch: an illegal
 * address and a write past a buffer's end (runtime), a kernel that never
 * ends (timeout), an unwritten last element and a tail wrong only at the
 * odd size (correctness). Each costs its own configuration only: the
 * correct ones around them are measured. Exits 77 without a CUDA device.
 *
 * The program is its own CUDA worker: the backend starts
 * `/proc/self/exe __cuda-worker FD`, handled first in main().
 */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#include "ktc/eval.h"
#include "ktc/model.h"

enum { BLOCK128 = 0, BLOCK256 = 1, RUNS = 30 };

static const struct expect {
	uint32_t mode, block;
	kt_status status;
	const char *says; /* a part of the message, or NULL */
} cases[] = {
    {0, BLOCK256, KT_STATUS_OK, NULL},
    {1, BLOCK256, KT_STATUS_RUNTIME, "CUDA_ERROR_ILLEGAL_ADDRESS"},
    {0, BLOCK128, KT_STATUS_OK, NULL},
    {2, BLOCK256, KT_STATUS_TIMEOUT, "no answer from the GPU"},
    {6, BLOCK128, KT_STATUS_OK, NULL},
    {3, BLOCK256, KT_STATUS_CORRECTNESS, "NaN where the reference has none"},
    {4, BLOCK256, KT_STATUS_CORRECTNESS, "at N=524289"},
    {5, BLOCK256, KT_STATUS_RUNTIME, "after the end of argument 'y'"},
    {6, BLOCK256, KT_STATUS_OK, NULL},
};
enum { NCASES = sizeof(cases) / sizeof(cases[0]) };

static kt_backend *b;
static kt_result res[NCASES];

static void print_row(const struct expect *c, const kt_result *r)
{
	const kt_measure *checks = kt_result_measure(r, "checks");
	printf(
	    "MODE=%u,BLOCK=%d  %-11s  %9.4f ms  spread %5.2f%%  checks %.0f  "
	    "%s\n",
	    c->mode, c->block == BLOCK256 ? 256 : 128,
	    kt_status_name(r->status), r->time_ms, r->spread * 100,
	    checks ? checks->value : 0, r->message ? r->message : "");
}

static void every_fault_costs_one_configuration(void)
{
	kt_eval_request reqs[NCASES];
	uint32_t idx[NCASES][2];
	for (size_t i = 0; i < NCASES; i++) {
		idx[i][0] = cases[i].mode;
		idx[i][1] = cases[i].block;
		reqs[i] = (kt_eval_request){idx[i], NULL, NULL};
		kt_result_init(&res[i]);
	}
	int rc = b->ops->evaluate(b, reqs, NCASES, res);
	if (rc)
		fprintf(stderr, "evaluate: %s\n", kt_error_last());
	CHECK_EQ_INT(rc, 0);
	for (size_t i = 0; i < NCASES; i++) {
		print_row(&cases[i], &res[i]);
		CHECK_EQ_STR(kt_status_name(res[i].status),
		             kt_status_name(cases[i].status));
		if (cases[i].says)
			CHECK(res[i].message &&
			      strstr(res[i].message, cases[i].says) != NULL);
	}
}

static void correct_configurations_are_measured(void)
{
	for (size_t i = 0; i < NCASES; i++) {
		if (cases[i].status != KT_STATUS_OK)
			continue;
		const kt_result *r = &res[i];
		const kt_measure *regs = kt_result_measure(r, "registers");
		const kt_measure *checks = kt_result_measure(r, "checks");
		const kt_measure *bw =
		    kt_result_measure(r, "bandwidth_fraction");
		CHECK_EQ_INT(r->nruntimes, RUNS);
		CHECK(r->time_ms > 0 && r->spread >= 0);
		CHECK(regs && regs->value > 0);
		CHECK(checks &&
		      checks->value == 3); /* 2 seeds + the odd size */
		CHECK(bw && bw->value > 0 && bw->value < 1.5);
	}
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "__cuda-worker"))
		return kt_cuda_worker_main(argc - 1, argv + 1);
	const char *path =
	    argc > 1 ? argv[1] : KTC_SOURCE_DIR "/tests/cuda/faults.kt.cu";
	kt_diags d;
	kt_diags_init(&d);
	kt_template *t = NULL;
	if (kt_template_load(&t, path, &d)) {
		kt_diags_print(&d, stderr, 0);
		fprintf(stderr, "%s\n", kt_error_last());
		return 1;
	}
	kt_backend_options opt = {
	    .timeout_s = 4, .timed_runs = RUNS, .seed = 7, .cache_dir = NULL};
	int rc = kt_backend_open(&b, "cuda", kt_template_model(t, NULL), &opt);
	if (rc) {
		bool none = rc == KT_EUNSUPPORTED ||
		            strstr(kt_error_last(), "no CUDA device") != NULL;
		fprintf(stderr, "%s: %s\n", none ? "skipped" : "error",
		        kt_error_last());
		kt_template_free(t);
		kt_diags_release(&d);
		return none ? 77 : 1;
	}
	kt_device_info info;
	b->ops->device_info(b, &info);
	printf("device %s, driver %s, %s, %s, copy %.0f GB/s\n", info.name,
	       info.driver, info.runtime, info.arch, info.copy_gbs);
	if (b->ops->set_problem(b, NULL)) {
		fprintf(stderr, "set_problem: %s\n", kt_error_last());
		kt_backend_free(b);
		kt_template_free(t);
		kt_diags_release(&d);
		return 1;
	}
	RUN(every_fault_costs_one_configuration);
	RUN(correct_configurations_are_measured);
	for (size_t i = 0; i < NCASES; i++)
		kt_result_release(&res[i]);
	kt_backend_free(b);
	kt_template_free(t);
	kt_diags_release(&d);
	return check_summary();
}
