/*
 * test_opencl.c - the OpenCL backend through its C API, on whatever
 * platform the ICD loader finds (PoCL on the CI machine): device queries,
 * verified and timed configurations, planted faults that must cost one
 * configuration each, and bad input. Exits 77 where no platform exists.
 * Only the forked workers call OpenCL, never this process.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "ktc/eval.h"
#include "ktc/model.h"
#include "runtime/opencl/ocl.h"

static kt_template *load(const char *name)
{
	char path[512];
	kt_diags d;
	kt_template *t = NULL;
	snprintf(path, sizeof(path), "%s/%s", KTC_OPENCL_TESTS, name);
	kt_diags_init(&d);
	if (kt_template_load(&t, path, &d))
		kt_diags_print(&d, stderr, 0);
	kt_diags_release(&d);
	return t;
}

static kt_template *parse(const char *text)
{
	kt_diags d;
	kt_template *t = NULL;
	kt_diags_init(&d);
	if (kt_template_parse(&t, "inline.cl", text, &d))
		kt_diags_print(&d, stderr, 0);
	kt_diags_release(&d);
	return t;
}

static kt_backend *open_on(const kt_model *m, double timeout_s)
{
	kt_backend_options opt = {
	    .timeout_s = timeout_s, .timed_runs = 5, .seed = 7};
	kt_backend *b = NULL;
	if (kt_backend_open(&b, "opencl", m, &opt))
		fprintf(stderr, "open: %s\n", kt_error_last());
	return b;
}

/* param_idx of "NAME=V,NAME=V" (others at their defaults). */
static void config(const kt_model *m, const char *key, uint32_t *idx)
{
	kt_model_default_config(m, idx);
	for (size_t p = 0; p < m->nparams; p++) {
		const char *at = strstr(key, m->params[p].name);
		if (!at || at[strlen(m->params[p].name)] != '=')
			continue;
		long v = strtol(at + strlen(m->params[p].name) + 1, NULL, 10);
		for (size_t i = 0; i < m->params[p].nvalues; i++)
			if (m->params[p].values[i].i == v)
				idx[p] = (uint32_t)i;
	}
}

/* Evaluates the configurations keys[0..n) in one batch. */
static int evaluate(kt_backend *b, const char *const *keys, size_t n,
                    kt_result *res)
{
	const kt_model *m = b->model;
	uint32_t idx[16][8];
	kt_eval_request req[16];
	for (size_t i = 0; i < n; i++) {
		config(m, keys[i], idx[i]);
		req[i] = (kt_eval_request){idx[i], NULL, keys[i]};
	}
	int rc = b->ops->evaluate(b, req, n, res);
	if (rc)
		fprintf(stderr, "evaluate: %s\n", kt_error_last());
	return rc;
}

static void release_all(kt_result *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		kt_result_release(&r[i]);
}

static void test_open_reports_the_device(void)
{
	kt_template *t = load("faults.cl");
	kt_backend *b = t ? open_on(&t->models[0], 0) : NULL;
	kt_device_info info;
	CHECK(b && !b->ops->device_info(b, &info));
	if (b) {
		int wg = kt_device_const_index("DEVICE_MAX_WORK_GROUP_SIZE");
		int cu = kt_device_const_index("DEVICE_COMPUTE_UNITS");
		CHECK_EQ_STR(info.backend, "opencl");
		CHECK(info.name[0] != '\0');
		CHECK(wg >= 0 && info.has_const[wg] && info.consts[wg] >= 1);
		CHECK(cu >= 0 && info.has_const[cu] && info.consts[cu] >= 1);
		CHECK(info.copy_gbs > 0);
		kt_backend_free(b);
	}
	kt_template_free(t);
}

