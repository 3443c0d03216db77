/*
 * compdb.c - the compile flags the verification compiles a file with, from
 * compile_commands.json (libclang's compilation database): -I, -isystem,
 * -D, -U, -std and the flags that change what device code compiles to
 * (--expt-relaxed-constexpr, --extended-lambda, --use_fast_math), with
 * relative paths made absolute. The database is
 * found as the parse finds it (kt_fe_compdb_dir). Response files
 * (`--options-file`, `@FILE`: CMake's CUDA rules put the includes there)
 * are read in place here, for the parse and the verification alike.
 *
 * Design choice: this needs no parse, so `ktc annotate` can start nvcc on
 * the original file before libclang has parsed it, and the two overlap on
 * a machine with two cores. The same flags serve every compile of the
 * original and of the annotated file, so they are compiled alike.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "ktc/frontend.h"

#include "frontend/frontend.h"
#include "util/fs.h"
#include "util/str.h"
#include "util/vec.h"

#include <clang-c/CXCompilationDatabase.h>
#include <stdlib.h>
#include <string.h>

typedef KT_VEC(char *) flag_vec;

/* Response files may name others; nvcc and clang stop somewhere too. */
#define RSP_DEPTH 8

static int add_args(flag_vec *v, const char *a, const char *dir, int depth);

/* The words of a response file: blanks separate, quotes group, a
 * backslash takes the next character as it is (outside '...'). */
static int add_file_args(flag_vec *v, const char *name, const char *dir,
                         int depth)
{
	kt_str path = KT_STR_INIT, w = KT_STR_INIT;
	char *text = NULL;
	size_t len = 0;
	int rc = name[0] != '/' && dir ? kt_str_addf(&path, "%s/%s", dir, name)
	                               : kt_str_adds(&path, name);
	if (rc || depth >= RSP_DEPTH || kt_fs_read(&text, &len, path.ptr)) {
		/* unreadable: left out, as the includes it held will say */
		kt_error_clear();
		goto done;
	}
	for (size_t i = 0; i <= len && !rc; i++) {
		char c = i < len ? text[i] : ' ';
		if (c == '\'' || c == '"') {
			while (++i < len && text[i] != c) {
				if (c == '"' && text[i] == '\\' && i + 1 < len)
					i++;
				rc = rc ? rc : kt_str_addc(&w, text[i]);
			}
			continue;
		}
		if (c == '\\' && i + 1 < len) {
			rc = kt_str_addc(&w, text[++i]);
			continue;
		}
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
			rc = kt_str_addc(&w, c);
			continue;
		}
		if (w.len)
			rc = add_args(v, w.ptr, dir, depth + 1);
		kt_str_clear(&w);
	}
done:
	kt_free(text);
	kt_str_release(&path);
	kt_str_release(&w);
	return rc;
}

static int add_args(flag_vec *v, const char *a, const char *dir, int depth)
{
	if (a[0] == '@')
		return add_file_args(v, a + 1, dir, depth);
	char *c = kt_strdup(a);
	if (!c || kt_vec_push(v, c)) {
		kt_free(c);
		return kt_error(KT_ENOMEM, "out of memory");
	}
	return 0;
}

static bool is_options_file(const char *a)
{
	return !strcmp(a, "--options-file") || !strcmp(a, "-optf");
}

int kt_fe_compdb_args(char ***args, size_t *nargs, CXCompileCommand cmd)
{
	flag_vec v = {0};
	CXString d = clang_CompileCommand_getDirectory(cmd);
	char *dir = kt_strdup(clang_getCString(d));
	clang_disposeString(d);
	unsigned n = clang_CompileCommand_getNumArgs(cmd);
	int rc = dir ? 0 : kt_error(KT_ENOMEM, "out of memory");
	for (unsigned i = 1; i < n && !rc; i++) { /* args[0]: the compiler */
		CXString s = clang_CompileCommand_getArg(cmd, i);
		const char *a = clang_getCString(s);
		if (is_options_file(a) && i + 1 < n) {
			CXString f = clang_CompileCommand_getArg(cmd, ++i);
			rc = add_file_args(&v, clang_getCString(f), dir, 0);
			clang_disposeString(f);
		} else if (!strncmp(a, "--options-file=", 15)) {
			rc = add_file_args(&v, a + 15, dir, 0);
		} else {
			rc = add_args(&v, a, dir, 0);
		}
		clang_disposeString(s);
	}
	kt_free(dir);
	if (rc) {
		kt_fe_compdb_args_free(v.items, v.len);
		return rc;
	}
	*args = v.items;
	*nargs = v.len;
	return 0;
}

void kt_fe_compdb_args_free(char **args, size_t nargs)
{
	kt_rewrite_flags_free(args, nargs);
}

