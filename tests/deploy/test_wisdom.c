/*
 * test_wisdom.c - the wisdom file (ktc/wisdom.h): it round-trips bit for
 * bit, refuses what is malformed with the field named, and picks the shape
 * of a launch: exact, nearest, or the default on another device or with
 * no shapes.
 */
#include "check.h"

#include "ktc/wisdom.h"
#include "util/fs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char tpl[] =
    "#pragma kt param BLOCK values(64, 128, 256) default(128)\n"
    "#pragma kt param VEC values(1, 2, 4) default(1)\n"
    "#pragma kt problem T values(1, 64, 4096) default(64)\n"
    "#pragma kt problem D values(4096, 7168) default(4096)\n"
    "#pragma kt launch grid(T) block(BLOCK)\n"
    "#pragma kt arg y float[T * D] out\n"
    "__global__ void k(float *y) {}\n";

static kt_template *t;

static const kt_model *model(void)
{
	kt_diags d;
	kt_diags_init(&d);
	if (!t && kt_template_parse(&t, "k.kt.cu", tpl, &d))
		kt_diags_print(&d, stderr, 0);
	kt_diags_release(&d);
	return kt_template_model(t, NULL);
}

/* A wisdom of three shapes on "GPU A": T=1, 64, 4096 at D=4096. */
static kt_wisdom *three_shapes(void)
{
	kt_wisdom *w = NULL;
	if (kt_wisdom_new(&w, model(), "k.kt.cu", 0x0123456789abcdefULL,
	                  "graph"))
		return NULL;
	snprintf(w->device, sizeof(w->device), "GPU A");
	snprintf(w->arch, sizeof(w->arch), "sm_90a");
	snprintf(w->compute_capability, sizeof(w->compute_capability), "9.0");
	snprintf(w->driver, sizeof(w->driver), "13000");
	int64_t ts[3] = {1, 64, 4096}, blocks[3] = {64, 128, 256};
	for (int i = 0; i < 3; i++) {
		kt_value p[2] = {kt_int(ts[i]), kt_int(4096)};
		kt_value b[2] = {kt_int(blocks[i]), kt_int(1 << i)};
		/* times that need 17 digits to read back */
		kt_wisdom_set(w, p, b, 0.1 + 1e-17 * i + 1.0 / 3.0 * i,
		              2.0 / 3.0 + i);
	}
	return w;
}

static void wisdom_round_trips_bit_for_bit(void)
{
	kt_wisdom *w = three_shapes(), *r = NULL;
	CHECK(w != NULL);
	char path[] = "/tmp/ktc-wisdom-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	CHECK_EQ_INT(kt_wisdom_write(w, path), 0);
	CHECK_EQ_INT(kt_wisdom_load(&r, path), 0);
	CHECK(r != NULL);
	if (w && r) {
		CHECK_EQ_STR(r->kernel, "k");
		CHECK_EQ_STR(r->objective, "graph");
		CHECK_EQ_STR(r->device, "GPU A");
		CHECK_EQ_STR(r->arch, "sm_90a");
		CHECK_EQ_STR(r->compute_capability, "9.0");
		CHECK_EQ_STR(r->driver, "13000");
		CHECK(r->template_hash == 0x0123456789abcdefULL);
		CHECK_EQ_INT(r->nparams, 2);
		CHECK_EQ_STR(r->param_names[1], "VEC");
		CHECK_EQ_INT(r->nproblems, 2);
		CHECK_EQ_STR(r->problem_names[0], "T");
		CHECK_EQ_INT(r->nshapes, 3);
		for (size_t i = 0; i < 3 && r->nshapes == 3; i++) {
			CHECK(r->shapes[i].time_ms == w->shapes[i].time_ms);
			CHECK(r->shapes[i].default_ms ==
			      w->shapes[i].default_ms);
			CHECK_EQ_INT(r->shapes[i].problem[0].i,
			             w->shapes[i].problem[0].i);
			CHECK_EQ_INT(r->shapes[i].best[0].i,
			             w->shapes[i].best[0].i);
			CHECK_EQ_INT(r->shapes[i].best[1].i,
			             w->shapes[i].best[1].i);
		}
	}
	unlink(path);
	kt_wisdom_free(w);
	kt_wisdom_free(r);
}

static void setting_a_shape_again_replaces_it(void)
{
	kt_wisdom *w = three_shapes();
	kt_value p[2] = {kt_int(64), kt_int(4096)};
	kt_value b[2] = {kt_int(256), kt_int(4)};
	CHECK_EQ_INT(kt_wisdom_set(w, p, b, 0.5, 0.75), 0);
	CHECK_EQ_INT(w->nshapes, 3);
	CHECK_EQ_INT(w->shapes[1].best[0].i, 256);
	CHECK(w->shapes[1].time_ms == 0.5);
	kt_wisdom_free(w);
}

