/*
 * gen.c - turns an edit plan into the text of the annotated file: the
 * literal uses become parameter names, each parameter is declared with its
 * default, host code is kept out of NVRTC's way, refactors generate their
 * code, and a `#pragma kt` block stands before each kernel.
 *
 * Design choice: the generator only ever produces kt_edits on byte ranges
 * of the original that the plan (or the frontend's AST) named; it never
 * searches the source. Units (a parameter with the refactors that use it)
 * can be switched off one by one, so the driver can generate the file with
 * any subset of the plan when it isolates a failing edit. A refactor that
 * repeats a region (an `if constexpr` with the original kept as the default
 * branch) first applies the edits inside that region to a copy of it, then
 * replaces the region as a whole.
 */
#include "rewriter/rewriter.h"

#include "rewriter/fastdiv.h"

#include "ktc/common.h"
#include "util/arena.h"
#include "util/vec.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef KT_VEC(kt_edit) edit_vec;

typedef struct gen {
	const kt_plan *p;
	const kt_rewrite_file *f;
	const kt_rw_select *sel;
	kt_arena *arena;
	edit_vec edits;
	kt_diags *diags;
	bool failed;     /* a unit's edits do not fit; sel->bad says which */
	bool vec_helper; /* a vectorize refactor needs kt_vec */
	bool cluster_helper; /* a cluster split needs kt_cluster_sum */
	bool fastdiv;        /* a fast_div refactor needs kt_fastdiv */
} gen;

/* ---- positions in the original text ---- */

size_t kt_rw_line_start(const char *t, size_t off)
{
	while (off > 0 && t[off - 1] != '\n')
		off--;
	return off;
}

/* The offset just past the newline that ends the line holding off. */
size_t kt_rw_line_next(const char *t, size_t len, size_t off)
{
	while (off < len && t[off] != '\n')
		off++;
	return off < len ? off + 1 : len;
}

/* Like line_next, but follows backslash-newline continuations. */
static size_t directive_next(const char *t, size_t len, size_t off)
{
	for (;;) {
		size_t nl = kt_rw_line_next(t, len, off);
		size_t e = nl;
		if (e > 0 && t[e - 1] == '\n')
			e--;
		if (e > 0 && t[e - 1] == '\r')
			e--;
		if (nl >= len || e == 0 || t[e - 1] != '\\')
			return nl;
		off = nl;
	}
}

/* The first line of the directive whose line holds off. */
static size_t directive_start(const char *t, size_t off)
{
	size_t s = kt_rw_line_start(t, off);
	while (s >= 2 && t[s - 1] == '\n' && t[s - 2] == '\\')
		s = kt_rw_line_start(t, s - 1);
	return s;
}

static bool only_space(const char *t, size_t a, size_t b)
{
	for (size_t i = a; i < b; i++)
		if (!isspace((unsigned char)t[i]))
			return false;
	return true;
}

/* ---- edits ---- */

/* Ranks of insertions at one offset: what closes a region before it comes
 * first, the parameter block next, what opens a region after, and the
 * pragma block last, right before its kernel. */
enum { R_CLOSE, R_BLOCK, R_CODE, R_OPEN, R_PRAGMAS };

/*
 * OpenCL C spells CUDA's index variables as work-item functions. The
 * refactors write CUDA; for an OpenCL C file each generated text is
 * respelled here, the one place, so a refactor that needs nothing else of
 * CUDA works in both languages (those that do are not offered for OpenCL
 * C: planner/refactor.c).
 */
static const struct {
	const char *cuda, *cl;
} ocl_spelling[] = {
    {"gridDim.x * blockDim.x", "get_global_size(0)"},
    {"threadIdx.", "get_local_id("},
    {"blockIdx.", "get_group_id("},
    {"blockDim.", "get_local_size("},
    {"gridDim.", "get_num_groups("},
};

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The length of the CUDA spelling at t, its OpenCL one in *cl (for an
 * index variable, *dim holds the dimension's digit); 0 for none. */
static size_t ocl_match(const char *t, const char **cl, char *dim)
{
	for (size_t k = 0; k < sizeof(ocl_spelling) / sizeof(*ocl_spelling);
	     k++) {
		size_t n = strlen(ocl_spelling[k].cuda);
		if (strncmp(t, ocl_spelling[k].cuda, n))
			continue;
		*cl = ocl_spelling[k].cl;
		*dim = 0;
		if (t[n - 1] != '.')
			return n;
		if (t[n] < 'x' || t[n] > 'z' || ident_char(t[n + 1]))
			continue;
		*dim = (char)('0' + t[n] - 'x');
		return n + 1;
	}
	return 0;
}

static const char *ocl_respell(gen *g, const char *text)
{
	kt_str s = KT_STR_INIT;
	int rc = 0;
	for (const char *t = text; *t && !rc;) {
		const char *cl;
		char dim;
		size_t n =
		    t > text && ident_char(t[-1]) ? 0 : ocl_match(t, &cl, &dim);
		if (!n) {
			rc = kt_str_addc(&s, *t++);
			continue;
		}
		rc = dim ? kt_str_addf(&s, "%s%c)", cl, dim)
		         : kt_str_adds(&s, cl);
		t += n;
	}
	const char *r =
	    rc ? NULL : kt_arena_strdup(g->arena, s.ptr ? s.ptr : "");
	kt_str_release(&s);
	return r;
}

static int add_edit(gen *g, size_t begin, size_t end, const char *text, int tag)
{
	if (g->f->opencl && !(text = ocl_respell(g, text)))
		return KT_ENOMEM;
	kt_edit e = {begin, end, text, tag, R_CODE};
	return kt_vec_push(&g->edits, e);
}

static int insert(gen *g, size_t at, const char *text, int tag)
{
	return add_edit(g, at, at, text, tag);
}

static int insert_ranked(gen *g, size_t at, const char *text, int tag, int rank)
{
	if (g->f->opencl && !(text = ocl_respell(g, text)))
		return KT_ENOMEM;
	kt_edit e = {at, at, text, tag, rank};
	return kt_vec_push(&g->edits, e);
}

static char *dup(gen *g, const char *s)
{
	return kt_arena_strdup(g->arena, s);
}

/* ---- host code out of NVRTC's way ---- */

/* Headers NVRTC finds by itself or on the CUDA include path. */
static bool rtc_safe(const kt_rewrite_include *inc)
{
	static const char *const safe[] = {
	    "cuda_runtime.h", "cuda_fp16.h", "cuda_bf16.h", "cuda_fp8.h",
	    "cuda_fp6.h", "cuda_fp4.h", "mma.h", "cooperative_groups.h",
	    "cuda_pipeline.h", "cuda_pipeline_primitives.h", "cuda_awbarrier.h",
	    "cuda_awbarrier_primitives.h", "vector_types.h",
	    "vector_functions.h", "device_launch_parameters.h",
	    "math_constants.h",
	    /* cuRAND's device API: the headers that compile alone
	     * (curand_normal.h and its kin need curand_kernel.h's) */
	    "curand_kernel.h", "curand_mtgp32_kernel.h",
	    "curand_philox4x32_x.h"};
	if (!inc->angled)
		return true; /* the kernel's own headers: NVRTC must see them */
	for (size_t i = 0; i < sizeof(safe) / sizeof(safe[0]); i++)
		if (!strcmp(inc->spelled, safe[i]))
			return true;
	/* cub's block-, warp- and thread-level parts compile with NVRTC;
	 * its device-wide algorithms (cub/cub.cuh, cub/device/) are host code
	 */
	static const char *const cub[] = {
	    "cub/block/",        "cub/warp/",         "cub/thread/",
	    "cub/util_ptx.cuh",  "cub/util_type.cuh", "cub/util_macro.cuh",
	    "cub/util_math.cuh", "cub/config.cuh",    "cub/version.cuh"};
	for (size_t i = 0; i < sizeof(cub) / sizeof(cub[0]); i++)
		if (!strncmp(inc->spelled, cub[i], strlen(cub[i])))
			return true;
	return !strncmp(inc->spelled, "cuda/", 5) ||
	       !strncmp(inc->spelled, "cooperative_groups/", 19);
}

/* cuda.h's version macro, which nvcc's headers bring in and NVRTC's do
 * not */
#define KT_CUDA_VERSION                                                        \
	"#ifndef CUDA_VERSION\n#define CUDA_VERSION "                          \
	"(__CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10)\n#endif\n"

#define KT_MATH_MACROS                                                         \
	"#include <cuda/std/limits>\n"                                         \
	"#ifndef INFINITY\n#define INFINITY "                                  \
	"(::cuda::std::numeric_limits<float>::infinity())\n#endif\n"           \
	"#ifndef NAN\n#define NAN "                                            \
	"(::cuda::std::numeric_limits<float>::quiet_NaN())\n#endif\n"          \
	"#ifndef M_PI\n#define M_PI 3.14159265358979323846\n#endif\n"          \
	"#ifndef M_SQRT2\n#define M_SQRT2 1.41421356237309504880\n#endif\n"    \
	"#ifndef M_LN2\n#define M_LN2 0.69314718055994530942\n#endif\n"

#define KT_CUB_RTC                                                             \
	"#include <cub/block/block_load.cuh>\n"                                \
	"#include <cub/block/block_store.cuh>\n"                               \
	"#include <cub/block/block_reduce.cuh>\n"                              \
	"#include <cub/block/block_scan.cuh>\n"                                \
	"#include <cub/block/block_exchange.cuh>\n"                            \
	"#include <cub/block/block_radix_sort.cuh>\n"                          \
	"#include <cub/block/block_merge_sort.cuh>\n"                          \
	"#include <cub/block/block_histogram.cuh>\n"                           \
	"#include <cub/block/block_discontinuity.cuh>\n"                       \
	"#include <cub/block/block_adjacent_difference.cuh>\n"                 \
	"#include <cub/warp/warp_reduce.cuh>\n"                                \
	"#include <cub/warp/warp_scan.cuh>\n"                                  \
	"#include <cub/warp/warp_load.cuh>\n"                                  \
	"#include <cub/warp/warp_store.cuh>\n"                                 \
	"#include <cub/warp/warp_exchange.cuh>\n"                              \
	"#include <cub/warp/warp_merge_sort.cuh>\n"                            \
	"#include <cub/thread/thread_reduce.cuh>\n"

/* What NVRTC gets instead of a C header whose names device code uses. */
static const char *rtc_else(const char *h)
{
	static const char *const map[][2] = {
	    {"cstdint", "#include <cuda/std/cstdint>\n"},
	    {"stdint.h", "#include <cuda/std/cstdint>\n"},
	    {"cstddef", "#include <cuda/std/cstddef>\n"},
	    {"stddef.h", "#include <cuda/std/cstddef>\n"},
	    {"climits", "#include <cuda/std/climits>\n"},
	    {"limits.h", "#include <cuda/std/climits>\n"},
	    {"cfloat", "#define FLT_MAX 3.402823466e+38F\n"
	               "#define FLT_MIN 1.175494351e-38F\n"
	               "#define FLT_EPSILON 1.192092896e-07F\n"
	               "#define DBL_MAX 1.7976931348623158e+308\n"},
	    {"float.h", "#define FLT_MAX 3.402823466e+38F\n"
	                "#define FLT_MIN 1.175494351e-38F\n"
	                "#define FLT_EPSILON 1.192092896e-07F\n"
	                "#define DBL_MAX 1.7976931348623158e+308\n"},
	    /* NVRTC has the math functions built in, not math.h's macros */
	    {"math.h", KT_MATH_MACROS},
	    {"cmath",
	     "#include <cuda/std/cmath>\n"
	     "namespace std { using namespace cuda::std; }\n" KT_MATH_MACROS},
	    /* glibc's short names of unsigned types (nvcc's host
	     * preprocessor brings them; NVRTC has no sys/types.h) */
	    {"sys/types.h", "typedef unsigned char u_char;\n"
	                    "typedef unsigned short ushort, u_short;\n"
	                    "typedef unsigned int uint, u_int;\n"
	                    "typedef unsigned long ulong, u_long;\n"},
	    /* the driver API is host code; its version macro is not */
	    {"cuda.h", KT_CUDA_VERSION},
	    /* the block- and warp-level parts of cub (see rtc_safe) */
	    {"cub/cub.cuh", KT_CUB_RTC},
	};
	/* C++ headers libcu++ has as <cuda/std/NAME>: std::NAME finds
	 * cuda::std's through a using-directive (a name std declares itself
	 * still wins, so nothing becomes ambiguous) */
	static const char *const cxx[][2] = {
#define KT_CXX(h)                                                              \
	{h, "#include <cuda/std/" h ">\n"                                      \
	    "namespace std { using namespace cuda::std; }\n"}
	    KT_CXX("array"),      KT_CXX("bit"),
	    KT_CXX("cmath"),      KT_CXX("complex"),
	    KT_CXX("cstdlib"),    KT_CXX("cstring"),
	    KT_CXX("functional"), KT_CXX("initializer_list"),
	    KT_CXX("iterator"),   KT_CXX("limits"),
	    KT_CXX("numeric"),    KT_CXX("optional"),
	    KT_CXX("ratio"),      KT_CXX("span"),
	    KT_CXX("tuple"),      KT_CXX("type_traits"),
	    KT_CXX("utility"),    KT_CXX("variant"),
#undef KT_CXX
	};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(h, map[i][0]))
			return map[i][1];
	for (size_t i = 0; i < sizeof(cxx) / sizeof(cxx[0]); i++)
		if (!strcmp(h, cxx[i][0]))
			return cxx[i][1];
	return NULL;
}

