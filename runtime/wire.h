/*
 * runtime/wire.h - the framing every worker and its parent speak over a
 * socket pair (the CUDA backend's runtime/cuda/proto.h, the OpenCL
 * backend's runtime/opencl/ocl.h): a u32 type and a u32 payload length,
 * then the payload. Both ends are the same binary, so the header is in the
 * host's byte order. The payload's fields (numbers, strings, results) are
 * written and read with the functions below, by the backends' workers and
 * by MPI's ranks alike; which messages there are stays each one's.
 *
 * A socket rather than a pipe, so that send() can say MSG_NOSIGNAL:
 * writing to a worker that just died is an error code, not a SIGPIPE that
 * kills the tuner.
 */
#ifndef KTC_RUNTIME_WIRE_H
#define KTC_RUNTIME_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktc/eval.h"
#include "util/str.h"

/* kt_wire_recv's answers besides 0 and negative errors. */
enum { KT_WIRE_TIMEOUT = 1, KT_WIRE_EOF = 2 };

/* Sends one message of len bytes (at most max); never raises SIGPIPE.
 * peer names the other end in messages ("the CUDA worker"). */
int kt_wire_send(int fd, uint32_t type, const void *data, size_t len,
                 size_t max, const char *peer);
/*
 * Receives one message into payload (cleared first; NUL-terminated).
 * timeout_s bounds the wait until its header is in (<= 0: for ever); the
 * rest follows at once. Returns 0, KT_WIRE_TIMEOUT, KT_WIRE_EOF when the
 * peer closed (before or inside a message: half a message is never
 * delivered), or KT_EIO for a length over max or a broken connection.
 */
int kt_wire_recv(int fd, uint32_t *type, kt_str *payload, size_t max,
                 double timeout_s, const char *peer);

/* Payload fields, in the host's byte order. */
int kt_wire_put(kt_str *s, const void *p, size_t n);
int kt_wire_put_u32(kt_str *s, uint32_t v);
int kt_wire_put_str(kt_str *s, const char *v); /* NULL travels as "" */
/* A result's numbers, runtimes, measures and message. */
int kt_wire_put_result(kt_str *s, const kt_result *r);

/* Reads fields from a received payload; a short one sets bad, and every
 * read after that gives zeros. */
typedef struct kt_wire_reader {
	const char *p;
	size_t left;
	bool bad;
} kt_wire_reader;

void kt_wire_reader_init(kt_wire_reader *r, const kt_str *payload);
void kt_wire_get(kt_wire_reader *r, void *dst, size_t n);
uint32_t kt_wire_get_u32(kt_wire_reader *r);
/* A string as kt_wire_put_str wrote it, inside the payload; "" when bad. */
const char *kt_wire_get_str(kt_wire_reader *r);
/* The same as a kt_malloc'd copy; NULL when empty or bad. */
char *kt_wire_get_strdup(kt_wire_reader *r);
/* Fills r (kt_result_init'd by the caller); KT_EIO when malformed. */
int kt_wire_get_result(kt_wire_reader *rd, kt_result *r);

#endif
