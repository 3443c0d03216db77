/* test_annotate_edit.c - edits on byte ranges and unified diffs. */
#include "check.h"

#include "ktc/common.h"
#include "rewriter/rewriter.h"
#include "util/rng.h"
#include "util/str.h"

#include <stdlib.h>

/* ---- edits ---- */

static void edit_replaces_and_inserts(void)
{
	const char *src = "for (i = 0; i < n; i += 256)";
	kt_edit e[] = {
	    {24, 27, "BLOCK", 1, 0},
	    {0, 0, "#pragma unroll\n", 2, 0},
	    {28, 28, ";", 3, 0},
	};
	kt_str out = KT_STR_INIT;
	CHECK_EQ_INT(kt_edit_apply(&out, src, strlen(src), e, 3, NULL), 0);
	CHECK_EQ_STR(out.ptr,
	             "#pragma unroll\nfor (i = 0; i < n; i += BLOCK);");
	kt_str_release(&out);
}

static void edit_keeps_order_of_insertions_at_one_offset(void)
{
	const char *src = "ab";
	kt_edit e[] = {{1, 2, "X", 0, 0}, {1, 1, "1", 1, 0}, {1, 1, "2", 2, 0}};
	kt_str out = KT_STR_INIT;
	CHECK_EQ_INT(kt_edit_apply(&out, src, 2, e, 3, NULL), 0);
	CHECK_EQ_STR(out.ptr, "a12X");
	kt_str_release(&out);
}

static void edit_orders_insertions_by_rank(void)
{
	kt_edit e[] = {{1, 1, "<open>", 0, 3},
	               {1, 1, "<close>", 1, 0},
	               {1, 1, "<block>", 2, 1}};
	kt_str out = KT_STR_INIT;
	CHECK_EQ_INT(kt_edit_apply(&out, "ab", 2, e, 3, NULL), 0);
	CHECK_EQ_STR(out.ptr, "a<close><block><open>b");
	kt_str_release(&out);
}

static void edit_detects_overlap(void)
{
	const char *src = "0123456789";
	kt_edit e[] = {{2, 5, "x", 7, 0}, {6, 8, "y", 8, 0}, {4, 7, "z", 9, 0}};
	kt_str out = KT_STR_INIT;
	int conflict[2] = {-1, -1};
	CHECK_EQ_INT(kt_edit_apply(&out, src, 10, e, 3, conflict), KT_EINVALID);
	CHECK_EQ_INT(conflict[0], 7);
	CHECK_EQ_INT(conflict[1], 9);
	CHECK(strstr(kt_error_last(), "overlap") != NULL);
	kt_str_release(&out);
}

static void edit_rejects_insertion_inside_a_replacement(void)
{
	kt_edit e[] = {{2, 6, "x", 0, 0}, {4, 4, "y", 1, 0}};
	kt_str out = KT_STR_INIT;
	CHECK_EQ_INT(kt_edit_apply(&out, "0123456789", 10, e, 2, NULL),
	             KT_EINVALID);
	kt_str_release(&out);
}

static void edit_allows_touching_ranges(void)
{
	kt_edit e[] = {{0, 2, "A", 0, 0}, {2, 4, "B", 1, 0}, {4, 4, "+", 2, 0}};
	kt_str out = KT_STR_INIT;
	CHECK_EQ_INT(kt_edit_apply(&out, "0123456789", 10, e, 3, NULL), 0);
	CHECK_EQ_STR(out.ptr, "AB+456789");
	kt_str_release(&out);
}

static void edit_rejects_range_past_the_end(void)
{
	kt_edit e[] = {{3, 12, "x", 0, 0}};
	kt_str out = KT_STR_INIT;
	CHECK_EQ_INT(kt_edit_apply(&out, "0123456789", 10, e, 1, NULL),
	             KT_EINVALID);
	kt_str_release(&out);
}

static void text_offsets_round_trip(void)
{
	const char *t = "ab\ncde\n\nf";
	int line, col;
	CHECK_EQ_INT(kt_text_offset(t, 9, 2, 2), 4);
	kt_text_linecol(t, 4, &line, &col);
	CHECK_EQ_INT(line, 2);
	CHECK_EQ_INT(col, 2);
	CHECK_EQ_INT(kt_text_offset(t, 9, 4, 1), 8);
	kt_text_linecol(t, 8, &line, &col);
	CHECK_EQ_INT(line, 4);
	CHECK_EQ_INT(col, 1);
}

/* ---- diffs ---- */

static void diff_of_equal_texts_is_empty(void)
{
	kt_str out = KT_STR_INIT;
	CHECK_EQ_INT(
	    kt_diff_unified(&out, "a\nb\n", 4, "a\nb\n", 4, "a/x", "b/x", 3),
	    0);
	CHECK_EQ_INT(out.len, 0);
	kt_str_release(&out);
}

/* The expected text is what GNU `diff -u` prints for the same inputs. */
static void diff_matches_gnu_diff(void)
{
	const char *a = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n";
	const char *b = "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\n11\n13\n14\n15\n";
	kt_str out = KT_STR_INIT;
	CHECK_EQ_INT(kt_diff_unified(&out, a, strlen(a), b, strlen(b), "a/k.cu",
	                             "b/k.cu", 3),
	             0);
	CHECK_EQ_STR(out.ptr,
	             "--- a/k.cu\n+++ b/k.cu\n"
	             "@@ -1,6 +1,6 @@\n 1\n 2\n-3\n+three\n 4\n 5\n 6\n"
	             "@@ -9,6 +9,6 @@\n 9\n 10\n 11\n-12\n 13\n 14\n+15\n");
	kt_str_release(&out);
}

