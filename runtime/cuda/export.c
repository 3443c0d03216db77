/*
 * runtime/cuda/export.c - `ktc export`'s work (ktc/export.h): for a build
 * that wants no JIT, PREFIX.h and PREFIX.c with one entry point for the
 * kernel that dispatches on the launch's shape to configurations nvcc
 * compiled ahead of time (one fatbin per configuration, embedded in
 * PREFIX.c).
 *
 * The design choice a reader needs: the launch geometry, the scalar
 * arguments and the constraints depend on the shape, so they are written
 * out as C (int64_t arithmetic, the grammar's semantics for / % << and
 * its functions), one function per configuration; the shape is chosen as
 * kt_wisdom_select does (exact, else nearest, else the default on another
 * device or where the choice breaks a constraint). What cannot be written
 * as integer C (a float in a launch expression, a set the kernel's source
 * uses that depends on the shape) is refused, naming it. Each
 * configuration is evaluated and named with the tuner's own code
 * (kt_cu_cfg_make, kt_cu_compile), so it is the binary the tuner measured.
 */
#include "ktc/export.h"

#include "ktc/wisdom.h"
#include "runtime/buffers.h"
#include "runtime/cuda/compile.h"
#include "runtime/cuda/config.h"
#include "util/cuda.h"
#include "util/fs.h"
#include "util/str.h"

#include <ctype.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* What one export holds, released in one place. */
typedef struct exporter {
	const kt_export_options *o;
	const char *out; /* PREFIX */
	kt_template *t;
	const kt_model *m;
	kt_wisdom *w;
	uint32_t
	    *cfgs; /* ncfgs configurations of nparams indices; [0]: default */
	size_t ncfgs;
	int *shape_cfg; /* per wisdom shape */
	kt_str c, h;    /* the files */
	char *tmp;      /* a folder for nvcc's output */
} exporter;

/* ---- configurations ---------------------------------------------------- */

static int find_or_add(exporter *x, const uint32_t *idx)
{
	size_t np = x->m->nparams;
	for (size_t i = 0; i < x->ncfgs; i++)
		if (!memcmp(&x->cfgs[i * np], idx, np * sizeof(uint32_t)))
			return (int)i;
	uint32_t *p =
	    kt_realloc(x->cfgs, (x->ncfgs + 1) * (np + 1) * sizeof(uint32_t));
	if (!p)
		return kt_error(KT_ENOMEM, "out of memory");
	x->cfgs = p;
	memcpy(&p[x->ncfgs * np], idx, np * sizeof(uint32_t));
	return (int)x->ncfgs++;
}

/* The default, then each shape's best, each once. */
static int collect(exporter *x)
{
	const kt_model *m = x->m;
	uint32_t *idx = kt_calloc(m->nparams + 1, sizeof(uint32_t));
	x->shape_cfg = kt_calloc(x->w->nshapes + 1, sizeof(int));
	if (!idx || !x->shape_cfg) {
		kt_free(idx);
		return kt_error(KT_ENOMEM, "out of memory");
	}
	kt_model_default_config(m, idx);
	int rc = find_or_add(x, idx);
	for (size_t s = 0; rc >= 0 && s < x->w->nshapes; s++) {
		for (size_t p = 0; rc >= 0 && p < m->nparams; p++) {
			double want =
			    kt_value_as_double(x->w->shapes[s].best[p]);
			size_t v = 0;
			while (v < m->params[p].nvalues &&
			       kt_value_as_double(m->params[p].values[v]) !=
			           want)
				v++;
			if (v == m->params[p].nvalues)
				rc = kt_error(
				    KT_EINVALID,
				    "wisdom shape %zu: %s=%g is not in "
				    "the parameter's domain",
				    s, m->params[p].name, want);
			idx[p] = (uint32_t)v;
		}
		if (rc >= 0)
			rc = x->shape_cfg[s] = find_or_add(x, idx);
	}
	kt_free(idx);
	return rc < 0 ? rc : 0;
}

/* ---- expressions as C -------------------------------------------------- */

static int emit(kt_str *s, const kt_expr *e, const kt_model *m);

static int refuse(const kt_expr *e, const char *what)
{
	return kt_error(KT_EUNSUPPORTED,
	                "%s:%d:%d: %s cannot be exported as integer C; use "
	                "the runtime library (ktc/rt.h) for this template",
	                e->loc.file ? e->loc.file : "?", e->loc.line,
	                e->loc.col, what);
}

static int emit_call(kt_str *s, const kt_expr *e, const kt_model *m)
{
	static const char *const fn[] = {[KT_FN_MIN] = "kx_min",
	                                 [KT_FN_MAX] = "kx_max",
	                                 [KT_FN_DIV_CEIL] = "kx_div_ceil",
	                                 [KT_FN_LOG2] = "kx_log2",
	                                 [KT_FN_POW2] = "kx_pow2",
	                                 [KT_FN_ABS] = "kx_abs",
	                                 [KT_FN_FLOOR] = "",
	                                 [KT_FN_CEIL] = "",
	                                 [KT_FN_ROUND] = "",
	                                 [KT_FN_INT] = ""};
	if (e->op == KT_FN_FLOAT)
		return refuse(e, "float()");
	int rc = 0;
	/* min and max of n arguments nest: kx_min(a, kx_min(b, c)) */
	int n = e->nargs;
	for (int i = 0; !rc && i < n; i++) {
		if (i + 1 < n || n == 1)
			rc = kt_str_addf(s, "%s(", fn[e->op]);
		if (!rc)
			rc = emit(s, e->args[i], m);
		if (!rc && i + 1 < n)
			rc = kt_str_adds(s, ", ");
	}
	for (int i = 0; !rc && i < (n > 1 ? n - 1 : 1); i++)
		rc = kt_str_addc(s, ')');
	return rc;
}