/* ---- the file's own headers, device side ---- */

static bool own(const kt_rewrite_file *f, const kt_rewrite_include *inc)
{
	return inc->header >= 0 && (size_t)inc->header < f->nheaders;
}

/* A header's include NVRTC can take as it is (own ones: see header_ok). */
static bool include_ok(const kt_rewrite_include *inc)
{
	kt_rewrite_include as_angled = *inc;
	as_angled.angled = true; /* a `"..."` one that is not an own header */
	return inc->guarded || rtc_safe(&as_angled);
}

/*
 * NVRTC compiles own header h whole: none of its declarations is host-only
 * and all it includes, own headers transitively, is NVRTC's. state[h]: 0
 * unknown, 1 being decided (a cycle: include guards end it), 2 yes, 3 no.
 */
static bool header_ok(const kt_rewrite_file *f, int h, unsigned char *state)
{
	if (state[h])
		return state[h] != 3;
	state[h] = 1;
	bool ok = true;
	for (size_t i = 0; i < f->nhdecls && ok; i++)
		ok = f->hdecls[i].in != h || !f->hdecls[i].host_only;
	for (size_t i = 0; i < f->nhincludes && ok; i++) {
		const kt_rewrite_include *inc = &f->hincludes[i];
		if (inc->in == h)
			ok = own(f, inc) ? !inc->angled &&
			                       header_ok(f, inc->header, state)
			                 : include_ok(inc);
	}
	state[h] = ok ? 2 : 3;
	return ok;
}

/* Whether NVRTC may see an include of the file as it is. */
static bool file_include_ok(const kt_rewrite_file *f,
                            const kt_rewrite_include *inc)
{
	if (!own(f, inc))
		return rtc_safe(inc);
	if (inc->angled) /* found through a -I that `ktc tune` lacks */
		return false;
	unsigned char *state = kt_calloc(f->nheaders, 1);
	bool ok = state && header_ok(f, inc->header, state);
	kt_free(state);
	return ok;
}

static int header_rtc(kt_str *s, const kt_rewrite_file *f,
                      const kt_rewrite_include *by, bool *seen);

/* What NVRTC gets for a header's include: own headers inline (a `"..."`
 * path is the includer's, not the file's), the others as for the file. */
static int include_rtc(kt_str *s, const kt_rewrite_file *f,
                       const kt_rewrite_include *inc, const char *text,
                       bool *seen)
{
	const char *alt = rtc_else(inc->spelled);
	if (own(f, inc))
		return header_rtc(s, f, inc, seen);
	if (include_ok(inc))
		return kt_str_addf(
		    s, "%.*s",
		    (int)(inc->range.end.offset - inc->range.begin.offset),
		    text + inc->range.begin.offset);
	return alt && !strstr(s->ptr, alt) ? kt_str_adds(s, alt) : 0;
}

/* What nvcc's headers declare for device code and NVRTC does not: GNU's
 * `__extension__` (it only silences warnings) and the runtime's device
 * functions, with the definitions cuda_device_runtime_api.h gives nvcc. */
static const char *const rtc_lacks[][2] = {
    {"__extension__", "#define __extension__ /* not NVRTC's */\n"},
    {"CUDA_VERSION", KT_CUDA_VERSION},
    {"cudaGridDependencySynchronize",
     "static inline __device__ void cudaGridDependencySynchronize(void)\n"
     "{\n\tasm volatile(\"griddepcontrol.wait;\" ::: \"memory\");\n}\n"},
    {"cudaTriggerProgrammaticLaunchCompletion",
     "static inline __device__ void "
     "cudaTriggerProgrammaticLaunchCompletion(void)\n"
     "{\n\tasm volatile(\"griddepcontrol.launch_dependents;\" :::);\n}\n"},
};

/*
 * The device side of the own header that `by` includes, once per file
 * (seen[h]): its text without its host-only declarations, its includes
 * replaced as above. Its macros, conditionals and device code stay as
 * written.
 */
static int header_rtc(kt_str *s, const kt_rewrite_file *f,
                      const kt_rewrite_include *by, bool *seen)
{
	int h = by->header;
	if (seen[h])
		return 0;
	seen[h] = true;
	const kt_rewrite_header *hd = &f->headers[h];
	size_t at = 0, d = 0, i = 0;
	int rc =
	    kt_str_addf(s, "// ktc: the device side of \"%s\"\n", by->spelled);
	for (size_t k = 0; !rc && k < sizeof(rtc_lacks) / sizeof(*rtc_lacks);
	     k++)
		if (strstr(hd->text, rtc_lacks[k][0]) &&
		    !strstr(s->ptr, rtc_lacks[k][1]))
			rc = kt_str_adds(s, rtc_lacks[k][1]);
	for (;;) {
		while (d < f->nhdecls && f->hdecls[d].in != h)
			d++;
		while (i < f->nhincludes && f->hincludes[i].in != h)
			i++;
		const kt_rewrite_decl *dc =
		    d < f->nhdecls ? &f->hdecls[d] : NULL;
		const kt_rewrite_include *ic =
		    i < f->nhincludes ? &f->hincludes[i] : NULL;
		if (rc || (!dc && !ic))
			break;
		bool inc = ic && (!dc || ic->range.begin.offset <
		                             dc->range.begin.offset);
		kt_range r = inc ? ic->range : dc->range;
		if (r.begin.offset >= at)
			rc = kt_str_addf(s, "%.*s", (int)(r.begin.offset - at),
			                 hd->text + at);
		if (!rc && inc && r.begin.offset >= at)
			rc = include_rtc(s, f, ic, hd->text, seen);
		if (r.end.offset > at)
			at = r.end.offset;
		inc ? i++ : d++;
	}
	if (!rc && at < hd->len)
		rc = kt_str_addf(s, "%.*s", (int)(hd->len - at), hd->text + at);
	if (!rc && s->len && s->ptr[s->len - 1] != '\n')
		rc = kt_str_adds(s, "\n");
	return rc;
}

/* What NVRTC gets for the file's include inc (seen: own headers given). */
static int rtc_include(kt_str *s, const kt_rewrite_file *f,
                       const kt_rewrite_include *inc, bool *seen)
{
	const char *alt = rtc_else(inc->spelled);
	if (file_include_ok(f, inc))
		return kt_str_addf(
		    s, inc->angled ? "#include <%s>\n" : "#include \"%s\"\n",
		    inc->spelled);
	if (own(f, inc))
		return header_rtc(s, f, inc, seen);
	return alt && !strstr(s->ptr, alt) ? kt_str_adds(s, alt) : 0;
}

/* Stand-ins for the C headers device code takes names from, where the
 * NVRTC view s does not have them yet. */
static int std_standins(kt_str *s, const kt_rewrite_file *f)
{
	int rc = 0;
	for (size_t k = 0; k < f->nstd && !rc; k++) {
		const char *alt = rtc_else(f->std[k]);
		if (alt && !(s->ptr && strstr(s->ptr, alt)))
			rc = kt_str_adds(s, alt);
	}
	return rc;
}

int kt_rw_rtc_includes(kt_str *s, const kt_rewrite_file *f)
{
	bool *seen = kt_calloc(f->nheaders + 1, sizeof(bool));
	int rc = seen ? 0 : KT_ENOMEM;
	for (size_t i = 0; i < f->nincludes && !rc; i++)
		if (!f->includes[i].guarded) /* else NVRTC never sees it */
			rc = rtc_include(s, f, &f->includes[i], seen);
	if (!rc)
		rc = std_standins(s, f);
	kt_free(seen);
	return rc ? rc : kt_str_adds(s, "#define " KT_RTC_HEADERS_GIVEN "\n");
}

/* Includes to guard: NVRTC cannot compile them and nothing guards them. */
static bool needs_guard(const kt_rewrite_file *f, const kt_rewrite_include *inc)
{
	return !inc->guarded && !file_include_ok(f, inc);
}

static int guard_includes(gen *g)
{
	const kt_rewrite_file *f = g->f;
	bool *seen = kt_calloc(f->nheaders + 1, sizeof(bool));
	if (!seen)
		return KT_ENOMEM;
	int rc = 0;
	bool stood_in = false;
	for (size_t i = 0; i < f->nincludes && !rc; i++) {
		if (!needs_guard(f, &f->includes[i]))
			continue;
		size_t j = i;
		while (j + 1 < f->nincludes &&
		       needs_guard(f, &f->includes[j + 1]) &&
		       only_space(f->text, f->includes[j].range.end.offset,
		                  f->includes[j + 1].range.begin.offset))
			j++;
		kt_str alt = KT_STR_INIT;
		for (size_t k = i; k <= j && !rc; k++)
			rc = rtc_include(&alt, f, &f->includes[k], seen);
		if (!rc && !stood_in) /* the first group's branch */
			rc = std_standins(&alt, f);
		stood_in = true;
		char *close = kt_arena_printf(
		    g->arena, "%s%s#endif\n",
		    alt.len ? "#elif !defined(" KT_RTC_HEADERS_GIVEN ")\n" : "",
		    alt.ptr);
		kt_str_release(&alt);
		size_t open = kt_rw_line_start(
		    f->text, f->includes[i].range.begin.offset);
		size_t end = directive_next(f->text, f->len,
		                            f->includes[j].range.begin.offset);
		if (rc || !close ||
		    insert_ranked(g, open, "#ifndef __CUDACC_RTC__\n", -1,
		                  R_OPEN) ||
		    insert_ranked(g, end, close, -1, R_CLOSE))
			rc = KT_ENOMEM;
		i = j;
	}
	kt_free(seen);
	return rc;
}

static int guard_host_decls(gen *g)
{
	const kt_rewrite_file *f = g->f;
	for (size_t i = 0; i < f->ndecls; i++) {
		if (!f->decls[i].host_only || f->decls[i].guarded)
			continue;
		size_t j = i;
		while (j + 1 < f->ndecls && f->decls[j + 1].host_only &&
		       !f->decls[j + 1].guarded &&
		       only_space(
		           f->text, f->decls[j].range.end.offset,
		           kt_rw_line_start(
		               f->text, f->decls[j + 1].range.begin.offset)))
			j++;
		size_t b = f->decls[i].range.begin.offset;
		size_t e = f->decls[j].range.end.offset;
		size_t ls = kt_rw_line_start(f->text, b);
		int rc = only_space(f->text, ls, b)
		             ? insert_ranked(g, ls, "#ifndef __CUDACC_RTC__\n",
		                             -1, R_OPEN)
		             : insert_ranked(g, b, "\n#ifndef __CUDACC_RTC__\n",
		                             -1, R_OPEN);
		size_t next =
		    kt_rw_line_next(f->text, f->len, e > b ? e - 1 : e);
		bool eol = next > 0 && f->text[next - 1] == '\n';
		if (!rc)
			rc = only_space(f->text, e, next)
			         ? insert_ranked(
			               g, next, eol ? "#endif\n" : "\n#endif\n",
			               -1, R_CLOSE)
			         : insert_ranked(g, e, "\n#endif\n", -1,
			                         R_CLOSE);
		if (rc)
			return rc;
		i = j;
	}
	return 0;
}

/* ---- parameters ---- */

static const kt_plan_use *macro_use(const kt_plan_param *pp)
{
	for (size_t u = 0; u < pp->nuses; u++)
		if (pp->uses[u].site == KT_SITE_MACRO)
			return &pp->uses[u];
	return NULL;
}

static bool has_unroll(const kt_plan_param *pp)
{
	for (size_t u = 0; u < pp->nuses; u++)
		if (pp->uses[u].site == KT_SITE_PRAGMA_UNROLL)
			return true;
	return false;
}

static void unit_error(gen *g, size_t i, kt_range r, const char *fmt,
                       const char *a, const char *b)
{
	kt_diags_add(g->diags, KT_DIAG_WARNING, g->f->path, g->f->text,
	             r.begin.line, r.begin.col,
	             (int)(r.end.offset - r.begin.offset), fmt, a, b);
	g->sel->bad[i] = true;
	g->failed = true;
}

/* The name `#define NAME` at the directive holding off defines, or NULL. */
static char *defined_name(gen *g, size_t off)
{
	const char *t = g->f->text;
	size_t p = directive_start(t, off);
	while (t[p] == ' ' || t[p] == '\t')
		p++;
	if (t[p++] != '#')
		return NULL;
	while (t[p] == ' ' || t[p] == '\t')
		p++;
	if (strncmp(t + p, "define", 6))
		return NULL;
	p += 6;
	while (t[p] == ' ' || t[p] == '\t')
		p++;
	size_t n = 0;
	while (isalnum((unsigned char)t[p + n]) || t[p + n] == '_')
		n++;
	return n ? kt_arena_strndup(g->arena, t + p, n) : NULL;
}

