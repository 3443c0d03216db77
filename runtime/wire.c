/*
 * runtime/wire.c - message framing between a worker and its parent
 * (wire.h). Reads loop over short reads and EINTR, so a message may arrive
 * in any number of pieces; the length is checked before anything is
 * allocated, so a corrupt or hostile header cannot make the reader
 * allocate without bound.
 */
#include "runtime/wire.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "ktc/common.h"

static int send_all(int fd, const void *data, size_t n, const char *peer)
{
	const char *p = data;
	while (n > 0) {
		ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return kt_error(KT_EIO, "cannot talk to %s: %s", peer,
			                strerror(errno));
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

int kt_wire_send(int fd, uint32_t type, const void *data, size_t len,
                 size_t max, const char *peer)
{
	if (len > max || len > UINT32_MAX)
		return kt_error(KT_EINVALID,
		                "a %zu-byte message to %s is over the limit of "
		                "%zu bytes",
		                len, peer, max);
	uint32_t head[2] = {type, (uint32_t)len};
	int rc = send_all(fd, head, sizeof(head), peer);
	if (!rc && len)
		rc = send_all(fd, data, len, peer);
	return rc;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Waits until fd is readable or the deadline (<= 0: none) passes. */
static int wait_readable(int fd, double deadline, const char *peer)
{
	while (deadline > 0) {
		double left = deadline - now_s();
		if (left <= 0)
			return KT_WIRE_TIMEOUT;
		struct pollfd pfd = {fd, POLLIN, 0};
		int k = poll(&pfd, 1, (int)(left * 1000) + 1);
		if (k > 0)
			return 0;
		if (k == 0)
			return KT_WIRE_TIMEOUT;
		if (errno != EINTR)
			return kt_error(KT_EIO, "cannot hear %s: %s", peer,
			                strerror(errno));
	}
	return 0;
}

/* Reads n bytes before the deadline; 0, TIMEOUT, EOF or an error. */
static int read_all(int fd, void *data, size_t n, double deadline,
                    const char *peer)
{
	char *p = data;
	while (n > 0) {
		int rc = wait_readable(fd, deadline, peer);
		if (rc)
			return rc;
		ssize_t k = read(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k == 0)
			return KT_WIRE_EOF;
		if (k < 0)
			return kt_error(KT_EIO, "cannot hear %s: %s", peer,
			                strerror(errno));
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

int kt_wire_recv(int fd, uint32_t *type, kt_str *payload, size_t max,
                 double timeout_s, const char *peer)
{
	double deadline = timeout_s > 0 ? now_s() + timeout_s : 0;
	uint32_t head[2];
	kt_str_clear(payload);
	int rc = read_all(fd, head, sizeof(head), deadline, peer);
	if (rc)
		return rc;
	if (head[1] > max)
		return kt_error(KT_EIO,
		                "%s sent a %u-byte message (the limit is %zu)",
		                peer, head[1], max);
	if ((rc = kt_str_grow(payload, head[1])))
		return rc;
	/* once a header is in, the rest follows at once: no deadline */
	rc = read_all(fd, payload->ptr, head[1], 0, peer);
	if (rc) {
		kt_str_clear(payload);
		return rc;
	}
	payload->len = head[1];
	payload->ptr[payload->len] = '\0';
	*type = head[0];
	return 0;
}

/* ---- payload fields ---- */

int kt_wire_put(kt_str *s, const void *p, size_t n)
{
	return kt_str_add(s, p, n);
}

int kt_wire_put_u32(kt_str *s, uint32_t v)
{
	return kt_str_add(s, &v, sizeof(v));
}

int kt_wire_put_str(kt_str *s, const char *v)
{
	v = v ? v : "";
	int rc = kt_wire_put_u32(s, (uint32_t)strlen(v));
	return rc ? rc : kt_str_add(s, v, strlen(v) + 1);
}

void kt_wire_reader_init(kt_wire_reader *r, const kt_str *payload)
{
	r->p = payload->ptr;
	r->left = payload->len;
	r->bad = false;
}

void kt_wire_get(kt_wire_reader *r, void *dst, size_t n)
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

uint32_t kt_wire_get_u32(kt_wire_reader *r)
{
	uint32_t v;
	kt_wire_get(r, &v, sizeof(v));
	return v;
}

const char *kt_wire_get_str(kt_wire_reader *r)
{
	uint32_t n = kt_wire_get_u32(r);
	if (r->bad || (size_t)n + 1 > r->left || r->p[n] != '\0') {
		r->bad = true;
		return "";
	}
	const char *s = r->p;
	r->p += n + 1;
	r->left -= n + 1;
	return s;
}

char *kt_wire_get_strdup(kt_wire_reader *r)
{
	const char *s = kt_wire_get_str(r);
	return *s ? kt_strdup(s) : NULL;
}

/* The numbers of a result, as one block. */
typedef struct packed_result {
	int32_t status;
	uint32_t nruntimes, nmeasures;
	double time_ms, spread, compile_s, verify_s, benchmark_s, framework_s,
	    strategy_s, timestamp;
} packed_result;

int kt_wire_put_result(kt_str *s, const kt_result *r)
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
	    .framework_s = r->framework_s,
	    .strategy_s = r->strategy_s,
	    .timestamp = r->timestamp,
	};
	int rc = kt_wire_put(s, &p, sizeof(p));
	if (!rc && p.nruntimes)
		rc = kt_wire_put(s, r->runtimes_ms,
		                 p.nruntimes * sizeof(double));
	if (!rc && p.nmeasures)
		rc = kt_wire_put(s, r->measures,
		                 p.nmeasures * sizeof(kt_measure));
	return rc ? rc : kt_wire_put_str(s, r->message);
}

int kt_wire_get_result(kt_wire_reader *rd, kt_result *r)
{
	packed_result p;
	kt_wire_get(rd, &p, sizeof(p));
	if (rd->bad || p.nmeasures > KT_MAX_MEASURES ||
	    p.nruntimes > rd->left / sizeof(double) || p.status < 0 ||
	    p.status > KT_STATUS_TIMEOUT)
		return kt_error(KT_EIO,
		                "a corrupt result in a worker's message");
	r->status = (kt_status)p.status;
	r->time_ms = p.time_ms;
	r->spread = p.spread;
	r->compile_s = p.compile_s;
	r->verify_s = p.verify_s;
	r->benchmark_s = p.benchmark_s;
	r->framework_s = p.framework_s;
	r->strategy_s = p.strategy_s;
	r->timestamp = p.timestamp;
	if (p.nruntimes) {
		r->runtimes_ms = kt_calloc(p.nruntimes, sizeof(double));
		if (!r->runtimes_ms)
			return kt_error(KT_ENOMEM, "out of memory");
		kt_wire_get(rd, r->runtimes_ms, p.nruntimes * sizeof(double));
		r->nruntimes = p.nruntimes;
	}
	kt_wire_get(rd, r->measures, p.nmeasures * sizeof(kt_measure));
	r->nmeasures = p.nmeasures;
	const char *msg = kt_wire_get_str(rd);
	if (rd->bad)
		return kt_error(KT_EIO,
		                "a corrupt result in a worker's message");
	if (*msg && !(r->message = kt_strdup(msg)))
		return kt_error(KT_ENOMEM, "out of memory");
	return 0;
}