static int emit_binary(kt_str *s, const kt_expr *e, const kt_model *m)
{
	static const char *const ops[] = {
	    [KT_OP_MUL] = " * ",    [KT_OP_ADD] = " + ",
	    [KT_OP_SUB] = " - ",    [KT_OP_LT] = " < ",
	    [KT_OP_LE] = " <= ",    [KT_OP_GT] = " > ",
	    [KT_OP_GE] = " >= ",    [KT_OP_EQ] = " == ",
	    [KT_OP_NE] = " != ",    [KT_OP_BITAND] = " & ",
	    [KT_OP_BITXOR] = " ^ ", [KT_OP_BITOR] = " | ",
	    [KT_OP_AND] = " && ",   [KT_OP_OR] = " || "};
	const char *fn = e->op == KT_OP_DIV   ? "kx_div"
	                 : e->op == KT_OP_MOD ? "kx_mod"
	                 : e->op == KT_OP_SHL ? "kx_shl"
	                 : e->op == KT_OP_SHR ? "kx_shr"
	                                      : NULL;
	int rc = kt_str_adds(s, fn ? fn : "");
	if (!rc)
		rc = kt_str_addc(s, '(');
	if (!rc)
		rc = emit(s, e->args[0], m);
	if (!rc)
		rc = kt_str_adds(s, fn ? ", " : ops[e->op]);
	if (!rc)
		rc = emit(s, e->args[1], m);
	return rc ? rc : kt_str_addc(s, ')');
}

static int emit(kt_str *s, const kt_expr *e, const kt_model *m)
{
	static const char *const unops[] = {"-", "+", "!", "~"};
	int rc;
	switch (e->kind) {
	case KT_EXPR_INT:
		return kt_str_addf(s, "INT64_C(%lld)", (long long)e->lit.i);
	case KT_EXPR_FLOAT: return refuse(e, "a floating-point number");
	case KT_EXPR_STRING: return refuse(e, "a string");
	case KT_EXPR_SYMBOL: return kt_str_adds(s, m->symbols[e->sym].name);
	case KT_EXPR_UNARY:
		rc = kt_str_addf(s, "(%s", unops[e->op]);
		if (!rc)
			rc = emit(s, e->args[0], m);
		return rc ? rc : kt_str_addc(s, ')');
	case KT_EXPR_BINARY: return emit_binary(s, e, m);
	case KT_EXPR_COND:
		rc = kt_str_addc(s, '(');
		for (int i = 0; !rc && i < 3; i++) {
			rc = emit(s, e->args[i], m);
			if (!rc && i < 2)
				rc = kt_str_adds(s, i ? " : " : " ? ");
		}
		return rc ? rc : kt_str_addc(s, ')');
	case KT_EXPR_CALL: return emit_call(s, e, m);
	}
	return refuse(e, "an expression");
}

/* Whether e uses a problem variable, directly or through sets. */
static bool uses_problem(const kt_expr *e, const kt_model *m)
{
	if (!e)
		return false;
	if (e->kind == KT_EXPR_SYMBOL) {
		const kt_symbol *y = &m->symbols[e->sym];
		return y->kind == KT_SYM_PROBLEM ||
		       (y->kind == KT_SYM_SET &&
		        uses_problem(m->sets[y->index].expr, m));
	}
	for (int i = 0; i < e->nargs; i++)
		if (uses_problem(e->args[i], m))
			return true;
	return false;
}

/* Whether e names any symbol (else it is a constant). */
static bool has_symbol(const kt_expr *e)
{
	if (e->kind == KT_EXPR_SYMBOL)
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (has_symbol(e->args[i]))
			return true;
	return false;
}

/* Whether the template's text uses word outside `#pragma kt` lines. */
static bool source_uses(const char *text, const char *word)
{
	size_t n = strlen(word);
	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		const char *p = line;
		while (p < line + len && isspace((unsigned char)*p))
			p++;
		bool pragma = !strncmp(p, "#pragma kt ", 11);
		for (const char *q = line; !pragma && q + n <= line + len; q++)
			if (!memcmp(q, word, n) &&
			    (q == line || !(isalnum((unsigned char)q[-1]) ||
			                    q[-1] == '_')) &&
			    !(isalnum((unsigned char)q[n]) || q[n] == '_'))
				return true;
		line = end ? end + 1 : NULL;
	}
	return false;
}

/* ---- compiling with nvcc ----------------------------------------------- */

static int run_nvcc(const exporter *x, char *const *argv, const char *log)
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, log,
	                                 O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	pid_t pid;
	int err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err)
		return kt_error(KT_EUNSUPPORTED,
		                "cannot run '%s' (%s): ktc export needs nvcc "
		                "(--nvcc PATH)",
		                argv[0], strerror(err));
	int status = 0;
	while (waitpid(pid, &status, 0) < 0)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	char *text = NULL;
	kt_fs_read(&text, NULL, log);
	int rc = kt_error(KT_EBACKEND, "nvcc failed on '%s': %.2000s",
	                  x->t->path, text ? text : "");
	kt_free(text);
	return rc;
}

