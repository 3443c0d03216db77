/*
 * test_rt.c - the runtime library (ktc/rt.h) without a GPU: opened for a
 * described device, it picks a launch's configuration (exact, nearest,
 * the default on another device, the default where the wisdom's breaks a
 * constraint), compiles it with NVRTC into its cache, keyed by device,
 * driver and source, and refuses what does not fit.
 */
#include "check.h"

#include "ktc/rt.h"
#include "ktc/wisdom.h"
#include "util/fs.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/ktc-test-rt-XXXXXX";
static char tpl[512], wis[512], cache[512];

static char *path_in(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", dir, name);
	return buf;
}

static char *read_file(const char *path)
{
	char *text = NULL;
	kt_fs_read(&text, NULL, path);
	return text;
}

/* The wisdom of scale.kt.cu on "GPU A": N=1024 -> BLOCK=64,ITEMS=1,
 * N=65536 -> BLOCK=256,ITEMS=4 (which N=1000 would break: 1000 % 4). */
static void write_wisdom(const char *tpath, const char *out)
{
	kt_diags d;
	kt_diags_init(&d);
	kt_template *t = NULL;
	kt_wisdom *w = NULL;
	CHECK_EQ_INT(kt_template_load(&t, tpath, &d), 0);
	const kt_model *m = kt_template_model(t, NULL);
	CHECK_EQ_INT(
	    kt_wisdom_new(&w, m, tpath,
	                  kt_hash(KT_HASH_INIT, t->source, strlen(t->source)),
	                  "cold"),
	    0);
	snprintf(w->device, sizeof(w->device), "GPU A");
	kt_value p1[1] = {kt_int(1024)}, b1[2] = {kt_int(64), kt_int(1)};
	kt_value p2[1] = {kt_int(65536)}, b2[2] = {kt_int(256), kt_int(4)};
	kt_wisdom_set(w, p1, b1, 0.01, 0.02);
	kt_wisdom_set(w, p2, b2, 0.1, 0.2);
	CHECK_EQ_INT(kt_wisdom_write(w, out), 0);
	kt_wisdom_free(w);
	kt_template_free(t);
	kt_diags_release(&d);
}

static kt_rt *open_offline(const char *name, int driver)
{
	kt_rt_options o = {.cache_dir = cache,
	                   .offline_name = name,
	                   .offline_arch = "sm_90a",
	                   .offline_driver = driver};
	kt_rt *rt = NULL;
	int rc = kt_rt_open(&rt, &o);
	if (rc)
		fprintf(stderr, "kt_rt_open: %s\n", kt_rt_error());
	CHECK_EQ_INT(rc, 0);
	return rt;
}

static void choice(kt_rt_kernel *k, int64_t n, const char *key,
                   const char *match)
{
	char got[128] = "";
	const char *why = "";
	int rc = kt_rt_choice(k, &n, got, sizeof(got), &why);
	if (rc)
		fprintf(stderr, "kt_rt_choice: %s\n", kt_rt_error());
	CHECK_EQ_INT(rc, 0);
	CHECK_EQ_STR(got, key);
	CHECK_EQ_STR(why, match);
}

static void rt_picks_exact_nearest_and_default(void)
{
	kt_rt *rt = open_offline("GPU A", 13000);
	kt_rt_kernel *k = NULL;
	if (!rt)
		return;
	CHECK_EQ_INT(kt_rt_load(&k, rt, tpl, NULL, wis), 0);
	if (k) {
		CHECK_EQ_INT(kt_rt_nproblems(k), 1);
		CHECK_EQ_STR(kt_rt_problem_name(k, 0), "N");
		CHECK_EQ_INT(kt_rt_nargs(k), 4);
		CHECK_EQ_STR(kt_rt_arg_name(k, 2), "a");
		CHECK_EQ_STR(kt_rt_arg_type(k, 0), "f32");
		CHECK_EQ_INT(kt_rt_arg_is_buffer(k, 1), 1);
		CHECK_EQ_INT(kt_rt_arg_is_buffer(k, 3), 0);
		CHECK_EQ_INT(kt_rt_arg_dir(k, 0), 1);
		CHECK_EQ_INT(kt_rt_arg_dir(k, 1), 0);
		CHECK_EQ_INT(kt_rt_arg_dir(k, 2), -1);
		choice(k, 1024, "BLOCK=64,ITEMS=1", "exact");
		uint64_t count = 0;
		int64_t n = 4000;
		CHECK_EQ_INT(kt_rt_arg_count(k, &n, 1, &count), 0);
		CHECK_EQ_INT(count, 4000);
		CHECK_EQ_INT(kt_rt_arg_count(k, &n, 3, &count), 0);
		CHECK_EQ_INT(count, 0);
		CHECK_EQ_INT(kt_rt_arg_count(k, &n, 4, &count), KT_EINVALID);
		choice(k, 65536, "BLOCK=256,ITEMS=4", "exact");
		choice(k, 2048, "BLOCK=64,ITEMS=1", "nearest");
		choice(k, 40000, "BLOCK=256,ITEMS=4", "nearest");
		/* nearest is N=65536, whose ITEMS=4 breaks N % ITEMS == 0 */
		choice(k, 50002, "BLOCK=128,ITEMS=1", "default");
	}
	kt_rt_close(rt);
	/* another device: the template's defaults everywhere */
	rt = open_offline("GPU B", 13000);
	if (rt && kt_rt_load(&k, rt, tpl, NULL, wis) == 0) {
		choice(k, 1024, "BLOCK=128,ITEMS=1", "default");
		choice(k, 65536, "BLOCK=128,ITEMS=1", "default");
	}
	kt_rt_close(rt);
	/* no wisdom: the defaults */
	rt = open_offline("GPU A", 13000);
	if (rt && kt_rt_load(&k, rt, tpl, NULL, NULL) == 0)
		choice(k, 1024, "BLOCK=128,ITEMS=1", "default");
	kt_rt_close(rt);
}

