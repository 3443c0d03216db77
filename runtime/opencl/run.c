/*
 * run.c - one configuration in the worker: launch geometry, arguments,
 * verification against the default configuration, timing.
 *
 * `launch grid(...) block(...)` means OpenCL's number of work-groups and
 * work-group size: global size = grid * block in each dimension, so the
 * same annotation reads the same as in CUDA.
 *
 * Verification regenerates the inputs for every check (seeded by the
 * run's seed and the configuration's key, so a rerun checks the same data)
 * and runs the default configuration on them first: the reference always
 * saw exactly the inputs the candidate sees. Outputs are poisoned before
 * each run. Timing reads profiling events of each launch, after warm-up
 * runs, with the device's last-level cache overwritten before each one;
 * every timed run starts again from the checked inputs and poisoned
 * outputs, and what it leaves is checked like the verified run's.
 */
#include "runtime/opencl/ocl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/buffers.h"
#include "runtime/verify.h"
#include "util/fs.h"

/* A failed configuration: status and message. */
static void fail(kt_result *r, kt_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(kt_result *r, kt_status s, const char *fmt, ...)
{
	kt_str msg = KT_STR_INIT;
	va_list ap;
	va_start(ap, fmt);
	kt_str_vaddf(&msg, fmt, ap);
	va_end(ap);
	r->status = s;
	kt_free(r->message);
	r->message = kt_str_detach(&msg);
}

/* Appends why a configuration cannot run; returns KT_EINVALID. */
static int explain(kt_str *why, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int explain(kt_str *why, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kt_str_vaddf(why, fmt, ap);
	va_end(ap);
	return KT_EINVALID;
}

static int geometry(ocl_geom *g, const kt_model *m, const kt_value *slots,
                    kt_str *why)
{
	g->dims = 1;
	for (int d = 0; d < 3; d++) {
		int64_t v[2] = {1, 1};
		const kt_expr *e[2] = {m->launch.grid[d], m->launch.block[d]};
		for (int k = 0; k < 2; k++) {
			kt_value x;
			if (!e[k])
				continue;
			g->dims = (cl_uint)d + 1;
			if (kt_expr_eval(&x, e[k], slots))
				return explain(why, "launch: %s",
				               kt_error_last());
			v[k] = x.is_float ? (int64_t)x.f : x.i;
			if (v[k] < 1 || v[k] > (int64_t)1 << 31)
				return explain(why,
				               "launch: %s size %lld in "
				               "dimension %d",
				               k ? "block" : "grid",
				               (long long)v[k], d);
		}
		g->local[d] = (size_t)v[1];
		g->global[d] = (size_t)v[0] * (size_t)v[1];
	}
	return 0;
}

/* Hardware limits of the device and the compiled kernel: "constraints". */
static bool fits(ocl_worker *w, cl_kernel k, const ocl_geom *g, kt_result *r)
{
	size_t kmax = 0, total = 1;
	cl_ulong lmem = 0, pmem = 0;
	clGetKernelWorkGroupInfo(k, w->device, CL_KERNEL_WORK_GROUP_SIZE,
	                         sizeof(kmax), &kmax, NULL);
	clGetKernelWorkGroupInfo(k, w->device, CL_KERNEL_LOCAL_MEM_SIZE,
	                         sizeof(lmem), &lmem, NULL);
	clGetKernelWorkGroupInfo(k, w->device, CL_KERNEL_PRIVATE_MEM_SIZE,
	                         sizeof(pmem), &pmem, NULL);
	kt_result_add_measure(r, "max_work_group_size", (double)kmax, "");
	kt_result_add_measure(r, "local_mem", (double)lmem, "B");
	kt_result_add_measure(r, "private_mem", (double)pmem, "B");
	for (cl_uint d = 0; d < g->dims; d++) {
		total *= g->local[d];
		if (g->local[d] > w->max_items[d]) {
			fail(r, KT_STATUS_CONSTRAINTS,
			     "work-group size %zu in dimension %u exceeds the "
			     "device's %zu",
			     g->local[d], d, w->max_items[d]);
			return false;
		}
	}
	size_t limit = kmax && kmax < w->max_wg ? kmax : w->max_wg;
	if (total > limit) {
		fail(r, KT_STATUS_CONSTRAINTS,
		     "work-group of %zu work-items exceeds the limit %zu",
		     total, limit);
		return false;
	}
	return true;
}

/* Binds every argument: the problem's buffers, scalars from slots. */
static int set_args(ocl_worker *w, cl_kernel k, const kt_value *slots,
                    kt_str *why)
{
	const kt_model *m = w->m;
	cl_uint nargs = 0;
	clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(nargs), &nargs, NULL);
	if (nargs != m->nargs)
		return explain(why,
		               "kernel '%s' takes %u arguments, but "
		               "#pragma kt arg lists %zu",
		               m->kernel, nargs, m->nargs);
	for (size_t i = 0; i < m->nargs; i++) {
		const kt_arg *a = &m->args[i];
		cl_int err;
		kt_value v;
		if (a->count) {
			if (kt_expr_eval(&v, a->count, slots) ||
			    (size_t)v.i != w->args[i].count)
				return explain(why,
				               "argument '%s': its count "
				               "depends on parameters",
				               a->name);
			err = clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem),
			                     &w->args[i].mem);
		} else {
			unsigned char buf[16];
			kt_loc l = a->value->loc;
			if (kt_expr_eval(&v, a->value, slots))
				return explain(
				    why, "%s:%d:%d: the value of '%s': %s",
				    l.file, l.line, l.col, a->name,
				    kt_error_last());
			if (kt_buf_scalar_check(a, v))
				return explain(why, "%s", kt_error_last());
			size_t sz = kt_buf_scalar(buf, a->type, v);
			err = clSetKernelArg(k, (cl_uint)i, sz, buf);
		}
		if (err)
			return explain(why, "argument '%s': clSetKernelArg: %s",
			               a->name, ocl_strerror(err));
	}
	return 0;
}

