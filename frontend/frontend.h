/*
 * frontend.h - what the libclang frontend's files share, internal to
 * libktc: the parsed translation unit and small helpers over libclang.
 *
 * Offsets everywhere are bytes of the main file as ktc read it; the same
 * buffer is handed to libclang as an unsaved file, so the AST and the text
 * can never disagree.
 */
#ifndef KTC_FRONTEND_FRONTEND_H
#define KTC_FRONTEND_FRONTEND_H

#include <clang-c/CXCompilationDatabase.h>
#include <clang-c/Index.h>

#include "ktc/frontend.h"
#include "util/arena.h"
#include "util/vec.h"

struct kt_tu {
	kt_arena arena;
	CXIndex index;
	CXTranslationUnit tu;
	CXFile file;    /* the main file */
	char *path;     /* as given */
	bool opencl;    /* OpenCL C (kt_path_is_opencl), else CUDA */
	char *abs_path; /* absolute, as libclang knows it */
	char *text;     /* content (kt_malloc) */
	size_t len;
	char **args; /* compiler arguments used (arena) */
	size_t nargs;
	KT_VEC(uint32_t) errors; /* offsets of clang errors in the main file */
	bool used_pch;           /* the includes came from the header cache */
	char *missing; /* the first include not found: "'x.h' (FILE:LINE)" */
};

/* parse.c: the folder holding compile_commands.json for the file at
 * abs_path: the first of DIR and DIR/build that has one, for each DIR from
 * the file's folder up to the root (as clang tools look, plus CMake's
 * usual build folder); NULL when there is none. kt_free the result. The
 * parse and compdb.c's verification flags both search with this. */
char *kt_fe_compdb_dir(const char *abs_path);

/* compdb.c: the arguments of a compile command after the compiler, with
 * response files (`@FILE`, `--options-file FILE`, `-optf FILE`, relative to the
 * command's folder) read in their place, as nvcc and clang read them. */
int kt_fe_compdb_args(char ***args, size_t *nargs, CXCompileCommand cmd);
void kt_fe_compdb_args_free(char **args, size_t nargs);

/* pch.c: the path of a PCH of the file's leading `#include <...>` lines
 * (built if missing, or when rebuild), or NULL when there is none to use.
 * kt_free the result. */
char *kt_fe_pch(kt_tu *tu, struct CXUnsavedFile *files, unsigned nfiles,
                bool rebuild);
/* Marks the PCH at path as one libclang cannot read even freshly built
 * (torch's headers), so later parses go without it at once. */
void kt_fe_pch_refused(const char *pch);

/* Byte offset and position of a libclang location in the main file;
 * false when the location is in another file. */
/* Where the parse finds its in-memory CUDA header stand-ins. */
#define KT_FE_STUB_DIR "/__ktc_cuda_stubs__"

bool kt_fe_offset(const kt_tu *tu, CXSourceLocation loc, uint32_t *off);
/* The main-file range of a cursor / source range; false if elsewhere. */
bool kt_fe_range(const kt_tu *tu, CXSourceRange r, kt_range *out);
kt_range kt_fe_make_range(const kt_tu *tu, uint32_t begin, uint32_t end);
/* A token's spelling, allocated (kt_free); NULL when out of memory. */
char *kt_fe_token_text(const kt_tu *tu, CXToken t);
/* The libclang range of [b, e) of the main file (for clang_tokenize: a
 * cursor's extent may start inside a macro such as __global__). */
CXSourceRange kt_fe_source_range(const kt_tu *tu, uint32_t b, uint32_t e);
/* True when macro definition def is function-like: its name followed
 * at once by `(`, read from its tokens (libclang's
 * clang_Cursor_isMacroFunctionLike looks the name up at the end of the
 * file, so it says false for a macro `#undef` removed). */
bool kt_fe_macro_function_like(CXCursor def);
/* True when attr is OpenCL C's `__kernel` (`kernel`) attribute, which
 * libclang exposes as an UnexposedAttr: the kernel mark, as
 * CXCursor_CUDAGlobalAttr is CUDA's. */
bool kt_fe_opencl_kernel(CXCursor attr);
/* True when a clang error lies inside [begin, end). */
bool kt_fe_has_error(const kt_tu *tu, uint32_t begin, uint32_t end);

#endif
