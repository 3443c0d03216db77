/*
 * ktc/frontend.h - what the frontend (frontend/, libclang) finds in a CUDA
 * file: positions and ranges, the roles of tuning literals, candidates,
 * the parsed translation unit, and what the rewriter reads of the file
 * (declarations, includes, loops, compile flags).
 *
 * Everything a candidate list points at lives in one arena owned by the
 * kt_candidates object and freed with it. The names of the enums build
 * everywhere (frontend/names.c); the parser and the candidate finder need
 * libclang (KTC_HAVE_LIBCLANG).
 */
#ifndef KTC_FRONTEND_H
#define KTC_FRONTEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktc/common.h"
#include "ktc/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kt_arena;

/* ---------------------------------------------------------------- ranges */

/* A position in the original file: byte offset, 1-based line and column
 * (column counted in bytes, as clang does). */
typedef struct kt_pos {
	uint32_t offset;
	int line, col;
} kt_pos;

/* [begin, end): end is the position just past the last byte. */
typedef struct kt_range {
	kt_pos begin, end;
} kt_range;

/* ----------------------------------------------------------------- roles */

/* What a tuning literal controls; decides its domain (docs/plan-schema.md). */
typedef enum kt_role {
	KT_ROLE_BLOCK_SIZE,   /* threads per block */
	KT_ROLE_GRID,         /* blocks per grid (after a grid-stride loop) */
	KT_ROLE_SMEM,         /* dynamic shared memory bytes */
	KT_ROLE_UNROLL,       /* #pragma unroll N */
	KT_ROLE_TILE,         /* tile edge, rows per block, shared-array dim */
	KT_ROLE_VECTOR_WIDTH, /* elements per vector access */
	KT_ROLE_ITEMS_PER_THREAD, /* elements (or vectors) per thread */
	KT_ROLE_GROUP_SIZE,       /* threads per group (cooperating lanes) */
	KT_ROLE_WARPS,            /* warps per block */
	KT_ROLE_PER_BLOCK,        /* other units (groups, rows) per block */
	KT_ROLE_OTHER,
	KT_ROLE_COUNT_
} kt_role;

/* Where a literal stands: tells the rewriter how to substitute it. */
typedef enum kt_site {
	KT_SITE_EXPR,          /* an ordinary expression (device or host) */
	KT_SITE_LAUNCH_GRID,   /* 1st operand of <<<...>>> */
	KT_SITE_LAUNCH_BLOCK,  /* 2nd operand of <<<...>>> */
	KT_SITE_LAUNCH_SMEM,   /* 3rd operand of <<<...>>> */
	KT_SITE_DIM3,          /* an argument of a dim3 constructor */
	KT_SITE_PRAGMA_UNROLL, /* N in `#pragma unroll N` (needs a constexpr) */
	KT_SITE_MACRO,         /* VALUE in `#define NAME VALUE` */
	KT_SITE_CONSTEXPR,     /* initializer of a const/constexpr variable */
	KT_SITE_TEMPLATE_ARG,  /* a template argument */
	KT_SITE_ARRAY_DIM,     /* a dimension of an array (shared tile) */
	KT_SITE_LAUNCH_BOUNDS, /* argument of __launch_bounds__ */
	KT_SITE_COUNT_
} kt_site;

/* Why a literal stays a literal. */
typedef enum kt_reason {
	KT_REASON_WARP_SIZE,    /* 32 lanes per warp (and warp-level masks) */
	KT_REASON_FP8_MAX,      /* 448 (e4m3), 57344 (e5m2) */
	KT_REASON_FORMAT_GROUP, /* group size fixed by a data format */
	KT_REASON_EPS,          /* a small float: epsilon, tolerance */
	KT_REASON_SHIFT,        /* a shift amount */
	KT_REASON_MASK,         /* a bit mask (0xffffffff, 0xff, ...) */
	KT_REASON_SHUFFLE,   /* a shuffle offset or width of a warp reduction */
	KT_REASON_TRIVIAL,   /* 0, 1, 2 as index or arithmetic */
	KT_REASON_MATH,      /* a mathematical constant (0.5, log2e, ...) */
	KT_REASON_TYPE_SIZE, /* a byte count of a type (sizeof-like: 2, 4) */
	KT_REASON_UNTIED,    /* looks tunable but nothing links it */
	KT_REASON_UNSAFE,    /* tunable, but changing it changes the result */
	KT_REASON_AMBIGUOUS, /* equal to two tunable values: cannot tell */
	KT_REASON_COUNT_
} kt_reason;

KT_API const char *kt_role_name(kt_role r);
KT_API const char *kt_site_name(kt_site s);
KT_API const char *kt_reason_name(kt_reason r);
/* Name -> enum; -1 when unknown. */
KT_API int kt_role_from_name(const char *s);
KT_API int kt_site_from_name(const char *s);
KT_API int kt_reason_from_name(const char *s);