static void test_configurations_are_verified_and_timed(void)
{
	kt_template *t = load("../../samples/opencl/saxpy.cl");
	kt_backend *b = t ? open_on(&t->models[0], 0) : NULL;
	const char *keys[] = {"BLOCK=256,ITEMS=1,CONTIG=0",
	                      "BLOCK=64,ITEMS=8,CONTIG=1",
	                      "BLOCK=1024,ITEMS=32,CONTIG=0"};
	kt_result r[3];
	CHECK(b && !evaluate(b, keys, 3, r));
	for (size_t i = 0; b && i < 3; i++) {
		CHECK_EQ_STR(kt_status_name(r[i].status), "correct");
		CHECK(r[i].time_ms > 0 && r[i].nruntimes >= 5);
		CHECK(r[i].spread >= 0 && r[i].compile_s > 0);
		CHECK(kt_result_measure(&r[i], "private_mem") != NULL);
		const kt_measure *v =
		    kt_result_measure(&r[i], "verified_elements");
		CHECK(v && v->value == 4194304); /* all of z, the output */
		/* objective bandwidth(12 * N): bytes over the median time */
		const kt_measure *bw = kt_result_measure(&r[i], "bandwidth");
		double want = 12.0 * 4194304 / (r[i].time_ms * 1e6);
		CHECK(bw && fabs(bw->value - want) < 1e-6 * want);
		CHECK(kt_result_measure(&r[i], "bandwidth_fraction") != NULL);
	}
	if (b)
		release_all(r, 3);
	kt_backend_free(b);
	kt_template_free(t);
}

static void test_planted_faults_cost_one_configuration_each(void)
{
	kt_template *t = load("faults.cl");
	kt_backend *b = t ? open_on(&t->models[0], 2.0) : NULL;
	const char *keys[] = {"MODE=1", "MODE=0",           "MODE=2",
	                      "MODE=3", "MODE=4",           "MODE=5",
	                      "MODE=6", "MODE=0,BLOCK=128", "MODE=7"};
	const kt_status want[] = {
	    KT_STATUS_RUNTIME,     KT_STATUS_OK,      KT_STATUS_TIMEOUT,
	    KT_STATUS_CORRECTNESS, KT_STATUS_COMPILE, KT_STATUS_CORRECTNESS,
	    KT_STATUS_RUNTIME,     KT_STATUS_OK,      KT_STATUS_RUNTIME};
	kt_result r[9];
	CHECK(b && !evaluate(b, keys, 9, r));
	for (size_t i = 0; b && i < 9; i++) {
		if (r[i].status != want[i])
			fprintf(stderr, "%s: %s: %s\n", keys[i],
			        kt_status_name(r[i].status),
			        r[i].message ? r[i].message : "");
		CHECK_EQ_STR(kt_status_name(r[i].status),
		             kt_status_name(want[i]));
		CHECK(want[i] == KT_STATUS_OK ||
		      (r[i].message && *r[i].message));
	}
	if (b) {
		CHECK(strstr(r[0].message, "signal") != NULL);
		CHECK(strstr(r[2].message, "timeout") != NULL);
		CHECK(strstr(r[4].message, "this") != NULL);
		CHECK(strstr(r[5].message, "output 'z'") != NULL);
		CHECK(strstr(r[8].message,
		             "wrote after the end of argument 'z'"));
		release_all(r, 9);
	}
	kt_backend_free(b);
	kt_template_free(t);
}

static void test_a_crash_while_building_costs_one_configuration(void)
{
	/* read by the worker, which open_on forks; the builds run there */
	setenv("KTC_OPENCL_TEST_BUILD_CRASH", "MODE=3 -D BLOCK=128", 1);
	kt_template *t = load("faults.cl");
	kt_backend *b = t ? open_on(&t->models[0], 0) : NULL;
	const char *keys[] = {"MODE=0,BLOCK=64", "MODE=3,BLOCK=128",
	                      "MODE=0,BLOCK=128", "MODE=3,BLOCK=64"};
	const char *want[] = {"correct", "compile", "correct", "correctness"};
	kt_result r[4];
	CHECK(b && !evaluate(b, keys, 4, r));
	unsetenv("KTC_OPENCL_TEST_BUILD_CRASH");
	for (size_t i = 0; b && i < 4; i++)
		CHECK_EQ_STR(kt_status_name(r[i].status), want[i]);
	if (b) {
		CHECK(r[1].message &&
		      strstr(r[1].message, "compiler was killed"));
		release_all(r, 4);
	}
	kt_backend_free(b);
	kt_template_free(t);
}