/* Fresh inputs for one check, from the run's seed and the key; with
 * specials, NaN, Inf, subnormals and -0 mixed into the random ones. */
static void make_inputs(ocl_worker *w, const char *key, bool specials)
{
	uint64_t seed = kt_hash(w->opt->seed, key, strlen(key));
	for (size_t i = 0; i < w->m->nargs; i++) {
		ocl_arg *a = &w->args[i];
		if (!a->input)
			continue;
		kt_buf_fill(a->input, a->a->type, a->count, &a->a->init, seed,
		            i);
		if (specials && a->a->init.kind == KT_INIT_RANDOM)
			kt_buf_specials(a->input, a->a->type, a->count,
			                seed + 1, i);
	}
	w->checks++;
}

/* Inputs to the device, poison of check `check` into the outputs. */
static cl_int upload(ocl_worker *w, unsigned check)
{
	for (size_t i = 0; i < w->m->nargs; i++) {
		ocl_arg *a = &w->args[i];
		const void *src = a->input;
		if (!a->a->count)
			continue;
		if (!src) {
			memset(a->got, kt_buf_poison_byte(check), a->bytes);
			src = a->got;
		}
		cl_uchar g = OCL_GUARD_BYTE;
		cl_int err = clEnqueueWriteBuffer(w->queue, a->mem, CL_TRUE, 0,
		                                  a->bytes, src, 0, NULL, NULL);
		if (!err)
			err = clEnqueueFillBuffer(w->queue, a->whole, &g, 1, 0,
			                          w->guard, 0, NULL, NULL);
		if (!err)
			err = clEnqueueFillBuffer(w->queue, a->whole, &g, 1,
			                          w->guard + a->bytes, w->guard,
			                          0, NULL, NULL);
		if (err)
			return err;
	}
	return CL_SUCCESS;
}

/* The first buffer whose guards a run changed ("before", "after"). */
static const char *trampled(ocl_worker *w, const char **side)
{
	unsigned char *buf = kt_malloc(w->guard);
	const char *name = NULL;
	for (size_t i = 0; buf && !name && i < w->m->nargs; i++) {
		ocl_arg *a = &w->args[i];
		for (int s = 0; a->a->count && !name && s < 2; s++) {
			size_t off = s ? w->guard + a->bytes : 0;
			if (clEnqueueReadBuffer(w->queue, a->whole, CL_TRUE,
			                        off, w->guard, buf, 0, NULL,
			                        NULL))
				continue;
			for (size_t k = 0; k < w->guard && !name; k++)
				if (buf[k] != OCL_GUARD_BYTE)
					name = a->a->name;
			*side = s ? "after the end" : "before the start";
		}
	}
	kt_free(buf);
	return name;
}

static cl_int download(ocl_worker *w, bool into_ref)
{
	for (size_t i = 0; i < w->m->nargs; i++) {
		ocl_arg *a = &w->args[i];
		if (!a->a->count || a->a->dir == KT_ARG_IN)
			continue;
		cl_int err = clEnqueueReadBuffer(
		    w->queue, a->mem, CL_TRUE, 0, a->bytes,
		    into_ref ? a->ref : a->got, 0, NULL, NULL);
		if (err)
			return err;
	}
	return CL_SUCCESS;
}