static void select_exact_nearest_default(void)
{
	kt_wisdom *w = three_shapes();
	size_t s = 0;
	kt_value at64[2] = {kt_int(64), kt_int(4096)};
	CHECK_EQ_INT(kt_wisdom_select(w, "GPU A", at64, &s), KT_WISDOM_EXACT);
	CHECK_EQ_INT(s, 1);
	/* T=100 is nearer 64 than 4096 in log2 */
	kt_value at100[2] = {kt_int(100), kt_int(4096)};
	CHECK_EQ_INT(kt_wisdom_select(w, "GPU A", at100, &s),
	             KT_WISDOM_NEAREST);
	CHECK_EQ_INT(s, 1);
	kt_value at3000[2] = {kt_int(3000), kt_int(4096)};
	CHECK_EQ_INT(kt_wisdom_select(w, "GPU A", at3000, &s),
	             KT_WISDOM_NEAREST);
	CHECK_EQ_INT(s, 2);
	/* T=8 is 3 from 1 and 3 from 64: the tie goes to the smaller */
	kt_value at8[2] = {kt_int(8), kt_int(4096)};
	CHECK_EQ_INT(kt_wisdom_select(w, "GPU A", at8, &s), KT_WISDOM_NEAREST);
	CHECK_EQ_INT(s, 0);
	/* another D is no exact match, even at a tuned T */
	kt_value d7168[2] = {kt_int(64), kt_int(7168)};
	CHECK_EQ_INT(kt_wisdom_select(w, "GPU A", d7168, &s),
	             KT_WISDOM_NEAREST);
	CHECK_EQ_INT(s, 1);
	/* another device: the default, whatever the shape */
	CHECK_EQ_INT(kt_wisdom_select(w, "GPU B", at64, &s), KT_WISDOM_DEFAULT);
	CHECK(s == SIZE_MAX);
	/* no device given: any */
	CHECK_EQ_INT(kt_wisdom_select(w, NULL, at64, &s), KT_WISDOM_EXACT);
	CHECK_EQ_STR(kt_wisdom_match_name(KT_WISDOM_NEAREST), "nearest");
	kt_wisdom_free(w);
}

static void select_without_shapes_is_the_default(void)
{
	kt_wisdom *w = NULL;
	CHECK_EQ_INT(kt_wisdom_new(&w, model(), "k.kt.cu", 1, "cold"), 0);
	snprintf(w->device, sizeof(w->device), "GPU A");
	size_t s = 0;
	kt_value at64[2] = {kt_int(64), kt_int(4096)};
	CHECK_EQ_INT(kt_wisdom_select(w, "GPU A", at64, &s), KT_WISDOM_DEFAULT);
	kt_wisdom_free(w);
}

/* text with "@" replaced by a shape's fields */
static int parse_with(const char *shape, const char *msg_part)
{
	char text[2048];
	snprintf(text, sizeof(text),
	         "{\"ktc_wisdom\":1,\"template\":\"k.kt.cu\","
	         "\"template_hash\":\"0123456789abcdef\",\"kernel\":\"k\","
	         "\"objective\":\"cold\",\"device\":{\"name\":\"G\","
	         "\"arch\":\"sm_90a\",\"compute_capability\":\"9.0\","
	         "\"driver\":\"1\"},\"params\":[\"BLOCK\",\"VEC\"],"
	         "\"problem\":[\"T\",\"D\"],\"shapes\":[%s]}",
	         shape);
	kt_wisdom *w = NULL;
	int rc = kt_wisdom_parse(&w, text, "w.json");
	if (msg_part && !strstr(kt_error_last(), msg_part)) {
		fprintf(stderr, "message '%s' lacks '%s'\n", kt_error_last(),
		        msg_part);
		rc = 99;
	}
	kt_wisdom_free(w);
	return rc;
}

static void malformed_wisdom_is_refused_with_the_field(void)
{
	const char *good = "{\"problem\":{\"T\":1,\"D\":4096},\"best\":{"
	                   "\"BLOCK\":64,\"VEC\":2},\"time_ms\":0.5,"
	                   "\"default_ms\":0.7}";
	CHECK_EQ_INT(parse_with(good, NULL), 0);
	CHECK_EQ_INT(parse_with("{\"problem\":{\"T\":1},\"best\":{\"BLOCK\":"
	                        "64,\"VEC\":2},\"time_ms\":0.5,"
	                        "\"default_ms\":0.7}",
	                        "shapes[0].problem"),
	             KT_EPARSE);
	CHECK_EQ_INT(parse_with("{\"problem\":{\"T\":1,\"D\":4096},\"best\":{"
	                        "\"BLOCK\":64,\"VEX\":2},\"time_ms\":0.5,"
	                        "\"default_ms\":0.7}",
	                        "no number for 'VEC'"),
	             KT_EPARSE);
	CHECK_EQ_INT(parse_with("{\"problem\":{\"T\":1,\"D\":4096},\"best\":{"
	                        "\"BLOCK\":64,\"VEC\":2},\"time_ms\":-1,"
	                        "\"default_ms\":0.7}",
	                        "not a positive number"),
	             KT_EPARSE);
	char twice[1024];
	snprintf(twice, sizeof(twice), "%s,%s", good, good);
	CHECK_EQ_INT(parse_with(twice, "repeats an earlier shape"), KT_EPARSE);
	kt_wisdom *w = NULL;
	CHECK_EQ_INT(kt_wisdom_parse(&w, "{\"ktc_cache\":1}", "c.jsonl"),
	             KT_EPARSE);
	CHECK(strstr(kt_error_last(), "not a wisdom file") != NULL);
	CHECK_EQ_INT(kt_wisdom_parse(&w, "[1,", "x"), KT_EPARSE);
	CHECK(w == NULL);
}

int main(void)
{
	RUN(wisdom_round_trips_bit_for_bit);
	RUN(setting_a_shape_again_replaces_it);
	RUN(select_exact_nearest_default);
	RUN(select_without_shapes_is_the_default);
	RUN(malformed_wisdom_is_refused_with_the_field);
	kt_template_free(t);
	return check_summary();
}
