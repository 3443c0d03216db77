/*
 * landscape.c - synthetic landscapes: a made-up time for every valid
 * configuration of a template, written as a T4 file the simulation backend
 * can answer from, so search strategies can be compared before real GPU
 * results exist.
 *
 * Nothing here is a measurement, and the files say so (metadata.synthetic,
 * and a device name that is no device). The one design choice: every
 * configuration's numbers come from a generator seeded by (seed, its key),
 * not from the order of enumeration, so a landscape is the same function of
 * the configuration whatever else changes. docs/tuning.md gives the
 * formulas; they are restated beside each kind below.
 */
#include "ktc/tune.h"

#include "tuner/results_impl.h"

#include "util/fs.h"
#include "util/rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const kt_landscape_kind kt_landscape_kinds[] = {
    {"bowl", "one smooth basin: a separable quadratic around a random optimum"},
    {"roofline", "GPU-like: memory roofline, occupancy cliffs from threads "
                 "and a register proxy, wave quantisation, resource failures"},
    {"rugged", "eight random basins of different depths plus 10% "
               "per-configuration roughness: many local minima"},
    {NULL, NULL},
};

enum { KIND_BOWL, KIND_ROOFLINE, KIND_RUGGED, NBASINS = 8, NSAMPLES = 7 };

/* The landscape's random coefficients, drawn once from the seed. */
typedef struct shape {
	int kind;
	size_t np;
	double *a, *c, *w; /* per parameter: weight, optimum, register cost */
	double basin_m[NBASINS]
	              [16]; /* rugged: basin centres (first 16 params) */
	double basin_h[NBASINS], basin_s[NBASINS];
} shape;

static int find_kind(const char *name)
{
	for (int k = 0; kt_landscape_kinds[k].name; k++)
		if (!strcmp(kt_landscape_kinds[k].name, name))
			return k;
	return -1;
}

static int shape_init(shape *s, int kind, size_t np, uint64_t seed)
{
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->np = np;
	s->a = kt_calloc(np + 1, sizeof(double));
	s->c = kt_calloc(np + 1, sizeof(double));
	s->w = kt_calloc(np + 1, sizeof(double));
	if (!s->a || !s->c || !s->w)
		return kt_error(KT_ENOMEM, "out of memory");
	kt_rng g;
	kt_rng_seed(&g, seed ^ 0x6c616e6473636170ULL);
	for (size_t p = 0; p < np; p++) {
		s->a[p] = 0.5 + 2.5 * kt_rng_double(&g);
		s->c[p] = kt_rng_double(&g);
		s->w[p] = kt_rng_double(&g);
	}
	for (int k = 0; k < NBASINS; k++) {
		for (int p = 0; p < 16; p++)
			s->basin_m[k][p] = kt_rng_double(&g);
		s->basin_h[k] = k == 0 ? 1.0 : 0.3 + 0.6 * kt_rng_double(&g);
		s->basin_s[k] =
		    (0.08 + 0.12 * kt_rng_double(&g)) * sqrt((double)np);
	}
	return 0;
}

static void shape_release(shape *s)
{
	kt_free(s->a);
	kt_free(s->c);
	kt_free(s->w);
}

/* Position of each parameter's value in its domain, in [0, 1]. */
static void positions(double *u, const kt_model *m, const uint32_t *idx)
{
	for (size_t p = 0; p < m->nparams; p++)
		u[p] = m->params[p].nvalues > 1
		           ? (double)idx[p] / (double)(m->params[p].nvalues - 1)
		           : 0.0;
}

/* sum_p a_p (u_p - c_p)^2 */
static double quad(const shape *s, const double *u)
{
	double q = 0;
	for (size_t p = 0; p < s->np; p++)
		q += s->a[p] * (u[p] - s->c[p]) * (u[p] - s->c[p]);
	return q;
}

/* Product of the launch's dims (block or grid), or 0 if absent/failing. */
static double launch_product(kt_expr *const *dims, const kt_value *slots)
{
	double prod = 1;
	bool any = false;
	for (int d = 0; d < 3; d++) {
		kt_value v;
		if (!dims[d])
			continue;
		if (kt_expr_eval(&v, dims[d], slots))
			return 0;
		prod *= kt_value_as_double(v);
		any = true;
	}
	return any && prod >= 1 ? prod : 0;
}

/*
 * roofline: T threads per block (the launch's block, else 32 * 2^round(5 u0)),
 * G blocks (the launch's grid, else 2^20 / T), R = 16 + 96 sum w_p u_p /
 * sum w_p registers per thread (w_p uniform in [0, 1)); blocks per SM
 * B = min(32, floor(2048 / T), floor(65536 / (R T))), occupancy
 * o = B T / 2048; B = 0 fails at launch ("runtime"), except for the
 * default configuration, which gets B = 1. Time in ms:
 * max(1 / min(1, o / 0.5), 0.6 (1 + q)) * (1 + 0.3 (1 - e)), where q is the
 * bowl's quadratic and e = G / (132 B) / ceil(G / (132 B)) the last wave's
 * fill.
 */
