/*
 * runtime/cuda/worker.c - the CUDA worker process: opens the device,
 * measures its copy bandwidth, sets up a problem (buffers, inputs per seed,
 * the reference's outputs) and serves evaluations until told to quit.
 *
 * It runs as `ktc __worker cuda FD`, started by the parent, and exits after
 * any error that may leave the context unusable (an illegal address, a
 * failed launch): the parent records the configuration and starts a fresh
 * worker, which is cheaper to trust than a context after a fault.
 */
#include "runtime/cuda/worker.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/buffers.h"
#include "runtime/cuda/backend.h"
#include "runtime/cuda/compile.h"
#include "runtime/cuda/profile.h"
#include "runtime/verify.h"

double kt_cu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int kt_cu_attr(const kt_cu_worker *w, int a)
{
	for (int i = 0; i < KT_CU_NATTRS; i++)
		if (kt_cu_attrs[i] == a)
			return w->attrs[i];
	return 0;
}

int kt_cu_beat(kt_cu_worker *w)
{
	double t = kt_cu_now();
	if (t - w->last_beat < 0.5)
		return 0;
	w->last_beat = t;
	return kt_cu_send(w->fd, KT_CU_PROGRESS, NULL);
}

int kt_cu_reply_fail(kt_cu_worker *w, int code)
{
	kt_str s = KT_STR_INIT;
	int rc = kt_cu_put_u32(&s, (uint32_t)-code) |
	         kt_cu_put_str(&s, kt_error_last());
	if (!rc)
		rc = kt_cu_send(w->fd, KT_CU_FAIL, &s);
	kt_str_release(&s);
	return rc;
}

#define CU(call, what)                                                         \
	do {                                                                   \
		int rc_ = kt_cu_check(&w->d, (call), (what));                  \
		if (rc_)                                                       \
			return rc_;                                            \
	} while (0)

static int pick_device(kt_cu_worker *w, const char *want)
{
	int n = 0;
	CU(w->d.cuDeviceGetCount(&n), "cuDeviceGetCount");
	if (n == 0)
		return kt_error(KT_EUNSUPPORTED, "no CUDA device");
	if (!want || !*want)
		want = "0";
	char *end = NULL;
	long idx = strtol(want, &end, 10);
	if (*end == '\0') {
		if (idx < 0 || idx >= n)
			return kt_error(KT_ENOTFOUND,
			                "no CUDA device %ld (%d found)", idx,
			                n);
		CU(w->d.cuDeviceGet(&w->dev, (int)idx), "cuDeviceGet");
		return 0;
	}
	for (int i = 0; i < n; i++) {
		char name[256];
		CU(w->d.cuDeviceGet(&w->dev, i), "cuDeviceGet");
		CU(w->d.cuDeviceGetName(name, sizeof(name), w->dev),
		   "cuDeviceGetName");
		if (strstr(name, want))
			return 0;
	}
	return kt_error(KT_ENOTFOUND, "no CUDA device named '%s'", want);
}

/* The kernel module's version line: "... Kernel Module  580.159.04 ...". */
static void driver_text(char *out, size_t n, int cuda_version)
{
	char line[512] = "";
	FILE *f = fopen("/proc/driver/nvidia/version", "r");
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	/* "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04
	 * Release Build ...": the first word after "Module" that is a number */
	const char *p = strstr(line, "Module");
	char ver[64] = "unknown", word[64];
	int used = 0;
	while (p && sscanf(p, " %63s%n", word, &used) == 1) {
		p += used;
		if (isdigit((unsigned char)word[0])) {
			snprintf(ver, sizeof(ver), "%s", word);
			break;
		}
	}
	snprintf(out, n, "%s (CUDA %d.%d)", ver, cuda_version / 1000,
	         cuda_version % 1000 / 10);
}

