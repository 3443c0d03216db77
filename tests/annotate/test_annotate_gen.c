/*
 * test_annotate_gen.c - the generator alone (no compiler): where the
 * parameters are declared, how macros, unroll pragmas and host code are
 * handled, and what happens to a unit whose edits do not fit the file.
 */
#include "check.h"

#include "ktc/annotate.h"
#include "ktc/common.h"
#include "rewriter/rewriter.h"
#include "util/str.h"

#include <inttypes.h>
#include <stdlib.h>

static const char *src =
    "#include <cstdint>\n"                              /* 0 */
    "#define TILE 32\n"                                 /* 19 */
    "__global__ void k(float *y)\n"                     /* 35 */
    "{\n"                                               /* 63 */
    "#pragma unroll 4\n"                                /* 65 */
    "\tfor (int i = threadIdx.x; i < TILE; i += 256)\n" /* 82 */
    "\t\ty[i] = 0;\n"
    "}\n"
    "void launch(float *y) { k<<<1, 256>>>(y); }\n";

/* A range as JSON: offsets of `text` (the n-th occurrence) in src. */
static void range(kt_str *j, const char *text, int nth)
{
	const char *p = src - 1;
	for (int i = 0; i < nth; i++)
		p = strstr(p + 1, text);
	size_t b = (size_t)(p - src), e = b + strlen(text);
	int bl, bc, el, ec;
	kt_text_linecol(src, b, &bl, &bc);
	kt_text_linecol(src, e, &el, &ec);
	kt_str_addf(j,
	            "{\"begin\": {\"offset\": %zu, \"line\": %d, \"col\": %d}, "
	            "\"end\": {\"offset\": %zu, \"line\": %d, \"col\": %d}}",
	            b, bl, bc, e, el, ec);
}

static void use(kt_str *j, const char *text, int nth, const char *with,
                const char *site, int host)
{
	kt_str_adds(j, "{\"range\": ");
	range(j, text, nth);
	kt_str_addf(j, ", \"text\": \"%s\", ", text);
	if (with)
		kt_str_addf(j, "\"with\": \"%s\", ", with);
	kt_str_addf(j, "\"site\": \"%s\", \"host\": %s}", site,
	            host ? "true" : "false");
}

/* The plan: TILE (macro), UNROLL (pragma), BLOCK (stride and launch);
 * macro_name is what TILE's parameter is called; extra: more top-level
 * fields (`, "pragmas": [...]`) or ""; launch: the launch's text. */
static kt_plan *plan_launch(const char *macro_name, const char *extra,
                            const char *launch)
{
	kt_str j = KT_STR_INIT;
	kt_str_addf(
	    &j,
	    "{\"ktc_plan\": 1, \"file\": {\"path\": \"k.cu\", \"size\": "
	    "%zu, \"hash\": \"fnv1a64:%016" PRIx64 "\"}, \"kernels\": "
	    "[{\"name\": \"k\", \"range\": ",
	    strlen(src), kt_plan_hash(src, strlen(src)));
	range(&j, "__global__ void k(float *y)\n{\n#pragma unroll 4\n", 1);
	kt_str_adds(&j, ", \"launches\": []}], \"params\": [");
	kt_str_addf(&j,
	            "{\"name\": \"%s\", \"role\": \"tile\", \"kernel\": "
	            "\"k\", \"values\": [16, 32], \"default\": 32, \"uses\": [",
	            macro_name);
	use(&j, "32", 1, NULL, "macro", 0);
	kt_str_adds(&j,
	            "]}, {\"name\": \"UNROLL\", \"role\": \"unroll\", "
	            "\"kernel\": \"k\", \"values\": [1, 4], \"default\": 4, "
	            "\"uses\": [");
	use(&j, "4", 1, "UNROLL", "pragma_unroll", 0);
	kt_str_adds(&j,
	            "]}, {\"name\": \"BLOCK\", \"role\": \"block_size\", "
	            "\"kernel\": \"k\", \"values\": [128, 256], \"default\": "
	            "256, \"uses\": [");
	use(&j, "256", 1, "BLOCK", "expr", 0);
	kt_str_adds(&j, ", ");
	use(&j, "256", 2, launch, "launch_block", 1);
	kt_str_addf(&j, "]}]%s}", extra);
	kt_plan *p = NULL;
	kt_diags d;
	kt_diags_init(&d);
	int rc =
	    kt_plan_from_json(&p, j.ptr, j.len, "plan", src, strlen(src), &d);
	if (rc)
		kt_diags_print(&d, stderr, 0);
	kt_diags_release(&d);
	kt_str_release(&j);
	return p;
}

