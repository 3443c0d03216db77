/*
 * worker.c - the OpenCL worker process: opens the device, keeps the
 * current problem's buffers and the default configuration's kernel, and
 * answers the parent's batches one message at a time.
 *
 * A batch is built first, all of it, on parallel threads, and only then
 * run: on a CPU device (PoCL) the compiler and the kernels would compete
 * for the same cores, so overlapping them would spoil the timings. Before
 * the run phase of each configuration the worker says BEGIN, and after
 * each launch BEAT, so the parent's watchdog knows which configuration a
 * crash or a hang belongs to.
 */
#include "runtime/buffers.h"
#include "runtime/opencl/ocl.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Guard bytes on each side of a buffer, at least. */
#define GUARD_BYTES 4096
/* Largest last-level cache the timing loop overwrites between runs. */
#define MAX_FLUSH_BYTES ((size_t)256 << 20)

static int send_fail(int fd, int code, const char *msg)
{
	kt_str s = KT_STR_INIT;
	kt_wire_put_u32(&s, (uint32_t)-code);
	kt_wire_put_str(&s, msg);
	int rc = ocl_send(fd, OCL_MSG_FAIL, s.ptr, s.len);
	kt_str_release(&s);
	return rc;
}

static double median3(double a, double b, double c)
{
	return a > b ? (b > c ? b : (a > c ? c : a))
	             : (a > c ? a : (b > c ? c : b));
}

/* Device copy bandwidth (read + write) from three timed buffer copies. */
static double copy_bandwidth(ocl_worker *w)
{
	size_t bytes = (size_t)64 << 20;
	double t[3] = {0, 0, 0};
	cl_int err;
	cl_mem a = clCreateBuffer(w->ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
	cl_mem b = clCreateBuffer(w->ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
	for (int i = -1; i < 3 && a && b; i++) {
		cl_event ev;
		cl_ulong t0 = 0, t1 = 0;
		if (clEnqueueCopyBuffer(w->queue, a, b, 0, 0, bytes, 0, NULL,
		                        &ev))
			break;
		clWaitForEvents(1, &ev);
		clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, 8, &t0,
		                        0);
		clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 8, &t1,
		                        0);
		clReleaseEvent(ev);
		if (i >= 0)
			t[i] = (double)(t1 - t0) * 1e-9;
	}
	if (a)
		clReleaseMemObject(a);
	if (b)
		clReleaseMemObject(b);
	double s = median3(t[0], t[1], t[2]);
	return s > 0 ? 2.0 * (double)bytes / s * 1e-9 : 0;
}

/* A buffer as large as twice the device's global memory cache. */
static void make_flush(ocl_worker *w)
{
	cl_ulong cache = 0;
	cl_int err;
	clGetDeviceInfo(w->device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE,
	                sizeof(cache), &cache, NULL);
	if (!cache || 2 * cache > MAX_FLUSH_BYTES)
		return;
	w->flush_bytes = (size_t)(2 * cache);
	w->flush = clCreateBuffer(w->ctx, CL_MEM_READ_WRITE, w->flush_bytes,
	                          NULL, &err);
}

