/* vec.c - growth for the macro arrays of vec.h. */
#include "util/vec.h"

#include "ktc/common.h"

int kt_vec_grow_(void **items, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap : 8;
	while (n < need)
		n *= 2;
	if (n > SIZE_MAX / elem)
		return kt_error(KT_ENOMEM, "array too large");
	void *p = kt_realloc(*items, n * elem);
	if (!p)
		return kt_error(KT_ENOMEM, "out of memory");
	*items = p;
	*cap = n;
	return 0;
}
