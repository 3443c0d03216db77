/*
 * rt/rt.c - the ktc runtime (ktc/rt.h): a template and its wisdom in, a
 * launch at any shape out.
 *
 * The design choice a reader needs: a launch looks its shape up in a
 * small table of shapes already resolved (problem values -> loaded
 * kernel, launch geometry, scalar arguments) under a read lock, and
 * allocates nothing; only the first launch at a shape selects the
 * configuration (kt_wisdom_select), evaluates it (kt_cu_cfg_make, the
 * tuner's own code), compiles it (kt_cu_compile, the tuner's NVRTC path
 * and cache, keyed here by device and driver too) and loads it as a CUDA
 * library, so it launches in any context; then it takes the write lock
 * for as long as adding the shape to the table takes.
 */
#include "ktc/rt.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktc/model.h"
#include "ktc/wisdom.h"
#include "runtime/cuda/compile.h"
#include "runtime/cuda/config.h"
#include "runtime/cuda/driver.h"
#include "util/cuda.h"
#include "util/fs.h"
#include "util/str.h"

/* cuLaunchKernel takes a parameter array; the launch path builds it on
 * the stack. */
enum { MAX_ARGS = 64, PLAIN_SMEM = 48 * 1024 };

struct kt_rt {
	kt_cu_driver d;
	bool online;
	CUdevice dev;
	CUcontext ctx; /* the device's primary context, retained */
	char name[128], arch[32];
	int driver;
	int attrs[KT_CU_NATTRS];
	char *cache_dir;
	char salt[256]; /* device, driver, arch: part of every cache key */
	pthread_mutex_t lock; /* kernels */
	kt_rt_kernel **kernels;
	size_t nkernels;
};

/* One resolved shape: everything a launch there needs. */
typedef struct shape {
	int64_t *problem;
	CUlibrary lib;
	CUkernel fn;
	uint32_t grid[3], block[3], smem;
	bool pdl;          /* programmatic dependent launch */
	uint64_t *scalars; /* per argument, the template's values */
	uint64_t *counts;  /* per argument, elements of a buffer */
	char *key;
	kt_wisdom_match match;
} shape;

struct kt_rt_kernel {
	kt_rt *rt;
	kt_template *t;
	const kt_model *m;
	kt_wisdom *w;     /* NULL: defaults everywhere */
	kt_value *device; /* the model's DEVICE_* values */
	uint32_t *default_idx;
	pthread_rwlock_t lock; /* shapes */
	shape *shapes;
	size_t n, cap;
};

const char *kt_rt_error(void)
{
	return kt_error_last();
}

/* ---- the device -------------------------------------------------------- */

static char *default_cache_dir(const char *given)
{
	const char *env = getenv("KTC_RT_CACHE"),
	           *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	kt_str s = KT_STR_INIT;
	int rc = given           ? kt_str_adds(&s, given)
	         : env && *env   ? kt_str_adds(&s, env)
	         : xdg && *xdg   ? kt_str_addf(&s, "%s/ktc/rt", xdg)
	         : home && *home ? kt_str_addf(&s, "%s/.cache/ktc/rt", home)
	                         : kt_str_adds(&s, ".ktc/rt");
	if (rc) {
		kt_str_release(&s);
		return NULL;
	}
	return kt_str_detach(&s);
}