/* "-gencode arch=compute_90a,code=sm_90a" for "sm_90a". */
static void gencode(char *buf, size_t n, const char *arch)
{
	snprintf(buf, n, "arch=compute_%s,code=%s",
	         strncmp(arch, "sm_", 3) ? arch : arch + 3, arch);
}

/* The problem values configuration c is evaluated at for its defines
 * and name: the template's defaults for the default configuration, else
 * the first shape that chose it. */
static const kt_value *problem_of(const exporter *x, size_t c)
{
	for (size_t i = 0; c && i < x->w->nshapes; i++)
		if ((size_t)x->shape_cfg[i] == c)
			return x->w->shapes[i].problem;
	return NULL;
}

/* Configuration c evaluated (its -D values and name expression). */
static int config_of(const exporter *x, size_t c, kt_cu_cfg *cfg)
{
	const kt_model *m = x->m;
	int rc = kt_cu_cfg_make(cfg, m, &x->cfgs[c * m->nparams],
	                        problem_of(x, c), NULL, 0);
	if (!rc && cfg->violated)
		rc = kt_error(
		    KT_EINVALID,
		    "configuration %zu of kernel '%s' violates '%s' at "
		    "the shape it was chosen for",
		    c, m->kernel, cfg->violated);
	return rc;
}

/* Compiles configuration c to a fatbin, read into *image: the
 * parameters and the sets that do not depend on the shape as -D, as the
 * tuner compiled it. */
static int fatbin(exporter *x, size_t c, const kt_cu_cfg *cfg, char **image,
                  size_t *size)
{
	const kt_model *m = x->m;
	char **argv = kt_calloc(cfg->ndefines + 16, sizeof(char *));
	char **defs = kt_calloc(cfg->ndefines + 1, sizeof(char *));
	char gen[64], out[4096], log[4096], inc[4096];
	size_t n = 0, nd = 0;
	int rc = argv && defs ? 0 : kt_error(KT_ENOMEM, "out of memory");
	gencode(gen, sizeof(gen), x->o->arch);
	snprintf(out, sizeof(out), "%s/cfg%zu.fatbin", x->tmp, c);
	snprintf(log, sizeof(log), "%s/cfg%zu.log", x->tmp, c);
	const char *slash = strrchr(x->t->path, '/');
	snprintf(inc, sizeof(inc), "-I%.*s",
	         slash ? (int)(slash - x->t->path) : 1,
	         slash ? x->t->path : ".");
	if (!rc) {
		argv[n++] = (char *)x->o->nvcc;
		argv[n++] = "-fatbin";
		argv[n++] = "-std=c++17";
		argv[n++] = "-gencode";
		argv[n++] = gen;
		argv[n++] = inc;
		argv[n++] = "-DKTC_TUNING=1";
	}
	for (size_t i = 0; !rc && i < cfg->ndefines; i++) {
		/* defines: the parameters, then the sets in order */
		if (i >= m->nparams &&
		    uses_problem(m->sets[i - m->nparams].expr, m))
			continue;
		kt_str d = KT_STR_INIT;
		rc = kt_str_addf(&d, "-D%s", cfg->defines[i]);
		argv[n++] = defs[nd++] = kt_str_detach(&d);
	}
	if (!rc) {
		argv[n++] = "-o";
		argv[n++] = out;
		argv[n++] = x->t->path;
		rc = run_nvcc(x, argv, log);
	}
	if (!rc)
		rc = kt_fs_read(image, size, out);
	for (size_t i = 0; i < nd; i++)
		kt_free(defs[i]);
	kt_free(defs);
	kt_free(argv);
	return rc;
}

/* The kernel's name in configuration c's binary (C++ mangling of its
 * template arguments, or the extern "C" name), as NVRTC lowers it. */
static int lowered_name(exporter *x, const kt_cu_cfg *cfg, char **out)
{
	kt_cu_source src = {.text = x->t->source,
	                    .path = x->t->path,
	                    .name_expr = cfg->name_expr,
	                    .arch = x->o->arch,
	                    .defines = cfg->defines,
	                    .ndefines = cfg->ndefines};
	kt_cu_binary bin;
	int rc = kt_cu_compile(&bin, &src, NULL);
	if (!rc && !bin.ok)
		rc = kt_error(KT_EBACKEND, "'%s' does not compile: %.2000s",
		              x->t->path, bin.log ? bin.log : "");
	if (!rc && !(*out = kt_strdup(bin.lowered)))
		rc = kt_error(KT_ENOMEM, "out of memory");
	kt_cu_binary_release(&bin);
	return rc;
}

/* ---- writing the files ------------------------------------------------- */

/* The grammar's integer semantics (grammar/eval.c); a division by zero
 * or a shift out of range sets kx_bad, which fails the configuration. */
