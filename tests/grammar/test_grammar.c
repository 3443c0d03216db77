/* test_grammar.c - the `#pragma kt` parser: each clause, expressions,
 * symbols, dependencies, kernels, continuations, diagnostics, memory. */
#include "check.h"

#include "ktc/model.h"

#include <stdlib.h>
#include <string.h>

static kt_diags diags;

/* Parses text that must parse; prints diagnostics when it does not. */
static kt_template *parse_ok(const char *text)
{
	kt_template *t = NULL;
	kt_diags_release(&diags);
	int rc = kt_template_parse(&t, "t.cu", text, &diags);
	if (rc) {
		kt_diags_print(&diags, stderr, 0);
		fprintf(stderr, "parse failed: %s\n", kt_error_last());
	}
	CHECK_EQ_INT(rc, 0);
	return t;
}

/* Parses text that must fail; diags holds the diagnostics after. */
static int parse_bad(const char *text)
{
	kt_template *t = (kt_template *)&t;
	kt_diags_release(&diags);
	int rc = kt_template_parse(&t, "t.cu", text, &diags);
	CHECK(t == NULL);
	return rc;
}

static bool has_diag(const char *needle, int line, int col)
{
	for (size_t i = 0; i < diags.len; i++)
		if (strstr(diags.items[i].message, needle) &&
		    diags.items[i].line == line && diags.items[i].col == col)
			return true;
	fprintf(stderr, "no diagnostic '%s' at %d:%d in:\n", needle, line, col);
	kt_diags_print(&diags, stderr, 0);
	return false;
}

/* The model of a one-kernel template: "#pragma kt" lines + a kernel. */
#define KERNEL "__global__ void k(float *x) {}\n"

static char *fmt(const kt_expr *e, const kt_model *m)
{
	static char buf[512];
	char *s = NULL;
	kt_expr_format(&s, e, m);
	snprintf(buf, sizeof(buf), "%s", s ? s : "");
	kt_free(s);
	return buf;
}

static void param_domains_expand(void)
{
	kt_template *t =
	    parse_ok("#pragma kt param A values(3, 1, 2) default(2)\n"
	             "#pragma kt param B range(2, 11, 3)\n"
	             "#pragma kt param C pow2(4, 64) default(16)\n"
	             "#pragma kt param D values(-1.5, 0.25)\n" KERNEL);
	const kt_model *m = kt_template_model(t, NULL);
	CHECK(m && m->nparams == 4);
	if (!m || m->nparams != 4)
		goto done;
	CHECK_EQ_INT(m->params[0].nvalues, 3);
	CHECK_EQ_INT(m->params[0].values[0].i, 3);
	CHECK_EQ_INT(m->params[0].default_index, 2);
	CHECK_EQ_INT(m->params[1].nvalues, 4); /* 2 5 8 11 */
	CHECK_EQ_INT(m->params[1].values[3].i, 11);
	CHECK_EQ_INT(m->params[1].default_index, 0);
	CHECK_EQ_INT(m->params[2].nvalues, 5); /* 4 8 16 32 64 */
	CHECK_EQ_INT(m->params[2].default_index, 2);
	CHECK(m->params[3].values[0].is_float);
	CHECK(m->params[3].values[0].f == -1.5);
	kt_template_free(t);
	t = parse_ok(
	    "\xEF\xBB\xBF#pragma kt param M values(2, 0.5, -1)\n" KERNEL);
	m = kt_template_model(t, NULL);
	CHECK(m && m->nparams == 1);
	if (!m || m->nparams != 1)
		goto done;
	CHECK(m->params[0].values[0].is_float && m->params[0].values[0].f == 2);
	CHECK(m->params[0].values[2].is_float &&
	      m->params[0].values[2].f == -1);
done:
	kt_template_free(t);
}

static void symbols_are_params_sets_problems_devices(void)
{
	kt_template *t =
	    parse_ok("#pragma kt set S = P * N + DEVICE_WARP_SIZE\n"
	             "#pragma kt problem N values(1024, 4096) default(4096)\n"
	             "#pragma kt param P values(1, 2)\n" KERNEL);
	const kt_model *m = kt_template_model(t, NULL);
	if (!m)
		return;
	CHECK_EQ_INT(m->nsymbols, 4);
	CHECK_EQ_INT(kt_model_symbol(m, "P"), 0);
	CHECK_EQ_INT(kt_model_symbol(m, "S"), 1);
	CHECK_EQ_INT(kt_model_symbol(m, "N"), 2);
	CHECK_EQ_INT(kt_model_symbol(m, "DEVICE_WARP_SIZE"), 3);
	CHECK_EQ_INT(kt_model_symbol(m, "Q"), -1);
	CHECK_EQ_INT(m->symbols[3].kind, KT_SYM_DEVICE);
	CHECK_EQ_INT(m->ndevices, 1);
	CHECK_EQ_INT(m->devices[0].fallback.i, 32);
	CHECK_EQ_STR(kt_device_consts[m->devices[0].index].name,
	             "DEVICE_WARP_SIZE");
	CHECK_EQ_INT(m->problems[0].default_index, 1);
	CHECK_EQ_INT(m->problems[0].sym, 2);
	CHECK_EQ_INT(m->params[0].sym, 0);
	kt_template_free(t);
}

