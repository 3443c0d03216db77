/*
 * runtime/mpi.h - the conversation between rank 0 (the pool, runtime/pool.c)
 * and the other ranks (kt_mpi_serve, runtime/mpi.c) of an MPI run: message
 * types, their payloads, and a poll that never blocks, so that rank 0 can
 * notice a rank that fell silent instead of waiting for it for ever.
 *
 * Only the thread that called kt_mpi_init calls MPI (MPI_THREAD_FUNNELED):
 * the pool's local workers and a serving rank's evaluation run in threads
 * of their own, and the main thread talks for them.
 *
 * Payloads are raw host-order fields: every rank runs the same binary.
 */
#ifndef KTC_RUNTIME_MPI_H
#define KTC_RUNTIME_MPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktc/pool.h"
#include "util/str.h"
#include "runtime/wire.h"

/* Message types, sent as the MPI tag. */
enum {
	KT_MPI_JOB = 1, /* 0 -> r: u32 job: open it and say HELLO */
	KT_MPI_HELLO,   /* r -> 0: i32 rc, str why, u32 workers, device info */
	KT_MPI_PROBLEM, /* 0 -> r: the problem values */
	KT_MPI_READY,   /* r -> 0: i32 rc, str why */
	KT_MPI_EVAL,    /* 0 -> r: u32 n, per config: param_idx, slots, key */
	KT_MPI_RESULTS, /* r -> 0: i32 rc, str why, u32 n, results */
	KT_MPI_BEAT,    /* r -> 0: alive (every second while serving) */
	KT_MPI_END,     /* 0 -> r: the job is over */
	KT_MPI_STOP,    /* 0 -> r: no more jobs */
};

/* Seconds between a serving rank's BEATs. */
#define KT_MPI_BEAT_S 1.0

/* Whether this process runs under MPI with more than one rank. */
bool kt_mpi_active(void);
/* Whether rank r (> 0) is still taking part. */
bool kt_mpi_alive(int r);
/* Marks rank r lost for the rest of this process's life. */
void kt_mpi_mark_lost(int r);
/* How long a message may take once begun before its peer is lost. */
void kt_mpi_set_timeout(double s);
/* Sends one message; a failure (or a send that does not finish within the
 * timeout) marks the rank lost. */
int kt_mpi_send(int rank, int type, const kt_str *payload);
/* Receives a waiting message from any rank: 1 with one, 0 with none (also
 * when its sender died inside it: the sender is then lost). */
int kt_mpi_poll(int *rank, int *type, kt_str *payload);

#endif
