/*
 * ast.h - the main file's AST as a plain tree of nodes, internal to the
 * frontend.
 *
 * libclang hands out cursors one visit at a time; the analyses need
 * parents, siblings and references in any order, so one walk copies what
 * they need into an array of nodes (index links, no pointers), with byte
 * offsets of the main file. Everything lives in the kt_tu's arena.
 */
#ifndef KTC_FRONTEND_AST_H
#define KTC_FRONTEND_AST_H

#include "frontend/frontend.h"

typedef struct fe_node {
	CXCursor cur;
	enum CXCursorKind kind;
	int parent, first, last, next; /* tree links, -1 for none */
	uint32_t b, e;                 /* expansion range in the main file */
	bool in_main;                  /* b/e are valid */
	bool spelled;     /* written here, not produced by a macro */
	bool in_header;   /* in a header function the main file calls */
	const char *name; /* spelling of decls, refs, calls, macros */
	int op;           /* CXBinaryOperatorKind / CXUnaryOperatorKind */
	bool is_int, is_float;
	int64_t ival;
	double fval;
	int ref;   /* DeclRefExpr/MemberRef: node of the decl or -1 */
	int macro; /* literal from a macro: the MacroDefinition node */
} fe_node;

typedef struct fe_ast {
	kt_tu *tu;
	fe_node *n;
	size_t len, cap;
	KT_VEC(int) decls;  /* nodes that are declarations, for ref lookup */
	KT_VEC(int) macros; /* MacroDefinition nodes */
	KT_VEC(int) expansions; /* MacroExpansion nodes */
	KT_VEC(int) hroots;     /* walked header functions and classes */
	KT_VEC(int) hdecls;     /* the declarations inside them */
} fe_ast;

int fe_ast_build(fe_ast *a, kt_tu *tu);
void fe_ast_release(fe_ast *a);

/* Reference node n names an integer constant another file declares
 * (`device::kWarpThreads` of a project header): true, its value in *v. */
bool fe_header_constant(const fe_ast *a, int n, int64_t *v);
/* Tokens t[0, nt) of a variable template's declaration (`template <Act
 * kA> static constexpr auto kern = k<T, kA>;`, whose initializer
 * libclang does not walk): the index of the first token of the
 * initializer, after the top-level `=`; nt when there is none. */
unsigned fe_var_template_init(kt_tu *tu, const CXToken *t, unsigned nt);

/* The k-th child (0-based) or -1; the number of children. */
int fe_child(const fe_ast *a, int n, int k);
int fe_nchildren(const fe_ast *a, int n);
/* Children written in the main file (not implicit default arguments,
 * nor the type a temporary names); the k-th of them, or -1. */
int fe_nwritten(const fe_ast *a, int n);
int fe_written(const fe_ast *a, int n, int k);
/* Skips implicit wrappers (UnexposedExpr, ParenExpr, dim3 conversions). */
int fe_strip(const fe_ast *a, int n);
/* The name of an expression that reads the device's SM count (a field or
 * a variable named for it: `multiProcessorCount`, `nsm`, `num_sms`,
 * `sm_count`; a local that cudaDeviceGetAttribute fills with
 * cudaDevAttrMultiProcessorCount), else NULL. */
const char *fe_sm_count(const fe_ast *a, int n);
/* The parent, skipping implicit wrappers. */
int fe_up(const fe_ast *a, int n);
/* The nearest ancestor (or n itself) of the given kind, or -1. */
int fe_ancestor(const fe_ast *a, int n, enum CXCursorKind k);
/* 'x', 'y' or 'z' when n is `NAME.x` for NAME a CUDA built-in index
 * variable (threadIdx, blockIdx, blockDim, gridDim); else 0. */
char fe_builtin(const fe_ast *a, int n, const char *name);
/* The same, also where n comes from a macro's body (`KERNEL_LOOP(i, n)`):
 * for analyses that edit no text of n. */
char fe_builtin_expanded(const fe_ast *a, int n, const char *name);
/* Node n divides by the warp (`E / 32`, `E >> 5`, `E / warpSize`): E's
 * node, else -1. */
