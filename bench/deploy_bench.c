/*
 * deploy_bench.c - times a tuned kernel through the runtime library
 * (ktc/rt.h) at many shapes, for bench/deploy.sh: per shape, per variant
 * (a wisdom file, or none for the template's defaults, which are the
 * original kernel) and per mode (cold: one launch after an L2 flush,
 * inputs restored; graph: the steady state of back-to-back launches
 * replayed from a CUDA graph), the median of the timed runs. Each
 * variant's outputs are compared with the defaults' on the same inputs
 * first. Prints one JSON object per line.
 *
 *   ktc-deploy-bench TEMPLATE --kernel K --problem D=14336 --vary T
 *       --shapes 1,4,16 --variant NAME:COLD_WISDOM:GRAPH_WISDOM...
 *       [--modes cold,graph] [--runs 30] [--batch 20] [--flush FLUSH.kt.cu]
 *
 * A wisdom "-" means none (the defaults). The first variant is the
 * reference of the output check. Needs a GPU; links libcuda and libktcrt.
 */
#include <ktc/rt.h>

#include <cuda.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_VARIANTS = 8, MAX_ARGS = 64, MAX_SHAPES = 64, MAX_FIXED = 8 };

typedef struct variant {
	char name[64];
	kt_rt_kernel *k[2]; /* per mode: cold, graph */
} variant;

typedef struct bench {
	const char *tpl, *kernel, *vary, *flush_tpl;
	const char *fixed[MAX_FIXED];
	int nfixed;
	int64_t shapes[MAX_SHAPES];
	int nshapes;
	variant v[MAX_VARIANTS];
	int nv;
	int modes; /* bit 0 cold, bit 1 graph */
	int runs, batch;
	kt_rt *rt;
	kt_rt_kernel *flush;
	CUstream stream;
	CUevent ev[2 * 1024];
	CUdeviceptr flush_buf, sink;
	int64_t flush_n;
} bench;

/* One shape's buffers: per argument the live one, its pristine copy (in
 * and inout), and the host copy of the reference outputs. */
typedef struct bufs {
	size_t nargs;
	CUdeviceptr dev[MAX_ARGS], pristine[MAX_ARGS];
	size_t bytes[MAX_ARGS];
	int dir[MAX_ARGS];
	const char *type[MAX_ARGS];
	unsigned char *ref[MAX_ARGS];
} bufs;

static void die(const char *what, const char *why)
{
	fprintf(stderr, "ktc-deploy-bench: %s: %s\n", what, why);
	exit(1);
}

static void cu(CUresult r, const char *what)
{
	const char *name = NULL;
	if (r == CUDA_SUCCESS)
		return;
	cuGetErrorName(r, &name);
	die(what, name ? name : "CUDA error");
}

static void rt(int rc, const char *what)
{
	if (rc)
		die(what, kt_rt_error());
}

static size_t type_size(const char *t)
{
	if (!strcmp(t, "f64") || !strcmp(t, "i64") || !strcmp(t, "u64"))
		return 8;
	if (!strcmp(t, "f32") || !strcmp(t, "i32") || !strcmp(t, "u32"))
		return 4;
	if (!strcmp(t, "f16") || !strcmp(t, "bf16") || !strcmp(t, "i16") ||
	    !strcmp(t, "u16"))
		return 2;
	return 1;
}

/* ---- the command line ------------------------------------------------- */

static void parse_shapes(bench *b, const char *text)
{
	for (const char *p = text; *p && b->nshapes < MAX_SHAPES;) {
		char *end;
		b->shapes[b->nshapes++] = strtoll(p, &end, 10);
		if (end == p || (*end && *end != ','))
			die("--shapes", "expected numbers separated by commas");
		p = *end ? end + 1 : end;
	}
}

static void parse_variant(bench *b, const char *text, char *names[][2])
{
	if (b->nv == MAX_VARIANTS)
		die("--variant", "too many");
	char *copy = strdup(text), *save = NULL;
	char *name = strtok_r(copy, ":", &save);
	char *cold = strtok_r(NULL, ":", &save);
	char *graph = strtok_r(NULL, ":", &save);
	if (!name || !cold || !graph)
		die("--variant", "expected NAME:COLD_WISDOM:GRAPH_WISDOM");
	snprintf(b->v[b->nv].name, sizeof(b->v[b->nv].name), "%s", name);
	names[b->nv][0] = strcmp(cold, "-") ? cold : NULL;
	names[b->nv][1] = strcmp(graph, "-") ? graph : NULL;
	b->nv++;
}

