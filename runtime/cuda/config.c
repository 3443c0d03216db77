/*
 * runtime/cuda/config.c - from a configuration's domain indices to the
 * numbers a launch needs. Every expression of the model is evaluated here,
 * in the parent, so the worker deals only in numbers.
 *
 * Parameters and sets reach the source as -D macros; template arguments
 * are evaluated to literals so the name expression NVRTC looks up is the
 * exact instantiation ("scale<256, float>"), whatever the source spells.
 */
#include "runtime/cuda/config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/buffers.h"
#include "util/num.h"
#include "util/str.h"

const int kt_cu_attrs[KT_CU_NATTRS] = {
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z,
    CU_DEVICE_ATTRIBUTE_WARP_SIZE,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
    CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK,
    CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR,
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR,
    CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
    CU_DEVICE_ATTRIBUTE_CLOCK_RATE,
    CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE,
    CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH,
    CU_DEVICE_ATTRIBUTE_ECC_ENABLED,
    CU_DEVICE_ATTRIBUTE_PCI_BUS_ID,
};

/* DEVICE_* constants: their CUDA attribute, or a fixed value (attr < 0). */
static const struct {
	const char *name;
	int attr;
	int64_t fixed;
} device_map[] = {
    {"DEVICE_SM_COUNT", CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0},
    {"DEVICE_COMPUTE_UNITS", CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0},
    {"DEVICE_MAX_THREADS_PER_BLOCK", CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
     0},
    {"DEVICE_MAX_WORK_GROUP_SIZE", CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
     0},
    {"DEVICE_MAX_BLOCK_DIM_X", CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, 0},
    {"DEVICE_MAX_BLOCK_DIM_Y", CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, 0},
    {"DEVICE_MAX_BLOCK_DIM_Z", CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 0},
    {"DEVICE_MAX_GRID_DIM_X", CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 0},
    {"DEVICE_MAX_GRID_DIM_Y", CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, 0},
    {"DEVICE_MAX_GRID_DIM_Z", CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, 0},
    {"DEVICE_WARP_SIZE", CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0},
    {"DEVICE_SMEM_PER_BLOCK", CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
     0},
    {"DEVICE_LOCAL_MEM_SIZE", CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
     0},
    {"DEVICE_SMEM_PER_BLOCK_OPTIN",
     CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 0},
    {"DEVICE_SMEM_PER_SM",
     CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, 0},
    {"DEVICE_REGS_PER_BLOCK", CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, 0},
    {"DEVICE_REGS_PER_SM", CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR,
     0},
    {"DEVICE_MAX_REGS_PER_THREAD", -1, 255}, /* every CUDA GPU since sm_35 */
    {"DEVICE_MAX_THREADS_PER_SM",
     CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, 0},
    {"DEVICE_MAX_BLOCKS_PER_SM",
     CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, 0},
    {"DEVICE_L2_SIZE", CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 0},
    {"DEVICE_CC_MAJOR", CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0},
    {"DEVICE_CC_MINOR", CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0},
};
enum { NDEVICE_MAP = sizeof(device_map) / sizeof(device_map[0]) };

static int attr_index(int attr)
{
	for (int i = 0; i < KT_CU_NATTRS; i++)
		if (kt_cu_attrs[i] == attr)
			return i;
	return -1;
}

bool kt_cu_device_value(const int *attrs, const char *name, int64_t *v)
{
	for (int i = 0; i < NDEVICE_MAP; i++) {
		if (strcmp(device_map[i].name, name))
			continue;
		int k = attr_index(device_map[i].attr);
		*v = device_map[i].attr < 0 ? device_map[i].fixed
		     : k >= 0               ? attrs[k]
		                            : 0;
		return device_map[i].attr < 0 || k >= 0;
	}
	return false;
}