/* `#define NAME VALUE` becomes `#ifndef NAME` / the define / `#endif`. */
static int guard_macro(gen *g, size_t i, const kt_plan_use *u)
{
	const kt_plan_param *pp = &g->p->params[i];
	char *name = defined_name(g, u->range.begin.offset);
	if (!name || strcmp(name, pp->name)) {
		unit_error(g, i, u->range,
		           "parameter '%s': the literal is not the value of "
		           "'#define %s'",
		           pp->name, pp->name);
		return 0;
	}
	size_t s = directive_start(g->f->text, u->range.begin.offset);
	size_t e = directive_next(g->f->text, g->f->len, u->range.begin.offset);
	char *open = kt_arena_printf(g->arena, "#ifndef %s\n", pp->name);
	/* OpenCL C's compiler (clang) expands a macro in `#pragma unroll
	 * N`; nvcc does not, so CUDA's pragma names a constant */
	char *close = has_unroll(pp) && !g->f->opencl
	                  ? kt_arena_printf(g->arena,
	                                    "#endif\nconstexpr int "
	                                    "kt_unroll_%s = %s;\n",
	                                    pp->name, pp->name)
	                  : dup(g, "#endif\n");
	if (!open || !close || insert_ranked(g, s, open, (int)i, R_OPEN) ||
	    insert_ranked(g, e, close, (int)i, R_CLOSE))
		return KT_ENOMEM;
	return 0;
}

/* The type an integer literal's suffix gives it (`256u`: "unsigned"),
 * or NULL for none: a parameter written in its place keeps that type,
 * so that `constexpr auto kBlock = 256u;` stays unsigned and arithmetic
 * and template deduction over it do not change. */
static const char *suffix_type(const char *t, size_t n)
{
	size_t k = n;
	while (k > 0 && strchr("uUlL", t[k - 1]))
		k--;
	if (k == n || k == 0 || !isdigit((unsigned char)t[0]))
		return NULL;
	for (size_t j = 1; j < k; j++)
		if (!isxdigit((unsigned char)t[j]) && t[j] != 'x' &&
		    t[j] != 'X' && t[j] != '\'')
			return NULL;
	bool u = false;
	int l = 0;
	for (size_t j = k; j < n; j++) {
		if (t[j] == 'u' || t[j] == 'U')
			u = true;
		else
			l++;
	}
	static const char *const type[2][3] = {
	    {NULL, "long", "long long"},
	    {"unsigned", "unsigned long", "unsigned long long"}};
	return l <= 2 ? type[u][l] : NULL;
}

static char *subst_off(gen *g, const char *s);

static int replace_uses(gen *g, size_t i)
{
	const kt_plan_param *pp = &g->p->params[i];
	for (size_t k = 0; k < pp->nuses; k++) {
		const kt_plan_use *u = &pp->uses[k];
		const char *with = u->with;
		if (u->site == KT_SITE_MACRO) {
			if (guard_macro(g, i, u))
				return KT_ENOMEM;
			continue;
		}
		/* a text that names another parameter (a grid's step, the
		 * block times a thread's items) reads it at its default
		 * where that one is switched off */
		if (with && !(with = subst_off(g, with)))
			return KT_ENOMEM;
		if (u->site == KT_SITE_PRAGMA_UNROLL && !g->f->opencl)
			with =
			    kt_arena_printf(g->arena, "kt_unroll_%s", pp->name);
		if (!with) {
			unit_error(g, i, u->range,
			           "parameter '%s': a use at site '%s' has no "
			           "replacement",
			           pp->name, kt_site_name(u->site));
			continue;
		}
		const char *ty =
		    u->site == KT_SITE_PRAGMA_UNROLL
		        ? NULL
		        : suffix_type(g->f->text + u->range.begin.offset,
		                      u->range.end.offset -
		                          u->range.begin.offset);
		if (ty &&
		    !(with = kt_arena_printf(g->arena, "((%s)(%s))", ty, with)))
			return KT_ENOMEM;
		if (add_edit(g, u->range.begin.offset, u->range.end.offset,
		             with, (int)i))
			return KT_ENOMEM;
	}
	return 0;
}

static char *subst_off(gen *g, const char *s);

/* With keep_lines, the launch bounds of parameter i's refactor (f) as
 * the macro kt_lb_NAME, so the kernel's declaration keeps its lines. */
static int bounds_macro(gen *g, kt_str *s, size_t i)
{
	const char *name = g->p->params[i].name;
	for (size_t k = 0; k < g->p->nrefactors; k++) {
		const kt_plan_refactor *r = &g->p->refactors[k];
		if (r->kind != KT_REFACTOR_LAUNCH_BOUNDS ||
		    strcmp(r->param, name))
			continue;
		const char *mt =
		    r->max_threads ? subst_off(g, r->max_threads) : "?";
		return mt ? kt_str_addf(s,
		                        "#if %s > 0\n#define kt_lb_%s "
		                        "__launch_bounds__(%s, %s)\n#else\n"
		                        "#define kt_lb_%s\n#endif\n",
		                        name, name, mt, name, name)
		          : KT_ENOMEM;
	}
	return 0;
}

/* The declarations of the parameters that are not macros of the file. */
static int param_block(gen *g, kt_str *s)
{
	int rc = 0;
	for (size_t i = 0; i < g->p->nparams && !rc; i++) {
		const kt_plan_param *pp = &g->p->params[i];
		if (!g->sel->on[i] || macro_use(pp))
			continue;
		rc = kt_str_addf(s,
		                 "#ifndef %s\n#define %s %" PRId64 "\n#endif\n",
		                 pp->name, pp->name, pp->def);
		if (!rc && has_unroll(pp) && !g->f->opencl)
			rc =
			    kt_str_addf(s, "constexpr int kt_unroll_%s = %s;\n",
			                pp->name, pp->name);
		if (!rc && g->sel->keep_lines)
			rc = bounds_macro(g, s, i);
	}
	return rc;
}

static bool use_first(const kt_plan_param *pp, size_t *first)
{
	bool any = false;
	for (size_t u = 0; u < pp->nuses; u++)
		if (pp->uses[u].site != KT_SITE_MACRO &&
		    pp->uses[u].range.begin.offset < *first) {
			*first = pp->uses[u].range.begin.offset;
			any = true;
		}
	return any;
}

/*
 * Where the parameter block goes: after the last #include before the first
 * use (not one inside the file's own host-only branch), else at the start
 * of the declaration holding the first use.
 */
static size_t block_place(gen *g, size_t first, bool *after_include)
{
	const kt_rewrite_file *f = g->f;
	size_t at = SIZE_MAX;
	for (size_t i = 0; i < f->nincludes; i++)
		if (f->includes[i].range.end.offset <= first &&
		    !f->includes[i].guarded)
			at = directive_next(f->text, f->len,
			                    f->includes[i].range.begin.offset);
	*after_include = at != SIZE_MAX;
	if (at != SIZE_MAX)
		return at;
	for (size_t i = 0; i < f->ndecls; i++)
		if (f->decls[i].range.begin.offset <= first &&
		    first < f->decls[i].range.end.offset)
			return kt_rw_line_start(f->text,
			                        f->decls[i].range.begin.offset);
	return kt_rw_line_start(f->text, first);
}

static int declare_params(gen *g, const char *helpers)
{
	size_t first = SIZE_MAX;
	for (size_t i = 0; i < g->p->nparams; i++)
		if (g->sel->on[i])
			use_first(&g->p->params[i], &first);
	for (size_t k = 0; k < g->p->nkernels; k++)
		if (g->p->kernels[k].range.begin.offset < first)
			first = g->p->kernels[k].range.begin.offset;
	kt_str s = KT_STR_INIT;
	int rc = param_block(g, &s);
	if (!rc && helpers)
		rc = kt_str_adds(&s, helpers);
	if (rc || s.len == 0 || first == SIZE_MAX) {
		kt_str_release(&s);
		return rc;
	}
	bool after_include;
	size_t at = block_place(g, first, &after_include);
	char *text = after_include ? kt_arena_printf(g->arena, "\n%s", s.ptr)
	                           : kt_arena_printf(g->arena, "%s\n", s.ptr);
	kt_str_release(&s);
	return text ? insert_ranked(g, at, text, -1, R_BLOCK) : KT_ENOMEM;
}

/* ---- refactors ---- */

static bool overlaps(const kt_edit *x, const kt_edit *y)
{
	if (x->begin == x->end)
		return y->begin < x->begin && x->begin < y->end;
	if (y->begin == y->end)
		return x->begin < y->begin && y->begin < x->end;
	return x->begin < y->end && y->begin < x->end;
}

/*
 * Copies text[b, e) with the collected edits inside it applied, and the
 * extra edits, which win over collected edits they overlap (a subscript
 * replaced whole takes the edits inside it along).
 */
static char *sub_apply(gen *g, size_t b, size_t e, const kt_edit *extra,
                       size_t nextra)
{
	edit_vec in = {0};
	kt_str out = KT_STR_INIT;
	char *res = NULL;
	for (size_t i = 0; i < g->edits.len; i++) {
		kt_edit x = g->edits.items[i];
		bool hidden =
		    x.tag == -2 || x.begin < b || x.end > e ||
		    (x.begin == x.end && (x.begin == b || x.begin == e));
		for (size_t k = 0; k < nextra && !hidden; k++)
			hidden = overlaps(&x, &extra[k]) ||
			         (x.begin >= extra[k].begin &&
			          x.end <= extra[k].end);
		if (hidden)
			continue;
		x.begin -= b, x.end -= b;
		if (kt_vec_push(&in, x))
			goto done;
	}
	for (size_t i = 0; i < nextra; i++) {
		kt_edit x = extra[i];
		x.begin -= b, x.end -= b;
		if (kt_vec_push(&in, x))
			goto done;
	}
	if (kt_edit_apply(&out, g->f->text + b, e - b, in.items, in.len, NULL))
		goto done;
	res = kt_arena_strdup(g->arena, out.ptr);
done:
	kt_vec_release(&in);
	kt_str_release(&out);
	return res;
}

/* Marks the collected edits inside [b, e) as used by a region rewrite. */
static void consume(gen *g, size_t b, size_t e)
{
	for (size_t i = 0; i < g->edits.len; i++) {
		kt_edit *x = &g->edits.items[i];
		if (x->begin >= b && x->end <= e &&
		    !(x->begin == x->end && (x->begin == b || x->begin == e)))
			x->tag = -2;
	}
}

/* Offset of the '=' of `T var = init;` inside the declaration, or 0. */
static size_t init_equals(gen *g, kt_range decl, const char *var)
{
	const char *t = g->f->text;
	size_t n = strlen(var);
	for (size_t p = decl.begin.offset; p + n < decl.end.offset; p++) {
		bool word =
		    !strncmp(t + p, var, n) &&
		    (p == 0 ||
		     !(isalnum((unsigned char)t[p - 1]) || t[p - 1] == '_')) &&
		    !(isalnum((unsigned char)t[p + n]) || t[p + n] == '_');
		if (!word)
			continue;
		for (size_t q = p + n; q < decl.end.offset; q++)
			if (t[q] == '=' && t[q + 1] != '=')
				return q;
		return 0;
	}
	return 0;
}

/* One more tab on each line of [b, e) that a new loop now holds; the
 * preprocessor's lines stay where they are. */
static int indent(gen *g, size_t i, size_t b, size_t e)
{
	const char *t = g->f->text;
	for (size_t at = kt_rw_line_next(t, g->f->len, b); at < e;
	     at = kt_rw_line_next(t, g->f->len, at)) {
		size_t p = at;
		while (t[p] == ' ' || t[p] == '\t')
			p++;
		if (t[p] != '#' && t[p] != '\n' && p < e &&
		    insert(g, at, "\t", (int)i))
			return KT_ENOMEM;
	}
	return 0;
}

/* Checks what items_per_thread and grid_stride need of the file. */
static bool shape_ok(gen *g, size_t i, const kt_plan_refactor *r, size_t *eq)
{
	const char *t = g->f->text;
	kt_range body = r->region, d = r->index_decl;
	if (t[body.begin.offset] != '{' || t[body.end.offset - 1] != '}') {
		unit_error(g, i, body,
		           "refactor '%s' of '%s': the region is not the "
		           "kernel's body",
		           kt_refactor_kind_name(r->kind), r->kernel);
		return false;
	}
	*eq = r->index_var ? init_equals(g, d, r->index_var) : 0;
	if (!*eq || t[d.end.offset - 1] != ';' ||
	    d.begin.offset <= body.begin.offset ||
	    d.end.offset >= body.end.offset) {
		unit_error(g, i, d,
		           "refactor '%s': index_decl is not a declaration "
		           "'T %s = ...;' in the kernel's body",
		           kt_refactor_kind_name(r->kind),
		           r->index_var ? r->index_var : "?");
		return false;
	}
	return true;
}

/*
 * (c1) each thread handles NAME elements a grid's width apart, so the
 * grid shrinks by NAME; at NAME = 1 this is the original kernel.
 */
