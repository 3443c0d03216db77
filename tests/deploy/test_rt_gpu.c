/*
 * test_rt_gpu.c - the runtime library (ktc/rt.h) on a GPU: launches of
 * tests/deploy/inputs/scale.kt.cu (y = 2.5 x) at tuned, untuned and odd
 * shapes compute what they should with the configuration the wisdom
 * gives; launches captured in a CUDA graph replay; four threads launching
 * at once at different shapes all compute right. Exits 77 without a GPU.
 *
 *   test_rt_gpu [SCALE.kt.cu]   (default: the source tree's)
 */
#include "check.h"

#include "ktc/rt.h"
#include "ktc/wisdom.h"
#include "runtime/cuda/driver.h"
#include "util/fs.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static kt_cu_driver d;
static kt_rt *rt;
static kt_rt_kernel *k;
static CUstream stream;
static char dir[] = "/tmp/ktc-test-rt-gpu-XXXXXX";

/* A wisdom on this device: N=1024 -> BLOCK=64,ITEMS=1, N=65536 ->
 * BLOCK=256,ITEMS=4. */
static void write_wisdom(const char *tpl, const char *out, const char *dev)
{
	kt_diags diags;
	kt_diags_init(&diags);
	kt_template *t = NULL;
	kt_wisdom *w = NULL;
	kt_template_load(&t, tpl, &diags);
	if (t &&
	    !kt_wisdom_new(&w, kt_template_model(t, NULL), tpl,
	                   kt_hash(KT_HASH_INIT, t->source, strlen(t->source)),
	                   "cold")) {
		snprintf(w->device, sizeof(w->device), "%s", dev);
		kt_value p1[1] = {kt_int(1024)},
		         b1[2] = {kt_int(64), kt_int(1)};
		kt_value p2[1] = {kt_int(65536)},
		         b2[2] = {kt_int(256), kt_int(4)};
		kt_wisdom_set(w, p1, b1, 0.01, 0.02);
		kt_wisdom_set(w, p2, b2, 0.01, 0.02);
		CHECK_EQ_INT(kt_wisdom_write(w, out), 0);
	}
	kt_wisdom_free(w);
	kt_template_free(t);
	kt_diags_release(&diags);
}

/* Launches at n (graph: captured and replayed) and checks y = 2.5 x. */
static int scale_at(int64_t n, CUstream s, bool graph)
{
	size_t bytes = (size_t)n * 4;
	float *x = malloc(bytes), *y = malloc(bytes);
	CUdeviceptr dx = 0, dy = 0;
	int bad = !x || !y;
	for (int64_t i = 0; !bad && i < n; i++)
		x[i] = (float)(i % 1000) - 500.0f;
	bad = bad || d.cuMemAlloc(&dx, bytes) || d.cuMemAlloc(&dy, bytes) ||
	      d.cuMemcpyHtoD(dx, x, bytes) ||
	      d.cuMemsetD8Async(dy, 0xff, bytes, s);
	void *args[4] = {&dy, &dx, NULL, NULL};
	CUgraph g = NULL;
	CUgraphExec ge = NULL;
	if (!bad && graph) {
		bad =
		    d.cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED) ||
		    kt_rt_launch(k, &n, args, s) ||
		    d.cuStreamEndCapture(s, &g) ||
		    d.cuGraphInstantiateWithFlags(&ge, g, 0) ||
		    d.cuGraphLaunch(ge, s);
	} else if (!bad) {
		bad = kt_rt_launch(k, &n, args, s) != 0;
	}
	if (bad)
		fprintf(stderr, "N=%lld: %s\n", (long long)n, kt_rt_error());
	bad = bad || d.cuStreamSynchronize(s) || d.cuMemcpyDtoH(y, dy, bytes);
	for (int64_t i = 0; !bad && i < n; i++)
		bad = y[i] != 2.5f * x[i];
	if (ge)
		d.cuGraphExecDestroy(ge);
	if (g)
		d.cuGraphDestroy(g);
	if (dx)
		d.cuMemFree(dx);
	if (dy)
		d.cuMemFree(dy);
	free(x);
	free(y);
	return bad;
}

static void launches_compute_at_every_shape(void)
{
	int64_t shapes[] = {1024, 65536, 1000, 3, 50002, 1 << 20};
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		char key[128];
		const char *why = "";
		CHECK_EQ_INT(scale_at(shapes[i], stream, false), 0);
		CHECK_EQ_INT(
		    kt_rt_choice(k, &shapes[i], key, sizeof(key), &why), 0);
		printf("N=%lld: %s (%s)\n", (long long)shapes[i], key, why);
	}
	char key[128];
	const char *why = "";
	int64_t n = 65536;
	kt_rt_choice(k, &n, key, sizeof(key), &why);
	CHECK_EQ_STR(key, "BLOCK=256,ITEMS=4");
	CHECK_EQ_STR(why, "exact");
}

static void launches_replay_in_a_graph(void)
{
	CHECK_EQ_INT(scale_at(4096, stream, true), 0);
	CHECK_EQ_INT(scale_at(70000, stream, true), 0); /* a new shape */
}

static CUcontext ctx; /* the runtime's, current in main */

static void *hammer(void *arg)
{
	int64_t base = (int64_t)(intptr_t)arg;
	CUstream s;
	/* a new thread has no current context: the test's own streams and
	 * buffers need one (the runtime's launches make theirs current) */
	if (d.cuCtxSetCurrent(ctx) ||
	    d.cuStreamCreate(&s, CU_STREAM_NON_BLOCKING))
		return (void *)1;
	intptr_t bad = 0;
	for (int i = 0; i < 20 && !bad; i++)
		bad = scale_at(base + 4 * (i % 5), s, false);
	d.cuStreamDestroy(s);
	return (void *)bad;
}

static void threads_launch_at_once(void)
{
	pthread_t th[4];
	for (intptr_t i = 0; i < 4; i++)
		CHECK_EQ_INT(pthread_create(&th[i], NULL, hammer,
		                            (void *)(2000 + 1000 * i)),
		             0);
	for (int i = 0; i < 4; i++) {
		void *bad = NULL;
		pthread_join(th[i], &bad);
		CHECK(bad == NULL);
	}
}

int main(int argc, char **argv)
{
	kt_rt_options o = {0};
	if (!mkdtemp(dir))
		return 1;
	char cache[600], wis[600];
	snprintf(cache, sizeof(cache), "%s/cache", dir);
	snprintf(wis, sizeof(wis), "%s/w.json", dir);
	o.cache_dir = cache;
	if (kt_cu_driver_load(&d) || kt_rt_open(&rt, &o)) {
		printf("skipped: %s\n",
		       kt_rt_error()[0] ? kt_rt_error() : kt_error_last());
		return 77;
	}
	const char *tpl = argc > 1 ? argv[1] : KTC_DEPLOY_INPUTS "/scale.kt.cu";
	write_wisdom(tpl, wis, kt_rt_device_name(rt));
	if (kt_rt_load(&k, rt, tpl, NULL, wis)) {
		fprintf(stderr, "kt_rt_load: %s\n", kt_rt_error());
		return 1;
	}
	if (d.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING) ||
	    d.cuCtxGetCurrent(&ctx))
		return 1;
	printf("on %s (%s, driver %d)\n", kt_rt_device_name(rt),
	       kt_rt_device_arch(rt), kt_rt_driver_version(rt));
	RUN(launches_compute_at_every_shape);
	RUN(launches_replay_in_a_graph);
	RUN(threads_launch_at_once);
	kt_rt_close(rt);
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return check_summary();
}
