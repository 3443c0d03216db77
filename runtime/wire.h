/*
 * runtime/wire.h - the framing every worker and its parent speak over a
 * socket pair (the CUDA backend's runtime/cuda/proto.h, the OpenCL
 * backend's runtime/opencl/ocl.h): a u32 type and a u32 payload length,
 * then the payload. Both ends are the same binary, so the header is in the
 * host's byte order. What a payload holds, and which types there are,
 * stays each backend's.
 *
 * A socket rather than a pipe, so that send() can say MSG_NOSIGNAL:
 * writing to a worker that just died is an error code, not a SIGPIPE that
 * kills the tuner.
 */
#ifndef KTC_RUNTIME_WIRE_H
#define KTC_RUNTIME_WIRE_H

#include <stddef.h>
#include <stdint.h>

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

#endif
