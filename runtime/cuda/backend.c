/*
 * runtime/cuda/backend.c - the CUDA backend's kt_backend: open (start the
 * worker, read the device), device_info, set_problem (choose the sizes the
 * checks run at, compile the reference, send the problem) and free.
 *
 * The sizes checked: the problem being tuned, with two input seeds, and one
 * size the search does not tune on, with one seed. That size is the first
 * of these where the default configuration satisfies every constraint:
 * (1) each integer problem variable v > 2 becomes (v / 2) | 1 (odd, about
 * half), (2) each becomes v / 2, (3) another value listed for a problem
 * variable. A tail that only an odd size reaches is so checked whenever the
 * template's constraints allow odd sizes at all.
 */
#include "runtime/cuda/backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/verify.h"
#include "util/cuda.h"
#include "util/fs.h"

/* The value of DEVICE_* constant name on this device; false if unknown. */
static bool device_value(const kt_cu_backend *b, const char *name, int64_t *v)
{
	return kt_cu_device_value(b->attrs, name, v);
}

static int attr_index(int attr)
{
	for (int i = 0; i < KT_CU_NATTRS; i++)
		if (kt_cu_attrs[i] == attr)
			return i;
	return -1;
}

static void fill_info(kt_cu_backend *b)
{
	snprintf(b->info.backend, sizeof(b->info.backend), "cuda");
	snprintf(b->info.runtime, sizeof(b->info.runtime), "%s",
	         kt_cu_nvrtc_version());
	snprintf(b->info.arch, sizeof(b->info.arch), "%s", b->arch);
	for (size_t c = 0; c < kt_device_nconsts && c < 64; c++) {
		int64_t v = 0;
		b->info.has_const[c] =
		    !b->opt.compile_only &&
		    device_value(b, kt_device_consts[c].name, &v);
		b->info.consts[c] = b->info.has_const[c] ? v : 0;
	}
	const kt_model *m = b->base.model;
	for (size_t i = 0; i < m->ndevices; i++) {
		int64_t v = 0;
		b->devvals[i] = !b->opt.compile_only &&
		                        device_value(b, m->devices[i].name, &v)
		                    ? kt_int(v)
		                    : m->devices[i].fallback;
	}
}

