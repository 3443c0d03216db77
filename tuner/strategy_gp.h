/*
 * strategy_gp.h - a small Gaussian-process regressor for Bayesian
 * optimisation: a stationary kernel with one length scale per feature
 * (Matern 5/2 or squared exponential), unit signal variance (targets are
 * standardised), a noise term, and a Cholesky factorisation. O(n^3) per
 * fit, which is meant for n up to a few hundred.
 */
#ifndef KTC_TUNER_STRATEGY_GP_H
#define KTC_TUNER_STRATEGY_GP_H

#include <stddef.h>

enum { KT_GP_MATERN52, KT_GP_RBF };

typedef struct kt_gp {
	int kernel;
	size_t d;      /* features per point */
	size_t n, cap; /* training points in use, and room for them */
	double *x;     /* n x d */
	double *y;     /* n targets */
	double *ls;    /* d length scales */
	double noise;  /* variance of the noise, relative to the signal's */
	double *L;     /* n x n lower Cholesky factor of K + noise I */
	double *alpha; /* (K + noise I)^-1 y */
	double *work;  /* n */
} kt_gp;

int kt_gp_init(kt_gp *g, int kernel, size_t d, size_t cap);
void kt_gp_release(kt_gp *g);
/* Copies n points (n <= cap) and factorises with the current settings. */
int kt_gp_set(kt_gp *g, const double *x, const double *y, size_t n);
/* Factorises again after the length scales or the noise changed. */
int kt_gp_factor(kt_gp *g);
/* Log marginal likelihood of the factorised model (up to a constant). */
double kt_gp_loglik(const kt_gp *g);
/*
 * Picks length scales and noise from fixed grids by coordinate ascent on
 * the marginal likelihood, starting from the current ones; leaves the
 * model factorised with the winner.
 */
int kt_gp_tune(kt_gp *g, int sweeps);
/* Posterior mean at one point: O(n d). */
double kt_gp_mean(const kt_gp *g, const double *x);
/* Posterior mean and variance at one point: O(n^2). */
void kt_gp_predict(kt_gp *g, const double *x, double *mean, double *var);

#endif