/* Counts allocations while counting is on. */
static volatile int counting;
static volatile long allocations;

static void *counting_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	(void)ud;
	(void)osize;
	if (nsize == 0) {
		free(ptr);
		return NULL;
	}
	if (counting)
		allocations++;
	return realloc(ptr, nsize);
}

/* After the first call at a shape, the lookup a launch makes allocates
 * nothing (kt_rt_prepare is that lookup without the driver call). */
static void rt_lookup_after_the_first_call_allocates_nothing(void)
{
	kt_rt *rt = open_offline("GPU A", 13000);
	kt_rt_kernel *k = NULL;
	int64_t shapes[3] = {1024, 3000, 65536};
	if (rt && kt_rt_load(&k, rt, tpl, NULL, wis) == 0) {
		for (int i = 0; i < 3; i++)
			CHECK_EQ_INT(kt_rt_prepare(k, &shapes[i]), 0);
		kt_set_allocator(counting_alloc, NULL);
		counting = 1;
		for (int i = 0; i < 3000; i++)
			CHECK_EQ_INT(kt_rt_prepare(k, &shapes[i % 3]), 0);
		counting = 0;
		kt_set_allocator(NULL, NULL);
		CHECK_EQ_INT(allocations, 0);
	}
	kt_rt_close(rt);
}

/* Threads resolving shapes at once, the same and different ones, all
 * get the configuration the wisdom gives. */
static void *prepare_many(void *arg)
{
	kt_rt_kernel *k = arg;
	intptr_t bad = 0;
	for (int i = 0; i < 40 && !bad; i++) {
		int64_t n = 1024 * (1 + i % 7);
		char key[64];
		bad = kt_rt_choice(k, &n, key, sizeof(key), NULL) ||
		      strcmp(key, "BLOCK=64,ITEMS=1");
	}
	return (void *)bad;
}

static void rt_threads_resolve_shapes_at_once(void)
{
	kt_rt *rt = open_offline("GPU A", 13000);
	kt_rt_kernel *k = NULL;
	if (!rt || kt_rt_load(&k, rt, tpl, NULL, wis)) {
		kt_rt_close(rt);
		return;
	}
	pthread_t th[4];
	for (int i = 0; i < 4; i++)
		CHECK_EQ_INT(pthread_create(&th[i], NULL, prepare_many, k), 0);
	for (int i = 0; i < 4; i++) {
		void *bad = (void *)1;
		pthread_join(th[i], &bad);
		CHECK(bad == NULL);
	}
	kt_rt_close(rt);
}

