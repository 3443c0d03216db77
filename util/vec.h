/*
 * vec.h - a typed growable array by macro: KT_VEC(int) v = {0};
 * kt_vec_push(&v, 3) returns 0 or KT_ENOMEM. Memory comes from kt_realloc.
 */
#ifndef KTC_UTIL_VEC_H
#define KTC_UTIL_VEC_H

#include <stddef.h>

#define KT_VEC(T)                                                              \
	struct {                                                               \
		T *items;                                                      \
		size_t len, cap;                                               \
	}

int kt_vec_grow_(void **items, size_t *cap, size_t need, size_t elem);

#define kt_vec_reserve(v, n)                                                   \
	kt_vec_grow_((void **)&(v)->items, &(v)->cap, (n), sizeof(*(v)->items))
#define kt_vec_push(v, x)                                                      \
	(kt_vec_reserve((v), (v)->len + 1)                                     \
	     ? -2                                                              \
	     : ((v)->items[(v)->len++] = (x), 0))
#define kt_vec_release(v)                                                      \
	(kt_free((v)->items), (v)->items = NULL, (v)->len = (v)->cap = 0)

#endif
