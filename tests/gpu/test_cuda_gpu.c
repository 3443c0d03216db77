/*
 * test_cuda_gpu.c - the CUDA backend on a real GPU, one batch per template
 * of tests/cuda/:
 *   faults.kt.cu  an illegal address and a write past a buffer's end
 *                 (runtime), a kernel that never ends (timeout), an
 *                 unwritten last element and a tail wrong only at the odd
 *                 size (correctness); each costs its own configuration
 *                 only, the correct ones around them are measured
 *   limits.kt.cu  too many threads or too much shared memory per block:
 *                 rejected before launch (constraints)
 *   types.kt.cu   every argument type: each input left out is caught, the
 *                 scalars arrive as declared
 *   cheat_graph.kt.cu  a kernel timed as a CUDA graph that skips every
 *                 PERIOD-th run: caught whichever run is last, with the
 *                 cold objective and with the graph objective (--objective
 *                 graph, back-to-back launches)
 *   specials.kt.cu  forms that agree on ordinary inputs and not on NaN or
 *                 Inf, checked with special input values mixed in
 *   pdl.kt.cu     a programmatic dependent launch (pdl(PDL)): right, cold
 *                 and back to back in a graph
 * Exits 77 without a CUDA device.
 *
 * The program is its own CUDA worker: the backend starts
 * `/proc/self/exe __cuda-worker FD`, handled first in main().
 *
 *   test_cuda_gpu [TEMPLATE_DIR]   (default: the source tree's tests/cuda)
 */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#include "ktc/eval.h"
#include "ktc/model.h"

enum { RUNS = 30, MAXCASES = 24 };

/* One configuration (domain indices) and what must become of it. */
typedef struct expect {
	uint32_t idx[2];
	kt_status status;
	const char *says;    /* a part of the message, or NULL */
	const char *measure; /* a measure that must equal value, or NULL */
	double value;
} expect;

static const expect faults[] = {
    {{0, 1}, KT_STATUS_OK, NULL, NULL, 0},
    {{1, 1}, KT_STATUS_RUNTIME, "CUDA_ERROR_ILLEGAL_ADDRESS", NULL, 0},
    {{0, 0}, KT_STATUS_OK, NULL, NULL, 0},
    {{2, 1}, KT_STATUS_TIMEOUT, "no answer from the GPU", NULL, 0},
    {{6, 0}, KT_STATUS_OK, NULL, NULL, 0},
    {{3, 1},
     KT_STATUS_CORRECTNESS,
     "NaN where the reference has none",
     NULL,
     0},
    {{4, 1}, KT_STATUS_CORRECTNESS, "at N=524289", NULL, 0},
    {{5, 1}, KT_STATUS_RUNTIME, "after the end of argument 'y'", NULL, 0},
    {{6, 1}, KT_STATUS_OK, NULL, NULL, 0},
};

static const expect limits[] = {
    {{0, 0}, KT_STATUS_OK, NULL, NULL, 0},
    {{1, 0}, KT_STATUS_CONSTRAINTS, "2048", NULL, 0},
    {{0, 1},
     KT_STATUS_CONSTRAINTS,
     "300000 bytes of dynamic shared memory",
     NULL,
     0},
    {{1, 1}, KT_STATUS_CONSTRAINTS, NULL, NULL, 0},
};

static const expect types[] = {
    {{0, 0}, KT_STATUS_OK, NULL, NULL, 0},
    {{1, 0}, KT_STATUS_CORRECTNESS, NULL, NULL, 0},
    {{2, 0}, KT_STATUS_CORRECTNESS, NULL, NULL, 0},
    {{3, 0}, KT_STATUS_CORRECTNESS, NULL, NULL, 0},
    {{4, 1}, KT_STATUS_CORRECTNESS, NULL, NULL, 0},
    {{5, 1}, KT_STATUS_CORRECTNESS, NULL, NULL, 0},
    {{6, 0}, KT_STATUS_CORRECTNESS, NULL, NULL, 0},
    {{7, 0}, KT_STATUS_CORRECTNESS, NULL, NULL, 0},
    {{8, 1}, KT_STATUS_CORRECTNESS, NULL, NULL, 0},
    {{9, 0}, KT_STATUS_OK, NULL, NULL, 0},
    {{0, 1}, KT_STATUS_OK, NULL, NULL, 0},
};

/* RUNS timed runs as one graph (the kernel takes microseconds): each run's
 * outputs are checked, not only the last's */
/* The graph objective: back-to-back launches timed, then as many checked
 * from poisoned outputs, so a kernel that skips every PERIOD-th launch
 * (which would leave the last launch's answer in place) is caught */
