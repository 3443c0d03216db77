/*
 * compdb.c - the compile flags the verification compiles a file with, from
 * compile_commands.json (libclang's compilation database): -I, -isystem,
 * -D, -U and -std, with relative paths made absolute. The database is
 * found as the parse finds it (kt_fe_compdb_dir).
 *
 * Design choice: this needs no parse, so `ktc annotate` can start nvcc on
 * the original file before libclang has parsed it, and the two overlap on
 * a machine with two cores. The same flags serve every compile of the
 * original and of the annotated file, so they are compiled alike.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "ktc/frontend.h"

#include "frontend/frontend.h"
#include "util/str.h"
#include "util/vec.h"

#include <clang-c/CXCompilationDatabase.h>
#include <stdlib.h>
#include <string.h>

typedef KT_VEC(char *) flag_vec;

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
static int take(flag_vec *v, CXCompileCommand cmd, unsigned *i, unsigned n,
                const char *dir)
{
	static const struct {
		const char *name, *as;
		bool path;
	} kept[] = {{"-isystem", "-I", true}, {"--include-path", "-I", true},
	            {"-I", "-I", true},       {"--define-macro", "-D", false},
	            {"-D", "-D", false},      {"--undefine-macro", "-U", false},
	            {"-U", "-U", false}};
	CXString s = clang_CompileCommand_getArg(cmd, *i);
	const char *a = clang_getCString(s);
	int rc = 0;
	if (!strncmp(a, "-std=", 5) || !strncmp(a, "--std=", 6))
		rc = push(v, "-std=", NULL, strchr(a, '=') + 1);
	for (size_t k = 0; !rc && k < sizeof(kept) / sizeof(kept[0]); k++) {
		size_t len = strlen(kept[k].name);
		if (strncmp(a, kept[k].name, len))
			continue;
		const char *val = a[len] == '=' ? a + len + 1 : a + len;
		if (*val) {
			rc =
			    push(v, kept[k].as, kept[k].path ? dir : NULL, val);
		} else if (*i + 1 < n) {
			CXString nx = clang_CompileCommand_getArg(cmd, ++*i);
			rc = push(v, kept[k].as, kept[k].path ? dir : NULL,
			          clang_getCString(nx));
			clang_disposeString(nx);
		}
		break;
	}
	clang_disposeString(s);
	return rc;
}

static int from_command(flag_vec *v, CXCompileCommand cmd)
{
	CXString d = clang_CompileCommand_getDirectory(cmd);
	char *dir = kt_strdup(clang_getCString(d));
	clang_disposeString(d);
	unsigned n = clang_CompileCommand_getNumArgs(cmd);
	int rc = dir ? 0 : kt_error(KT_ENOMEM, "out of memory");
	for (unsigned i = 1; i < n && !rc; i++) /* args[0]: the compiler */
		rc = take(v, cmd, &i, n, dir);
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
