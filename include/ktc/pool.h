/*
 * ktc/pool.h - many evaluators behind one backend: a worker per device of
 * this host (`ktc tune --devices`), and the devices of other MPI ranks
 * (`mpirun -np N ktc tune ...`). docs/scale.md describes the design.
 *
 * The pool is a kt_backend: the tuner hands it a batch, the pool spreads
 * the batch's configurations over its members (in chunks, taken by whoever
 * is free) and hands back one result per configuration in the batch's
 * order, as one backend would. So a run with a pool visits the same
 * configurations in the same order as a run with one device, and a cache
 * or T4 file it writes has the same form; each result records where it ran
 * (measurements "device", and "rank" under MPI).
 *
 * A member that fails (its backend returns an error, or a rank falls
 * silent for rank_timeout_s) is dropped: what it had in hand is handed to
 * the others, never recorded as the configurations' failure. The run stops
 * only when no member is left.
 *
 * One run tunes for one device model: the pool refuses local devices of
 * different models, and leaves out (with a note on stderr) a rank whose
 * device differs from rank 0's.
 */
#ifndef KTC_POOL_H
#define KTC_POOL_H

#include <stdbool.h>
#include <stddef.h>

#include "ktc/eval.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kt_pool_options {
	const char *backend; /* every member's: "cuda", "opencl", "sim" */
	/* the devices of this host, as kt_backend_options.device takes
	 * them; "all": every device the backend finds. NULL: one member on
	 * base.device. */
	const char *devices;
	int workers_per_device;  /* members per device; 0: 1 */
	kt_backend_options base; /* each member's, with .device set */
	/* also evaluate on the other MPI ranks (they run kt_mpi_serve) */
	bool mpi;
	unsigned job; /* which job of a campaign, told to the other ranks */
	double rank_timeout_s; /* a rank silent this long is lost; 0: 30 */
} kt_pool_options;

/*
 * Opens a pool backend. Its device_info is its first member's; its name is
 * the members' backend's. Fails when a device cannot be opened or the
 * devices are of different models.
 */
KT_API int kt_pool_open(kt_backend **out, const kt_model *m,
                        const kt_pool_options *opt);
/* Members of a pool (local workers plus remote ranks' workers). */
KT_API size_t kt_pool_members(const kt_backend *pool);

/*
 * MPI. Outside mpirun (no Open MPI environment) ktc is rank 0 of 1 and
 * nothing here touches MPI. kt_mpi_init returns 0, or a negative code when
 * started by mpirun in a ktc built without MPI.
 */
KT_API int kt_mpi_init(int *argc, char ***argv);
KT_API int kt_mpi_rank(void);
KT_API int kt_mpi_size(void);
/* Ranks > 0: waits for rank 0's next job; its index, or -1 at the end. */
KT_API int kt_mpi_next_job(unsigned *job);
/*
 * Ranks > 0: answers rank 0's requests for the current job with backend b
 * (NULL: this rank could not open the job; why says so) until rank 0 ends
 * the job. Returns 0, or a negative code when the conversation broke.
 */
KT_API int kt_mpi_serve(kt_backend *b, const char *why);
/*
 * Ends MPI: rank 0 tells the others to stop. Where a rank was lost, Open
 * MPI cannot finalize the job (mpirun would wait for ever for the dead
 * rank), so rank 0 ends it with MPI_Abort(status) instead, after everything
 * is written. Returns status.
 */
KT_API int kt_mpi_finish(int status);
/* Ranks lost so far in this process's runs (rank 0). */
KT_API int kt_mpi_lost(void);

#ifdef __cplusplus
}
#endif
#endif