static const char helpers[] =
    "static inline int64_t kx_div(int64_t a, int64_t b)\n"
    "{\n\tif (b == 0 || (a == INT64_MIN && b == -1)) {\n\t\tkx_bad = 1;\n"
    "\t\treturn 0;\n\t}\n\treturn a / b;\n}\n"
    "static inline int64_t kx_mod(int64_t a, int64_t b)\n"
    "{\n\tif (b == 0 || (a == INT64_MIN && b == -1)) {\n\t\tkx_bad = 1;\n"
    "\t\treturn 0;\n\t}\n\treturn a % b;\n}\n"
    "static inline int64_t kx_shl(int64_t a, int64_t b)\n"
    "{\n\tif (b < 0 || b > 62) {\n\t\tkx_bad = 1;\n\t\treturn 0;\n\t}\n"
    "\treturn (int64_t)((uint64_t)a << b);\n}\n"
    "static inline int64_t kx_shr(int64_t a, int64_t b)\n"
    "{\n\tif (b < 0 || b > 63) {\n\t\tkx_bad = 1;\n\t\treturn 0;\n\t}\n"
    "\treturn a >> b;\n}\n"
    "static inline int64_t kx_div_ceil(int64_t a, int64_t b)\n"
    "{\n\tint64_t q = kx_div(a, b);\n"
    "\treturn b && a % b != 0 && ((a < 0) == (b < 0)) ? q + 1 : q;\n}\n"
    "static inline int64_t kx_min(int64_t a, int64_t b)\n"
    "{\n\treturn a < b ? a : b;\n}\n"
    "static inline int64_t kx_max(int64_t a, int64_t b)\n"
    "{\n\treturn a > b ? a : b;\n}\n"
    "static inline int64_t kx_abs(int64_t a)\n{\n\treturn a < 0 ? -a : "
    "a;\n}\n"
    "static inline int64_t kx_log2(int64_t a)\n"
    "{\n\tif (a <= 0) {\n\t\tkx_bad = 1;\n\t\treturn 0;\n\t}\n"
    "\treturn 63 - __builtin_clzll((unsigned long long)a);\n}\n"
    "static inline int64_t kx_pow2(int64_t a)\n"
    "{\n\tif (a < 0 || a > 62) {\n\t\tkx_bad = 1;\n\t\treturn 0;\n\t}\n"
    "\treturn (int64_t)1 << a;\n}\n\n";

static const char *c_type(kt_type t)
{
	switch (t) {
	case KT_TYPE_I8: return "int8_t";
	case KT_TYPE_I16: return "int16_t";
	case KT_TYPE_I32: return "int32_t";
	case KT_TYPE_I64: return "int64_t";
	case KT_TYPE_U8: return "uint8_t";
	case KT_TYPE_U16: return "uint16_t";
	case KT_TYPE_U32: return "uint32_t";
	case KT_TYPE_U64: return "uint64_t";
	default: return NULL;
	}
}

/* One scalar argument into l->scalars[a]: a constant is evaluated now,
 * an integer over the shape is written as C. */
static int emit_scalar(exporter *x, size_t a)
{
	const kt_arg *g = &x->m->args[a];
	kt_str *s = &x->c;
	if (!g->value)
		return 0;
	kt_value v;
	bool constant = !has_symbol(g->value);
	kt_value none = kt_int(0);
	int rc = constant ? kt_expr_eval(&v, g->value, &none) : 0;
	if (rc)
		return rc;
	if (constant) {
		uint64_t bits = 0;
		if ((rc = kt_buf_scalar_check(g, v)))
			return rc;
		kt_buf_scalar(&bits, g->type, v);
		return kt_str_addf(
		    s, "\tl->scalars[%zu] = UINT64_C(%llu); /* %s */\n", a,
		    (unsigned long long)bits, g->name);
	}
	if (!c_type(g->type))
		return refuse(g->value,
		              "a floating-point scalar over the shape");
	rc = kt_str_addf(s, "\t{\n\t\t%s v = (%s)", c_type(g->type),
	                 c_type(g->type));
	if (!rc)
		rc = emit(s, g->value, x->m);
	if (!rc)
		rc = kt_str_addf(s,
		                 ";\n\t\tmemcpy(&l->scalars[%zu], &v, "
		                 "sizeof(v)); /* %s */\n\t}\n",
		                 a, g->name);
	return rc;
}

/* The symbols' values as locals: problem values, the parameters, the
 * sets in order, the DEVICE_* constants' fallbacks (an H100). */
static int emit_locals(exporter *x, size_t c)
{
	const kt_model *m = x->m;
	kt_str *s = &x->c;
	int rc = 0;
	for (size_t i = 0; !rc && i < m->nproblems; i++)
		rc = kt_str_addf(s, "\tconst int64_t %s = p[%zu];\n",
		                 m->problems[i].name, i);
	for (size_t p = 0; !rc && p < m->nparams; p++) {
		kt_value v = m->params[p].values[x->cfgs[c * m->nparams + p]];
		if (v.is_float)
			return kt_error(KT_EUNSUPPORTED,
			                "parameter '%s' has a floating-point "
			                "value: not exported",
			                m->params[p].name);
		rc = kt_str_addf(s, "\tconst int64_t %s = INT64_C(%lld);\n",
		                 m->params[p].name, (long long)v.i);
	}
	for (size_t d = 0; !rc && d < m->ndevices; d++)
		rc = kt_str_addf(s, "\tconst int64_t %s = INT64_C(%lld);\n",
		                 m->devices[d].name,
		                 (long long)m->devices[d].fallback.i);
	for (size_t i = 0; !rc && i < m->nsets; i++) {
		rc = kt_str_addf(s, "\tconst int64_t %s = ", m->sets[i].name);
		if (!rc)
			rc = emit(s, m->sets[i].expr, m);
		if (!rc)
			rc = kt_str_adds(s, ";\n");
	}
	for (size_t i = 0; !rc && i < m->nsymbols; i++)
		rc = kt_str_addf(s, "\t(void)%s;\n", m->symbols[i].name);
	return rc;
}

static int emit_dim(exporter *x, const char *field, int d, const kt_expr *e)
{
	kt_str *s = &x->c;
	int rc = kt_str_addf(s, "\tl->%s = (uint32_t)kx_dim(", field);
	if (!rc && e)
		rc = emit(s, e, x->m);
	else if (!rc)
		rc = kt_str_adds(s, d < 0 ? "INT64_C(0)" : "INT64_C(1)");
	return rc ? rc : kt_str_adds(s, ");\n");
}