static int items_per_thread(gen *g, size_t i, const kt_plan_refactor *r)
{
	const char *name = g->p->params[i].name;
	const char *t = g->f->text;
	size_t eq;
	if (!shape_ok(g, i, r, &eq))
		return 0;
	kt_range body = r->region, d = r->index_decl;
	size_t init = eq + 1;
	while (t[init] == ' ' || t[init] == '\t')
		init++;
	char *loop =
	    kt_arena_printf(g->arena,
	                    "\n#pragma unroll\n\tfor (int kt_item = 0; "
	                    "kt_item < %s; kt_item++) {",
	                    name);
	char *grid = kt_arena_printf(g->arena, ") + %s - 1) / %s)", name, name);
	if (!loop || !grid || insert(g, body.begin.offset + 1, loop, (int)i) ||
	    insert(g, init, "(", (int)i) ||
	    add_edit(g, d.end.offset - 1, d.end.offset,
	             ") + kt_item * gridDim.x * blockDim.x;", (int)i) ||
	    indent(g, i, body.begin.offset + 1, body.end.offset - 1) ||
	    insert(g, body.end.offset - 1, "\t}\n", (int)i) ||
	    insert(g, r->grid.begin.offset, "(((", (int)i) ||
	    insert(g, r->grid.end.offset, grid, (int)i))
		return KT_ENOMEM;
	return 0;
}

/*
 * text with `drop` removed after each newline (it stood at the region's
 * indentation) and `add` put there instead.
 */
static char *reindent(gen *g, const char *text, const char *drop,
                      const char *add)
{
	kt_str s = KT_STR_INIT;
	size_t nd = strlen(drop);
	int rc = 0;
	for (const char *p = text; *p && !rc; p++) {
		rc = kt_str_addc(&s, *p);
		if (*p != '\n')
			continue;
		if (!strncmp(p + 1, drop, nd))
			p += nd;
		if (p[1] != '\n' && p[1] != '#')
			rc = rc ? rc : kt_str_adds(&s, add);
	}
	char *res = rc ? NULL : kt_arena_strdup(g->arena, s.ptr);
	kt_str_release(&s);
	return res;
}

/* The statements of a body `{ ... }` after the edits, one level deeper
 * by `add` (the braces and the blank lines around them left out). */
static char *inner(gen *g, kt_range body, const kt_edit *extra, size_t nextra,
                   const char *add)
{
	const char *t = g->f->text;
	size_t b = body.begin.offset + 1, e = body.end.offset - 1;
	if (t[b] == '\n')
		b++;
	while (e > b &&
	       (t[e - 1] == ' ' || t[e - 1] == '\t' || t[e - 1] == '\n'))
		e--;
	char *text = sub_apply(g, b, e, extra, nextra);
	char *deeper = text ? reindent(g, text, "", add) : NULL;
	return deeper && *deeper != '#'
	           ? kt_arena_printf(g->arena, "%s%s", add, deeper)
	           : deeper;
}

/*
 * (c2) a grid-stride loop; the grid parameter's default 0 keeps the
 * original grid and, through `if constexpr`, the original body.
 */
static int grid_stride(gen *g, size_t i, const kt_plan_refactor *r)
{
	const char *name = g->p->params[i].name;
	const char *t = g->f->text;
	size_t eq;
	if (!shape_ok(g, i, r, &eq))
		return 0;
	kt_range body = r->region, d = r->index_decl;
	size_t db = d.begin.offset, de = d.end.offset;
	if (!strncmp(t + db, "const", 5) && isspace((unsigned char)t[db + 5]))
		db += 6; /* the loop changes the index */
	char *decl = sub_apply(g, db, de, NULL, 0);
	/* the loop declares the index: its line goes, when it is alone */
	size_t ls = kt_rw_line_start(t, d.begin.offset);
	size_t ln = kt_rw_line_next(t, g->f->len, de - 1);
	kt_edit drop = {d.begin.offset, de, "", (int)i, R_CODE};
	if (only_space(t, ls, d.begin.offset) && only_space(t, de, ln))
		drop.begin = ls, drop.end = ln;
	char *loop_body = inner(g, body, &drop, 1, "\t\t");
	char *orig = inner(g, body, NULL, 0, "\t");
	if (!decl || !loop_body || !orig)
		return KT_ENOMEM;
	char *text = kt_arena_printf(
	    g->arena,
	    "{\n\tif constexpr (%s > 0) {\n\t\tfor (%s %s < (%s); %s += "
	    "gridDim.x * blockDim.x) {\n%s\n\t\t}\n\t} else {\n%s\n\t}\n}",
	    name, decl, r->index_var, r->bound ? r->bound : "?", r->index_var,
	    loop_body, orig);
	char *open = kt_arena_printf(g->arena, "(%s > 0 ? %s : (", name, name);
	if (!text || !open)
		return KT_ENOMEM;
	consume(g, body.begin.offset, body.end.offset);
	if (add_edit(g, body.begin.offset, body.end.offset, text, (int)i) ||
	    insert(g, r->grid.begin.offset, open, (int)i) ||
	    insert(g, r->grid.end.offset, "))", (int)i))
		return KT_ENOMEM;
	return 0;
}

/* ---- (b) vectorize ---- */

/* The helper that names an unsigned vector type of N bytes. */
static const char vec_helper[] =
    "template <int N> struct kt_vec;\n"
    "template <> struct kt_vec<1> { typedef unsigned char t; };\n"
    "template <> struct kt_vec<2> { typedef unsigned short t; };\n"
    "template <> struct kt_vec<4> { typedef unsigned int t; };\n"
    "template <> struct kt_vec<8> { typedef uint2 t; };\n"
    "template <> struct kt_vec<16> { typedef uint4 t; };\n";

static const kt_rewrite_loop *find_loop(gen *g, kt_range region)
{
	for (size_t i = 0; i < g->f->nloops; i++)
		if (g->f->loops[i].stmt.begin.offset == region.begin.offset &&
		    g->f->loops[i].stmt.end.offset == region.end.offset)
			return &g->f->loops[i];
	return NULL;
}

static const kt_plan_access *access_of(const kt_plan_refactor *r,
                                       const char *name)
{
	for (size_t i = 0; i < r->narrays; i++)
		if (!strcmp(r->arrays[i].name, name))
			return &r->arrays[i];
	return NULL;
}

/* What a subscript of a loop body becomes (arena text), "" when it stays,
 * NULL when out of memory. */
typedef const char *(*sub_with_fn)(gen *g, const kt_plan_refactor *r,
                                   const kt_rewrite_loop *l,
                                   const kt_rewrite_subscript *sub);

/* The loop body with its subscripts replaced as with() says. */
static char *body_with(gen *g, const kt_plan_refactor *r,
                       const kt_rewrite_loop *l, sub_with_fn with)
{
	edit_vec ex = {0};
	char *res = NULL;
	for (size_t i = 0; i < g->f->nsubscripts; i++) {
		const kt_rewrite_subscript *sub = &g->f->subscripts[i];
		if (sub->range.begin.offset < l->body.begin.offset ||
		    sub->range.end.offset > l->body.end.offset)
			continue;
		const char *w = with(g, r, l, sub);
		kt_edit e = {sub->range.begin.offset, sub->range.end.offset, w,
		             -1, R_CODE};
		if (!w || (*w && kt_vec_push(&ex, e)))
			goto done;
	}
	res = sub_apply(g, l->body.begin.offset, l->body.end.offset, ex.items,
	                ex.len);
done:
	kt_vec_release(&ex);
	return res;
}

/* The registers of vectorized array a: `kt_a`, or `kt_a_reg` where that
 * is a name the vector loops declare themselves (an array `v` or `e`). */
static const char *vec_reg(gen *g, const char *a)
{
	static const char *const own[] = {"v", "e", "aligned", "nvec"};
	for (size_t i = 0; i < sizeof own / sizeof *own; i++)
		if (!strcmp(a, own[i]))
			return kt_arena_printf(g->arena, "kt_%s_reg", a);
	return kt_arena_printf(g->arena, "kt_%s", a);
}

/* An access to a vectorized array: its register. */
static const char *vector_register(gen *g, const kt_plan_refactor *r,
                                   const kt_rewrite_loop *l,
                                   const kt_rewrite_subscript *sub)
{
	(void)l;
	const char *reg = access_of(r, sub->base) ? vec_reg(g, sub->base) : "";
	return reg && *reg ? kt_arena_printf(g->arena, "%s[kt_e]", reg) : reg;
}

/* `kt_vec<VEC * SIZE>::t`, and `&a[offset + kt_v * VEC]`, as text. */
/* The bytes of one element of array a: its own type's (`sizeof(T)`,
 * arrays of several types), else the refactor's elem_size. */
static const char *elem_bytes(gen *g, const kt_plan_refactor *r,
                              const kt_plan_access *a)
{
	return a->type ? kt_arena_printf(g->arena, "sizeof(%s)", a->type)
	               : kt_arena_printf(g->arena, "%d", r->elem_size);
}

static int vec_moves(gen *g, kt_str *s, const kt_plan_refactor *r,
                     const char *name, bool load)
{
	int rc = 0;
	for (size_t i = 0; i < r->narrays && !rc; i++) {
		const kt_plan_access *a = &r->arrays[i];
		if (load ? !a->load : !a->store)
			continue;
		const char *off = a->offset ? a->offset : "0";
		const char *vt = "typename kt_vec<";
		const char *es = elem_bytes(g, r, a);
		const char *reg = vec_reg(g, a->name);
		if (!es || !reg)
			return KT_ENOMEM;
		if (load)
			rc = kt_str_addf(
			    s,
			    "\t\t*reinterpret_cast<%s%s * %s>::t *>(%s) "
			    "= *reinterpret_cast<const %s%s * %s>::t *>("
			    "&%s[(%s) + kt_v * %s]);\n",
			    vt, name, es, reg, vt, name, es, a->name, off,
			    name);
		else
			rc = kt_str_addf(
			    s,
			    "\t\t*reinterpret_cast<%s%s * %s>::t *>(&%s[(%s) "
			    "+ kt_v * %s]) = *reinterpret_cast<%s%s * "
			    "%s>::t *>(%s);\n",
			    vt, name, es, a->name, off, name, vt, name, es,
			    reg);
	}
	return rc;
}

static int vec_head(gen *g, kt_str *s, const kt_plan_refactor *r,
                    const char *name, const char *bound)
{
	int rc = kt_str_addf(s, "else {\n\tconst bool kt_aligned = ");
	bool typed = r->narrays && r->arrays[0].type;
	if (!typed) /* one element size: the addresses' bits together */
		rc = kt_str_addf(s, "((");
	for (size_t i = 0; i < r->narrays && !rc; i++) {
		const char *off =
		    r->arrays[i].offset ? r->arrays[i].offset : "0";
		const char *es = elem_bytes(g, r, &r->arrays[i]);
		rc = !es ? KT_ENOMEM
		     : typed
		         ? kt_str_addf(s,
		                       "%s(reinterpret_cast<size_t>(&%s[%s]) "
		                       "%% (%s * %s)) == 0",
		                       i ? " && " : "", r->arrays[i].name, off,
		                       name, es)
		         : kt_str_addf(s, "%sreinterpret_cast<size_t>(&%s[%s])",
		                       i ? " | " : "", r->arrays[i].name, off);
	}
	if (!rc && !typed)
		rc = kt_str_addf(s, ") %% (%s * %d)) == 0", name, r->elem_size);
	if (!rc)
		rc = kt_str_addf(s,
		                 ";\n\tconst int kt_nvec "
		                 "= kt_aligned ? (int)((%s) / %s) : 0;\n",
		                 bound, name);
	return rc;
}

/* The region's pieces, after the edits inside them, at indentation 0. */
typedef struct vec_parts {
	char *orig, *start, *step, *bound, *plain, *vbody;
	const char *semi;   /* ";" when the loop's body is an expression */
	const char *pragma; /* the loop's `#pragma unroll` line, or "" */
} vec_parts;

static int vec_parts_get(gen *g, const kt_plan_refactor *r,
                         const kt_rewrite_loop *l, const char *ind,
                         vec_parts *v)
{
	kt_range rg = r->region;
	v->orig = sub_apply(g, rg.begin.offset, rg.end.offset, NULL, 0);
	v->start =
	    sub_apply(g, l->start.begin.offset, l->start.end.offset, NULL, 0);
	v->step =
	    sub_apply(g, l->step.begin.offset, l->step.end.offset, NULL, 0);
	v->bound =
	    sub_apply(g, l->bound.begin.offset, l->bound.end.offset, NULL, 0);
	v->plain =
	    sub_apply(g, l->body.begin.offset, l->body.end.offset, NULL, 0);
	v->vbody = body_with(g, r, l, vector_register);
	if (!v->orig || !v->start || !v->step || !v->bound || !v->plain ||
	    !v->vbody)
		return KT_ENOMEM;
	v->orig = reindent(g, v->orig, ind, "\t");
	v->plain = reindent(g, v->plain, ind, "");
	v->vbody = reindent(g, v->vbody, ind, "\t\t");
	return v->orig && v->plain && v->vbody ? 0 : KT_ENOMEM;
}

static int vec_moves_cl(gen *g, kt_str *s, const kt_plan_refactor *r,
                        const char *name, bool in);

