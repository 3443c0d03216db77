/*
 * fuzz_llm.c - libFuzzer target for what ktc reads from an LLM: any bytes
 * as an answer's text must give a proposal that keeps its invariants or a
 * reason, never a crash, a leak or undefined behaviour (the extractor's
 * PCRE2 search for fenced blocks, cJSON, the strict proposal reader); the
 * same bytes, and a proposal's body, go through the variant body checker.
 */
#include "ktc/llm.h"
#include "ktc/plan.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char ORIG[] = "{\n\tint i = blockIdx.x * blockDim.x + "
                           "threadIdx.x;\n\tif (i < n)\n\t\ty[i] = a * "
                           "x[i] + b;\n}";

static void check(const kt_llm_proposal *p)
{
	if (p->kind == KT_LLM_VARIANT && (!p->param || !p->body))
		abort();
	if (p->kind == KT_LLM_REFACTOR &&
	    (!p->refactor || kt_refactor_kind_from_name(p->refactor) < 0))
		abort();
	if (p->kind != KT_LLM_VARIANT && p->body)
		abort();
	if (!p->why || p->nvalues > KT_LLM_MAX_VALUES)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *t = malloc(size + 1);
	if (!t)
		return 0;
	memcpy(t, data, size);
	t[size] = 0;
	char why[300];
	kt_llm_proposal p;
	if (!kt_llm_proposal_parse(&p, t, size)) {
		check(&p);
		if (p.body)
			kt_plan_body_check(p.body, strlen(p.body), ORIG,
			                   strlen(ORIG), why, sizeof(why));
		kt_llm_proposal_release(&p);
	}
	kt_error_clear();
	kt_plan_body_check(t, size, ORIG, strlen(ORIG), why, sizeof(why));
	free(t);
	return 0;
}
