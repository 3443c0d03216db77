/*
 * arena.h - bump allocation for data derived from one parse (pragma trees,
 * cursors, candidates, edits): everything is freed in one call.
 */
#ifndef KTC_UTIL_ARENA_H
#define KTC_UTIL_ARENA_H

#include <stddef.h>

typedef struct kt_arena_block kt_arena_block;
typedef struct kt_arena {
	kt_arena_block *head;
} kt_arena;

#define KT_ARENA_INIT                                                          \
	{                                                                      \
		0                                                              \
	}

void kt_arena_init(kt_arena *a);
void kt_arena_release(kt_arena *a); /* frees every allocation at once */
/* Zeroed, aligned for any type; NULL (with kt_error set) when out of memory. */
void *kt_arena_alloc(kt_arena *a, size_t n);
char *kt_arena_strndup(kt_arena *a, const char *s, size_t n);
char *kt_arena_strdup(kt_arena *a, const char *s);
char *kt_arena_printf(kt_arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