static int open_device(ocl_worker *w, double copy_gbs)
{
	cl_int err;
	int rc = ocl_device_select(&w->platform, &w->device, w->opt->device);
	if (rc)
		return rc;
	ocl_device_describe(&w->info, w->platform, w->device);
	clGetDeviceInfo(w->device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
	                sizeof(w->max_wg), &w->max_wg, NULL);
	clGetDeviceInfo(w->device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
	                sizeof(w->max_items), w->max_items, NULL);
	/* a sub-buffer must start on the device's base address alignment */
	cl_uint align_bits = 0;
	clGetDeviceInfo(w->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN,
	                sizeof(align_bits), &align_bits, NULL);
	w->guard = align_bits / 8 > GUARD_BYTES ? align_bits / 8 : GUARD_BYTES;
	w->ctx = clCreateContext(NULL, 1, &w->device, NULL, NULL, &err);
	if (err)
		return ocl_fail(err, "clCreateContext");
	w->queue = clCreateCommandQueue(w->ctx, w->device,
	                                CL_QUEUE_PROFILING_ENABLE, &err);
	if (err)
		return ocl_fail(err, "clCreateCommandQueue");
	w->devvals = kt_calloc(w->m->ndevices + 1, sizeof(kt_value));
	if (!w->devvals)
		return kt_error(KT_ENOMEM, "out of memory");
	ocl_device_values(w->devvals, w->m, &w->info);
	w->info.copy_gbs = copy_gbs > 0 ? copy_gbs : copy_bandwidth(w);
	make_flush(w);
	w->runs =
	    w->opt->timed_runs > 0 ? w->opt->timed_runs : OCL_DEFAULT_RUNS;
	w->warmup =
	    w->opt->warmup_runs > 0 ? w->opt->warmup_runs : OCL_DEFAULT_WARMUP;
	return 0;
}

static void release_problem(ocl_worker *w)
{
	for (size_t i = 0; w->args && i < w->m->nargs; i++) {
		ocl_arg *a = &w->args[i];
		if (a->mem)
			clReleaseMemObject(a->mem);
		if (a->whole)
			clReleaseMemObject(a->whole);
		kt_free(a->input);
		kt_free(a->ref);
		kt_free(a->got);
	}
	kt_free(w->args);
	w->args = NULL;
	if (w->ref_kernel)
		clReleaseKernel(w->ref_kernel);
	if (w->ref_program)
		clReleaseProgram(w->ref_program);
	w->ref_kernel = NULL;
	w->ref_program = NULL;
	kt_free(w->ref_slots);
	kt_free(w->problem);
	w->ref_slots = NULL;
	w->problem = NULL;
}

/* Host arrays and the device buffer of one buffer argument. */
static int alloc_arg(ocl_worker *w, ocl_arg *a)
{
	kt_value n;
	cl_int err;
	kt_loc l = a->a->count->loc;
	if (kt_expr_eval(&n, a->a->count, w->ref_slots))
		return kt_error(KT_EINVALID, "%s:%d:%d: the count of '%s': %s",
		                l.file, l.line, l.col, a->a->name,
		                kt_error_last());
	cl_ulong cap = 0;
	clGetDeviceInfo(w->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(cap),
	                &cap, NULL);
	uint64_t count, bytes;
	int rc = kt_buf_bytes(&count, &bytes, a->a, n, cap);
	if (rc)
		return rc;
	if (count < 1)
		return kt_error(KT_EINVALID, "argument '%s': %g elements",
		                a->a->name, kt_value_as_double(n));
	a->count = (size_t)count;
	a->bytes = (size_t)bytes;
	if (a->a->dir != KT_ARG_OUT && !(a->input = kt_malloc(a->bytes)))
		return kt_error(KT_ENOMEM, "out of memory");
	if (a->a->dir != KT_ARG_IN && (!(a->ref = kt_malloc(a->bytes)) ||
	                               !(a->got = kt_malloc(a->bytes))))
		return kt_error(KT_ENOMEM, "out of memory");
	cl_buffer_region inner = {w->guard, a->bytes};
	a->whole = clCreateBuffer(w->ctx, CL_MEM_READ_WRITE,
	                          a->bytes + 2 * w->guard, NULL, &err);
	if (!err)
		a->mem = clCreateSubBuffer(a->whole, CL_MEM_READ_WRITE,
		                           CL_BUFFER_CREATE_TYPE_REGION, &inner,
		                           &err);
	if (err)
		return kt_error(KT_EBACKEND, "argument '%s': %zu bytes: %s",
		                a->a->name, a->bytes, ocl_strerror(err));
	return 0;
}

