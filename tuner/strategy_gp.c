/*
 * strategy_gp.c - the Gaussian process behind Bayesian optimisation.
 *
 * The design choice: hyperparameters come from small fixed grids searched
 * one coordinate at a time on the marginal likelihood, not from a gradient
 * optimiser. It costs a few dozen factorisations, has no step size to get
 * wrong, and gives the same answer on every machine, which keeps a seeded
 * run reproducible.
 */
#include "tuner/strategy_gp.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "ktc/common.h"

static const double ls_grid[] = {0.05, 0.1, 0.2, 0.35, 0.6, 1.0, 2.0, 5.0};
static const double noise_grid[] = {1e-4, 1e-3, 1e-2, 0.05, 0.2};
enum {
	NLS = sizeof(ls_grid) / sizeof(ls_grid[0]),
	NNOISE = sizeof(noise_grid) / sizeof(noise_grid[0]),
};

int kt_gp_init(kt_gp *g, int kernel, size_t d, size_t cap)
{
	memset(g, 0, sizeof(*g));
	g->kernel = kernel;
	g->d = d;
	g->cap = cap;
	g->noise = 1e-2;
	g->x = kt_calloc(cap * (d ? d : 1), sizeof(double));
	g->y = kt_calloc(cap, sizeof(double));
	g->ls = kt_calloc(d ? d : 1, sizeof(double));
	g->L = kt_calloc(cap * cap, sizeof(double));
	g->alpha = kt_calloc(cap, sizeof(double));
	g->work = kt_calloc(cap, sizeof(double));
	if (!g->x || !g->y || !g->ls || !g->L || !g->alpha || !g->work) {
		kt_gp_release(g);
		return kt_error(KT_ENOMEM,
		                "out of memory for a model of %zu "
		                "points",
		                cap);
	}
	for (size_t j = 0; j < d; j++)
		g->ls[j] = 0.35;
	return 0;
}

void kt_gp_release(kt_gp *g)
{
	kt_free(g->x);
	kt_free(g->y);
	kt_free(g->ls);
	kt_free(g->L);
	kt_free(g->alpha);
	kt_free(g->work);
	memset(g, 0, sizeof(*g));
}

static double kern(const kt_gp *g, const double *a, const double *b)
{
	double r2 = 0;
	for (size_t j = 0; j < g->d; j++) {
		double t = (a[j] - b[j]) / g->ls[j];
		r2 += t * t;
	}
	if (g->kernel == KT_GP_RBF)
		return exp(-0.5 * r2);
	double r = sqrt(5.0 * r2);
	return (1.0 + r + r * r / 3.0) * exp(-r);
}

/* In-place Cholesky of the kernel matrix; jitter grows if it is not PD. */
static int cholesky(kt_gp *g)
{
	size_t n = g->n;
	double *L = g->L;
	for (double jitter = 0; jitter < 1.0;
	     jitter = jitter ? jitter * 10 : 1e-8) {
		bool ok = true;
		for (size_t i = 0; i < n && ok; i++) {
			for (size_t k = 0; k <= i; k++) {
				double s =
				    kern(g, &g->x[i * g->d], &g->x[k * g->d]);
				if (i == k)
					s += g->noise + jitter;
				for (size_t j = 0; j < k; j++)
					s -= L[i * n + j] * L[k * n + j];
				if (i == k) {
					if (s <= 0) {
						ok = false;
						break;
					}
					L[i * n + i] = sqrt(s);
				} else {
					L[i * n + k] = s / L[k * n + k];
				}
			}
		}
		if (ok)
			return 0;
	}
	return kt_error(KT_ERROR, "kernel matrix is not positive definite");
}

/* Solves L z = b in place (forward substitution). */
static void solve_lower(const kt_gp *g, double *b)
{
	size_t n = g->n;
	for (size_t i = 0; i < n; i++) {
		double s = b[i];
		for (size_t j = 0; j < i; j++)
			s -= g->L[i * n + j] * b[j];
		b[i] = s / g->L[i * n + i];
	}
}

/* Solves L^T z = b in place (back substitution). */
static void solve_upper(const kt_gp *g, double *b)
{
	size_t n = g->n;
	for (size_t i = n; i-- > 0;) {
		double s = b[i];
		for (size_t j = i + 1; j < n; j++)
			s -= g->L[j * n + i] * b[j];
		b[i] = s / g->L[i * n + i];
	}
}

int kt_gp_factor(kt_gp *g)
{
	int rc = cholesky(g);
	if (rc)
		return rc;
	memcpy(g->alpha, g->y, g->n * sizeof(double));
	solve_lower(g, g->alpha);
	solve_upper(g, g->alpha);
	return 0;
}

int kt_gp_set(kt_gp *g, const double *x, const double *y, size_t n)
{
	if (n > g->cap)
		return kt_error(KT_EINVALID, "%zu points for a model of %zu", n,
		                g->cap);
	g->n = n;
	memcpy(g->x, x, n * g->d * sizeof(double));
	memcpy(g->y, y, n * sizeof(double));
	return kt_gp_factor(g);
}

double kt_gp_loglik(const kt_gp *g)
{
	double fit = 0, logdet = 0;
	for (size_t i = 0; i < g->n; i++) {
		fit += g->y[i] * g->alpha[i];
		logdet += log(g->L[i * g->n + i]);
	}
	return -0.5 * fit - logdet;
}

/* Tries each grid value for *knob; keeps the best; leaves it factorised. */
static int tune_knob(kt_gp *g, double *knob, const double *grid, size_t ng)
{
	double best = *knob, best_ll = -INFINITY;
	for (size_t i = 0; i < ng; i++) {
		*knob = grid[i];
		if (kt_gp_factor(g))
			continue;
		double ll = kt_gp_loglik(g);
		if (ll > best_ll + 1e-9) {
			best_ll = ll;
			best = grid[i];
		}
	}
	*knob = best;
	return kt_gp_factor(g);
}

int kt_gp_tune(kt_gp *g, int sweeps)
{
	for (int s = 0; s < sweeps; s++) {
		for (size_t j = 0; j < g->d; j++) {
			int rc = tune_knob(g, &g->ls[j], ls_grid, NLS);
			if (rc)
				return rc;
		}
		int rc = tune_knob(g, &g->noise, noise_grid, NNOISE);
		if (rc)
			return rc;
	}
	return 0;
}

double kt_gp_mean(const kt_gp *g, const double *x)
{
	double m = 0;
	for (size_t i = 0; i < g->n; i++)
		m += kern(g, x, &g->x[i * g->d]) * g->alpha[i];
	return m;
}

void kt_gp_predict(kt_gp *g, const double *x, double *mean, double *var)
{
	double *k = g->work;
	double m = 0;
	for (size_t i = 0; i < g->n; i++) {
		k[i] = kern(g, x, &g->x[i * g->d]);
		m += k[i] * g->alpha[i];
	}
	solve_lower(g, k);
	double v = 1.0;
	for (size_t i = 0; i < g->n; i++)
		v -= k[i] * k[i];
	*mean = m;
	*var = v > 1e-12 ? v : 1e-12;
}