/* One launch, waited for; *ms from its profiling event. */
static cl_int launch(ocl_worker *w, cl_kernel k, const ocl_geom *g, double *ms)
{
	cl_event ev;
	cl_ulong t0 = 0, t1 = 0;
	cl_int err = clEnqueueNDRangeKernel(w->queue, k, g->dims, NULL,
	                                    g->global, g->local, 0, NULL, &ev);
	if (err)
		return err;
	err = clWaitForEvents(1, &ev);
	if (!err)
		err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START,
		                              sizeof(t0), &t0, NULL);
	if (!err)
		err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END,
		                              sizeof(t1), &t1, NULL);
	clReleaseEvent(ev);
	if (ms)
		*ms = (double)(t1 - t0) * 1e-6;
	ocl_send(w->fd, OCL_MSG_BEAT, NULL, 0);
	return err;
}

/*
 * Compares the candidate's outputs (downloaded into got) with the
 * reference's; fails r (correctness) on the first that differs, the
 * message prefixed by `when` ("timed run 3: "). Returns the elements
 * compared.
 */
static double compare(ocl_worker *w, const char *when, kt_result *r)
{
	kt_str why = KT_STR_INIT;
	double checked = 0;
	for (size_t i = 0; i < w->m->nargs && !w->m->verify.off; i++) {
		ocl_arg *a = &w->args[i];
		if (!a->a->count || a->a->dir == KT_ARG_IN)
			continue;
		checked += (double)a->count;
		kt_tolerance tol =
		    kt_verify_tolerance(&w->m->verify, a->a->type);
		kt_verify_report rep;
		if (!kt_verify_compare(&rep, a->got, a->ref, a->a->type,
		                       a->count, &tol)) {
			kt_str_adds(&why, when);
			kt_verify_describe(&why, a->a->name, &rep, &tol);
			fail(r, KT_STATUS_CORRECTNESS, "%s", why.ptr);
			break;
		}
	}
	kt_str_release(&why);
	return checked;
}

/*
 * Fails r when a run changed an input buffer (`in`): the device's copy is
 * read back and compared with what was uploaded, byte for byte. A kernel
 * that writes its inputs could leave state for its next run (and the
 * timed runs restore them anyway), so it is not a valid result.
 */
static void input_check(ocl_worker *w, const char *when, kt_result *r)
{
	for (size_t i = 0; i < w->m->nargs; i++) {
		ocl_arg *a = &w->args[i];
		if (!a->a->count || a->a->dir != KT_ARG_IN || !a->bytes)
			continue;
		unsigned char *now = kt_malloc(a->bytes);
		cl_int err =
		    now ? clEnqueueReadBuffer(w->queue, a->mem, CL_TRUE, 0,
		                              a->bytes, now, 0, NULL, NULL)
		        : CL_OUT_OF_HOST_MEMORY;
		size_t at = 0;
		while (!err && at < a->bytes &&
		       now[at] == ((unsigned char *)a->input)[at])
			at++;
		kt_free(now);
		if (err)
			fail(r, KT_STATUS_RUNTIME, "%sreading input '%s': %s",
			     when, a->a->name, ocl_strerror(err));
		else if (at < a->bytes)
			fail(r, KT_STATUS_CORRECTNESS,
			     "%swrites its input '%s' (element %zu changed): a "
			     "kernel may not write an argument declared 'in'",
			     when, a->a->name, at / kt_type_size(a->a->type));
		if (err || at < a->bytes)
			return;
	}
}

/* Reference, then candidate, on the same fresh inputs; compared. The
 * first check of a configuration sends the worker's first-run allowance;
 * the elements compared come back. */
