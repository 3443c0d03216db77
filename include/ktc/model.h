/*
 * ktc/model.h - the space model: what the `#pragma kt` lines of a template
 * say, as data. grammar/ builds it; tuner/ and runtime/ read it and never
 * look at pragma text themselves.
 *
 * Every name an expression can use is a symbol with a slot: parameters, then
 * derived values (`set`), then problem variables, then DEVICE_* constants.
 * Binding a configuration fills one kt_value per slot (kt_model_bind), and
 * every expression of the model is evaluated against such a slot array.
 * All memory of a model lives in one arena, freed by kt_template_free.
 */
#ifndef KTC_MODEL_H
#define KTC_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktc/common.h"
#include "ktc/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A number in an expression: integers are 64-bit, floats are doubles. */
typedef struct kt_value {
	bool is_float;
	union {
		int64_t i;
		double f;
	};
} kt_value;

static inline kt_value kt_int(int64_t i)
{
	kt_value v = {.is_float = false, .i = i};
	return v;
}
static inline kt_value kt_float(double f)
{
	kt_value v = {.is_float = true, .f = f};
	return v;
}
static inline double kt_value_as_double(kt_value v)
{
	return v.is_float ? v.f : (double)v.i;
}

typedef enum kt_expr_kind {
	KT_EXPR_INT,
	KT_EXPR_FLOAT,
	KT_EXPR_STRING, /* only where a clause allows it: template("half") */
	KT_EXPR_SYMBOL, /* a resolved name: .sym indexes kt_model.symbols */
	KT_EXPR_UNARY,
	KT_EXPR_BINARY,
	KT_EXPR_COND, /* args[0] ? args[1] : args[2] */
	KT_EXPR_CALL, /* .fn with nargs arguments */
} kt_expr_kind;

typedef enum kt_op {
	KT_OP_NEG,
	KT_OP_PLUS,
	KT_OP_NOT,
	KT_OP_BITNOT, /* unary */
	KT_OP_MUL,
	KT_OP_DIV,
	KT_OP_MOD,
	KT_OP_ADD,
	KT_OP_SUB, /* binary */
	KT_OP_SHL,
	KT_OP_SHR,
	KT_OP_LT,
	KT_OP_LE,
	KT_OP_GT,
	KT_OP_GE,
	KT_OP_EQ,
	KT_OP_NE,
	KT_OP_BITAND,
	KT_OP_BITXOR,
	KT_OP_BITOR,
	KT_OP_AND,
	KT_OP_OR,
} kt_op;

typedef enum kt_func {
	KT_FN_MIN,
	KT_FN_MAX,
	KT_FN_DIV_CEIL,
	KT_FN_LOG2,
	KT_FN_POW2,
	KT_FN_ABS,
	KT_FN_FLOOR,
	KT_FN_CEIL,
	KT_FN_ROUND,
	KT_FN_FLOAT,
	KT_FN_INT,
} kt_func;

typedef struct kt_expr kt_expr;
struct kt_expr {
	kt_expr_kind kind;
	int op;          /* kt_op for UNARY/BINARY, kt_func for CALL */
	kt_value lit;    /* INT, FLOAT */
	const char *str; /* STRING: the text; SYMBOL: the name */
	int sym;         /* SYMBOL: index into kt_model.symbols */
	kt_expr **args;
	int nargs;
	kt_loc loc; /* where the expression starts in the file */
	int len;    /* its length in columns, for carets */
};

typedef enum kt_symbol_kind {
	KT_SYM_PARAM,
	KT_SYM_SET,
	KT_SYM_PROBLEM,
	KT_SYM_DEVICE,
} kt_symbol_kind;

typedef struct kt_symbol {
	const char *name;
	kt_symbol_kind kind;
	int index; /* into params, sets, problems or devices */
} kt_symbol;

/* `param NAME values(...)|range(...)|pow2(...) [default(V)]` */
typedef struct kt_param {
	const char *name;
	kt_value *values; /* the domain, expanded, in the order written */
	size_t nvalues;
	size_t default_index;
	int sym;
	kt_loc loc;
} kt_param;

/* `set NAME = EXPR`: evaluated in the order written, after parameters. */
typedef struct kt_set {
	const char *name;
	kt_expr *expr;
	int *params; /* parameters it depends on, directly or through sets */
	int nparams;
	int sym;
	kt_loc loc;
} kt_set;

/* `constraint EXPR`: a configuration is valid when EXPR is non-zero. */
typedef struct kt_constraint {
	kt_expr *expr;
	const char *text; /* the expression as written */
	int *params; /* parameters it depends on, directly or through sets */
	int nparams;
	kt_loc loc;
} kt_constraint;

