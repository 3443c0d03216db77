/*
 * parse.c - one CUDA file -> one libclang translation unit.
 *
 * Flags come from compile_commands.json (given with -p, or found by
 * walking up from the file as clang tools do); only what changes the
 * meaning of the source is kept from it (-I, -isystem, -D, -U, -include,
 * -std), because the command is usually nvcc's and ktc parses with clang.
 * The parse is the device side (--cuda-device-only): kernels are seen with
 * __CUDA_ARCH__ defined, as nvcc compiles them, and host functions with
 * their launch sites are parsed all the same.
 *
 * CUDA 13 removed headers that clang 19's CUDA wrapper still includes
 * (texture_fetch_functions.h) and cudaConfigureCall, which clang's device
 * side wants for `<<<...>>>`. The frontend supplies stand-ins as unsaved
 * files in a folder searched after every real one (-idirafter), so a
 * toolkit that still has the headers wins; nothing is written to disk.
 * clang 19 also lacks the cache-hint loads and stores (__ldcg, __stcs, ...)
 * nvcc has; the stand-in declares them.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "frontend/frontend.h"

#include "util/cuda.h"
#include "util/fs.h"
#include "util/str.h"

#include <clang-c/CXCompilationDatabase.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct {
	const char *name;
	const char *text;
} stubs[] = {
    {"texture_fetch_functions.h",
     "/* ktc stand-in: CUDA 13 removed this header and cudaConfigureCall,\n"
     " * which clang 19's CUDA wrapper and <<<>>> still use. */\n"
     "#pragma once\n"
     "extern \"C\" cudaError_t cudaConfigureCall(dim3 gridDim, dim3 "
     "blockDim, size_t sharedMem = 0, cudaStream_t stream = 0);\n"
     "#include \"ktc_cache_hints.h\"\n"
     "#include \"ktc_surfaces.h\"\n"
     /* nvcc's common_functions.h includes it: assert without an include
      * compiles with nvcc and NVRTC */
     "#include <assert.h>\n"},
    /* clang 19 has no surface functions (its __nv_tex_surf_handler knows
     * only texture fetches); the signatures of CUDA's
     * surface_indirect_functions.h, declared, are enough for a parse. */
    {"ktc_surfaces.h",
     "#pragma once\n"
     "#define KTC_SURF(D, P)                                            \\\n"
     "\ttemplate <typename T> __device__ void surf##D##read(            \\\n"
     "\t    T *, cudaSurfaceObject_t, P,                                  \\\n"
     "\t    cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);              \\\n"
     "\ttemplate <typename T> __device__ T surf##D##read(                \\\n"
     "\t    cudaSurfaceObject_t, P,                                       \\\n"
     "\t    cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);              \\\n"
     "\ttemplate <typename T> __device__ void surf##D##write(           \\\n"
     "\t    T, cudaSurfaceObject_t, P,                                    \\\n"
     "\t    cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);\n"
     "#define KTC_COMMA ,\n"
     "KTC_SURF(1D, int)\n"
     "KTC_SURF(2D, int KTC_COMMA int)\n"
     "KTC_SURF(3D, int KTC_COMMA int KTC_COMMA int)\n"
     "KTC_SURF(1DLayered, int KTC_COMMA int)\n"
     "KTC_SURF(2DLayered, int KTC_COMMA int KTC_COMMA int)\n"
     "KTC_SURF(Cubemap, int KTC_COMMA int KTC_COMMA int)\n"
     "KTC_SURF(CubemapLayered, int KTC_COMMA int KTC_COMMA int)\n"
     "#undef KTC_SURF\n"
     "#undef KTC_COMMA\n"},
    /* clang 19 leaves out sm_32_intrinsics.h (it defines __ldg itself)
     * and so the cache-hint loads and stores nvcc has; declarations are
     * enough for a parse. */
    {"ktc_cache_hints.h",
     "#pragma once\n"
     "#define KTC_HINTS(T)                                              \\\n"
     "\t__device__ T __ldcg(const T *);                              \\\n"
     "\t__device__ T __ldca(const T *);                              \\\n"
     "\t__device__ T __ldcs(const T *);                              \\\n"
     "\t__device__ T __ldlu(const T *);                              \\\n"
     "\t__device__ T __ldcv(const T *);                              \\\n"
     "\t__device__ void __stcg(T *, T);                              \\\n"
     "\t__device__ void __stcs(T *, T);                              \\\n"
     "\t__device__ void __stwb(T *, T);                              \\\n"
     "\t__device__ void __stwt(T *, T);\n"
     "KTC_HINTS(char) KTC_HINTS(signed char) KTC_HINTS(short)\n"
     "KTC_HINTS(int) KTC_HINTS(long) KTC_HINTS(long long)\n"
     "KTC_HINTS(unsigned char) KTC_HINTS(unsigned short)\n"
     "KTC_HINTS(unsigned int) KTC_HINTS(unsigned long)\n"
     "KTC_HINTS(unsigned long long) KTC_HINTS(float) KTC_HINTS(double)\n"
     "KTC_HINTS(char2) KTC_HINTS(char4) KTC_HINTS(short2) KTC_HINTS(short4)\n"
     "KTC_HINTS(int2) KTC_HINTS(int4) KTC_HINTS(longlong2)\n"
     "KTC_HINTS(uchar2) KTC_HINTS(uchar4) KTC_HINTS(ushort2)\n"
     "KTC_HINTS(ushort4) KTC_HINTS(uint2) KTC_HINTS(uint4)\n"
     "KTC_HINTS(ulonglong2) KTC_HINTS(float2) KTC_HINTS(float4)\n"
     "KTC_HINTS(double2)\n"
     "#undef KTC_HINTS\n"},
    {"surface_functions.h", "#pragma once\n"},
    {"texture_functions.h", "#pragma once\n"},
    {"surface_fetch_functions.h", "#pragma once\n"},
};
#define NSTUBS (sizeof(stubs) / sizeof(stubs[0]))