static void dependencies_go_through_sets(void)
{
	kt_template *t = parse_ok("#pragma kt param A values(1, 2)\n"
	                          "#pragma kt param B values(1, 2)\n"
	                          "#pragma kt param C values(1, 2)\n"
	                          "#pragma kt problem N values(8)\n"
	                          "#pragma kt set S = A * N\n"
	                          "#pragma kt set T = S + C\n"
	                          "#pragma kt constraint T <= 64\n"
	                          "#pragma kt constraint B  >   N\n" KERNEL);
	const kt_model *m = kt_template_model(t, NULL);
	if (!m)
		return;
	CHECK_EQ_INT(m->sets[0].nparams, 1);
	CHECK_EQ_INT(m->sets[0].params[0], 0);
	CHECK_EQ_INT(m->sets[1].nparams, 2);
	CHECK_EQ_INT(m->sets[1].params[0], 0);
	CHECK_EQ_INT(m->sets[1].params[1], 2);
	CHECK_EQ_INT(m->constraints[0].nparams, 2);
	CHECK_EQ_INT(m->constraints[1].nparams, 1);
	CHECK_EQ_INT(m->constraints[1].params[0], 1);
	CHECK_EQ_STR(m->constraints[1].text, "B > N");
	kt_template_free(t);
}

/* Parses "constraint EXPR" over A, B, C and returns its formatted text. */
static const char *reformat(const char *expr)
{
	static char out[512];
	char text[1024];
	snprintf(
	    text, sizeof(text),
	    "#pragma kt param A values(1)\n#pragma kt param B values(2)\n"
	    "#pragma kt param C values(3)\n#pragma kt constraint %s\n" KERNEL,
	    expr);
	kt_template *t = parse_ok(text);
	const kt_model *m = kt_template_model(t, NULL);
	snprintf(out, sizeof(out), "%s",
	         m ? fmt(m->constraints[0].expr, m) : "(failed)");
	kt_template_free(t);
	return out;
}

static void precedence_follows_c(void)
{
	CHECK_EQ_STR(reformat("A + B * C"), "A + B * C");
	CHECK_EQ_STR(reformat("(A + B) * C"), "(A + B) * C");
	CHECK_EQ_STR(reformat("A - (B - C)"), "A - (B - C)");
	CHECK_EQ_STR(reformat("(A - B) - C"), "A - B - C");
	CHECK_EQ_STR(reformat("A << 1 < B"), "A << 1 < B");
	CHECK_EQ_STR(reformat("A < (B << 1)"), "A < B << 1");
	CHECK_EQ_STR(reformat("(A & B) == C"), "(A & B) == C");
	CHECK_EQ_STR(reformat("A & B == C"), "A & B == C");
	CHECK_EQ_STR(reformat("A | B ^ C & A"), "A | B ^ C & A");
	CHECK_EQ_STR(reformat("(A | B) ^ C"), "(A | B) ^ C");
	CHECK_EQ_STR(reformat("A || B && C"), "A || B && C");
	CHECK_EQ_STR(reformat("(A || B) && C"), "(A || B) && C");
	CHECK_EQ_STR(reformat("A ? B : C ? A : B"), "A ? B : C ? A : B");
	CHECK_EQ_STR(reformat("(A ? B : C) ? A : B"), "(A ? B : C) ? A : B");
	CHECK_EQ_STR(reformat("-A * -(B + C)"), "-A * -(B + C)");
	CHECK_EQ_STR(reformat("- -A"), "-(-A)");
	CHECK_EQ_STR(reformat("+ +A - -1"), "+(+A) - -1");
	CHECK_EQ_STR(reformat("-(-1)"), "-(-1)");
	CHECK_EQ_STR(reformat("!~A % 3 >= 1"), "!~A % 3 >= 1");
	CHECK_EQ_STR(reformat("A >= B != C <= A"), "A >= B != C <= A");
}