static kt_plan *plan_with(const char *macro_name, const char *extra)
{
	return plan_launch(macro_name, extra, "BLOCK");
}

static kt_plan *plan(const char *macro_name)
{
	return plan_with(macro_name, "");
}

/* The file's structure as the frontend would give it. */
static kt_rewrite_file file(kt_rewrite_decl *decls, kt_rewrite_include *inc)
{
	const char *host = strstr(src, "void launch");
	const char *kern = strstr(src, "__global__");
	decls[0].range.begin.offset = (uint32_t)(kern - src);
	decls[0].range.end.offset = (uint32_t)(host - src - 1);
	decls[0].kernel = true;
	static const char *const params[] = {"y"};
	decls[0].params = params;
	decls[0].nparams = 1;
	decls[1].range.begin.offset = (uint32_t)(host - src);
	decls[1].range.end.offset = (uint32_t)strlen(src) - 1;
	decls[1].host_only = true;
	inc->range.begin.offset = 0;
	inc->range.end.offset = 18;
	inc->spelled = "cstdint";
	inc->angled = true;
	kt_rewrite_file f = {.path = "k.cu",
	                     .text = src,
	                     .len = strlen(src),
	                     .decls = decls,
	                     .ndecls = 2,
	                     .includes = inc,
	                     .nincludes = 1};
	return f;
}

static int generate(kt_str *out, const kt_plan *p, bool *on, bool *bad)
{
	kt_rewrite_decl decls[2] = {0};
	kt_rewrite_include inc = {0};
	kt_rewrite_file f = file(decls, &inc);
	kt_rw_select sel = {.on = on, .bad = bad, .pragmas = true};
	kt_diags d;
	kt_diags_init(&d);
	int rc = kt_rw_generate(out, p, &f, &sel, &d);
	kt_diags_release(&d);
	return rc;
}

static const char *expected =
    "#ifndef __CUDACC_RTC__\n#include <cstdint>\n"
    "#elif !defined(KTC_RTC_HEADERS_GIVEN)\n"
    "#include <cuda/std/cstdint>\n#endif\n"
    "\n#ifndef UNROLL\n#define UNROLL 4\n#endif\n"
    "constexpr int kt_unroll_UNROLL = UNROLL;\n"
    "#ifndef BLOCK\n#define BLOCK 256\n#endif\n"
    "#ifndef TILE\n#define TILE 32\n#endif\n"
    "#pragma kt param TILE values(16, 32) default(32)\n"
    "#pragma kt param UNROLL values(1, 4) default(4)\n"
    "#pragma kt param BLOCK values(128, 256) default(256)\n"
    "__global__ void k(float *y)\n{\n"
    "#pragma unroll kt_unroll_UNROLL\n"
    "\tfor (int i = threadIdx.x; i < TILE; i += BLOCK)\n"
    "\t\ty[i] = 0;\n}\n"
    "#ifndef __CUDACC_RTC__\n"
    "void launch(float *y) { k<<<1, BLOCK>>>(y); }\n"
    "#endif\n";

static void gen_writes_the_template_conventions(void)
{
	kt_plan *p = plan("TILE");
	CHECK(p != NULL);
	if (!p)
		return;
	bool on[3] = {true, true, true}, bad[3] = {0};
	kt_str out = KT_STR_INIT;
	CHECK_EQ_INT(generate(&out, p, on, bad), 0);
	CHECK_EQ_STR(out.ptr, expected);
	kt_str_release(&out);
	kt_plan_free(p);
}

static void gen_leaves_a_unit_that_is_off_untouched(void)
{
	kt_plan *p = plan("TILE");
	if (!p)
		return;
	bool on[3] = {true, false, true}, bad[3] = {0};
	kt_str out = KT_STR_INIT;
	CHECK_EQ_INT(generate(&out, p, on, bad), 0);
	CHECK(strstr(out.ptr, "#pragma unroll 4\n") != NULL);
	CHECK(strstr(out.ptr, "UNROLL") == NULL);
	CHECK(strstr(out.ptr, "i += BLOCK") != NULL);
	kt_str_release(&out);
	kt_plan_free(p);
}

/* A use's text may name another parameter (a grid's step, the block
 * times a thread's items): where that one is off, its default stands. */
