/*
 * host_backend.c - a backend for the LLM loop tests that really computes:
 * each configuration of an axpb-shaped kernel (tests/optimize/inputs/
 * axpb.cu: `(float *y, const float *x, float a, float b, int n)`) is
 * compiled as host C++ (g++, with a few lines that make a __global__
 * function a plain one and run its grid thread by thread) and run at the
 * problem size and at an odd size three elements longer; its outputs,
 * poisoned with NaN before the run, are compared with the default
 * configuration's, as the CUDA backend compares them. So a variant that
 * is wrong at an odd size, or skips work, fails here as it would on a GPU.
 *
 * Times are a formula, as in tests/optimize: what is "faster" is the
 * test's decision (value 1 of a parameter whose name starts with
 * HW.variant takes 20% off); what is correct is computed.
 */
#include "llm/host_backend.h"

#include "ktc/model.h"
#include "util/fs.h"
#include "util/str.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

host_world HW;

typedef struct hb {
	kt_backend base;
	int64_t n;
	float *ref, *ref_odd; /* the default configuration's outputs */
} hb;

static const char SHIM[] =
    "#include <math.h>\n#include <stdio.h>\n#include <stdlib.h>\n"
    "#define __CUDACC_RTC__ 1\n#define __global__\n#define __device__\n"
    "#define __forceinline__ inline\n#define __restrict__ __restrict\n"
    "#define __launch_bounds__(...)\n"
    "struct kt_u3 { unsigned x, y, z; };\n"
    "static kt_u3 threadIdx, blockIdx, blockDim, gridDim;\n";

static const char MAIN[] =
    "\nint main(int argc, char **argv)\n{\n"
    "\tlong n = atol(argv[1]);\n"
    "\tunsigned grid = atoi(argv[2]), block = atoi(argv[3]);\n"
    "\tunsigned s = atoi(argv[4]) * 2654435761u + 1;\n"
    "\tfloat *x = (float *)malloc(n * 4), *y = (float *)malloc(n * 4);\n"
    "\tfor (long i = 0; i < n; i++) {\n"
    "\t\ts = s * 1664525u + 1013904223u;\n"
    "\t\tx[i] = (float)((s >> 8) & 0xffff) / 32768.0f - 1;\n"
    "\t\ty[i] = NAN;\n\t}\n"
    "\tgridDim = {grid, 1, 1};\n\tblockDim = {block, 1, 1};\n"
    "\tfor (unsigned b = 0; b < grid; b++)\n"
    "\t\tfor (unsigned t = 0; t < block; t++) {\n"
    "\t\t\tblockIdx = {b, 0, 0};\n\t\t\tthreadIdx = {t, 0, 0};\n"
    "\t\t\taxpb_kernel(y, x, 2.0f, 0.5f, (int)n);\n\t\t}\n"
    "\tfwrite(y, 4, n, stdout);\n\treturn 0;\n}\n";

static int sh(const char *cmd)
{
	return system(cmd);
}

/* The binary of the configuration whose parameters are slots: compiled
 * once per preprocessed text. */
static int binary(char *out, size_t n, const kt_model *m, const kt_value *slots)
{
	kt_str s = KT_STR_INIT;
	kt_str_adds(&s, SHIM);
	for (size_t p = 0; p < m->nparams; p++)
		kt_str_addf(&s, "#define %s %lld\n", m->params[p].name,
		            (long long)slots[p].i);
	kt_str_adds(&s, m->source);
	kt_str_adds(&s, MAIN);
	char src[512], pre[512], cmd[2048];
	snprintf(src, sizeof(src), "%s/config.cpp", HW.dir);
	snprintf(pre, sizeof(pre), "%s/config.ii", HW.dir);
	int rc = kt_fs_write_atomic(src, s.ptr, s.len);
	kt_str_release(&s);
	/* an empty cuda_runtime.h: the shim declares what the kernel uses */
	char inc[512];
	snprintf(inc, sizeof(inc), "%s/inc", HW.dir);
	if (kt_fs_mkdirs(inc))
		return -1;
	snprintf(inc, sizeof(inc), "%s/inc/cuda_runtime.h", HW.dir);
	if (access(inc, F_OK) && kt_fs_write_atomic(inc, "", 0))
		return -1;
	snprintf(cmd, sizeof(cmd),
	         "g++ -E -P -w -x c++ -I'%s/inc' '%s' -o '%s'", HW.dir, src,
	         pre);
	if (rc || sh(cmd))
		return -1;
	char *text = NULL;
	size_t len = 0;
	if (kt_fs_read(&text, &len, pre))
		return -1;
	uint64_t h = kt_hash(KT_HASH_INIT, text, len);
	kt_free(text);
	snprintf(out, n, "%s/bin-%016llx", HW.dir, (unsigned long long)h);
	if (access(out, X_OK) == 0)
		return 0;
	HW.compiles++;
	snprintf(cmd, sizeof(cmd),
	         "g++ -O1 -w -x c++ -std=c++17 '%s' -o '%s' 2>/dev/null", pre,
	         out);
	return sh(cmd) ? 1 : 0;
}

