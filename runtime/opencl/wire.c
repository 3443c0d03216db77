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
