/*
 * runtime/cuda/proto.h - what the parent and the CUDA worker process say to
 * each other over a socket pair.
 *
 * A message is a type and a length (two u32, runtime/wire.h) followed by a
 * payload built field by field (u32, u64, f64, strings, byte blocks). Both ends
 * are the same binary, so the encoding is the host's byte order with no
 * versioning. The worker evaluates only concrete numbers: every expression of
 * the model is evaluated by the parent, so the worker needs no template and no
 * model.
 *
 *   parent                          worker
 *   OPEN (device, profile) -------> INFO (device, attributes, copy GB/s)
 *   PROBLEM (args, sizes, ref) ---> READY | FAIL
 *   EVAL (launches) --------------> PROGRESS... RESULT
 *   QUIT
 *
 * and to a compiler process (runtime/cuda/compiler.c):
 *   COMPILE (source, options) ----> BINARY (cubin or log)
 *
 * PROGRESS messages keep the parent's watchdog from firing while a long
 * evaluation goes on; the watchdog limit applies to the gap between two
 * messages, so it bounds one kernel run, not a whole evaluation.
 */
#ifndef KTC_RUNTIME_CUDA_PROTO_H
#define KTC_RUNTIME_CUDA_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda.h> /* CUdevice_attribute values; no driver call */

#include "runtime/wire.h"
#include "util/str.h"

enum kt_cu_msg {
	KT_CU_OPEN = 1,
	KT_CU_INFO,
	KT_CU_PROBLEM,
	KT_CU_READY,
	KT_CU_FAIL,
	KT_CU_EVAL,
	KT_CU_PROGRESS,
	KT_CU_RESULT,
	KT_CU_QUIT,
	KT_CU_COMPILE, /* to a compiler process: source, options */
	KT_CU_BINARY,  /* its answer: the cubin or the log */
};

/* kt_cu_recv's answers besides 0 and negative errors. */
enum { KT_CU_TIMEOUT = KT_WIRE_TIMEOUT, KT_CU_EOF = KT_WIRE_EOF };

/* Writing a payload: each put appends to s; errors stick in s (max). */
int kt_cu_put_u32(kt_str *s, uint32_t v);
int kt_cu_put_u64(kt_str *s, uint64_t v);
int kt_cu_put_f64(kt_str *s, double v);
int kt_cu_put_str(kt_str *s, const char *v); /* NULL is sent as "" */
int kt_cu_put_bytes(kt_str *s, const void *data, size_t n);

/* Reading one: a short payload sets bad and yields zeros / "". */
typedef struct kt_cu_reader {
	const char *p;
	size_t len, pos;
	bool bad;
} kt_cu_reader;

uint32_t kt_cu_get_u32(kt_cu_reader *r);
uint64_t kt_cu_get_u64(kt_cu_reader *r);
double kt_cu_get_f64(kt_cu_reader *r);
const char *kt_cu_get_str(kt_cu_reader *r);
const void *kt_cu_get_bytes(kt_cu_reader *r, size_t *n);

/* Sends one message; never raises SIGPIPE. */
int kt_cu_send(int fd, uint32_t type, const kt_str *payload);
/*
 * Receives one message into *payload (kt_free it). timeout_s <= 0 waits
 * for ever. Returns 0, KT_CU_TIMEOUT, KT_CU_EOF or a negative error.
 */
int kt_cu_recv(int fd, uint32_t *type, char **payload, size_t *len,
               double timeout_s);

/* Device attributes the worker reports, by CUdevice_attribute number. */
enum { KT_CU_NATTRS = 24 };
extern const int kt_cu_attrs[KT_CU_NATTRS];

/* One kernel argument as the worker sees it. */
typedef struct kt_cu_arg {
	char name[48];
	bool is_buffer;
	uint32_t type; /* kt_type */
	uint32_t dir;  /* kt_arg_dir */
	uint32_t init; /* kt_init_kind */
	double lo, hi, value;
	double rtol, atol, match; /* outputs: the tolerance */
} kt_cu_arg;

/* One launch of one compiled configuration at one problem size. */
typedef struct kt_cu_launch {
	uint32_t grid[3], block[3];
	uint32_t smem;       /* dynamic shared memory, bytes */
	uint32_t pdl;        /* 1: programmatic dependent launch */
	const char *lowered; /* the kernel in image */
	const void *image;   /* the cubin */
	size_t size;
	uint64_t *scalars; /* one per argument: encoded scalar bits */
} kt_cu_launch;

int kt_cu_put_launch(kt_str *s, const kt_cu_launch *l, size_t nargs);
/* Reads a launch; scalars is a caller's array of nargs. */
void kt_cu_get_launch(kt_cu_reader *r, kt_cu_launch *l, size_t nargs);

#endif