static double check_once(ocl_worker *w, cl_kernel k, const ocl_geom *g,
                         const char *key, bool specials, bool first,
                         kt_result *r)
{
	const char *when = specials ? "with NaN, Inf, subnormals and -0 "
	                              "mixed into the inputs: "
	                            : "";
	cl_int err;
	make_inputs(w, key, specials);
	if ((err = upload(w, w->checks)) ||
	    (err = launch(w, w->ref_kernel, &w->ref_geom, NULL)) ||
	    (err = download(w, true))) {
		fail(r, KT_STATUS_RUNTIME, "%sreference run: %s", when,
		     ocl_strerror(err));
		return 0;
	}
	if (first) {
		double allow = 4 * r->compile_s > OCL_JIT_MIN_S
		                   ? 4 * r->compile_s
		                   : OCL_JIT_MIN_S;
		ocl_send(w->fd, OCL_MSG_FIRST, &allow, sizeof(allow));
	}
	if ((err = upload(w, w->checks)) || (err = launch(w, k, g, NULL)) ||
	    (err = download(w, false))) {
		fail(r, KT_STATUS_RUNTIME, "%slaunch: %s", when,
		     ocl_strerror(err));
		return 0;
	}
	const char *side = NULL, *name = trampled(w, &side);
	if (name) {
		fail(r, KT_STATUS_RUNTIME, "%swrote %s of argument '%s'", when,
		     side, name);
		return 0;
	}
	double checked = compare(w, when, r);
	if (r->status == KT_STATUS_OK)
		input_check(w, when, r);
	return checked;
}

/* The checks of one configuration: on inputs with special values first
 * when asked, then on plain ones, which the timed runs reuse. */
