/*
 * cuda_bench.c - throughput of the CUDA backend: every valid configuration
 * of a template (or an evenly spaced subset) evaluated in one batch, with N
 * compile threads (1: compile, then run, one configuration after another).
 * Prints one line per configuration and a JSON summary: configurations per
 * minute, the fraction of wall time the worker spent verifying and timing
 * (the GPU's share of the pipeline), the best configuration.
 *
 *   cuda_bench [--threads N] [--limit K] [--runs R] [--cache DIR]
 *              [--json FILE] [--compile-only] [--slice I/N] TEMPLATE
 *
 * --compile-only runs nothing on a GPU (NVRTC's throughput alone); --slice
 * keeps configurations I, I + N, I + 2N... of the chosen ones, so N
 * processes can share the work.
 *
 * Like test_cuda_gpu, it is its own CUDA worker.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ktc/eval.h"
#include "ktc/model.h"
#include "ktc/space.h"

typedef struct args {
	int threads, limit, runs, slice, nslices;
	bool compile_only;
	const char *cache, *json, *path;
} args;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int parse(args *a, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(argv[i], "--threads") && v)
			a->threads = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--limit") && v)
			a->limit = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--runs") && v)
			a->runs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--cache") && v)
			a->cache = argv[++i];
		else if (!strcmp(argv[i], "--json") && v)
			a->json = argv[++i];
		else if (!strcmp(argv[i], "--slice") && v &&
		         sscanf(argv[++i], "%d/%d", &a->slice, &a->nslices) ==
		             2 &&
		         a->nslices > 0 && a->slice >= 0 &&
		         a->slice < a->nslices)
			continue;
		else if (!strcmp(argv[i], "--compile-only"))
			a->compile_only = true;
		else if (argv[i][0] != '-' && !a->path)
			a->path = argv[i];
		else
			return -1;
	}
	return a->path ? 0 : -1;
}

/* The model's DEVICE_* values from the backend, as the tuner takes them. */
static void device_values(kt_value *out, const kt_model *m,
                          const kt_device_info *d)
{
	for (size_t i = 0; i < m->ndevices; i++) {
		out[i] = m->devices[i].fallback;
		for (size_t k = 0; k < kt_device_nconsts && k < 64; k++)
			if (!strcmp(kt_device_consts[k].name,
			            m->devices[i].name) &&
			    d->has_const[k])
				out[i] = kt_int(d->consts[k]);
	}
}

typedef struct totals {
	double compile, verify, bench, framework, kernel_ms;
	int counts[KT_STATUS_TIMEOUT + 1];
	int cached;
	size_t best;
} totals;

static void add_up(totals *t, const kt_result *r, size_t n)
{
	t->best = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		t->compile += r[i].compile_s;
		t->verify += r[i].verify_s;
		t->bench += r[i].benchmark_s;
		t->framework += r[i].framework_s;
		for (size_t k = 0; k < r[i].nruntimes; k++)
			t->kernel_ms += r[i].runtimes_ms[k];
		t->counts[r[i].status]++;
		const kt_measure *c = kt_result_measure(&r[i], "cubin_cached");
		t->cached += c && c->value > 0;
		if (r[i].status == KT_STATUS_OK && isfinite(r[i].time_ms) &&
		    (t->best == SIZE_MAX || r[i].time_ms < r[t->best].time_ms))
			t->best = i;
	}
}

static void summary(FILE *f, const args *a, const kt_device_info *dev,
                    char **keys, const kt_result *r, size_t n, double wall)
{
	totals t = {0};
	add_up(&t, r, n);
	const kt_measure *bw =
	    t.best != SIZE_MAX
	        ? kt_result_measure(&r[t.best], "bandwidth_fraction")
	        : NULL;
	fprintf(f, "{\n  \"template\": \"%s\",\n  \"device\": \"%s\",\n",
	        a->path, dev->name);
	fprintf(f, "  \"driver\": \"%s\",\n  \"runtime\": \"%s\",\n",
	        dev->driver, dev->runtime);
	fprintf(f, "  \"copy_gbs\": %.1f,\n  \"threads\": %d,\n", dev->copy_gbs,
	        a->threads);
	fprintf(f, "  \"configurations\": %zu,\n  \"wall_s\": %.3f,\n", n,
	        wall);
	fprintf(f, "  \"per_minute\": %.1f,\n", (double)n / wall * 60);
	fprintf(f,
	        "  \"correct\": %d, \"compile\": %d, \"runtime\": %d, "
	        "\"correctness\": %d, \"constraints\": %d, \"timeout\": %d,\n",
	        t.counts[0], t.counts[1], t.counts[2], t.counts[3], t.counts[4],
	        t.counts[5]);
	fprintf(f, "  \"cubins_from_cache\": %d,\n", t.cached);
	fprintf(f,
	        "  \"compile_s\": %.3f, \"verify_s\": %.3f, \"benchmark_s\": "
	        "%.3f, \"framework_s\": %.3f,\n",
	        t.compile, t.verify, t.bench, t.framework);
	fprintf(f, "  \"worker_busy_fraction\": %.4f,\n",
	        (t.verify + t.bench + t.framework) / wall);
	fprintf(f, "  \"timed_kernel_fraction\": %.6f,\n",
	        t.kernel_ms / 1e3 / wall);
	if (t.best != SIZE_MAX)
		fprintf(
		    f,
		    "  \"best\": \"%s\", \"best_ms\": %.6f, \"best_spread\": "
		    "%.4f, \"best_bandwidth_fraction\": %.4f,\n",
		    keys[t.best], r[t.best].time_ms, r[t.best].spread,
		    bw ? bw->value : 0.0);
	if (isfinite(r[0].time_ms))
		fprintf(f, "  \"default_ms\": %.6f\n}\n", r[0].time_ms);
	else
		fprintf(f, "  \"default_ms\": null\n}\n");
}

