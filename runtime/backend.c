/*
 * backend.c - the registry of backends: kt_backend_open finds a backend by
 * name among those built into this binary (runtime/backend_impl.h says how
 * one is added). A backend that is known but not built in is reported as
 * such, not as an unknown name, so `--backend cuda` on a machine without the
 * CUDA toolkit says what is missing.
 */
#include "runtime/backend_impl.h"

#include <signal.h>
#include <string.h>

bool kt_backend_killed_from_outside(int sig)
{
	switch (sig) {
	case 0:
	case SIGSEGV:
	case SIGBUS:
	case SIGFPE:
	case SIGILL:
	case SIGABRT:
	case SIGTRAP:
	case SIGSYS: return false;
	default: return true;
	}
}

typedef int (*open_fn)(kt_backend **out, const kt_model *m,
                       const kt_backend_options *opt);

static const struct entry {
	const char *name;
	open_fn open; /* NULL: known, but not built into this binary */
} backends[] = {
    {"sim", kt_backend_sim_open},
#if defined(KTC_HAVE_CUDA) && defined(KTC_BUILD_CUDA_BACKEND)
    {"cuda", kt_backend_cuda_open},
#else
    {"cuda", NULL},
#endif
#if defined(KTC_HAVE_OPENCL) && defined(KTC_BUILD_OPENCL_BACKEND)
    {"opencl", kt_backend_opencl_open},
#else
    {"opencl", NULL},
#endif
};

enum { NBACKENDS = sizeof(backends) / sizeof(backends[0]) };

int kt_backend_open(kt_backend **out, const char *name, const kt_model *m,
                    const kt_backend_options *opt)
{
	*out = NULL;
	kt_backend_options none = {0};
	if (!opt)
		opt = &none;
	for (size_t i = 0; i < NBACKENDS; i++) {
		if (strcmp(backends[i].name, name))
			continue;
		if (!backends[i].open)
			return kt_error(
			    KT_EUNSUPPORTED,
			    "backend '%s' is not built into this ktc "
			    "(built in: %s)",
			    name, kt_backend_names());
		return backends[i].open(out, m, opt);
	}
	return kt_error(KT_ENOTFOUND, "unknown backend '%s' (built in: %s)",
	                name, kt_backend_names());
}

void kt_backend_free(kt_backend *b)
{
	if (b && b->ops && b->ops->free)
		b->ops->free(b);
}

const char *kt_backend_names(void)
{
	return "sim"
#if defined(KTC_HAVE_CUDA) && defined(KTC_BUILD_CUDA_BACKEND)
	       ",cuda"
#endif
#if defined(KTC_HAVE_OPENCL) && defined(KTC_BUILD_OPENCL_BACKEND)
	       ",opencl"
#endif
	    ;
}