static int push(flag_vec *v, const char *prefix, const char *dir,
                const char *val)
{
	kt_str s = KT_STR_INIT;
	int rc = dir && val[0] != '/'
	             ? kt_str_addf(&s, "%s%s/%s", prefix, dir, val)
	             : kt_str_addf(&s, "%s%s", prefix, val);
	char *f = rc ? NULL : kt_str_detach(&s);
	kt_str_release(&s);
	if (!f || kt_vec_push(v, f)) {
		kt_free(f);
		return kt_error(KT_ENOMEM, "out of memory");
	}
	return 0;
}

/* One argument (and its value, if separate) of the command. */
static int take(flag_vec *v, char **args, size_t *i, size_t n, const char *dir)
{
	static const struct {
		const char *name, *as;
		bool path;
	} kept[] = {{"-isystem", "-I", true}, {"--include-path", "-I", true},
	            {"-I", "-I", true},       {"--define-macro", "-D", false},
	            {"-D", "-D", false},      {"--undefine-macro", "-U", false},
	            {"-U", "-U", false}};
	/* flags without which device code may not compile, or compiles to
	 * other code, in the spelling nvcc and NVRTC both take */
	static const struct {
		const char *name, *as;
	} same[] = {{"-expt-relaxed-constexpr", "--expt-relaxed-constexpr"},
	            {"--expt-relaxed-constexpr", "--expt-relaxed-constexpr"},
	            {"-extended-lambda", "--extended-lambda"},
	            {"--extended-lambda", "--extended-lambda"},
	            {"-expt-extended-lambda", "--extended-lambda"},
	            {"--expt-extended-lambda", "--extended-lambda"},
	            {"-use_fast_math", "--use_fast_math"},
	            {"--use_fast_math", "--use_fast_math"}};
	const char *a = args[*i];
	int rc = 0;
	if (!strncmp(a, "-std=", 5) || !strncmp(a, "--std=", 6))
		rc = push(v, "-std=", NULL, strchr(a, '=') + 1);
	for (size_t k = 0; k < sizeof(same) / sizeof(same[0]); k++)
		if (!strcmp(a, same[k].name))
			return push(v, same[k].as, NULL, "");
	for (size_t k = 0; !rc && k < sizeof(kept) / sizeof(kept[0]); k++) {
		size_t len = strlen(kept[k].name);
		if (strncmp(a, kept[k].name, len))
			continue;
		const char *val = a[len] == '=' ? a + len + 1 : a + len;
		if (*val)
			rc =
			    push(v, kept[k].as, kept[k].path ? dir : NULL, val);
		else if (*i + 1 < n)
			rc = push(v, kept[k].as, kept[k].path ? dir : NULL,
			          args[++*i]);
		break;
	}
	return rc;
}

static int from_command(flag_vec *v, CXCompileCommand cmd)
{
	CXString d = clang_CompileCommand_getDirectory(cmd);
	char *dir = kt_strdup(clang_getCString(d));
	clang_disposeString(d);
	char **args = NULL;
	size_t n = 0;
	int rc = dir ? kt_fe_compdb_args(&args, &n, cmd)
	             : kt_error(KT_ENOMEM, "out of memory");
	for (size_t i = 0; i < n && !rc; i++)
		rc = take(v, args, &i, n, dir);
	kt_fe_compdb_args_free(args, n);
	kt_free(dir);
	return rc;
}

int kt_rewrite_flags(char ***flags, size_t *nflags, const char *path,
                     const char *build_dir)
{
	flag_vec v = {0};
	*flags = NULL;
	*nflags = 0;
	char *abs = realpath(path, NULL);
	char *dir = !abs        ? NULL
	            : build_dir ? kt_strdup(build_dir)
	                        : kt_fe_compdb_dir(abs);
	if (!dir || !abs) { /* no database: the file's own folder only */
		kt_free(dir);
		free(abs);
		return 0;
	}
	CXCompilationDatabase_Error err;
	CXCompilationDatabase db =
	    clang_CompilationDatabase_fromDirectory(dir, &err);
	int rc = 0;
	if (err == CXCompilationDatabase_NoError) {
		CXCompileCommands cmds =
		    clang_CompilationDatabase_getCompileCommands(db, abs);
		if (cmds && clang_CompileCommands_getSize(cmds) > 0)
			rc = from_command(
			    &v, clang_CompileCommands_getCommand(cmds, 0));
		clang_CompileCommands_dispose(cmds);
		clang_CompilationDatabase_dispose(db);
	}
	kt_free(dir);
	free(abs);
	if (rc) {
		kt_rewrite_flags_free(v.items, v.len);
		return rc;
	}
	*flags = v.items;
	*nflags = v.len;
	return 0;
}

void kt_rewrite_flags_free(char **flags, size_t n)
{
	for (size_t i = 0; i < n; i++)
		kt_free(flags[i]);
	kt_free(flags);
}
