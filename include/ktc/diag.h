/*
 * ktc/diag.h - diagnostics about the user's input (pragmas, sources, plans),
 * collected and printed the way a compiler prints them:
 *
 *   kernel.kt.cu:12:27: error: unknown parameter 'BLOK'
 *      12 | #pragma kt constraint BLOK % 32 == 0
 *         |                       ^~~~
 *
 * A diagnostic keeps a copy of its source line, so the list outlives the
 * buffer it was made from.
 */
#ifndef KTC_DIAG_H
#define KTC_DIAG_H

#include <stdio.h>

#include "ktc/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum kt_severity {
	KT_DIAG_NOTE,
	KT_DIAG_WARNING,
	KT_DIAG_ERROR,
} kt_severity;

typedef struct kt_diag {
	kt_severity severity;
	char *file;    /* may be NULL for diagnostics without a place */
	int line, col; /* 1-based; 0 when unknown */
	int len;       /* columns to underline (>= 1 when col > 0) */
	char *message;
	char *source; /* the whole source line, without newline; may be NULL */
} kt_diag;

typedef struct kt_diags {
	kt_diag *items;
	size_t len, cap;
	int errors, warnings;
} kt_diags;

KT_API void kt_diags_init(kt_diags *d);
KT_API void kt_diags_release(kt_diags *d);
/*
 * Adds a diagnostic. text is the whole file the position refers to (or
 * NULL); its line `line` is copied for the caret display.
 */
KT_API int kt_diags_add(kt_diags *d, kt_severity sev, const char *file,
                        const char *text, int line, int col, int len,
                        const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));
/* Prints every diagnostic; color when use_color is non-zero. */
KT_API void kt_diags_print(const kt_diags *d, FILE *out, int use_color);

#ifdef __cplusplus
}
#endif
#endif
