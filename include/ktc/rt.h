/*
 * ktc/rt.h - the ktc runtime (libktcrt): launch a tuned kernel from a
 * program. Load a template and its wisdom file (ktc/wisdom.h, written by
 * `ktc tune --problem T=1,64,4096 --wisdom FILE`), and launch at any
 * shape: the runtime picks the shape's configuration (the exact tuned
 * shape, else the nearest, else the template's defaults on a device the
 * wisdom was not measured on), compiles it once with NVRTC into an
 * on-disk cache keyed by device, driver and source, and launches it with
 * the CUDA driver API on the caller's stream.
 *
 * Thread-safe: kernels may be launched from any thread. The first launch
 * at a shape selects, compiles (or reads the cache) and loads; every
 * later launch at that shape allocates nothing and takes a read lock.
 * Functions that can fail return 0 or a negative code (ktc/common.h's
 * KT_E*), with a message for this thread in kt_rt_error().
 *
 * The library links NVRTC, cJSON and libdl; the CUDA driver (libcuda) is
 * opened at run time, so a program links and starts without a GPU.
 * Modules are loaded as CUDA libraries (cuLibraryLoadData): a kernel
 * launches in whichever context is current on the calling thread (the
 * opened device's primary context is made current where none is).
 */
#ifndef KTC_RT_H
#define KTC_RT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define KT_RT_API __attribute__((visibility("default")))
#else
#define KT_RT_API
#endif

typedef struct kt_rt kt_rt;
typedef struct kt_rt_kernel kt_rt_kernel;

typedef struct kt_rt_options {
	int device; /* CUDA device ordinal (0) */
	/* compiled kernels: NULL: $KTC_RT_CACHE, else $XDG_CACHE_HOME/ktc/rt,
	 * else ~/.cache/ktc/rt */
	const char *cache_dir;
	/*
	 * No GPU: describe the device to compile for (name as the driver
	 * says it, e.g. "NVIDIA H100 80GB HBM3"; arch "sm_90a"; driver
	 * version, e.g. 13000). Nothing is launched then (kt_rt_launch is
	 * KT_EUNSUPPORTED); kt_rt_prepare fills the cache for that device.
	 */
	const char *offline_name;
	const char *offline_arch;
	int offline_driver;
} kt_rt_options;

/* This thread's last error message; never NULL. */
KT_RT_API const char *kt_rt_error(void);

/* Opens the device (opt NULL: device 0, the default cache). */
KT_RT_API int kt_rt_open(kt_rt **out, const kt_rt_options *opt);
/* Unloads every kernel loaded through rt, and frees them. */
KT_RT_API void kt_rt_close(kt_rt *rt);
KT_RT_API const char *kt_rt_device_name(const kt_rt *rt);
KT_RT_API const char *kt_rt_device_arch(const kt_rt *rt);
KT_RT_API int kt_rt_driver_version(const kt_rt *rt);
KT_RT_API const char *kt_rt_cache_dir(const kt_rt *rt);

/*
 * Loads kernel `kernel` (NULL: the only one) of the template at
 * template_path, with the wisdom file at wisdom_path (NULL: none, every
 * shape runs the template's defaults). A wisdom for another kernel or
 * another version of the template (its hash) is refused. The kernel
 * lives until kt_rt_close.
 */
KT_RT_API int kt_rt_load(kt_rt_kernel **out, kt_rt *rt,
                         const char *template_path, const char *kernel,
                         const char *wisdom_path);

/* The kernel's problem variables (a launch gives one value each). */
KT_RT_API size_t kt_rt_nproblems(const kt_rt_kernel *k);
KT_RT_API const char *kt_rt_problem_name(const kt_rt_kernel *k, size_t i);
/* The kernel's arguments, in order: name, type ("bf16", "f32", ...),
 * 1 for a buffer (a device pointer), 0 for a scalar. */
KT_RT_API size_t kt_rt_nargs(const kt_rt_kernel *k);
KT_RT_API const char *kt_rt_arg_name(const kt_rt_kernel *k, size_t i);
KT_RT_API const char *kt_rt_arg_type(const kt_rt_kernel *k, size_t i);
KT_RT_API int kt_rt_arg_is_buffer(const kt_rt_kernel *k, size_t i);
/* A buffer's direction as the template declares it: 0 in, 1 out, 2 inout
 * (-1 for a scalar). */
KT_RT_API int kt_rt_arg_dir(const kt_rt_kernel *k, size_t i);

/*
 * The number of elements buffer argument i needs at the shape problem
 * (its `arg NAME TYPE[COUNT]` count there), for callers that check their
 * buffers; 0 for a scalar. Prepares the shape first (kt_rt_prepare).
 */
KT_RT_API int kt_rt_arg_count(kt_rt_kernel *k, const int64_t *problem, size_t i,
                              uint64_t *count);

/*
 * Launches k at the shape problem (kt_rt_nproblems values) on stream (a
 * CUstream; NULL: the default stream). args holds one pointer per kernel
 * argument, as cuLaunchKernel's kernelParams: for a buffer, a pointer to
 * its CUdeviceptr; for a scalar, a pointer to its value, or NULL to pass
 * the value the template's `arg NAME TYPE = EXPR` gives at this shape.
 */
KT_RT_API int kt_rt_launch(kt_rt_kernel *k, const int64_t *problem,
                           void *const *args, void *stream);

/*
 * Selects and compiles (and, with a device, loads) k's configuration at
 * the shape problem without launching: what the first launch there does.
 */
KT_RT_API int kt_rt_prepare(kt_rt_kernel *k, const int64_t *problem);

/*
 * What a launch at problem runs: the configuration as "NAME=V,..." (key,
 * cap bytes) and why ("exact", "nearest", "default"; match may be NULL).
 * Prepares the shape first (kt_rt_prepare).
 */
KT_RT_API int kt_rt_choice(kt_rt_kernel *k, const int64_t *problem, char *key,
                           size_t cap, const char **match);

#ifdef __cplusplus
}
#endif
#endif
