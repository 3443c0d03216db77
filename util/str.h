/*
 * str.h - a growable string buffer whose pointer is never NULL (git's
 * strbuf). A buffer may carry a maximum size (curl's habit): appending past
 * it fails with KT_EINVALID instead of growing without bound, which is what
 * compiler logs and LLM responses need.
 */
#ifndef KTC_UTIL_STR_H
#define KTC_UTIL_STR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct kt_str {
	char *ptr; /* always NUL-terminated; points at a static "" when empty */
	size_t len;
	size_t cap; /* 0 while ptr is the static empty string */
	size_t max; /* 0 for no limit */
} kt_str;

#define KT_STR_INIT                                                            \
	{                                                                      \
		kt_str_empty, 0, 0, 0                                          \
	}
extern char kt_str_empty[];

void kt_str_init(kt_str *s, size_t max);
void kt_str_release(kt_str *s); /* free memory, back to empty */
void kt_str_clear(kt_str *s);   /* length 0, memory kept */
char *kt_str_detach(kt_str *s); /* caller owns the result (kt_free) */
int kt_str_grow(kt_str *s, size_t extra);
int kt_str_add(kt_str *s, const void *data, size_t len);
int kt_str_adds(kt_str *s, const char *cstr);
int kt_str_addc(kt_str *s, char c);
int kt_str_addf(kt_str *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int kt_str_vaddf(kt_str *s, const char *fmt, va_list ap);

/* Whether s is a C identifier (a letter or '_', then letters, digits and
 * '_'); false for NULL. */
bool kt_is_ident(const char *s);
void kt_str_truncate(kt_str *s, size_t len);

/* The next word (identifier, keyword or number) of C text t from *at:
 * [*b, *e), false at the end; comments, string and character literals,
 * preprocessor lines and punctuation skipped. */
bool kt_c_word_next(const char *t, size_t len, size_t *at, size_t *b,
                    size_t *e);

#endif