static void precedence_evaluates_like_c(void)
{
	kt_template *t =
	    parse_ok("#pragma kt param A values(1)\n"
	             "#pragma kt constraint A + 2 * 3 - 8 / 4 % 3\n"
	             "#pragma kt constraint A | 6 & 3 ^ 1 << 2\n"
	             "#pragma kt constraint A ? 0 ? 5 : 7 : 9\n" KERNEL);
	const kt_model *m = kt_template_model(t, NULL);
	kt_value slots[1] = {kt_int(1)}, v;
	if (!m)
		return;
	CHECK_EQ_INT(kt_expr_eval(&v, m->constraints[0].expr, slots), 0);
	CHECK_EQ_INT(v.i, 1 + 2 * 3 - 8 / 4 % 3);
	CHECK_EQ_INT(kt_expr_eval(&v, m->constraints[1].expr, slots), 0);
	CHECK_EQ_INT(v.i, 1 | (6 & (3 ^ (1 << 2))));
	CHECK_EQ_INT(kt_expr_eval(&v, m->constraints[2].expr, slots), 0);
	CHECK_EQ_INT(v.i, 7);
	kt_template_free(t);
}

static void literals_and_functions(void)
{
	CHECK_EQ_STR(reformat("A * 0x10 + 1.5 + 1e-3 + .5 + 2.0f + 7u"),
	             "A * 16 + 1.5 + 0.001 + 0.5 + 2.0 + 7");
	CHECK_EQ_STR(reformat("min(A, B, C) + max(A,B) + div_ceil(A, 2)"),
	             "min(A, B, C) + max(A, B) + div_ceil(A, 2)");
	CHECK_EQ_STR(reformat("log2(A) + pow2(B) + abs(-C) + floor(1.5)"),
	             "log2(A) + pow2(B) + abs(-C) + floor(1.5)");
	CHECK_EQ_STR(reformat("ceil(A) + round(B) + float(C) + int(A)"),
	             "ceil(A) + round(B) + float(C) + int(A)");
	CHECK_EQ_STR(reformat("A < 9223372036854775807"),
	             "A < 9223372036854775807");
}

static void format_round_trips(void)
{
	static const char *const exprs[] = {
	    "A + B * C - (A - B) / C % 2",
	    "A << (B >> 1) < C && !(A == B) || C != 0",
	    "(A ? B : C) + (A || B ? 1 : 2)",
	    "~(A ^ B) & (C | 3)",
	    "-(-A) + +B - -1.25e-7",
	    "min(A * 2, max(B, C, 4)) ? div_ceil(A + 1, B) : 0",
	};
	for (size_t i = 0; i < sizeof(exprs) / sizeof(exprs[0]); i++) {
		char once[512];
		snprintf(once, sizeof(once), "%s", reformat(exprs[i]));
		CHECK_EQ_STR(reformat(once), once);
	}
}

static void launch_args_verify_objective(void)
{
	kt_template *t = parse_ok(
	    "#pragma kt param B pow2(32, 256)\n"
	    "#pragma kt problem N values(4096)\n"
	    "#pragma kt launch block(B, 2) grid(div_ceil(N, B), 1, 3) "
	    "smem(B * 4)\n"
	    "#pragma kt arg x __nv_bfloat16[N] in init(random(-2, 2.5))\n"
	    "#pragma kt arg y float[N * 2] inout init(value(3))\n"
	    "#pragma kt arg z unsigned long long[N] out\n"
	    "#pragma kt arg w i8[4] in init(iota)\n"
	    "#pragma kt arg v half[4] in init(zeros)\n"
	    "#pragma kt arg n unsigned int = N / 2\n"
	    "#pragma kt verify atol(1e-3) match(0.99)\n"
	    "#pragma kt objective flops(2 * N)\n" KERNEL);
	const kt_model *m = kt_template_model(t, NULL);
	if (!m)
		return;
	CHECK(m->launch.present);
	CHECK_EQ_STR(fmt(m->launch.grid[0], m), "div_ceil(N, B)");
	CHECK_EQ_STR(fmt(m->launch.grid[2], m), "3");
	CHECK_EQ_STR(fmt(m->launch.block[1], m), "2");
	CHECK(m->launch.block[2] == NULL);
	CHECK_EQ_STR(fmt(m->launch.smem, m), "B * 4");
	CHECK_EQ_INT(m->nargs, 6);
	CHECK_EQ_INT(m->args[0].type, KT_TYPE_BF16);
	CHECK_EQ_INT(m->args[0].dir, KT_ARG_IN);
	CHECK_EQ_INT(m->args[0].init.kind, KT_INIT_RANDOM);
	CHECK(m->args[0].init.lo == -2 && m->args[0].init.hi == 2.5);
	CHECK_EQ_INT(m->args[1].dir, KT_ARG_INOUT);
	CHECK_EQ_INT(m->args[1].init.kind, KT_INIT_VALUE);
	CHECK(m->args[1].init.value == 3);
	CHECK_EQ_STR(fmt(m->args[1].count, m), "N * 2");
	CHECK_EQ_INT(m->args[2].type, KT_TYPE_U64);
	CHECK_EQ_INT(m->args[2].dir, KT_ARG_OUT);
	CHECK_EQ_INT(m->args[3].init.kind, KT_INIT_IOTA);
	CHECK_EQ_INT(m->args[4].init.kind, KT_INIT_ZEROS);
	CHECK_EQ_INT(m->args[4].type, KT_TYPE_F16);
	CHECK_EQ_INT(m->args[5].type, KT_TYPE_U32);
	CHECK(m->args[5].count == NULL);
	CHECK_EQ_STR(fmt(m->args[5].value, m), "N / 2");
	CHECK(m->verify.rtol < 0);
	CHECK(m->verify.atol == 1e-3);
	CHECK(m->verify.match == 0.99);
	CHECK(!m->verify.off);
	CHECK_EQ_INT(m->objective.kind, KT_OBJ_FLOPS);
	CHECK_EQ_STR(fmt(m->objective.expr, m), "2 * N");
	kt_template_free(t);
}

