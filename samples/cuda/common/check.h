/*
 * check.h - the harness of the samples' GPU checkers (samples/cuda/<name>/
 * check.cu, built with nvcc). A checker includes one kernel source (the
 * original <name>.cu or the template <name>.kt.cu, with -D values for a
 * configuration), runs it through that file's own host launch code on fresh
 * random inputs with poisoned outputs, and compares with the sample's CPU
 * reference (ref.c). It also times the launch, so original and tuned are
 * measured by one harness.
 *
 *   check_NAME check [SEED]        every size the checker lists, 2 seeds
 *   check_NAME time NAME=V ...     median time of one size, in microseconds
 *
 * Exit status: 0 passed, 1 a mismatch, 2 a CUDA error or bad usage, 77 no
 * CUDA device (ctest counts it as skipped).
 *
 * Timing: 5 warm-up launches, then 50 timed ones, each after a kernel that
 * reads a buffer twice the L2 size (so no input is in the cache, and no
 * dirty line of a write waits to be written back) and between two events;
 * the median is printed as "time_us=X spread=Y" (spread: (p90 - p10) /
 * median). Then "graph_us=Z": the steady state of a decode step, 20
 * launches in one CUDA graph with nothing between them, per launch.
 */
#ifndef KTC_SAMPLES_CHECK_H
#define KTC_SAMPLES_CHECK_H

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "ref.h"

#define CK(call)                                                               \
	do {                                                                   \
		cudaError_t e_ = (call);                                       \
		if (e_ != cudaSuccess) {                                       \
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, \
			        #call, cudaGetErrorString(e_));                \
			exit(2);                                               \
		}                                                              \
	} while (0)

/* ---- random inputs ------------------------------------------------------ */

struct ck_rng {
	uint64_t s;
	explicit ck_rng(uint64_t seed) : s(seed * 0x9e3779b97f4a7c15ull + 1) {}
	uint64_t next()
	{
		uint64_t z = (s += 0x9e3779b97f4a7c15ull);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		return z ^ (z >> 31);
	}
	float uniform(float lo, float hi)
	{
		return lo + (hi - lo) *
		                (float)((next() >> 40) * (1.0 / (1ull << 24)));
	}
	long below(long n)
	{
		return (long)(next() % (uint64_t)n);
	}
};

static inline std::vector<uint16_t> ck_bf16(ck_rng &r, size_t n, float lo,
                                            float hi)
{
	std::vector<uint16_t> v(n);
	for (auto &x : v)
		x = ref_f32_to_bf16(r.uniform(lo, hi));
	return v;
}

static inline std::vector<float> ck_f32(ck_rng &r, size_t n, float lo, float hi)
{
	std::vector<float> v(n);
	for (auto &x : v)
		x = r.uniform(lo, hi);
	return v;
}

/* ---- device buffers ----------------------------------------------------- */

template <typename T> struct ck_dev {
	T *p = nullptr;
	size_t n = 0;
	explicit ck_dev(size_t count) : n(count)
	{
		CK(cudaMalloc(&p, std::max<size_t>(n, 1) * sizeof(T)));
		poison();
	}
	explicit ck_dev(const std::vector<T> &h) : ck_dev(h.size())
	{
		put(h);
	}
	~ck_dev()
	{
		cudaFree(p);
	}
	ck_dev(const ck_dev &) = delete;
	ck_dev &operator=(const ck_dev &) = delete;
	/* 0xff bytes: NaN in every float format, -1 in integers */
	void poison()
	{
		CK(cudaMemset(p, 0xff, n * sizeof(T)));
	}
	void put(const std::vector<T> &h)
	{
		CK(cudaMemcpy(p, h.data(), n * sizeof(T),
		              cudaMemcpyHostToDevice));
	}
	std::vector<T> get() const
	{
		std::vector<T> h(n);
		CK(cudaMemcpy(h.data(), p, n * sizeof(T),
		              cudaMemcpyDeviceToHost));
		return h;
	}
	template <typename U> U *as() const
	{
		return reinterpret_cast<U *>(p);
	}
};

/* ---- comparison --------------------------------------------------------- */

/*
 * Compares got with want element by element: |got - want| <= atol + rtol *
 * |want|, NaN only where want is NaN. Prints one line; returns the number
 * of elements that fail.
 */
