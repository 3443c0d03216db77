/*
 * wire.c - the fields of messages between the parent and the OpenCL
 * worker. The framing (a 4-byte type and a 4-byte length, then the
 * payload, over an AF_UNIX stream socket) is the runtime's, shared with
 * the CUDA worker (runtime/wire.h); this file keeps the OpenCL limit and
 * its answers (1 for a timeout, KT_EIO for a lost worker). Both ends are
 * the same binary, so fields travel in host byte order.
 */
#include "runtime/opencl/ocl.h"

#include "runtime/wire.h"

#include <string.h>

enum { MAX_PAYLOAD = 64 << 20 };
#define PEER "the OpenCL worker"

int ocl_send(int fd, uint32_t type, const void *data, size_t len)
{
	return kt_wire_send(fd, type, data, len, MAX_PAYLOAD, PEER);
}

int ocl_recv(int fd, uint32_t *type, kt_str *payload, int timeout_ms)
{
	/* 0 ms would mean no wait to the framing: wait the least instead */
	double timeout_s = timeout_ms < 0    ? 0
	                   : timeout_ms == 0 ? 0.001
	                                     : timeout_ms / 1000.0;
	int rc = kt_wire_recv(fd, type, payload, MAX_PAYLOAD, timeout_s, PEER);
	if (rc == KT_WIRE_TIMEOUT)
		return 1;
	if (rc == KT_WIRE_EOF)
		return kt_error(KT_EIO, "opencl: worker connection lost");
	return rc;
}

void ocl_reader_init(ocl_reader *r, const kt_str *payload)
{
	r->p = payload->ptr;
	r->left = payload->len;
	r->bad = false;
}

void ocl_get(ocl_reader *r, void *dst, size_t n)
{
	if (r->bad || n > r->left) {
		r->bad = true;
		memset(dst, 0, n);
		return;
	}
	memcpy(dst, r->p, n);
	r->p += n;
	r->left -= n;
}

uint32_t ocl_get_u32(ocl_reader *r)
{
	uint32_t v;
	ocl_get(r, &v, sizeof(v));
	return v;
}

char *ocl_get_str(ocl_reader *r)
{
	uint32_t n = ocl_get_u32(r);
	if (r->bad || n == 0)
		return NULL;
	if (n > r->left) {
		r->bad = true;
		return NULL;
	}
	char *s = kt_strndup(r->p, n);
	r->p += n;
	r->left -= n;
	return s;
}

int ocl_put_u32(kt_str *s, uint32_t v)
{
	return kt_str_add(s, &v, sizeof(v));
}

int ocl_put_str(kt_str *s, const char *str)
{
	size_t n = str ? strlen(str) : 0;
	int rc = ocl_put_u32(s, (uint32_t)n);
	return rc ? rc : kt_str_add(s, str ? str : "", n);
}

/* The scalar fields of a kt_result, as they travel. */
typedef struct packed_result {
	int32_t status;
	uint32_t nruntimes, nmeasures;
	double time_ms, spread, compile_s, verify_s, benchmark_s, timestamp;
} packed_result;

int ocl_result_pack(kt_str *s, uint32_t id, const kt_result *r)
{
	packed_result p = {
	    .status = (int32_t)r->status,
	    .nruntimes = r->runtimes_ms ? (uint32_t)r->nruntimes : 0,
	    .nmeasures = (uint32_t)r->nmeasures,
	    .time_ms = r->time_ms,
	    .spread = r->spread,
	    .compile_s = r->compile_s,
	    .verify_s = r->verify_s,
	    .benchmark_s = r->benchmark_s,
	    .timestamp = r->timestamp,
	};
	int rc = ocl_put_u32(s, id);
	if (!rc)
		rc = kt_str_add(s, &p, sizeof(p));
	if (!rc && p.nruntimes)
		rc =
		    kt_str_add(s, r->runtimes_ms, p.nruntimes * sizeof(double));
	if (!rc && p.nmeasures)
		rc = kt_str_add(s, r->measures,
		                p.nmeasures * sizeof(kt_measure));
	if (!rc)
		rc = ocl_put_str(s, r->message);
	return rc;
}

int ocl_result_unpack(ocl_reader *rd, uint32_t *id, kt_result *r)
{
	packed_result p;
	*id = ocl_get_u32(rd);
	ocl_get(rd, &p, sizeof(p));
	if (rd->bad || p.nmeasures > KT_MAX_MEASURES ||
	    p.nruntimes > rd->left / sizeof(double))
		return kt_error(KT_EIO, "opencl: corrupt result from worker");
	r->status = (kt_status)p.status;
	r->time_ms = p.time_ms;
	r->spread = p.spread;
	r->compile_s = p.compile_s;
	r->verify_s = p.verify_s;
	r->benchmark_s = p.benchmark_s;
	r->timestamp = p.timestamp;
	if (p.nruntimes) {
		r->runtimes_ms = kt_malloc(p.nruntimes * sizeof(double));
		if (!r->runtimes_ms)
			return kt_error(KT_ENOMEM, "out of memory");
		ocl_get(rd, r->runtimes_ms, p.nruntimes * sizeof(double));
		r->nruntimes = p.nruntimes;
	}
	ocl_get(rd, r->measures, p.nmeasures * sizeof(kt_measure));
	r->nmeasures = p.nmeasures;
	r->message = ocl_get_str(rd);
	return rd->bad ? kt_error(KT_EIO, "opencl: corrupt result from worker")
	               : 0;
}
