/*
 * backend_impl.h - how a backend joins ktc: one constructor per backend,
 * called by kt_backend_open (runtime/backend.c) when its name is asked for.
 * Internal to the library; the public side is ktc/eval.h.
 *
 * A constructor allocates its own struct whose first member is a
 * `kt_backend` (ops + model), fills it, and returns it through *out; the
 * registry never looks further. On failure it returns a negative KT_E* code
 * with kt_error() set and leaves *out NULL.
 *
 * Adding a backend (the CUDA and OpenCL engineers, for runtime/cuda and
 * runtime/opencl):
 *   1. Implement kt_backend_<name>_open below in your own files.
 *   2. Write runtime/<name>/sources.cmake: append your sources to
 *      KTC_SOURCES (and libraries to KTC_LIBS, include folders to
 *      KTC_INCLUDES), then `list(APPEND KTC_RUNTIME_BACKENDS <name>)`.
 *      runtime/sources.cmake includes it automatically once it exists
 *      (only where KTC_HAVE_CUDA / KTC_HAVE_OPENCL is ON).
 *   3. For each name in KTC_RUNTIME_BACKENDS, runtime/sources.cmake defines
 *      KTC_BUILD_<NAME>_BACKEND=1 for backend.c only, which switches on the
 *      registry entry below. Until your sources.cmake adds the name, the
 *      registry does not reference your constructor, so the library links
 *      whether or not your files exist yet.
 */
#ifndef KTC_RUNTIME_BACKEND_IMPL_H
#define KTC_RUNTIME_BACKEND_IMPL_H

#include <stdbool.h>

#include "ktc/eval.h"

/*
 * Whether a worker that died of signal sig was ended from outside (a user's
 * kill, the OOM killer's SIGKILL, a SIGTERM at shutdown) rather than by
 * what it ran: the signals a faulting kernel or driver raises (SIGSEGV,
 * SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS) are its own. A death
 * from outside is retried, never recorded as the configuration's failure.
 */
bool kt_backend_killed_from_outside(int sig);

/* The simulation backend (runtime/sim.c): answers from opt->from. */
int kt_backend_sim_open(kt_backend **out, const kt_model *m,
                        const kt_backend_options *opt);

#ifdef KTC_HAVE_CUDA
/* NVRTC + driver API (runtime/cuda/). */
int kt_backend_cuda_open(kt_backend **out, const kt_model *m,
                         const kt_backend_options *opt);
#endif

#ifdef KTC_HAVE_OPENCL
/* OpenCL (runtime/opencl/); on PoCL it runs on the CPU. */
int kt_backend_opencl_open(kt_backend **out, const kt_model *m,
                           const kt_backend_options *opt);
#endif

#endif