void kt_cu_fallback_attrs(int *attrs)
{
	for (int i = 0; i < NDEVICE_MAP; i++) {
		int k = attr_index(device_map[i].attr);
		for (size_t c = 0; k >= 0 && c < kt_device_nconsts; c++)
			if (!strcmp(kt_device_consts[c].name,
			            device_map[i].name))
				attrs[k] = (int)kt_device_consts[c].fallback;
	}
}

void kt_cu_format_value(char *buf, size_t n, kt_value v)
{
	if (!v.is_float) {
		snprintf(buf, n, v.i < 0 ? "(%lld)" : "%lld", (long long)v.i);
		return;
	}
	kt_num_float_literal(buf, n, v.f);
	if (v.f < 0) {
		/* in place: a copy through a buffer of its own size is a
		 * truncation GCC 12 rejects at -O2 -Werror */
		size_t len = strlen(buf);
		if (len + 3 <= n) {
			memmove(buf + 1, buf, len);
			buf[0] = '(';
			buf[len + 1] = ')';
			buf[len + 2] = '\0';
		}
	}
}

int kt_cu_problem_label(char *buf, size_t n, const kt_model *m,
                        const kt_value *problem)
{
	kt_str s = KT_STR_INIT;
	for (size_t i = 0; i < m->nproblems; i++) {
		char v[64];
		kt_value x = kt_model_problem_value(m, problem, i);
		kt_cu_format_value(v, sizeof(v), x);
		kt_str_addf(&s, "%s%s=%s", i ? "," : "", m->problems[i].name,
		            v);
	}
	snprintf(buf, n, "%s", m->nproblems ? s.ptr : "(no problem variables)");
	kt_str_release(&s);
	return 0;
}

static int eval_at(kt_value *out, const kt_expr *e, const kt_value *slots,
                   const char *what)
{
	int rc = kt_expr_eval(out, e, slots);
	if (rc)
		return kt_error(rc, "%s: %s", what, kt_error_last());
	return 0;
}

/* A non-negative integer of at most max from e (NULL: dflt). */
static int eval_count(uint64_t *out, const kt_expr *e, const kt_value *slots,
                      uint64_t dflt, double max, const char *what)
{
	if (!e) {
		*out = dflt;
		return 0;
	}
	kt_value v;
	int rc = eval_at(&v, e, slots, what);
	if (rc)
		return rc;
	double d = kt_value_as_double(v);
	if (v.is_float && d != floor(d))
		return kt_error(KT_EINVALID, "%s is %g, not a whole number",
		                what, d);
	if (d < 0 || d > max)
		return kt_error(KT_EINVALID, "%s is %.17g, out of range", what,
		                d);
	*out = v.is_float ? (uint64_t)d : (uint64_t)v.i;
	return 0;
}

/* "FILE:LINE:COL: the grid x size": what e is, at its place. */
static const char *located(char *buf, size_t n, const kt_expr *e,
                           const char *what)
{
	if (e && e->loc.file)
		snprintf(buf, n, "%s:%d:%d: the %s", e->loc.file, e->loc.line,
		         e->loc.col, what);
	else
		snprintf(buf, n, "the %s", what);
	return buf;
}

static int geometry(kt_cu_cfg *c, const kt_model *m)
{
	static const char *gname[3] = {"grid x size", "grid y size",
	                               "grid z size"};
	static const char *bname[3] = {"block x size", "block y size",
	                               "block z size"};
	char what[512];
	for (int d = 0; d < 3; d++) {
		uint64_t g, b;
		const kt_expr *ge = m->launch.grid[d], *be = m->launch.block[d];
		int rc = eval_count(&g, ge, c->slots, 1, 4294967295.0,
		                    located(what, sizeof(what), ge, gname[d]));
		if (!rc)
			rc = eval_count(
			    &b, be, c->slots, 1, 4294967295.0,
			    located(what, sizeof(what), be, bname[d]));
		if (rc)
			return rc;
		c->grid[d] = (uint32_t)g;
		c->block[d] = (uint32_t)b;
	}
	uint64_t smem;
	int rc = eval_count(
	    &smem, m->launch.smem, c->slots, 0, 4294967295.0,
	    located(what, sizeof(what), m->launch.smem, "shared memory size"));
	c->smem = (uint32_t)smem;
	uint64_t pdl = 0;
	if (!rc)
		rc = eval_count(&pdl, m->launch.pdl, c->slots, 0, 1.0,
		                located(what, sizeof(what), m->launch.pdl,
		                        "pdl switch (0 or 1)"));
	c->pdl = pdl != 0;
	return rc;
}