/* static int cfgN(const int64_t *p, kx_launch *l): the launch of
 * configuration N at shape p; -1 where a constraint is false. */
static int emit_config(exporter *x, size_t c)
{
	const kt_model *m = x->m;
	kt_str *s = &x->c;
	int rc = kt_str_addf(s,
	                     "static int kx_cfg%zu(const int64_t *p, "
	                     "kx_launch *l)\n{\n\tkx_bad = 0;\n",
	                     c);
	if (!rc)
		rc = emit_locals(x, c);
	for (size_t i = 0; !rc && i < m->nconstraints; i++) {
		rc = kt_str_adds(s, "\tif (!");
		if (!rc)
			rc = emit(s, m->constraints[i].expr, m);
		if (!rc)
			rc = kt_str_addf(s, ") /* %s */\n\t\treturn -1;\n",
			                 m->constraints[i].text);
	}
	const char *g[3] = {"grid[0]", "grid[1]", "grid[2]"};
	const char *b[3] = {"block[0]", "block[1]", "block[2]"};
	for (int d = 0; !rc && d < 3; d++) {
		rc = emit_dim(x, g[d], d, m->launch.grid[d]);
		if (!rc)
			rc = emit_dim(x, b[d], d, m->launch.block[d]);
	}
	if (!rc)
		rc = emit_dim(x, "smem", -1, m->launch.smem);
	if (!rc)
		rc = emit_dim(x, "pdl", -1, m->launch.pdl);
	for (size_t a = 0; !rc && a < m->nargs; a++)
		rc = emit_scalar(x, a);
	return rc ? rc : kt_str_adds(s, "\treturn kx_bad ? -1 : 0;\n}\n\n");
}

static int emit_image(exporter *x, size_t c, const char *image, size_t n)
{
	kt_str *s = &x->c;
	int rc =
	    kt_str_addf(s, "static const unsigned char kx_image%zu[] = {", c);
	for (size_t i = 0; !rc && i < n; i++)
		rc = kt_str_addf(s, "%s0x%02x,", i % 16 ? "" : "\n\t",
		                 (unsigned char)image[i]);
	return rc ? rc : kt_str_adds(s, "\n};\n\n");
}

static int emit_tables(exporter *x, char *const *lowered)
{
	const kt_model *m = x->m;
	const kt_wisdom *w = x->w;
	kt_str *s = &x->c;
	size_t np = m->nproblems;
	int rc = kt_str_addf(s,
	                     "static const char kx_device[] = \"%s\";\n"
	                     "static const struct {\n\tconst unsigned char "
	                     "*image;\n\tconst char *name;\n\tint "
	                     "(*make)(const int64_t *, kx_launch *);\n} "
	                     "kx_cfgs[%zu] = {\n",
	                     w->device, x->ncfgs);
	for (size_t c = 0; !rc && c < x->ncfgs; c++)
		rc = kt_str_addf(s, "\t{kx_image%zu, \"%s\", kx_cfg%zu},\n", c,
		                 lowered[c], c);
	rc =
	    rc ? rc
	       : kt_str_addf(s, "};\n\nconst char *const %s_configs[%zu] = {\n",
	                     m->kernel, x->ncfgs);
	for (size_t c = 0; !rc && c < x->ncfgs; c++) {
		rc = kt_str_adds(s, "\t\"");
		for (size_t p = 0; !rc && p < m->nparams; p++) {
			char v[64];
			kt_value_format(
			    v, sizeof(v),
			    m->params[p].values[x->cfgs[c * m->nparams + p]]);
			rc = kt_str_addf(s, "%s%s=%s", p ? "," : "",
			                 m->params[p].name, v);
		}
		rc = rc ? rc : kt_str_adds(s, "\",\n");
	}
	rc = rc ? rc
	        : kt_str_addf(s,
	                      "};\n\nstatic const struct {\n\tint64_t "
	                      "p[%zu];\n\tint cfg;\n} kx_shapes[%zu] = {\n",
	                      np ? np : 1, w->nshapes ? w->nshapes : 1);
	for (size_t i = 0; !rc && i < w->nshapes; i++) {
		rc = kt_str_adds(s, "\t{{");
		for (size_t k = 0; !rc && k < np; k++)
			rc = kt_str_addf(s, "%sINT64_C(%lld)", k ? ", " : "",
			                 (long long)kt_value_as_double(
			                     w->shapes[i].problem[k]));
		rc = rc ? rc : kt_str_addf(s, "}, %d},\n", x->shape_cfg[i]);
	}
	if (!rc && !w->nshapes)
		rc = kt_str_adds(s, "\t{{0}, 0},\n");
	return rc ? rc
	          : kt_str_addf(s,
	                        "};\nenum { KX_NSHAPES = %zu, KX_NP = %zu, "
	                        "KX_NCFGS = %zu, KX_NARGS = %zu };\n\n",
	                        w->nshapes, np, x->ncfgs, m->nargs);
}

