/*
 * runtime/cuda/proto.c - framing and field encoding of the parent-worker
 * messages. The socket is a SOCK_STREAM pair, so send() with MSG_NOSIGNAL
 * turns a dead peer into EPIPE instead of a signal.
 */
#include "runtime/cuda/proto.h"

#include <cuda.h>
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "ktc/common.h"

enum { MSG_MAX = 1u << 30 };

const int kt_cu_attrs[KT_CU_NATTRS] = {
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z,
    CU_DEVICE_ATTRIBUTE_WARP_SIZE,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
    CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK,
    CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR,
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR,
    CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
    CU_DEVICE_ATTRIBUTE_CLOCK_RATE,
    CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE,
    CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH,
    CU_DEVICE_ATTRIBUTE_ECC_ENABLED,
    CU_DEVICE_ATTRIBUTE_PCI_BUS_ID,
};

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
	l->lowered = kt_cu_get_str(r);
	l->image = kt_cu_get_bytes(r, &l->size);
	for (size_t i = 0; i < nargs; i++)
		l->scalars[i] = kt_cu_get_u64(r);
}

static int write_all(int fd, const void *data, size_t n)
{
	const char *p = data;
	while (n > 0) {
		ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return kt_error(KT_EIO,
			                "cannot talk to the CUDA worker: %s",
			                strerror(errno));
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

int kt_cu_send(int fd, uint32_t type, const kt_str *payload)
{
	uint32_t head[2] = {type, payload ? (uint32_t)payload->len : 0};
	int rc = write_all(fd, head, sizeof(head));
	if (!rc && payload && payload->len)
		rc = write_all(fd, payload->ptr, payload->len);
	return rc;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Reads n bytes before the deadline (<= 0: none); 0, TIMEOUT, EOF, error. */
static int read_all(int fd, void *data, size_t n, double deadline)
{
	char *p = data;
	while (n > 0) {
		if (deadline > 0) {
			double left = deadline - now_s();
			if (left <= 0)
				return KT_CU_TIMEOUT;
			struct pollfd pfd = {fd, POLLIN, 0};
			int k = poll(&pfd, 1, (int)(left * 1000) + 1);
			if (k < 0 && errno == EINTR)
				continue;
			if (k == 0)
				return KT_CU_TIMEOUT;
		}
		ssize_t k = read(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k == 0)
			return KT_CU_EOF;
		if (k < 0)
			return kt_error(KT_EIO,
			                "cannot hear the CUDA worker: %s",
			                strerror(errno));
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

int kt_cu_recv(int fd, uint32_t *type, char **payload, size_t *len,
               double timeout_s)
{
	double deadline = timeout_s > 0 ? now_s() + timeout_s : 0;
	uint32_t head[2];
	*payload = NULL;
	*len = 0;
	int rc = read_all(fd, head, sizeof(head), deadline);
	if (rc)
		return rc;
	if (head[1] > MSG_MAX)
		return kt_error(
		    KT_EIO, "the CUDA worker sent a %u-byte message", head[1]);
	char *buf = kt_malloc(head[1] + 1);
	if (!buf)
		return kt_error(KT_ENOMEM, "out of memory");
	/* once a header is in, the rest follows at once: no deadline */
	rc = read_all(fd, buf, head[1], 0);
	if (rc) {
		kt_free(buf);
		return rc == KT_CU_EOF ? KT_CU_EOF : rc;
	}
	*type = head[0];
	*payload = buf;
	*len = head[1];
	return 0;
}