static const expect steady_cheats[] = {
    {{0, 1}, KT_STATUS_OK, NULL, "graph_steady", 20},
    {{1, 0}, KT_STATUS_CORRECTNESS, "timed run", NULL, 0},
    {{1, 1}, KT_STATUS_CORRECTNESS, "timed run", NULL, 0},
    {{1, 2}, KT_STATUS_CORRECTNESS, "timed run", NULL, 0},
    {{0, 0}, KT_STATUS_OK, NULL, "graph_runs_checked", RUNS},
};

static const expect graph_cheats[] = {
    {{0, 1}, KT_STATUS_OK, NULL, "graph_runs_checked", RUNS},
    {{1, 0}, KT_STATUS_CORRECTNESS, "timed run", NULL, 0},
    {{1, 1}, KT_STATUS_CORRECTNESS, "timed run", NULL, 0},
    {{1, 2}, KT_STATUS_CORRECTNESS, "timed run", NULL, 0},
    {{0, 0}, KT_STATUS_OK, NULL, "graph_replay", 1},
};

/* Runs timed on the stream (the kernel takes over 0.1 ms), checked on the
 * GPU; a run whose bytes differ within the tolerance (float atomics) is
 * compared on the host and passes */
static const expect stream_cheats[] = {
    {{0, 0}, KT_STATUS_OK, NULL, "graph_replay", 0},
    {{1, 0}, KT_STATUS_CORRECTNESS, "timed run", NULL, 0},
    {{2, 0}, KT_STATUS_CORRECTNESS, "writes its input 'x'", NULL, 0},
    {{0, 1}, KT_STATUS_OK, NULL, NULL, 0},
};

/* With special input values mixed in: the forms that treat NaN or Inf
 * otherwise than the default fail and say why; the rest pass */
static const expect specials[] = {
    {{0, 1}, KT_STATUS_OK, NULL, NULL, 0},
    {{1, 1}, KT_STATUS_CORRECTNESS, "NaN, Inf, subnormals", NULL, 0},
    {{2, 0}, KT_STATUS_OK, NULL, NULL, 0},
    {{3, 0}, KT_STATUS_CORRECTNESS, "NaN, Inf, subnormals", NULL, 0},
};

/* A programmatic dependent launch runs right, alone and back to back */
static const expect pdl[] = {
    {{0, 1}, KT_STATUS_OK, NULL, NULL, 0},
    {{1, 1}, KT_STATUS_OK, NULL, NULL, 0},
    {{1, 0}, KT_STATUS_OK, NULL, NULL, 0},
};

static const char *dir;
static bool with_specials; /* the backend mixes special values in */
static kt_result res[MAXCASES];

static void print_row(const kt_model *m, const expect *c, const kt_result *r)
{
	const kt_measure *checks = kt_result_measure(r, "checks");
	printf("  %s=%lld,%s=%lld  %-11s  %9.4f ms  spread %5.2f%%  checks "
	       "%.0f  %s\n",
	       m->params[0].name, (long long)m->params[0].values[c->idx[0]].i,
	       m->params[1].name, (long long)m->params[1].values[c->idx[1]].i,
	       kt_status_name(r->status), r->time_ms, r->spread * 100,
	       checks ? checks->value : 0, r->message ? r->message : "");
}

static void check_measured(const kt_result *r)
{
	const kt_measure *regs = kt_result_measure(r, "registers");
	const kt_measure *occ = kt_result_measure(r, "occupancy");
	CHECK_EQ_INT(r->nruntimes, RUNS);
	CHECK(r->time_ms > 0 && r->spread >= 0);
	CHECK(regs && regs->value > 0);
	CHECK(occ && occ->value > 0 && occ->value <= 1);
}