static void test_a_build_error_at_the_defaults_is_reported(void)
{
	kt_template *t = load("broken.cl");
	kt_backend *b = t ? open_on(&t->models[0], 0) : NULL;
	CHECK(b != NULL);
	if (b) {
		CHECK(b->ops->set_problem(b, NULL) < 0);
		CHECK(strstr(kt_error_last(), "does not build") != NULL);
		CHECK(strstr(kt_error_last(), "undeclared_name") != NULL);
	}
	kt_backend_free(b);
	kt_template_free(t);
}

static void test_a_default_that_leaves_outputs_unwritten_is_refused(void)
{
	kt_template *t = parse("#pragma kt param B values(16, 32) default(16)\n"
	                       "#pragma kt launch grid(4) block(B)\n"
	                       "#pragma kt arg z float[64] out\n"
	                       "__kernel void k(__global float *z)\n"
	                       "{ int i = get_global_id(0);\n"
	                       "  if (i < 63) z[i] = i; }\n");
	kt_backend *b = t ? open_on(&t->models[0], 0) : NULL;
	CHECK(b && b->ops->set_problem(b, NULL) == KT_EINVALID);
	CHECK(strstr(kt_error_last(), "leaves output 'z' partly unwritten"));
	kt_backend_free(b);
	kt_template_free(t);
}

/* A template of one output buffer of COUNT floats and one int scalar. */
static kt_template *sized(const char *count, const char *scalar)
{
	char text[512];
	snprintf(text, sizeof(text),
	         "#pragma kt launch grid(1) block(16)\n"
	         "#pragma kt arg z float[%s] out\n"
	         "#pragma kt arg n int = %s\n"
	         "__kernel void k(__global float *z, int n)\n"
	         "{ int i = get_global_id(0); if (i < n) z[i] = i; }\n",
	         count, scalar);
	return parse(text);
}

static void test_buffers_past_the_device_are_refused_with_a_place(void)
{
	/* 2^62+1 floats overflow a 64-bit byte count; 10^15 floats fit one
	 * but no device; -1 and 2.5 are no counts at all */
	const char *counts[] = {"4611686018427387905", "1000000000000000",
	                        "0 - 1", "2.5"};
	const char *want[] = {"overflows 63 bits", "bytes one buffer may take",
	                      "negative", "not a whole number"};
	for (int i = 0; i < 4; i++) {
		kt_template *t = sized(counts[i], "16");
		kt_backend *b = t ? open_on(&t->models[0], 0) : NULL;
		CHECK(b && b->ops->set_problem(b, NULL) == KT_EINVALID);
		CHECK(strstr(kt_error_last(), "inline.cl:2:24: ") != NULL);
		CHECK(strstr(kt_error_last(), want[i]) != NULL);
		kt_backend_free(b);
		kt_template_free(t);
	}
}

static void test_scalars_that_do_not_fit_their_type_are_refused(void)
{
	const char *values[] = {"4294967296 * 2", "2147483648", "1.5 * 3",
	                        "0 - 2147483649"};
	for (int i = 0; i < 4; i++) {
		kt_template *t = sized("16", values[i]);
		kt_backend *b = t ? open_on(&t->models[0], 0) : NULL;
		CHECK(b && b->ops->set_problem(b, NULL) < 0);
		CHECK(strstr(kt_error_last(), "inline.cl:3:24: 'n' is") !=
		      NULL);
		kt_backend_free(b);
		kt_template_free(t);
	}
}

static void test_builds_say_they_are_tuning_builds(void)
{
	kt_template *t = parse("#pragma kt param B values(16, 32) default(16)\n"
	                       "#pragma kt launch grid(64 / B) block(B)\n"
	                       "#pragma kt arg z float[64] out\n"
	                       "__kernel void k(__global float *z)\n"
	                       "{ z[get_global_id(0)] = KTC_TUNING; }\n");
	kt_backend *b = t ? open_on(&t->models[0], 0) : NULL;
	const char *keys[] = {"B=32"};
	kt_result r[1];
	CHECK(b && !evaluate(b, keys, 1, r));
	if (b) {
		CHECK_EQ_STR(kt_status_name(r[0].status), "correct");
		release_all(r, 1);
	}
	kt_backend_free(b);
	kt_template_free(t);
}