/* The vector loop, the element loop over its registers and the scalar
 * tail, shared by the CUDA and the OpenCL C forms (their moves differ). */
static int vec_loops(gen *g, kt_str *s, const kt_plan_refactor *r,
                     const kt_rewrite_loop *l, const char *name,
                     const vec_parts *v, bool cl)
{
	int rc = kt_str_addf(s,
	                     "%s\tfor (int kt_v = %s; kt_v < kt_nvec; kt_v "
	                     "+= %s) {\n",
	                     v->pragma, v->start, v->step);
	for (size_t k = 0; k < r->narrays && !rc; k++) {
		const char *reg = vec_reg(g, r->arrays[k].name);
		rc = !reg ? KT_ENOMEM
		          : kt_str_addf(s, "\t\t%s %s[%s];\n",
		                        r->arrays[k].type ? r->arrays[k].type
		                                          : r->elem_type,
		                        reg, name);
	}
	if (!rc)
		rc = cl ? vec_moves_cl(g, s, r, name, true)
		        : vec_moves(g, s, r, name, true);
	if (!rc)
		rc = kt_str_addf(
		    s,
		    "#pragma unroll\n\t\tfor (int kt_e = 0; kt_e < "
		    "%s; kt_e++) {\n\t\t\tconst %s %s = kt_v * %s "
		    "+ kt_e;\n\t\t\t(void)%s;\n\t\t\t%s%s\n\t\t}\n",
		    name, l->var_type, l->var, name, l->var, v->vbody, v->semi);
	if (!rc)
		rc = cl ? vec_moves_cl(g, s, r, name, false)
		        : vec_moves(g, s, r, name, false);
	if (!rc)
		rc = kt_str_addf(
		    s,
		    "\t}\n%s\tfor (%s %s = kt_nvec * %s + (%s); %s "
		    "< (%s); %s += %s)\n\t\t%s%s\n}",
		    v->pragma, l->var_type, l->var, name, v->start, l->var,
		    v->bound, l->var, v->step, v->plain, v->semi);
	return rc;
}

static int vec_text(gen *g, kt_str *s, const kt_plan_refactor *r,
                    const kt_rewrite_loop *l, const char *name,
                    const vec_parts *v)
{
	int rc = kt_str_addf(s, "if constexpr (%s == 1)\n%s\t%s%s\n", name,
	                     v->pragma, v->orig, v->semi);
	if (!rc)
		rc = vec_head(g, s, r, name, v->bound);
	return rc ? rc : vec_loops(g, s, r, l, name, v, false);
}

/* OpenCL C's vector moves: vloadN / vstoreN, N the parameter's value
 * (pasted after the parameter's macro is expanded). */
static const char vec_helper_cl[] = "#define KT_VLOAD_(n) vload##n\n"
                                    "#define KT_VLOAD(n) KT_VLOAD_(n)\n"
                                    "#define KT_VSTORE_(n) vstore##n\n"
                                    "#define KT_VSTORE(n) KT_VSTORE_(n)\n";

/* `KT_VSTORE(VEC)(KT_VLOAD(VEC)(0, from), 0, to)` for each array moved. */
static int vec_moves_cl(gen *g, kt_str *s, const kt_plan_refactor *r,
                        const char *name, bool load)
{
	int rc = 0;
	for (size_t i = 0; i < r->narrays && !rc; i++) {
		const kt_plan_access *a = &r->arrays[i];
		if (load ? !a->load : !a->store)
			continue;
		const char *off = a->offset ? a->offset : "0";
		const char *reg = vec_reg(g, a->name);
		rc = !reg   ? KT_ENOMEM
		     : load ? kt_str_addf(s,
		                          "\t\tKT_VSTORE(%s)(KT_VLOAD(%s)(0, "
		                          "&%s[(%s) + kt_v * %s]), 0, %s);\n",
		                          name, name, a->name, off, name, reg)
		            : kt_str_addf(s,
		                          "\t\tKT_VSTORE(%s)(KT_VLOAD(%s)(0, "
		                          "%s), 0, &%s[(%s) + kt_v * %s]);\n",
		                          name, name, reg, a->name, off, name);
	}
	return rc;
}

/*
 * vec_text in OpenCL C: the parameter is a macro, so `#if` keeps the
 * original loop at 1 (no `if constexpr`); addresses are tested as
 * integers and the moves are vloadN / vstoreN into the registers.
 */
static int vec_text_cl(gen *g, kt_str *s, const kt_plan_refactor *r,
                       const kt_rewrite_loop *l, const char *name,
                       const vec_parts *v)
{
	/* the original loop stands at the region's indentation here, not
	 * one step inside as under CUDA's `if constexpr` */
	char *orig = reindent(g, v->orig, "\t", "");
	if (!orig)
		return KT_ENOMEM;
	int rc = kt_str_addf(s, "#if %s == 1\n%s%s%s\n#else\n{\n", name,
	                     v->pragma, orig, v->semi);
	if (!rc)
		rc = kt_str_adds(s, "\tconst bool kt_aligned = ((");
	for (size_t i = 0; i < r->narrays && !rc; i++)
		rc = kt_str_addf(
		    s, "%s(size_t)(&%s[%s])", i ? " | " : "", r->arrays[i].name,
		    r->arrays[i].offset ? r->arrays[i].offset : "0");
	if (!rc)
		rc = kt_str_addf(s,
		                 ") %% (%s * %d)) == 0;\n\tconst int kt_nvec "
		                 "= kt_aligned ? (int)((%s) / %s) : 0;\n",
		                 name, r->elem_size, v->bound, name);
	if (!rc)
		rc = vec_loops(g, s, r, l, name, v, true);
	if (!rc)
		rc = kt_str_adds(s, "\n#endif");
	return rc;
}

/* The start of a `#pragma unroll` line just before line ls, or SIZE_MAX:
 * the pragma belongs to the loop that the refactor replaces. */
static size_t unroll_before(gen *g, size_t ls, size_t loop)
{
	const char *t = g->f->text;
	if (ls == 0 || !only_space(t, ls, loop))
		return SIZE_MAX;
	size_t pl = kt_rw_line_start(t, ls - 1), p = pl;
	while (t[p] == ' ' || t[p] == '\t')
		p++;
	if (t[p++] != '#')
		return SIZE_MAX;
	while (t[p] == ' ' || t[p] == '\t')
		p++;
	return !strncmp(t + p, "pragma", 6) && strstr(t + p, "unroll") &&
	               strstr(t + p, "unroll") < t + ls
	           ? pl
	           : SIZE_MAX;
}

/*
 * (b) the loop handles vectors of NAME elements: aligned vector loads
 * into registers, the body once per element, aligned vector stores, then
 * a scalar tail. NAME = 1 keeps the original loop (`if constexpr`).
 */
static int vectorize(gen *g, size_t i, const kt_plan_refactor *r)
{
	const char *name = g->p->params[i].name;
	const char *t = g->f->text;
	const kt_rewrite_loop *l = find_loop(g, r->region);
	if (!l || strcmp(l->var, r->index_var ? r->index_var : "")) {
		unit_error(g, i, r->region,
		           "refactor 'vectorize' of '%s': the region is not a "
		           "loop 'for (T %s = a; i < b; i += c)'",
		           r->kernel, r->index_var ? r->index_var : "i");
		return 0;
	}
	kt_range rg = r->region;
	size_t ls = kt_rw_line_start(t, rg.begin.offset), end = rg.end.offset;
	size_t begin = rg.begin.offset;
	char *ind = kt_arena_strndup(g->arena, t + ls, rg.begin.offset - ls);
	vec_parts v = {.semi = "", .pragma = ""};
	if (end < g->f->len && t[end] == ';')
		v.semi = ";", end++; /* the body's `;` is not in the range */
	size_t pl = unroll_before(g, ls, rg.begin.offset);
	if (pl != SIZE_MAX) { /* it must stay on the loop(s) */
		v.pragma = sub_apply(g, pl, ls, NULL, 0);
		begin = pl;
	}
	/* OpenCL C's `#if` starts its line */
	bool cl = g->f->opencl;
	if (cl && pl == SIZE_MAX)
		begin = ls;
	kt_str s = KT_STR_INIT;
	int rc = ind && v.pragma ? vec_parts_get(g, r, l, ind, &v) : KT_ENOMEM;
	if (!rc && pl != SIZE_MAX && !cl)
		rc = kt_str_adds(&s, ind);
	if (!rc)
		rc = g->f->opencl ? vec_text_cl(g, &s, r, l, name, &v)
		                  : vec_text(g, &s, r, l, name, &v);
	char *text = rc ? NULL : reindent(g, s.ptr, "", ind);
	kt_str_release(&s);
	if (!text)
		return KT_ENOMEM;
	consume(g, begin, end);
	g->vec_helper = true;
	return add_edit(g, begin, end, text, (int)i);
}

/* ---- (d) row split, (e) hoist loads, (f) launch bounds ---- */

/* The loop a row_split or hoist_loads refactor names, or NULL (said). */
static const kt_rewrite_loop *row_loop(gen *g, size_t i,
                                       const kt_plan_refactor *r)
{
	const kt_rewrite_loop *l = find_loop(g, r->region);
	if (!l || strcmp(l->var, r->index_var ? r->index_var : "")) {
		unit_error(g, i, r->region,
		           "refactor '%s' of '%s': the region is not a loop "
		           "'for (T i = a; i < b; i += c)'",
		           kt_refactor_kind_name(r->kind), r->kernel);
		return NULL;
	}
	return l;
}

/* Replaces range x by fmt with its text (after the edits inside) as %s. */
static int wrap_range(gen *g, size_t i, kt_range x, const char *fmt)
{
	char *in = sub_apply(g, x.begin.offset, x.end.offset, NULL, 0);
	char *with = in ? kt_arena_printf(g->arena, fmt, in) : NULL;
	if (!with)
		return KT_ENOMEM;
	consume(g, x.begin.offset, x.end.offset);
	return add_edit(g, x.begin.offset, x.end.offset, with, (int)i);
}

/* The grid of the launch is made dim3(G, NAME) once, by the first
 * row_split of the parameter that names it. */
static bool first_grid(gen *g, const kt_plan_refactor *r)
{
	for (size_t k = 0; k < g->p->nrefactors; k++) {
		const kt_plan_refactor *q = &g->p->refactors[k];
		if (q->kind == r->kind && !strcmp(q->param, r->param) &&
		    q->grid.begin.offset == r->grid.begin.offset)
			return q == r;
	}
	return false;
}

/*
 * (d) NAME blocks share a row along y: the loop starts at blockIdx.y *
 * blockDim.x + a and strides by c * gridDim.y, which at NAME = 1 folds to
 * the original (`NAME == 1 ? 0 : ...`); any other launch of the kernel
 * (gridDim.y = 1) still covers every column.
 */
static int row_split(gen *g, size_t i, const kt_plan_refactor *r)
{
	const char *name = g->p->params[i].name;
	const kt_rewrite_loop *l = row_loop(g, i, r);
	if (!l)
		return 0;
	char *start = kt_arena_printf(
	    g->arena, "%%s + (%s == 1 ? 0 : blockIdx.y * blockDim.x)", name);
	char *step = kt_arena_printf(g->arena,
	                             "(%%s) * (%s == 1 ? 1 : gridDim.y)", name);
	char *close = kt_arena_printf(g->arena, ", %s)", name);
	if (!start || !step || !close || wrap_range(g, i, l->start, start) ||
	    wrap_range(g, i, l->step, step))
		return KT_ENOMEM;
	/* a `#pragma kt launch` line's grid takes the second dimension
	 * as it is: `grid(G, NAME)` */
	bool line = r->launch < 0;
	if (line)
		close[strlen(close) - 1] = '\0';
	if (first_grid(g, r) &&
	    ((!line && insert(g, r->grid.begin.offset, "dim3(", (int)i)) ||
	     insert(g, r->grid.end.offset, close, (int)i)))
		return KT_ENOMEM;
	return 0;
}

/*
 * The sum of v over the blocks of a thread-block cluster (sm_90): each
 * thread's value goes to a shared slot of its own, the cluster meets,
 * each thread adds the slots of its index in every block of the cluster
 * in rank order (so every block gets the same bits), and the cluster
 * meets again before a block may leave or reuse the slots. Every thread
 * of every block of the cluster calls it at the same point.
 */
static const char cluster_helper[] =
    "template <typename T>\n"
    "__device__ __forceinline__ T kt_cluster_sum(T v, unsigned n)\n"
    "{\n"
    "\t__shared__ T kt_slot[1024];\n"
    "\tconst unsigned t =\n"
    "\t    threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * "
    "threadIdx.z);\n"
    "\tkt_slot[t] = v;\n"
    "\tasm volatile(\"barrier.cluster.arrive.release.aligned;\\n\\t\"\n"
    "\t             \"barrier.cluster.wait.acquire.aligned;\" ::: "
    "\"memory\");\n"
    "\tT s = v;\n"
    "\tfor (unsigned r = 0; r < n; r++) {\n"
    "\t\tunsigned long long p;\n"
    "\t\tasm volatile(\"mapa.u64 %0, %1, %2;\" : \"=l\"(p)\n"
    "\t\t             : \"l\"(&kt_slot[t]), \"r\"(r));\n"
    "\t\tconst T x = *reinterpret_cast<volatile T *>(p);\n"
    "\t\ts = r ? s + x : x;\n"
    "\t}\n"
    "\tasm volatile(\"barrier.cluster.arrive.release.aligned;\\n\\t\"\n"
    "\t             \"barrier.cluster.wait.acquire.aligned;\" ::: "
    "\"memory\");\n"
    "\treturn s;\n"
    "}\n";