static inline long ck_compare(const char *what, const std::vector<float> &got,
                              const std::vector<float> &want, double atol,
                              double rtol)
{
	long bad = 0, first = -1;
	double worst = 0;
	for (size_t i = 0; i < want.size(); i++) {
		double g = got[i], w = want[i];
		bool ok = std::isnan(w)
		              ? std::isnan(g)
		              : !std::isnan(g) &&
		                    fabs(g - w) <= atol + rtol * fabs(w);
		if (!std::isnan(g) && !std::isnan(w))
			worst = std::max(worst, fabs(g - w));
		if (!ok && bad++ == 0)
			first = (long)i;
	}
	printf("  %-10s %9zu elements, max |diff| %.3g, %ld outside tolerance",
	       what, want.size(), worst, bad);
	if (bad)
		printf(" (first at %ld: got %.6g, want %.6g)", first,
		       (double)got[first], (double)want[first]);
	printf("\n");
	return bad;
}

static inline std::vector<float> ck_from_bf16(const std::vector<uint16_t> &v)
{
	std::vector<float> f(v.size());
	for (size_t i = 0; i < v.size(); i++)
		f[i] = ref_bf16_to_f32(v[i]);
	return f;
}

static inline std::vector<float> ck_from_fp8(const std::vector<uint8_t> &v)
{
	std::vector<float> f(v.size());
	for (size_t i = 0; i < v.size(); i++)
		f[i] = ref_fp8_to_f32(v[i]);
	return f;
}

template <typename T>
static inline std::vector<float> ck_from(const std::vector<T> &v)
{
	return std::vector<float>(v.begin(), v.end());
}

/* ---- timing ------------------------------------------------------------- */

static inline void ck_sync_launch(cudaError_t launched)
{
	CK(launched);
	CK(cudaDeviceSynchronize());
}

/*
 * Runs a launch that may refuse the size: a template's host code answers
 * cudaErrorInvalidConfiguration where its configuration cannot take the
 * size (a row too long for its block). False then: the size is skipped.
 */
static inline bool ck_run(cudaError_t launched)
{
	if (launched == cudaErrorInvalidConfiguration) {
		printf("  size not supported by this configuration: skipped\n");
		return false;
	}
	ck_sync_launch(launched);
	return true;
}

/* Reads n 16-byte words: evicts what the L2 holds without leaving dirty
 * lines whose write-back would land in the next kernel's time (a memset
 * would). The sink is written only if an impossible sum comes out. */
__global__ void ck_flush_kernel(const int4 *p, size_t n, int *sink)
{
	int acc = 0;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x) {
		int4 v = p[i];
		acc ^= v.x ^ v.y ^ v.z ^ v.w;
	}
	if (acc == 0x7eadbeef)
		*sink = acc;
}

/* Median microseconds per launch in the steady state of a decode step: 20
 * launches back to back in one CUDA graph, replayed with no flush between
 * them (inputs stay in the L2 when they fit, no launch gap: what a serving
 * stack's captured graph sees); -1 where the launches cannot be captured.
 * Checkers are built with --default-stream per-thread, so the stream 0 of
 * the host code is the per-thread stream, which can be captured. */
static double ck_graph_us = -1; /* of the last ck_time_us */

static inline double
ck_time_graph_us(const std::function<cudaError_t()> &launch)
{
	const int per = 20, reps = 15;
	cudaStream_t st = cudaStreamPerThread;
	cudaGraph_t g = nullptr;
	cudaGraphExec_t x = nullptr;
	bool ok = cudaStreamBeginCapture(
	              st, cudaStreamCaptureModeThreadLocal) == cudaSuccess;
	for (int i = 0; ok && i < per; i++)
		ok = launch() == cudaSuccess;
	ok = cudaStreamEndCapture(st, &g) == cudaSuccess && ok;
	ok = ok && cudaGraphInstantiate(&x, g, 0) == cudaSuccess;
	if (!ok) {
		(void)cudaGetLastError();
		if (g)
			cudaGraphDestroy(g);
		return -1;
	}
	cudaEvent_t a, b;
	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	CK(cudaGraphLaunch(x, st)); /* warm-up */
	std::vector<double> t;
	for (int i = 0; i < reps; i++) {
		CK(cudaEventRecord(a, st));
		CK(cudaGraphLaunch(x, st));
		CK(cudaEventRecord(b, st));
		CK(cudaEventSynchronize(b));
		float ms = 0;
		CK(cudaEventElapsedTime(&ms, a, b));
		t.push_back(ms * 1e3 / per);
	}
	std::sort(t.begin(), t.end());
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
	CK(cudaGraphExecDestroy(x));
	CK(cudaGraphDestroy(g));
	return t[t.size() / 2];
}

/* Median microseconds of launch(), each run on a cold L2; -1 where the
 * configuration does not take the size. */