/* ------------------------------------------------------------ candidates */

typedef enum kt_cand_kind {
	KT_CAND_LAUNCH,       /* a <<<grid, block, smem>>> operand */
	KT_CAND_DIM3,         /* a dim3 constructor argument */
	KT_CAND_BLOCK_TIED,   /* kernel literal equal to (or derived from) the
	                         launch's block size: stride, bound, 256/32 */
	KT_CAND_UNROLL,       /* #pragma unroll N */
	KT_CAND_MACRO,        /* #define NAME <integer> */
	KT_CAND_CONSTEXPR,    /* constexpr / static const integer */
	KT_CAND_TEMPLATE_ARG, /* integer template argument */
	KT_CAND_ARRAY_DIM,    /* array dimension, with padding */
	KT_CAND_VECTOR,       /* vector width: uint4/float4 loads, VEC consts */
	KT_CAND_ITEMS,        /* items per thread */
	KT_CAND_GROUP,        /* threads per group / group size */
	KT_CAND_LAUNCH_BOUNDS,
	KT_CAND_LITERAL, /* any other integer literal inside a kernel */
	KT_CAND_COUNT_
} kt_cand_kind;

KT_API const char *kt_cand_kind_name(kt_cand_kind k);

typedef struct kt_candidate {
	kt_cand_kind kind;
	kt_role role;
	kt_site site;
	kt_range range;   /* the literal (for MACRO: its value token) */
	const char *text; /* source text at range */
	int64_t value;
	bool is_float; /* a float literal (only ever rejected) */
	double fvalue;
	bool host;          /* in host code (launch site, host function) */
	const char *kernel; /* the __global__ function it belongs to/launches */
	const char *name;   /* macro / constexpr / variable name, or NULL */
	int link;           /* index of the candidate it is tied to, or -1 */
	const char *with;   /* when linked: its text in terms of the root's
	                       parameter, `$` standing for the name
	                       (`$`, `($ - 1)`, `$ + 1`), and `@` for
	                       candidate link2's (`($ * @)`) */
	int link2;          /* where `with` holds `@`: the candidate whose
	                       parameter it names (its value where that
	                       is no parameter) */
	int padding;        /* ARRAY_DIM: text is `base + padding`; else 0 */
	const char *evidence; /* one line: why this role */
	bool rejected;
	kt_reason reason; /* when rejected */
} kt_candidate;

/* A __global__ function and the places that launch it. */
typedef struct kt_kernel_info {
	const char *name;
	kt_range range;     /* the function definition */
	kt_range body;      /* its compound statement */
	kt_range *launches; /* the CUDAKernelCallExpr of each launch site */
	size_t nlaunches;
	bool is_template;
	bool has_errors; /* a clang error inside: not annotated */
} kt_kernel_info;

struct kt_fe_facts;

/* Refers to the kt_tu it was found in: free it before the kt_tu. */
typedef struct kt_candidates {
	struct kt_arena *arena;
	struct kt_fe_facts
	    *facts; /* the frontend's analysis, for the planner */
	const char *path;
	const char *text; /* the file as parsed (owned by the arena) */
	size_t text_len;
	kt_kernel_info *kernels;
	size_t nkernels;
	kt_candidate *items;
	size_t len;
} kt_candidates;

/* Fills a position for offset in text (line/col computed). */
KT_API kt_pos kt_pos_at(const char *text, size_t len, uint32_t offset);
/* -------------------------------------------------- libclang frontend */

typedef struct kt_parse_opts {
	const char *build_dir;    /* -p: folder with compile_commands.json, or
	                             NULL to search upward from the file */
	const char *const *extra; /* extra compiler arguments */
	size_t nextra;
	const char *arch; /* --cuda-gpu-arch, NULL: sm_90a */
	bool no_compdb;   /* ignore compile_commands.json */
	bool no_pch;      /* do not use or write the header cache
	                     (frontend/pch.c; KTC_CACHE_DIR sets
	                     where it lives) */
} kt_parse_opts;

typedef struct kt_tu kt_tu; /* one parsed translation unit */

/*
 * Parses path with libclang. Compiler problems become diagnostics; errors in
 * headers that are missing do not fail the parse (the kernel's own AST is
 * usually intact), a file that cannot be read or parsed at all does.
 */
KT_API int kt_frontend_parse(kt_tu **out, const char *path,
                             const kt_parse_opts *o, kt_diags *diags);
KT_API void kt_frontend_free(kt_tu *tu);
/* The file's content as parsed (owned by tu). */
KT_API const char *kt_frontend_text(const kt_tu *tu, size_t *len);
KT_API const char *kt_frontend_path(const kt_tu *tu);
/* The first header the parse did not find ("'x.h' (file.cu:3)"), or
 * NULL. */
KT_API const char *kt_frontend_missing(const kt_tu *tu);
/* True when the file's leading includes came from the header cache. */
KT_API bool kt_frontend_used_cache(const kt_tu *tu);
/* The compiler arguments the parse used (for display and tests). */
KT_API size_t kt_frontend_args(const kt_tu *tu, const char *const **args);