static void defaults_without_directives(void)
{
	kt_template *t = parse_ok("#pragma kt param A values(1)\n"
	                          "#pragma kt arg x f32[8] in\n"
	                          "#pragma kt arg y i32[8] in\n"
	                          "#pragma kt arg z u8[8] in\n" KERNEL);
	const kt_model *m = kt_template_model(t, NULL);
	if (!m)
		return;
	CHECK(!m->launch.present);
	CHECK(m->verify.rtol < 0 && m->verify.atol < 0 && m->verify.match < 0);
	CHECK_EQ_INT(m->objective.kind, KT_OBJ_TIME);
	CHECK(m->objective.expr == NULL);
	CHECK(m->args[0].init.lo == -1 && m->args[0].init.hi == 1);
	CHECK(m->args[1].init.lo == -100 && m->args[1].init.hi == 100);
	CHECK(m->args[2].init.lo == 0 && m->args[2].init.hi == 100);
	kt_template_free(t);
}

static void verify_off_and_objectives(void)
{
	kt_template *t =
	    parse_ok("#pragma kt param A values(1)\n"
	             "#pragma kt verify off\n"
	             "#pragma kt objective bandwidth(A * 8)\n" KERNEL);
	const kt_model *m = kt_template_model(t, NULL);
	CHECK(m && m->verify.off);
	CHECK(m && m->objective.kind == KT_OBJ_BANDWIDTH);
	kt_template_free(t);
}

static void kernel_template_takes_strings(void)
{
	kt_template *t = parse_ok(
	    "#pragma kt param A values(1, 2)\n"
	    "#pragma kt kernel template(A * 2, \"float\", \"a\\\"b\")\n"
	    "template <int X, typename T>\n" KERNEL);
	const kt_model *m = kt_template_model(t, NULL);
	if (!m)
		return;
	CHECK_EQ_INT(m->ntemplate_args, 3);
	CHECK_EQ_STR(fmt(m->template_args[0], m), "A * 2");
	CHECK_EQ_INT(m->template_args[1]->kind, KT_EXPR_STRING);
	CHECK_EQ_STR(m->template_args[1]->str, "float");
	CHECK_EQ_STR(m->template_args[2]->str, "a\"b");
	CHECK_EQ_STR(fmt(m->template_args[2], m), "\"a\\\"b\"");
	kt_template_free(t);
}

static void several_kernels_several_models(void)
{
	kt_template *t = parse_ok(
	    "#include <cuda.h>\n"
	    "#pragma kt param A values(1)\n"
	    "__global__ void first(int *p) { /* #pragma kt nothing */ }\n"
	    "__device__ int helper(void) { return 2; }\n"
	    "__global__ void bare(int *p) {}\n"
	    "#pragma kt param B values(2)\n"
	    "#ifndef B\n#define B 2\n#endif\n"
	    "// comment\n"
	    "template <int X = (3 > 2)>\n"
	    "static __global__ void __launch_bounds__(B * 32, 2)\n"
	    "  second(int *p) {}\n"
	    "#pragma kt param C values(3)\n"
	    "extern \"C\" __global__ void third(void) {}\n");
	if (!t)
		return;
	CHECK_EQ_INT(t->nmodels, 3);
	CHECK(kt_template_model(t, NULL) == NULL);
	const kt_model *m = kt_template_model(t, "second");
	CHECK(m && m->nparams == 1 && !strcmp(m->params[0].name, "B"));
	CHECK(m && m->kernel_loc.line == 13 && m->kernel_loc.col == 3);
	m = kt_template_model(t, "third");
	CHECK(m && !strcmp(m->params[0].name, "C"));
	CHECK(kt_template_model(t, "bare") == NULL);
	CHECK_EQ_STR(t->models[0].kernel, "first");
	kt_template_free(t);
}