static void usage(void)
{
	fprintf(stderr,
	        "usage: ktc-deploy-bench TEMPLATE --kernel K --vary NAME "
	        "--shapes V,V,... [--problem NAME=V]... --variant "
	        "NAME:COLD_WISDOM:GRAPH_WISDOM... [--modes cold,graph] "
	        "[--runs N] [--batch N] [--flush FLUSH.kt.cu]\n");
	exit(2);
}

static void parse(bench *b, int argc, char **argv, char *names[][2])
{
	*b = (bench){.modes = 3, .runs = 30, .batch = 20};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (a[0] != '-') {
			b->tpl = a;
			continue;
		}
		if (!v)
			usage();
		i++;
		if (!strcmp(a, "--kernel"))
			b->kernel = v;
		else if (!strcmp(a, "--problem") && b->nfixed < MAX_FIXED)
			b->fixed[b->nfixed++] = v;
		else if (!strcmp(a, "--vary"))
			b->vary = v;
		else if (!strcmp(a, "--shapes"))
			parse_shapes(b, v);
		else if (!strcmp(a, "--variant"))
			parse_variant(b, v, names);
		else if (!strcmp(a, "--modes"))
			b->modes = (strstr(v, "cold") ? 1 : 0) |
			           (strstr(v, "graph") ? 2 : 0);
		else if (!strcmp(a, "--runs"))
			b->runs = atoi(v);
		else if (!strcmp(a, "--batch"))
			b->batch = atoi(v);
		else if (!strcmp(a, "--flush"))
			b->flush_tpl = v;
		else
			usage();
	}
	if (!b->tpl || !b->vary || !b->nshapes || !b->nv || !b->modes ||
	    b->runs < 1 || b->runs > 1000 || b->batch < 1)
		usage();
}

/* ---- set-up ------------------------------------------------------------ */

/* The copy bandwidth: a 256 MiB device-to-device copy, median of 10
 * after 3 warm-ups, bytes read plus written (as the tuner counts it). */
static double copy_gbs(bench *b)
{
	size_t n = (size_t)256 << 20;
	CUdeviceptr x, y;
	cu(cuMemAlloc(&x, n), "cuMemAlloc");
	cu(cuMemAlloc(&y, n), "cuMemAlloc");
	cu(cuMemsetD8Async(x, 1, n, b->stream), "cuMemsetD8Async");
	double t[10];
	for (int i = 0; i < 13; i++) {
		cu(cuEventRecord(b->ev[0], b->stream), "cuEventRecord");
		cu(cuMemcpyDtoDAsync(y, x, n, b->stream), "cuMemcpyDtoDAsync");
		cu(cuEventRecord(b->ev[1], b->stream), "cuEventRecord");
		cu(cuStreamSynchronize(b->stream), "copy");
		float ms = 0;
		cu(cuEventElapsedTime(&ms, b->ev[0], b->ev[1]), "elapsed");
		if (i >= 3)
			t[i - 3] = ms;
	}
	cuMemFree(x);
	cuMemFree(y);
	for (int i = 1; i < 10; i++) /* insertion sort */
		for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
			double s = t[j];
			t[j] = t[j - 1];
			t[j - 1] = s;
		}
	return 2.0 * (double)n / (t[5] * 1e-3) / 1e9;
}