static void gen_reads_an_off_parameter_in_a_text_at_its_default(void)
{
	kt_plan *p = plan_launch("TILE", "", "(BLOCK * UNROLL / 4)");
	CHECK(p != NULL);
	if (!p)
		return;
	bool on[3] = {true, true, true}, bad[3] = {0};
	kt_str out = KT_STR_INIT;
	CHECK_EQ_INT(generate(&out, p, on, bad), 0);
	CHECK(strstr(out.ptr, "k<<<1, (BLOCK * UNROLL / 4)>>>") != NULL);
	kt_str_release(&out);
	on[1] = false; /* UNROLL */
	CHECK_EQ_INT(generate(&out, p, on, bad), 0);
	CHECK(strstr(out.ptr, "k<<<1, (BLOCK * 4 / 4)>>>") != NULL);
	CHECK(strstr(out.ptr, "UNROLL") == NULL);
	kt_str_release(&out);
	kt_plan_free(p);
}

static void gen_marks_a_macro_use_that_is_not_its_define(void)
{
	kt_plan *p = plan("TILE_DIM"); /* the directive defines TILE */
	if (!p)
		return;
	bool on[3] = {true, true, true}, bad[3] = {0};
	kt_str out = KT_STR_INIT;
	CHECK_EQ_INT(generate(&out, p, on, bad), KT_EINVALID);
	CHECK(bad[0] && !bad[1] && !bad[2]);
	kt_str_release(&out);
	kt_plan_free(p);
}

static void gen_orders_problem_then_launch_then_args(void)
{
	kt_str x = KT_STR_INIT;
	kt_str_adds(&x, ", \"pragmas\": [{\"kernel\": \"k\", \"line\": "
	                "\"arg y float[N] out\"}, {\"kernel\": \"k\", "
	                "\"line\": \"launch grid(1) block(BLOCK)\"}], "
	                "\"needs\": [{\"kernel\": \"k\", \"what\": "
	                "\"problem_values\", \"range\": ");
	range(&x, "float *y", 1);
	kt_str_adds(&x, ", \"message\": \"m\", \"suggest\": "
	                "\"problem N values(?)\"}]");
	kt_plan *p = plan_with("TILE", x.ptr);
	kt_str_release(&x);
	CHECK(p != NULL);
	if (!p)
		return;
	bool on[3] = {true, true, true}, bad[3] = {0};
	kt_str out = KT_STR_INIT;
	CHECK_EQ_INT(generate(&out, p, on, bad), 0);
	CHECK(strstr(out.ptr,
	             "#pragma kt param BLOCK values(128, 256) default(256)\n"
	             "// ktc: complete and uncomment: #pragma kt problem N "
	             "values(?)\n"
	             "#pragma kt launch grid(1) block(BLOCK)\n"
	             "#pragma kt arg y float[N] out\n"
	             "__global__") != NULL);
	kt_str_release(&out);
	kt_plan_free(p);
}

static void values_of_a_host_only_parameter_are_not_compiled(void)
{
	kt_plan *p = plan("TILE");
	CHECK(p != NULL);
	if (!p)
		return;
	kt_rewrite_decl decls[2] = {0};
	kt_rewrite_include inc = {0};
	kt_rewrite_file f = file(decls, &inc);
	bool on[3] = {false, false, true}; /* BLOCK: a stride and a launch */
	kt_rw_values v;
	CHECK_EQ_INT(kt_rw_values_make(&v, p, on, &f, src, 1), 0);
	CHECK_EQ_INT(v.n, 1); /* 128 (the default 256 is the original) */
	kt_rw_values_release(&v);
	/* without the kernel's stride, only the launch (host code) uses it */
	kt_plan_param *b = &p->params[2];
	b->uses++;
	b->nuses--;
	CHECK(b->nuses == 1 && b->uses[0].host);
	CHECK_EQ_INT(kt_rw_values_make(&v, p, on, &f, src, 1), 0);
	CHECK_EQ_INT(v.n, 0);
	kt_rw_values_release(&v);
	b->uses--;
	b->nuses++;
	kt_plan_free(p);
}

int main(void)
{
	RUN(gen_writes_the_template_conventions);
	RUN(gen_leaves_a_unit_that_is_off_untouched);
	RUN(gen_reads_an_off_parameter_in_a_text_at_its_default);
	RUN(gen_marks_a_macro_use_that_is_not_its_define);
	RUN(gen_orders_problem_then_launch_then_args);
	RUN(values_of_a_host_only_parameter_are_not_compiled);
	return check_summary();
}
