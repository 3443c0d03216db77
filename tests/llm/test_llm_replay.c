/*
 * test_llm_replay.c - the committed demonstration transcripts
 * (bench/llm/SAMPLE.jsonl, which bench/llm_replay.sh replays on a GPU)
 * replayed offline through the whole loop on the samples' originals: for
 * gelu_and_mul the new body under EARLY_Y and the row split after it, for
 * per_token_group_quant_fp8 the new body under ONCE, must pass the plan
 * checks and the rewriter's verification (nvcc: the default's PTX is the
 * original's; NVRTC: every value compiles), so the GPU run spends its
 * time measuring. Times come from a formula (EARLY_Y=1 or ONCE=1 a tenth
 * faster), as in tests/optimize; what the GPU measures is for
 * bench/llm_replay.sh.
 */
#include "check.h"

#include "ktc/optimize.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct fake {
	kt_backend base;
	double n;
} fake;

static int fake_info(kt_backend *b, kt_device_info *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "formula");
	snprintf(out->backend, sizeof(out->backend), "fake");
	out->copy_gbs = 1000;
	return 0;
}

static int fake_set_problem(kt_backend *b, const kt_value *problem)
{
	fake *f = (fake *)b;
	f->n = 1;
	for (size_t i = 0; i < b->model->nproblems; i++)
		f->n *= (double)problem[i].i;
	return 0;
}

static int fake_evaluate(kt_backend *b, const kt_eval_request *reqs, size_t n,
                         kt_result *res)
{
	fake *f = (fake *)b;
	for (size_t i = 0; i < n; i++) {
		double t = f->n * 6 / 1e8 + 0.01;
		if (strstr(reqs[i].key, "EARLY_Y=1") ||
		    strstr(reqs[i].key, "ONCE=1"))
			t *= 0.9;
		res[i].status = KT_STATUS_OK;
		res[i].time_ms = b->model->nproblems ? t : 0.002;
	}
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
	fake *f = calloc(1, sizeof(*f));
	if (!f)
		return KT_ENOMEM;
	f->base.ops = &fake_ops;
	f->base.model = m;
	*out = &f->base;
	return 0;
}

static void the_demonstration_transcript_verifies_on_the_sample(void)
{
	char dir[] = "/tmp/ktc-llm-replay-XXXXXX";
	if (!mkdtemp(dir))
		return;
	static const char *problems[] = {"tokens=1,4096", "d=14336"};
	kt_llm_config c = {.replay =
	                       KTC_SOURCE_DIR "/bench/llm/gelu_and_mul.jsonl"};
	kt_optimize_options o = {.problems = problems,
	                         .nproblems = 2,
	                         .workdir = dir,
	                         .strategy = "random",
	                         .budget = 4,
	                         .rounds = 3,
	                         .seed = 1,
	                         .open = fake_open,
	                         .planner = "llm",
	                         .llm = &c};
	kt_diags d;
	kt_diags_init(&d);
	kt_optimize_report *r = NULL;
	CHECK_EQ_INT(kt_optimize(&r,
	                         KTC_SOURCE_DIR
	                         "/samples/cuda/gelu_and_mul/gelu_and_mul.cu",
	                         &o, &d),
	             0);
	for (size_t i = 0; r && i < r->nrounds; i++)
		printf("  %d %s %s: %s\n", r->rounds[i].index,
		       r->rounds[i].refactor ? r->rounds[i].refactor : "-",
		       r->rounds[i].param ? r->rounds[i].param : "-",
		       r->rounds[i].verdict);
	CHECK(r && r->nrounds == 3);
	if (r && r->nrounds == 3) {
		const kt_optimize_round *v = &r->rounds[1], *s = &r->rounds[2];
		CHECK(!strcmp(v->refactor, "variant") &&
		      !strcmp(v->param, "EARLY_Y") && v->tuned && v->kept);
		CHECK(!strcmp(s->refactor, "row_split") && s->tuned);
		CHECK(strstr(r->text, "#if EARLY_Y == 0"));
		CHECK(strstr(r->stop, "the LLM proposes nothing more"));
	}
	kt_optimize_report_free(r);
	kt_diags_release(&d);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK_EQ_INT(system(cmd), 0);
}

static void the_read_once_transcript_verifies_on_its_sample(void)
{
	char dir[] = "/tmp/ktc-llm-replay-XXXXXX";
	if (!mkdtemp(dir))
		return;
	static const char *problems[] = {"tokens=1,4096", "d=7168"};
	kt_llm_config c = {.replay = KTC_SOURCE_DIR
	                   "/bench/llm/per_token_group_quant_fp8.jsonl"};
	kt_optimize_options o = {.problems = problems,
	                         .nproblems = 2,
	                         .workdir = dir,
	                         .strategy = "random",
	                         .budget = 4,
	                         .rounds = 3,
	                         .seed = 1,
	                         .open = fake_open,
	                         .planner = "llm",
	                         .llm = &c};
	kt_diags d;
	kt_diags_init(&d);
	kt_optimize_report *r = NULL;
	CHECK_EQ_INT(kt_optimize(&r,
	                         KTC_SOURCE_DIR "/samples/cuda/"
	                                        "per_token_group_quant_fp8/"
	                                        "per_token_group_quant_fp8.cu",
	                         &o, &d),
	             0);
	for (size_t i = 0; r && i < r->nrounds; i++)
		printf("  %d %s %s: %s\n", r->rounds[i].index,
		       r->rounds[i].refactor ? r->rounds[i].refactor : "-",
		       r->rounds[i].param ? r->rounds[i].param : "-",
		       r->rounds[i].verdict);
	CHECK(r && r->nrounds == 2);
	if (r && r->nrounds == 2) {
		const kt_optimize_round *v = &r->rounds[1];
		CHECK(!strcmp(v->refactor, "variant") &&
		      !strcmp(v->param, "ONCE") && v->tuned && v->kept);
		CHECK(strstr(r->text, "#if ONCE == 0"));
	}
	kt_optimize_report_free(r);
	kt_diags_release(&d);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK_EQ_INT(system(cmd), 0);
}

int main(void)
{
	if (access("/usr/local/cuda/bin/nvcc", X_OK) && !getenv("CUDA_HOME")) {
		printf("no CUDA toolkit: replay test skipped\n");
		return 77;
	}
	RUN(the_demonstration_transcript_verifies_on_the_sample);
	RUN(the_read_once_transcript_verifies_on_its_sample);
	return check_summary();
}
