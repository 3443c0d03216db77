/*
 * table.h - an open-addressing map from a 64-bit hash to an index into the
 * caller's own array. The table stores no keys: a lookup yields candidates
 * whose hash matches, and the caller compares its real keys. That keeps one
 * small table for every kind of key (strings, configurations, indices).
 */
#ifndef KTC_UTIL_TABLE_H
#define KTC_UTIL_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ktc/common.h"

typedef struct kt_table {
	uint64_t *hashes;
	size_t *vals; /* index + 1; 0 marks an empty slot */
	size_t cap, len;
} kt_table;

static inline void kt_table_release(kt_table *t)
{
	kt_free(t->hashes);
	kt_free(t->vals);
	memset(t, 0, sizeof(*t));
}

static inline int kt_table_grow_(kt_table *t)
{
	size_t cap = t->cap ? t->cap * 2 : 64;
	kt_table n = {kt_calloc(cap, sizeof(uint64_t)),
	              kt_calloc(cap, sizeof(size_t)), cap, t->len};
	if (!n.hashes || !n.vals) {
		kt_table_release(&n);
		return kt_error(KT_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->vals[i])
			continue;
		size_t j = t->hashes[i] & (cap - 1);
		while (n.vals[j])
			j = (j + 1) & (cap - 1);
		n.hashes[j] = t->hashes[i];
		n.vals[j] = t->vals[i];
	}
	kt_table_release(t);
	*t = n;
	return 0;
}

/* Adds (hash, index); duplicates are kept, lookups see them all. */
static inline int kt_table_put(kt_table *t, uint64_t hash, size_t index)
{
	if ((t->len + 1) * 2 > t->cap && kt_table_grow_(t))
		return KT_ENOMEM;
	size_t j = hash & (t->cap - 1);
	while (t->vals[j])
		j = (j + 1) & (t->cap - 1);
	t->hashes[j] = hash;
	t->vals[j] = index + 1;
	t->len++;
	return 0;
}

/*
 * Iterates the indices stored under hash: start with *pos = 0; returns
 * SIZE_MAX when there are no more.
 */
static inline size_t kt_table_next(const kt_table *t, uint64_t hash,
                                   size_t *pos)
{
	if (!t->cap)
		return SIZE_MAX;
	for (;;) {
		size_t j = (hash + *pos) & (t->cap - 1);
		if (!t->vals[j] || *pos >= t->cap)
			return SIZE_MAX;
		(*pos)++;
		if (t->hashes[j] == hash)
			return t->vals[j] - 1;
	}
}

#endif