static int choose_arch(kt_cu_backend *b)
{
	if (b->opt.compile_only) {
		const char *d = b->device;
		snprintf(b->arch, sizeof(b->arch), "%s",
		         d && !strncmp(d, "sm_", 3) ? d : KT_CUDA_DEFAULT_ARCH);
		snprintf(b->info.name, sizeof(b->info.name),
		         "none (compile only, %s)", b->arch);
		kt_cu_fallback_attrs(b->attrs);
		return 0;
	}
	int k = attr_index(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
	int major = b->attrs[k], minor = b->attrs[k + 1];
	/* the arch-specific target (sm_90a) where there is one: Hopper on */
	snprintf(b->arch, sizeof(b->arch), "sm_%d%d%s", major, minor,
	         major >= 9 ? "a" : "");
	return 0;
}

static char *default_cache_dir(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	kt_str s = KT_STR_INIT;
	if (xdg && *xdg)
		kt_str_addf(&s, "%s/ktc/cubin", xdg);
	else if (home && *home)
		kt_str_addf(&s, "%s/.cache/ktc/cubin", home);
	else
		return NULL;
	return kt_str_detach(&s);
}

static void free_sizes(kt_cu_backend *b)
{
	for (size_t i = 0; i < b->nsizes; i++) {
		kt_free(b->sizes[i].problem);
		kt_cu_cfg_release(&b->sizes[i].ref);
		kt_cu_binary_release(&b->sizes[i].bin);
	}
	kt_free(b->sizes);
	b->sizes = NULL;
	b->nsizes = 0;
}

static void cuda_free(kt_backend *base)
{
	kt_cu_backend *b = (kt_cu_backend *)base;
	/* all processes told to end first, then reaped: they exit side by
	 * side (the worker's context teardown takes the longest) */
	kt_cu_worker_quit(b);
	kt_cu_compilers_stop(b->compilers, b->threads);
	kt_cu_worker_stop(b);
	kt_free(b->compilers);
	free_sizes(b);
	kt_str_release(&b->problem_msg);
	kt_free(b->device);
	kt_free(b->cache_dir);
	kt_free(b->exe);
	kt_free(b->devvals);
	kt_free(b->default_idx);
	kt_free(b);
}

static int cuda_device_info(kt_backend *base, kt_device_info *out)
{
	*out = ((kt_cu_backend *)base)->info;
	return 0;
}

int kt_cu_compile_cfg(kt_cu_binary *bin, const kt_cu_backend *b,
                      const kt_cu_cfg *c, kt_cu_compiler *cc)
{
	const kt_model *m = b->base.model;
	kt_cu_source src = {m->source,  m->file,     c->name_expr, b->arch,
	                    c->defines, c->ndefines, NULL};
	if (cc) {
		int rc = kt_cu_compiler_run(cc, bin, &src, b->cache_dir);
		if (rc >= 0)
			return rc;
		kt_error_clear(); /* no compiler process: compile here */
	}
	return kt_cu_compile(bin, &src, b->cache_dir);
}

/* The candidate problem k for the unchecked size (false: none left). */
static bool off_size(const kt_model *m, const kt_value *tuned, int k,
                     kt_value *out)
{
	memcpy(out, tuned, m->nproblems * sizeof(kt_value));
	if (k == 0 || k == 1) {
		for (size_t i = 0; i < m->nproblems; i++)
			if (!tuned[i].is_float && tuned[i].i > 2)
				out[i].i = k == 0 ? (tuned[i].i / 2) | 1
				                  : tuned[i].i / 2;
		return true;
	}
	int n = k - 2;
	for (size_t i = 0; i < m->nproblems; i++)
		for (size_t v = 0; v < m->problems[i].nvalues; v++) {
			kt_value x = m->problems[i].values[v];
			if (x.is_float == tuned[i].is_float &&
			    kt_value_as_double(x) ==
			        kt_value_as_double(tuned[i]))
				continue;
			if (n-- == 0) {
				out[i] = x;
				return true;
			}
		}
	return false;
}

/* Makes size s from problem p: the default configuration must hold. */
static int make_size(kt_cu_backend *b, kt_cu_size *s, const kt_value *p,
                     bool tuned)
{
	const kt_model *m = b->base.model;
	s->problem = kt_calloc(m->nproblems + 1, sizeof(kt_value));
	if (!s->problem)
		return kt_error(KT_ENOMEM, "out of memory");
	memcpy(s->problem, p, m->nproblems * sizeof(kt_value));
	kt_cu_problem_label(s->label, sizeof(s->label), m, p);
	s->nspecial = tuned && b->opt.specials ? 1 : 0;
	s->nseeds = (tuned ? KT_CU_SEEDS_TUNED : 1) + s->nspecial;
	char why[256];
	int rc = kt_cu_cfg_make(&s->ref, m, b->default_idx, p, b->devvals,
	                        b->total_mem);
	if (rc)
		return rc;
	if (s->ref.violated)
		return kt_error(KT_EINVALID,
		                "the default configuration violates "
		                "'%s' at %s: it cannot be the "
		                "reference",
		                s->ref.violated, s->label);
	if (kt_cu_cfg_limits(&s->ref, b->attrs, why, sizeof(why)))
		return kt_error(KT_EINVALID,
		                "the default configuration does not "
		                "fit the device at %s: %s",
		                s->label, why);
	rc = kt_cu_compile_cfg(&s->bin, b, &s->ref, NULL);
	if (!rc && !s->bin.ok)
		rc = kt_error(KT_EBACKEND,
		              "the default configuration does not "
		              "compile at %s:\n%s",
		              s->label, s->bin.log);
	return rc;
}

static int choose_sizes(kt_cu_backend *b, const kt_value *problem)
{
	const kt_model *m = b->base.model;
	b->sizes = kt_calloc(2, sizeof(kt_cu_size));
	kt_value *cand = kt_calloc(m->nproblems + 1, sizeof(kt_value));
	int rc =
	    (!b->sizes || !cand) ? kt_error(KT_ENOMEM, "out of memory") : 0;
	if (!rc)
		rc = make_size(b, &b->sizes[0], problem, true);
	b->nsizes = 1;
	for (int k = 0; !rc && off_size(m, problem, k, cand); k++) {
		if (!memcmp(cand, problem, m->nproblems * sizeof(kt_value)))
			continue;
		kt_cu_size *s = &b->sizes[1];
		if (!make_size(b, s, cand, false)) {
			b->nsizes = 2;
			break;
		}
		kt_free(s->problem);
		kt_cu_cfg_release(&s->ref);
		kt_cu_binary_release(&s->bin);
		*s = (kt_cu_size){0};
		kt_error_clear();
	}
	kt_free(cand);
	return rc;
}

static int put_args(kt_cu_backend *b, kt_str *s)
{
	const kt_model *m = b->base.model;
	int rc = 0;
	for (size_t a = 0; a < m->nargs; a++) {
		const kt_arg *g = &m->args[a];
		kt_tolerance tol = kt_verify_tolerance(&m->verify, g->type);
		if (m->verify.off)
			tol.match = -1; /* the worker compares nothing */
		rc |= kt_cu_put_str(s, g->name) |
		      kt_cu_put_u32(s, g->count != NULL) |
		      kt_cu_put_u32(s, g->type) | kt_cu_put_u32(s, g->dir) |
		      kt_cu_put_u32(s, g->init.kind) |
		      kt_cu_put_f64(s, g->init.lo) |
		      kt_cu_put_f64(s, g->init.hi) |
		      kt_cu_put_f64(s, g->init.value) |
		      kt_cu_put_f64(s, tol.rtol) | kt_cu_put_f64(s, tol.atol) |
		      kt_cu_put_f64(s, tol.match);
	}
	return rc;
}

void kt_cu_launch_of(kt_cu_launch *l, const kt_cu_cfg *c,
                     const kt_cu_binary *bin)
{
	memcpy(l->grid, c->grid, sizeof(l->grid));
	memcpy(l->block, c->block, sizeof(l->block));
	l->smem = c->smem;
	l->pdl = c->pdl;
	l->lowered = bin->lowered;
	l->image = bin->image;
	l->size = bin->size;
	l->scalars = c->scalars;
}

static int build_problem_msg(kt_cu_backend *b)
{
	const kt_model *m = b->base.model;
	kt_str *s = &b->problem_msg;
	kt_str_clear(s);
	int rc = kt_cu_put_u64(s, b->opt.seed) |
	         kt_cu_put_u32(s, (uint32_t)m->nargs) |
	         kt_cu_put_u32(s, (uint32_t)b->nsizes) | put_args(b, s);
	for (size_t i = 0; !rc && i < b->nsizes; i++) {
		kt_cu_size *z = &b->sizes[i];
		rc |= kt_cu_put_str(s, z->label) | kt_cu_put_u32(s, z->nseeds) |
		      kt_cu_put_u32(s, z->nspecial);
		for (size_t a = 0; a < m->nargs; a++)
			rc |= kt_cu_put_u64(s, z->ref.counts[a]);
		kt_cu_launch l;
		kt_cu_launch_of(&l, &z->ref, &z->bin);
		rc |= kt_cu_put_launch(s, &l, m->nargs);
	}
	return rc ? kt_error(KT_ENOMEM, "out of memory") : 0;
}

static int cuda_set_problem(kt_backend *base, const kt_value *problem)
{
	kt_cu_backend *b = (kt_cu_backend *)base;
	const kt_model *m = base->model;
	kt_value *p = kt_calloc(m->nproblems + 1, sizeof(kt_value));
	if (!p)
		return kt_error(KT_ENOMEM, "out of memory");
	for (size_t i = 0; i < m->nproblems; i++)
		p[i] = kt_model_problem_value(m, problem, i);
	free_sizes(b);
	kt_str_clear(&b->problem_msg);
	b->problem_sent = false;
	int rc = choose_sizes(b, p);
	kt_free(p);
	if (!rc && !b->opt.compile_only)
		rc = build_problem_msg(b);
	if (!rc && b->opt.compile_only)
		kt_cu_compilers_start(b->compilers, b->threads);
	if (!rc && !b->opt.compile_only)
		rc = kt_cu_worker_ready(b);
	return rc;
}

static const kt_backend_ops cuda_ops = {
    .name = "cuda",
    .device_info = cuda_device_info,
    .set_problem = cuda_set_problem,
    .evaluate = kt_cu_evaluate,
    .free = cuda_free,
};

static int copy_options(kt_cu_backend *b, const kt_backend_options *opt)
{
	b->opt = *opt;
	b->opt.from = NULL;
	b->device = opt->device ? kt_strdup(opt->device) : NULL;
	b->cache_dir =
	    opt->cache_dir ? kt_strdup(opt->cache_dir) : default_cache_dir();
	b->exe = kt_strdup(kt_cu_worker_exe(opt));
	b->opt.device = b->device;
	b->opt.cache_dir = b->cache_dir;
	b->opt.worker_exe = b->exe;
	b->timed_runs =
	    opt->timed_runs > 0 ? opt->timed_runs : KT_CU_TIMED_RUNS;
	b->warmup_runs =
	    opt->warmup_runs > 0 ? opt->warmup_runs : KT_CU_WARMUP_RUNS;
	b->timeout_s = opt->timeout_s > 0 ? opt->timeout_s : KT_CU_TIMEOUT_S;
	if (opt->objective && strcmp(opt->objective, "cold") &&
	    strcmp(opt->objective, "graph"))
		return kt_error(KT_EINVALID,
		                "unknown objective '%s' (cold or graph)",
		                opt->objective);
	b->graph = opt->objective && !strcmp(opt->objective, "graph");
	b->opt.objective =
	    NULL; /* b->graph says it; the text is the caller's */
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	b->threads = opt->compile_threads > 0 ? opt->compile_threads
	             : cores > 0              ? (int)cores
	                                      : 1;
	b->compilers = kt_calloc((size_t)b->threads, sizeof(kt_cu_compiler));
	if ((opt->device && !b->device) || (opt->cache_dir && !b->cache_dir) ||
	    !b->exe || !b->compilers)
		return kt_error(KT_ENOMEM, "out of memory");
	for (int i = 0; i < b->threads; i++)
		b->compilers[i].exe = b->exe;
	return 0;
}

int kt_backend_cuda_open(kt_backend **out, const kt_model *m,
                         const kt_backend_options *opt)
{
	*out = NULL;
	if (!m->launch.present)
		return kt_error(
		    KT_EINVALID,
		    "kernel '%s' has no '#pragma kt launch': the CUDA "
		    "backend needs its grid and block",
		    m->kernel);
	kt_cu_backend *b = kt_calloc(1, sizeof(*b));
	if (!b)
		return kt_error(KT_ENOMEM, "out of memory");
	b->base.ops = &cuda_ops;
	b->base.model = m;
	b->fd = -1;
	kt_str_init(&b->problem_msg, 0);
	b->devvals = kt_calloc(m->ndevices + 1, sizeof(kt_value));
	b->default_idx = kt_calloc(m->nparams + 1, sizeof(uint32_t));
	int rc = (!b->devvals || !b->default_idx)
	             ? kt_error(KT_ENOMEM, "out of memory")
	             : copy_options(b, opt);
	if (!rc)
		kt_model_default_config(m, b->default_idx);
	if (!rc && !b->opt.compile_only)
		rc = kt_cu_worker_start(b, true);
	if (!rc)
		rc = choose_arch(b);
	if (!rc)
		fill_info(b);
	if (rc) {
		cuda_free(&b->base);
		return rc;
	}
	*out = &b->base;
	return 0;
}