/* A kernel's named namespaces are its scope (NVRTC's name expression
 * qualifies the kernel with them); anonymous ones, aliases, other braces
 * and a namespace closed before it are not. */
static void kernels_in_namespaces(void)
{
	kt_template *t =
	    parse_ok("namespace old { void f() { if (1) { } } }\n"
	             "namespace al = old;\n"
	             "namespace tk { namespace kernels {\n"
	             "struct S { int x; };\n"
	             "#pragma kt param A values(1)\n"
	             "template <typename T> __global__ void k1(T *p) { { } }\n"
	             "namespace {\n"
	             "#pragma kt param B values(2)\n"
	             "__global__ void k2(int *p) {}\n"
	             "}\n"
	             "} }\n"
	             "inline namespace v1::detail {\n"
	             "#pragma kt param C values(3)\n"
	             "__global__ void k3(int *p) {}\n"
	             "}\n"
	             "#pragma kt param D values(4)\n"
	             "__global__ void k4(int *p) {}\n");
	if (!t)
		return;
	CHECK_EQ_INT(t->nmodels, 4);
	const kt_model *m = kt_template_model(t, "k1");
	CHECK(m && !strcmp(m->scope, "tk::kernels::"));
	m = kt_template_model(t, "k2");
	CHECK(m && !strcmp(m->scope, "tk::kernels::"));
	m = kt_template_model(t, "k3");
	CHECK(m && !strcmp(m->scope, "v1::detail::"));
	m = kt_template_model(t, "k4");
	CHECK(m && !strcmp(m->scope, ""));
	kt_template_free(t);
}

static void continuation_lines_join(void)
{
	kt_template *t = parse_ok("#pragma kt param A \\\n"
	                          "    values(1, \\\n"
	                          "           2) default(2)\n"
	                          "#pragma kt constraint A > 1 && \\\r\n"
	                          "    A < 4 /* a comment\n"
	                          " across lines */ && A != 3 // end\n" KERNEL);
	const kt_model *m = kt_template_model(t, NULL);
	if (!m)
		return;
	CHECK_EQ_INT(m->params[0].nvalues, 2);
	CHECK_EQ_INT(m->params[0].default_index, 1);
	CHECK_EQ_STR(fmt(m->constraints[0].expr, m),
	             "A > 1 && A < 4 && A != 3");
	kt_template_free(t);
	/* A position after a continuation is on its own line. */
	parse_bad("#pragma kt param A values(1)\n"
	          "#pragma kt constraint A > 1 && \\\n"
	          "      B\n" KERNEL);
	CHECK(has_diag("unknown name 'B'", 3, 7));
	kt_diags_release(&diags);
}

static void opencl_kernels(void)
{
	kt_template *t = parse_ok(
	    "#pragma kt param WG values(64, 128)\n"
	    "__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))\n"
	    "void add(__global float *x) {}\n"
	    "#pragma kt param V values(1, 4)\n"
	    "kernel void scale(global float *x) {}\n");
	if (!t)
		return;
	CHECK_EQ_INT(t->nmodels, 2);
	CHECK(kt_template_model(t, "add") != NULL);
	CHECK(kt_template_model(t, "scale") != NULL);
	kt_template_free(t);
}

static void pragmas_in_comments_and_strings_are_not_pragmas(void)
{
	kt_template *t = parse_ok(
	    "/*\n#pragma kt param A values(1)\n*/\n"
	    "const char *s = \"\\\n#pragma kt param B values(1)\";\n"
	    "const char *r = R\"x(\n#pragma kt param C values(1)\n)x\";\n"
	    "char q = '\\'';\n"
	    "#define M(x) \\\n  x\n"
	    "// #pragma kt param D values(1)\n"
	    "#pragma kt param E values(1)\n" KERNEL);
	const kt_model *m = kt_template_model(t, NULL);
	CHECK(t && t->nmodels == 1);
	CHECK(m && m->nparams == 1 && !strcmp(m->params[0].name, "E"));
	kt_template_free(t);
}

static void no_pragma_no_model(void)
{
	kt_template *t = parse_ok("__global__ void k(void) {}\n");
	CHECK(t && t->nmodels == 0);
	CHECK(kt_template_model(t, NULL) == NULL);
	kt_template_free(t);
	t = parse_ok("");
	CHECK(t && t->nmodels == 0);
	kt_template_free(t);
}

