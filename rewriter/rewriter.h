/*
 * rewriter.h - the rewriter's parts, internal to libktc: edits on byte
 * ranges, unified diffs, and the verification of an annotated file.
 *
 * Offsets are bytes of the ORIGINAL source; an edit never refers to text
 * produced by another edit.
 */
#ifndef KTC_REWRITER_H
#define KTC_REWRITER_H

#include <stddef.h>

#include "util/str.h"

/* ---- edit.c ---- */

typedef struct kt_edit {
	size_t begin,
	    end; /* [begin, end) of the original; begin == end inserts */
	const char *text; /* replacement, borrowed; NULL deletes */
	int tag;          /* the caller's id, reported on a conflict */
} kt_edit;

/*
 * Appends src with the edits applied to out. Edits may be given in any
 * order; insertions at one offset keep their given order and go before a
 * replacement that starts there. Overlapping edits fail with KT_EINVALID and
 * the tags of the two edits in conflict[] (when conflict is not NULL).
 */
int kt_edit_apply(kt_str *out, const char *src, size_t len,
                  const kt_edit *edits, size_t n, int conflict[2]);

/* Byte offset of 1-based (line, col), clamped to len. */
size_t kt_text_offset(const char *text, size_t len, int line, int col);
/* 1-based line and column of a byte offset. */
void kt_text_linecol(const char *text, size_t offset, int *line, int *col);

/* ---- diff.c ---- */

/*
 * Appends the unified diff from a to b to out: `--- name_a`, `+++ name_b`,
 * hunks with `context` lines around each change (3 is the usual). Appends
 * nothing when the texts are equal.
 */
int kt_diff_unified(kt_str *out, const char *a, size_t alen, const char *b,
                    size_t blen, const char *name_a, const char *name_b,
                    int context);

#endif