/*
 * (m) a row split over a cluster: the loop as (d) splits it; after it,
 * under `#if NAME > 1`, each of its sums added up over the cluster; and,
 * once per kernel, `__cluster_dims__(1, NAME, 1)` before the kernel's
 * name, under the same condition. NAME = 1 is the kernel as written.
 */
static int cluster_split(gen *g, size_t i, const kt_plan_refactor *r)
{
	const char *name = g->p->params[i].name;
	const char *t = g->f->text;
	bool first = first_grid(g, r);
	int rc = row_split(g, i, r);
	if (rc || !find_loop(g, r->region))
		return rc;
	if (first) {
		char *dims = kt_arena_printf(
		    g->arena,
		    "\n#if %s > 1\n__cluster_dims__(1, %s, 1)\n#endif\n", name,
		    name);
		if (!dims || insert(g, r->block.begin.offset, dims, (int)i))
			return KT_ENOMEM;
	}
	if (!r->narrays)
		return 0;
	size_t ls = kt_rw_line_start(t, r->region.begin.offset), ie = ls;
	while (t[ie] == ' ' || t[ie] == '\t')
		ie++;
	size_t end = r->region.end.offset;
	if (end < g->f->len && t[end] == ';')
		end++;
	kt_str s = KT_STR_INIT;
	rc = kt_str_addf(&s, "\n#if %s > 1", name);
	for (size_t k = 0; k < r->narrays && !rc; k++)
		rc = kt_str_addf(&s, "\n%.*s%s = kt_cluster_sum(%s, %s);",
		                 (int)(ie - ls), t + ls, r->arrays[k].name,
		                 r->arrays[k].name, name);
	if (!rc)
		rc = kt_str_adds(&s, "\n#endif");
	char *text = rc ? NULL : dup(g, s.ptr);
	kt_str_release(&s);
	if (!text)
		return KT_ENOMEM;
	g->cluster_helper = true;
	return insert(g, end, text, (int)i);
}

/* The subscript's index, blanks left out ("off+i"), in a. */
static bool index_is(gen *g, const kt_rewrite_subscript *sub, const char *off,
                     const char *var)
{
	const char *t = g->f->text;
	size_t b = sub->range.begin.offset + strlen(sub->base);
	size_t e = sub->range.end.offset;
	while (b < e && t[b] != '[')
		b++;
	if (b >= e || t[e - 1] != ']')
		return false;
	kt_str want = KT_STR_INIT, have = KT_STR_INIT;
	for (const char *p = off ? off : ""; *p; p++)
		if (!isspace((unsigned char)*p))
			kt_str_addc(&want, *p);
	if (off)
		kt_str_addc(&want, '+');
	kt_str_adds(&want, var);
	for (size_t p = b + 1; p < e - 1; p++)
		if (!isspace((unsigned char)t[p]))
			kt_str_addc(&have, t[p]);
	bool same = want.ptr && have.ptr && !strcmp(want.ptr, have.ptr);
	kt_str_release(&want);
	kt_str_release(&have);
	return same;
}

/* The lines a loop refactor replaces: from the loop's `#pragma unroll`
 * line (or the loop's line) to its end, with the `;` of an expression
 * body; the loop's indentation and pragma text. */
typedef struct loop_span {
	size_t begin, end;
	const char *ind, *pragma, *semi;
} loop_span;

/* False (said, or out of memory: *rc) when the statement (a loop, or the
 * `if` of a warp_scan) does not start its line. */
static bool loop_span_of(gen *g, size_t i, const kt_plan_refactor *r,
                         loop_span *sp, int *rc)
{
	const char *t = g->f->text;
	kt_range rg = r->region;
	size_t ls = kt_rw_line_start(t, rg.begin.offset);
	*rc = 0;
	if (!only_space(t, ls, rg.begin.offset)) {
		unit_error(g, i, rg,
		           "refactor '%s' of '%s': the statement does not "
		           "start its line",
		           kt_refactor_kind_name(r->kind), r->kernel);
		return false;
	}
	*sp = (loop_span){ls, rg.end.offset, NULL, "", ""};
	if (sp->end < g->f->len && t[sp->end] == ';')
		sp->semi = ";", sp->end++;
	size_t pl = unroll_before(g, ls, rg.begin.offset);
	if (pl != SIZE_MAX) {
		sp->pragma = sub_apply(g, pl, ls, NULL, 0);
		sp->begin = pl;
	}
	sp->ind = kt_arena_strndup(g->arena, t + ls, rg.begin.offset - ls);
	if (!sp->ind || !sp->pragma)
		*rc = KT_ENOMEM;
	return !*rc;
}

/* A hoisted load: the register it was read into. */
static const char *hoisted_register(gen *g, const kt_plan_refactor *r,
                                    const kt_rewrite_loop *l,
                                    const kt_rewrite_subscript *sub)
{
	for (size_t k = 0; k < r->narrays; k++)
		if (!strcmp(r->arrays[k].name, sub->base) &&
		    index_is(g, sub, r->arrays[k].offset, l->var))
			return kt_arena_printf(g->arena, "kt_ld%zu[kt_j]", k);
	return "";
}

static int hoist_text(gen *g, kt_str *s, const kt_plan_refactor *r,
                      const kt_rewrite_loop *l, const char *name,
                      const vec_parts *v)
{
	int rc = kt_str_addf(s, "#if %s == 1\n%s%s%s\n#else\n", name, v->pragma,
	                     v->orig, v->semi);
	if (!rc)
		rc = kt_str_addf(
		    s,
		    "%sfor (%s kt_i = %s; kt_i < (%s); kt_i += (%s) "
		    "* %s) {\n",
		    v->pragma, l->var_type, v->start, v->bound, v->step, name);
	for (size_t k = 0; k < r->narrays && !rc; k++)
		rc = kt_str_addf(s, "\t%s kt_ld%zu[%s];\n", r->arrays[k].type,
		                 k, name);
	const char *each =
	    "#pragma unroll\n\tfor (int kt_j = 0; kt_j < %s; kt_j++) {\n"
	    "\t\tconst %s %s = kt_i + kt_j * (%s);\n"
	    "\t\tif (%s < (%s))";
	if (!rc)
		rc = kt_str_addf(s, each, name, l->var_type, l->var, v->step,
		                 l->var, v->bound);
	if (!rc)
		rc = kt_str_adds(s, " {\n");
	for (size_t k = 0; k < r->narrays && !rc; k++) {
		const kt_plan_access *a = &r->arrays[k];
		rc = a->offset
		         ? kt_str_addf(
		               s, "\t\t\tkt_ld%zu[kt_j] = %s[(%s) + %s];\n", k,
		               a->name, a->offset, l->var)
		         : kt_str_addf(s, "\t\t\tkt_ld%zu[kt_j] = %s[%s];\n", k,
		                       a->name, l->var);
	}
	if (!rc)
		rc = kt_str_adds(s, "\t\t}\n\t}\n");
	if (!rc)
		rc = kt_str_addf(s, each, name, l->var_type, l->var, v->step,
		                 l->var, v->bound);
	/* a braced body stays on the guard's line */
	if (!rc)
		rc = kt_str_addf(s, "%s%s%s\n\t}\n}\n#endif",
		                 *v->vbody == '{' ? " " : "\n\t\t\t", v->vbody,
		                 v->semi);
	return rc;
}

/*
 * (e) each thread loads NAME iterations' inputs into registers, then
 * computes and stores them, the tail guarded by the loop's bound: ptxas
 * does not move a load above an earlier iteration's store, so the
 * original has one load in flight per thread. NAME = 1 keeps the
 * original loop (`#if`).
 */
static int hoist_loads(gen *g, size_t i, const kt_plan_refactor *r)
{
	const char *name = g->p->params[i].name;
	const kt_rewrite_loop *l = row_loop(g, i, r);
	if (!l)
		return 0;
	kt_range rg = r->region;
	loop_span sp;
	int rc;
	if (!loop_span_of(g, i, r, &sp, &rc))
		return rc;
	const char *ind = sp.ind;
	size_t begin = sp.begin, end = sp.end;
	vec_parts v = {.semi = sp.semi, .pragma = sp.pragma};
	v.orig = sub_apply(g, rg.begin.offset, rg.end.offset, NULL, 0);
	v.start =
	    sub_apply(g, l->start.begin.offset, l->start.end.offset, NULL, 0);
	v.step =
	    sub_apply(g, l->step.begin.offset, l->step.end.offset, NULL, 0);
	v.bound =
	    sub_apply(g, l->bound.begin.offset, l->bound.end.offset, NULL, 0);
	v.vbody = body_with(g, r, l, hoisted_register);
	if (!v.orig || !v.start || !v.step || !v.bound || !v.vbody ||
	    !(v.orig = reindent(g, v.orig, ind, "")) ||
	    !(v.vbody = reindent(g, v.vbody, ind,
	                         *v.vbody == '{' ? "\t\t" : "\t\t\t")))
		return KT_ENOMEM;
	kt_str s = KT_STR_INIT;
	rc = hoist_text(g, &s, r, l, name, &v);
	char *text = rc ? NULL : reindent(g, s.ptr, "", ind);
	kt_str_release(&s);
	if (!text)
		return KT_ENOMEM;
	consume(g, begin, end);
	return add_edit(g, begin, end, text, (int)i);
}

/*
 * (f) `__launch_bounds__(max_threads, NAME)` before the kernel's name,
 * under `#if NAME > 0`: NAME = 0, the default, is the kernel as written.
 */
static int launch_bounds(gen *g, size_t i, const kt_plan_refactor *r)
{
	const char *name = g->p->params[i].name;
	const char *t = g->f->text;
	size_t at = r->region.begin.offset;
	/* lines that keep their numbers (a kernel that prints __LINE__):
	 * the attribute is a macro the parameter block defines */
	if (g->sel->keep_lines) {
		char *use = kt_arena_printf(g->arena, "kt_lb_%s ", name);
		return use ? insert(g, at, use, (int)i) : KT_ENOMEM;
	}
	/* a block-size parameter that was dropped stands at its default */
	const char *mt = r->max_threads ? subst_off(g, r->max_threads) : "?";
	char *text = mt ? kt_arena_printf(g->arena,
	                                  "\n#if %s > 0\n__launch_bounds__(%s, "
	                                  "%s)\n#endif\n",
	                                  name, mt, name)
	                : NULL;
	if (!text)
		return KT_ENOMEM;
	/* the blank before the name becomes the line break */
	if (at > 0 && t[at - 1] == ' ')
		return add_edit(g, at - 1, at, text, (int)i);
	return insert(g, at, text, (int)i);
}

/*
 * (h) the kernel's body as written, with the edits inside it, under
 * `#if NAME == 0`, and the plan's new body under `#else`: NAME = 0, the
 * default, is the original kernel. The plan checker has made sure the new
 * body is one balanced `{ ... }` with no directive in it.
 */
static int variant(gen *g, size_t i, const kt_plan_refactor *r)
{
	const char *name = g->p->params[i].name;
	kt_range b = r->region;
	char *orig = sub_apply(g, b.begin.offset, b.end.offset, NULL, 0);
	char *text = orig
	                 ? kt_arena_printf(g->arena,
	                                   "\n#if %s == 0\n%s\n#else\n%s\n"
	                                   "#endif\n",
	                                   name, orig, r->body ? r->body : "{}")
	                 : NULL;
	if (!text)
		return KT_ENOMEM;
	consume(g, b.begin.offset, b.end.offset);
	return add_edit(g, b.begin.offset, b.end.offset, text, (int)i);
}

/* ---- (g) pack stores ---- */

/* The loop [b, e) with its store `A[off + var]` to the packed array
 * written to `kt_pk[var]` instead; "" when the loop does not hold exactly
 * one such subscript, NULL when out of memory. */
static char *packed_loop(gen *g, const kt_plan_refactor *r, size_t b, size_t e)
{
	const kt_plan_access *x = &r->arrays[0];
	const char *reg = kt_arena_printf(g->arena, "kt_pk[%s]", r->index_var);
	kt_edit ed = {0, 0, reg, -1, R_CODE};
	size_t found = 0;
	for (size_t i = 0; reg && i < g->f->nsubscripts; i++) {
		const kt_rewrite_subscript *sub = &g->f->subscripts[i];
		if (sub->range.begin.offset < b || sub->range.end.offset > e ||
		    strcmp(sub->base, x->name) ||
		    !index_is(g, sub, x->offset, r->index_var))
			continue;
		ed.begin = sub->range.begin.offset;
		ed.end = sub->range.end.offset;
		found++;
	}
	if (!reg)
		return NULL;
	return found == 1 ? sub_apply(g, b, e, &ed, 1) : "";
}

