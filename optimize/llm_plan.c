/*
 * llm_plan.c - the LLM planner's side of the loop: what the model is shown
 * (the kernel and its launch sites, annotate's parameters and rejections,
 * the catalogue and what the analysis says of each refactor, the profile,
 * the rounds so far and their verdicts), and how its proposal becomes a
 * plan: a refactor of the catalogue picked by kind, or a new body under a
 * new parameter added to the plan as a `variant` refactor.
 *
 * Design choice: the model never writes a range or an offset. ktc knows
 * where the kernel's body is; the model says only what the new body is,
 * and the plan that carries it passes the plan checker (kt_plan_validate
 * against the file: the body's own checks included) before the rewriter
 * verifies it and tuning tests it at every shape.
 */
#include "optimize/opt.h"

#include "util/str.h"

#include <string.h>

/* Bytes of the kernel's definition the prompt quotes at most. */
enum { MAX_KERNEL_TEXT = 32768 };

static const char SYSTEM[] =
    "You are a CUDA performance engineer working inside ktc, a kernel "
    "template compiler and tuner. ktc turns a kernel's tuning literals "
    "into parameters, then adds one new tuning dimension per round, "
    "verifies it (the default value must compile to the original PTX; "
    "every value is compiled and its outputs compared with the "
    "original's at every shape and at an odd size) and tunes it; it is "
    "kept only if the geometric mean of the tuned times improves by more "
    "than 2%.\n\n"
    "Propose exactly one change per answer, as one JSON object:\n"
    "- {\"kind\": \"refactor\", \"refactor\": KIND, \"param\": NAME, "
    "\"values\": [...], \"why\": ...}: a refactor of the catalogue below "
    "that the kernel offers (param and values optional: the catalogue's "
    "parameter and domain by default; values must contain the default).\n"
    "- {\"kind\": \"variant\", \"param\": NAME, \"body\": \"{ ... }\", "
    "\"why\": ...}: a new body for the kernel, a complete compound "
    "statement that replaces the kernel's body when NAME is 1 (NAME = 0 "
    "is the original). NAME is a new upper-case identifier. The body may "
    "use the kernel's parameters, CUDA built-ins and the existing tuning "
    "parameters; it must compute exactly the same outputs for every "
    "size, including sizes that are not multiples of any vector width. "
    "It may not contain '#' (no #include, #pragma or macros), inline "
    "asm, string literals, printf, malloc/new, file or process calls, "
    "cuda* host calls, or anything outside the body's braces.\n"
    "- {\"kind\": \"done\", \"why\": ...}: nothing more is worth trying.\n"
    "Do not propose again what an earlier round tried.\n\n"
    "The catalogue (kinds ktc's rewriter knows):\n"
    "- vectorize: a contiguous element loop gets vectors of VEC elements "
    "and a scalar tail\n"
    "- items_per_thread: each thread handles several elements; the grid "
    "shrinks\n"
    "- grid_stride: a grid-stride loop; the grid size becomes a "
    "parameter\n"
    "- row_split: a one-block-per-row loop is shared by SPLIT blocks\n"
    "- hoist_loads: a strided loop loads ITEMS iterations' inputs before "
    "computing them\n"
    "- launch_bounds: __launch_bounds__(threads, MIN_BLOCKS)\n"
    "- pack_stores: a loop of a constant count that stores narrow "
    "elements one at a time writes registers, then one 4-, 8- or 16-byte "
    "store\n"
    "- fast_div: int or unsigned int divisions and remainders in a loop "
    "by a divisor the run never changes become a multiply-high by a "
    "magic number computed once (exact: C's operator for negative "
    "operands)\n"
    "- warp_reduce: a block's shared-memory tree reduction becomes warp "
    "shuffles and one slot per warp\n"
    "- warp_per_row: a row-per-block kernel runs a row per warp, "
    "WARP_ROWS rows per block\n"
    "- pad_shared: a shared tile's rows get PAD elements of padding\n"
    "- threads_per_group: a kernel that gives each group of G threads "
    "one task reduced with xor shuffles gets TPG threads per group (the "
    "lane, the loops' step, the shuffles and the block follow)\n"
    "- groups_per_block: the host's largest power of two up to P that "
    "divides the groups becomes GPB\n"
    "- warp_scan: a prefix sum one thread runs alone becomes a scan by "
    "the block's first warp\n"
    "- cluster_split: a row-per-block kernel that sums its row is split "
    "over a thread-block cluster of CLUSTER blocks (sm_90), the sums "
    "added through distributed shared memory\n";

