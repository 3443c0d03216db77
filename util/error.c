/*
 * error.c - the per-thread error message and the replaceable allocator.
 *
 * The allocator keeps no size header: osize is passed as 0 because C's free
 * does not need it; a test allocator that must track sizes can add its own.
 */
#include "ktc/common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local char last_error[1024];

const char *kt_error_last(void)
{
	return last_error;
}

void kt_error_clear(void)
{
	last_error[0] = '\0';
}

/*
 * Formats into a copy first: a message often quotes the previous one
 * (kt_error_last() as an argument), and vsnprintf must not read the buffer
 * it writes.
 */
int kt_error_v(int code, const char *fmt, va_list ap)
{
	char msg[sizeof(last_error)];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	memcpy(last_error, msg, sizeof(msg));
	return code;
}

int kt_error(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kt_error_v(code, fmt, ap);
	va_end(ap);
	return code;
}

static void *default_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	(void)ud;
	(void)osize;
	if (nsize == 0) {
		free(ptr);
		return NULL;
	}
	return realloc(ptr, nsize);
}

static kt_alloc_fn alloc_fn = default_alloc;
static void *alloc_ud;

void kt_set_allocator(kt_alloc_fn fn, void *ud)
{
	alloc_fn = fn ? fn : default_alloc;
	alloc_ud = fn ? ud : NULL;
}

void *kt_malloc(size_t n)
{
	return alloc_fn(alloc_ud, NULL, 0, n ? n : 1);
}

void *kt_realloc(void *ptr, size_t n)
{
	return alloc_fn(alloc_ud, ptr, 0, n ? n : 1);
}

void kt_free(void *ptr)
{
	if (ptr)
		alloc_fn(alloc_ud, ptr, 0, 0);
}

void *kt_calloc(size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		return NULL;
	void *p = kt_malloc(count * size);
	if (p)
		memset(p, 0, count * size);
	return p;
}

char *kt_strndup(const char *s, size_t n)
{
	char *p = kt_malloc(n + 1);
	if (!p)
		return NULL;
	if (n) /* s may be NULL when n is 0 */
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *kt_strdup(const char *s)
{
	return kt_strndup(s, strlen(s));
}