static int open_device(kt_rt *rt, int ordinal)
{
	kt_cu_driver *d = &rt->d;
	int rc = kt_cu_driver_load(d);
	if (!rc)
		rc = kt_cu_check(d, d->cuInit(0), "cuInit");
	if (!rc)
		rc = kt_cu_check(d, d->cuDeviceGet(&rt->dev, ordinal),
		                 "cuDeviceGet");
	if (!rc)
		rc = kt_cu_check(
		    d, d->cuDeviceGetName(rt->name, sizeof(rt->name), rt->dev),
		    "cuDeviceGetName");
	if (!rc)
		rc = kt_cu_check(d, d->cuDriverGetVersion(&rt->driver),
		                 "cuDriverGetVersion");
	for (int i = 0; !rc && i < KT_CU_NATTRS; i++)
		rc = kt_cu_check(
		    d,
		    d->cuDeviceGetAttribute(&rt->attrs[i],
		                            (CUdevice_attribute)kt_cu_attrs[i],
		                            rt->dev),
		    "cuDeviceGetAttribute");
	if (rc)
		return rc;
	int major = 0, minor = 0;
	d->cuDeviceGetAttribute(
	    &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, rt->dev);
	d->cuDeviceGetAttribute(
	    &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, rt->dev);
	/* the arch-specific target where there is one, as the tuner uses */
	snprintf(rt->arch, sizeof(rt->arch), "sm_%d%d%s", major, minor,
	         major >= 9 ? "a" : "");
	rc = kt_cu_check(d, d->cuDevicePrimaryCtxRetain(&rt->ctx, rt->dev),
	                 "cuDevicePrimaryCtxRetain");
	CUcontext cur = NULL;
	if (!rc && d->cuCtxGetCurrent(&cur) == CUDA_SUCCESS && !cur)
		rc = kt_cu_check(d, d->cuCtxSetCurrent(rt->ctx),
		                 "cuCtxSetCurrent");
	rt->online = rc == 0;
	return rc;
}

int kt_rt_open(kt_rt **out, const kt_rt_options *opt)
{
	kt_rt_options none = {0};
	*out = NULL;
	if (!opt)
		opt = &none;
	kt_rt *rt = kt_calloc(1, sizeof(*rt));
	if (!rt)
		return kt_error(KT_ENOMEM, "out of memory");
	pthread_mutex_init(&rt->lock, NULL);
	int rc = 0;
	if (opt->offline_name) {
		snprintf(rt->name, sizeof(rt->name), "%s", opt->offline_name);
		snprintf(rt->arch, sizeof(rt->arch), "%s",
		         opt->offline_arch ? opt->offline_arch
		                           : KT_CUDA_DEFAULT_ARCH);
		rt->driver = opt->offline_driver;
		kt_cu_fallback_attrs(rt->attrs);
	} else {
		rc = open_device(rt, opt->device);
	}
	snprintf(rt->salt, sizeof(rt->salt), "ktcrt\ndevice=%s\ndriver=%d",
	         rt->name, rt->driver);
	if (!rc && !(rt->cache_dir = default_cache_dir(opt->cache_dir)))
		rc = kt_error(KT_ENOMEM, "out of memory");
	if (rc) {
		kt_rt_close(rt);
		return rc;
	}
	*out = rt;
	return 0;
}

const char *kt_rt_device_name(const kt_rt *rt)
{
	return rt->name;
}
const char *kt_rt_device_arch(const kt_rt *rt)
{
	return rt->arch;
}
int kt_rt_driver_version(const kt_rt *rt)
{
	return rt->driver;
}
const char *kt_rt_cache_dir(const kt_rt *rt)
{
	return rt->cache_dir;
}

static void shape_release(kt_rt *rt, shape *s);

static void kernel_free(kt_rt *rt, kt_rt_kernel *k)
{
	for (size_t i = 0; i < k->n; i++)
		shape_release(rt, &k->shapes[i]);
	kt_free(k->shapes);
	pthread_rwlock_destroy(&k->lock);
	kt_wisdom_free(k->w);
	kt_template_free(k->t);
	kt_free(k->device);
	kt_free(k->default_idx);
	kt_free(k);
}

void kt_rt_close(kt_rt *rt)
{
	if (!rt)
		return;
	for (size_t i = 0; i < rt->nkernels; i++)
		kernel_free(rt, rt->kernels[i]);
	kt_free(rt->kernels);
	if (rt->ctx)
		rt->d.cuDevicePrimaryCtxRelease(rt->dev);
	pthread_mutex_destroy(&rt->lock);
	kt_free(rt->cache_dir);
	kt_free(rt);
}

/* ---- loading a kernel ------------------------------------------------ */