/* Runs bin at size n with grid and block of slots; NULL on failure. */
static float *run_bin(const char *bin, const kt_model *m, const kt_value *slots,
                      int64_t n, int seed)
{
	kt_value g, b;
	if (kt_expr_eval(&g, m->launch.grid[0], slots) ||
	    kt_expr_eval(&b, m->launch.block[0], slots))
		return NULL;
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "'%s' %lld %lld %lld %d", bin, (long long)n,
	         (long long)g.i, (long long)b.i, seed);
	FILE *p = popen(cmd, "r");
	float *y = p ? malloc((size_t)n * sizeof(float)) : NULL;
	size_t got = y ? fread(y, sizeof(float), (size_t)n, p) : 0;
	if (p && pclose(p))
		got = 0;
	if (got != (size_t)n) {
		free(y);
		return NULL;
	}
	return y;
}

static bool same(const float *a, const float *r, int64_t n)
{
	for (int64_t i = 0; i < n; i++)
		if (isnan(a[i]) ||
		    fabsf(a[i] - r[i]) > 1e-5f + 1e-5f * fabsf(r[i]))
			return false;
	return true;
}

/* Outputs at the problem size (seed 1) and the odd size (seed 2). */
static int outputs(hb *f, const uint32_t *idx, float **y, float **odd)
{
	const kt_model *m = f->base.model;
	kt_value *s = calloc(m->nsymbols + 1, sizeof(*s));
	kt_value prob[1] = {{.i = f->n}}, podd[1] = {{.i = f->n + 3}};
	char bin[600];
	*y = *odd = NULL;
	int rc = -1;
	if (s && !kt_model_bind(s, m, idx, prob, NULL)) {
		rc = binary(bin, sizeof(bin), m, s);
		if (!rc)
			*y = run_bin(bin, m, s, f->n, 1);
		if (!rc && !kt_model_bind(s, m, idx, podd, NULL))
			*odd = run_bin(bin, m, s, f->n + 3, 2);
	}
	free(s);
	kt_error_clear();
	return rc;
}

static int hb_info(kt_backend *b, kt_device_info *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "host");
	snprintf(out->backend, sizeof(out->backend), "host-test");
	out->copy_gbs = 1000;
	return 0;
}

static int hb_set_problem(kt_backend *b, const kt_value *problem)
{
	hb *f = (hb *)b;
	const kt_model *m = b->model;
	f->n = m->nproblems ? problem[0].i : 0;
	free(f->ref);
	free(f->ref_odd);
	f->ref = f->ref_odd = NULL;
	if (!f->n)
		return 0;
	uint32_t *idx = calloc(m->nparams + 1, sizeof(*idx));
	kt_model_default_config(m, idx);
	int rc = outputs(f, idx, &f->ref, &f->ref_odd);
	free(idx);
	return rc || !f->ref || !f->ref_odd
	           ? kt_error(KT_EBACKEND, "the default does not run")
	           : 0;
}

static double formula(const hb *f, const char *key)
{
	double t = (double)f->n * 8 / 1e8;
	const char *b = strstr(key, "BLOCK_SIZE="), *it = strstr(key, "ITEMS");
	double block = b ? atof(b + 11) : 256;
	double items = it ? atof(strchr(it, '=') + 1) : 1;
	t *= (1 + 32 / block) * (1 + 1 / items);
	/* NAME=1 of each parameter NAME starting with the prefix */
	size_t pn = HW.variant ? strlen(HW.variant) : 0;
	for (const char *k = key; pn && k && *k; k = strchr(k, ',')) {
		k += *k == ',';
		const char *eq = strchr(k, '=');
		if (eq && !strncmp(k, HW.variant, pn) && atoi(eq + 1) == 1)
			t *= 0.8;
	}
	return t;
}

static int hb_evaluate(kt_backend *b, const kt_eval_request *reqs, size_t n,
                       kt_result *res)
{
	hb *f = (hb *)b;
	for (size_t i = 0; i < n; i++) {
		HW.evals++;
		if (!f->n) { /* the launch floor */
			res[i].status = KT_STATUS_OK;
			res[i].time_ms = 0.002;
			continue;
		}
		float *y = NULL, *odd = NULL;
		int rc = outputs(f, reqs[i].param_idx, &y, &odd);
		bool ok = !rc && y && odd && same(y, f->ref, f->n) &&
		          same(odd, f->ref_odd, f->n + 3);
		res[i].status = rc > 0 ? KT_STATUS_COMPILE
		                : ok   ? KT_STATUS_OK
		                       : KT_STATUS_CORRECTNESS;
		res[i].time_ms = ok ? formula(f, reqs[i].key) : 0;
		if (!ok)
			HW.wrong++;
		free(y);
		free(odd);
	}
	return 0;
}

static void hb_free(kt_backend *b)
{
	hb *f = (hb *)b;
	free(f->ref);
	free(f->ref_odd);
	free(f);
}

static const kt_backend_ops hb_ops = {"host-test", hb_info, hb_set_problem,
                                      hb_evaluate, hb_free};

int host_backend_open(kt_backend **out, const kt_model *m,
                      const kt_backend_options *bo, void *ud)
{
	(void)bo; /* finite random inputs: special values are the CUDA and
	             OpenCL backends' (tests of their own) */
	hb *f = calloc(1, sizeof(*f));
	if (!f)
		return KT_ENOMEM;
	f->base.ops = &hb_ops;
	f->base.model = m;
	*out = &f->base;
	return 0;
}
