/*
 * edit.c - applies a set of edits (byte range of the original -> new text)
 * to a buffer in one pass.
 *
 * Design choice: every edit refers to offsets of the ORIGINAL text, never to
 * the text after earlier edits, so edits can be made in any order by any
 * part of the rewriter and checked for overlap before anything is written.
 * Two edits overlap when their ranges share a byte, or when an insertion
 * falls strictly inside a replaced range; several insertions at one offset
 * are ordered by rank (a `#endif` that closes something before a `#ifndef`
 * that opens something after), then kept in the order they were given.
 */
#include "rewriter/rewriter.h"

#include "ktc/common.h"

#include <stdlib.h>
#include <string.h>

typedef struct slot {
	const kt_edit *e;
	size_t order;
} slot;

static int cmp_slot(const void *pa, const void *pb)
{
	const slot *a = pa, *b = pb;
	if (a->e->begin != b->e->begin)
		return a->e->begin < b->e->begin ? -1 : 1;
	int ia = a->e->end == a->e->begin, ib = b->e->end == b->e->begin;
	if (ia != ib)
		return ia ? -1 : 1; /* insertions before a replacement */
	if (a->e->rank != b->e->rank)
		return a->e->rank < b->e->rank ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

static int overlap(const kt_edit *prev, const kt_edit *e)
{
	/* sorted by begin: only the furthest previous end matters */
	return e->begin < prev->end;
}

/* Sorts the edits into s; fails on a range outside the text or overlap. */
static int order(slot *s, const kt_edit *edits, size_t n, size_t len,
                 int conflict[2])
{
	for (size_t i = 0; i < n; i++) {
		if (edits[i].begin > edits[i].end || edits[i].end > len)
			return kt_error(KT_EINVALID,
			                "edit range %zu..%zu is outside the "
			                "text (%zu bytes)",
			                edits[i].begin, edits[i].end, len);
		s[i].e = &edits[i];
		s[i].order = i;
	}
	qsort(s, n, sizeof(slot), cmp_slot);
	const kt_edit *far = NULL; /* the edit reaching furthest so far */
	for (size_t i = 0; i < n; i++) {
		if (far && overlap(far, s[i].e)) {
			if (conflict)
				conflict[0] = far->tag,
				conflict[1] = s[i].e->tag;
			return kt_error(KT_EINVALID,
			                "edits overlap at bytes %zu..%zu and "
			                "%zu..%zu",
			                far->begin, far->end, s[i].e->begin,
			                s[i].e->end);
		}
		if (!far || s[i].e->end > far->end)
			far = s[i].e;
	}
	return 0;
}

int kt_edit_apply(kt_str *out, const char *src, size_t len,
                  const kt_edit *edits, size_t n, int conflict[2])
{
	slot *s = kt_calloc(n ? n : 1, sizeof(slot));
	if (!s)
		return kt_error(KT_ENOMEM, "out of memory");
	int rc = order(s, edits, n, len, conflict);
	size_t at = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		const kt_edit *e = s[i].e;
		rc = kt_str_add(out, src + at, e->begin - at);
		if (!rc && e->text)
			rc = kt_str_adds(out, e->text);
		at = e->end;
	}
	if (!rc)
		rc = kt_str_add(out, src + at, len - at);
	kt_free(s);
	return rc;
}

size_t kt_text_offset(const char *text, size_t len, int line, int col)
{
	size_t at = 0;
	for (int l = 1; l < line && at < len; at++)
		if (text[at] == '\n')
			l++;
	at += col > 0 ? (size_t)(col - 1) : 0;
	return at < len ? at : len;
}

void kt_text_linecol(const char *text, size_t offset, int *line, int *col)
{
	int l = 1;
	size_t start = 0;
	for (size_t i = 0; i < offset && text[i]; i++)
		if (text[i] == '\n')
			l++, start = i + 1;
	*line = l;
	*col = (int)(offset - start) + 1;
}
