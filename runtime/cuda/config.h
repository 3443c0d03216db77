/*
 * runtime/cuda/config.h - one configuration at one problem size, evaluated
 * to concrete numbers in the parent: launch geometry, buffer counts, scalar
 * arguments, the -D values and the kernel's name expression.
 */
#ifndef KTC_RUNTIME_CUDA_CONFIG_H
#define KTC_RUNTIME_CUDA_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktc/model.h"
#include "runtime/cuda/proto.h"

typedef struct kt_cu_cfg {
	kt_value *slots; /* one per model symbol */
	uint32_t grid[3], block[3], smem;
	bool pdl;          /* programmatic dependent launch */
	uint64_t *counts;  /* per argument; 0 for scalars */
	uint64_t *scalars; /* per argument: encoded scalar bits */
	char **defines;    /* "NAME=VALUE" for parameters and sets */
	size_t ndefines;
	char *name_expr;      /* "kernel<256, float>" */
	double work;          /* objective's bytes or flops; -1 without one */
	const char *violated; /* the first false constraint's text, or NULL */
} kt_cu_cfg;

/*
 * Evaluates param_idx at problem (NULL: defaults) with device values dev
 * (NULL: fallbacks). A false constraint is not an error: c->violated names
 * it and the rest is left empty. An expression that cannot be evaluated
 * (a division by zero, a negative count) returns KT_EINVALID with a message
 * at its pragma's file:line:col; so does a buffer of more than mem_cap
 * bytes (the device's memory; 0: no cap), before anything is allocated.
 */
int kt_cu_cfg_make(kt_cu_cfg *c, const kt_model *m, const uint32_t *param_idx,
                   const kt_value *problem, const kt_value *dev,
                   uint64_t mem_cap);
void kt_cu_cfg_release(kt_cu_cfg *c);

/*
 * Checks the launch against the device's limits (attrs as kt_cu_attrs).
 * Returns 0 when it fits, else 1 with why filled ("the block has 2048
 * threads, the device allows 1024").
 */
int kt_cu_cfg_limits(const kt_cu_cfg *c, const int *attrs, char *why, size_t n);

/*
 * The value of DEVICE_* constant name on a device whose attributes are
 * attrs (one per kt_cu_attrs); false when ktc does not know the name.
 */
bool kt_cu_device_value(const int *attrs, const char *name, int64_t *v);
/* Attributes from the grammar's fallbacks (an H100), for no device. */
void kt_cu_fallback_attrs(int *attrs);

/* A value as C source: "256", "(-3)", "0.5", "2.0". */
void kt_cu_format_value(char *buf, size_t n, kt_value v);

/* "N=4096,M=17" for a problem. */
int kt_cu_problem_label(char *buf, size_t n, const kt_model *m,
                        const kt_value *problem);

#endif
