/*
 * runtime/cuda/worker_eval.c - one configuration in the worker: load its
 * cubin and check it against the device's and the kernel's limits, run it
 * at every problem size and input seed against the reference, then time it.
 *
 * Timing (the cold objective): each run restores the inputs and in-outs,
 * poisons the outputs and flushes the L2 (reading a buffer twice its
 * size) first, then records an event, launches, records another; what a run
 * leaves is checked like a verified run's (every run on the stream; of a
 * graph's, the runs whose buffers the graph copies, see snapshots_make).
 * Warm-up runs estimate the kernel's time; a kernel under the graph threshold
 * is timed as the replay of one CUDA graph holding every timed run (the events
 * are event-record nodes), so launch overhead does not enter its numbers. The
 * graph objective times back-to-back launches instead (steady_runs).
 */
#include "runtime/cuda/worker.h"

#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "runtime/buffers.h"
#include "runtime/cuda/profile.h"
#include "runtime/verify.h"

typedef struct eval_req {
	uint32_t ninst, runs, warmup;
	double graph_below_ms;
	uint32_t steady; /* the graph objective: launches per replay; 0: cold */
	uint32_t *inst;  /* instance index per launch */
	kt_cu_launch *launch; /* one per checked instance; [0] is timed */
	kt_cu_prog *prog;
} eval_req;

typedef struct eval_out {
	kt_status st;
	kt_str why;
	double verify_s, benchmark_s, load_s;
	double *times;
	size_t ntimes;
	kt_measure m[KT_MAX_MEASURES];
	size_t nm;
} eval_out;

static void add_measure(eval_out *o, const char *name, double v,
                        const char *unit)
{
	if (o->nm >= KT_MAX_MEASURES)
		return;
	kt_measure *m = &o->m[o->nm++];
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->unit, sizeof(m->unit), "%s", unit);
	m->value = v;
}

/* A CUDA error during a run: the context is lost unless it is a refusal
 * to launch (too many resources), which is the configuration's limit. */
static void run_error(kt_cu_worker *w, CUresult r, const char *what,
                      kt_status *st, kt_str *why)
{
	bool refused = r == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES ||
	               r == CUDA_ERROR_INVALID_VALUE;
	*st = refused ? KT_STATUS_CONSTRAINTS : KT_STATUS_RUNTIME;
	kt_str_clear(why);
	kt_str_addf(why, "%s: %s", what, kt_cu_error_name(&w->d, r));
	const char *text = NULL;
	if (w->d.cuGetErrorString(r, &text) == CUDA_SUCCESS && text)
		kt_str_addf(why, " (%s)", text);
	if (!refused)
		w->broken = true;
}

