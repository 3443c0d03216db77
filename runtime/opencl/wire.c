/*
 * wire.c - messages between the parent and the OpenCL worker: a 4-byte type
 * and a 4-byte length, then the payload, over an AF_UNIX stream socket.
 *
 * A socket rather than a pipe so that send() can say MSG_NOSIGNAL: writing
 * to a worker that just died must be an error code, not a SIGPIPE that
 * kills the tuner. Both ends are the same binary, so fields travel in host
 * byte order.
 */
#include "runtime/opencl/ocl.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum { MAX_PAYLOAD = 64 << 20 };

static int send_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return kt_error(KT_EIO,
			                "opencl: worker connection lost: %s",
			                strerror(errno));
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int ocl_send(int fd, uint32_t type, const void *data, size_t len)
{
	uint32_t head[2] = {type, (uint32_t)len};
	if (len > MAX_PAYLOAD)
		return kt_error(KT_EINVALID, "opencl: message of %zu bytes",
		                len);
	int rc = send_all(fd, head, sizeof(head));
	if (!rc && len)
		rc = send_all(fd, data, len);
	return rc;
}

/* Waits until fd is readable; 1 when timeout_ms passed first. */
static int wait_readable(int fd, int timeout_ms)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	for (;;) {
		int n = poll(&p, 1, timeout_ms);
		if (n > 0)
			return 0;
		if (n == 0)
			return 1;
		if (errno != EINTR)
			return kt_error(KT_EIO, "opencl: poll: %s",
			                strerror(errno));
	}
}

static int recv_all(int fd, void *data, size_t len)
{
	char *p = data;
	while (len) {
		ssize_t n = recv(fd, p, len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return kt_error(KT_EIO,
			                "opencl: worker connection lost");
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int ocl_recv(int fd, uint32_t *type, kt_str *payload, int timeout_ms)
{
	uint32_t head[2];
	kt_str_clear(payload);
	int rc = wait_readable(fd, timeout_ms);
	if (rc)
		return rc;
	/* once a message starts, the rest follows at once or never */
	rc = recv_all(fd, head, sizeof(head));
	if (rc)
		return rc;
	if (head[1] > MAX_PAYLOAD)
		return kt_error(KT_EIO, "opencl: corrupt message from worker");
	*type = head[0];
	if (head[1]) {
		if (kt_str_grow(payload, head[1]))
			return KT_ENOMEM;
		rc = recv_all(fd, payload->ptr, head[1]);
		if (rc)
			return rc;
		payload->len = head[1];
		payload->ptr[payload->len] = '\0';
	}
	return 0;
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