/* The dispatch and the launch: fixed text around the kernel's names. */
static const char dispatch[] =
    "static double kx_distance(const int64_t *a, const int64_t *b)\n"
    "{\n\tdouble d = 0;\n\tfor (int i = 0; i < KX_NP; i++) {\n"
    "\t\tdouble x = a[i] < 1 ? 1 : (double)a[i];\n"
    "\t\tdouble y = b[i] < 1 ? 1 : (double)b[i];\n"
    "\t\td += fabs(log2(x) - log2(y));\n\t}\n\treturn d;\n}\n\n"
    "static int kx_smaller(const int64_t *a, const int64_t *b)\n"
    "{\n\tfor (int i = 0; i < KX_NP; i++)\n\t\tif (a[i] != b[i])\n"
    "\t\t\treturn a[i] < b[i];\n\treturn 0;\n}\n\n"
    "/* As kt_wisdom_select: exact, else nearest (ties to the smaller),\n"
    " * else the default; the default too where the choice's constraints\n"
    " * fail at p. */\n"
    "static int kx_pick(const char *device, const int64_t *p, kx_launch "
    "*l)\n{\n"
    "\tint best = -1;\n\tdouble bd = 0;\n"
    "\tfor (int i = 0; device && !strcmp(device, kx_device) && i < "
    "KX_NSHAPES; i++) {\n"
    "\t\tdouble d = kx_distance(kx_shapes[i].p, p);\n"
    "\t\tif (best < 0 || d < bd || (d == bd && "
    "kx_smaller(kx_shapes[i].p, kx_shapes[best].p))) {\n"
    "\t\t\tbest = i;\n\t\t\tbd = d;\n\t\t}\n\t}\n"
    "\tint c = best < 0 ? 0 : kx_shapes[best].cfg;\n"
    "\tif (kx_cfgs[c].make(p, l) == 0)\n\t\treturn c;\n"
    "\treturn kx_cfgs[0].make(p, l) == 0 ? 0 : -1;\n}\n\n"
    "static pthread_mutex_t kx_lock = PTHREAD_MUTEX_INITIALIZER;\n"
    "static CUlibrary kx_libs[KX_NCFGS];\n"
    "static CUkernel kx_fns[KX_NCFGS];\n\n"
    "static CUresult kx_kernel(int c, CUkernel *fn)\n{\n"
    "\tCUresult r = CUDA_SUCCESS;\n\tpthread_mutex_lock(&kx_lock);\n"
    "\tif (!kx_fns[c]) {\n"
    "\t\tr = cuLibraryLoadData(&kx_libs[c], kx_cfgs[c].image, NULL, "
    "NULL, 0, NULL, NULL, 0);\n"
    "\t\tif (r == CUDA_SUCCESS)\n"
    "\t\t\tr = cuLibraryGetKernel(&kx_fns[c], kx_libs[c], "
    "kx_cfgs[c].name);\n"
    "\t}\n\t*fn = kx_fns[c];\n\tpthread_mutex_unlock(&kx_lock);\n"
    "\treturn r;\n}\n\n"
    "static CUresult kx_device_name(char *name, int n, CUdevice *dev)\n"
    "{\n\tCUresult r = cuCtxGetDevice(dev);\n"
    "\treturn r == CUDA_SUCCESS ? cuDeviceGetName(name, n, *dev) : r;\n}\n"
    "\n";

/* A launch whose pdl() is nonzero: cuLaunchKernelEx with programmatic
 * stream serialisation (the kernel waits in its code). */
static const char pdl_launch[] =
    "\tif (l.pdl) {\n"
    "\t\tCUlaunchAttribute at;\n"
    "\t\tmemset(&at, 0, sizeof(at));\n"
    "\t\tat.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;\n"
    "\t\tat.value.programmaticStreamSerializationAllowed = 1;\n"
    "\t\tCUlaunchConfig lc;\n"
    "\t\tmemset(&lc, 0, sizeof(lc));\n"
    "\t\tlc.gridDimX = l.grid[0], lc.gridDimY = l.grid[1], "
    "lc.gridDimZ = l.grid[2];\n"
    "\t\tlc.blockDimX = l.block[0], lc.blockDimY = l.block[1], "
    "lc.blockDimZ = l.block[2];\n"
    "\t\tlc.sharedMemBytes = l.smem, lc.hStream = stream;\n"
    "\t\tlc.attrs = &at, lc.numAttrs = 1;\n"
    "\t\treturn cuLaunchKernelEx(&lc, (CUfunction)fn, params, NULL);\n"
    "\t}\n";