static double roofline(const shape *s, const double *u, const kt_model *m,
                       const kt_value *slots, bool is_default, bool *fails)
{
	double T =
	    m->launch.present ? launch_product(m->launch.block, slots) : 0;
	if (T <= 0)
		T = 32.0 * pow(2.0, round(5.0 * (s->np ? u[0] : 0.5)));
	double G =
	    m->launch.present ? launch_product(m->launch.grid, slots) : 0;
	if (G <= 0)
		G = ceil(1048576.0 / T);
	double R = 16, wsum = 0, wu = 0;
	for (size_t p = 0; p < s->np; p++) {
		wsum += s->w[p];
		wu += s->w[p] * u[p];
	}
	if (wsum > 0)
		R += 96 * wu / wsum;
	double B = fmin(32, fmin(floor(2048 / T), floor(65536 / (R * T))));
	*fails = B < 1 && !is_default;
	if (*fails)
		return NAN;
	B = fmax(B, 1); /* the default is the reference: it must launch */
	double o = B * T / 2048;
	double waves = G / (132 * B), fill = waves / ceil(waves);
	double t_mem = 1.0 / fmin(1.0, o / 0.5);
	double t_comp = 0.6 * (1 + quad(s, u));
	return fmax(t_mem, t_comp) * (1 + 0.3 * (1 - fill));
}

/* rugged: 1 + 1.5 (1 - max_k h_k exp(-|u - m_k|^2 / (2 s_k^2))), then
 * times (1 + 0.1 x) with x uniform in [-1, 1] per configuration. */