static void errors_fail_with_positions(void)
{
	CHECK_EQ_INT(parse_bad("#pragma kt param A values(1, 2)\n"
	                       "#pragma kt constraint A > BB\n"
	                       "#pragma kt parm X values(1)\n" KERNEL),
	             KT_EPARSE);
	CHECK(has_diag("unknown name 'BB'", 2, 27));
	CHECK(has_diag("unknown directive 'parm'", 3, 12));
	CHECK_EQ_INT(diags.errors, 2);
	kt_diags_release(&diags);
}

static void long_expressions_are_bounded(void)
{
	static char text[64 * 1024];
	int n =
	    snprintf(text, sizeof(text),
	             "#pragma kt param A values(1)\n#pragma kt constraint A");
	for (int i = 0; i < 5000; i++)
		n += snprintf(text + n, sizeof(text) - (size_t)n, "+1");
	snprintf(text + n, sizeof(text) - (size_t)n, " > 0\n" KERNEL);
	parse_bad(text);
	CHECK_EQ_INT(diags.len, 1);
	CHECK(diags.len && strstr(diags.items[0].message, "too long") &&
	      diags.items[0].line == 2 && diags.items[0].col > 4096);
	kt_diags_release(&diags);
	/* Just under the limit parses. */
	n = snprintf(text, sizeof(text),
	             "#pragma kt param A values(1)\n#pragma kt constraint A");
	for (int i = 0; i < 2000; i++)
		n += snprintf(text + n, sizeof(text) - (size_t)n, "+1");
	snprintf(text + n, sizeof(text) - (size_t)n, " > 0\n" KERNEL);
	kt_template_free(parse_ok(text));
}

static void warnings_do_not_fail(void)
{
	kt_template *t = parse_ok("#pragma kt param A values(1)\n"
	                          "#pragma kt constraint 2 > 1\n" KERNEL);
	CHECK(t != NULL);
	CHECK_EQ_INT(diags.warnings, 1);
	CHECK(
	    has_diag("depends on no parameter and no problem variable", 2, 23));
	kt_diags_release(&diags);
	kt_template_free(t);
	/* a host's precondition over the sizes alone is no mistake */
	t = parse_ok("#pragma kt problem D values(64)\n"
	             "#pragma kt param A values(1)\n"
	             "#pragma kt constraint D % 8 == 0\n" KERNEL);
	CHECK(t != NULL);
	CHECK_EQ_INT(diags.warnings, 0);
	kt_diags_release(&diags);
	kt_template_free(t);
}

static void missing_kernel_is_an_error(void)
{
	parse_bad("#pragma kt param A values(1)\n");
	CHECK(has_diag("not followed by a kernel", 1, 1));
	kt_diags_release(&diags);
	parse_bad("#pragma kt param A values(1)\nint helper(void);\n" KERNEL);
	CHECK(has_diag("expected a kernel", 2, 1));
	kt_diags_release(&diags);
}

static void types_and_device_table(void)
{
	CHECK_EQ_INT(kt_type_size(KT_TYPE_BF16), 2);
	CHECK_EQ_INT(kt_type_size(KT_TYPE_U64), 8);
	CHECK_EQ_INT(kt_type_size(KT_TYPE_FP8_E4M3), 1);
	CHECK_EQ_STR(kt_type_name(KT_TYPE_FP8_E5M2), "fp8e5m2");
	CHECK_EQ_STR(kt_type_name(KT_TYPE_I16), "i16");
	CHECK(kt_type_is_float(KT_TYPE_F16));
	CHECK(!kt_type_is_float(KT_TYPE_U8));
	CHECK(kt_device_nconsts < 64);
	static const char *const required[] = {
	    "DEVICE_SM_COUNT",        "DEVICE_MAX_THREADS_PER_BLOCK",
	    "DEVICE_MAX_BLOCK_DIM_X", "DEVICE_MAX_BLOCK_DIM_Y",
	    "DEVICE_MAX_BLOCK_DIM_Z", "DEVICE_WARP_SIZE",
	    "DEVICE_SMEM_PER_BLOCK",  "DEVICE_SMEM_PER_BLOCK_OPTIN",
	    "DEVICE_SMEM_PER_SM",     "DEVICE_REGS_PER_BLOCK",
	    "DEVICE_REGS_PER_SM",     "DEVICE_MAX_THREADS_PER_SM",
	    "DEVICE_L2_SIZE",         "DEVICE_CC_MAJOR",
	    "DEVICE_CC_MINOR",        "DEVICE_COMPUTE_UNITS",
	    "DEVICE_LOCAL_MEM_SIZE",  "DEVICE_MAX_WORK_GROUP_SIZE"};
	for (size_t r = 0; r < sizeof(required) / sizeof(required[0]); r++) {
		int found = 0;
		for (size_t i = 0; i < kt_device_nconsts; i++)
			found += !strcmp(kt_device_consts[i].name, required[r]);
		CHECK_EQ_INT(found, 1);
	}
	for (size_t i = 0; i < kt_device_nconsts; i++) {
		CHECK(!strncmp(kt_device_consts[i].name, "DEVICE_", 7));
		CHECK(kt_device_consts[i].fallback > 0 ||
		      !strcmp(kt_device_consts[i].name, "DEVICE_CC_MINOR"));
		CHECK(kt_device_consts[i].meaning[0] != '\0');
	}
}

