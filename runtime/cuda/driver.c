/*
 * runtime/cuda/driver.c - dlopen of libcuda.so.1 and resolution of the entry
 * points ktc uses; the one place where CUresult becomes a ktc error.
 */
#include "runtime/cuda/driver.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "ktc/common.h"

typedef CUresult (*get_proc_fn)(const char *, void **, int, cuuint64_t,
                                CUdriverProcAddressQueryResult *);

int kt_cu_driver_load(kt_cu_driver *d)
{
	memset(d, 0, sizeof(*d));
	void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		return kt_error(
		    KT_EUNSUPPORTED,
		    "no CUDA driver: cannot load 'libcuda.so.1' (%s)",
		    dlerror());
	get_proc_fn get = (get_proc_fn)dlsym(lib, "cuGetProcAddress_v2");
	if (!get)
		return kt_error(KT_EUNSUPPORTED,
		                "the CUDA driver is older than CUDA 12.5: no "
		                "cuGetProcAddress_v2");
	CUdriverProcAddressQueryResult q;
#define KT_CU_RESOLVE(name)                                                    \
	if (get(#name, (void **)&d->name, CUDA_VERSION,                        \
	        CU_GET_PROC_ADDRESS_DEFAULT, &q) != CUDA_SUCCESS ||            \
	    !d->name)                                                          \
		return kt_error(KT_EUNSUPPORTED,                               \
		                "the CUDA driver has no '%s' for CUDA %d",     \
		                #name, CUDA_VERSION);
	KT_CU_FUNCS(KT_CU_RESOLVE)
#undef KT_CU_RESOLVE
	return 0;
}

const char *kt_cu_error_name(const kt_cu_driver *d, CUresult r)
{
	const char *name = NULL;
	if (d->cuGetErrorName && d->cuGetErrorName(r, &name) == CUDA_SUCCESS &&
	    name)
		return name;
	return "CUDA_ERROR_UNKNOWN";
}

int kt_cu_check(const kt_cu_driver *d, CUresult r, const char *what)
{
	if (r == CUDA_SUCCESS)
		return 0;
	const char *text = NULL;
	if (!d->cuGetErrorString ||
	    d->cuGetErrorString(r, &text) != CUDA_SUCCESS)
		text = NULL;
	return kt_error(KT_EBACKEND, "%s: %s (%s)", what,
	                kt_cu_error_name(d, r), text ? text : "no description");
}

CUresult kt_cu_launch_fn(const kt_cu_driver *d, CUfunction f,
                         const uint32_t grid[3], const uint32_t block[3],
                         uint32_t smem, bool pdl, CUstream stream,
                         void **params)
{
	if (!pdl)
		return d->cuLaunchKernel(f, grid[0], grid[1], grid[2], block[0],
		                         block[1], block[2], smem, stream,
		                         params, NULL);
	CUlaunchAttribute at = {0};
	at.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
	at.value.programmaticStreamSerializationAllowed = 1;
	CUlaunchConfig c = {.gridDimX = grid[0],
	                    .gridDimY = grid[1],
	                    .gridDimZ = grid[2],
	                    .blockDimX = block[0],
	                    .blockDimY = block[1],
	                    .blockDimZ = block[2],
	                    .sharedMemBytes = smem,
	                    .hStream = stream,
	                    .attrs = &at,
	                    .numAttrs = 1};
	return d->cuLaunchKernelEx(&c, f, params, NULL);
}