static inline double ck_time_us(const std::function<cudaError_t()> &launch,
                                double *spread)
{
	if (!ck_run(launch()))
		return -1;
	int dev = 0, l2 = 0, sms = 0;
	CK(cudaGetDevice(&dev));
	CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
	CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	size_t flush_n = 2 * (size_t)std::max(l2, 1 << 20) / sizeof(int4);
	int4 *flush = nullptr;
	int *sink = nullptr;
	CK(cudaMalloc(&flush, flush_n * sizeof(int4)));
	CK(cudaMalloc(&sink, sizeof(int)));
	CK(cudaMemset(flush, 1, flush_n * sizeof(int4)));
	cudaEvent_t a, b;
	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	for (int i = 0; i < 5; i++) {
		ck_flush_kernel<<<sms * 4, 512>>>(flush, flush_n, sink);
		CK(launch());
	}
	CK(cudaDeviceSynchronize());
	std::vector<double> t;
	for (int i = 0; i < 50; i++) {
		ck_flush_kernel<<<sms * 4, 512>>>(flush, flush_n, sink);
		CK(cudaEventRecord(a));
		CK(launch());
		CK(cudaEventRecord(b));
		CK(cudaEventSynchronize(b));
		float ms = 0;
		CK(cudaEventElapsedTime(&ms, a, b));
		t.push_back(ms * 1e3);
	}
	std::sort(t.begin(), t.end());
	double med = t[t.size() / 2];
	ck_graph_us = ck_time_graph_us(launch);
	if (spread)
		*spread = (t[t.size() * 9 / 10] - t[t.size() / 10]) / med;
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
	CK(cudaFree(flush));
	CK(cudaFree(sink));
	return med;
}

/* ---- the command line --------------------------------------------------- */

/* A size: the checker's dimension names with values. */
struct ck_size {
	std::vector<std::string> names;
	std::vector<long> vals;
	long operator[](const char *name) const
	{
		for (size_t i = 0; i < names.size(); i++)
			if (names[i] == name)
				return vals[i];
		fprintf(stderr, "checker: no dimension '%s'\n", name);
		exit(2);
	}
	std::string str() const
	{
		std::string s;
		for (size_t i = 0; i < names.size(); i++)
			s += (i ? " " : "") + names[i] + "=" +
			     std::to_string(vals[i]);
		return s;
	}
};

/*
 * What a sample's check.cu gives: its dimension names with their defaults,
 * the sizes `check` runs, a check of one size (returns the number of bad
 * elements, -1 where the configuration does not take the size) and a
 * launch for timing (set up once per size).
 */
struct ck_sample {
	const char *name;
	std::vector<std::string> dims;
	std::vector<long> defaults;
	std::vector<std::vector<long>> sizes;
	std::function<long(const ck_size &, uint64_t seed)> check;
	std::function<double(const ck_size &, double *spread)> time;
};

static inline int ck_main(const ck_sample &s, int argc, char **argv)
{
	int ndev = 0;
	if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
		printf("%s: no CUDA device: skipped\n", s.name);
		return 77; /* ctest's "skipped" */
	}
	if (argc >= 2 && !strcmp(argv[1], "check")) {
		uint64_t seed = argc > 2 ? strtoull(argv[2], nullptr, 10) : 1;
		long bad = 0, passed = 0, skipped = 0;
		for (const auto &v : s.sizes)
			for (uint64_t k = 0; k < 2; k++) {
				ck_size z{s.dims, v};
				printf("%s %s seed=%llu\n", s.name,
				       z.str().c_str(),
				       (unsigned long long)(seed + k));
				long b = s.check(z, seed + k);
				if (b < 0)
					skipped++;
				else if (b == 0)
					passed++;
				else
					bad += b;
			}
		bool ok = !bad && passed > 0;
		printf("%s: %s (%ld checks passed, %ld skipped)\n", s.name,
		       ok ? "PASS" : "FAIL", passed, skipped);
		return ok ? 0 : 1;
	}
	if (argc >= 2 && !strcmp(argv[1], "time")) {
		ck_size z{s.dims, s.defaults};
		for (int i = 2; i < argc; i++) {
			const char *eq = strchr(argv[i], '=');
			size_t k = 0;
			while (eq && k < z.names.size() &&
			       z.names[k] != std::string(argv[i], eq - argv[i]))
				k++;
			if (!eq || k == z.names.size()) {
				fprintf(stderr, "%s: unknown size '%s'\n",
				        s.name, argv[i]);
				return 2;
			}
			z.vals[k] = atol(eq + 1);
		}
		double spread = 0, us = s.time(z, &spread);
		if (us < 0) {
			printf("%s %s not supported by this configuration\n",
			       s.name, z.str().c_str());
			return 1;
		}
		printf("%s %s time_us=%.3f spread=%.3f graph_us=%.3f\n", s.name,
		       z.str().c_str(), us, spread, ck_graph_us);
		return 0;
	}
	fprintf(stderr, "usage: %s check [SEED] | time NAME=V ...\n", argv[0]);
	return 2;
}

#endif
