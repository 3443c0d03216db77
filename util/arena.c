/* arena.c - the bump allocator of arena.h: a list of blocks, newest first. */
#include "util/arena.h"

#include "ktc/common.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct kt_arena_block {
	kt_arena_block *next;
	size_t used, size;
	_Alignas(16) unsigned char data[];
};

enum { BLOCK_SIZE = 64 * 1024 };

void kt_arena_init(kt_arena *a)
{
	a->head = NULL;
}

void kt_arena_release(kt_arena *a)
{
	kt_arena_block *b = a->head;
	while (b) {
		kt_arena_block *next = b->next;
		kt_free(b);
		b = next;
	}
	a->head = NULL;
}

void *kt_arena_alloc(kt_arena *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	kt_arena_block *b = a->head;
	if (!b || b->size - b->used < n) {
		size_t size = n > BLOCK_SIZE ? n : BLOCK_SIZE;
		b = kt_malloc(sizeof(*b) + size);
		if (!b) {
			kt_error(KT_ENOMEM, "out of memory");
			return NULL;
		}
		b->used = 0;
		b->size = size;
		b->next = a->head;
		a->head = b;
	}
	void *p = b->data + b->used;
	b->used += n;
	memset(p, 0, n);
	return p;
}

char *kt_arena_strndup(kt_arena *a, const char *s, size_t n)
{
	char *p = kt_arena_alloc(a, n + 1);
	if (p)
		memcpy(p, s, n);
	return p;
}

char *kt_arena_strdup(kt_arena *a, const char *s)
{
	return kt_arena_strndup(a, s, strlen(s));
}

char *kt_arena_printf(kt_arena *a, const char *fmt, ...)
{
	va_list ap, cp;
	va_start(ap, fmt);
	va_copy(cp, ap);
	int n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	char *p = n < 0 ? NULL : kt_arena_alloc(a, (size_t)n + 1);
	if (p)
		vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}