/* The default configuration's program and kernel, built on this thread. */
static int build_reference(ocl_worker *w)
{
	ocl_build b = {.slots = w->ref_slots};
	cl_int err;
	int rc = 0;
	ocl_build_all(w->ctx, w->device, w->m, &b, 1, 1, NULL, NULL);
	if (!b.program) {
		rc = kt_error(KT_EBACKEND,
		              "opencl: the default configuration of '%s' does "
		              "not build: %s",
		              w->m->kernel, b.log ? b.log : "");
		goto done;
	}
	w->ref_kernel = clCreateKernel(b.program, w->m->kernel, &err);
	if (err) {
		rc = kt_error(KT_EBACKEND,
		              "opencl: no __kernel '%s' in '%s' (%s)",
		              w->m->kernel, w->m->file, ocl_strerror(err));
		goto done;
	}
	w->ref_program = b.program;
	b.program = NULL;
done:
	ocl_build_release(&b);
	return rc;
}

static int set_problem(ocl_worker *w, const kt_str *payload)
{
	const kt_model *m = w->m;
	kt_wire_reader rd;
	release_problem(w);
	w->problem = kt_calloc(m->nproblems + 1, sizeof(kt_value));
	w->ref_slots = kt_calloc(m->nsymbols + 1, sizeof(kt_value));
	uint32_t *idx = kt_calloc(m->nparams + 1, sizeof(uint32_t));
	w->args = kt_calloc(m->nargs + 1, sizeof(ocl_arg));
	int rc = KT_ENOMEM;
	if (!w->problem || !w->ref_slots || !idx || !w->args)
		goto done;
	kt_wire_reader_init(&rd, payload);
	kt_wire_get(&rd, w->problem, m->nproblems * sizeof(kt_value));
	kt_model_default_config(m, idx);
	rc = kt_model_bind(w->ref_slots, m, idx, w->problem, w->devvals);
	for (size_t i = 0; i < m->nargs && !rc; i++) {
		w->args[i].a = &m->args[i];
		if (m->args[i].count)
			rc = alloc_arg(w, &w->args[i]);
	}
	if (!rc)
		rc = build_reference(w);
	if (!rc && !w->opt->compile_only) /* compile-only runs nothing */
		rc = ocl_run_reference(w);
done:
	if (rc == KT_ENOMEM)
		kt_error(rc, "out of memory");
	kt_free(idx);
	return rc;
}

/* The configurations of one BATCH message. */
typedef struct batch {
	ocl_worker *w;
	size_t n;
	int threads;
	uint32_t *ids;
	char **keys;
	kt_value *slots; /* n * m->nsymbols */
	ocl_build *builds;
} batch;

static void batch_release(batch *b)
{
	for (size_t i = 0; i < b->n; i++) {
		if (b->keys)
			kt_free(b->keys[i]);
		if (b->builds)
			ocl_build_release(&b->builds[i]);
	}
	kt_free(b->ids);
	kt_free(b->keys);
	kt_free(b->slots);
	kt_free(b->builds);
}

/* u32 n, u32 threads, then per configuration: u32 id, slots, key. */
static int batch_parse(batch *b, const kt_str *payload)
{
	size_t nsym = b->w->m->nsymbols;
	kt_wire_reader rd;
	kt_wire_reader_init(&rd, payload);
	b->n = kt_wire_get_u32(&rd);
	b->threads = (int)kt_wire_get_u32(&rd);
	if (rd.bad || b->n > payload->len)
		return kt_error(KT_EIO, "opencl: corrupt batch");
	b->ids = kt_calloc(b->n + 1, sizeof(uint32_t));
	b->keys = kt_calloc(b->n + 1, sizeof(char *));
	b->slots = kt_calloc(b->n * nsym + 1, sizeof(kt_value));
	b->builds = kt_calloc(b->n + 1, sizeof(ocl_build));
	if (!b->ids || !b->keys || !b->slots || !b->builds)
		return kt_error(KT_ENOMEM, "out of memory");
	for (size_t i = 0; i < b->n; i++) {
		b->ids[i] = kt_wire_get_u32(&rd);
		kt_wire_get(&rd, &b->slots[i * nsym], nsym * sizeof(kt_value));
		b->keys[i] = kt_wire_get_strdup(&rd);
		b->builds[i].slots = &b->slots[i * nsym];
	}
	return rd.bad ? kt_error(KT_EIO, "opencl: corrupt batch") : 0;
}

