/*
 * ktc/common.h - what every part of ktc shares: error codes, the per-thread
 * error message, the replaceable allocator, and source locations.
 *
 * Functions that can fail return int: 0 on success, a negative KT_E* code on
 * failure, with a message kept per thread (kt_error_last()). Output
 * parameters come first. The library never exits or aborts.
 */
#ifndef KTC_COMMON_H
#define KTC_COMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * KT_API marks the public API: libktc is compiled with -fvisibility=hidden,
 * and the installed libktc.a keeps only what KT_API marks global (the rest
 * is made local when its objects are merged), so a host's own symbols never
 * meet ktc's internals.
 */
#if defined(__GNUC__)
#define KT_API __attribute__((visibility("default")))
#else
#define KT_API
#endif

enum {
	KT_OK = 0,
	KT_ERROR = -1,  /* generic failure, see kt_error_last() */
	KT_ENOMEM = -2, /* an allocation failed */
	KT_EIO = -3,    /* a file could not be read or written */
	KT_EPARSE = -4, /* input did not parse; diagnostics say where */
	KT_EINVALID =
	    -5, /* a request makes no sense (bad argument, bad state) */
	KT_ENOTFOUND = -6, /* a named thing does not exist */
	KT_EBACKEND = -7,  /* a backend (CUDA, OpenCL, ...) failed */
	KT_EUNSUPPORTED =
	    -8, /* not built in, or not available on this machine */
	KT_EINTERRUPTED = -9, /* a signal or a budget stopped the work */
};

/* The last error message of this thread; never NULL ("" when none). */
KT_API const char *kt_error_last(void);
/* Set the message; returns code so callers can write `return kt_error(...)`. */
KT_API int kt_error(int code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
KT_API int kt_error_v(int code, const char *fmt, va_list ap);
KT_API void kt_error_clear(void);

/*
 * One allocator for the whole library; a host (or a test that fails each
 * allocation in turn) may replace it. realloc semantics as in Lua's
 * lua_Alloc: ptr NULL allocates, nsize 0 frees.
 */
typedef void *(*kt_alloc_fn)(void *ud, void *ptr, size_t osize, size_t nsize);
KT_API void kt_set_allocator(kt_alloc_fn fn, void *ud);
KT_API void *kt_malloc(size_t n);
KT_API void *kt_calloc(size_t count, size_t size);
KT_API void *kt_realloc(void *ptr, size_t n);
KT_API void kt_free(void *ptr);
KT_API char *kt_strdup(const char *s);
KT_API char *kt_strndup(const char *s, size_t n);

/* True when path names an OpenCL C file (`.cl`, as clang's driver takes
 * it): the frontend parses it as OpenCL C, the rewriter verifies it on
 * the OpenCL backend instead of with nvcc. */
KT_API bool kt_path_is_opencl(const char *path);

/* A position in a source file: 1-based line and column (in bytes). */
typedef struct kt_loc {
	const char
	    *file; /* borrowed; lives as long as the thing that owns it */
	int line;
	int col;
} kt_loc;

#ifdef __cplusplus
}
#endif
#endif
