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