static double rugged(const shape *s, const double *u, kt_rng *g)
{
	double best = 0;
	for (int k = 0; k < NBASINS; k++) {
		double d2 = 0;
		for (size_t p = 0; p < s->np; p++) {
			double dm = u[p] - s->basin_m[k][p % 16];
			d2 += dm * dm;
		}
		double v = s->basin_h[k] *
		           exp(-d2 / (2 * s->basin_s[k] * s->basin_s[k]));
		best = fmax(best, v);
	}
	return (1 + 1.5 * (1 - best)) * (1 + 0.1 * (2 * kt_rng_double(g) - 1));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Fills r from the noiseless time t: NSAMPLES runs with 1% normal noise. */
static int fill_times(kt_result *r, double t, kt_rng *g)
{
	r->runtimes_ms = kt_malloc(NSAMPLES * sizeof(double));
	if (!r->runtimes_ms)
		return kt_error(KT_ENOMEM, "out of memory");
	r->nruntimes = NSAMPLES;
	for (int i = 0; i < NSAMPLES; i++)
		r->runtimes_ms[i] = t * (1 + 0.01 * kt_rng_normal(g));
	double s[NSAMPLES];
	memcpy(s, r->runtimes_ms, sizeof(s));
	qsort(s, NSAMPLES, sizeof(double), cmp_double);
	r->time_ms = s[NSAMPLES / 2];
	r->spread =
	    (s[NSAMPLES - 1] - s[0]) / r->time_ms; /* nearest-rank p90-p10 */
	return 0;
}

/* The synthetic result of one configuration. */
static int synth(kt_result *r, const shape *s, const kt_model *m,
                 const uint32_t *idx, const kt_value *slots, const char *key,
                 uint64_t seed, bool is_default)
{
	double *u = kt_calloc(m->nparams + 1, sizeof(double));
	if (!u)
		return kt_error(KT_ENOMEM, "out of memory");
	positions(u, m, idx);
	kt_rng g;
	kt_rng_seed(&g, kt_hash(seed + (uint64_t)s->kind, key, strlen(key)));
	double fate = kt_rng_double(&g), t = 0;
	bool fails = false;
	if (s->kind == KIND_BOWL)
		t = 1 + quad(s, u);
	else if (s->kind == KIND_ROOFLINE)
		t = roofline(s, u, m, slots, is_default, &fails);
	else
		t = rugged(s, u, &g);
	kt_free(u);
	/* the default is the reference: it never fails, even here */
	if (!is_default && (fails || fate < 0.05)) {
		r->status = fails || fate < 0.02 ? KT_STATUS_RUNTIME
		            : fate < 0.04        ? KT_STATUS_COMPILE
		                                 : KT_STATUS_CORRECTNESS;
		r->message = kt_strdup("synthetic failure (ktc landscape)");
		return r->message ? 0 : kt_error(KT_ENOMEM, "out of memory");
	}
	return fill_times(r, t, &g);
}

/* Writes the result of space index i into doc. */
static int add_row(cJSON *doc, const kt_results_info *info, const shape *sh,
                   const kt_space *space, uint64_t i, const kt_value *problem,
                   uint64_t seed, uint32_t *idx, kt_value *slots,
                   kt_value *values)
{
	const kt_model *m = kt_space_model(space);
	kt_result r;
	kt_result_init(&r);
	char *key = NULL;
	int rc = kt_space_get(space, i, idx);
	if (!rc)
		rc = kt_model_bind(slots, m, idx, problem, NULL);
	if (!rc && !(key = kt_space_key(space, idx)))
		rc = kt_error(KT_ENOMEM, "out of memory");
	if (!rc)
		rc = synth(&r, sh, m, idx, slots, key, seed,
		           (int64_t)i == kt_space_default_index(space));
	for (size_t p = 0; !rc && p < m->nparams; p++)
		values[p] = m->params[p].values[idx[p]];
	kt_t4_row row = {values, &r};
	if (!rc)
		rc = kt_t4_doc_add(doc, info, &row);
	kt_free(key);
	kt_result_release(&r);
	return rc;
}

static int write_rows(const char *path, const kt_space *space,
                      kt_results_info *info, const shape *sh,
                      const kt_value *problem, uint64_t seed)
{
	const kt_model *m = kt_space_model(space);
	uint32_t *idx = kt_calloc(m->nparams + 1, sizeof(uint32_t));
	kt_value *slots = kt_calloc(m->nsymbols + 1, sizeof(kt_value));
	kt_value *values = kt_calloc(m->nparams + 1, sizeof(kt_value));
	cJSON *doc = kt_t4_doc_new();
	int rc = idx && slots && values && doc
	             ? 0
	             : kt_error(KT_ENOMEM, "out of memory");
	uint64_t n = kt_space_count(space);
	for (uint64_t i = 0; !rc && i < n; i++)
		rc = add_row(doc, info, sh, space, i, problem, seed, idx, slots,
		             values);
	if (!rc)
		rc = kt_t4_doc_write(doc, path, info, "synthetic");
	cJSON_Delete(doc);
	kt_free(idx);
	kt_free(slots);
	kt_free(values);
	return rc;
}

/* The description a landscape file carries: the model's, no real device. */
static int landscape_info(kt_results_info *info, const kt_model *m,
                          const kt_value *problem, const char *kind,
                          uint64_t seed)
{
	kt_device_info dev;
	memset(&dev, 0, sizeof(dev));
	snprintf(dev.name, sizeof(dev.name),
	         "synthetic landscape '%s' seed %llu (not a device)", kind,
	         (unsigned long long)seed);
	snprintf(dev.backend, sizeof(dev.backend), "synthetic");
	/* what marks results answered from a landscape as synthetic, after
	 * the sim backend passed them on (tuner/t4.c) */
	snprintf(dev.driver, sizeof(dev.driver), "synthetic");
	snprintf(dev.runtime, sizeof(dev.runtime), "%s", kind);
	int rc = kt_results_info_from_model(info, m, problem, &dev);
	if (rc)
		return rc;
	info->seed = seed;
	if (!(info->synthetic = kt_strdup(kind)))
		return kt_error(KT_ENOMEM, "out of memory");
	return 0;
}

int kt_landscape_write(const char *path, const kt_model *m,
                       const kt_value *problem, const char *kind, uint64_t seed,
                       uint64_t limit, kt_diags *diags)
{
	int k = find_kind(kind);
	if (k < 0)
		return kt_error(KT_ENOTFOUND,
		                "unknown landscape kind '%s' (known: bowl, "
		                "roofline, rugged)",
		                kind);
	kt_diags scratch;
	kt_diags_init(&scratch);
	kt_space *space = NULL;
	kt_results_info info = {0};
	shape sh;
	int rc = shape_init(&sh, k, m->nparams, seed);
	if (!rc)
		rc = kt_space_build(&space, m, problem, NULL,
		                    diags ? diags : &scratch);
	if (!rc && kt_space_count(space) > limit)
		rc = kt_error(
		    KT_EINVALID,
		    "the space of '%s' has %llu valid configurations, "
		    "more than the limit of %llu",
		    m->kernel, (unsigned long long)kt_space_count(space),
		    (unsigned long long)limit);
	if (!rc && kt_space_default_index(space) < 0)
		rc = kt_error(KT_EINVALID,
		              "the default configuration of '%s' "
		              "violates a constraint",
		              m->kernel);
	if (!rc)
		rc = landscape_info(&info, m, problem, kind, seed);
	if (!rc)
		rc = write_rows(path, space, &info, &sh, problem, seed);
	kt_results_info_release(&info);
	kt_space_free(space);
	shape_release(&sh);
	kt_diags_release(&scratch);
	return rc;
}
