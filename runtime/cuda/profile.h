/*
 * runtime/cuda/profile.h - hardware counters of one configuration through
 * CUPTI's range profiler (`ktc tune --profile`), inside the worker.
 *
 * CUPTI is opened with dlopen on first use; where it is missing or the
 * device does not permit counters, profiling switches itself off for the
 * rest of the worker's life and w->profile_note says why, once.
 */
#ifndef KTC_RUNTIME_CUDA_PROFILE_H
#define KTC_RUNTIME_CUDA_PROFILE_H

#include "runtime/cuda/worker.h"

/*
 * Profiles one launch of p at instance in (inputs of seed 0, L2 flushed
 * before each replay pass) and appends its measures to m (*nm of max used):
 * dram_read, dram_write (bytes), achieved_occupancy, sm_throughput (%).
 * Returns negative only when the CUDA context is lost.
 */
int kt_cu_profile(kt_cu_worker *w, kt_cu_inst *in, const kt_cu_prog *p,
                  const kt_cu_launch *l, kt_measure *m, size_t *nm, size_t max);
void kt_cu_profile_close(kt_cu_worker *w);

#endif