static int check_limits(kt_cu_worker *w, kt_cu_prog *p, const kt_cu_launch *l,
                        kt_status *st, kt_str *why)
{
	long long threads = (long long)l->block[0] * l->block[1] * l->block[2];
	long long optin = kt_cu_attr(
	    w, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
	long long plain =
	    kt_cu_attr(w, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
	kt_str_clear(why);
	if (threads > p->max_threads) {
		*st = KT_STATUS_CONSTRAINTS;
		return kt_str_addf(why,
		                   "using %d registers per thread, the kernel "
		                   "can have at most %d threads per block; the "
		                   "block has %lld",
		                   p->regs, p->max_threads, threads);
	}
	if ((long long)p->smem_static + l->smem > optin) {
		*st = KT_STATUS_CONSTRAINTS;
		return kt_str_addf(why,
		                   "shared memory: %d bytes static + %u "
		                   "dynamic, the device allows %lld per block",
		                   p->smem_static, l->smem, optin);
	}
	if (l->smem > plain) {
		CUresult r = w->d.cuFuncSetAttribute(
		    p->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
		    (int)l->smem);
		if (r != CUDA_SUCCESS)
			run_error(w, r,
			          "cuFuncSetAttribute (dynamic shared memory)",
			          st, why);
	}
	return 0;
}

int kt_cu_prog_load(kt_cu_worker *w, kt_cu_prog *p, const kt_cu_launch *l,
                    kt_status *st, kt_str *why)
{
	*p = (kt_cu_prog){0};
	*st = KT_STATUS_OK;
	CUresult r = w->d.cuModuleLoadData(&p->mod, l->image);
	if (r != CUDA_SUCCESS) {
		p->mod = NULL;
		run_error(w, r, "cuModuleLoadData", st, why);
		w->broken = r == CUDA_ERROR_ILLEGAL_ADDRESS; /* only if lost */
		*st = KT_STATUS_RUNTIME;
		return 0;
	}
	r = w->d.cuModuleGetFunction(&p->fn, p->mod, l->lowered);
	if (r != CUDA_SUCCESS) {
		run_error(w, r, "cuModuleGetFunction", st, why);
		w->broken = false;
		*st = KT_STATUS_RUNTIME;
		return 0;
	}
	w->d.cuFuncGetAttribute(&p->regs, CU_FUNC_ATTRIBUTE_NUM_REGS, p->fn);
	w->d.cuFuncGetAttribute(&p->smem_static,
	                        CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, p->fn);
	w->d.cuFuncGetAttribute(&p->local_bytes,
	                        CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, p->fn);
	w->d.cuFuncGetAttribute(&p->max_threads,
	                        CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, p->fn);
	return check_limits(w, p, l, st, why);
}

void kt_cu_prog_unload(kt_cu_worker *w, kt_cu_prog *p)
{
	if (p->mod)
		w->d.cuModuleUnload(p->mod);
	*p = (kt_cu_prog){0};
}

CUresult kt_cu_launch_on(kt_cu_worker *w, kt_cu_inst *in, const kt_cu_prog *p,
                         const kt_cu_launch *l)
{
	void *params[256];
	if (w->nargs > 256)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t a = 0; a < w->nargs; a++)
		params[a] = w->args[a].is_buffer ? (void *)&in->bufs[a].ptr
		                                 : (void *)&l->scalars[a];
	return kt_cu_launch_fn(&w->d, p->fn, l->grid, l->block, l->smem, l->pdl,
	                       w->stream, params);
}

/* Queues: guards reset, inputs restored from seed k, outputs poisoned. */
CUresult kt_cu_prepare(kt_cu_worker *w, kt_cu_inst *in, size_t k,
                       unsigned check)
{
	CUresult r = CUDA_SUCCESS;
	unsigned char poison = kt_buf_poison_byte(check);
	for (size_t a = 0; a < w->nargs && r == CUDA_SUCCESS; a++) {
		const kt_cu_arg *g = &w->args[a];
		kt_cu_buf *b = &in->bufs[a];
		if (!g->is_buffer)
			continue;
		r = w->d.cuMemsetD8Async(b->base, KT_CU_GUARD_BYTE, KT_CU_GUARD,
		                         w->stream);
		if (r == CUDA_SUCCESS)
			r = w->d.cuMemsetD8Async(b->ptr + b->bytes,
			                         KT_CU_GUARD_BYTE, KT_CU_GUARD,
			                         w->stream);
		if (r == CUDA_SUCCESS && b->bytes && g->dir != KT_ARG_OUT)
			r = w->d.cuMemcpyDtoDAsync(
			    b->ptr, in->pristine[k * w->nargs + a], b->bytes,
			    w->stream);
		else if (r == CUDA_SUCCESS && b->bytes)
			r = w->d.cuMemsetD8Async(b->ptr, poison, b->bytes,
			                         w->stream);
	}
	return r;
}

/* Whether both guards of buffer b are intact; where says which is not. */
static CUresult guards_intact(kt_cu_worker *w, const kt_cu_buf *b, bool *ok,
                              const char **where)
{
	unsigned char g[KT_CU_GUARD];
	*ok = true;
	for (int side = 0; side < 2 && *ok; side++) {
		CUdeviceptr at = side ? b->ptr + b->bytes : b->base;
		CUresult r = w->d.cuMemcpyDtoH(g, at, KT_CU_GUARD);
		if (r != CUDA_SUCCESS)
			return r;
		for (size_t i = 0; i < KT_CU_GUARD && *ok; i++)
			if (g[i] != KT_CU_GUARD_BYTE) {
				*ok = false;
				*where =
				    side ? "after the end" : "before the start";
			}
	}
	return CUDA_SUCCESS;
}

/* Every buffer's guards intact; otherwise *st says which is not. */
static CUresult all_guards(kt_cu_worker *w, kt_cu_inst *in, kt_status *st,
                           kt_str *why)
{
	for (size_t a = 0; a < w->nargs; a++) {
		const kt_cu_arg *g = &w->args[a];
		if (!g->is_buffer)
			continue;
		bool ok = true;
		const char *where = "";
		CUresult r = guards_intact(w, &in->bufs[a], &ok, &where);
		if (r != CUDA_SUCCESS)
			return r;
		if (!ok) {
			*st = KT_STATUS_RUNTIME;
			kt_str_clear(why);
			kt_str_addf(why, "wrote %s of argument '%s' at %s",
			            where, g->name, in->label);
			return CUDA_SUCCESS;
		}
	}
	return CUDA_SUCCESS;
}

static int read_back(kt_cu_worker *w, kt_cu_inst *in, kt_status *st,
                     kt_str *why)
{
	CUresult r = all_guards(w, in, st, why);
	for (size_t a = 0;
	     a < w->nargs && r == CUDA_SUCCESS && *st == KT_STATUS_OK; a++) {
		const kt_cu_arg *g = &w->args[a];
		if (g->is_buffer && g->dir != KT_ARG_IN && in->bufs[a].bytes)
			r = w->d.cuMemcpyDtoH(w->host[a], in->bufs[a].ptr,
			                      in->bufs[a].bytes);
	}
	if (r != CUDA_SUCCESS)
		run_error(w, r, "reading outputs", st, why);
	return 0;
}

int kt_cu_check_run(kt_cu_worker *w, kt_cu_inst *in, size_t k, unsigned check,
                    const kt_cu_prog *p, const kt_cu_launch *l, bool to_host,
                    kt_status *st, kt_str *why)
{
	*st = KT_STATUS_OK;
	CUresult r = kt_cu_prepare(w, in, k, check);
	if (r != CUDA_SUCCESS) {
		run_error(w, r, "preparing arguments", st, why);
		return 0;
	}
	r = kt_cu_launch_on(w, in, p, l);
	if (r != CUDA_SUCCESS) {
		run_error(w, r, "cuLaunchKernel", st, why);
		return 0;
	}
	r = w->d.cuStreamSynchronize(w->stream);
	if (r != CUDA_SUCCESS) {
		run_error(w, r, "running the kernel", st, why);
		return 0;
	}
	if (to_host) {
		int rc = read_back(w, in, st, why);
		return rc ? rc : kt_cu_beat(w);
	}
	r = all_guards(w, in, st, why);
	if (r != CUDA_SUCCESS)
		run_error(w, r, "reading guards", st, why);
	return kt_cu_beat(w);
}

typedef struct piece {
	const char *got, *want;
	kt_type t;
	size_t n;
	const kt_tolerance *tol;
	kt_verify_report rep;
} piece;

static void *compare_piece(void *arg)
{
	piece *p = arg;
	kt_verify_compare(&p->rep, p->got, p->want, p->t, p->n, p->tol);
	return NULL;
}

bool kt_cu_compare(kt_verify_report *rep, const void *got, const void *want,
                   kt_type t, size_t n, const kt_tolerance *tol)
{
	enum { MAX_THREADS = 16, PER_THREAD = 1 << 20 };
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	size_t k = n / PER_THREAD + 1;
	k = k > MAX_THREADS ? MAX_THREADS : k;
	k = cores > 0 && k > (size_t)cores ? (size_t)cores : k;
	if (k <= 1)
		return kt_verify_compare(rep, got, want, t, n, tol);
	piece p[MAX_THREADS];
	pthread_t th[MAX_THREADS];
	bool started[MAX_THREADS] = {false};
	size_t size = kt_type_size(t), step = (n + k - 1) / k;
	for (size_t i = 0; i < k; i++) {
		size_t lo = i * step < n ? i * step : n;
		size_t hi = lo + step < n ? lo + step : n;
		p[i] = (piece){.got = (const char *)got + lo * size,
		               .want = (const char *)want + lo * size,
		               .t = t,
		               .n = hi - lo,
		               .tol = tol};
		started[i] = i > 0 && !pthread_create(&th[i], NULL,
		                                      compare_piece, &p[i]);
	}
	compare_piece(&p[0]);
	*rep = (kt_verify_report){0};
	for (size_t i = 0; i < k; i++) {
		if (i > 0 && started[i])
			pthread_join(th[i], NULL);
		else if (i > 0)
			compare_piece(&p[i]); /* no thread: do it here */
		kt_verify_merge(rep, &p[i].rep, i * step < n ? i * step : n);
	}
	return kt_verify_decide(rep, t, tol);
}

/* Outputs of seed k against the reference: on the device where the
 * reference is there and the bytes are the same, else on the host (read
 * back first unless on_host). */
static void compare_outputs(kt_cu_worker *w, kt_cu_inst *in, size_t k,
                            bool on_host, eval_out *o)
{
	for (size_t a = 0; a < w->nargs && o->st == KT_STATUS_OK; a++) {
		const kt_cu_arg *g = &w->args[a];
		if (!g->is_buffer || g->dir == KT_ARG_IN || g->match < 0)
			continue;
		size_t j = k * w->nargs + a;
		bool same = false;
		CUresult r =
		    on_host ? CUDA_SUCCESS
		            : kt_cu_output_vs(w, in, a,
		                              in->ref_dev ? in->ref_dev[j] : 0,
		                              &same);
		if (r != CUDA_SUCCESS) {
			run_error(w, r, "reading outputs", &o->st, &o->why);
			return;
		}
		if (same)
			continue;
		kt_tolerance tol = {g->rtol, g->atol, g->match};
		kt_verify_report rep;
		if (kt_cu_compare(&rep, w->host[a], in->ref[j],
		                  (kt_type)g->type, in->counts[a], &tol))
			continue;
		o->st = KT_STATUS_CORRECTNESS;
		char seed[96];
		kt_str_addf(&o->why, "at %s, %s: ", in->label,
		            kt_cu_seed_name(in, k, seed, sizeof(seed)));
		kt_verify_describe(&o->why, g->name, &rep, &tol);
	}
}

/*
 * Fails o when a run changed an input buffer (`in`): the buffer and its
 * pristine copy for seed k are read back and compared byte for byte. A
 * kernel that writes its inputs could leave state for its next run, so it
 * is not a valid result even when its outputs are right.
 */
static void inputs_intact(kt_cu_worker *w, kt_cu_inst *in, size_t k,
                          const char *when, eval_out *o)
{
	for (size_t a = 0; a < w->nargs && o->st == KT_STATUS_OK; a++) {
		const kt_cu_arg *g = &w->args[a];
		size_t bytes = in->bufs[a].bytes, at = 0;
		if (!g->is_buffer || g->dir != KT_ARG_IN || !bytes)
			continue;
		CUdeviceptr pristine = in->pristine[k * w->nargs + a];
		CUresult r;
		if (w->same_fn) {
			r = kt_cu_same(w, in->bufs[a].ptr, pristine, bytes,
			               &at);
		} else {
			unsigned char *want = kt_malloc(bytes),
			              *got = w->host[a];
			r = want
			        ? w->d.cuMemcpyDtoH(got, in->bufs[a].ptr, bytes)
			        : CUDA_ERROR_OUT_OF_MEMORY;
			if (r == CUDA_SUCCESS)
				r = w->d.cuMemcpyDtoH(want, pristine, bytes);
			while (r == CUDA_SUCCESS && at < bytes &&
			       got[at] == want[at])
				at++;
			kt_free(want);
		}
		if (r != CUDA_SUCCESS) {
			run_error(w, r, "reading inputs", &o->st, &o->why);
		} else if (at < bytes) {
			o->st = KT_STATUS_CORRECTNESS;
			kt_str_addf(&o->why,
			            "%swrites its input '%s' (element %zu "
			            "changed at %s): a kernel may not write an "
			            "argument declared 'in'",
			            when, g->name,
			            at / kt_type_size((kt_type)g->type),
			            in->label);
		}
	}
}

static void timed_check_host(kt_cu_worker *w, kt_cu_inst *in, const char *when,
                             eval_out *o)
{
	read_back(w, in, &o->st, &o->why);
	if (o->st != KT_STATUS_OK)
		return;
	kt_str_adds(&o->why, when);
	compare_outputs(w, in, 0, true, o);
	if (o->st == KT_STATUS_OK) {
		kt_str_clear(&o->why);
		inputs_intact(w, in, 0, when, o);
	}
}

/* One output of a timed run whose bytes differ from the checked run's (a
 * kernel whose result depends on timing, such as float atomics): compared
 * with the reference on the host as the checked run was. */
static void output_on_host(kt_cu_worker *w, kt_cu_inst *in, size_t a,
                           const char *when, eval_out *o)
{
	const kt_cu_arg *g = &w->args[a];
	CUresult r =
	    w->d.cuMemcpyDtoH(w->host[a], in->bufs[a].ptr, in->bufs[a].bytes);
	if (r != CUDA_SUCCESS) {
		run_error(w, r, "reading outputs", &o->st, &o->why);
		return;
	}
	kt_tolerance tol = {g->rtol, g->atol, g->match};
	kt_verify_report rep;
	if (kt_cu_compare(&rep, w->host[a], in->ref[a], (kt_type)g->type,
	                  in->counts[a], &tol))
		return;
	o->st = KT_STATUS_CORRECTNESS;
	kt_str_addf(&o->why, "%sat %s, input seed 0: ", when, in->label);
	kt_verify_describe(&o->why, g->name, &rep, &tol);
}

/*
 * What a timed run left (or a graph's copy of it): guards, outputs equal to
 * the reference's for seed 0, inputs unchanged. Each timed run starts from
 * restored inputs and poisoned outputs (enqueue_run), so a kernel that
 * skips its work once its output holds the answer, or after the checked
 * run, fails here instead of winning. On the device where it can: inputs
 * against their pristine copies and outputs against the checked run's
 * (which passed the reference's tolerances) byte for byte, so only a
 * verdict crosses to the host; an output whose bytes differ is compared
 * with the reference on the host.
 */
static void timed_check(kt_cu_worker *w, kt_cu_inst *in, size_t run,
                        eval_out *o)
{
	char when[48];
	snprintf(when, sizeof(when), "timed run %zu: ", run + 1);
	if (!w->same_fn || !in->verified) {
		timed_check_host(w, in, when, o);
		return;
	}
	CUresult r = all_guards(w, in, &o->st, &o->why);
	for (size_t a = 0;
	     a < w->nargs && r == CUDA_SUCCESS && o->st == KT_STATUS_OK; a++) {
		const kt_cu_arg *g = &w->args[a];
		size_t bytes = in->bufs[a].bytes, at = bytes;
		if (!g->is_buffer || !bytes || g->dir == KT_ARG_IN ||
		    g->match < 0)
			continue;
		r = kt_cu_same(w, in->bufs[a].ptr, in->verified[a], bytes, &at);
		if (r == CUDA_SUCCESS && at < bytes)
			output_on_host(w, in, a, when, o);
	}
	if (r != CUDA_SUCCESS)
		run_error(w, r, "comparing on the device", &o->st, &o->why);
	if (o->st == KT_STATUS_OK)
		inputs_intact(w, in, 0, when, o);
}

/* The outputs of instance in's checked run of seed 0 kept on the device
 * for the timed runs; where memory is short they are not (the host
 * compares then). */
static void keep_verified(kt_cu_worker *w, kt_cu_inst *in)
{
	if (!w->same_fn)
		return;
	if (!in->verified &&
	    !(in->verified = kt_calloc(w->nargs + 1, sizeof(CUdeviceptr))))
		return;
	CUresult r = CUDA_SUCCESS;
	for (size_t a = 0; a < w->nargs && r == CUDA_SUCCESS; a++) {
		const kt_cu_arg *g = &w->args[a];
		size_t bytes = in->bufs[a].bytes;
		if (!g->is_buffer || g->dir == KT_ARG_IN || !bytes)
			continue;
		if (!in->verified[a])
			r = w->d.cuMemAlloc(&in->verified[a], bytes);
		if (r == CUDA_SUCCESS)
			r = w->d.cuMemcpyDtoDAsync(
			    in->verified[a], in->bufs[a].ptr, bytes, w->stream);
	}
	if (r == CUDA_SUCCESS)
		r = w->d.cuStreamSynchronize(w->stream);
	if (r != CUDA_SUCCESS) {
		for (size_t a = 0; a < w->nargs; a++)
			if (in->verified[a])
				w->d.cuMemFree(in->verified[a]);
		kt_free(in->verified);
		in->verified = NULL;
	}
}

static int verify_all(kt_cu_worker *w, eval_req *q, eval_out *o)
{
	double t0 = kt_cu_now();
	unsigned check = 0;
	int rc = 0;
	for (uint32_t i = 0; !rc && i < q->ninst && o->st == KT_STATUS_OK;
	     i++) {
		kt_cu_inst *in = &w->inst[q->inst[i]];
		for (size_t k = 0; !rc && k < in->nseeds; k++) {
			rc = kt_cu_check_run(w, in, k, check++, &q->prog[i],
			                     &q->launch[i], !w->same_fn, &o->st,
			                     &o->why);
			if (rc || o->st != KT_STATUS_OK)
				break;
			compare_outputs(w, in, k, !w->same_fn, o);
			if (o->st == KT_STATUS_OK)
				inputs_intact(w, in, k, "", o);
			if (o->st != KT_STATUS_OK)
				break;
			if (i == 0 && k == 0)
				keep_verified(w, in);
		}
	}
	add_measure(o, "checks", check, "");
	o->verify_s = kt_cu_now() - t0;
	return rc;
}

static int ensure_events(kt_cu_worker *w, size_t n)
{
	if (n <= w->nevents)
		return 0;
	CUevent *ev = kt_realloc(w->events, n * sizeof(CUevent));
	if (!ev)
		return kt_error(KT_ENOMEM, "out of memory");
	w->events = ev;
	for (; w->nevents < n; w->nevents++) {
		int rc =
		    kt_cu_check(&w->d, w->d.cuEventCreate(&ev[w->nevents], 0),
		                "cuEventCreate");
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * Queues one timed run: inputs and in-outs restored from seed 0, outputs
 * poisoned (the pattern alternating with the run), L2 flushed, events,
 * launch. Only the launch is between the events.
 */
static CUresult enqueue_run(kt_cu_worker *w, kt_cu_inst *in,
                            const kt_cu_prog *p, const kt_cu_launch *l,
                            size_t pair, unsigned flags)
{
	CUresult r = CUDA_SUCCESS;
	unsigned char poison = kt_buf_poison_byte((unsigned)pair);
	for (size_t a = 0; a < w->nargs && r == CUDA_SUCCESS; a++) {
		kt_cu_buf *b = &in->bufs[a];
		if (!w->args[a].is_buffer || !b->bytes)
			continue;
		if (w->args[a].dir == KT_ARG_OUT)
			r = w->d.cuMemsetD8Async(b->ptr, poison, b->bytes,
			                         w->stream);
		else
			r = w->d.cuMemcpyDtoDAsync(b->ptr, in->pristine[a],
			                           b->bytes, w->stream);
	}
	if (r == CUDA_SUCCESS)
		r = kt_cu_flush(w);
	if (r == CUDA_SUCCESS)
		r = w->d.cuEventRecordWithFlags(w->events[2 * pair], w->stream,
		                                flags);
	if (r == CUDA_SUCCESS)
		r = kt_cu_launch_on(w, in, p, l);
	if (r == CUDA_SUCCESS)
		r = w->d.cuEventRecordWithFlags(w->events[2 * pair + 1],
		                                w->stream, flags);
	return r;
}

static CUresult elapsed(kt_cu_worker *w, size_t n, double *out)
{
	for (size_t i = 0; i < n; i++) {
		float ms = 0;
		CUresult r = w->d.cuEventElapsedTime(&ms, w->events[2 * i],
		                                     w->events[2 * i + 1]);
		if (r != CUDA_SUCCESS)
			return r;
		out[i] = ms;
	}
	return CUDA_SUCCESS;
}

/* Runs one after another on the stream, waiting after each. */
static int stream_runs(kt_cu_worker *w, kt_cu_inst *in, const kt_cu_prog *p,
                       const kt_cu_launch *l, size_t n, double *t, eval_out *o)
{
	for (size_t i = 0; i < n; i++) {
		CUresult r = enqueue_run(w, in, p, l, i, 0);
		if (r == CUDA_SUCCESS)
			r = w->d.cuStreamSynchronize(w->stream);
		if (r != CUDA_SUCCESS) {
			run_error(w, r, "timing the kernel", &o->st, &o->why);
			return 0;
		}
		timed_check(w, in, i, o);
		if (o->st != KT_STATUS_OK)
			return 0;
		int rc = kt_cu_beat(w);
		if (rc)
			return rc;
	}
	CUresult r = elapsed(w, n, t);
	if (r != CUDA_SUCCESS)
		run_error(w, r, "cuEventElapsedTime", &o->st, &o->why);
	return 0;
}

/*
 * A graph's runs other than the last leave nothing behind to check: the
 * next run restores and poisons the buffers. So the graph also copies the
 * buffers (guards included) after some runs, and they are checked after
 * the replay like the last run's. Every run is copied when the copies fit
 * in KT_CU_SNAPSHOT_MAX and half the free memory; otherwise a random
 * choice of as many runs, drawn anew for each configuration, so a kernel
 * cannot know which of its runs are checked.
 */
#define KT_CU_SNAPSHOT_MAX ((size_t)256 << 20)

typedef struct snapshots {
	CUdeviceptr mem;
	size_t per_run; /* bytes of one run's copy: every buffer and guards */
	bool *kept;     /* per timed run */
	size_t n;       /* runs kept */
} snapshots;

static size_t run_bytes(const kt_cu_worker *w, const kt_cu_inst *in)
{
	size_t n = 0;
	for (size_t a = 0; a < w->nargs; a++)
		if (w->args[a].is_buffer)
			n += in->bufs[a].bytes + 2 * KT_CU_GUARD;
	return n;
}

/* Chooses the runs (before the last) to copy and allocates room. */
static int snapshots_make(kt_cu_worker *w, const kt_cu_inst *in, size_t n,
                          snapshots *s)
{
	memset(s, 0, sizeof(*s));
	s->kept = kt_calloc(n + 1, sizeof(bool));
	if (!s->kept)
		return kt_error(KT_ENOMEM, "out of memory");
	s->per_run = run_bytes(w, in);
	size_t free_b = 0, total = 0, room = KT_CU_SNAPSHOT_MAX;
	if (w->d.cuMemGetInfo(&free_b, &total) == CUDA_SUCCESS &&
	    free_b / 2 < room)
		room = free_b / 2;
	size_t m = s->per_run ? room / s->per_run : 0;
	m = n > 1 && m > n - 1 ? n - 1 : n > 1 ? m : 0;
	if (!m)
		return 0;
	/* a random m of the first n - 1 runs (selection sampling) */
	unsigned seed = (unsigned)(kt_cu_now() * 1e9) ^ (unsigned)getpid();
	for (size_t i = 0, need = m; i + 1 < n && need; i++)
		if ((size_t)rand_r(&seed) % (n - 1 - i) < need) {
			s->kept[i] = true;
			need--;
		}
	if (w->d.cuMemAlloc(&s->mem, m * s->per_run) != CUDA_SUCCESS) {
		memset(s->kept, 0, (n + 1) * sizeof(bool));
		s->mem = 0;
		return 0; /* no room after all: the last run is still checked */
	}
	s->n = m;
	return 0;
}

static void snapshots_free(kt_cu_worker *w, snapshots *s)
{
	if (s->mem)
		w->d.cuMemFree(s->mem);
	kt_free(s->kept);
}

/* Copies the buffers into (to_snapshot) or out of copy k. */
static CUresult snapshot_copy(kt_cu_worker *w, kt_cu_inst *in,
                              const snapshots *s, size_t k, bool to_snapshot)
{
	CUdeviceptr at = s->mem + k * s->per_run;
	CUresult r = CUDA_SUCCESS;
	for (size_t a = 0; a < w->nargs && r == CUDA_SUCCESS; a++) {
		if (!w->args[a].is_buffer)
			continue;
		size_t bytes = in->bufs[a].bytes + 2 * KT_CU_GUARD;
		r = to_snapshot ? w->d.cuMemcpyDtoDAsync(at, in->bufs[a].base,
		                                         bytes, w->stream)
		                : w->d.cuMemcpyDtoDAsync(in->bufs[a].base, at,
		                                         bytes, w->stream);
		at += bytes;
	}
	if (r == CUDA_SUCCESS && !to_snapshot)
		r = w->d.cuStreamSynchronize(w->stream);
	return r;
}

/* After the replay: each copied run checked as the last one was. */
static void check_snapshots(kt_cu_worker *w, kt_cu_inst *in, const snapshots *s,
                            size_t n, eval_out *o)
{
	for (size_t i = 0, k = 0; i + 1 < n && o->st == KT_STATUS_OK; i++) {
		if (!s->kept[i])
			continue;
		CUresult r = snapshot_copy(w, in, s, k++, false);
		if (r != CUDA_SUCCESS) {
			run_error(w, r, "reading a graph run's copy", &o->st,
			          &o->why);
			return;
		}
		timed_check(w, in, i, o);
	}
}

/* Every run captured into one graph, replayed once; each run's buffers
 * checked (or a random choice of them, see snapshots_make). */
static int graph_runs(kt_cu_worker *w, kt_cu_inst *in, const kt_cu_prog *p,
                      const kt_cu_launch *l, size_t n, double *t, eval_out *o)
{
	CUgraph g = NULL;
	CUgraphExec ge = NULL;
	snapshots s;
	int rc = snapshots_make(w, in, n, &s);
	if (rc) {
		snapshots_free(w, &s);
		return rc;
	}
	CUresult r = w->d.cuStreamBeginCapture(w->stream,
	                                       CU_STREAM_CAPTURE_MODE_RELAXED);
	for (size_t i = 0, k = 0; i < n && r == CUDA_SUCCESS; i++) {
		r = enqueue_run(w, in, p, l, i, CU_EVENT_RECORD_EXTERNAL);
		if (r == CUDA_SUCCESS && s.kept[i])
			r = snapshot_copy(w, in, &s, k++, true);
	}
	CUresult r2 = w->d.cuStreamEndCapture(w->stream, &g);
	if (r == CUDA_SUCCESS)
		r = r2;
	if (r == CUDA_SUCCESS)
		r = w->d.cuGraphInstantiateWithFlags(&ge, g, 0);
	if (r == CUDA_SUCCESS)
		r = w->d.cuGraphLaunch(ge, w->stream);
	if (r == CUDA_SUCCESS)
		r = w->d.cuStreamSynchronize(w->stream);
	if (r == CUDA_SUCCESS)
		r = elapsed(w, n, t);
	if (ge)
		w->d.cuGraphExecDestroy(ge);
	if (g)
		w->d.cuGraphDestroy(g);
	if (r != CUDA_SUCCESS)
		run_error(w, r, "timing the kernel (graph)", &o->st, &o->why);
	else if (n)
		timed_check(w, in, n - 1, o);
	if (r == CUDA_SUCCESS && n && o->st == KT_STATUS_OK)
		check_snapshots(w, in, &s, n, o);
	add_measure(o, "graph_runs_checked", n ? (double)s.n + 1 : 0, "");
	snapshots_free(w, &s);
	return 0;
}

/*
 * The graph objective: `batch` launches back to back captured in one
 * graph, replayed once to warm up, then once per timed run; a run's time
 * is its replay's divided by batch. Nothing is restored or flushed
 * between the launches: the steady state of a kernel in a captured decode
 * step (warm L2, no launch gaps). So nothing these launches leave can be
 * checked (each runs on what the last left); time_config checks the same
 * number of launches replayed as graph_runs does, each from restored
 * inputs and poisoned outputs, so a kernel that skips work on some
 * launches (a counter of its own) is caught there.
 */
static int steady_runs(kt_cu_worker *w, kt_cu_inst *in, const kt_cu_prog *p,
                       const kt_cu_launch *l, uint32_t batch, size_t n,
                       double *t, eval_out *o)
{
	CUgraph g = NULL;
	CUgraphExec ge = NULL;
	CUresult r = kt_cu_prepare(w, in, 0, 0);
	if (r == CUDA_SUCCESS)
		r = w->d.cuStreamBeginCapture(w->stream,
		                              CU_STREAM_CAPTURE_MODE_RELAXED);
	bool capturing = r == CUDA_SUCCESS;
	for (uint32_t i = 0; i < batch && r == CUDA_SUCCESS; i++)
		r = kt_cu_launch_on(w, in, p, l);
	if (capturing) {
		CUresult r2 = w->d.cuStreamEndCapture(w->stream, &g);
		r = r == CUDA_SUCCESS ? r2 : r;
	}
	if (r == CUDA_SUCCESS)
		r = w->d.cuGraphInstantiateWithFlags(&ge, g, 0);
	if (r == CUDA_SUCCESS) /* the warm-up replay */
		r = w->d.cuGraphLaunch(ge, w->stream);
	for (size_t i = 0; i < n && r == CUDA_SUCCESS; i++) {
		r = w->d.cuEventRecord(w->events[2 * i], w->stream);
		if (r == CUDA_SUCCESS)
			r = w->d.cuGraphLaunch(ge, w->stream);
		if (r == CUDA_SUCCESS)
			r = w->d.cuEventRecord(w->events[2 * i + 1], w->stream);
	}
	if (r == CUDA_SUCCESS)
		r = w->d.cuStreamSynchronize(w->stream);
	if (r == CUDA_SUCCESS)
		r = elapsed(w, n, t);
	for (size_t i = 0; r == CUDA_SUCCESS && i < n; i++)
		t[i] /= batch;
	if (ge)
		w->d.cuGraphExecDestroy(ge);
	if (g)
		w->d.cuGraphDestroy(g);
	if (r != CUDA_SUCCESS)
		run_error(w, r, "timing the kernel (graph objective)", &o->st,
		          &o->why);
	add_measure(o, "graph_steady", batch, "");
	return o->st == KT_STATUS_OK ? kt_cu_beat(w) : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int time_config(kt_cu_worker *w, eval_req *q, eval_out *o)
{
	double t0 = kt_cu_now();
	kt_cu_inst *in = &w->inst[q->inst[0]];
	size_t warm = q->warmup ? q->warmup : 1;
	size_t n = q->runs > warm ? q->runs : warm;
	double *t = kt_calloc(n, sizeof(double));
	int rc =
	    t ? ensure_events(w, 2 * n) : kt_error(KT_ENOMEM, "out of memory");
	CUresult r = rc ? CUDA_SUCCESS : kt_cu_prepare(w, in, 0, 0);
	if (r != CUDA_SUCCESS)
		run_error(w, r, "preparing arguments", &o->st, &o->why);
	if (!rc && o->st == KT_STATUS_OK)
		rc = stream_runs(w, in, &q->prog[0], &q->launch[0], warm, t, o);
	bool graph = q->steady > 0;
	if (!rc && o->st == KT_STATUS_OK && q->steady) {
		rc = steady_runs(w, in, &q->prog[0], &q->launch[0], q->steady,
		                 q->runs, t, o);
		double *scratch = rc || o->st != KT_STATUS_OK
		                      ? NULL
		                      : kt_calloc(q->runs, sizeof(double));
		if (!rc && o->st == KT_STATUS_OK)
			rc = scratch
			         ? graph_runs(w, in, &q->prog[0], &q->launch[0],
			                      q->runs, scratch, o)
			         : kt_error(KT_ENOMEM, "out of memory");
		kt_free(scratch);
	} else if (!rc && o->st == KT_STATUS_OK) {
		qsort(t, warm, sizeof(double), cmp_double);
		graph = t[warm / 2] < q->graph_below_ms;
		rc = (graph ? graph_runs : stream_runs)(
		    w, in, &q->prog[0], &q->launch[0], q->runs, t, o);
	}
	add_measure(o, "graph_replay", graph, "");
	if (!rc && o->st == KT_STATUS_OK) {
		o->times = t;
		o->ntimes = q->runs;
		t = NULL;
	}
	kt_free(t);
	o->benchmark_s = kt_cu_now() - t0;
	return rc;
}

static void resource_measures(kt_cu_worker *w, eval_req *q, eval_out *o)
{
	const kt_cu_prog *p = &q->prog[0];
	const kt_cu_launch *l = &q->launch[0];
	int threads = (int)(l->block[0] * l->block[1] * l->block[2]);
	int blocks = 0;
	w->d.cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, p->fn,
	                                                 threads, l->smem);
	int per_sm =
	    kt_cu_attr(w, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
	int warps = (threads + 31) / 32;
	add_measure(o, "registers", p->regs, "");
	add_measure(o, "shared_static", p->smem_static, "B");
	add_measure(o, "shared_dynamic", l->smem, "B");
	add_measure(o, "local_spill", p->local_bytes, "B");
	add_measure(o, "blocks_per_sm", blocks, "");
	add_measure(o, "occupancy",
	            per_sm ? (double)blocks * warps * 32 / per_sm : 0, "");
}

static int read_req(kt_cu_worker *w, kt_cu_reader *r, eval_req *q)
{
	q->ninst = kt_cu_get_u32(r);
	q->runs = kt_cu_get_u32(r);
	q->warmup = kt_cu_get_u32(r);
	q->graph_below_ms = kt_cu_get_f64(r);
	q->steady = kt_cu_get_u32(r);
	if (r->bad || q->ninst == 0 || q->ninst > w->ninst || q->runs == 0)
		return kt_error(KT_EBACKEND, "malformed EVAL message");
	q->inst = kt_calloc(q->ninst, sizeof(uint32_t));
	q->launch = kt_calloc(q->ninst, sizeof(kt_cu_launch));
	q->prog = kt_calloc(q->ninst, sizeof(kt_cu_prog));
	if (!q->inst || !q->launch || !q->prog)
		return kt_error(KT_ENOMEM, "out of memory");
	for (uint32_t i = 0; i < q->ninst; i++) {
		q->inst[i] = kt_cu_get_u32(r);
		q->launch[i].scalars = kt_calloc(w->nargs ? w->nargs : 1, 8);
		if (!q->launch[i].scalars)
			return kt_error(KT_ENOMEM, "out of memory");
		kt_cu_get_launch(r, &q->launch[i], w->nargs);
		if (q->inst[i] >= w->ninst)
			r->bad = true;
	}
	return r->bad ? kt_error(KT_EBACKEND, "malformed EVAL message") : 0;
}

static void free_req(kt_cu_worker *w, eval_req *q)
{
	for (uint32_t i = 0; q->launch && i < q->ninst; i++) {
		if (q->prog)
			kt_cu_prog_unload(w, &q->prog[i]);
		kt_free(q->launch[i].scalars);
	}
	kt_free(q->inst);
	kt_free(q->launch);
	kt_free(q->prog);
}

static int reply(kt_cu_worker *w, eval_out *o)
{
	kt_str s = KT_STR_INIT;
	int rc = kt_cu_put_u32(&s, o->st) | kt_cu_put_str(&s, o->why.ptr) |
	         kt_cu_put_f64(&s, o->verify_s) |
	         kt_cu_put_f64(&s, o->benchmark_s) |
	         kt_cu_put_f64(&s, o->load_s) |
	         kt_cu_put_u32(&s, (uint32_t)o->ntimes);
	for (size_t i = 0; i < o->ntimes; i++)
		rc |= kt_cu_put_f64(&s, o->times[i]);
	rc |= kt_cu_put_u32(&s, (uint32_t)o->nm);
	for (size_t i = 0; i < o->nm; i++)
		rc |= kt_cu_put_str(&s, o->m[i].name) |
		      kt_cu_put_str(&s, o->m[i].unit) |
		      kt_cu_put_f64(&s, o->m[i].value);
	/* why counters are off, once per worker */
	rc |= kt_cu_put_str(&s, w->note_sent ? "" : w->profile_note);
	w->note_sent = w->note_sent || w->profile_note[0];
	rc = rc ? kt_error(KT_ENOMEM, "out of memory")
	        : kt_cu_send(w->fd, KT_CU_RESULT, &s);
	kt_str_release(&s);
	return rc;
}

static int load_all(kt_cu_worker *w, eval_req *q, eval_out *o)
{
	double t0 = kt_cu_now();
	int rc = 0;
	for (uint32_t i = 0; !rc && i < q->ninst && o->st == KT_STATUS_OK;
	     i++) {
		rc = kt_cu_prog_load(w, &q->prog[i], &q->launch[i], &o->st,
		                     &o->why);
		if (!rc && i == 0 && q->prog[0].fn)
			resource_measures(w, q, o);
		if (!rc && o->st != KT_STATUS_OK && q->ninst > 1)
			kt_str_addf(&o->why, " (at %s)",
			            w->inst[q->inst[i]].label);
	}
	o->load_s = kt_cu_now() - t0;
	return rc;
}

int kt_cu_eval(kt_cu_worker *w, kt_cu_reader *r)
{
	eval_req q = {0};
	eval_out o = {.st = KT_STATUS_OK, .why = KT_STR_INIT};
	int rc = read_req(w, r, &q);
	if (!rc)
		rc = load_all(w, &q, &o);
	if (!rc && o.st == KT_STATUS_OK)
		rc = verify_all(w, &q, &o);
	if (!rc && o.st == KT_STATUS_OK)
		rc = time_config(w, &q, &o);
	if (!rc && o.st == KT_STATUS_OK && w->profile)
		rc = kt_cu_profile(w, &w->inst[q.inst[0]], &q.prog[0],
		                   &q.launch[0], o.m, &o.nm, KT_MAX_MEASURES);
	if (!rc)
		rc = reply(w, &o);
	else
		kt_cu_reply_fail(w, rc);
	free_req(w, &q);
	kt_free(o.times);
	kt_str_release(&o.why);
	return rc;
}