static int load_template(kt_rt_kernel *k, const char *path, const char *kernel)
{
	kt_diags d;
	kt_diags_init(&d);
	int rc = kt_template_load(&k->t, path, &d);
	if (rc && d.len && d.items[0].file)
		kt_error(rc, "%s:%d:%d: %s", d.items[0].file, d.items[0].line,
		         d.items[0].col, d.items[0].message);
	kt_diags_release(&d);
	if (rc)
		return rc;
	if (!(k->m = kt_template_model(k->t, kernel)))
		return kernel ? kt_error(KT_ENOTFOUND,
		                         "no annotated kernel '%s' in '%s'",
		                         kernel, path)
		              : kt_error(KT_EINVALID,
		                         "'%s' has %zu annotated kernels; name "
		                         "one",
		                         path, k->t->nmodels);
	if (k->m->nargs > MAX_ARGS)
		return kt_error(KT_EUNSUPPORTED,
		                "kernel '%s' has %zu arguments; the runtime "
		                "launches at most %d",
		                k->m->kernel, k->m->nargs, MAX_ARGS);
	return 0;
}

static bool same_names(char *const *a, size_t na, const kt_model *m,
                       bool params)
{
	size_t n = params ? m->nparams : m->nproblems;
	for (size_t i = 0; na == n && i < n; i++)
		if (strcmp(a[i],
		           params ? m->params[i].name : m->problems[i].name))
			return false;
	return na == n;
}

static int load_wisdom(kt_rt_kernel *k, const char *path)
{
	int rc = kt_wisdom_load(&k->w, path);
	if (rc)
		return rc;
	const kt_wisdom *w = k->w;
	uint64_t hash =
	    kt_hash(KT_HASH_INIT, k->t->source, strlen(k->t->source));
	if (strcmp(w->kernel, k->m->kernel))
		return kt_error(KT_EINVALID,
		                "wisdom '%s' is for kernel '%s', not '%s'",
		                path, w->kernel, k->m->kernel);
	if (w->template_hash != hash)
		return kt_error(KT_EINVALID,
		                "wisdom '%s' was tuned on another version of "
		                "'%s' (template hash %016llx, now %016llx)",
		                path, k->t->path,
		                (unsigned long long)w->template_hash,
		                (unsigned long long)hash);
	if (!same_names(w->param_names, w->nparams, k->m, true) ||
	    !same_names(w->problem_names, w->nproblems, k->m, false))
		return kt_error(KT_EINVALID,
		                "wisdom '%s' names other parameters or problem "
		                "variables than kernel '%s'",
		                path, k->m->kernel);
	return 0;
}

static int kernel_values(kt_rt_kernel *k)
{
	const kt_model *m = k->m;
	k->device = kt_calloc(m->ndevices + 1, sizeof(kt_value));
	k->default_idx = kt_calloc(m->nparams + 1, sizeof(uint32_t));
	if (!k->device || !k->default_idx)
		return kt_error(KT_ENOMEM, "out of memory");
	for (size_t i = 0; i < m->ndevices; i++) {
		int64_t v = 0;
		k->device[i] =
		    kt_cu_device_value(k->rt->attrs, m->devices[i].name, &v)
		        ? kt_int(v)
		        : m->devices[i].fallback;
	}
	kt_model_default_config(m, k->default_idx);
	return 0;
}

static int add_kernel(kt_rt *rt, kt_rt_kernel *k)
{
	pthread_mutex_lock(&rt->lock);
	kt_rt_kernel **p =
	    kt_realloc(rt->kernels, (rt->nkernels + 1) * sizeof(*p));
	if (p) {
		rt->kernels = p;
		p[rt->nkernels++] = k;
	}
	pthread_mutex_unlock(&rt->lock);
	return p ? 0 : kt_error(KT_ENOMEM, "out of memory");
}

int kt_rt_load(kt_rt_kernel **out, kt_rt *rt, const char *template_path,
               const char *kernel, const char *wisdom_path)
{
	*out = NULL;
	kt_rt_kernel *k = kt_calloc(1, sizeof(*k));
	if (!k)
		return kt_error(KT_ENOMEM, "out of memory");
	k->rt = rt;
	pthread_rwlock_init(&k->lock, NULL);
	int rc = load_template(k, template_path, kernel);
	if (!rc && wisdom_path)
		rc = load_wisdom(k, wisdom_path);
	if (!rc)
		rc = kernel_values(k);
	if (!rc)
		rc = add_kernel(rt, k);
	if (rc) {
		kernel_free(rt, k);
		return rc;
	}
	*out = k;
	return 0;
}

