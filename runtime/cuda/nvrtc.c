/*
 * runtime/cuda/nvrtc.c - the one NVRTC driver (nvrtc.h): options, one
 * compile, its log, lowered name and cubin.
 *
 * The design choice: a compile error is an outcome, not a failure. The
 * call fails only when NVRTC itself could not run (out of memory, a bad
 * option), so callers that compile many configurations keep going and
 * report each one's log.
 */
#include "runtime/cuda/nvrtc.h"

#include <nvrtc.h>
#include <stdio.h>
#include <string.h>

#include "ktc/common.h"
#include "util/cuda.h"
#include "util/str.h"

const char *kt_cu_nvrtc_version(void)
{
	static char buf[32];
	if (!buf[0]) {
		int major = 0, minor = 0;
		nvrtcVersion(&major, &minor);
		snprintf(buf, sizeof(buf), "NVRTC %d.%d", major, minor);
	}
	return buf;
}

int kt_cu_opt_push(char ***opts, size_t *n, const char *fmt, const char *arg)
{
	kt_str s = KT_STR_INIT;
	if (kt_str_addf(&s, fmt, arg))
		return KT_ENOMEM;
	char **grown = kt_realloc(*opts, (*n + 1) * sizeof(char *));
	if (!grown) {
		kt_str_release(&s);
		return kt_error(KT_ENOMEM, "out of memory");
	}
	*opts = grown;
	grown[(*n)++] = kt_str_detach(&s);
	return 0;
}

void kt_cu_opts_free(char **opts, size_t n)
{
	for (size_t i = 0; i < n; i++)
		kt_free(opts[i]);
	kt_free(opts);
}

int kt_cu_nvrtc_options(char ***opts, size_t *n, const char *arch,
                        const char *dir, const char *root)
{
	if (!root)
		root = kt_cuda_root();
	int rc = kt_cu_opt_push(opts, n, "-arch=%s",
	                        arch ? arch : KT_CUDA_DEFAULT_ARCH);
	if (!rc)
		rc = kt_cu_opt_push(opts, n, "-I%s", dir ? dir : ".");
	if (!rc)
		rc = kt_cu_opt_push(opts, n, "-I%s/include", root);
	if (!rc)
		rc = kt_cu_opt_push(opts, n, "-I%s/include/cccl", root);
#ifdef __linux__
	/* nvcc preprocesses device code with the host compiler's macros;
	 * NVRTC defines no platform: a header's `#if defined(__linux__)`
	 * typedef would be there for nvcc and missing for NVRTC */
	if (!rc)
		rc = kt_cu_opt_push(opts, n, "%s", "-D__linux__");
	if (!rc)
		rc = kt_cu_opt_push(opts, n, "%s", "-D__unix__");
#endif
	return rc;
}

static int nvrtc_fail(nvrtcResult r, const char *what)
{
	return kt_error(KT_EBACKEND, "nvrtc: %s failed: %s", what,
	                nvrtcGetErrorString(r));
}

static int read_log(kt_cu_nvrtc *o, nvrtcProgram prog)
{
	size_t n = 0;
	nvrtcResult r = nvrtcGetProgramLogSize(prog, &n);
	if (r != NVRTC_SUCCESS)
		return nvrtc_fail(r, "nvrtcGetProgramLogSize");
	char *log = kt_malloc(n + 1);
	if (!log)
		return kt_error(KT_ENOMEM, "out of memory");
	r = nvrtcGetProgramLog(prog, log);
	if (r != NVRTC_SUCCESS) {
		kt_free(log);
		return nvrtc_fail(r, "nvrtcGetProgramLog");
	}
	log[n] = '\0';
	if (n > KT_CU_LOG_MAX) /* keep the start: the first error matters */
		memcpy(log + KT_CU_LOG_MAX - 16, "\n[log cut]\n", 12);
	o->log = log;
	return 0;
}

static int read_cubin(kt_cu_nvrtc *o, nvrtcProgram prog)
{
	size_t n = 0;
	nvrtcResult r = nvrtcGetCUBINSize(prog, &n);
	if (r != NVRTC_SUCCESS)
		return nvrtc_fail(r, "nvrtcGetCUBINSize");
	if (!(o->image = kt_malloc(n ? n : 1)))
		return kt_error(KT_ENOMEM, "out of memory");
	r = nvrtcGetCUBIN(prog, o->image);
	if (r != NVRTC_SUCCESS)
		return nvrtc_fail(r, "nvrtcGetCUBIN");
	o->size = n;
	return 0;
}

static int read_lowered(kt_cu_nvrtc *o, nvrtcProgram prog, const char *expr)
{
	const char *lowered = NULL;
	nvrtcResult r = nvrtcGetLoweredName(prog, expr, &lowered);
	if (r != NVRTC_SUCCESS)
		return nvrtc_fail(r, "nvrtcGetLoweredName");
	if (!(o->lowered = kt_strdup(lowered)))
		return kt_error(KT_ENOMEM, "out of memory");
	return 0;
}

int kt_cu_nvrtc_compile(kt_cu_nvrtc *out, const char *text, const char *name,
                        const char *const *opts, size_t nopts,
                        const char *name_expr, bool cubin)
{
	*out = (kt_cu_nvrtc){0};
	nvrtcProgram prog = NULL;
	nvrtcResult r = nvrtcCreateProgram(&prog, text, name, 0, NULL, NULL);
	if (r != NVRTC_SUCCESS)
		return nvrtc_fail(r, "nvrtcCreateProgram");
	int rc = 0;
	if (name_expr &&
	    (r = nvrtcAddNameExpression(prog, name_expr)) != NVRTC_SUCCESS) {
		rc = nvrtc_fail(r, "nvrtcAddNameExpression");
		goto done;
	}
	nvrtcResult cr = nvrtcCompileProgram(prog, (int)nopts, opts);
	if ((rc = read_log(out, prog)))
		goto done;
	if (cr == NVRTC_SUCCESS) {
		if (name_expr)
			rc = read_lowered(out, prog, name_expr);
		if (!rc && cubin)
			rc = read_cubin(out, prog);
		out->ok = rc == 0;
	} else if (cr != NVRTC_ERROR_COMPILATION) {
		rc = nvrtc_fail(cr, "nvrtcCompileProgram");
	}
done:
	nvrtcDestroyProgram(&prog);
	if (rc)
		kt_cu_nvrtc_release(out);
	return rc;
}

void kt_cu_nvrtc_release(kt_cu_nvrtc *o)
{
	kt_free(o->log);
	kt_free(o->lowered);
	kt_free(o->image);
	*o = (kt_cu_nvrtc){0};
}
