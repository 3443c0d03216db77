/*
 * runtime/cuda/proto.c - field encoding of the parent-worker messages; the
 * framing (type, length, payload) is the runtime's (runtime/wire.h).
 */
#include "runtime/cuda/proto.h"

#include <cuda.h>
#include <string.h>

#include "ktc/common.h"
#include "runtime/wire.h"

enum { MSG_MAX = 1u << 30 };
#define PEER "the CUDA worker"

int kt_cu_put_u32(kt_str *s, uint32_t v)
{
	return kt_str_add(s, &v, 4);
}
int kt_cu_put_u64(kt_str *s, uint64_t v)
{
	return kt_str_add(s, &v, 8);
}
int kt_cu_put_f64(kt_str *s, double v)
{
	return kt_str_add(s, &v, 8);
}

int kt_cu_put_bytes(kt_str *s, const void *data, size_t n)
{
	int rc = kt_cu_put_u64(s, n);
	return rc ? rc : kt_str_add(s, data, n);
}

int kt_cu_put_str(kt_str *s, const char *v)
{
	v = v ? v : "";
	return kt_cu_put_bytes(s, v, strlen(v) + 1);
}

static const void *take(kt_cu_reader *r, size_t n)
{
	if (r->bad || r->len - r->pos < n) {
		r->bad = true;
		return NULL;
	}
	const void *p = r->p + r->pos;
	r->pos += n;
	return p;
}

#define GET(T)                                                                 \
	T v = 0;                                                               \
	const void *p = take(r, sizeof(T));                                    \
	if (p)                                                                 \
		memcpy(&v, p, sizeof(T));                                      \
	return v

uint32_t kt_cu_get_u32(kt_cu_reader *r)
{
	GET(uint32_t);
}
uint64_t kt_cu_get_u64(kt_cu_reader *r)
{
	GET(uint64_t);
}
double kt_cu_get_f64(kt_cu_reader *r)
{
	GET(double);
}

#undef GET

const void *kt_cu_get_bytes(kt_cu_reader *r, size_t *n)
{
	uint64_t len = kt_cu_get_u64(r);
	const void *p = take(r, (size_t)len);
	*n = p ? (size_t)len : 0;
	return p;
}

const char *kt_cu_get_str(kt_cu_reader *r)
{
	size_t n = 0;
	const char *p = kt_cu_get_bytes(r, &n);
	if (!p || n == 0 || p[n - 1] != '\0') {
		r->bad = true;
		return "";
	}
	return p;
}

int kt_cu_put_launch(kt_str *s, const kt_cu_launch *l, size_t nargs)
{
	int rc = 0;
	for (int d = 0; d < 3; d++) {
		rc |= kt_cu_put_u32(s, l->grid[d]);
		rc |= kt_cu_put_u32(s, l->block[d]);
	}
	rc |= kt_cu_put_u32(s, l->smem);
	rc |= kt_cu_put_u32(s, l->pdl);
	rc |= kt_cu_put_str(s, l->lowered);
	rc |= kt_cu_put_bytes(s, l->image, l->size);
	for (size_t i = 0; i < nargs; i++)
		rc |= kt_cu_put_u64(s, l->scalars[i]);
	return rc ? kt_error(KT_ENOMEM, "out of memory") : 0;
}

void kt_cu_get_launch(kt_cu_reader *r, kt_cu_launch *l, size_t nargs)
{
	for (int d = 0; d < 3; d++) {
		l->grid[d] = kt_cu_get_u32(r);
		l->block[d] = kt_cu_get_u32(r);
	}
	l->smem = kt_cu_get_u32(r);
	l->pdl = kt_cu_get_u32(r);
	l->lowered = kt_cu_get_str(r);
	l->image = kt_cu_get_bytes(r, &l->size);
	for (size_t i = 0; i < nargs; i++)
		l->scalars[i] = kt_cu_get_u64(r);
}

int kt_cu_send(int fd, uint32_t type, const kt_str *payload)
{
	return kt_wire_send(fd, type, payload ? payload->ptr : NULL,
	                    payload ? payload->len : 0, MSG_MAX, PEER);
}

int kt_cu_recv(int fd, uint32_t *type, char **payload, size_t *len,
               double timeout_s)
{
	kt_str s = KT_STR_INIT;
	*payload = NULL;
	*len = 0;
	int rc = kt_wire_recv(fd, type, &s, MSG_MAX, timeout_s, PEER);
	if (rc) {
		kt_str_release(&s);
		return rc;
	}
	*len = s.len;
	if (!(*payload = kt_str_detach(&s)))
		return kt_error(KT_ENOMEM, "out of memory");
	return 0;
}