static void on_built(void *ud, size_t i)
{
	const batch *b = ud;
	ocl_send(b->w->fd, OCL_MSG_BUILT, &b->ids[i], sizeof(uint32_t));
}

/* Runs configuration i of a built batch and sends its result. */
static int run_one(batch *b, size_t i, kt_status *status)
{
	ocl_worker *w = b->w;
	ocl_build *bd = &b->builds[i];
	kt_result r;
	kt_str out = KT_STR_INIT;
	kt_result_init(&r);
	r.compile_s = bd->seconds;
	if (!bd->program) {
		r.status = KT_STATUS_COMPILE;
		r.message = bd->log;
		bd->log = NULL;
	} else if (!w->opt->compile_only) {
		ocl_send(w->fd, OCL_MSG_BEGIN, &b->ids[i], sizeof(uint32_t));
		ocl_run_config(w, bd->slots, b->keys[i] ? b->keys[i] : "",
		               bd->program, &r);
	}
	ocl_build_release(bd);
	int rc = kt_wire_put_u32(&out, b->ids[i]);
	if (!rc)
		rc = kt_wire_put_result(&out, &r);
	if (!rc)
		rc = ocl_send(w->fd, OCL_MSG_RESULT, out.ptr, out.len);
	*status = r.status;
	kt_result_release(&r);
	kt_str_release(&out);
	return rc;
}

/*
 * Builds and runs a batch. Returns 1 when the worker should exit after a
 * runtime failure (the context may be damaged; the parent starts a fresh
 * worker for the rest), 0 when done, negative on a failure of the worker.
 */
static int run_batch(ocl_worker *w, const kt_str *payload)
{
	batch b = {.w = w};
	int rc = w->problem ? batch_parse(&b, payload)
	                    : kt_error(KT_EINVALID, "opencl: no problem set");
	if (rc)
		goto done;
	ocl_build_all(w->ctx, w->device, w->m, b.builds, b.n, b.threads,
	              on_built, &b);
	for (size_t i = 0; i < b.n && !rc; i++) {
		kt_status st;
		rc = run_one(&b, i, &st);
		if (!rc && st == KT_STATUS_RUNTIME)
			rc = 1;
	}
	if (!rc)
		rc = ocl_send(w->fd, OCL_MSG_DONE, NULL, 0);
done:
	batch_release(&b);
	return rc;
}

int ocl_worker_main(const kt_model *m, const kt_backend_options *opt, int fd,
                    double copy_gbs)
{
	ocl_worker w = {.m = m, .opt = opt, .fd = fd};
	kt_str msg = KT_STR_INIT;
	uint32_t type = 0;
	int rc = open_device(&w, copy_gbs);
	if (rc) {
		send_fail(fd, rc, kt_error_last());
		return 1;
	}
	rc = ocl_send(fd, OCL_MSG_HELLO, &w.info, sizeof(w.info));
	while (!rc && !ocl_recv(fd, &type, &msg, -1) && type != OCL_MSG_QUIT) {
		if (type == OCL_MSG_PROBLEM) {
			rc = set_problem(&w, &msg);
			if (rc) /* the parent reports it; a new problem may do
			         */
				release_problem(&w);
			rc = rc ? send_fail(fd, rc, kt_error_last())
			        : ocl_send(fd, OCL_MSG_READY, NULL, 0);
		} else if (type == OCL_MSG_BATCH) {
			rc = run_batch(&w, &msg);
			if (rc < 0)
				send_fail(fd, rc, kt_error_last());
		}
	}
	kt_str_release(&msg);
	release_problem(&w);
	if (w.flush)
		clReleaseMemObject(w.flush);
	if (w.queue)
		clReleaseCommandQueue(w.queue);
	if (w.ctx)
		clReleaseContext(w.ctx);
	kt_free(w.devvals);
	return rc < 0 ? 1 : rc;
}