static int arguments(kt_cu_cfg *c, const kt_model *m, uint64_t mem_cap)
{
	for (size_t a = 0; a < m->nargs; a++) {
		const kt_arg *g = &m->args[a];
		char what[512];
		const kt_loc *l = g->count ? &g->count->loc : &g->loc;
		snprintf(what, sizeof(what), "%s:%d:%d: the count of '%s'",
		         l->file, l->line, l->col, g->name);
		kt_value v = kt_int(0);
		uint64_t bytes;
		if (g->count) {
			int rc = eval_at(&v, g->count, c->slots, what);
			if (!rc)
				rc = kt_buf_bytes(&c->counts[a], &bytes, g, v,
				                  mem_cap);
			if (rc)
				return rc;
			continue;
		}
		l = g->value ? &g->value->loc : &g->loc;
		snprintf(what, sizeof(what), "%s:%d:%d: the value of '%s'",
		         l->file, l->line, l->col, g->name);
		int rc = g->value ? eval_at(&v, g->value, c->slots, what) : 0;
		if (!rc)
			rc = kt_buf_scalar_check(g, v);
		if (rc)
			return rc;
		kt_buf_scalar(&c->scalars[a], g->type, v);
	}
	return 0;
}

static int add_define(kt_cu_cfg *c, const char *name, kt_value v)
{
	char val[64];
	kt_cu_format_value(val, sizeof(val), v);
	kt_str s = KT_STR_INIT;
	if (kt_str_addf(&s, "%s=%s", name, val))
		return KT_ENOMEM;
	c->defines[c->ndefines++] = kt_str_detach(&s);
	return 0;
}

static int defines(kt_cu_cfg *c, const kt_model *m)
{
	c->defines = kt_calloc(m->nparams + m->nsets + 1, sizeof(char *));
	if (!c->defines)
		return kt_error(KT_ENOMEM, "out of memory");
	int rc = 0;
	for (size_t p = 0; !rc && p < m->nparams; p++)
		rc = add_define(c, m->params[p].name,
		                c->slots[m->params[p].sym]);
	for (size_t s = 0; !rc && s < m->nsets; s++)
		rc = add_define(c, m->sets[s].name, c->slots[m->sets[s].sym]);
	return rc;
}

static int name_expr(kt_cu_cfg *c, const kt_model *m)
{
	kt_str s = KT_STR_INIT;
	int rc = kt_str_adds(&s, m->scope ? m->scope : "");
	rc = rc ? rc : kt_str_adds(&s, m->kernel);
	for (int i = 0; !rc && i < m->ntemplate_args; i++) {
		const kt_expr *e = m->template_args[i];
		rc = kt_str_adds(&s, i ? ", " : "<");
		if (!rc && e->kind == KT_EXPR_STRING) {
			rc = kt_str_adds(&s, e->str);
		} else if (!rc) {
			kt_value v;
			char val[64];
			rc = eval_at(&v, e, c->slots, "a template argument");
			kt_cu_format_value(val, sizeof(val), v);
			rc = rc ? rc : kt_str_adds(&s, val);
		}
	}
	if (!rc && m->ntemplate_args)
		rc = kt_str_adds(&s, ">");
	if (rc) {
		kt_str_release(&s);
		return rc;
	}
	c->name_expr = kt_str_detach(&s);
	return 0;
}