static void load_reports_missing_file(void)
{
	kt_template *t = (kt_template *)&t;
	kt_diags_release(&diags);
	CHECK_EQ_INT(kt_template_load(&t, "/nonexistent/x.cu", &diags), KT_EIO);
	CHECK(t == NULL);
	CHECK(strstr(kt_error_last(), "/nonexistent/x.cu") != NULL);
}

/* Applies values to the only model of text and compares with expected. */
static void check_apply(const char *text, const kt_value *v,
                        const char *expected)
{
	kt_template *t = parse_ok(text);
	char *out = NULL;
	if (!t)
		return;
	kt_diags_release(&diags);
	CHECK_EQ_INT(kt_template_apply(&out, t, &t->models[0], v, &diags), 0);
	CHECK_EQ_STR(out, expected);
	kt_free(out);
	kt_template_free(t);
}

/* kt_template_restrict: failing values out, every domain form written as
 * values(...), the default kept, untouched parameters left as written. */
static void restrict_narrows_each_domain_form(void)
{
	kt_template *t =
	    parse_ok("#pragma kt param A range(1, 4) default(2)\n"
	             "#pragma kt param B pow2(32, 256) default(128)\n"
	             "#pragma kt param C values(1, \\\n\t2, 3) default(3)\n"
	             "#pragma kt param D values(5, 6) default(5)\n"
	             "__global__ void k(float *x) { x[A + B + C + D] = 0; }\n");
	if (!t)
		return;
	const bool a[] = {false, true, true, false},
	           b[] = {true, false, true, true}, c[] = {false, false, false},
	           d[] = {true, true};
	const bool *const keep[] = {a, b, c, d};
	char *out = NULL;
	CHECK_EQ_INT(kt_template_restrict(&out, t, &t->models[0], keep), 0);
	CHECK_EQ_STR(out,
	             "#pragma kt param A values(2, 3) default(2)\n"
	             "#pragma kt param B values(32, 128, 256) default(128)\n"
	             "#pragma kt param C values(3) default(3)\n"
	             "#pragma kt param D values(5, 6) default(5)\n"
	             "__global__ void k(float *x) { x[A + B + C + D] = 0; }\n");
	kt_free(out);
	kt_template_free(t);
}

static void apply_defines_before_first_use_and_sets_default(void)
{
	const kt_value v[] = {kt_int(128), kt_int(2)};
	check_apply("/* B in a comment */\n"
	            "const char *s = \"I\";\n"
	            "#define STEP(i) \\\n"
	            "\t((i) + B)\n"
	            "#pragma kt param B values(64, 128) default( 64 )\n"
	            "#pragma kt param I \\\n"
	            "\tvalues(1, 2) // no default\n"
	            "__global__ void k(float *x) { x[I] = STEP(0); }\n",
	            v,
	            "/* B in a comment */\n"
	            "const char *s = \"I\";\n"
	            "#ifndef B\n#define B 128 // ktc apply\n#endif\n"
	            "#define STEP(i) \\\n"
	            "\t((i) + B)\n"
	            "#pragma kt param B values(64, 128) default(128)\n"
	            "#pragma kt param I \\\n"
	            "\tvalues(1, 2) default(2) // no default\n"
	            "#ifndef I\n#define I 2 // ktc apply\n#endif\n"
	            "__global__ void k(float *x) { x[I] = STEP(0); }\n");
	CHECK_EQ_INT(diags.warnings, 0);
}

static void apply_moves_out_of_block_comments(void)
{
	const kt_value v[] = {kt_float(0.5)};
	check_apply("#pragma kt param F values(0.25, 0.5)\n"
	            "__global__ void k(float *x) { /* a\n"
	            "comment */ x[0] = F; }\n",
	            v,
	            "#pragma kt param F values(0.25, 0.5) default(0.5)\n"
	            "#ifndef F\n#define F 0.5 // ktc apply\n#endif\n"
	            "__global__ void k(float *x) { /* a\n"
	            "comment */ x[0] = F; }\n");
}