/*
 * (g) under `#if NAME` the loop writes its elements to an aligned
 * register array, then one vector of count * elem_size bytes goes to
 * `A[off]` (element by element where that address is not aligned);
 * `#else` the loop as it was.
 */
static int pack_stores(gen *g, size_t i, const kt_plan_refactor *r)
{
	const char *name = g->p->params[i].name;
	const kt_plan_access *x = &r->arrays[0];
	kt_range rg = r->region;
	long n = strtol(r->bound, NULL, 10);
	int bytes = (int)n * r->elem_size;
	loop_span sp;
	int rc;
	if (!loop_span_of(g, i, r, &sp, &rc))
		return rc;
	const char *ind = sp.ind, *pragma = sp.pragma, *semi = sp.semi;
	char *orig = sub_apply(g, rg.begin.offset, rg.end.offset, NULL, 0);
	char *packed = packed_loop(g, r, rg.begin.offset, rg.end.offset);
	if (!orig || !packed)
		return KT_ENOMEM;
	if (!*packed) {
		unit_error(g, i, rg,
		           "refactor 'pack_stores' of '%s': the loop does not "
		           "store to '%s' exactly once",
		           r->kernel, x->name);
		return 0;
	}
	if (!(orig = reindent(g, orig, ind, "")) ||
	    !(packed = reindent(g, packed, ind, "\t")))
		return KT_ENOMEM;
	const char *at = kt_arena_printf(g->arena, "%s[%s]", x->name,
	                                 x->offset ? x->offset : "0");
	kt_str s = KT_STR_INIT;
	rc = kt_str_addf(
	    &s,
	    "#if %s\n{\n\t__align__(%d) %s kt_pk[%ld];\n%s\t%s%s\n"
	    "\tif ((reinterpret_cast<size_t>(&%s) & %d) == 0)\n"
	    "\t\t*reinterpret_cast<kt_vec<%d>::t *>(&%s) =\n"
	    "\t\t    *reinterpret_cast<const kt_vec<%d>::t *>(kt_pk);\n"
	    "\telse\n\t\tfor (int kt_j = 0; kt_j < %ld; kt_j++)\n"
	    "\t\t\t%s[%s%skt_j] = kt_pk[kt_j];\n}\n#else\n%s%s%s\n#endif",
	    name, bytes, r->elem_type, n, pragma, packed, semi, at, bytes - 1,
	    bytes, at, bytes, n, x->name, x->offset ? x->offset : "",
	    x->offset ? " + " : "", pragma, orig, semi);
	char *text = rc || !at ? NULL : reindent(g, s.ptr, "", ind);
	kt_str_release(&s);
	if (!text)
		return KT_ENOMEM;
	consume(g, sp.begin, sp.end);
	g->vec_helper = true;
	return add_edit(g, sp.begin, sp.end, text, (int)i);
}

/*
 * (i), (l) a statement (the block's tree reduction, the one thread's
 * prefix sum) under `#if NAME == 0` as written, `#else` the plan's new
 * code: NAME = 0, the default, is the original kernel.
 */
static int new_code(gen *g, size_t i, const kt_plan_refactor *r)
{
	const char *name = g->p->params[i].name;
	kt_range rg = r->region;
	loop_span sp;
	int rc;
	if (!loop_span_of(g, i, r, &sp, &rc))
		return rc;
	char *orig = sub_apply(g, rg.begin.offset, rg.end.offset, NULL, 0);
	if (!orig || !(orig = reindent(g, orig, sp.ind, "")))
		return KT_ENOMEM;
	char *text = kt_arena_printf(
	    g->arena, "#if %s == 0\n%s%s%s\n#else\n%s\n#endif", name, sp.pragma,
	    orig, sp.semi, r->body ? r->body : "{}");
	if (!text || !(text = reindent(g, text, "", sp.ind)))
		return KT_ENOMEM;
	consume(g, sp.begin, sp.end);
	return add_edit(g, sp.begin, sp.end, text, (int)i);
}

/* ---- (n) fast division ---- */

static const kt_rewrite_division *division_at(gen *g, kt_range r)
{
	for (size_t i = 0; i < g->f->ndivisions; i++)
		if (g->f->divisions[i].range.begin.offset == r.begin.offset &&
		    g->f->divisions[i].range.end.offset == r.end.offset)
			return &g->f->divisions[i];
	return NULL;
}

/* The divisors of one fast_div: each its text and its magic's name. */
typedef struct divisors {
	const char *text[64], *magic[64];
	size_t n;
} divisors;

/* The magic of divisor text d (whitespace left out): `kt_fd_cols` for a
 * name (`blockDim.x`: kt_fd_blockDim_x), kt_fdN for anything else; NULL
 * when out of memory or past 64 divisors. */
static const char *magic_of(gen *g, divisors *v, const char *d)
{
	kt_str key = KT_STR_INIT;
	bool name = !isdigit((unsigned char)*d);
	for (const char *p = d; *p; p++)
		if (!isspace((unsigned char)*p)) {
			kt_str_addc(&key, *p);
			name = name && (ident_char(*p) || *p == '.');
		}
	char *k = key.ptr ? kt_arena_strdup(g->arena, key.ptr) : NULL;
	kt_str_release(&key);
	if (!k)
		return NULL;
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->text[i], k))
			return v->magic[i];
	if (v->n == sizeof(v->text) / sizeof(v->text[0]))
		return NULL;
	char *m = name ? kt_arena_printf(g->arena, "kt_fd_%s", k)
	               : kt_arena_printf(g->arena, "kt_fd%zu", v->n);
	if (!m)
		return NULL;
	for (char *p = m; *p; p++)
		*p = *p == '.' ? '_' : *p;
	v->text[v->n] = k;
	v->magic[v->n++] = m;
	return m;
}

/* One division `n / d` becomes `(NAME ? kt_fastdiv_div(n, M) : n / d)`,
 * the original as the default branch. */
static int fast_division(gen *g, size_t i, const kt_plan_refactor *r,
                         const kt_plan_edit *x, divisors *v, bool *bad)
{
	const char *name = g->p->params[i].name;
	const kt_rewrite_division *d = division_at(g, x->range);
	if (!d) {
		unit_error(
		    g, i, x->range,
		    "refactor 'fast_div' of '%s': '%s' is not a division "
		    "of int or unsigned int written in the file (one a "
		    "macro makes is not rewritten)",
		    r->kernel, x->text);
		*bad = true;
		return 0;
	}
	char *rhs =
	    sub_apply(g, d->rhs.begin.offset, d->rhs.end.offset, NULL, 0);
	char *lhs =
	    sub_apply(g, d->lhs.begin.offset, d->lhs.end.offset, NULL, 0);
	char *orig =
	    sub_apply(g, d->range.begin.offset, d->range.end.offset, NULL, 0);
	const char *m = rhs ? magic_of(g, v, rhs) : NULL;
	const char *fn = d->op == '/'     ? d->is_unsigned ? "udiv" : "div"
	                 : d->is_unsigned ? "umod"
	                                  : "mod";
	char *text =
	    lhs && orig && m
	        ? kt_arena_printf(g->arena, "(%s ? kt_fastdiv_%s(%s, %s) : %s)",
	                          name, fn, lhs, m, orig)
	        : NULL;
	if (!text)
		return KT_ENOMEM;
	consume(g, d->range.begin.offset, d->range.end.offset);
	return add_edit(g, d->range.begin.offset, d->range.end.offset, text,
	                (int)i);
}

/*
 * (m) each division of the edits under its ternary on NAME, and before
 * the statement `region` (its `#pragma unroll` line) one magic per
 * divisor: computed under `#if NAME`, `{0, 0, 0}` otherwise, where the
 * default branch of every division leaves it unread.
 */
static int fast_div(gen *g, size_t i, const kt_plan_refactor *r)
{
	const char *name = g->p->params[i].name;
	const char *t = g->f->text;
	kt_range rg = r->region;
	size_t ls = kt_rw_line_start(t, rg.begin.offset);
	if (!only_space(t, ls, rg.begin.offset)) {
		unit_error(g, i, rg,
		           "refactor '%s' of '%s': the statement does not "
		           "start its line",
		           "fast_div", r->kernel);
		return 0;
	}
	divisors v = {.n = 0};
	bool bad = false;
	for (size_t k = 0; k < r->nedits && !bad; k++) {
		int rc = fast_division(g, i, r, &r->edits[k], &v, &bad);
		if (rc)
			return rc;
	}
	if (bad)
		return 0;
	const char *ind =
	    kt_arena_strndup(g->arena, t + ls, rg.begin.offset - ls);
	kt_str s = KT_STR_INIT;
	int rc = kt_str_addf(&s, "#if %s\n", name);
	for (size_t k = 0; k < v.n && !rc; k++)
		rc = kt_str_addf(
		    &s, "%sconst kt_fastdiv %s = kt_fastdiv_new(%s);\n", ind,
		    v.magic[k], v.text[k]);
	rc = rc ? rc : kt_str_adds(&s, "#else\n");
	for (size_t k = 0; k < v.n && !rc; k++)
		rc = kt_str_addf(&s, "%sconst kt_fastdiv %s = {0, 0, 0};\n",
		                 ind, v.magic[k]);
	rc = rc ? rc : kt_str_adds(&s, "#endif\n");
	char *text = rc || !ind ? NULL : kt_arena_strdup(g->arena, s.ptr);
	kt_str_release(&s);
	if (!text)
		return KT_ENOMEM;
	size_t pl = unroll_before(g, ls, rg.begin.offset);
	g->fastdiv = true;
	return insert(g, pl != SIZE_MAX ? pl : ls, text, (int)i);
}

/*
 * (j) a warp per row: the kernel's body as written under `#if NAME == 0`,
 * the plan's warp-per-row body `#else` (as a variant), and the launch's
 * block operand `(NAME > 0 ? 32 * NAME : (B))`.
 */
static int warp_per_row(gen *g, size_t i, const kt_plan_refactor *r)
{
	const char *name = g->p->params[i].name;
	char *fmt =
	    kt_arena_printf(g->arena, "(%s > 0 ? 32 * %s : (%%s))", name, name);
	if (!fmt)
		return KT_ENOMEM;
	int rc = variant(g, i, r);
	return rc ? rc : wrap_range(g, i, r->block, fmt);
}

static int plain_edits(gen *g, size_t i, const kt_plan_refactor *r)
{
	for (size_t k = 0; k < r->nedits; k++)
		if (add_edit(g, r->edits[k].range.begin.offset,
		             r->edits[k].range.end.offset, r->edits[k].with,
		             (int)i))
			return KT_ENOMEM;
	return 0;
}

/* (k) the padding the source writes (`B + P`) is the edit's; an extent
 * with none (`B`, the region) gets ` + NAME` after it. */
static int pad_shared(gen *g, size_t i, const kt_plan_refactor *r)
{
	if (r->nedits)
		return plain_edits(g, i, r);
	char *text = kt_arena_printf(g->arena, " + %s", g->p->params[i].name);
	return text ? insert(g, r->region.end.offset, text, (int)i) : KT_ENOMEM;
}

/* (p) the ladder (the edit) becomes `(E % GPB == 0 ? GPB : (T)(E &
 * -E))`, E the refactor's `bound`, T its `elem_type`: the largest power
 * of two up to GPB that divides E, as the ladder for GPB its top. */
static int groups_per_block(gen *g, size_t i, const kt_plan_refactor *r)
{
	const char *E = r->bound, *P = g->p->params[i].name;
	char *text =
	    kt_arena_printf(g->arena, "(%s %% %s == 0 ? %s : (%s)(%s & -%s))",
	                    E, P, P, r->elem_type, E, E);
	/* the if-chain that set index_var: one assignment in its place (its
	 * last branch's `;` stays, or is written after a brace) */
	size_t b = r->edits[0].range.begin.offset,
	       e = r->edits[0].range.end.offset;
	if (text && r->index_var)
		text = kt_arena_printf(
		    g->arena, "%s = %s%s", r->index_var, text,
		    e > b && g->f->text[e - 1] == '}' ? ";" : "");
	if (!text)
		return KT_ENOMEM;
	return add_edit(g, r->edits[0].range.begin.offset,
	                r->edits[0].range.end.offset, text, (int)i);
}

/* pass 0: plain edits; 1: fast_div, whose divisions the regions of pass 2
 * copy; 2: refactors that rewrite a region they copy; 3: variants, which
 * copy the whole body with everything inside it. */