size_t kt_rt_nproblems(const kt_rt_kernel *k)
{
	return k->m->nproblems;
}
const char *kt_rt_problem_name(const kt_rt_kernel *k, size_t i)
{
	return i < k->m->nproblems ? k->m->problems[i].name : NULL;
}
size_t kt_rt_nargs(const kt_rt_kernel *k)
{
	return k->m->nargs;
}
const char *kt_rt_arg_name(const kt_rt_kernel *k, size_t i)
{
	return i < k->m->nargs ? k->m->args[i].name : NULL;
}
const char *kt_rt_arg_type(const kt_rt_kernel *k, size_t i)
{
	return i < k->m->nargs ? kt_type_name(k->m->args[i].type) : NULL;
}
int kt_rt_arg_is_buffer(const kt_rt_kernel *k, size_t i)
{
	return i < k->m->nargs && k->m->args[i].count != NULL;
}

int kt_rt_arg_dir(const kt_rt_kernel *k, size_t i)
{
	if (!kt_rt_arg_is_buffer(k, i))
		return -1;
	switch (k->m->args[i].dir) {
	case KT_ARG_IN: return 0;
	case KT_ARG_OUT: return 1;
	case KT_ARG_INOUT: return 2;
	}
	return -1;
}

/* ---- resolving a shape ----------------------------------------------- */

/* The index in k->shapes of problem, or -1; the caller holds the lock. */
static ptrdiff_t find_shape(const kt_rt_kernel *k, const int64_t *problem)
{
	size_t np = k->m->nproblems;
	for (size_t i = 0; i < k->n; i++)
		if (!memcmp(k->shapes[i].problem, problem,
		            np * sizeof(int64_t)))
			return (ptrdiff_t)i;
	return -1;
}

/* The wisdom's choice at vals as domain indices; false to use defaults. */
static bool wisdom_config(const kt_rt_kernel *k, const kt_value *vals,
                          uint32_t *idx, kt_wisdom_match *match)
{
	size_t s = SIZE_MAX;
	*match = k->w ? kt_wisdom_select(k->w, k->rt->name, vals, &s)
	              : KT_WISDOM_DEFAULT;
	if (*match == KT_WISDOM_DEFAULT)
		return false;
	for (size_t p = 0; p < k->m->nparams; p++) {
		const kt_param *par = &k->m->params[p];
		double want = kt_value_as_double(k->w->shapes[s].best[p]);
		size_t v = 0;
		while (v < par->nvalues &&
		       kt_value_as_double(par->values[v]) != want)
			v++;
		if (v == par->nvalues)
			return false;
		idx[p] = (uint32_t)v;
	}
	return true;
}

/* "T=64,D=4096" into buf. */
static void label(char *buf, size_t cap, const kt_model *m,
                  const kt_value *vals)
{
	kt_cu_problem_label(buf, cap, m, vals);
}

/*
 * The configuration to run at vals, evaluated: the wisdom's, unless it
 * breaks a constraint or a limit of the device at this shape; then the
 * defaults, which must not.
 */
static int choose(kt_rt_kernel *k, const kt_value *vals, kt_cu_cfg *cfg,
                  uint32_t *idx, kt_wisdom_match *match)
{
	char why[256] = "";
	bool wise = wisdom_config(k, vals, idx, match);
	for (int pass = wise ? 0 : 1; pass < 2; pass++) {
		if (pass == 1) {
			memcpy(idx, k->default_idx,
			       k->m->nparams * sizeof(uint32_t));
			*match = KT_WISDOM_DEFAULT;
		}
		int rc = kt_cu_cfg_make(cfg, k->m, idx, vals, k->device, 0);
		if (rc)
			return rc;
		if (cfg->violated)
			snprintf(why, sizeof(why), "violates '%s'",
			         cfg->violated);
		else if (!kt_cu_cfg_limits(cfg, k->rt->attrs, why, sizeof(why)))
			return 0;
		kt_cu_cfg_release(cfg);
	}
	char at[256];
	label(at, sizeof(at), k->m, vals);
	return kt_error(KT_EINVALID,
	                "kernel '%s' at %s: the default configuration %s",
	                k->m->kernel, at, why);
}