static size_t files_in(const char *path)
{
	size_t n = 0;
	DIR *d = opendir(path);
	for (struct dirent *e; d && (e = readdir(d));)
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/* Prepares N=1024 on a runtime for (name, driver) of template t. */
static void prepare(const char *t, const char *name, int driver)
{
	kt_rt *rt = open_offline(name, driver);
	kt_rt_kernel *k = NULL;
	int64_t n = 1024;
	if (rt && kt_rt_load(&k, rt, t, NULL, NULL) == 0) {
		int rc = kt_rt_prepare(k, &n);
		if (rc)
			fprintf(stderr, "kt_rt_prepare: %s\n", kt_rt_error());
		CHECK_EQ_INT(rc, 0);
	}
	kt_rt_close(rt);
}

static void rt_cache_is_keyed_by_device_driver_and_source(void)
{
	prepare(tpl, "GPU A", 13000);
	size_t n = files_in(cache);
	CHECK(n >= 1);
	prepare(tpl, "GPU A", 13000); /* the same: from the cache */
	CHECK_EQ_INT(files_in(cache), n);
	prepare(tpl, "GPU A", 13010); /* another driver */
	CHECK_EQ_INT(files_in(cache), n + 1);
	prepare(tpl, "GPU C", 13000); /* another device */
	CHECK_EQ_INT(files_in(cache), n + 2);
	char other[512], *text = read_file(tpl);
	FILE *f = fopen(path_in(other, sizeof(other), "other.kt.cu"), "w");
	if (f && text) {
		fprintf(f, "// another source\n%s", text);
		fclose(f);
	}
	kt_free(text);
	prepare(other, "GPU A", 13000); /* another source */
	CHECK_EQ_INT(files_in(cache), n + 3);
}

static void rt_refuses_a_wisdom_of_another_template(void)
{
	char other[512];
	path_in(other, sizeof(other), "other.kt.cu"); /* a comment added */
	kt_rt *rt = open_offline("GPU A", 13000);
	kt_rt_kernel *k = NULL;
	if (!rt)
		return;
	CHECK_EQ_INT(kt_rt_load(&k, rt, other, NULL, wis), KT_EINVALID);
	CHECK(strstr(kt_rt_error(), "another version") != NULL);
	CHECK_EQ_INT(kt_rt_load(&k, rt, tpl, "nope", wis), KT_ENOTFOUND);
	CHECK(strstr(kt_rt_error(), "no annotated kernel 'nope'") != NULL);
	kt_rt_close(rt);
}

static void rt_offline_does_not_launch(void)
{
	kt_rt *rt = open_offline("GPU A", 13000);
	kt_rt_kernel *k = NULL;
	int64_t n = 1024;
	if (rt && kt_rt_load(&k, rt, tpl, NULL, wis) == 0) {
		CHECK_EQ_INT(kt_rt_launch(k, &n, NULL, NULL), KT_EUNSUPPORTED);
		CHECK(strstr(kt_rt_error(), "without a device") != NULL);
	}
	kt_rt_close(rt);
}

static void rt_reports_a_configuration_that_does_not_compile(void)
{
	char bad[512];
	FILE *f = fopen(path_in(bad, sizeof(bad), "bad.kt.cu"), "w");
	if (!f)
		return;
	fputs("#pragma kt param B values(32, 64) default(32)\n"
	      "#pragma kt problem N values(64) default(64)\n"
	      "#pragma kt launch grid(1) block(B)\n"
	      "#pragma kt arg y float[N] out\n"
	      "#ifndef B\n#define B 32\n#endif\n"
	      "static_assert(B == 32, \"B must be 32\");\n"
	      "extern \"C\" __global__ void k(float *y) { y[0] = 1; }\n",
	      f);
	fclose(f);
	char bw[512];
	path_in(bw, sizeof(bw), "bad.wisdom.json");
	kt_diags d;
	kt_diags_init(&d);
	kt_template *t = NULL;
	kt_wisdom *w = NULL;
	kt_template_load(&t, bad, &d);
	if (t &&
	    kt_wisdom_new(&w, kt_template_model(t, NULL), bad,
	                  kt_hash(KT_HASH_INIT, t->source, strlen(t->source)),
	                  "cold") == 0) {
		snprintf(w->device, sizeof(w->device), "GPU A");
		kt_value p[1] = {kt_int(64)}, b[1] = {kt_int(64)};
		kt_wisdom_set(w, p, b, 0.01, 0.02);
		kt_wisdom_write(w, bw);
	}
	kt_wisdom_free(w);
	kt_template_free(t);
	kt_diags_release(&d);
	kt_rt *rt = open_offline("GPU A", 13000);
	kt_rt_kernel *k = NULL;
	int64_t n = 64;
	if (rt && kt_rt_load(&k, rt, bad, NULL, bw) == 0) {
		CHECK_EQ_INT(kt_rt_prepare(k, &n), KT_EBACKEND);
		CHECK(strstr(kt_rt_error(), "does not compile at N=64") !=
		      NULL);
		CHECK(strstr(kt_rt_error(), "B must be 32") != NULL);
	}
	kt_rt_close(rt);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	snprintf(tpl, sizeof(tpl), "%s/scale.kt.cu", dir);
	snprintf(wis, sizeof(wis), "%s/scale.wisdom.json", dir);
	snprintf(cache, sizeof(cache), "%s/cache", dir);
	char *text = read_file(KTC_DEPLOY_INPUTS "/scale.kt.cu");
	if (!text || kt_fs_write_atomic(tpl, text, strlen(text)))
		return 1;
	kt_free(text);
	write_wisdom(tpl, wis);
	RUN(rt_picks_exact_nearest_and_default);
	RUN(rt_cache_is_keyed_by_device_driver_and_source);
	RUN(rt_refuses_a_wisdom_of_another_template);
	RUN(rt_offline_does_not_launch);
	RUN(rt_reports_a_configuration_that_does_not_compile);
	RUN(rt_lookup_after_the_first_call_allocates_nothing);
	RUN(rt_threads_resolve_shapes_at_once);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return check_summary();
}