static void test_work_groups_beyond_the_device_are_constraints(void)
{
	kt_template *t =
	    parse("#pragma kt param B values(64, 1048576) default(64)\n"
	          "#pragma kt launch grid(1) block(B)\n"
	          "#pragma kt arg z float[64] out\n"
	          "__kernel void k(__global float *z)\n"
	          "{ if (get_global_id(0) < 64) z[get_global_id(0)] = 1; }\n");
	kt_backend *b = t ? open_on(&t->models[0], 0) : NULL;
	const char *keys[] = {"B=1048576", "B=64"};
	kt_result r[2];
	CHECK(b && !evaluate(b, keys, 2, r));
	if (b) {
		CHECK_EQ_STR(kt_status_name(r[0].status), "constraints");
		CHECK(r[0].message && strstr(r[0].message, "exceeds"));
		CHECK_EQ_STR(kt_status_name(r[1].status), "correct");
		release_all(r, 2);
	}
	kt_backend_free(b);
	kt_template_free(t);
}

static void test_no_platform_is_a_clear_error(void)
{
	char dir[] = "/tmp/ktc-no-icd-XXXXXX";
	kt_template *t = load("faults.cl");
	kt_backend *b = NULL;
	kt_backend_options opt = {0};
	CHECK(mkdtemp(dir) != NULL);
	setenv("OCL_ICD_VENDORS", dir, 1);
	int rc = t ? kt_backend_open(&b, "opencl", &t->models[0], &opt) : -1;
	unsetenv("OCL_ICD_VENDORS");
	rmdir(dir);
	CHECK_EQ_INT(rc, KT_EUNSUPPORTED);
	CHECK(b == NULL);
	CHECK(strstr(kt_error_last(), "no OpenCL platform") != NULL);
	kt_template_free(t);
}

static void test_device_is_chosen_by_index_or_name(void)
{
	kt_template *t = load("faults.cl");
	kt_backend_options opt = {.device = "0:0"};
	kt_backend *b = NULL;
	kt_device_info info;
	char part[8];
	CHECK(t && !kt_backend_open(&b, "opencl", &t->models[0], &opt));
	if (!b) {
		kt_template_free(t);
		return;
	}
	b->ops->device_info(b, &info);
	kt_backend_free(b);
	b = NULL;
	memcpy(part, info.name, sizeof(part) - 1); /* a name prefix */
	part[sizeof(part) - 1] = '\0';
	opt.device = part;
	CHECK(!kt_backend_open(&b, "opencl", &t->models[0], &opt));
	kt_backend_free(b);
	b = NULL;
	opt.device = "7:7";
	CHECK_EQ_INT(kt_backend_open(&b, "opencl", &t->models[0], &opt),
	             KT_ENOTFOUND);
	CHECK(strstr(kt_error_last(), "0:0") != NULL); /* lists the devices */
	kt_template_free(t);
}

/*
 * Whether an OpenCL platform exists, asked through the backend: this
 * process itself must never initialise OpenCL, or the workers it forks
 * would inherit a half-copied driver.
 */
static bool have_platform(void)
{
	kt_template *t = load("faults.cl");
	kt_backend *b = NULL;
	int rc = t ? kt_backend_open(&b, "opencl", &t->models[0], NULL) : 0;
	kt_backend_free(b);
	kt_template_free(t);
	return rc != KT_EUNSUPPORTED;
}

int main(void)
{
	if (!have_platform()) {
		printf("no OpenCL platform: skipped\n");
		return 77;
	}
	RUN(test_open_reports_the_device);
	RUN(test_configurations_are_verified_and_timed);
	RUN(test_planted_faults_cost_one_configuration_each);
	RUN(test_a_crash_while_building_costs_one_configuration);
	RUN(test_a_build_error_at_the_defaults_is_reported);
	RUN(test_a_default_that_leaves_outputs_unwritten_is_refused);
	RUN(test_buffers_past_the_device_are_refused_with_a_place);
	RUN(test_scalars_that_do_not_fit_their_type_are_refused);
	RUN(test_builds_say_they_are_tuning_builds);
	RUN(test_work_groups_beyond_the_device_are_constraints);
	RUN(test_no_platform_is_a_clear_error);
	RUN(test_device_is_chosen_by_index_or_name);
	return check_summary();
}
