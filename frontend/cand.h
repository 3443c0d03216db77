/*
 * cand.h - what the candidate finder learned about a file, beyond the
 * public candidate list: kernels with their launch sites and block shape,
 * and for each candidate the AST node it stands for. The planner reads it;
 * nothing outside frontend/ does.
 */
#ifndef KTC_FRONTEND_CAND_H
#define KTC_FRONTEND_CAND_H

#include "frontend/ast.h"

/* A launch of a kernel (launch.c): the call and its operands, as
 * expressions at the call site (a wrapper's parameters bound). */
typedef struct fe_launch {
	int call;         /* the launch, or the outermost wrapper call */
	int kernel;       /* the node naming the kernel (`k`, `k<float, 4>`) */
	int op[4];        /* grid, block, smem, stream operand nodes or -1 */
	int arg0;         /* the first kernel argument (siblings follow), -1 */
	bool arg_addr;    /* the arguments are `&x` (cudaLaunchKernel) */
	int shared;       /* a wrapper serving several calls that holds an
	                     operand (its literals stay), or -1 */
	int host_fn;      /* the host function (or template) around it */
	int64_t block[3]; /* block dims when known (1 for absent dims) */
	int ndims;        /* dims written at the site (1..3), 0 unknown */
	bool capped;      /* the block size is a clamp at most its cap */
} fe_launch;

typedef struct fe_kern {
	int node; /* FunctionDecl or FunctionTemplate */
	int body; /* CompoundStmt */
	const char *name;
	uint32_t loc; /* offset of the name (to match call targets) */
	KT_VEC(fe_launch) launches;
	KT_VEC(int) tparams; /* NonTypeTemplateParameter nodes, in order */
	bool broken;         /* a clang error lies inside: left alone */
	/* the most threads `__launch_bounds__(N, ...)` lets a block have,
	 * where N is a product of literals and macros whose bodies are
	 * (`4 * WARP_SIZE`); 0 for none or another expression */
	int64_t bounds;
	/* no launch in the code (an OpenCL C kernel, whose host is
	 * elsewhere): the user's `#pragma kt launch grid(G) block(B)` line
	 * before the kernel, and the ranges of G and B in it */
	bool pragma_launch;
	kt_range pgrid, pblock;
} fe_kern;

/* The node of the i-th kernel argument of a launch, or -1. */
int fe_launch_arg(const fe_ast *a, const fe_launch *L, int i);
/* The kernel a launch inside a generic lambda names (node `kernel`,
 * dependent there: `k<typename decltype(t)::type>`) as the lambda's first
 * call in the file instantiates it; the null cursor elsewhere. */
CXCursor fe_lambda_instance(const fe_ast *a, int kernel);

/* The first launch the file writes (a call of the file, `<<<>>>` or the
 * runtime's), with the function its kernel operand names: for the message
 * on a file that defines no kernel. False where the file launches none
 * (or launches only through a parameter or a variable). */
bool fe_foreign_launch(const fe_ast *a, CXCursor *kernel, int *call);

/* Internal twin of kt_candidates.items[i]. */
typedef struct fe_cand {
	int node;       /* literal node, macro definition, or -1 */
	int kern;       /* index into facts.kernels or -1 */
	int launch;     /* index into the kernel's launches or -1 */
	int dim;        /* block/grid dimension 0..2, or -1 */
	int tparam;     /* template parameter index, or -1 */
	int loop;       /* ForStmt node it bounds / is on, or -1 */
	bool per_block; /* a literal in `blockIdx.x * v`: units per block */
	int64_t max;    /* a block size cap's largest value, 0: no limit */
	bool divides;   /* a grid divides the problem by it exactly (`n /
	                   256`, no rounding): the file assumes the problem
	                   a multiple of the default, so only the default's
	                   divisors keep the grid covering it */
	bool smem;      /* max is the launch's dynamic shared memory's count
	                   of threads (smem_cap) */
	bool blocks;    /* a grid role's literal is the grid's count of
	                   blocks itself (grid_count), not blocks per SM */
} fe_cand;

struct kt_fe_facts {
	fe_ast ast;
	kt_tu *tu;
	KT_VEC(fe_kern) kernels;
	KT_VEC(fe_cand) cx; /* parallel to kt_candidates.items */
};

#endif