const char *kt_opt_llm_system(void)
{
	return SYSTEM;
}

static const kt_plan_kernel *kernel_of(const kt_plan *p, const char *name)
{
	for (size_t i = 0; i < p->nkernels; i++)
		if (!strcmp(p->kernels[i].name, name))
			return &p->kernels[i];
	return NULL;
}

static void source(kt_str *s, const kt_opt_facts *f)
{
	const kt_plan_kernel *k = kernel_of(f->plan, f->kernel);
	kt_str_addf(s, "File %s, kernel %s", f->path, f->kernel);
	if (!k)
		return;
	uint32_t b = k->range.begin.offset, e = k->range.end.offset;
	bool cut = e - b > MAX_KERNEL_TEXT;
	kt_str_addf(
	    s, " (line %d):\n```cuda\n%.*s\n```\n%s", k->range.begin.line,
	    (int)(cut ? MAX_KERNEL_TEXT : e - b), f->text + b,
	    cut ? "(the kernel's text is cut here: it is longer)\n" : "");
	for (size_t i = 0; i < k->nlaunches; i++) {
		kt_range r = k->launches[i];
		kt_str_addf(s, "Launch at line %d: %.*s\n", r.begin.line,
		            (int)(r.end.offset - r.begin.offset),
		            f->text + r.begin.offset);
	}
}

static void params(kt_str *s, const kt_opt_facts *f)
{
	const kt_plan *p = f->plan;
	kt_str_adds(s, "\nParameters annotate found (round 0):\n");
	for (size_t i = 0; i < p->nparams; i++) {
		const kt_plan_param *pa = &p->params[i];
		if (!pa->nuses)
			continue;
		kt_str_addf(s, "- %s (%s): values(", pa->name,
		            kt_role_name(pa->role));
		for (size_t v = 0; v < pa->nvalues; v++)
			kt_str_addf(s, "%s%lld", v ? ", " : "",
			            (long long)pa->values[v]);
		kt_str_addf(s, ") default(%lld), %zu uses, first at line %d\n",
		            (long long)pa->def, pa->nuses,
		            pa->uses[0].range.begin.line);
	}
	kt_str_adds(s, "Literals left alone:\n");
	for (size_t i = 0; i < p->nrejected; i++) {
		const kt_plan_reject *r = &p->rejected[i];
		if (r->kernel && !strcmp(r->kernel, f->kernel))
			kt_str_addf(s, "- line %d '%s': %s (%s)\n",
			            r->range.begin.line, r->text, r->message,
			            kt_reason_name(r->reason));
	}
}

static void catalogue(kt_str *s, const kt_opt_facts *f)
{
	kt_str_adds(s, "\nCatalogue refactors this kernel offers, best "
	               "first by ktc's analysis:\n");
	for (size_t i = 0; i < f->nprops; i++) {
		const kt_plan_refactor *r =
		    &f->plan->refactors[f->props[i].refactor];
		kt_str_addf(s, "- %s %s: %s\n", kt_refactor_kind_name(r->kind),
		            r->param, f->props[i].why);
	}
	if (!f->nprops)
		kt_str_adds(s, "- none\n");
}