static int emit_entry(exporter *x)
{
	const kt_model *m = x->m;
	kt_str *s = &x->c, params = KT_STR_INIT, vals = KT_STR_INIT;
	int rc = 0;
	for (size_t i = 0; !rc && i < m->nproblems; i++)
		rc =
		    kt_str_addf(&params, "int64_t %s, ", m->problems[i].name) ||
		    kt_str_addf(&vals, "%s%s", i ? ", " : "",
		                m->problems[i].name);
	if (!m->nproblems)
		rc = rc ? rc : kt_str_adds(&vals, "0");
	const char *k = m->kernel;
	rc = rc ? rc
	        : kt_str_addf(
	              s,
	              "int %s_config_for(const char *device, %sconst char "
	              "**key)\n{\n\tint64_t p[] = {%s};\n\tkx_launch l;\n"
	              "\tint c = kx_pick(device, p, &l);\n"
	              "\tif (key)\n\t\t*key = c < 0 ? NULL : %s_configs[c];\n"
	              "\treturn c;\n}\n\n"
	              "CUresult %s(%svoid **args, CUstream stream)\n{\n"
	              "\tchar device[256];\n\tCUdevice dev;\n"
	              "\tCUresult r = kx_device_name(device, sizeof(device), "
	              "&dev);\n\tif (r != CUDA_SUCCESS)\n\t\treturn r;\n"
	              "\tint64_t p[] = {%s};\n\tkx_launch l;\n"
	              "\tint c = kx_pick(device, p, &l);\n\tCUkernel fn;\n"
	              "\tif (c < 0)\n\t\treturn CUDA_ERROR_INVALID_VALUE;\n"
	              "\tif ((r = kx_kernel(c, &fn)) != CUDA_SUCCESS)\n"
	              "\t\treturn r;\n"
	              "\tif (l.smem > 48 * 1024 && (r = "
	              "cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_"
	              "SHARED_SIZE_BYTES, (int)l.smem, fn, dev)) != "
	              "CUDA_SUCCESS)\n\t\treturn r;\n"
	              "\tvoid *params[KX_NARGS + 1];\n"
	              "\tfor (int a = 0; a < KX_NARGS; a++)\n"
	              "\t\tparams[a] = args && args[a] ? args[a] : "
	              "&l.scalars[a];\n%s"
	              "\treturn cuLaunchKernel((CUfunction)fn, l.grid[0], "
	              "l.grid[1], l.grid[2], l.block[0], l.block[1], "
	              "l.block[2], l.smem, stream, params, NULL);\n}\n",
	              k, params.ptr, vals.ptr, k, k, params.ptr, vals.ptr,
	              m->launch.pdl ? pdl_launch : "");
	kt_str_release(&params);
	kt_str_release(&vals);
	return rc;
}

static int emit_header(exporter *x, const char *base)
{
	const kt_model *m = x->m;
	kt_str *s = &x->h, params = KT_STR_INIT;
	int rc = 0;
	for (size_t i = 0; !rc && i < m->nproblems; i++)
		rc = kt_str_addf(&params, "int64_t %s, ", m->problems[i].name);
	char guard[256];
	size_t n = 0;
	for (const char *p = base; *p && n + 1 < sizeof(guard); p++)
		guard[n++] = isalnum((unsigned char)*p)
		                 ? (char)toupper((unsigned char)*p)
		                 : '_';
	guard[n] = '\0';
	rc = rc ? rc
	        : kt_str_addf(
	              s,
	              "/*\n * %s.h - generated by `ktc export` from '%s' "
	              "and its wisdom\n * (%s, %zu shapes, %zu "
	              "configurations, %s). Do not edit.\n *\n"
	              " * %s(...) launches kernel '%s' on stream at the "
	              "shape given: the\n * configuration tuned for it, the "
	              "nearest tuned shape's, or the\n * template's defaults "
	              "(on another device, or where a choice's\n * "
	              "constraints fail), each compiled ahead of time by "
	              "nvcc. args holds\n * one pointer per kernel argument "
	              "as cuLaunchKernel's kernelParams;\n * a NULL scalar "
	              "takes the template's value at this shape. Link\n * "
	              "with -lcuda -lpthread -lm.\n */\n"
	              "#ifndef KTC_EXPORT_%s_H\n#define KTC_EXPORT_%s_H\n\n"
	              "#include <cuda.h>\n#include <stdint.h>\n\n"
	              "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
	              "CUresult %s(%svoid **args, CUstream stream);\n"
	              "/* The configuration a launch on device (its name) "
	              "would run: an index\n * in %s_configs, whose text "
	              "goes to *key (may be NULL); -1 if none. */\n"
	              "int %s_config_for(const char *device, %sconst char "
	              "**key);\n"
	              "extern const char *const %s_configs[%zu];\n\n"
	              "#ifdef __cplusplus\n}\n#endif\n#endif\n",
	              base, x->t->path, x->w->device, x->w->nshapes, x->ncfgs,
	              x->o->arch, m->kernel, m->kernel, guard, guard, m->kernel,
	              params.ptr, m->kernel, m->kernel, params.ptr, m->kernel,
	              x->ncfgs);
	kt_str_release(&params);
	return rc;
}

/* ---- the command ------------------------------------------------------- */

static int check_wisdom(const exporter *x, const char *wpath)
{
	const kt_model *m = x->m;
	const kt_wisdom *w = x->w;
	if (strcmp(w->kernel, m->kernel))
		return kt_error(KT_EINVALID,
		                "wisdom '%s' is for kernel '%s', not '%s'",
		                wpath, w->kernel, m->kernel);
	if (w->template_hash !=
	    kt_hash(KT_HASH_INIT, x->t->source, strlen(x->t->source)))
		return kt_error(KT_EINVALID,
		                "wisdom '%s' was tuned on another version of "
		                "'%s'; tune again",
		                wpath, x->t->path);
	bool same = w->nparams == m->nparams && w->nproblems == m->nproblems;
	for (size_t i = 0; same && i < m->nparams; i++)
		same = !strcmp(w->param_names[i], m->params[i].name);
	for (size_t i = 0; same && i < m->nproblems; i++)
		same = !strcmp(w->problem_names[i], m->problems[i].name);
	if (!same)
		return kt_error(KT_EINVALID,
		                "wisdom '%s' names other parameters or problem "
		                "variables than kernel '%s'",
		                wpath, m->kernel);
	for (size_t i = 0; i < m->nsets; i++)
		if (uses_problem(m->sets[i].expr, m) &&
		    source_uses(x->t->source, m->sets[i].name))
			return kt_error(
			    KT_EUNSUPPORTED,
			    "%s:%d:%d: set '%s' depends on the shape and the "
			    "kernel's source uses it, so a binary compiled "
			    "ahead of time would hold one shape's value; use "
			    "the "
			    "runtime library (ktc/rt.h) for this template",
			    m->sets[i].loc.file, m->sets[i].loc.line,
			    m->sets[i].loc.col, m->sets[i].name);
	return 0;
}