/* Device-to-device copy rate, bytes read plus written, median of 10. */
static int measure_copy(kt_cu_worker *w, double *gbs)
{
	size_t free_b = 0, total = 0;
	CU(w->d.cuMemGetInfo(&free_b, &total), "cuMemGetInfo");
	size_t bytes = (size_t)512 << 20;
	if (bytes > free_b / 4)
		bytes = free_b / 4 & ~(size_t)0xfff;
	CUdeviceptr a = 0, b = 0;
	CUevent e0 = NULL, e1 = NULL;
	double t[10];
	int rc = kt_cu_check(&w->d, w->d.cuMemAlloc(&a, bytes), "cuMemAlloc");
	rc = rc ? rc
	        : kt_cu_check(&w->d, w->d.cuMemAlloc(&b, bytes), "cuMemAlloc");
	rc = rc ? rc
	        : kt_cu_check(&w->d, w->d.cuEventCreate(&e0, 0),
	                      "cuEventCreate");
	rc = rc ? rc
	        : kt_cu_check(&w->d, w->d.cuEventCreate(&e1, 0),
	                      "cuEventCreate");
	for (int i = -3; !rc && i < 10; i++) {
		float ms = 0;
		w->d.cuEventRecord(e0, w->stream);
		w->d.cuMemcpyDtoDAsync(b, a, bytes, w->stream);
		w->d.cuEventRecord(e1, w->stream);
		rc = kt_cu_check(&w->d, w->d.cuStreamSynchronize(w->stream),
		                 "copy bandwidth");
		if (!rc && i >= 0) {
			w->d.cuEventElapsedTime(&ms, e0, e1);
			t[i] = ms;
		}
	}
	for (int i = 0; !rc && i < 10; i++) /* insertion sort for the median */
		for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
			double x = t[j];
			t[j] = t[j - 1];
			t[j - 1] = x;
		}
	if (!rc)
		*gbs = 2.0 * (double)bytes / ((t[4] + t[5]) / 2 * 1e-3) / 1e9;
	if (e0)
		w->d.cuEventDestroy(e0);
	if (e1)
		w->d.cuEventDestroy(e1);
	if (a)
		w->d.cuMemFree(a);
	if (b)
		w->d.cuMemFree(b);
	return rc;
}

/*
 * The L2 flush reads a buffer of twice the L2's size. Reading rather than
 * writing it (a memset) matters: a written buffer leaves the L2 full of
 * dirty lines, and the write-back of those lands in the next kernel's time
 * (seen on an H200: a third more DRAM writes than the kernel makes).
 */
static const char flush_source[] =
    "extern \"C\" __global__ void ktc_flush(const uint4 *p,\n"
    "                                       unsigned long long n,\n"
    "                                       unsigned *sink)\n"
    "{\n"
    "\tunsigned acc = 0;\n"
    "\tunsigned long long i = blockIdx.x * (unsigned long long)blockDim.x\n"
    "\t                       + threadIdx.x;\n"
    "\tfor (; i < n; i += (unsigned long long)gridDim.x * blockDim.x) {\n"
    "\t\tuint4 v = p[i];\n"
    "\t\tacc ^= v.x ^ v.y ^ v.z ^ v.w;\n"
    "\t}\n"
    "\tif (acc == 0x9e3779b9u) /* never: it keeps the loads */\n"
    "\t\t*sink = acc;\n"
    "}\n"
    "\n"
    "/* The first 16-byte word (then byte) where a and b differ. */\n"
    "extern \"C\" __global__ void ktc_same(const unsigned char *a,\n"
    "                                      const unsigned char *b,\n"
    "                                      unsigned long long n,\n"
    "                                      unsigned long long *first)\n"
    "{\n"
    "\tunsigned long long t = blockIdx.x * (unsigned long long)blockDim.x\n"
    "\t                       + threadIdx.x;\n"
    "\tunsigned long long s = (unsigned long long)gridDim.x * blockDim.x;\n"
    "\tconst uint4 *x = (const uint4 *)a, *y = (const uint4 *)b;\n"
    "\tfor (unsigned long long i = t; i < n / 16; i += s) {\n"
    "\t\tuint4 u = x[i], v = y[i];\n"
    "\t\tif (u.x != v.x || u.y != v.y || u.z != v.z || u.w != v.w)\n"
    "\t\t\tatomicMin(first, i * 16);\n"
    "\t}\n"
    "\tfor (unsigned long long i = n / 16 * 16 + t; i < n; i += s)\n"
    "\t\tif (a[i] != b[i])\n"
    "\t\t\tatomicMin(first, i);\n"
    "}\n";