static void profile(kt_str *s, const kt_opt_facts *f)
{
	const kt_optimize_report *r = f->rep;
	const kt_optimize_round *k = &r->rounds[r->kept];
	kt_str_addf(s,
	            "\nProfile on %s (%s): copy bandwidth %.0f GB/s, launch "
	            "floor %.4g ms.\n",
	            r->device.name, r->device.backend, r->device.copy_gbs,
	            r->floor_ms);
	kt_str_adds(s, "shape | bytes moved | speed-of-light ms | original ms "
	               "| best kept ms | fraction of light\n");
	for (size_t i = 0; i < r->nshapes; i++)
		kt_str_addf(s, "%s | %.0f | %.4g | %.4g | %.4g | %.0f%%\n",
		            r->shapes[i], r->bytes[i], r->sol_ms[i],
		            r->original_ms[i], k->best_ms ? k->best_ms[i] : 0,
		            k->best_ms && k->best_ms[i] > 0
		                ? 100 * r->sol_ms[i] / k->best_ms[i]
		                : 0);
	for (size_t i = 0; r->occupancy_pct && i < r->nshapes; i++)
		if (r->occupancy_pct[i] >= 0 || r->sm_pct[i] >= 0)
			kt_str_addf(
			    s,
			    "counters of round 0's best at %s: DRAM %.0f "
			    "bytes, achieved occupancy %.0f%%, SM "
			    "throughput %.0f%%\n",
			    r->shapes[i], r->dram_bytes[i], r->occupancy_pct[i],
			    r->sm_pct[i]);
}

static void history(kt_str *s, const kt_opt_facts *f)
{
	const kt_optimize_report *r = f->rep;
	kt_str_adds(s, "\nRounds so far:\n");
	for (size_t i = 0; i < r->nrounds; i++) {
		const kt_optimize_round *rd = &r->rounds[i];
		kt_str_addf(s, "%d %s%s%s: %s\n", rd->index,
		            rd->refactor ? rd->refactor : "annotate",
		            rd->param ? " " : "", rd->param ? rd->param : "",
		            rd->verdict ? rd->verdict : "not finished");
		for (size_t k = 0; rd->tuned && k < r->nshapes; k++)
			kt_str_addf(
			    s, "   %s: best %.4g ms (%s), default %.4g ms\n",
			    r->shapes[k], rd->best_ms[k], rd->best_key[k],
			    rd->default_ms[k]);
	}
	kt_str_adds(s, "\nPropose the next change.\n");
}

int kt_opt_llm_prompt(char **out, const kt_opt_facts *f)
{
	kt_str s = KT_STR_INIT;
	source(&s, f);
	params(&s, f);
	catalogue(&s, f);
	profile(&s, f);
	history(&s, f);
	if (!s.ptr || kt_str_addc(&s, 0)) {
		kt_str_release(&s);
		return kt_error(KT_ENOMEM, "out of memory");
	}
	*out = kt_str_detach(&s);
	return 0;
}

/* ------------------------------------------------------------ variants */

int kt_opt_add_variant(kt_plan **out, const kt_plan *p, const char *kernel,
                       kt_range body, const char *name, const char *text,
                       const char *note)
{
	kt_plan *q = NULL;
	if (kt_plan_new(&q))
		return KT_ENOMEM;
	struct kt_arena *arena = q->arena;
	*q = *p;
	q->arena = arena;
	q->params = kt_plan_alloc(q, (p->nparams + 1) * sizeof(*q->params));
	q->refactors =
	    kt_plan_alloc(q, (p->nrefactors + 1) * sizeof(*q->refactors));
	int64_t *values = kt_plan_alloc(q, 2 * sizeof(int64_t));
	char *n = kt_plan_strdup(q, name), *b = kt_plan_strdup(q, text),
	     *k = kt_plan_strdup(q, kernel), *w = kt_plan_strdup(q, note);
	if (!q->params || !q->refactors || !values || !n || !b || !k || !w) {
		kt_plan_free(q);
		return kt_error(KT_ENOMEM, "out of memory");
	}
	memcpy(q->params, p->params, p->nparams * sizeof(*q->params));
	memcpy(q->refactors, p->refactors,
	       p->nrefactors * sizeof(*q->refactors));
	values[0] = 0, values[1] = 1;
	q->params[q->nparams++] = (kt_plan_param){
	    .name = n,
	    .role = KT_ROLE_OTHER,
	    .kernel = k,
	    .values = values,
	    .nvalues = 2,
	    .evidence = w,
	};
	q->refactors[q->nrefactors++] = (kt_plan_refactor){
	    .kind = KT_REFACTOR_VARIANT,
	    .kernel = k,
	    .param = n,
	    .region = body,
	    .body = b,
	    .launch = -1,
	    .note = w,
	};
	*out = q;
	return 0;
}