int fe_warp_division(const fe_ast *a, int n);
/* True when the subtree of n refers to the built-in `name`. */
bool fe_mentions(const fe_ast *a, int n, const char *name);
/* True when the subtree of n refers to the declaration node decl. */
bool fe_refers_to(const fe_ast *a, int n, int decl);
/* The assigned node when n is an assignment (`=`, `op=`, or a class's
 * operator= / operator+=, as half and bfloat16 have), else -1. */
int fe_assign_lhs(const fe_ast *a, int n, bool *compound);
/* What a kernel whose body is node `body` does through its pointer
 * parameter `parm` (or local pointers made from it): FE_READ, FE_WRITE,
 * both, or 0; a use it cannot follow counts as both (access.c). */
enum { FE_READ = 1, FE_WRITE = 2 };
int fe_pointer_access(const fe_ast *a, int body, int parm);
/* The `dim3(x, y[, z])` a launch operand is, written there or in the
 * local it names (its definition reaching the operand); -1 for any other
 * operand, a scalar or `dim3(x)` included. Its dims: fe_written(a, n, d). */
int fe_dim3(const fe_ast *a, int op);
/* True when something assigns to (or increments) the variable var. */
bool fe_assigned(const fe_ast *a, int var);
/* The initialiser of a variable declaration node, or -1. */
int fe_var_init(const fe_ast *a, int var);
/* Whether offset off of the main file lies in a macro's definition. */
bool fe_in_macro_definition(const fe_ast *a, uint32_t off);
/* Where node n comes from an expansion in the main file of a
 * function-like macro of the main file whose definition spells one of its
 * parameters at offset off (`k<scalar_t>` in `#define LAUNCH(scalar_t)
 * ...`): the argument that expansion gives the parameter, [*b, *e) of the
 * main file (`LAUNCH(float)`: `float`); false otherwise. */
bool fe_macro_param_arg(const fe_ast *a, int n, uint32_t off, uint32_t *b,
                        uint32_t *e);
/* The literal a host function's parameter parm is given by the one call
 * of the function in the file (or its default where that call leaves it
 * out), where nothing else names the function and nothing writes parm:
 * `launch(x, n, 256)` gives `threads` 256; else -1. */
int fe_bound_arg(const fe_ast *a, int parm);
/* The expression that gives var its value at offset `at`: the initialiser,
 * or the last `var = E;` before `at`, where every change of var is such a
 * statement of the block that declares it (straight-line code); -1 when
 * var changes any other way or has no initialiser. */
int fe_def_before(const fe_ast *a, int var, uint32_t at);
/* The first call that var is handed to for writing (`f(&var)`, or var
 * bound to an `int &` parameter), or -1; *count: how many there are. */
int fe_out_arg_call(const fe_ast *a, int var, int *count);
/* Source text of a node (main file). */
const char *fe_text(const fe_ast *a, int n, size_t *len);
/* The declaration node a cursor refers to, or -1. */
int fe_decl_of(const fe_ast *a, CXCursor c);
/* A call of an object's call operator that a template has not resolved
 * (`Launch(grid, block, stream)(k<N>, args...)` in a function template:
 * libclang gives a dependent call whose first child is the object and
 * names it after the object's class): the call operator where the
 * object's class has exactly one, else the null cursor. */
CXCursor fe_dependent_call_op(CXCursor call);
/* The node of the function call n enters: its definition where the AST
 * has it (a template's pattern for a specialisation; an unresolved call's
 * call operator; the one function of a one-member overload set), or -1. */
int fe_callee(const fe_ast *a, int n);
/* The node whose extent is exactly [b, e) of the given kind, or -1. */
int fe_find(const fe_ast *a, uint32_t b, uint32_t e, enum CXCursorKind k);
/* The integer value of a MacroDefinition whose body is one integer
 * literal (maybe parenthesized); false otherwise. vb, ve: the literal. */
bool fe_macro_int(const fe_ast *a, int m, int64_t *v, uint32_t *vb,
                  uint32_t *ve);
/* The value of the object-like macro, defined in any file, whose
 * expansion begins at offset off of the main file, where its body is one
 * integer literal; false otherwise. */
bool fe_expansion_int(const fe_ast *a, uint32_t off, int64_t *v);

#endif