static int compile(kt_rt_kernel *k, const kt_cu_cfg *cfg, kt_cu_binary *bin,
                   const kt_value *vals)
{
	kt_cu_source src = {.text = k->t->source,
	                    .path = k->t->path,
	                    .name_expr = cfg->name_expr,
	                    .arch = k->rt->arch,
	                    .defines = cfg->defines,
	                    .ndefines = cfg->ndefines,
	                    .salt = k->rt->salt};
	int rc = kt_cu_compile(bin, &src, k->rt->cache_dir);
	if (rc || bin->ok)
		return rc;
	char at[256];
	label(at, sizeof(at), k->m, vals);
	return kt_error(KT_EBACKEND,
	                "kernel '%s' does not compile at %s: %.2000s",
	                k->m->kernel, at, bin->log ? bin->log : "");
}

static int load_binary(kt_rt *rt, const kt_cu_binary *bin, uint32_t smem,
                       shape *s)
{
	kt_cu_driver *d = &rt->d;
	int rc = kt_cu_check(d,
	                     d->cuLibraryLoadData(&s->lib, bin->image, NULL,
	                                          NULL, 0, NULL, NULL, 0),
	                     "cuLibraryLoadData");
	if (!rc)
		rc = kt_cu_check(
		    d, d->cuLibraryGetKernel(&s->fn, s->lib, bin->lowered),
		    "cuLibraryGetKernel");
	if (!rc && smem > PLAIN_SMEM)
		rc = kt_cu_check(
		    d,
		    d->cuKernelSetAttribute(
		        CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
		        (int)smem, s->fn, rt->dev),
		    "cuKernelSetAttribute (dynamic shared memory)");
	return rc;
}

static char *config_key(const kt_model *m, const uint32_t *idx)
{
	kt_str s = KT_STR_INIT;
	for (size_t p = 0; p < m->nparams; p++) {
		char v[64];
		kt_value_format(v, sizeof(v), m->params[p].values[idx[p]]);
		if (kt_str_addf(&s, "%s%s=%s", p ? "," : "", m->params[p].name,
		                v)) {
			kt_str_release(&s);
			return NULL;
		}
	}
	return kt_str_detach(&s);
}

/* Fills s for problem: choose, compile, load. */
static int build_shape(kt_rt_kernel *k, const int64_t *problem, shape *s)
{
	const kt_model *m = k->m;
	kt_value *vals = kt_calloc(m->nproblems + 1, sizeof(kt_value));
	uint32_t *idx = kt_calloc(m->nparams + 1, sizeof(uint32_t));
	s->problem = kt_calloc(m->nproblems + 1, sizeof(int64_t));
	s->scalars = kt_calloc(m->nargs + 1, sizeof(uint64_t));
	s->counts = kt_calloc(m->nargs + 1, sizeof(uint64_t));
	kt_cu_cfg cfg = {0};
	kt_cu_binary bin = {0};
	int rc = vals && idx && s->problem && s->scalars && s->counts
	             ? 0
	             : kt_error(KT_ENOMEM, "out of memory");
	for (size_t i = 0; !rc && i < m->nproblems; i++) {
		vals[i] = kt_int(problem[i]);
		s->problem[i] = problem[i];
	}
	if (!rc)
		rc = choose(k, vals, &cfg, idx, &s->match);
	if (!rc && !(s->key = config_key(m, idx)))
		rc = kt_error(KT_ENOMEM, "out of memory");
	if (!rc)
		rc = compile(k, &cfg, &bin, vals);
	if (!rc && k->rt->online)
		rc = load_binary(k->rt, &bin, cfg.smem, s);
	if (!rc) {
		memcpy(s->grid, cfg.grid, sizeof(s->grid));
		memcpy(s->block, cfg.block, sizeof(s->block));
		s->smem = cfg.smem;
		s->pdl = cfg.pdl;
		memcpy(s->scalars, cfg.scalars, m->nargs * sizeof(uint64_t));
		memcpy(s->counts, cfg.counts, m->nargs * sizeof(uint64_t));
	}
	kt_cu_binary_release(&bin);
	kt_cu_cfg_release(&cfg);
	kt_free(vals);
	kt_free(idx);
	return rc;
}

static void shape_release(kt_rt *rt, shape *s)
{
	if (rt->online && s->lib)
		rt->d.cuLibraryUnload(s->lib);
	kt_free(s->problem);
	kt_free(s->scalars);
	kt_free(s->counts);
	kt_free(s->key);
	memset(s, 0, sizeof(*s));
}