/* `problem NAME values(...)`: sizes the kernel is tuned for. */
typedef struct kt_problem {
	const char *name;
	kt_value *values;
	size_t nvalues;
	size_t default_index;
	int sym;
	kt_loc loc;
} kt_problem;

/* A DEVICE_* constant some expression uses; the backend gives its value. */
typedef struct kt_device_const {
	const char *name;  /* e.g. "DEVICE_MAX_THREADS_PER_BLOCK" */
	kt_value fallback; /* used where no device answers (ktc space) */
	int sym;
	int index; /* into kt_device_consts (and kt_device_info) */
} kt_device_const;

typedef enum kt_type {
	KT_TYPE_F64,
	KT_TYPE_F32,
	KT_TYPE_F16,
	KT_TYPE_BF16,
	KT_TYPE_FP8_E4M3,
	KT_TYPE_FP8_E5M2,
	KT_TYPE_I8,
	KT_TYPE_I16,
	KT_TYPE_I32,
	KT_TYPE_I64,
	KT_TYPE_U8,
	KT_TYPE_U16,
	KT_TYPE_U32,
	KT_TYPE_U64,
	KT_TYPE_COUNT_
} kt_type;

KT_API size_t kt_type_size(kt_type t);
KT_API const char *kt_type_name(kt_type t); /* the grammar's spelling: "bf16" */
KT_API bool kt_type_is_float(kt_type t);

typedef enum kt_arg_dir { KT_ARG_IN, KT_ARG_OUT, KT_ARG_INOUT } kt_arg_dir;

typedef enum kt_init_kind {
	KT_INIT_RANDOM, /* uniform in [lo, hi]; the default for inputs */
	KT_INIT_ZEROS,
	KT_INIT_IOTA,
	KT_INIT_VALUE,
} kt_init_kind;

typedef struct kt_init {
	kt_init_kind kind;
	double lo, hi; /* RANDOM */
	double value;  /* VALUE */
} kt_init;

/*
 * `arg NAME TYPE[COUNT] in|out|inout [init(...)]` (a buffer) or
 * `arg NAME TYPE = EXPR` (a scalar). Args are listed in kernel order.
 */
typedef struct kt_arg {
	const char *name;
	kt_type type;
	kt_expr *count; /* buffers: number of elements; NULL for scalars */
	kt_expr *value; /* scalars */
	kt_arg_dir dir;
	kt_init init;
	kt_loc loc;
} kt_arg;

/* `launch grid(...) block(...) [smem(...)] [pdl(...)]`; missing dimensions
 * are NULL (1). */
typedef struct kt_launch {
	kt_expr *grid[3];
	kt_expr *block[3];
	kt_expr *smem; /* NULL: 0 bytes of dynamic shared memory */
	/* nonzero: programmatic dependent launch (the kernel may start
	 * before the previous one on its stream ends, and waits for it with
	 * griddepcontrol.wait); NULL: off */
	kt_expr *pdl;
	kt_loc loc;
	bool present;
} kt_launch;

/* `verify [rtol(X)] [atol(X)] [match(F)]`; negative means "by type". */
typedef struct kt_verify {
	double rtol, atol, match;
	bool off; /* `verify off`: outputs are not compared */
	kt_loc loc;
} kt_verify;

typedef enum kt_objective_kind {
	KT_OBJ_TIME,
	KT_OBJ_BANDWIDTH, /* expr: bytes moved per launch */
	KT_OBJ_FLOPS,     /* expr: floating-point operations per launch */
} kt_objective_kind;

typedef struct kt_objective {
	kt_objective_kind kind;
	kt_expr *expr;
	kt_loc loc;
} kt_objective;

/* One annotated kernel: the block of `#pragma kt` lines above it. */
typedef struct kt_model {
	const char *file;   /* path as given */
	const char *source; /* the whole file's text */
	const char *kernel; /* the __global__ function's name */
	const char *scope;  /* the named namespaces around it, "a::b::", or
	                       "": NVRTC's name expression is scope + kernel */
	kt_loc kernel_loc;
	kt_expr *
	    *template_args; /* `kernel template(...)`: NVRTC name expression */
	int ntemplate_args;

	kt_param *params;
	size_t nparams;
	kt_set *sets;
	size_t nsets;
	kt_constraint *constraints;
	size_t nconstraints;
	kt_problem *problems;
	size_t nproblems;
	kt_device_const *devices;
	size_t ndevices;
	kt_symbol *symbols; /* params, sets, problems, devices, in that order */
	size_t nsymbols;

	kt_launch launch;
	kt_arg *args;
	size_t nargs;
	kt_verify verify;
	kt_objective objective;
} kt_model;

