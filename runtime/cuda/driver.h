/*
 * runtime/cuda/driver.h - the CUDA driver API, loaded at run time.
 *
 * ktc does not link libcuda: it is opened with dlopen inside the worker
 * process only, so the ktc binary starts (and `--compile-only` works) on
 * machines without an NVIDIA driver, and the parent process can never
 * initialise CUDA by accident. Entry points are resolved through
 * cuGetProcAddress for the CUDA version of the headers ktc was built with.
 * A name is resolved to its newest version up to that one, so a function
 * whose newest version changed its parameters while cuda.h kept the old
 * declaration under the plain name does not belong here: cuCtxSynchronize
 * is one (CUDA 13's takes a context); ktc synchronises streams instead.
 */
#ifndef KTC_RUNTIME_CUDA_DRIVER_H
#define KTC_RUNTIME_CUDA_DRIVER_H

#include <cuda.h>
#include <stdbool.h>
#include <stdint.h>

#define KT_CU_FUNCS(X)                                                         \
	X(cuInit)                                                              \
	X(cuDriverGetVersion)                                                  \
	X(cuGetErrorName)                                                      \
	X(cuGetErrorString)                                                    \
	X(cuDeviceGetCount)                                                    \
	X(cuDeviceGet)                                                         \
	X(cuDeviceGetName)                                                     \
	X(cuDeviceGetAttribute)                                                \
	X(cuDeviceTotalMem)                                                    \
	X(cuDevicePrimaryCtxRetain)                                            \
	X(cuDevicePrimaryCtxRelease)                                           \
	X(cuCtxSetCurrent)                                                     \
	X(cuCtxGetCurrent)                                                     \
	X(cuLibraryLoadData)                                                   \
	X(cuLibraryUnload)                                                     \
	X(cuLibraryGetKernel)                                                  \
	X(cuKernelSetAttribute)                                                \
	X(cuModuleLoadData)                                                    \
	X(cuModuleUnload)                                                      \
	X(cuModuleGetFunction)                                                 \
	X(cuFuncGetAttribute)                                                  \
	X(cuFuncSetAttribute)                                                  \
	X(cuOccupancyMaxActiveBlocksPerMultiprocessor)                         \
	X(cuMemAlloc)                                                          \
	X(cuMemFree)                                                           \
	X(cuMemGetInfo)                                                        \
	X(cuMemcpyHtoD)                                                        \
	X(cuMemcpyDtoH)                                                        \
	X(cuMemcpyDtoDAsync)                                                   \
	X(cuMemsetD8Async)                                                     \
	X(cuMemsetD32Async)                                                    \
	X(cuLaunchKernel)                                                      \
	X(cuLaunchKernelEx)                                                    \
	X(cuStreamCreate)                                                      \
	X(cuStreamDestroy)                                                     \
	X(cuStreamSynchronize)                                                 \
	X(cuStreamBeginCapture)                                                \
	X(cuStreamEndCapture)                                                  \
	X(cuEventCreate)                                                       \
	X(cuEventDestroy)                                                      \
	X(cuEventRecord)                                                       \
	X(cuEventRecordWithFlags)                                              \
	X(cuEventElapsedTime)                                                  \
	X(cuGraphInstantiateWithFlags)                                         \
	X(cuGraphLaunch)                                                       \
	X(cuGraphDestroy)                                                      \
	X(cuGraphExecDestroy)

typedef struct kt_cu_driver {
#define KT_CU_FIELD(name) __typeof__(name) *name;
	KT_CU_FUNCS(KT_CU_FIELD)
#undef KT_CU_FIELD
} kt_cu_driver;

/*
 * Opens libcuda.so.1 and resolves every entry point; fails with
 * KT_EUNSUPPORTED and a message when there is no driver.
 */
int kt_cu_driver_load(kt_cu_driver *d);

/* Turns a CUresult into a ktc error "what: CUDA_ERROR_X (text)". */
int kt_cu_check(const kt_cu_driver *d, CUresult r, const char *what);
/*
 * Launches f as cuLaunchKernel does; with pdl, as a programmatic
 * dependent launch (cuLaunchKernelEx with programmatic stream
 * serialisation: f may start before the previous kernel on the stream
 * ends, and waits for it in its code with griddepcontrol.wait).
 */
CUresult kt_cu_launch_fn(const kt_cu_driver *d, CUfunction f,
                         const uint32_t grid[3], const uint32_t block[3],
                         uint32_t smem, bool pdl, CUstream stream,
                         void **params);
/* The name of r, "CUDA_ERROR_ILLEGAL_ADDRESS". */
const char *kt_cu_error_name(const kt_cu_driver *d, CUresult r);

#endif