static int load_flush_kernel(kt_cu_worker *w)
{
	char arch[32];
	snprintf(arch, sizeof(arch), "sm_%d%d",
	         kt_cu_attr(w, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
	         kt_cu_attr(w, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
	kt_cu_source src = {
	    flush_source, "ktc_flush.cu", "ktc_flush", arch, NULL, 0, NULL};
	kt_cu_binary bin;
	int rc = kt_cu_compile(&bin, &src, NULL);
	if (!rc && !bin.ok)
		rc = kt_error(KT_EBACKEND,
		              "the L2 flush kernel does not compile: %s",
		              bin.log);
	if (!rc)
		rc = kt_cu_check(
		    &w->d, w->d.cuModuleLoadData(&w->flush_mod, bin.image),
		    "cuModuleLoadData (L2 flush)");
	if (!rc)
		rc = kt_cu_check(&w->d,
		                 w->d.cuModuleGetFunction(
		                     &w->flush_fn, w->flush_mod, bin.lowered),
		                 "cuModuleGetFunction (L2 flush)");
	if (!rc)
		rc = kt_cu_check(&w->d,
		                 w->d.cuModuleGetFunction(
		                     &w->same_fn, w->flush_mod, "ktc_same"),
		                 "cuModuleGetFunction (compare)");
	if (!rc)
		rc = kt_cu_check(&w->d, w->d.cuMemAlloc(&w->same_at, 8),
		                 "cuMemAlloc (compare)");
	kt_cu_binary_release(&bin);
	return rc;
}

CUresult kt_cu_same(kt_cu_worker *w, CUdeviceptr a, CUdeviceptr b, size_t n,
                    size_t *first)
{
	unsigned long long bytes = n, at = 0;
	void *args[] = {&a, &b, &bytes, &w->same_at};
	unsigned sms =
	    (unsigned)kt_cu_attr(w, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
	CUresult r = w->d.cuMemsetD8Async(w->same_at, 0xff, 8, w->stream);
	if (r == CUDA_SUCCESS)
		r = w->d.cuLaunchKernel(w->same_fn, sms * 4, 1, 1, 512, 1, 1, 0,
		                        w->stream, args, NULL);
	if (r == CUDA_SUCCESS)
		r = w->d.cuStreamSynchronize(w->stream);
	if (r == CUDA_SUCCESS)
		r = w->d.cuMemcpyDtoH(&at, w->same_at, 8);
	if (r != CUDA_SUCCESS)
		return r;
	if (at >= n) {
		*first = n;
		return CUDA_SUCCESS;
	}
	/* a differing 16-byte word: which of its bytes */
	unsigned char u[16], v[16];
	size_t len = n - at < 16 ? n - at : 16;
	r = w->d.cuMemcpyDtoH(u, a + at, len);
	if (r == CUDA_SUCCESS)
		r = w->d.cuMemcpyDtoH(v, b + at, len);
	size_t k = 0;
	while (k + 1 < len && u[k] == v[k])
		k++;
	*first = at + k;
	return r;
}

CUresult kt_cu_output_vs(kt_cu_worker *w, const kt_cu_inst *in, size_t a,
                         CUdeviceptr ref, bool *same)
{
	size_t bytes = in->bufs[a].bytes, at = 0;
	CUresult r = CUDA_SUCCESS;
	*same = false;
	if (ref) {
		r = kt_cu_same(w, in->bufs[a].ptr, ref, bytes, &at);
		*same = r == CUDA_SUCCESS && at == bytes;
	}
	if (r == CUDA_SUCCESS && !*same && bytes)
		r = w->d.cuMemcpyDtoH(w->host[a], in->bufs[a].ptr, bytes);
	return r;
}

CUresult kt_cu_flush(kt_cu_worker *w)
{
	unsigned long long n = w->flush_bytes / 16;
	void *args[] = {&w->flush, &n, &w->sink};
	unsigned sms =
	    (unsigned)kt_cu_attr(w, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
	return w->d.cuLaunchKernel(w->flush_fn, sms * 4, 1, 1, 512, 1, 1, 0,
	                           w->stream, args, NULL);
}

static int open_context(kt_cu_worker *w, const char *device)
{
	int rc = kt_cu_driver_load(&w->d);
	if (rc)
		return rc;
	w->loaded = true;
	CU(w->d.cuInit(0), "cuInit");
	rc = pick_device(w, device);
	if (rc)
		return rc;
	CU(w->d.cuDevicePrimaryCtxRetain(&w->ctx, w->dev),
	   "cuDevicePrimaryCtxRetain");
	CU(w->d.cuCtxSetCurrent(w->ctx), "cuCtxSetCurrent");
	/* a blocking stream: ordered with the synchronous copies of set-up */
	CU(w->d.cuStreamCreate(&w->stream, CU_STREAM_DEFAULT),
	   "cuStreamCreate");
	for (int i = 0; i < KT_CU_NATTRS; i++)
		CU(w->d.cuDeviceGetAttribute(&w->attrs[i], kt_cu_attrs[i],
		                             w->dev),
		   "cuDeviceGetAttribute");
	/* twice the L2, so a flush leaves nothing of the kernel's data there */
	size_t l2 = (size_t)kt_cu_attr(w, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
	w->flush_bytes =
	    l2 * 2 > ((size_t)32 << 20) ? l2 * 2 : (size_t)32 << 20;
	CU(w->d.cuMemAlloc(&w->flush, w->flush_bytes), "cuMemAlloc (L2 flush)");
	CU(w->d.cuMemAlloc(&w->sink, 16), "cuMemAlloc (L2 flush)");
	CU(w->d.cuMemsetD32Async(w->flush, 0x3f800000, w->flush_bytes / 4,
	                         w->stream),
	   "cuMemsetD32Async (L2 flush)");
	rc = load_flush_kernel(w);
	w->open = rc == 0;
	return rc;
}

static int put_info(kt_cu_worker *w, kt_str *s, bool measure)
{
	char name[256] = "", drv[96];
	int version = 0;
	size_t total = 0;
	double gbs = 0;
	CU(w->d.cuDeviceGetName(name, sizeof(name), w->dev), "cuDeviceGetName");
	CU(w->d.cuDriverGetVersion(&version), "cuDriverGetVersion");
	CU(w->d.cuDeviceTotalMem(&total, w->dev), "cuDeviceTotalMem");
	if (measure) {
		int rc = measure_copy(w, &gbs);
		if (rc)
			return rc;
	}
	driver_text(drv, sizeof(drv), version);
	int rc = kt_cu_put_str(s, name) | kt_cu_put_str(s, drv) |
	         kt_cu_put_u64(s, total) | kt_cu_put_f64(s, gbs);
	for (int i = 0; i < KT_CU_NATTRS; i++)
		rc |= kt_cu_put_u64(s, (uint64_t)(int64_t)w->attrs[i]);
	return rc ? kt_error(KT_ENOMEM, "out of memory") : 0;
}

static int handle_open(kt_cu_worker *w, kt_cu_reader *r)
{
	const char *device = kt_cu_get_str(r);
	w->profile = kt_cu_get_u32(r) != 0;
	bool measure = kt_cu_get_u32(r) != 0;
	kt_str s = KT_STR_INIT;
	int rc = open_context(w, device);
	if (!rc)
		rc = put_info(w, &s, measure);
	if (rc) {
		kt_str_release(&s);
		return kt_cu_reply_fail(w, rc);
	}
	rc = kt_cu_send(w->fd, KT_CU_INFO, &s);
	kt_str_release(&s);
	return rc;
}

static void free_problem(kt_cu_worker *w)
{
	for (size_t i = 0; i < w->ninst; i++) {
		kt_cu_inst *in = &w->inst[i];
		for (size_t j = 0; in->pristine && j < in->nseeds * w->nargs;
		     j++) {
			if (in->pristine[j])
				w->d.cuMemFree(in->pristine[j]);
			if (in->ref_dev && in->ref_dev[j])
				w->d.cuMemFree(in->ref_dev[j]);
			kt_free(in->ref[j]);
		}
		for (size_t a = 0; in->bufs && a < w->nargs; a++) {
			if (in->bufs[a].base)
				w->d.cuMemFree(in->bufs[a].base);
			if (in->verified && in->verified[a])
				w->d.cuMemFree(in->verified[a]);
		}
		kt_free(in->verified);
		kt_free(in->ref_dev);
		kt_free(in->pristine);
		kt_free(in->ref);
		kt_free(in->bufs);
		kt_free(in->counts);
	}
	for (size_t a = 0; w->host && a < w->nargs; a++)
		kt_free(w->host[a]);
	kt_free(w->host);
	kt_free(w->host_cap);
	kt_free(w->inst);
	kt_free(w->args);
	w->host = NULL;
	w->host_cap = NULL;
	w->inst = NULL;
	w->args = NULL;
	w->ninst = w->nargs = 0;
}

static void read_args(kt_cu_worker *w, kt_cu_reader *r)
{
	for (size_t a = 0; a < w->nargs; a++) {
		kt_cu_arg *g = &w->args[a];
		snprintf(g->name, sizeof(g->name), "%s", kt_cu_get_str(r));
		g->is_buffer = kt_cu_get_u32(r) != 0;
		g->type = kt_cu_get_u32(r);
		g->dir = kt_cu_get_u32(r);
		g->init = kt_cu_get_u32(r);
		g->lo = kt_cu_get_f64(r);
		g->hi = kt_cu_get_f64(r);
		g->value = kt_cu_get_f64(r);
		g->rtol = kt_cu_get_f64(r);
		g->atol = kt_cu_get_f64(r);
		g->match = kt_cu_get_f64(r);
		if (g->type >= KT_TYPE_COUNT_)
			r->bad = true;
	}
}

static size_t arg_bytes(const kt_cu_worker *w, const kt_cu_inst *in, size_t a)
{
	return in->counts[a] * kt_type_size((kt_type)w->args[a].type);
}

static bool is_input(const kt_cu_arg *g)
{
	return g->is_buffer && g->dir != KT_ARG_OUT;
}

static bool is_output(const kt_cu_arg *g)
{
	return g->is_buffer && g->dir != KT_ARG_IN;
}

const char *kt_cu_seed_name(const kt_cu_inst *in, size_t k, char *buf,
                            size_t size)
{
	if (k >= in->nseeds - in->nspecial)
		snprintf(buf, size,
		         "inputs with NaN, Inf, subnormals and -0 mixed in "
		         "(seed %zu)",
		         k);
	else
		snprintf(buf, size, "input seed %zu", k);
	return buf;
}

/* Generates input a for seed k on the host and keeps a device copy. */
static int make_pristine(kt_cu_worker *w, kt_cu_inst *in, size_t inst_idx,
                         size_t k, size_t a)
{
	const kt_cu_arg *g = &w->args[a];
	size_t bytes = arg_bytes(w, in, a);
	CUdeviceptr *dst = &in->pristine[k * w->nargs + a];
	CU(w->d.cuMemAlloc(dst, bytes ? bytes : 1), "cuMemAlloc (inputs)");
	kt_init init = {(kt_init_kind)g->init, g->lo, g->hi, g->value};
	uint64_t seed = w->seed + inst_idx * 1000003u + k;
	kt_buf_fill(w->host[a], (kt_type)g->type, in->counts[a], &init, seed,
	            a);
	if (k >= in->nseeds - in->nspecial && init.kind == KT_INIT_RANDOM)
		kt_buf_specials(w->host[a], (kt_type)g->type, in->counts[a],
		                seed, a);
	CU(w->d.cuMemcpyHtoD(*dst, w->host[a], bytes), "cuMemcpyHtoD (inputs)");
	return kt_cu_beat(w);
}

static int alloc_instance(kt_cu_worker *w, kt_cu_inst *in, size_t idx)
{
	size_t n = in->nseeds * w->nargs;
	in->bufs = kt_calloc(w->nargs, sizeof(kt_cu_buf));
	in->pristine = kt_calloc(n, sizeof(CUdeviceptr));
	in->ref = kt_calloc(n, sizeof(void *));
	in->ref_dev = kt_calloc(n, sizeof(CUdeviceptr));
	if (!in->bufs || !in->pristine || !in->ref || !in->ref_dev)
		return kt_error(KT_ENOMEM, "out of memory");
	for (size_t a = 0; a < w->nargs; a++) {
		if (!w->args[a].is_buffer)
			continue;
		kt_cu_buf *b = &in->bufs[a];
		b->bytes = arg_bytes(w, in, a);
		CU(w->d.cuMemAlloc(&b->base, b->bytes + 2 * KT_CU_GUARD),
		   "cuMemAlloc (arguments)");
		b->ptr = b->base + KT_CU_GUARD;
		for (size_t k = 0; k < in->nseeds; k++) {
			int rc = 0;
			if (is_input(&w->args[a]))
				rc = make_pristine(w, in, idx, k, a);
			if (!rc && is_output(&w->args[a]) &&
			    !(in->ref[k * w->nargs + a] =
			          kt_malloc(b->bytes + 1)))
				rc = kt_error(KT_ENOMEM, "out of memory");
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* A device copy of reference output j (argument a) for the checks'
 * compares on the device; none where memory is short. */
static void keep_on_device(kt_cu_worker *w, kt_cu_inst *in, size_t j, size_t a)
{
	size_t bytes = in->bufs[a].bytes;
	if (!w->same_fn || !bytes || in->ref_dev[j])
		return;
	if (w->d.cuMemAlloc(&in->ref_dev[j], bytes) != CUDA_SUCCESS) {
		in->ref_dev[j] = 0;
		return;
	}
	if (w->d.cuMemcpyDtoDAsync(in->ref_dev[j], in->bufs[a].ptr, bytes,
	                           w->stream) != CUDA_SUCCESS ||
	    w->d.cuStreamSynchronize(w->stream) != CUDA_SUCCESS) {
		w->d.cuMemFree(in->ref_dev[j]);
		in->ref_dev[j] = 0;
	}
}

/*
 * The reference's outputs for seed k: two runs with different poison
 * bytes must agree, or the default configuration leaves elements unwritten
 * (or is not deterministic) and cannot be a reference.
 */
static int reference_outputs(kt_cu_worker *w, kt_cu_inst *in, size_t k,
                             const kt_cu_prog *p, const kt_cu_launch *l)
{
	kt_status st = KT_STATUS_OK;
	kt_str why = KT_STR_INIT;
	char seed[96];
	int rc = 0;
	for (unsigned pass = 0; !rc && pass < 2; pass++) {
		/* the second run's outputs are compared on the device where
		 * it can: bytes equal to the first's need no copy back */
		rc = kt_cu_check_run(w, in, k, pass, p, l,
		                     pass == 0 || !w->same_fn, &st, &why);
		if (rc || st != KT_STATUS_OK) {
			rc = rc ? rc
			        : kt_error(KT_EBACKEND,
			                   "the default configuration fails at "
			                   "%s, %s: %s",
			                   in->label,
			                   kt_cu_seed_name(in, k, seed,
			                                   sizeof(seed)),
			                   why.ptr);
			break;
		}
		for (size_t a = 0; a < w->nargs && !rc; a++) {
			if (!is_output(&w->args[a]))
				continue;
			void *ref = in->ref[k * w->nargs + a];
			size_t bytes = arg_bytes(w, in, a);
			if (pass == 0) {
				memcpy(ref, w->host[a], bytes);
				keep_on_device(w, in, k * w->nargs + a, a);
				continue;
			}
			if (w->same_fn) {
				bool same = false;
				CUresult r = kt_cu_output_vs(
				    w, in, a, in->ref_dev[k * w->nargs + a],
				    &same);
				if (r != CUDA_SUCCESS) {
					rc = kt_cu_check(&w->d, r,
					                 "reading outputs");
					break;
				}
				if (same)
					continue;
			}
			const kt_cu_arg *g = &w->args[a];
			kt_tolerance tol = {g->rtol, g->atol, g->match};
			kt_verify_report rep;
			if (g->match >= 0 &&
			    !kt_cu_compare(&rep, w->host[a], ref,
			                   (kt_type)g->type, in->counts[a],
			                   &tol)) {
				kt_str_clear(&why);
				kt_verify_describe(&why, g->name, &rep, &tol);
				rc = kt_error(
				    KT_EBACKEND,
				    "the default configuration gives "
				    "different outputs in two runs at "
				    "%s, %s (an element left unwritten, "
				    "or a race): %s",
				    in->label,
				    kt_cu_seed_name(in, k, seed, sizeof(seed)),
				    why.ptr);
			}
		}
	}
	kt_str_release(&why);
	return rc;
}

static int setup_instance(kt_cu_worker *w, kt_cu_reader *r, size_t idx)
{
	kt_cu_inst *in = &w->inst[idx];
	snprintf(in->label, sizeof(in->label), "%s", kt_cu_get_str(r));
	in->nseeds = kt_cu_get_u32(r);
	in->nspecial = kt_cu_get_u32(r);
	in->counts = kt_calloc(w->nargs ? w->nargs : 1, sizeof(uint64_t));
	uint64_t *scalars = kt_calloc(w->nargs ? w->nargs : 1, 8);
	if (!in->counts || !scalars) {
		kt_free(scalars);
		return kt_error(KT_ENOMEM, "out of memory");
	}
	for (size_t a = 0; a < w->nargs; a++)
		in->counts[a] = kt_cu_get_u64(r);
	kt_cu_launch l = {.scalars = scalars};
	kt_cu_get_launch(r, &l, w->nargs);
	int rc = r->bad || in->nseeds == 0 || in->nspecial >= in->nseeds
	             ? kt_error(KT_EBACKEND, "malformed PROBLEM message")
	             : 0;
	for (size_t a = 0; !rc && a < w->nargs; a++) {
		size_t bytes = arg_bytes(w, in, a) + 1;
		if (!w->args[a].is_buffer || bytes <= w->host_cap[a])
			continue;
		/* pageable: pinning hundreds of megabytes costs more than
		 * the few copies back that it would speed up, now that
		 * outputs are compared on the device */
		kt_free(w->host[a]);
		w->host_cap[a] = 0;
		w->host[a] = kt_malloc(bytes);
		if (!w->host[a])
			rc = kt_error(KT_ENOMEM,
			              "out of memory: %zu bytes of host memory "
			              "for argument '%s'",
			              bytes, w->args[a].name);
		else
			w->host_cap[a] = bytes;
	}
	rc = rc ? rc : alloc_instance(w, in, idx);
	if (!rc) /* pageable copies may still be in flight on the legacy stream
	          */
		rc = kt_cu_check(&w->d,
		                 w->d.cuStreamSynchronize(CU_STREAM_LEGACY),
		                 "set-up");
	kt_cu_prog p = {0};
	kt_status st = KT_STATUS_OK;
	kt_str why = KT_STR_INIT;
	if (!rc && !(rc = kt_cu_prog_load(w, &p, &l, &st, &why)) &&
	    st != KT_STATUS_OK)
		rc = kt_error(KT_EBACKEND,
		              "the default configuration cannot "
		              "run at %s: %s",
		              in->label, why.ptr);
	for (size_t k = 0; !rc && k < in->nseeds; k++)
		rc = reference_outputs(w, in, k, &p, &l);
	kt_cu_prog_unload(w, &p);
	kt_str_release(&why);
	kt_free(scalars);
	return rc;
}

static int handle_problem(kt_cu_worker *w, kt_cu_reader *r)
{
	free_problem(w);
	w->seed = kt_cu_get_u64(r);
	w->nargs = kt_cu_get_u32(r);
	w->ninst = kt_cu_get_u32(r);
	w->args = kt_calloc(w->nargs ? w->nargs : 1, sizeof(kt_cu_arg));
	w->host = kt_calloc(w->nargs ? w->nargs : 1, sizeof(void *));
	w->host_cap = kt_calloc(w->nargs ? w->nargs : 1, sizeof(size_t));
	w->inst = kt_calloc(w->ninst ? w->ninst : 1, sizeof(kt_cu_inst));
	int rc = (!w->args || !w->host || !w->host_cap || !w->inst)
	             ? kt_error(KT_ENOMEM, "out of memory")
	             : 0;
	if (!rc && !w->open)
		rc = kt_error(KT_EBACKEND, "PROBLEM before OPEN");
	if (!rc)
		read_args(w, r);
	for (size_t i = 0; !rc && i < w->ninst; i++)
		rc = setup_instance(w, r, i);
	if (rc) {
		int lost = w->broken;
		free_problem(w);
		rc = kt_cu_reply_fail(w, rc);
		return rc ? rc : (lost ? KT_EBACKEND : 0);
	}
	return kt_cu_send(w->fd, KT_CU_READY, NULL);
}

static int dispatch(kt_cu_worker *w, uint32_t type, kt_cu_reader *r)
{
	switch (type) {
	case KT_CU_OPEN: return handle_open(w, r);
	case KT_CU_PROBLEM: return handle_problem(w, r);
	case KT_CU_EVAL: return kt_cu_eval(w, r);
	default: return kt_error(KT_EBACKEND, "unexpected message %u", type);
	}
}

static int worker_loop(int fd)
{
	kt_cu_worker w = {.fd = fd};
	int rc = 0;
	for (;;) {
		uint32_t type = 0;
		char *msg = NULL;
		size_t len = 0;
		rc = kt_cu_recv(fd, &type, &msg, &len, 0);
		if (rc == KT_CU_EOF || (rc == 0 && type == KT_CU_QUIT)) {
			kt_free(msg);
			rc = 0;
			break;
		}
		if (rc) {
			kt_free(msg);
			break;
		}
		kt_cu_reader r = {msg, len, 0, false};
		w.last_beat = kt_cu_now();
		rc = dispatch(&w, type, &r);
		kt_free(msg);
		if (rc || w.broken)
			break;
	}
	if (rc)
		fprintf(stderr, "ktc: cuda worker: %s\n", kt_error_last());
	if (w.open && !w.broken) {
		kt_cu_profile_close(&w);
		free_problem(&w);
	}
	return rc ? 1 : (w.broken ? 3 : 0);
}

int kt_cuda_worker_main(int argc, char **argv)
{
	bool compiler = argc >= 3 && !strcmp(argv[1], "--compile");
	char *end = NULL;
	long fd = argc >= 2 ? strtol(argv[compiler ? 2 : 1], &end, 10) : -1;
	if (fd < 0 || !end || *end) {
		fprintf(stderr, "ktc: __cuda-worker is started by the CUDA "
		                "backend, not by hand\n");
		return 2;
	}
	return compiler ? kt_cu_compiler_main((int)fd) : worker_loop((int)fd);
}