/* Finds kernels, launch sites and candidate literals (kept and rejected). */
KT_API int kt_candidates_find(kt_candidates **out, kt_tu *tu, kt_diags *diags);
KT_API void kt_candidates_free(kt_candidates *c);

/* ------------------------------- what the rewriter reads of a file */

/* A top-level declaration, as the rewriter needs to know it. */
typedef struct kt_rewrite_decl {
	kt_range range; /* the whole declaration */
	bool host_only; /* NVRTC cannot compile it: kept under a guard */
	bool kernel;
	bool guarded; /* inside the file's own #ifndef __CUDACC_RTC__ */
	int in;       /* hdecls: the header it stands in (headers[]) */
	const char *const *params; /* a kernel's parameter names, in order */
	size_t nparams;
} kt_rewrite_decl;

/* An #include directive of the file. */
typedef struct kt_rewrite_include {
	kt_range range;      /* the directive */
	const char *spelled; /* the header as written: `cstdint`, `k.cuh` */
	bool angled;
	bool guarded; /* inside the file's own #ifndef __CUDACC_RTC__ */
	int header;   /* the own header it includes (headers[]), or -1 */
	int in; /* the own header it stands in (headers[]), -1: the file */
} kt_rewrite_include;

/*
 * One of the file's own headers: a `"..."` include found outside the CUDA
 * toolkit and the system headers, and those such headers include the same
 * way. NVRTC gets its device side (kt_rewrite_file's hdecls and hincludes
 * say what to leave out) when it cannot compile it whole.
 */
typedef struct kt_rewrite_header {
	const char *path;
	const char *text;
	size_t len;
} kt_rewrite_header;

/*
 * A loop `for (TYPE VAR = START; VAR < BOUND; VAR += STEP) BODY` of the file
 * (the only shape the vectorize refactor rewrites).
 */
typedef struct kt_rewrite_loop {
	kt_range stmt, start, bound, step, body;
	const char *var, *var_type;
} kt_rewrite_loop;

/* An array subscript `BASE[...]` whose base is a named variable. */
typedef struct kt_rewrite_subscript {
	kt_range range; /* the whole expression */
	const char *base;
} kt_rewrite_subscript;

/* An integer division or remainder `LHS / RHS` or `LHS % RHS` of int or
 * unsigned int type written in the file (not produced by a macro): what
 * the fast_div refactor rewrites. */
typedef struct kt_rewrite_division {
	kt_range range, lhs, rhs;
	char op;          /* '/' or '%' */
	bool is_unsigned; /* the operation's type: unsigned int, else int */
} kt_rewrite_division;

/* The file and what the frontend knows of its structure. */
typedef struct kt_rewrite_file {
	const char *path; /* for diagnostics and diff headers */
	const char *text;
	size_t len;
	bool opencl; /* OpenCL C: verified on the OpenCL backend */
	const kt_rewrite_decl *decls; /* in source order; may be empty */
	size_t ndecls;
	const kt_rewrite_include *includes; /* in source order */
	size_t nincludes;
	const kt_rewrite_loop *loops; /* in source order */
	size_t nloops;
	const kt_rewrite_subscript *subscripts; /* in source order */
	size_t nsubscripts;
	const kt_rewrite_division *divisions; /* in source order */
	size_t ndivisions;
	const kt_rewrite_header *headers;
	size_t nheaders;
	/* the headers' top-level host-only declarations and their includes,
	 * offsets in their header's text, by header then offset (`in`) */
	const kt_rewrite_decl *hdecls;
	size_t nhdecls;
	const kt_rewrite_include *hincludes;
	size_t nhincludes;
	/* C headers of the system whose names the file's device code uses
	 * (`cstdint` for an int32_t that a project header's <cstdint>
	 * declares), for stand-ins where that header is kept from NVRTC */
	const char *std[8];
	size_t nstd;
} kt_rewrite_file;

/*
 * Fills f from a parsed file (the frontend's translation unit): its text,
 * top-level declarations and #include directives. f refers to tu's memory:
 * release f before freeing tu.
 */
KT_API int kt_rewrite_file_from_tu(kt_rewrite_file *f, kt_tu *tu);
KT_API void kt_rewrite_file_release(kt_rewrite_file *f);

/*
 * The compile flags of path from compile_commands.json (in build_dir, else
 * found as kt_frontend_parse finds it: DIR or DIR/build, walking up from
 * path's folder): -I (also from -isystem), -D, -U, -std, with absolute
 * paths. No database or no entry: no flags (*nflags 0).
 */
KT_API int kt_rewrite_flags(char ***flags, size_t *nflags, const char *path,
                            const char *build_dir);
KT_API void kt_rewrite_flags_free(char **flags, size_t n);

#ifdef __cplusplus
}
#endif
#endif