/*
 * The shape of problem, resolved now if it was not; *out a copy. The
 * compile runs outside the lock, so launches at other shapes go on
 * meanwhile; two threads that resolve the same new shape at once both
 * build it (the second from the disk cache, mostly) and the first to
 * take the lock keeps its own.
 */
static int resolve(kt_rt_kernel *k, const int64_t *problem, shape *out)
{
	shape s = {0};
	int rc = build_shape(k, problem, &s);
	if (rc) {
		shape_release(k->rt, &s);
		return rc;
	}
	pthread_rwlock_wrlock(&k->lock);
	ptrdiff_t at = find_shape(k, problem);
	if (at < 0 && k->n == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 8;
		shape *p = kt_realloc(k->shapes, cap * sizeof(*p));
		rc = p ? 0 : kt_error(KT_ENOMEM, "out of memory");
		if (p) {
			k->shapes = p;
			k->cap = cap;
		}
	}
	if (!rc && at < 0) {
		at = (ptrdiff_t)k->n++;
		k->shapes[at] = s;
	} else {
		shape_release(k->rt, &s); /* another thread's came first */
	}
	if (!rc)
		*out = k->shapes[at];
	pthread_rwlock_unlock(&k->lock);
	return rc;
}

/* The launch path: a copy of the shape's entry, resolved on first use. */
static int lookup(kt_rt_kernel *k, const int64_t *problem, shape *out)
{
	pthread_rwlock_rdlock(&k->lock);
	ptrdiff_t at = find_shape(k, problem);
	if (at >= 0)
		*out = k->shapes[at];
	pthread_rwlock_unlock(&k->lock);
	return at >= 0 ? 0 : resolve(k, problem, out);
}

int kt_rt_prepare(kt_rt_kernel *k, const int64_t *problem)
{
	shape s;
	return lookup(k, problem, &s);
}

int kt_rt_choice(kt_rt_kernel *k, const int64_t *problem, char *key, size_t cap,
                 const char **match)
{
	shape s;
	int rc = lookup(k, problem, &s);
	if (rc)
		return rc;
	if (key && cap)
		snprintf(key, cap, "%s", s.key);
	if (match)
		*match = kt_wisdom_match_name(s.match);
	return 0;
}

int kt_rt_arg_count(kt_rt_kernel *k, const int64_t *problem, size_t i,
                    uint64_t *count)
{
	shape s;
	*count = 0;
	if (i >= k->m->nargs)
		return kt_error(KT_EINVALID,
		                "kernel '%s' has %zu arguments, not %zu",
		                k->m->kernel, k->m->nargs, i + 1);
	int rc = lookup(k, problem, &s);
	if (!rc)
		*count = s.counts[i];
	return rc;
}

int kt_rt_launch(kt_rt_kernel *k, const int64_t *problem, void *const *args,
                 void *stream)
{
	kt_rt *rt = k->rt;
	if (!rt->online)
		return kt_error(KT_EUNSUPPORTED,
		                "the runtime was opened for '%s' without a "
		                "device: it compiles, it does not launch",
		                rt->name);
	shape s;
	int rc = lookup(k, problem, &s);
	if (rc)
		return rc;
	void *params[MAX_ARGS];
	for (size_t a = 0; a < k->m->nargs; a++) {
		bool buffer = k->m->args[a].count != NULL;
		params[a] = args && args[a] ? args[a] : &s.scalars[a];
		if (buffer && !(args && args[a]))
			return kt_error(KT_EINVALID,
			                "kernel '%s': no pointer for buffer "
			                "argument '%s'",
			                k->m->kernel, k->m->args[a].name);
	}
	CUcontext cur = NULL;
	if (rt->d.cuCtxGetCurrent(&cur) == CUDA_SUCCESS && !cur)
		rt->d.cuCtxSetCurrent(rt->ctx);
	CUresult r = kt_cu_launch_fn(&rt->d, (CUfunction)s.fn, s.grid, s.block,
	                             s.smem, s.pdl, (CUstream)stream, params);
	return r == CUDA_SUCCESS ? 0 : kt_cu_check(&rt->d, r, "cuLaunchKernel");
}