static void diff_joins_changes_closer_than_twice_the_context(void)
{
	const char *a = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
	const char *b = "1\nx\n3\n4\n5\n6\n7\ny\n9\n";
	kt_str out = KT_STR_INIT;
	CHECK_EQ_INT(
	    kt_diff_unified(&out, a, strlen(a), b, strlen(b), "a", "b", 3), 0);
	CHECK_EQ_STR(out.ptr, "--- a\n+++ b\n@@ -1,9 +1,9 @@\n 1\n-2\n+x\n 3\n"
	                      " 4\n 5\n 6\n 7\n-8\n+y\n 9\n");
	kt_str_release(&out);
}

static void diff_marks_a_missing_final_newline(void)
{
	kt_str out = KT_STR_INIT;
	CHECK_EQ_INT(kt_diff_unified(&out, "a\nb", 3, "a\nb\n", 4, "a", "b", 3),
	             0);
	CHECK_EQ_STR(out.ptr, "--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n"
	                      "\\ No newline at end of file\n+b\n");
	kt_str_release(&out);
}

static void diff_of_empty_and_text(void)
{
	kt_str out = KT_STR_INIT;
	CHECK_EQ_INT(kt_diff_unified(&out, "", 0, "x\ny\n", 4, "a", "b", 3), 0);
	CHECK_EQ_STR(out.ptr, "--- a\n+++ b\n@@ -0,0 +1,2 @@\n+x\n+y\n");
	kt_str_release(&out);
}

/* Applies a unified diff produced above to a (the test's oracle). */
static char *apply_diff(const char *a, const char *diff)
{
	kt_str out = KT_STR_INIT;
	const char *p = strstr(diff, "@@");
	const char *src = a;
	long line = 1; /* the next line of a to copy */
	while (p && *p == '@') {
		char *end;
		long start = strtol(p + 4, &end, 10);
		long count = *end == ',' ? strtol(end + 1, NULL, 10) : 1;
		long copy_to =
		    count ? start : start + 1; /* first line not copied */
		for (; line < copy_to; line++) {
			const char *nl = strchr(src, '\n');
			kt_str_add(&out, src, (size_t)(nl - src + 1));
			src = nl + 1;
		}
		p = strchr(p, '\n') + 1;
		while (*p == ' ' || *p == '-' || *p == '+') {
			const char *nl = strchr(p, '\n');
			if (*p != '-')
				kt_str_add(&out, p + 1, (size_t)(nl - p));
			if (*p != '+') {
				src = strchr(src, '\n') + 1;
				line++;
			}
			p = nl + 1;
		}
	}
	kt_str_adds(&out, src);
	return kt_str_detach(&out);
}

static size_t lcs_len(const char *a, size_t na, const char *b, size_t nb)
{
	size_t *row = calloc((nb + 1) * (na + 1), sizeof(size_t));
	for (size_t i = 1; i <= na; i++)
		for (size_t j = 1; j <= nb; j++) {
			size_t *r = &row[i * (nb + 1) + j];
			if (a[i - 1] == b[j - 1])
				*r = row[(i - 1) * (nb + 1) + j - 1] + 1;
			else {
				size_t u = row[(i - 1) * (nb + 1) + j];
				size_t l = row[i * (nb + 1) + j - 1];
				*r = u > l ? u : l;
			}
		}
	size_t n = row[na * (nb + 1) + nb];
	free(row);
	return n;
}

/* Random texts over a 3-line alphabet: the diff applies and is minimal. */
static void diff_is_minimal_and_applies(void)
{
	kt_rng rng;
	kt_rng_seed(&rng, 7);
	for (int t = 0; t < 400; t++) {
		char la[64], lb[64], a[128], b[128];
		size_t na = kt_rng_below(&rng, 30), nb = kt_rng_below(&rng, 30);
		for (size_t i = 0; i < na; i++)
			la[i] = (char)('a' + kt_rng_below(&rng, 3));
		for (size_t i = 0; i < nb; i++)
			lb[i] = (char)('a' + kt_rng_below(&rng, 3));
		for (size_t i = 0; i < na; i++)
			a[2 * i] = la[i], a[2 * i + 1] = '\n';
		for (size_t i = 0; i < nb; i++)
			b[2 * i] = lb[i], b[2 * i + 1] = '\n';
		a[2 * na] = b[2 * nb] = '\0';
		kt_str out = KT_STR_INIT;
		CHECK_EQ_INT(kt_diff_unified(&out, a, 2 * na, b, 2 * nb, "a",
		                             "b", (int)(t % 4)),
		             0);
		size_t changed = 0;
		for (const char *p = out.ptr; *p; p = strchr(p, '\n') + 1)
			changed += (*p == '+' || *p == '-') && p[1] != p[0];
		CHECK_EQ_INT(changed, na + nb - 2 * lcs_len(la, na, lb, nb));
		char *got = apply_diff(a, out.ptr);
		CHECK_EQ_STR(got, b);
		kt_free(got);
		kt_str_release(&out);
	}
}

int main(void)
{
	RUN(edit_replaces_and_inserts);
	RUN(edit_keeps_order_of_insertions_at_one_offset);
	RUN(edit_orders_insertions_by_rank);
	RUN(edit_detects_overlap);
	RUN(edit_rejects_insertion_inside_a_replacement);
	RUN(edit_allows_touching_ranges);
	RUN(edit_rejects_range_past_the_end);
	RUN(text_offsets_round_trip);
	RUN(diff_of_equal_texts_is_empty);
	RUN(diff_matches_gnu_diff);
	RUN(diff_joins_changes_closer_than_twice_the_context);
	RUN(diff_marks_a_missing_final_newline);
	RUN(diff_of_empty_and_text);
	RUN(diff_is_minimal_and_applies);
	return check_summary();
}