static void print_rows(char **keys, const kt_result *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const kt_measure *bw =
		    kt_result_measure(&r[i], "bandwidth_fraction");
		const kt_measure *regs = kt_result_measure(&r[i], "registers");
		printf("%s\t%s\t%.6f\t%.4f\t%.3f\t%.3f\t%.3f\t%.0f\t%.3f\t%s\n",
		       keys[i], kt_status_name(r[i].status), r[i].time_ms,
		       r[i].spread, r[i].compile_s, r[i].verify_s,
		       r[i].benchmark_s, regs ? regs->value : 0,
		       bw ? bw->value : 0, r[i].message ? r[i].message : "");
	}
}

/* The configurations: the default first, then an even spread. */
static size_t choose(const kt_space *s, int limit, uint32_t **idx, size_t np)
{
	uint64_t count = kt_space_count(s);
	size_t n = limit > 0 && (uint64_t)limit < count ? (size_t)limit : count;
	int64_t def = kt_space_default_index(s);
	*idx = calloc(n * np + 1, sizeof(uint32_t));
	for (size_t i = 0; i < n; i++) {
		uint64_t k = i == 0 && def >= 0
		                 ? (uint64_t)def
		                 : (uint64_t)((double)i * count / n);
		if (i > 0 && def >= 0 && k == (uint64_t)def)
			k = (k + 1) % count;
		kt_space_get(s, k, &(*idx)[i * np]);
	}
	return n;
}

static int bench(const args *a, const kt_model *m)
{
	kt_backend_options opt = {.worker_exe = "/proc/self/exe",
	                          .compile_threads = a->threads,
	                          .timed_runs = a->runs,
	                          .cache_dir = a->cache,
	                          .compile_only = a->compile_only,
	                          .seed = 1};
	kt_backend *b = NULL;
	if (kt_backend_open(&b, "cuda", m, &opt) ||
	    b->ops->set_problem(b, NULL)) {
		fprintf(stderr, "cuda_bench: %s\n", kt_error_last());
		kt_backend_free(b);
		return 1;
	}
	kt_device_info dev;
	b->ops->device_info(b, &dev);
	kt_value *dv = calloc(m->ndevices + 1, sizeof(kt_value));
	device_values(dv, m, &dev);
	kt_diags d;
	kt_diags_init(&d);
	kt_space *s = NULL;
	int rc = kt_space_build(&s, m, NULL, dv, &d);
	uint32_t *idx = NULL;
	size_t n = rc ? 0 : choose(s, a->limit, &idx, m->nparams);
	if (a->nslices > 1) { /* keep every nslices-th, from slice */
		size_t k = 0;
		for (size_t i = (size_t)a->slice; i < n;
		     i += (size_t)a->nslices)
			memmove(&idx[k++ * m->nparams], &idx[i * m->nparams],
			        m->nparams * sizeof(uint32_t));
		n = k;
	}
	kt_eval_request *reqs = calloc(n + 1, sizeof(*reqs));
	kt_result *res = calloc(n + 1, sizeof(*res));
	char **keys = calloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++) {
		reqs[i].param_idx = &idx[i * m->nparams];
		keys[i] = kt_space_key(s, reqs[i].param_idx);
		reqs[i].key = keys[i];
		kt_result_init(&res[i]);
	}
	double t0 = now_s();
	if (!rc)
		rc = b->ops->evaluate(b, reqs, n, res);
	double wall = now_s() - t0;
	if (rc) {
		fprintf(stderr, "cuda_bench: %s\n", kt_error_last());
	} else {
		print_rows(keys, res, n);
		summary(stderr, a, &dev, keys, res, n, wall);
		FILE *f = a->json ? fopen(a->json, "w") : NULL;
		if (f) {
			summary(f, a, &dev, keys, res, n, wall);
			fclose(f);
		}
	}
	for (size_t i = 0; i < n; i++) {
		kt_result_release(&res[i]);
		kt_free(keys[i]);
	}
	free(keys);
	free(res);
	free(reqs);
	free(idx);
	free(dv);
	kt_space_free(s);
	kt_diags_release(&d);
	kt_backend_free(b);
	return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "__cuda-worker"))
		return kt_cuda_worker_main(argc - 1, argv + 1);
	args a = {.threads = 0, .limit = 0, .runs = 0};
	if (parse(&a, argc, argv)) {
		fprintf(stderr, "usage: cuda_bench [--threads N] [--limit K] "
		                "[--runs R] [--cache DIR] [--json FILE] "
		                "[--compile-only] [--slice I/N] TEMPLATE\n");
		return 2;
	}
	kt_diags d;
	kt_diags_init(&d);
	kt_template *t = NULL;
	if (kt_template_load(&t, a.path, &d)) {
		kt_diags_print(&d, stderr, 0);
		return 1;
	}
	int rc = bench(&a, kt_template_model(t, NULL));
	kt_template_free(t);
	kt_diags_release(&d);
	return rc;
}
