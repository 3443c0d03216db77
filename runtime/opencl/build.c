/*
 * build.c - one OpenCL program per configuration: the template's source as
 * written, its parameters and derived values as -D definitions, built on
 * several threads at once.
 *
 * Each thread builds its own cl_program from one shared context, which the
 * OpenCL specification allows (all calls but clSetKernelArg are
 * thread-safe); on PoCL the builds really run in parallel.
 */
#include "runtime/opencl/ocl.h"
#include "util/num.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_LOG = 4096, MAX_THREADS = 64 };

/* A value as a C literal: floats keep a '.', negatives are parenthesised. */
static int add_value(kt_str *out, kt_value v)
{
	char buf[64];
	if (v.is_float) {
		kt_num_float_literal(buf, sizeof(buf), v.f);
	} else {
		snprintf(buf, sizeof(buf), "%lld", (long long)v.i);
	}
	return kt_str_addf(out, buf[0] == '-' ? "(%s)" : "%s", buf);
}

int ocl_build_options(kt_str *out, const kt_model *m, const kt_value *slots)
{
	/* as the CUDA backend: a template may tell a tuning build apart */
	int rc = kt_str_adds(out, "-D KTC_TUNING=1");
	for (size_t i = 0; i < m->nparams && !rc; i++) {
		rc = kt_str_addf(out, " -D %s=", m->params[i].name);
		if (!rc)
			rc = add_value(out, slots[m->params[i].sym]);
	}
	for (size_t i = 0; i < m->nsets && !rc; i++) {
		rc = kt_str_addf(out, " -D %s=", m->sets[i].name);
		if (!rc)
			rc = add_value(out, slots[m->sets[i].sym]);
	}
	/* the template's folder, for its #include "..." lines */
	const char *slash = m->file ? strrchr(m->file, '/') : NULL;
	if (!rc && slash && !memchr(m->file, ' ', (size_t)(slash - m->file)))
		rc = kt_str_addf(out, " -I %.*s", (int)(slash - m->file),
		                 m->file);
	return rc;
}

/* The build log, or the OpenCL status when there is none. */
static char *build_log(cl_program prog, cl_device_id dev, cl_int err)
{
	kt_str s = KT_STR_INIT;
	size_t len = 0;
	kt_str_addf(&s, "build failed (%s)", ocl_strerror(err));
	if (!clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL,
	                           &len) &&
	    len > 1) {
		char *log = kt_malloc(len + 1);
		if (log &&
		    !clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, len,
		                           log, NULL)) {
			log[len] = '\0';
			while (len && (log[len - 1] == '\0' ||
			               isspace((unsigned char)log[len - 1])))
				log[--len] = '\0';
			kt_str_addf(&s, ":\n%.*s", MAX_LOG, log);
		}
		kt_free(log);
	}
	return kt_str_detach(&s);
}

/*
 * A test hook: the build whose options contain KTC_OPENCL_TEST_BUILD_CRASH
 * crashes like a compiler bug would, so tests can check that a crash in the
 * parallel build phase costs that one configuration.
 */
static void plant_crash(const char *options)
{
	const char *text = getenv("KTC_OPENCL_TEST_BUILD_CRASH");
	if (text && *text && strstr(options, text))
		abort(); /* as an assertion in the compiler would */
}

static void build_one(cl_context ctx, cl_device_id dev, const kt_model *m,
                      ocl_build *b)
{
	kt_str opts = KT_STR_INIT, line = KT_STR_INIT;
	cl_int err = CL_SUCCESS;
	double t0 = ocl_now();
	/* compiler messages name the template, not a temporary copy */
	if (m->file && !strpbrk(m->file, "\"\\\n"))
		kt_str_addf(&line, "#line 1 \"%s\"\n", m->file);
	const char *src[2] = {line.ptr, m->source};
	if (ocl_build_options(&opts, m, b->slots)) {
		b->log = kt_strdup("out of memory");
		goto done;
	}
	plant_crash(opts.ptr);
	cl_program p = clCreateProgramWithSource(ctx, 2, src, NULL, &err);
	if (err) {
		b->log = kt_strdup(ocl_strerror(err));
		goto done;
	}
	err = clBuildProgram(p, 1, &dev, opts.ptr, NULL, NULL);
	if (err) {
		b->log = build_log(p, dev, err);
		clReleaseProgram(p);
		goto done;
	}
	b->program = p;
done:
	b->seconds = ocl_now() - t0;
	kt_str_release(&opts);
	kt_str_release(&line);
}

typedef struct pool {
	cl_context ctx;
	cl_device_id dev;
	const kt_model *m;
	ocl_build *b;
	size_t n, next;
	pthread_mutex_t lock;
	ocl_build_done_fn done;
	void *ud;
} pool;

static void *pool_thread(void *arg)
{
	pool *p = arg;
	for (;;) {
		pthread_mutex_lock(&p->lock);
		size_t i = p->next < p->n ? p->next++ : p->n;
		pthread_mutex_unlock(&p->lock);
		if (i == p->n)
			return NULL;
		build_one(p->ctx, p->dev, p->m, &p->b[i]);
		pthread_mutex_lock(&p->lock);
		if (p->done)
			p->done(p->ud, i);
		pthread_mutex_unlock(&p->lock);
	}
}

void ocl_build_all(cl_context ctx, cl_device_id dev, const kt_model *m,
                   ocl_build *b, size_t n, int threads, ocl_build_done_fn done,
                   void *ud)
{
	pool p = {ctx, dev, m, b, n, 0, PTHREAD_MUTEX_INITIALIZER, done, ud};
	pthread_t tid[MAX_THREADS];
	int started = 0;
	if (threads > MAX_THREADS)
		threads = MAX_THREADS;
	if ((size_t)threads > n)
		threads = (int)n;
	/* the calling thread builds too; extra threads only when they help */
	for (int t = 1; t < threads; t++)
		if (!pthread_create(&tid[started], NULL, pool_thread, &p))
			started++;
	pool_thread(&p);
	for (int t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	pthread_mutex_destroy(&p.lock);
}

void ocl_build_release(ocl_build *b)
{
	if (b->program)
		clReleaseProgram(b->program);
	kt_free(b->log);
	b->program = NULL;
	b->log = NULL;
}
