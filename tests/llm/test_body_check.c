/*
 * test_body_check.c - kt_plan_body_check (planner/variant.c), the gate a
 * variant's body (untrusted text) passes before any compiler sees it:
 * what it lets through, what it refuses and the reason it gives.
 */
#include "check.h"

#include "ktc/plan.h"

#include <stdlib.h>
#include <string.h>

static const char ORIG[] = "{\n\tint i = blockIdx.x * blockDim.x + "
                           "threadIdx.x;\n\tif (i < n)\n\t\ty[i] = a * "
                           "x[i] + b; // a comment with 'quotes\n}";

static const char *check(const char *body, const char *orig)
{
	static char why[300];
	why[0] = 0;
	int rc = kt_plan_body_check(body, strlen(body), orig, strlen(orig), why,
	                            sizeof(why));
	return rc ? why : NULL;
}

static void plain_cuda_bodies_pass(void)
{
	CHECK(!check(ORIG, ORIG));
	CHECK(!check("  { int s = 0; /* { */ for (int k = 0; k < 4; k++) "
	             "{ s += x[k]; } y[0] = s; }  // } \n",
	             ORIG));
	CHECK(!check("{ __shared__ float t[32][33]; t[0][0] = '{'; "
	             "__syncthreads(); }",
	             ORIG));
}

static void what_a_body_may_not_hold_is_refused_with_its_reason(void)
{
	static const char *const bad[][2] = {
	    {"", "starts with '{'"},
	    {"int i;", "starts with '{'"},
	    {"{ y[0] = 1; } void f() {}", "text after the body's closing"},
	    {"{ y[0] = 1; ", "is not closed"},
	    {"{ y[0] = (1; }", "an unmatched '}'"},
	    {"{ y[0] = 1; ]", "an unmatched ']'"},
	    {"{\n#include <cstdio>\n}", "line 2 of the body: '#'"},
	    {"{ %: pragma }", "no preprocessor line"},
	    {"{ as\\\nm(\"trap;\"); }", "line splice"},
	    {"{ asm(\"trap;\"); }", "'asm' is not allowed"},
	    {"{ __asm__ volatile(\"\"); }", "'__asm__' is not allowed"},
	    {"{ printf(\"%d\", 1); }", "'printf' is not allowed"},
	    {"{ float *p = (float *)malloc(4); }", "'malloc' is not allowed"},
	    {"{ cudaDeviceSynchronize(); }", "'cudaDeviceSynchronize'"},
	    {"{ __builtin_trap(); }", "'__builtin_trap'"},
	    {"{ extern int g; y[0] = g; }", "'extern' is not allowed"},
	    {"{ const char *s = \"x\"; }", "a string literal"},
	    {"{ y[0] = 1; /* open", "an unterminated comment"},
	    {"{ char c = 'x; }", "an unterminated literal"},
	    {"{ y[0] = \xc3\xa9; }", "printable ASCII"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *why = check(bad[i][0], ORIG);
		CHECK(why && strstr(why, bad[i][1]));
		if (!why || !strstr(why, bad[i][1]))
			printf("  body %zu: %s\n", i, why ? why : "(passed)");
	}
}

/* The one directive a body may hold: a copy of a kernel's loops keeps
 * their unroll hints (warp_per_row's body, planner/reduce.c). */
static void an_unroll_line_is_the_one_directive_allowed(void)
{
	CHECK(!check("{\n#pragma unroll\n\tfor (int k = 0; k < 4; k++)\n"
	             "\t\ty[k] = 0;\n\t#pragma unroll 4\n\tfor (;;) {}\n}",
	             ORIG));
	CHECK(check("{ y[0] = 1; #pragma unroll\n}", ORIG) != NULL);
	CHECK(check("{\n#pragma unroll 4 x\n}", ORIG) != NULL);
	CHECK(check("{\n#pragma unroll N\n}", ORIG) != NULL);
	CHECK(check("{\n#pragma unrolled\n}", ORIG) != NULL);
	CHECK(check("{\n#pragma unroll\\\n#include <x>\n}", ORIG) != NULL);
}

static void a_name_the_kernel_already_uses_is_allowed(void)
{
	const char orig[] = "{ if (threadIdx.x == 0) printf(\"%d\\n\", n); }";
	CHECK(!check("{ printf(\"%d\\n\", n + 1); }", orig));
	CHECK(check("{ malloc(4); }", orig) != NULL);
}

static void a_body_larger_than_the_limit_is_refused(void)
{
	size_t n = KT_PLAN_MAX_BODY + 2;
	char *big = malloc(n + 1);
	memset(big, ' ', n);
	big[0] = '{', big[n - 1] = '}', big[n] = 0;
	const char *why = check(big, ORIG);
	CHECK(why && strstr(why, "more than 65536"));
	free(big);
}

static void a_nul_byte_is_refused(void)
{
	char why[300];
	const char body[] = "{ y[0] = 1; \0 }";
	CHECK_EQ_INT(kt_plan_body_check(body, sizeof(body) - 1, ORIG,
	                                strlen(ORIG), why, sizeof(why)),
	             KT_EINVALID);
	CHECK(strstr(why, "NUL"));
}

int main(void)
{
	RUN(plain_cuda_bodies_pass);
	RUN(what_a_body_may_not_hold_is_refused_with_its_reason);
	RUN(an_unroll_line_is_the_one_directive_allowed);
	RUN(a_name_the_kernel_already_uses_is_allowed);
	RUN(a_body_larger_than_the_limit_is_refused);
	RUN(a_nul_byte_is_refused);
	return check_summary();
}