static void apply_defines_unused_at_end_with_warning(void)
{
	const kt_value v[] = {kt_int(-3)};
	check_apply("#pragma kt param U values(-3, 3)\n"
	            "__global__ void k(float *x) {}",
	            v,
	            "#pragma kt param U values(-3, 3) default((-3))\n"
	            "__global__ void k(float *x) {}\n"
	            "#ifndef U\n#define U (-3) // ktc apply\n#endif\n");
	CHECK_EQ_INT(diags.warnings, 1);
	CHECK(has_diag("'U' is not used outside its pragma", 1, 18));
}

/* An allocator that fails the nth allocation and counts live blocks. */
static long fail_at, alloc_count, live;

static void *failing_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	(void)ud;
	(void)osize;
	if (nsize == 0) {
		if (ptr)
			live--;
		free(ptr);
		return NULL;
	}
	if (++alloc_count == fail_at)
		return NULL;
	void *p = realloc(ptr, nsize);
	if (p && !ptr)
		live++;
	return p;
}

static void every_allocation_failure_is_survived(void)
{
	const char *text = "#pragma kt param A values(1, 2)\n"
	                   "#pragma kt param B range(1, 300)\n"
	                   "#pragma kt set S = A * B\n"
	                   "#pragma kt constraint S < DEVICE_SM_COUNT\n"
	                   "#pragma kt constraint Q > 1\n"
	                   "#pragma kt constraint DEVICE_NONE > 1\n" KERNEL;
	int failures = 0;
	for (fail_at = 1; fail_at < 1000; fail_at++) {
		kt_template *t = NULL;
		alloc_count = live = 0;
		kt_diags_release(&diags);
		kt_set_allocator(failing_alloc, NULL);
		int rc = kt_template_parse(&t, "t.cu", text, &diags);
		kt_diags_release(&diags);
		kt_template_free(t);
		kt_set_allocator(NULL, NULL);
		CHECK(rc == KT_ENOMEM || rc == KT_EPARSE);
		CHECK_EQ_INT(live, 0);
		failures += rc == KT_ENOMEM;
		if (alloc_count < fail_at)
			break; /* every allocation has been failed once */
	}
	CHECK(failures > 3);
}

/* kt_template_lines finds the lines without parsing them: a block still
 * to complete (no param, a `?`) reads, each line with its kernel. */
static void lines_are_found_with_their_kernel(void)
{
	const char *text = "#include <x.h>\n"
	                   "#pragma kt problem n values(?)\n"
	                   "// a comment\n"
	                   "#pragma kt launch grid(n) block(256)\n"
	                   "template <int B>\n"
	                   "__global__ void k1(int n) {}\n"
	                   "#pragma kt arg n int = n\n"
	                   "__global__ void k2(int n) {}\n";
	kt_pragma_text *l = NULL;
	size_t n = 0;
	CHECK_EQ_INT(kt_template_lines(&l, &n, text, strlen(text)), 0);
	CHECK_EQ_INT((int)n, 3);
	for (size_t i = 0; l && i < n; i++) {
		const char *k = i < 2 ? "k1" : "k2";
		CHECK(l[i].kernel_len == 2 &&
		      !strncmp(text + l[i].kernel, k, 2));
		CHECK(text[l[i].begin] == '#');
	}
	if (l && n == 3)
		CHECK(!strncmp(text + l[1].body, " launch grid(n)", 15));
	kt_free(l);
	CHECK_EQ_INT(kt_template_lines(&l, &n, "int x;\n", 7), 0);
	CHECK(!l && n == 0);
}

int main(void)
{
	RUN(param_domains_expand);
	RUN(symbols_are_params_sets_problems_devices);
	RUN(dependencies_go_through_sets);
	RUN(precedence_follows_c);
	RUN(precedence_evaluates_like_c);
	RUN(literals_and_functions);
	RUN(format_round_trips);
	RUN(launch_args_verify_objective);
	RUN(defaults_without_directives);
	RUN(verify_off_and_objectives);
	RUN(kernel_template_takes_strings);
	RUN(several_kernels_several_models);
	RUN(kernels_in_namespaces);
	RUN(continuation_lines_join);
	RUN(opencl_kernels);
	RUN(pragmas_in_comments_and_strings_are_not_pragmas);
	RUN(no_pragma_no_model);
	RUN(errors_fail_with_positions);
	RUN(long_expressions_are_bounded);
	RUN(warnings_do_not_fail);
	RUN(missing_kernel_is_an_error);
	RUN(types_and_device_table);
	RUN(load_reports_missing_file);
	RUN(restrict_narrows_each_domain_form);
	RUN(apply_defines_before_first_use_and_sets_default);
	RUN(apply_moves_out_of_block_comments);
	RUN(apply_defines_unused_at_end_with_warning);
	RUN(every_allocation_failure_is_survived);
	RUN(lines_are_found_with_their_kernel);
	kt_diags_release(&diags);
	return check_summary();
}