static int refactor(gen *g, const kt_plan_refactor *r, int pass)
{
	size_t i = 0;
	while (i < g->p->nparams && strcmp(g->p->params[i].name, r->param))
		i++;
	if (i == g->p->nparams || !g->sel->on[i])
		return 0;
	int want = r->kind == KT_REFACTOR_VARIANT ||
	                   r->kind == KT_REFACTOR_WARP_PER_ROW
	               ? 3
	           : r->kind == KT_REFACTOR_FAST_DIV ? 1
	           : r->kind == KT_REFACTOR_GRID_STRIDE ||
	                   r->kind == KT_REFACTOR_WARP_REDUCE ||
	                   r->kind == KT_REFACTOR_WARP_SCAN ||
	                   r->kind == KT_REFACTOR_VECTORIZE ||
	                   r->kind == KT_REFACTOR_HOIST_LOADS ||
	                   r->kind == KT_REFACTOR_PACK_STORES
	               ? 2
	               : 0;
	if (want != pass)
		return 0;
	const char *not_cl =
	    g->f->opencl ? kt_refactor_not_in_opencl(r->kind) : NULL;
	if (not_cl) {
		unit_error(g, i, r->region,
		           "refactor '%s' is not for OpenCL C: %s",
		           kt_refactor_kind_name(r->kind), not_cl);
		return 0;
	}
	switch (r->kind) {
	case KT_REFACTOR_STRIDE_FOLLOWS_BLOCK: return plain_edits(g, i, r);
	case KT_REFACTOR_ITEMS_PER_THREAD: {
		int rc = plain_edits(g, i, r);
		return rc ? rc : items_per_thread(g, i, r);
	}
	case KT_REFACTOR_GRID_STRIDE: {
		int rc = plain_edits(g, i, r);
		return rc ? rc : grid_stride(g, i, r);
	}
	case KT_REFACTOR_VECTORIZE: {
		int rc = plain_edits(g, i, r);
		return rc ? rc : vectorize(g, i, r);
	}
	case KT_REFACTOR_ROW_SPLIT: {
		int rc = plain_edits(g, i, r);
		return rc ? rc : row_split(g, i, r);
	}
	case KT_REFACTOR_CLUSTER_SPLIT: {
		int rc = plain_edits(g, i, r);
		return rc ? rc : cluster_split(g, i, r);
	}
	case KT_REFACTOR_HOIST_LOADS: {
		int rc = plain_edits(g, i, r);
		return rc ? rc : hoist_loads(g, i, r);
	}
	case KT_REFACTOR_LAUNCH_BOUNDS: {
		int rc = plain_edits(g, i, r);
		return rc ? rc : launch_bounds(g, i, r);
	}
	case KT_REFACTOR_PACK_STORES: {
		int rc = plain_edits(g, i, r);
		return rc ? rc : pack_stores(g, i, r);
	}
	case KT_REFACTOR_VARIANT: return variant(g, i, r);
	case KT_REFACTOR_WARP_REDUCE:
	case KT_REFACTOR_WARP_SCAN: return new_code(g, i, r);
	case KT_REFACTOR_WARP_PER_ROW: return warp_per_row(g, i, r);
	case KT_REFACTOR_PAD_SHARED: return pad_shared(g, i, r);
	case KT_REFACTOR_FAST_DIV: return fast_div(g, i, r);
	case KT_REFACTOR_THREADS_PER_GROUP: return plain_edits(g, i, r);
	case KT_REFACTOR_GROUPS_PER_BLOCK: return groups_per_block(g, i, r);
	default:
		unit_error(g, i, r->region,
		           "refactor '%s' of '%s' is not supported by this "
		           "rewriter",
		           kt_refactor_kind_name(r->kind), r->kernel);
		return 0;
	}
}

/* ---- the #pragma kt block before each kernel ---- */

/* A pragma or constraint with switched-off parameters at their default. */
static char *subst_off(gen *g, const char *s)
{
	kt_str out = KT_STR_INIT;
	for (const char *p = s; *p;) {
		size_t n = 0;
		if (isalpha((unsigned char)*p) || *p == '_')
			while (isalnum((unsigned char)p[n]) || p[n] == '_')
				n++;
		if (!n) {
			kt_str_addc(&out, *p++);
			continue;
		}
		size_t i = 0;
		for (; i < g->p->nparams; i++)
			if (!g->sel->on[i] &&
			    strlen(g->p->params[i].name) == n &&
			    !strncmp(g->p->params[i].name, p, n))
				break;
		if (i < g->p->nparams)
			kt_str_addf(&out, "%" PRId64, g->p->params[i].def);
		else
			kt_str_add(&out, p, n);
		p += n;
	}
	char *r = kt_arena_strdup(g->arena, out.ptr);
	kt_str_release(&out);
	return r;
}

static int param_lines(gen *g, kt_str *s, const char *kernel)
{
	int rc = 0;
	for (size_t i = 0; i < g->p->nparams && !rc; i++) {
		const kt_plan_param *pp = &g->p->params[i];
		if (!g->sel->on[i] || strcmp(pp->kernel, kernel))
			continue;
		const int64_t *v = g->sel->values && g->sel->values[i]
		                       ? g->sel->values[i]
		                       : pp->values;
		size_t nv = g->sel->values && g->sel->values[i]
		                ? g->sel->nvalues[i]
		                : pp->nvalues;
		rc = kt_str_addf(s, "#pragma kt param %s values(", pp->name);
		for (size_t k = 0; k < nv && !rc; k++)
			rc = kt_str_addf(s, "%s%" PRId64, k ? ", " : "", v[k]);
		if (!rc)
			rc =
			    kt_str_addf(s, ") default(%" PRId64 ")\n", pp->def);
		for (size_t k = 0; k < pp->nconstraints && !rc; k++) {
			char *c = subst_off(g, pp->constraints[k]);
			rc = c ? kt_str_addf(s, "#pragma kt constraint %s\n", c)
			       : KT_ENOMEM;
		}
	}
	return rc;
}

/* Where a pragma line goes in the kernel's block: `problem` lines first
 * (0), then the other lines (1), then the `arg` lines in the kernel's
 * parameter order (2 + the parameter's index), as the grammar wants them. */
static size_t slot(const kt_rewrite_decl *d, const char *line)
{
	if (!strncmp(line, "problem ", 8))
		return 0;
	if (!d || strncmp(line, "arg ", 4))
		return 1;
	const char *name = line + 4;
	size_t len = strcspn(name, " ");
	for (size_t i = 0; i < d->nparams; i++)
		if (strlen(d->params[i]) == len &&
		    !strncmp(d->params[i], name, len))
			return 2 + i;
	/* kt_argI: the planner's label of the I-th, unnamed, parameter */
	char *end;
	if (!strncmp(name, "kt_arg", 6) && isdigit((unsigned char)name[6])) {
		unsigned long i = strtoul(name + 6, &end, 10);
		if (end == name + len && i < d->nparams && !*d->params[i])
			return 2 + i;
	}
	return 1;
}

/* The derived pragmas, then the lines to complete, of one slot. */
static int lines_at(gen *g, kt_str *s, const char *kernel,
                    const kt_rewrite_decl *d, size_t at)
{
	int rc = 0;
	for (size_t i = 0; i < g->p->npragmas && !rc; i++) {
		const kt_plan_pragma *pr = &g->p->pragmas[i];
		if (strcmp(pr->kernel, kernel) || slot(d, pr->line) != at)
			continue;
		char *l = subst_off(g, pr->line);
		rc = l ? kt_str_addf(s, "#pragma kt %s\n", l) : KT_ENOMEM;
	}
	for (size_t i = 0; i < g->p->nneeds && !rc; i++) {
		const kt_plan_need *n = &g->p->needs[i];
		if (strcmp(n->kernel, kernel) || !n->suggest ||
		    slot(d, n->suggest) != at)
			continue;
		rc = kt_str_addf(s, KT_RW_TODO "%s\n", n->suggest);
	}
	return rc;
}

/* The plan's pragma lines and lines to complete for kernel k, by slot. */
static int other_lines(gen *g, kt_str *s, const kt_plan_kernel *k)
{
	const kt_rewrite_decl *d = NULL;
	for (size_t i = 0; i < g->f->ndecls && !d; i++)
		if (g->f->decls[i].kernel && g->f->decls[i].nparams &&
		    g->f->decls[i].range.begin.offset <=
		        k->range.begin.offset &&
		    k->range.begin.offset < g->f->decls[i].range.end.offset)
			d = &g->f->decls[i];
	size_t n = 2 + (d ? d->nparams : 0);
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++)
		rc = lines_at(g, s, k->name, d, i);
	return rc;
}

/* The kernel's first line: a template head or attributes come first. */
static size_t kernel_start(gen *g, const kt_plan_kernel *k)
{
	size_t b = k->range.begin.offset;
	for (size_t i = 0; i < g->f->ndecls; i++) {
		const kt_range *r = &g->f->decls[i].range;
		if (r->begin.offset < b && b < r->end.offset)
			b = r->begin.offset;
	}
	return kt_rw_line_start(g->f->text, b);
}

static int pragma_blocks(gen *g)
{
	for (size_t k = 0; k < g->p->nkernels; k++) {
		const kt_plan_kernel *kk = &g->p->kernels[k];
		kt_str s = KT_STR_INIT;
		int rc = param_lines(g, &s, kk->name);
		if (!rc)
			rc = other_lines(g, &s, kk);
		char *text =
		    !rc && s.len ? kt_arena_strdup(g->arena, s.ptr) : NULL;
		kt_str_release(&s);
		if (rc)
			return rc;
		if (text &&
		    insert_ranked(g, kernel_start(g, kk), text, -1, R_PRAGMAS))
			return KT_ENOMEM;
	}
	return 0;
}

/* ---- the whole file ---- */

static int collect_units(gen *g)
{
	int rc = 0;
	for (size_t i = 0; i < g->p->nparams && !rc; i++)
		if (g->sel->on[i])
			rc = replace_uses(g, i);
	for (int pass = 0; pass < 4; pass++)
		for (size_t r = 0; r < g->p->nrefactors && !rc; r++)
			rc = refactor(g, &g->p->refactors[r], pass);
	return rc;
}

/*
 * For keep_lines: an edit that ends a line where the original starts one
 * (an insertion of whole lines: a guard, a parameter block, a header's
 * device side) gets `#line N` after it, N the original's number of the
 * line that follows. Not after a line continued with a backslash, where a
 * directive cannot stand.
 */
static bool whole_lines(const gen *g, const kt_edit *e)
{
	const char *t = g->f->text;
	size_t len = e->text ? strlen(e->text) : 0;
	return len && e->text[len - 1] == '\n' &&
	       (e->end == 0 || t[e->end - 1] == '\n') &&
	       (e->end < 2 || t[e->end - 2] != '\\');
}

typedef struct at_edit {
	size_t end, i;
} at_edit;

static int cmp_at_edit(const void *a, const void *b)
{
	const at_edit *x = a, *y = b;
	return (x->end > y->end) - (x->end < y->end);
}

/* line_marker for every edit that needs one: the original's lines are
 * counted once, in the order of the edits' ends. */
static int line_markers(gen *g, kt_edit *edits, size_t n)
{
	at_edit *ix = kt_calloc(n + 1, sizeof(*ix));
	if (!ix)
		return KT_ENOMEM;
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (whole_lines(g, &edits[i]))
			ix[m++] = (at_edit){edits[i].end, i};
	qsort(ix, m, sizeof(*ix), cmp_at_edit);
	const char *t = g->f->text;
	size_t at = 0;
	int line = 1, rc = 0;
	for (size_t k = 0; k < m && !rc; k++) {
		for (; at < ix[k].end; at++)
			line += t[at] == '\n';
		kt_edit *e = &edits[ix[k].i];
		e->text =
		    kt_arena_printf(g->arena, "%s#line %d\n", e->text, line);
		rc = e->text ? 0 : KT_ENOMEM;
	}
	kt_free(ix);
	return rc;
}

/* The helpers the refactors need (vectors, fast division), or NULL. */
static const char *helpers(gen *g)
{
	const char *v = !g->vec_helper ? ""
	                : g->f->opencl ? vec_helper_cl
	                               : vec_helper;
	const char *d = g->fastdiv ? kt_fastdiv_helper : "";
	const char *c = g->cluster_helper ? cluster_helper : "";
	return *v || *d || *c ? kt_arena_printf(g->arena, "%s%s%s", v, d, c)
	                      : NULL;
}

int kt_rw_generate(kt_str *out, const kt_plan *p, const kt_rewrite_file *f,
                   const kt_rw_select *sel, kt_diags *diags)
{
	kt_arena arena = KT_ARENA_INIT;
	gen g = {.p = p, .f = f, .sel = sel, .arena = &arena, .diags = diags};
	int rc = collect_units(&g);
	if (!rc && g.failed)
		rc = KT_EINVALID; /* the driver switches the bad units off */
	if (!rc)
		rc = guard_includes(&g);
	if (!rc)
		rc = declare_params(&g, helpers(&g));
	if (!rc)
		rc = guard_host_decls(&g);
	if (!rc && sel->pragmas)
		rc = pragma_blocks(&g);
	/* edits a region rewrite took over are dropped here */
	size_t n = 0;
	for (size_t i = 0; i < g.edits.len; i++)
		if (g.edits.items[i].tag != -2)
			g.edits.items[n++] = g.edits.items[i];
	if (!rc && sel->keep_lines)
		rc = line_markers(&g, g.edits.items, n);
	int conflict[2];
	if (!rc)
		rc = kt_edit_apply(out, f->text, f->len, g.edits.items, n,
		                   conflict);
	if (rc == KT_EINVALID && !g.failed)
		rc = kt_error(KT_EINVALID, "the plan's edits overlap: %s",
		              kt_error_last());
	kt_vec_release(&g.edits);
	kt_arena_release(&arena);
	return rc;
}
