/*
 * runtime/cuda/nvrtc.h - the one NVRTC driver: the options every compile
 * starts with, one compile with its log and, when asked, the kernel's
 * lowered name and cubin. The backend's compile (compile.c) and the
 * rewriter's verification (rewriter/verify.c) both go through it, so
 * NVRTC's status is turned into ktc's, and its log capped, in one place.
 *
 * NVRTC needs no GPU and is thread-safe per program: callers compile on as
 * many threads as they like.
 */
#ifndef KTC_RUNTIME_CUDA_NVRTC_H
#define KTC_RUNTIME_CUDA_NVRTC_H

#include <stdbool.h>
#include <stddef.h>

/* A log longer than this keeps its start (the first error matters most). */
enum { KT_CU_LOG_MAX = 64 * 1024 };

/* What one compile gives back; every pointer the caller's (release). */
typedef struct kt_cu_nvrtc {
	bool ok;       /* compiled; otherwise log says why */
	char *log;     /* NVRTC's log (warnings on success), may be "" */
	char *lowered; /* name_expr's mangled name, when one was asked */
	char *image;   /* the cubin, when asked */
	size_t size;
} kt_cu_nvrtc;

/* Appends one option, fmt with arg ("-D%s"), to a kt_malloc'd list. */
int kt_cu_opt_push(char ***opts, size_t *n, const char *fmt, const char *arg);
void kt_cu_opts_free(char **opts, size_t n);
/* Appends the options every compile starts with: -arch=ARCH, -I of dir
 * (the source's folder; NULL: "."), the toolkit's include folders under
 * root (NULL: kt_cuda_root()). */
int kt_cu_nvrtc_options(char ***opts, size_t *n, const char *arch,
                        const char *dir, const char *root);

/*
 * Compiles text (named name in messages) with opts. Returns 0 when NVRTC
 * ran, whether or not the text compiled (out->ok says); KT_EBACKEND with
 * NVRTC's reason when it could not. With name_expr, its lowered name is
 * read, and with cubin the image, on success.
 */
int kt_cu_nvrtc_compile(kt_cu_nvrtc *out, const char *text, const char *name,
                        const char *const *opts, size_t nopts,
                        const char *name_expr, bool cubin);
void kt_cu_nvrtc_release(kt_cu_nvrtc *o);
/* "NVRTC 13.0", for cache keys and reports. */
const char *kt_cu_nvrtc_version(void);

#endif
