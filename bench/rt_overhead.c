/*
 * rt_overhead.c - the host cost of a launch through the runtime library
 * (kt_rt_launch on the warm path: the shape already resolved) against a
 * plain cuLaunchKernel of the same kernel, compiled here with NVRTC from
 * the same template at its defaults. Launches go in batches, alternating
 * the two, each batch timed on the host clock without a synchronisation
 * inside; a launch's cost is the median batch time over the batch size.
 * Also times the first launch's preparation at a shape with an empty
 * cache (select, NVRTC, load) and with the cache filled (a new runtime).
 * Prints one JSON object. Needs a GPU.
 *
 *   ktc-rt-overhead EMPTY.kt.cu [--batches 200] [--launches 100]
 */
#include <ktc/rt.h>

#include <cuda.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

static void die(const char *what, const char *why)
{
	fprintf(stderr, "ktc-rt-overhead: %s: %s\n", what, why);
	exit(1);
}

static void cu(CUresult r, const char *what)
{
	const char *name = NULL;
	if (r != CUDA_SUCCESS) {
		cuGetErrorName(r, &name);
		die(what, name ? name : "CUDA error");
	}
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		die(path, "cannot open");
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *text = calloc((size_t)n + 1, 1);
	if (!text || fread(text, 1, (size_t)n, f) != (size_t)n)
		die(path, "cannot read");
	fclose(f);
	return text;
}

/* The same kernel, compiled by NVRTC at the template's defaults. */
static CUfunction plain_kernel(const char *path, const char *arch)
{
	char *text = slurp(path);
	nvrtcProgram prog;
	char opt[64];
	snprintf(opt, sizeof(opt), "-arch=%s", arch);
	const char *opts[] = {opt, "-default-device", "--std=c++17"};
	if (nvrtcCreateProgram(&prog, text, path, 0, NULL, NULL) ||
	    nvrtcCompileProgram(prog, 3, opts))
		die(path, "NVRTC failed");
	size_t n = 0;
	nvrtcGetCUBINSize(prog, &n);
	char *cubin = malloc(n);
	if (!cubin || nvrtcGetCUBIN(prog, cubin))
		die(path, "no cubin");
	nvrtcDestroyProgram(&prog);
	CUmodule mod;
	CUfunction fn;
	cu(cuModuleLoadData(&mod, cubin), "cuModuleLoadData");
	cu(cuModuleGetFunction(&fn, mod, "ktc_empty"), "cuModuleGetFunction");
	free(cubin);
	free(text);
	return fn;
}

static int cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

static double prepare_us(const char *tpl, const char *cache)
{
	kt_rt_options o = {.cache_dir = cache};
	kt_rt *rt;
	kt_rt_kernel *k;
	int64_t n = 1;
	if (kt_rt_open(&rt, &o) || kt_rt_load(&k, rt, tpl, NULL, NULL))
		die("kt_rt", kt_rt_error());
	double t0 = now_us();
	if (kt_rt_prepare(k, &n))
		die("kt_rt_prepare", kt_rt_error());
	double t = now_us() - t0;
	kt_rt_close(rt);
	return t;
}

int main(int argc, char **argv)
{
	const char *tpl = NULL;
	int batches = 200, launches = 100;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--batches") && i + 1 < argc)
			batches = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--launches") && i + 1 < argc)
			launches = atoi(argv[++i]);
		else
			tpl = argv[i];
	}
	if (!tpl || batches < 1 || launches < 1) {
		fprintf(stderr, "usage: ktc-rt-overhead EMPTY.kt.cu "
		                "[--batches N] [--launches N]\n");
		return 2;
	}
	kt_rt *rt;
	kt_rt_kernel *k;
	kt_rt_options o = {0};
	if (kt_rt_open(&rt, &o) || kt_rt_load(&k, rt, tpl, NULL, NULL))
		die("kt_rt", kt_rt_error());
	CUfunction fn = plain_kernel(tpl, kt_rt_device_arch(rt));
	CUstream s;
	CUdeviceptr p;
	cu(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
	cu(cuMemAlloc(&p, 256), "cuMemAlloc");
	int64_t n = 1;
	int nval = 1;
	void *rt_args[2] = {&p, NULL}, *plain_args[2] = {&p, &nval};
	if (kt_rt_prepare(k, &n))
		die("kt_rt_prepare", kt_rt_error());
	double *trt = calloc((size_t)batches, sizeof(double));
	double *tpl_ = calloc((size_t)batches, sizeof(double));
	if (!trt || !tpl_)
		die("calloc", "out of memory");
	for (int b = -5; b < batches; b++) { /* 5 batches of warm-up */
		for (int which = 0; which < 2; which++) {
			cu(cuStreamSynchronize(s), "sync");
			double t0 = now_us();
			for (int i = 0; i < launches; i++) {
				if (which == 0 &&
				    kt_rt_launch(k, &n, rt_args, s))
					die("kt_rt_launch", kt_rt_error());
				if (which == 1)
					cu(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1,
					                  0, s, plain_args,
					                  NULL),
					   "cuLaunchKernel");
			}
			double t = (now_us() - t0) / launches;
			if (b >= 0)
				(which ? tpl_ : trt)[b] = t;
		}
	}
	cu(cuStreamSynchronize(s), "sync");
	qsort(trt, (size_t)batches, sizeof(double), cmp);
	qsort(tpl_, (size_t)batches, sizeof(double), cmp);
	char dir[] = "/tmp/ktc-rt-overhead-XXXXXX";
	if (!mkdtemp(dir))
		die("mkdtemp", "failed");
	double cold = prepare_us(tpl, dir), warm = prepare_us(tpl, dir);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "ktc-rt-overhead: could not remove %s\n", dir);
	printf("{\"device\": \"%s\", \"batches\": %d, \"launches\": %d, "
	       "\"rt_launch_us\": %.4f, \"plain_launch_us\": %.4f, "
	       "\"overhead_us\": %.4f, \"rt_p90_us\": %.4f, "
	       "\"plain_p90_us\": %.4f, \"first_call_compile_us\": %.1f, "
	       "\"first_call_cached_us\": %.1f}\n",
	       kt_rt_device_name(rt), batches, launches, trt[batches / 2],
	       tpl_[batches / 2], trt[batches / 2] - tpl_[batches / 2],
	       trt[batches * 9 / 10], tpl_[batches * 9 / 10], cold, warm);
	kt_rt_close(rt);
	return 0;
}