typedef KT_VEC(char *) argv_vec;

static int push_arg(kt_tu *tu, argv_vec *v, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int push_arg(kt_tu *tu, argv_vec *v, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kt_str s = KT_STR_INIT;
	int rc = kt_str_vaddf(&s, fmt, ap);
	va_end(ap);
	char *a = rc ? NULL : kt_arena_strdup(&tu->arena, s.ptr);
	kt_str_release(&s);
	if (!a || kt_vec_push(v, a))
		return kt_error(KT_ENOMEM, "out of memory");
	return KT_OK;
}

static bool dir_exists(const char *root, const char *sub)
{
	char path[4096];
	struct stat st;
	snprintf(path, sizeof(path), "%s%s", root, sub);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* OpenCL C: the language's declarations (get_local_id, vload4, ...) come
 * from clang's own opencl-c.h, as a compiler of OpenCL C declares them. */
static int opencl_args(kt_tu *tu, argv_vec *v)
{
	int rc = push_arg(tu, v, "-x");
	rc = rc ? rc : push_arg(tu, v, "cl");
	rc = rc ? rc : push_arg(tu, v, "-cl-std=CL1.2");
	rc = rc ? rc : push_arg(tu, v, "-Xclang");
	rc = rc ? rc : push_arg(tu, v, "-finclude-default-header");
	rc = rc ? rc : push_arg(tu, v, "-ferror-limit=0");
	return rc;
}

static int default_args(kt_tu *tu, argv_vec *v, const kt_parse_opts *o,
                        bool have_std)
{
	if (tu->opencl)
		return opencl_args(tu, v);
	const char *arch = o->arch ? o->arch : KT_CUDA_DEFAULT_ARCH;
	int rc = push_arg(tu, v, "-x");
	rc = rc ? rc : push_arg(tu, v, "cuda");
	rc = rc ? rc : push_arg(tu, v, "--cuda-device-only");
	rc = rc ? rc : push_arg(tu, v, "--cuda-gpu-arch=%s", arch);
	rc = rc ? rc : push_arg(tu, v, "-nocudalib");
	rc = rc ? rc : push_arg(tu, v, "--cuda-path=%s", kt_cuda_root());
	rc = rc ? rc : push_arg(tu, v, "-Wno-unknown-cuda-version");
	rc = rc ? rc : push_arg(tu, v, "-ferror-limit=0");
	if (!have_std)
		rc = rc ? rc : push_arg(tu, v, "-std=c++17");
	/* CUDA 13 keeps CCCL (cuda/std/..., used by cooperative_groups.h)
	 * in include/cccl, which nvcc adds by itself */
	if (!rc && dir_exists(kt_cuda_root(), "/include/cccl")) {
		rc = push_arg(tu, v, "-isystem");
		rc = rc ? rc
		        : push_arg(tu, v, "%s/include/cccl", kt_cuda_root());
	}
	rc = rc ? rc : push_arg(tu, v, "-idirafter");
	rc = rc ? rc : push_arg(tu, v, "%s", KT_FE_STUB_DIR);
	return rc;
}

/* ------------------------------------------------ compile_commands.json */

static bool file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

char *kt_fe_compdb_dir(const char *abs_path)
{
	kt_str dir = KT_STR_INIT, probe = KT_STR_INIT;
	char *found = NULL;
	if (kt_str_adds(&dir, abs_path))
		return NULL;
	for (;;) {
		char *slash = strrchr(dir.ptr, '/');
		if (!slash)
			break;
		kt_str_truncate(&dir, (size_t)(slash - dir.ptr));
		static const char *const sub[] = {"", "/build"};
		for (int i = 0; i < 2 && !found; i++) {
			kt_str_clear(&probe);
			if (kt_str_addf(&probe, "%s%s/compile_commands.json",
			                dir.ptr, sub[i]))
				break;
			if (file_exists(probe.ptr)) {
				kt_str_truncate(
				    &probe,
				    probe.len -
				        strlen("/compile_commands.json"));
				found = kt_str_detach(&probe);
			}
		}
		if (found || !dir.len)
			break;
	}
	kt_str_release(&dir);
	kt_str_release(&probe);
	return found;
}

/* Options (with their value) that change the meaning of the source. */
static const struct {
	const char *name;
	const char *as; /* clang spelling */
} kept[] = {
    {"-I", "-I"},
    {"--include-path", "-I"},
    {"-isystem", "-isystem"},
    {"-iquote", "-iquote"},
    {"-idirafter", "-idirafter"},
    {"-D", "-D"},
    {"--define-macro", "-D"},
    {"-U", "-U"},
    {"--undefine-macro", "-U"},
    {"-include", "-include"},
    {"--pre-include", "-include"},
};

static bool is_path_option(const char *as)
{
	return strcmp(as, "-D") && strcmp(as, "-U");
}

static int keep_option(kt_tu *tu, argv_vec *v, const char *as, const char *val,
                       const char *dir)
{
	if (is_path_option(as) && val[0] != '/' && dir)
		return push_arg(tu, v, "%s%s/%s", as, dir, val);
	if (!strcmp(as, "-isystem") || !strcmp(as, "-iquote") ||
	    !strcmp(as, "-idirafter") || !strcmp(as, "-include")) {
		int rc = push_arg(tu, v, "%s", as);
		return rc ? rc : push_arg(tu, v, "%s", val);
	}
	return push_arg(tu, v, "%s%s", as, val);
}

/* Translates one argument at args[*i] (nvcc or clang) into v. */
static int translate_arg(kt_tu *tu, argv_vec *v, char **args, size_t *i,
                         size_t n, const char *dir, bool *have_std)
{
	const char *a = args[*i];
	int rc = KT_OK;
	if (!strncmp(a, "-std=", 5) || !strncmp(a, "--std=", 6)) {
		*have_std = true;
		rc = push_arg(tu, v, "-std=%s", strchr(a, '=') + 1);
	}
	for (size_t k = 0; !rc && k < sizeof(kept) / sizeof(kept[0]); k++) {
		size_t len = strlen(kept[k].name);
		if (strncmp(a, kept[k].name, len))
			continue;
		const char *val = a + len;
		if (*val == '=')
			val++;
		if (*val)
			rc = keep_option(tu, v, kept[k].as, val, dir);
		else if (*i + 1 < n)
			rc = keep_option(tu, v, kept[k].as, args[++*i], dir);
		break;
	}
	return rc;
}

static int args_from_command(kt_tu *tu, argv_vec *v, CXCompileCommand cmd,
                             bool *have_std)
{
	CXString d = clang_CompileCommand_getDirectory(cmd);
	char *dir = kt_arena_strdup(&tu->arena, clang_getCString(d));
	clang_disposeString(d);
	if (!dir)
		return kt_error(KT_ENOMEM, "out of memory");
	char **args = NULL;
	size_t n = 0;
	int rc = kt_fe_compdb_args(&args, &n, cmd);
	for (size_t i = 0; i < n && !rc; i++)
		rc = translate_arg(tu, v, args, &i, n, dir, have_std);
	kt_fe_compdb_args_free(args, n);
	return rc;
}

/* Adds the database's flags for the file; 1 when it had an entry. */
static int args_from_compdb(kt_tu *tu, argv_vec *v, const char *dir,
                            bool *have_std, kt_diags *diags)
{
	CXCompilationDatabase_Error err;
	CXCompilationDatabase db =
	    clang_CompilationDatabase_fromDirectory(dir, &err);
	if (err != CXCompilationDatabase_NoError) {
		kt_diags_add(diags, KT_DIAG_WARNING, dir, NULL, 0, 0, 0,
		             "cannot load compile_commands.json from '%s'; "
		             "using CUDA defaults",
		             dir);
		return 0;
	}
	CXCompileCommands cmds =
	    clang_CompilationDatabase_getCompileCommands(db, tu->abs_path);
	int rc = 0;
	if (cmds && clang_CompileCommands_getSize(cmds) > 0) {
		rc = args_from_command(
		    tu, v, clang_CompileCommands_getCommand(cmds, 0), have_std);
		rc = rc ? rc : 1;
	}
	clang_CompileCommands_dispose(cmds);
	clang_CompilationDatabase_dispose(db);
	return rc;
}

static int build_args(kt_tu *tu, const kt_parse_opts *o, kt_diags *diags)
{
	argv_vec v = {0};
	bool have_std = false;
	int rc = KT_OK;
	char *dir = NULL;
	if (!o->no_compdb && !tu->opencl) /* its entries are CUDA's */
		dir = o->build_dir ? kt_strdup(o->build_dir)
		                   : kt_fe_compdb_dir(tu->abs_path);
	if (dir) {
		rc = args_from_compdb(tu, &v, dir, &have_std, diags);
		if (rc == 0 && o->build_dir)
			kt_diags_add(diags, KT_DIAG_NOTE, tu->path, NULL, 0, 0,
			             0,
			             "no entry for '%s' in '%s/compile_"
			             "commands.json'; using CUDA defaults",
			             tu->path, dir);
		rc = rc < 0 ? rc : KT_OK;
	}
	kt_free(dir);
	for (size_t i = 0; !rc && i < o->nextra; i++)
		rc = push_arg(tu, &v, "%s", o->extra[i]);
	rc = rc ? rc : default_args(tu, &v, o, have_std);
	tu->nargs = v.len;
	tu->args = kt_arena_alloc(&tu->arena, (v.len + 1) * sizeof(char *));
	if (!rc && !tu->args)
		rc = KT_ENOMEM;
	for (size_t i = 0; !rc && i < v.len; i++)
		tu->args[i] = v.items[i];
	kt_vec_release(&v);
	return rc;
}

/* ---------------------------------------------------------- diagnostics */

static bool is_missing_file(const char *msg)
{
	size_t n = strlen(msg);
	return n > 15 && !strcmp(msg + n - 15, " file not found");
}

/* clang's errors become warnings: the frontend goes on, and a kernel
 * whose own range holds an error is left out later (candidates.c). */
static void take_diag(kt_tu *tu, CXDiagnostic dg, kt_diags *diags, int *shown)
{
	enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(dg);
	if (sev < CXDiagnostic_Error)
		return;
	CXSourceLocation loc = clang_getDiagnosticLocation(dg);
	CXFile f;
	unsigned line, col, off;
	clang_getSpellingLocation(loc, &f, &line, &col, &off);
	bool main_file = f && clang_File_isEqual(f, tu->file);
	if (main_file && kt_vec_push(&tu->errors, (uint32_t)off))
		return;
	CXString msg = clang_getDiagnosticSpelling(dg);
	const char *m = clang_getCString(msg);
	if (is_missing_file(m) || (main_file && *shown < 20)) {
		CXString fn = clang_getFileName(f);
		const char *name = main_file ? tu->path : clang_getCString(fn);
		if (is_missing_file(m) && !tu->missing)
			tu->missing = kt_arena_printf(
			    &tu->arena, "%.*s (%s:%u)", (int)strlen(m) - 15, m,
			    name ? name : "?", line);
		kt_diags_add(diags, KT_DIAG_WARNING, name,
		             main_file ? tu->text : NULL, (int)line, (int)col,
		             1, "%s", m);
		clang_disposeString(fn);
		*shown += !is_missing_file(m);
	}
	clang_disposeString(msg);
}

static void take_diags(kt_tu *tu, kt_diags *diags)
{
	unsigned n = clang_getNumDiagnostics(tu->tu);
	int shown = 0;
	for (unsigned i = 0; i < n; i++) {
		CXDiagnostic dg = clang_getDiagnostic(tu->tu, i);
		take_diag(tu, dg, diags, &shown);
		clang_disposeDiagnostic(dg);
	}
}

/* --------------------------------------------------------------- parse */

/* True when clang refused the PCH (stale, or built differently). */
static bool pch_refused(CXTranslationUnit t)
{
	bool refused = false;
	for (unsigned i = 0; !refused && i < clang_getNumDiagnostics(t); i++) {
		CXDiagnostic d = clang_getDiagnostic(t, i);
		CXString s = clang_getDiagnosticSpelling(d);
		const char *m = clang_getCString(s);
		refused =
		    clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error &&
		    (strstr(m, "precompiled header") || strstr(m, "PCH") ||
		     strstr(m, "AST file"));
		clang_disposeString(s);
		clang_disposeDiagnostic(d);
	}
	return refused;
}

static enum CXErrorCode parse_with(kt_tu *tu, struct CXUnsavedFile *files,
                                   const char *pch)
{
	const char **argv = kt_malloc((tu->nargs + 2) * sizeof(char *));
	if (!argv)
		return CXError_Failure;
	for (size_t i = 0; i < tu->nargs; i++)
		argv[i] = tu->args[i];
	int n = (int)tu->nargs;
	if (pch) {
		argv[n++] = "-include-pch";
		argv[n++] = pch;
	}
	unsigned flags = CXTranslationUnit_DetailedPreprocessingRecord |
	                 CXTranslationUnit_KeepGoing;
	enum CXErrorCode ec =
	    clang_parseTranslationUnit2(tu->index, tu->abs_path, argv, n, files,
	                                NSTUBS + 1, flags, &tu->tu);
	kt_free(argv);
	return ec;
}

/* Parses with the cached PCH of the file's includes where there is one; a
 * PCH clang refuses is rebuilt once, then left out. */
static int run_parse(kt_tu *tu, bool use_pch)
{
	struct CXUnsavedFile files[NSTUBS + 1];
	char stub_paths[NSTUBS][128];
	for (size_t i = 0; i < NSTUBS; i++) {
		snprintf(stub_paths[i], sizeof(stub_paths[i]), "%s/%s",
		         KT_FE_STUB_DIR, stubs[i].name);
		files[i].Filename = stub_paths[i];
		files[i].Contents = stubs[i].text;
		files[i].Length = strlen(stubs[i].text);
	}
	files[NSTUBS].Filename = tu->abs_path;
	files[NSTUBS].Contents = tu->text;
	files[NSTUBS].Length = tu->len;
	char *pch = use_pch ? kt_fe_pch(tu, files, NSTUBS, false) : NULL;
	enum CXErrorCode ec;
	for (int attempt = 0;; attempt++) {
		ec = parse_with(tu, files, pch);
		if (!pch || (ec == CXError_Success && !pch_refused(tu->tu)))
			break;
		if (tu->tu)
			clang_disposeTranslationUnit(tu->tu);
		tu->tu = NULL;
		if (attempt == 1) /* refused though just built */
			kt_fe_pch_refused(pch);
		kt_free(pch);
		pch = attempt == 0 ? kt_fe_pch(tu, files, NSTUBS, true) : NULL;
	}
	tu->used_pch = pch != NULL;
	kt_free(pch);
	if (ec != CXError_Success || !tu->tu)
		return kt_error(KT_EPARSE,
		                "cannot parse '%s' (libclang error "
		                "%d)",
		                tu->path, (int)ec);
	tu->file = clang_getFile(tu->tu, tu->abs_path);
	if (!tu->file)
		return kt_error(KT_EPARSE, "cannot parse '%s'", tu->path);
	return KT_OK;
}

static int open_tu(kt_tu **out, const char *path)
{
	kt_tu *tu = kt_calloc(1, sizeof(*tu));
	if (!tu)
		return kt_error(KT_ENOMEM, "out of memory");
	kt_arena_init(&tu->arena);
	*out = tu;
	char buf[PATH_MAX];
	tu->path = kt_arena_strdup(&tu->arena, path);
	tu->opencl = kt_path_is_opencl(path);
	int rc = kt_fs_read(&tu->text, &tu->len, path);
	if (rc)
		return rc;
	if (!realpath(path, buf))
		return kt_error(KT_EIO, "cannot open '%s'", path);
	tu->abs_path = kt_arena_strdup(&tu->arena, buf);
	if (!tu->path || !tu->abs_path)
		return kt_error(KT_ENOMEM, "out of memory");
	return KT_OK;
}

int kt_frontend_parse(kt_tu **out, const char *path, const kt_parse_opts *o,
                      kt_diags *diags)
{
	static const kt_parse_opts none = {0};
	kt_tu *tu = NULL;
	*out = NULL;
	int rc = open_tu(&tu, path);
	rc = rc ? rc : build_args(tu, o ? o : &none, diags);
	if (!rc) {
		tu->index = clang_createIndex(0, 0);
		rc = tu->index
		         ? run_parse(tu, (!o || !o->no_pch) && !tu->opencl)
		         : kt_error(KT_EPARSE, "cannot start libclang");
	}
	if (!rc)
		take_diags(tu, diags);
	if (rc) {
		kt_frontend_free(tu);
		return rc;
	}
	*out = tu;
	return KT_OK;
}

void kt_frontend_free(kt_tu *tu)
{
	if (!tu)
		return;
	if (tu->tu)
		clang_disposeTranslationUnit(tu->tu);
	if (tu->index)
		clang_disposeIndex(tu->index);
	kt_free(tu->text);
	kt_vec_release(&tu->errors);
	kt_arena_release(&tu->arena);
	kt_free(tu);
}

const char *kt_frontend_text(const kt_tu *tu, size_t *len)
{
	if (len)
		*len = tu->len;
	return tu->text;
}

const char *kt_frontend_missing(const kt_tu *tu)
{
	return tu->missing;
}

const char *kt_frontend_path(const kt_tu *tu)
{
	return tu->path;
}

bool kt_frontend_used_cache(const kt_tu *tu)
{
	return tu->used_pch;
}

size_t kt_frontend_args(const kt_tu *tu, const char *const **args)
{
	*args = (const char *const *)tu->args;
	return tu->nargs;
}

/* ------------------------------------------------------------- helpers */

bool kt_fe_offset(const kt_tu *tu, CXSourceLocation loc, uint32_t *off)
{
	CXFile f;
	unsigned o;
	clang_getExpansionLocation(loc, &f, NULL, NULL, &o);
	if (!f || !clang_File_isEqual(f, tu->file) || o > tu->len)
		return false;
	*off = o;
	return true;
}

kt_range kt_fe_make_range(const kt_tu *tu, uint32_t begin, uint32_t end)
{
	kt_range r = {kt_pos_at(tu->text, tu->len, begin),
	              kt_pos_at(tu->text, tu->len, end)};
	return r;
}

char *kt_fe_token_text(const kt_tu *tu, CXToken t)
{
	CXString s = clang_getTokenSpelling(tu->tu, t);
	char *r = kt_strdup(clang_getCString(s));
	clang_disposeString(s);
	return r;
}

bool kt_fe_range(const kt_tu *tu, CXSourceRange r, kt_range *out)
{
	uint32_t b, e;
	if (!kt_fe_offset(tu, clang_getRangeStart(r), &b) ||
	    !kt_fe_offset(tu, clang_getRangeEnd(r), &e) || e < b)
		return false;
	*out = kt_fe_make_range(tu, b, e);
	return true;
}

CXSourceRange kt_fe_source_range(const kt_tu *tu, uint32_t b, uint32_t e)
{
	return clang_getRange(clang_getLocationForOffset(tu->tu, tu->file, b),
	                      clang_getLocationForOffset(tu->tu, tu->file, e));
}

bool kt_fe_has_error(const kt_tu *tu, uint32_t begin, uint32_t end)
{
	for (size_t i = 0; i < tu->errors.len; i++)
		if (tu->errors.items[i] >= begin && tu->errors.items[i] < end)
			return true;
	return false;
}

bool kt_fe_macro_function_like(CXCursor def)
{
	CXTranslationUnit t = clang_Cursor_getTranslationUnit(def);
	CXToken *tok = NULL;
	unsigned n = 0;
	clang_tokenize(t, clang_getCursorExtent(def), &tok, &n);
	bool is = false;
	if (n >= 2) {
		CXString sp = clang_getTokenSpelling(t, tok[1]);
		unsigned name_end = 0, open = 1;
		clang_getSpellingLocation(
		    clang_getRangeEnd(clang_getTokenExtent(t, tok[0])), NULL,
		    NULL, NULL, &name_end);
		clang_getSpellingLocation(clang_getTokenLocation(t, tok[1]),
		                          NULL, NULL, NULL, &open);
		is = !strcmp(clang_getCString(sp), "(") && open == name_end;
		clang_disposeString(sp);
	}
	clang_disposeTokens(t, tok, n);
	return is;
}

bool kt_fe_opencl_kernel(CXCursor attr)
{
	if (clang_getCursorKind(attr) != CXCursor_UnexposedAttr)
		return false;
	CXTranslationUnit t = clang_Cursor_getTranslationUnit(attr);
	CXToken *tok = NULL;
	unsigned n = 0;
	clang_tokenize(t, clang_getCursorExtent(attr), &tok, &n);
	bool is = false;
	if (n >= 1) {
		CXString s = clang_getTokenSpelling(t, tok[0]);
		const char *w = clang_getCString(s);
		is = w && (!strcmp(w, "__kernel") || !strcmp(w, "kernel"));
		clang_disposeString(s);
	}
	clang_disposeTokens(t, tok, n);
	return is;
}