static void set_up(bench *b, char *names[][2])
{
	CUdevice dev;
	CUcontext ctx;
	cu(cuInit(0), "cuInit");
	cu(cuDeviceGet(&dev, 0), "cuDeviceGet");
	cu(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
	cu(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
	cu(cuStreamCreate(&b->stream, CU_STREAM_NON_BLOCKING), "stream");
	for (int i = 0; i < 2 * 1024; i++)
		cu(cuEventCreate(&b->ev[i], 0), "cuEventCreate");
	kt_rt_options o = {.device = 0};
	rt(kt_rt_open(&b->rt, &o), "kt_rt_open");
	for (int v = 0; v < b->nv; v++)
		for (int m = 0; m < 2; m++)
			if (b->modes & (1 << m))
				rt(kt_rt_load(&b->v[v].k[m], b->rt, b->tpl,
				              b->kernel, names[v][m]),
				   names[v][m] ? names[v][m] : b->tpl);
	int l2 = 0;
	cu(cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev),
	   "L2 size");
	b->flush_n = 2 * (int64_t)l2 / 8;
	if (b->flush_tpl && (b->modes & 1)) {
		rt(kt_rt_load(&b->flush, b->rt, b->flush_tpl, NULL, NULL),
		   b->flush_tpl);
		cu(cuMemAlloc(&b->flush_buf, (size_t)b->flush_n * 8), "flush");
		cu(cuMemsetD8Async(b->flush_buf, 3, (size_t)b->flush_n * 8,
		                   b->stream),
		   "flush");
		cu(cuMemAlloc(&b->sink, 8), "flush");
	}
	printf("{\"device\": \"%s\", \"arch\": \"%s\", \"driver\": %d, "
	       "\"copy_gbs\": %.1f, \"l2_bytes\": %d}\n",
	       kt_rt_device_name(b->rt), kt_rt_device_arch(b->rt),
	       kt_rt_driver_version(b->rt), copy_gbs(b), l2);
	fflush(stdout);
}

/* ---- buffers ---------------------------------------------------------- */

/* Uniform [-1, 1) as the argument's type, from a xorshift stream. */
static void fill(unsigned char *h, size_t bytes, const char *type, uint64_t *s)
{
	size_t size = type_size(type);
	for (size_t i = 0; i + size <= bytes; i += size) {
		*s ^= *s << 13;
		*s ^= *s >> 7;
		*s ^= *s << 17;
		float f =
		    (float)((double)(*s >> 11) / 9007199254740992.0) * 2 - 1;
		uint32_t u;
		memcpy(&u, &f, 4);
		if (!strcmp(type, "bf16")) {
			uint16_t x = (uint16_t)(u >> 16);
			memcpy(h + i, &x, 2);
		} else if (!strcmp(type, "f32")) {
			memcpy(h + i, &f, 4);
		} else {
			memset(h + i, (int)(*s & 0x3f), size);
		}
	}
}

static void make_bufs(bench *b, kt_rt_kernel *k, const int64_t *p, bufs *u)
{
	memset(u, 0, sizeof(*u));
	u->nargs = kt_rt_nargs(k);
	uint64_t seed = 0x2545f4914f6cdd1dULL;
	for (size_t a = 0; a < u->nargs; a++) {
		uint64_t count = 0;
		u->dir[a] = kt_rt_arg_dir(k, a);
		u->type[a] = kt_rt_arg_type(k, a);
		if (u->dir[a] < 0)
			continue;
		rt(kt_rt_arg_count(k, p, a, &count), "kt_rt_arg_count");
		u->bytes[a] = count * type_size(u->type[a]);
		size_t n = u->bytes[a] ? u->bytes[a] : 1;
		cu(cuMemAlloc(&u->dev[a], n), "cuMemAlloc (a buffer)");
		unsigned char *h = malloc(n);
		if (!h)
			die("malloc", "out of memory");
		fill(h, n, u->type[a], &seed);
		if (u->dir[a] != 1) {
			cu(cuMemAlloc(&u->pristine[a], n),
			   "cuMemAlloc (pristine)");
			cu(cuMemcpyHtoD(u->pristine[a], h, n), "cuMemcpyHtoD");
		}
		free(h);
	}
}

static void free_bufs(bufs *u)
{
	for (size_t a = 0; a < u->nargs; a++) {
		if (u->dev[a])
			cuMemFree(u->dev[a]);
		if (u->pristine[a])
			cuMemFree(u->pristine[a]);
		free(u->ref[a]);
	}
}

/* In and inout buffers restored, outputs poisoned (0xFF: NaN). */
static void restore(bench *b, bufs *u)
{
	for (size_t a = 0; a < u->nargs; a++) {
		if (u->dir[a] < 0 || !u->bytes[a])
			continue;
		if (u->dir[a] == 1)
			cu(cuMemsetD8Async(u->dev[a], 0xff, u->bytes[a],
			                   b->stream),
			   "poison");
		else
			cu(cuMemcpyDtoDAsync(u->dev[a], u->pristine[a],
			                     u->bytes[a], b->stream),
			   "restore");
	}
}

static void launch(bench *b, kt_rt_kernel *k, const int64_t *p, bufs *u)
{
	void *args[MAX_ARGS];
	for (size_t a = 0; a < u->nargs; a++)
		args[a] = u->dir[a] < 0 ? NULL : (void *)&u->dev[a];
	rt(kt_rt_launch(k, p, args, b->stream), "kt_rt_launch");
}

/* ---- checking --------------------------------------------------------- */

static double as_double(const unsigned char *h, size_t i, const char *t)
{
	if (!strcmp(t, "bf16")) {
		uint16_t x;
		memcpy(&x, h + 2 * i, 2);
		uint32_t u = (uint32_t)x << 16;
		float f;
		memcpy(&f, &u, 4);
		return f;
	}
	float f;
	memcpy(&f, h + 4 * i, 4);
	return f;
}

/* "same" (bytes equal), "close" (bf16/f32 within rtol 0.02, atol 0.01)
 * or "DIFFERS" against the reference run's outputs. */
static const char *compare(bench *b, bufs *u, bool keep)
{
	const char *verdict = "same";
	for (size_t a = 0; a < u->nargs; a++) {
		if (u->dir[a] < 1 || !u->bytes[a])
			continue;
		unsigned char *h = malloc(u->bytes[a]);
		if (!h)
			die("malloc", "out of memory");
		cu(cuMemcpyDtoH(h, u->dev[a], u->bytes[a]), "cuMemcpyDtoH");
		if (keep) {
			free(u->ref[a]);
			u->ref[a] = h;
			continue;
		}
		bool floats =
		    !strcmp(u->type[a], "bf16") || !strcmp(u->type[a], "f32");
		if (memcmp(h, u->ref[a], u->bytes[a])) {
			size_t n = u->bytes[a] / type_size(u->type[a]);
			for (size_t i = 0; floats && i < n; i++) {
				double x = as_double(h, i, u->type[a]);
				double y = as_double(u->ref[a], i, u->type[a]);
				if (!(fabs(x - y) <= 0.01 + 0.02 * fabs(y))) {
					floats = false;
					break;
				}
			}
			verdict = floats && strcmp(verdict, "DIFFERS")
			              ? "close"
			              : "DIFFERS";
		}
		free(h);
	}
	(void)b;
	return verdict;
}

/* ---- timing ----------------------------------------------------------- */

static int cmp(const void *x, const void *y)
{
	double a = *(const double *)x, c = *(const double *)y;
	return (a > c) - (a < c);
}

static void flush(bench *b)
{
	if (!b->flush)
		return;
	int64_t n = b->flush_n;
	void *args[3] = {&b->flush_buf, &b->sink, NULL};
	rt(kt_rt_launch(b->flush, &n, args, b->stream), "flush");
}

static void time_cold(bench *b, kt_rt_kernel *k, const int64_t *p, bufs *u,
                      double *t)
{
	for (int r = 0; r < 3 + b->runs; r++) {
		restore(b, u);
		flush(b);
		cu(cuEventRecord(b->ev[0], b->stream), "cuEventRecord");
		launch(b, k, p, u);
		cu(cuEventRecord(b->ev[1], b->stream), "cuEventRecord");
		cu(cuStreamSynchronize(b->stream), "a cold run");
		float ms = 0;
		cu(cuEventElapsedTime(&ms, b->ev[0], b->ev[1]), "elapsed");
		if (r >= 3)
			t[r - 3] = ms;
	}
}

static void time_graph(bench *b, kt_rt_kernel *k, const int64_t *p, bufs *u,
                       double *t)
{
	CUgraph g;
	CUgraphExec ge;
	restore(b, u);
	cu(cuStreamBeginCapture(b->stream, CU_STREAM_CAPTURE_MODE_RELAXED),
	   "cuStreamBeginCapture");
	for (int i = 0; i < b->batch; i++)
		launch(b, k, p, u);
	cu(cuStreamEndCapture(b->stream, &g), "cuStreamEndCapture");
	cu(cuGraphInstantiateWithFlags(&ge, g, 0), "cuGraphInstantiate");
	cu(cuGraphLaunch(ge, b->stream), "cuGraphLaunch");
	for (int r = 0; r < b->runs; r++) {
		cu(cuEventRecord(b->ev[2 * r], b->stream), "cuEventRecord");
		cu(cuGraphLaunch(ge, b->stream), "cuGraphLaunch");
		cu(cuEventRecord(b->ev[2 * r + 1], b->stream), "cuEventRecord");
	}
	cu(cuStreamSynchronize(b->stream), "graph replays");
	for (int r = 0; r < b->runs; r++) {
		float ms = 0;
		cu(cuEventElapsedTime(&ms, b->ev[2 * r], b->ev[2 * r + 1]),
		   "elapsed");
		t[r] = ms / b->batch;
	}
	cuGraphExecDestroy(ge);
	cuGraphDestroy(g);
}

/* The problem values of shape s in the kernel's order. */
static void problem(const bench *b, kt_rt_kernel *k, int64_t s, int64_t *p)
{
	for (size_t i = 0; i < kt_rt_nproblems(k); i++) {
		const char *name = kt_rt_problem_name(k, i);
		bool found = !strcmp(name, b->vary);
		p[i] = s;
		for (int f = 0; !found && f < b->nfixed; f++) {
			size_t n = strlen(name);
			if (!strncmp(b->fixed[f], name, n) &&
			    b->fixed[f][n] == '=') {
				p[i] = strtoll(b->fixed[f] + n + 1, NULL, 10);
				found = true;
			}
		}
		if (!found)
			die(name, "no value: give --problem NAME=V");
	}
}

static void print_row(const bench *b, const variant *v, int mode,
                      const int64_t *p, kt_rt_kernel *k, const char *check,
                      double *t)
{
	char key[512] = "";
	const char *why = "";
	rt(kt_rt_choice(k, p, key, sizeof(key), &why), "kt_rt_choice");
	qsort(t, (size_t)b->runs, sizeof(double), cmp);
	printf("{\"kernel\": \"%s\", \"variant\": \"%s\", \"mode\": \"%s\", "
	       "\"problem\": {",
	       b->kernel ? b->kernel : "", v->name, mode ? "graph" : "cold");
	for (size_t i = 0; i < kt_rt_nproblems(k); i++)
		printf("%s\"%s\": %lld", i ? ", " : "",
		       kt_rt_problem_name(k, i), (long long)p[i]);
	printf("}, \"config\": \"%s\", \"match\": \"%s\", \"check\": \"%s\", "
	       "\"median_ms\": %.6g, \"p10_ms\": %.6g, \"p90_ms\": %.6g}\n",
	       key, why, check, t[b->runs / 2], t[b->runs / 10],
	       t[b->runs * 9 / 10]);
	fflush(stdout);
}

static void one_shape(bench *b, int64_t s)
{
	kt_rt_kernel *ref = b->v[0].k[(b->modes & 1) ? 0 : 1];
	int64_t p[16];
	bufs u;
	double *t = calloc((size_t)b->runs, sizeof(double));
	if (!t)
		die("calloc", "out of memory");
	problem(b, ref, s, p);
	make_bufs(b, ref, p, &u);
	for (int m = 0; m < 2; m++) {
		if (!(b->modes & (1 << m)))
			continue;
		for (int v = 0; v < b->nv; v++) {
			kt_rt_kernel *k = b->v[v].k[m];
			rt(kt_rt_prepare(k, p), "kt_rt_prepare");
			restore(b, &u);
			launch(b, k, p, &u);
			cu(cuStreamSynchronize(b->stream), "the checked run");
			const char *check = compare(b, &u, v == 0);
			if (v == 0)
				check = "reference";
			(m ? time_graph : time_cold)(b, k, p, &u, t);
			print_row(b, &b->v[v], m, p, k, check, t);
		}
	}
	free_bufs(&u);
	free(t);
}

int main(int argc, char **argv)
{
	bench b;
	char *names[MAX_VARIANTS][2] = {{0}};
	parse(&b, argc, argv, names);
	set_up(&b, names);
	for (int i = 0; i < b.nshapes; i++)
		one_shape(&b, b.shapes[i]);
	kt_rt_close(b.rt);
	return 0;
}