/* Configuration c: its fatbin and launch function into the C file, its
 * kernel name into *lowered. */
static int generate_config(exporter *x, size_t c, char **lowered)
{
	kt_cu_cfg cfg = {0};
	char *image = NULL;
	size_t size = 0;
	int rc = config_of(x, c, &cfg);
	if (!rc)
		rc = lowered_name(x, &cfg, lowered);
	if (!rc)
		rc = fatbin(x, c, &cfg, &image, &size);
	if (!rc)
		rc = emit_image(x, c, image, size);
	if (!rc)
		rc = emit_config(x, c);
	kt_free(image);
	kt_cu_cfg_release(&cfg);
	return rc;
}

static int generate(exporter *x, const char *base)
{
	char **lowered = kt_calloc(x->ncfgs + 1, sizeof(char *));
	int rc = lowered ? 0 : kt_error(KT_ENOMEM, "out of memory");
	if (!rc)
		rc = kt_str_addf(
		    &x->c,
		    "/* %s.c - generated by `ktc export`; see "
		    "%s.h. Do not edit. */\n#include \"%s.h\"\n\n"
		    "#include <math.h>\n#include <pthread.h>\n"
		    "#include <string.h>\n\n"
		    "typedef struct kx_launch {\n\tuint32_t grid[3], "
		    "block[3], smem, pdl;\n\tuint64_t scalars[%zu];\n} "
		    "kx_launch;\n\n"
		    "static _Thread_local int kx_bad;\n\n"
		    "/* A launch dimension that does not fit 32 bits "
		    "fails the configuration. */\n"
		    "static inline uint32_t kx_dim(int64_t v)\n{\n"
		    "\tif (v < 0 || v > INT64_C(4294967295))\n"
		    "\t\tkx_bad = 1;\n\treturn (uint32_t)v;\n}\n\n",
		    base, base, base, x->m->nargs + 1);
	if (!rc)
		rc = kt_str_adds(&x->c, helpers);
	for (size_t c = 0; !rc && c < x->ncfgs; c++)
		rc = generate_config(x, c, &lowered[c]);
	if (!rc)
		rc = emit_tables(x, lowered);
	if (!rc)
		rc = kt_str_adds(&x->c, dispatch);
	if (!rc)
		rc = emit_entry(x);
	if (!rc)
		rc = emit_header(x, base);
	for (size_t c = 0; lowered && c < x->ncfgs; c++)
		kt_free(lowered[c]);
	kt_free(lowered);
	return rc;
}

static int write_outputs(exporter *x, kt_export_report *rep)
{
	kt_str p = KT_STR_INIT;
	int rc = kt_str_addf(&p, "%s.h", x->out);
	rep->header = kt_str_detach(&p);
	rc = rc ? rc : kt_str_addf(&p, "%s.c", x->out);
	rep->source = kt_str_detach(&p);
	if (!rc)
		rc = kt_fs_write_atomic(rep->header, x->h.ptr, x->h.len);
	if (!rc)
		rc = kt_fs_write_atomic(rep->source, x->c.ptr, x->c.len);
	rep->nconfigs = x->ncfgs;
	rep->nshapes = x->w->nshapes;
	return rc;
}

static void remove_tmp(exporter *x)
{
	if (!x->tmp)
		return;
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", x->tmp);
	if (system(cmd) != 0)
		kt_error_clear(); /* a temporary folder left behind is no error
		                   */
	kt_free(x->tmp);
}

int kt_export(kt_export_report *rep, const kt_template *t, const kt_model *m,
              const char *wisdom_path, const char *out,
              const kt_export_options *opt)
{
	static char nvcc[4096];
	kt_export_options o = opt ? *opt : (kt_export_options){0};
	if (!o.arch)
		o.arch = KT_CUDA_DEFAULT_ARCH;
	if (!o.nvcc) {
		snprintf(nvcc, sizeof(nvcc), "%s/bin/nvcc", kt_cuda_root());
		o.nvcc = nvcc;
	}
	*rep = (kt_export_report){0};
	exporter x = {.o = &o,
	              .out = out,
	              .t = (kt_template *)t,
	              .m = m,
	              .c = KT_STR_INIT,
	              .h = KT_STR_INIT};
	const char *slash = strrchr(out, '/');
	const char *base = slash ? slash + 1 : out;
	char tmpl[] = "/tmp/ktc-export-XXXXXX";
	int rc = mkdtemp(tmpl) && (x.tmp = kt_strdup(tmpl))
	             ? 0
	             : kt_error(KT_EIO, "cannot make a temporary folder");
	if (!rc)
		rc = kt_wisdom_load(&x.w, wisdom_path);
	if (!rc)
		rc = check_wisdom(&x, wisdom_path);
	if (!rc)
		rc = collect(&x);
	if (!rc)
		rc = generate(&x, base);
	if (!rc)
		rc = write_outputs(&x, rep);
	remove_tmp(&x);
	kt_str_release(&x.c);
	kt_str_release(&x.h);
	kt_free(x.cfgs);
	kt_free(x.shape_cfg);
	kt_wisdom_free(x.w);
	if (rc)
		kt_export_report_release(rep);
	return rc;
}

void kt_export_report_release(kt_export_report *rep)
{
	kt_free(rep->header);
	kt_free(rep->source);
	*rep = (kt_export_report){0};
}