/* Evaluates the cases of one template in one batch; *skip: no device. */
/* cases of template name, timed for objective (NULL: cold) */
static void run_objective(const char *name, const char *objective,
                          const expect *cases, size_t n, bool *skip)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	kt_diags d;
	kt_diags_init(&d);
	kt_template *t = NULL;
	kt_backend *b = NULL;
	CHECK_EQ_INT(kt_template_load(&t, path, &d), 0);
	if (!t) {
		kt_diags_print(&d, stderr, 0);
		kt_diags_release(&d);
		return;
	}
	const kt_model *m = kt_template_model(t, NULL);
	kt_backend_options opt = {.worker_exe = "/proc/self/exe",
	                          .timeout_s = 4,
	                          .timed_runs = RUNS,
	                          .seed = 7,
	                          .specials = with_specials,
	                          .objective = objective};
	int rc = kt_backend_open(&b, "cuda", m, &opt);
	if (rc) {
		*skip = rc == KT_EUNSUPPORTED ||
		        strstr(kt_error_last(), "no CUDA device") != NULL;
		fprintf(stderr, "%s: %s\n", *skip ? "skipped" : "error",
		        kt_error_last());
		CHECK(*skip);
		goto done;
	}
	kt_device_info info;
	b->ops->device_info(b, &info);
	printf("%s on %s, driver %s, %s, %s, copy %.0f GB/s\n", name, info.name,
	       info.driver, info.runtime, info.arch, info.copy_gbs);
	rc = b->ops->set_problem(b, NULL);
	if (rc)
		fprintf(stderr, "set_problem: %s\n", kt_error_last());
	CHECK_EQ_INT(rc, 0);
	kt_eval_request reqs[MAXCASES];
	for (size_t i = 0; !rc && i < n; i++) {
		reqs[i] = (kt_eval_request){cases[i].idx, NULL, NULL};
		kt_result_init(&res[i]);
	}
	rc = rc ? rc : b->ops->evaluate(b, reqs, n, res);
	if (rc)
		fprintf(stderr, "evaluate: %s\n", kt_error_last());
	CHECK_EQ_INT(rc, 0);
	for (size_t i = 0; !rc && i < n; i++) {
		print_row(m, &cases[i], &res[i]);
		CHECK_EQ_STR(kt_status_name(res[i].status),
		             kt_status_name(cases[i].status));
		if (cases[i].says)
			CHECK(res[i].message &&
			      strstr(res[i].message, cases[i].says) != NULL);
		if (cases[i].status == KT_STATUS_OK)
			check_measured(&res[i]);
		if (cases[i].measure) {
			const kt_measure *x =
			    kt_result_measure(&res[i], cases[i].measure);
			CHECK(x && x->value == cases[i].value);
		}
		kt_result_release(&res[i]);
	}
done:
	kt_backend_free(b);
	kt_template_free(t);
	kt_diags_release(&d);
}

static void run_template(const char *name, const expect *cases, size_t n,
                         bool *skip)
{
	run_objective(name, NULL, cases, n, skip);
}

static bool skip;

static void every_fault_costs_one_configuration(void)
{
	run_template("faults.kt.cu", faults, sizeof(faults) / sizeof(faults[0]),
	             &skip);
}

static void configurations_over_the_limits_are_rejected(void)
{
	run_template("limits.kt.cu", limits, sizeof(limits) / sizeof(limits[0]),
	             &skip);
}

static void every_argument_type_arrives(void)
{
	run_template("types.kt.cu", types, sizeof(types) / sizeof(types[0]),
	             &skip);
}

static void every_graph_run_is_checked(void)
{
	run_template("cheat_graph.kt.cu", graph_cheats,
	             sizeof(graph_cheats) / sizeof(graph_cheats[0]), &skip);
}

static void every_stream_run_is_checked_on_the_gpu(void)
{
	run_template("cheat_stream.kt.cu", stream_cheats,
	             sizeof(stream_cheats) / sizeof(stream_cheats[0]), &skip);
}

static void special_input_values_are_checked(void)
{
	with_specials = true;
	run_template("specials.kt.cu", specials,
	             sizeof(specials) / sizeof(specials[0]), &skip);
	with_specials = false;
}

static void graph_objective_checks_every_launch(void)
{
	run_objective("cheat_graph.kt.cu", "graph", steady_cheats,
	              sizeof(steady_cheats) / sizeof(steady_cheats[0]), &skip);
}

static void programmatic_dependent_launches_run_right(void)
{
	run_template("pdl.kt.cu", pdl, sizeof(pdl) / sizeof(pdl[0]), &skip);
	run_objective("pdl.kt.cu", "graph", pdl, sizeof(pdl) / sizeof(pdl[0]),
	              &skip);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "__cuda-worker"))
		return kt_cuda_worker_main(argc - 1, argv + 1);
	dir = argc > 1 ? argv[1] : KTC_SOURCE_DIR "/tests/cuda";
	RUN(every_fault_costs_one_configuration);
	if (skip)
		return 77;
	RUN(configurations_over_the_limits_are_rejected);
	RUN(every_argument_type_arrives);
	RUN(every_graph_run_is_checked);
	RUN(every_stream_run_is_checked_on_the_gpu);
	RUN(special_input_values_are_checked);
	RUN(graph_objective_checks_every_launch);
	RUN(programmatic_dependent_launches_run_right);
	return check_summary();
}