static void verify(ocl_worker *w, cl_kernel k, const ocl_geom *g,
                   const char *key, kt_result *r)
{
	bool first = true;
	if (w->opt->specials) {
		check_once(w, k, g, key, true, first, r);
		first = false;
	}
	double checked = 0;
	if (r->status == KT_STATUS_OK)
		checked = check_once(w, k, g, key, false, first, r);
	/* the evidence of a check: output elements compared with the reference
	 */
	if (checked > 0 && r->status == KT_STATUS_OK)
		kt_result_add_measure(r, "verified_elements", checked, "");
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Median and (p90 - p10) / median of the timed runs. */
static void summarize(kt_result *r)
{
	size_t n = r->nruntimes;
	double *s = kt_malloc(n * sizeof(double));
	if (!s)
		return;
	memcpy(s, r->runtimes_ms, n * sizeof(double));
	qsort(s, n, sizeof(double), cmp_double);
	r->time_ms = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
	double p10 = s[(size_t)floor(0.1 * (double)(n - 1))],
	       p90 = s[(size_t)ceil(0.9 * (double)(n - 1))];
	r->spread = r->time_ms > 0 ? (p90 - p10) / r->time_ms : 0;
	kt_free(s);
}

/*
 * What a timed run left: its outputs (downloaded) equal the reference's,
 * its guards and its inputs are intact. Each timed run starts from poisoned
 * outputs and restored inputs, so a kernel that skips its work once its
 * output holds the answer, or on every run after the checked one, fails.
 */
static void timed_check(ocl_worker *w, kt_result *r)
{
	char when[48];
	snprintf(when, sizeof(when), "timed run %zu: ", r->nruntimes);
	const char *side = NULL, *name = trampled(w, &side);
	if (name)
		fail(r, KT_STATUS_RUNTIME, "%swrote %s of argument '%s'", when,
		     side, name);
	else if (compare(w, when, r), r->status == KT_STATUS_OK)
		input_check(w, when, r);
}

/*
 * Warm-up, then timed runs until runs are done or the budget is spent;
 * each timed run starts from the inputs of the check and poisoned outputs,
 * and is checked after (timed_check). Only the launch itself is timed.
 */
static void benchmark(ocl_worker *w, cl_kernel k, const ocl_geom *g,
                      kt_result *r)
{
	cl_int err = CL_SUCCESS;
	double start = ocl_now();
	r->runtimes_ms = kt_malloc((size_t)w->runs * sizeof(double));
	if (!r->runtimes_ms) {
		fail(r, KT_STATUS_RUNTIME, "out of memory");
		return;
	}
	for (int i = 0; i < w->warmup && !err; i++)
		if (!(err = upload(w, w->checks + (unsigned)i)))
			err = launch(w, k, g, NULL);
	while (!err && r->status == KT_STATUS_OK &&
	       r->nruntimes < (size_t)w->runs) {
		if (r->nruntimes >= OCL_MIN_RUNS &&
		    ocl_now() - start > OCL_BENCH_BUDGET_S)
			break;
		cl_uint pattern = (cl_uint)r->nruntimes;
		err = upload(w, w->checks + (unsigned)r->nruntimes);
		if (!err && w->flush)
			err = clEnqueueFillBuffer(
			    w->queue, w->flush, &pattern, sizeof(pattern), 0,
			    w->flush_bytes, 0, NULL, NULL);
		if (!err)
			err = launch(w, k, g, &r->runtimes_ms[r->nruntimes++]);
		if (!err)
			err = download(w, false);
		if (!err)
			timed_check(w, r);
	}
	if (err) {
		fail(r, KT_STATUS_RUNTIME, "timed run: %s", ocl_strerror(err));
		return;
	}
	if (r->status == KT_STATUS_OK) {
		kt_result_add_measure(r, "verified_timed_runs",
		                      (double)r->nruntimes, "");
		summarize(r);
	}
}

/* bandwidth (GB/s, and the fraction of the copy bandwidth) or gflops. */
static void add_objective(ocl_worker *w, const kt_value *slots, kt_result *r)
{
	const kt_objective *o = &w->m->objective;
	kt_value v;
	if (o->kind == KT_OBJ_TIME || !o->expr || !(r->time_ms > 0) ||
	    kt_expr_eval(&v, o->expr, slots))
		return;
	double per_s = kt_value_as_double(v) / (r->time_ms * 1e-3) * 1e-9;
	if (o->kind == KT_OBJ_FLOPS) {
		kt_result_add_measure(r, "gflops", per_s, "GFLOP/s");
		return;
	}
	kt_result_add_measure(r, "bandwidth", per_s, "GB/s");
	if (w->info.copy_gbs > 0)
		kt_result_add_measure(r, "bandwidth_fraction",
		                      per_s / w->info.copy_gbs, "");
}

void ocl_run_config(ocl_worker *w, const kt_value *slots, const char *key,
                    cl_program program, kt_result *r)
{
	kt_str why = KT_STR_INIT;
	ocl_geom g;
	cl_int err;
	double t0 = ocl_now();
	cl_kernel k = clCreateKernel(program, w->m->kernel, &err);
	if (err) {
		fail(r, KT_STATUS_COMPILE, "clCreateKernel '%s': %s",
		     w->m->kernel, ocl_strerror(err));
		goto done;
	}
	if (geometry(&g, w->m, slots, &why) || set_args(w, k, slots, &why)) {
		fail(r, KT_STATUS_RUNTIME, "%s", why.ptr);
		goto done;
	}
	if (!fits(w, k, &g, r))
		goto done;
	verify(w, k, &g, key, r);
	r->verify_s = ocl_now() - t0;
	if (r->status != KT_STATUS_OK)
		goto done;
	t0 = ocl_now();
	benchmark(w, k, &g, r);
	r->benchmark_s = ocl_now() - t0;
	if (r->status == KT_STATUS_OK)
		add_objective(w, slots, r);
done:
	if (k)
		clReleaseKernel(k);
	r->timestamp = ocl_wall_clock();
	kt_str_release(&why);
}

/* Output elements of the reference that differ between its two runs. */
static const char *unstable_output(ocl_worker *w)
{
	for (size_t i = 0; i < w->m->nargs; i++) {
		const ocl_arg *a = &w->args[i];
		if (a->a->count && a->a->dir != KT_ARG_IN &&
		    memcmp(a->ref, a->got, a->bytes))
			return a->a->name;
	}
	return NULL;
}

/*
 * The default configuration on its own: arguments, geometry, and two runs
 * on the same inputs with different poison. Outputs that differ mean an
 * element left unwritten (or a race): there is no reference then, and
 * set_problem reports it as the template's problem.
 */
int ocl_run_reference(ocl_worker *w)
{
	kt_str why = KT_STR_INIT;
	cl_int err = CL_SUCCESS;
	int rc = 0;
	if (geometry(&w->ref_geom, w->m, w->ref_slots, &why) ||
	    set_args(w, w->ref_kernel, w->ref_slots, &why)) {
		rc = kt_error(KT_EINVALID, "opencl: default configuration: %s",
		              why.ptr);
		goto done;
	}
	for (int run = 0; run < 2 && !err; run++) {
		make_inputs(w, "", false); /* the same inputs, the other
		                              poison */
		if (!(err = upload(w, w->checks)) &&
		    !(err = launch(w, w->ref_kernel, &w->ref_geom, NULL)))
			err = download(w, run == 0);
	}
	const char *name = err ? NULL : unstable_output(w);
	if (err)
		rc = kt_error(
		    KT_EBACKEND,
		    "opencl: the default configuration fails to run: %s",
		    ocl_strerror(err));
	else if (name)
		rc =
		    kt_error(KT_EINVALID,
		             "opencl: the default configuration of '%s' leaves "
		             "output '%s' partly unwritten, or computes it "
		             "differently each run: it cannot be the reference",
		             w->m->kernel, name);
done:
	kt_str_release(&why);
	return rc;
}