/* A parsed file: one model per annotated kernel. */
typedef struct kt_template {
	char *path;
	char *source;
	kt_model *models;
	size_t nmodels;
	void *internal_; /* the arena */
} kt_template;

/*
 * Parses every `#pragma kt` block of text. On malformed input returns
 * KT_EPARSE with diagnostics in diags (which the caller owns); *out is NULL
 * then. Warnings may be added on success.
 */
KT_API int kt_template_parse(kt_template **out, const char *path,
                             const char *text, kt_diags *diags);
/*
 * One `#pragma kt` line of a file, found as kt_template_parse finds them
 * but not parsed (a block still to complete reads too): the directive's
 * bytes [begin, end), where the text after `kt` starts (body), and the
 * name of the kernel its block stands before ([kernel, kernel +
 * kernel_len); kernel_len 0 when no kernel follows).
 */
typedef struct kt_pragma_text {
	size_t begin, end, body;
	size_t kernel, kernel_len;
} kt_pragma_text;
/* The `#pragma kt` lines of text (len bytes), in order; *out is the
 * caller's (kt_free), NULL when there are none. */
KT_API int kt_template_lines(kt_pragma_text **out, size_t *n, const char *text,
                             size_t len);
KT_API int kt_template_load(kt_template **out, const char *path,
                            kt_diags *diags);
KT_API void kt_template_free(kt_template *t);
/* The model of the kernel named name, or the only one when name is NULL. */
KT_API const kt_model *kt_template_model(const kt_template *t,
                                         const char *name);

/*
 * Evaluates e against slot values (one per symbol). Integer arithmetic is
 * 64-bit with C semantics; division or modulo by zero, an overflow, or a
 * shift out of range fail with KT_EINVALID and a message naming the place.
 */
KT_API int kt_expr_eval(kt_value *out, const kt_expr *e, const kt_value *slots);
/*
 * As kt_expr_eval; on failure *where (when where is not NULL) is the
 * innermost sub-expression that failed, for a diagnostic at its place.
 */
KT_API int kt_expr_eval_where(kt_value *out, const kt_expr *e,
                              const kt_value *slots, const kt_expr **where);
/* e as C source, parenthesised where needed; *out is the caller's
 * (kt_free). */
KT_API int kt_expr_format(char **out, const kt_expr *e, const kt_model *m);

/*
 * Fills slots (nsymbols values): parameters from param_idx (domain indices),
 * sets evaluated in order, problem values (nproblems; NULL: defaults) and
 * device values (ndevices; NULL: fallbacks).
 */
KT_API int kt_model_bind(kt_value *slots, const kt_model *m,
                         const uint32_t *param_idx, const kt_value *problem,
                         const kt_value *device);
/* Default configuration: each parameter's default_index. */
KT_API void kt_model_default_config(const kt_model *m, uint32_t *param_idx);
/* Problem variable i's value: problem[i], or its default when problem is
 * NULL. */
KT_API kt_value kt_model_problem_value(const kt_model *m,
                                       const kt_value *problem, size_t i);
/* Index of the symbol called name, or -1. */
KT_API int kt_model_symbol(const kt_model *m, const char *name);

/*
 * The text of t with each parameter of m (one of t's models) fixed to
 * values[p]: a guarded `#define` before its first use and its pragma's
 * default(V) set to the same value, so the file compiles with no -D flags
 * and a -D still wins (`ktc apply`). A parameter used nowhere outside its
 * pragma is defined at the end of the file, with a warning in diags (which
 * may be NULL). *out is the caller's (kt_free).
 */
KT_API int kt_template_apply(char **out, const kt_template *t,
                             const kt_model *m, const kt_value *values,
                             kt_diags *diags);
/*
 * The text of t with the domains of m's parameters narrowed: a value with
 * keep[p][k] false is taken out of parameter p's domain, which is then
 * written as values(...); the default always stays (`ktc check -o`).
 * *out is the caller's (kt_free).
 */
KT_API int kt_template_restrict(char **out, const kt_template *t,
                                const kt_model *m, const bool *const *keep);
/* v as a C literal: 128, (-3), 0.5 (at most n bytes with the NUL). */
KT_API void kt_value_format(char *buf, size_t n, kt_value v);

/* The DEVICE_* constants the grammar knows, with fallbacks (an H100 SXM). */
typedef struct kt_device_const_info {
	const char *name;
	int64_t fallback;
	const char *meaning;
} kt_device_const_info;
extern KT_API const kt_device_const_info kt_device_consts[];
extern KT_API const size_t kt_device_nconsts;
/* The index in kt_device_consts of the constant called name, or -1. */
KT_API int kt_device_const_index(const char *name);

#ifdef __cplusplus
}
#endif
#endif
