/*
 * ktc/export.h - `ktc export`: C that launches a tuned kernel by shape
 * with no JIT (docs/deploy.md). For kernel m of template t and its wisdom
 * file, kt_export writes OUT.h (one entry point, CUresult KERNEL(problem
 * values..., void **args, CUstream)) and OUT.c (the dispatch on the shape,
 * as kt_wisdom_select chooses, and one fatbin per configuration that
 * nvcc compiled, embedded). Built where the CUDA toolkit is found.
 */
#ifndef KTC_EXPORT_H
#define KTC_EXPORT_H

#include <stddef.h>

#include "ktc/model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kt_export_options {
	const char *arch; /* the target, "sm_90a" (NULL: that) */
	const char *nvcc; /* NULL: the CUDA toolkit's bin/nvcc */
} kt_export_options;

/* What kt_export wrote; kt_export_report_release frees it. */
typedef struct kt_export_report {
	char *header, *source; /* OUT.h, OUT.c */
	size_t nconfigs;       /* configurations compiled (the default first) */
	size_t nshapes;        /* shapes of the wisdom */
} kt_export_report;

/*
 * Refuses (KT_EINVALID) a wisdom of another kernel, another version of
 * the template or other names, and (KT_EUNSUPPORTED) what cannot be
 * written as integer C, at its file:line:col; KT_EBACKEND with nvcc's
 * output when a configuration does not compile. Nothing is written then.
 */
KT_API int kt_export(kt_export_report *rep, const kt_template *t,
                     const kt_model *m, const char *wisdom_path,
                     const char *out, const kt_export_options *opt);
KT_API void kt_export_report_release(kt_export_report *rep);

#ifdef __cplusplus
}
#endif
#endif