static int constraints(kt_cu_cfg *c, const kt_model *m)
{
	for (size_t i = 0; i < m->nconstraints; i++) {
		kt_value v;
		int rc = eval_at(&v, m->constraints[i].expr, c->slots,
		                 m->constraints[i].text);
		if (rc)
			return rc;
		if (kt_value_as_double(v) == 0) {
			c->violated = m->constraints[i].text;
			return 0;
		}
	}
	return 0;
}

int kt_cu_cfg_make(kt_cu_cfg *c, const kt_model *m, const uint32_t *param_idx,
                   const kt_value *problem, const kt_value *dev,
                   uint64_t mem_cap)
{
	*c = (kt_cu_cfg){.work = -1};
	c->slots = kt_calloc(m->nsymbols + 1, sizeof(kt_value));
	c->counts = kt_calloc(m->nargs + 1, sizeof(uint64_t));
	c->scalars = kt_calloc(m->nargs + 1, sizeof(uint64_t));
	if (!c->slots || !c->counts || !c->scalars)
		return kt_error(KT_ENOMEM, "out of memory");
	int rc = kt_model_bind(c->slots, m, param_idx, problem, dev);
	if (!rc)
		rc = constraints(c, m);
	if (rc || c->violated)
		return rc;
	rc = geometry(c, m);
	if (!rc)
		rc = arguments(c, m, mem_cap);
	if (!rc)
		rc = defines(c, m);
	if (!rc)
		rc = name_expr(c, m);
	if (!rc && m->objective.kind != KT_OBJ_TIME && m->objective.expr) {
		kt_value v;
		rc = eval_at(&v, m->objective.expr, c->slots, "the objective");
		c->work = kt_value_as_double(v);
	}
	return rc;
}

void kt_cu_cfg_release(kt_cu_cfg *c)
{
	for (size_t i = 0; i < c->ndefines; i++)
		kt_free(c->defines[i]);
	kt_free(c->defines);
	kt_free(c->name_expr);
	kt_free(c->slots);
	kt_free(c->counts);
	kt_free(c->scalars);
	*c = (kt_cu_cfg){.work = -1};
}

static int attr_at(const int *attrs, int a)
{
	for (int i = 0; i < KT_CU_NATTRS; i++)
		if (kt_cu_attrs[i] == a)
			return attrs[i];
	return 0;
}

int kt_cu_cfg_limits(const kt_cu_cfg *c, const int *attrs, char *why, size_t n)
{
	static const char axis[3] = {'x', 'y', 'z'};
	uint64_t threads = (uint64_t)c->block[0] * c->block[1] * c->block[2];
	int max_threads =
	    attr_at(attrs, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
	int smem = attr_at(
	    attrs, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
	for (int d = 0; d < 3; d++) {
		int bmax =
		    attr_at(attrs, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + d);
		int gmax =
		    attr_at(attrs, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + d);
		if (c->block[d] == 0 || c->grid[d] == 0) {
			snprintf(why, n,
			         "the launch has a zero %s dimension in %c",
			         c->block[d] == 0 ? "block" : "grid", axis[d]);
			return 1;
		}
		if (c->block[d] > (uint32_t)bmax ||
		    c->grid[d] > (uint32_t)gmax) {
			bool b = c->block[d] > (uint32_t)bmax;
			snprintf(
			    why, n, "the %s is %u in %c, the device allows %d",
			    b ? "block" : "grid", b ? c->block[d] : c->grid[d],
			    axis[d], b ? bmax : gmax);
			return 1;
		}
	}
	if (threads > (uint64_t)max_threads) {
		snprintf(why, n,
		         "the block has %llu threads, the device allows %d",
		         (unsigned long long)threads, max_threads);
		return 1;
	}
	if (c->smem > (uint32_t)smem) {
		snprintf(why, n,
		         "%u bytes of dynamic shared memory, the device "
		         "allows %d per block",
		         c->smem, smem);
		return 1;
	}
	return 0;
}
