/*
 * pch.c - a precompiled header of a file's leading `#include <...>` lines
 * of the toolkit's and the system's headers, cached on disk, so a parse
 * reads the CUDA headers (most of its time) from a PCH instead of parsing
 * them again.
 *
 * The cache key is a hash of everything that shapes the header's meaning:
 * libclang's version, the compiler arguments, the include lines, the
 * header stand-ins, and the toolkit's cuda.h (time and size); libclang
 * itself checks that no input file of
 * the PCH changed since it was built; a PCH it refuses is rebuilt once. A
 * preamble that does not compile on its own (a missing torch header) is
 * remembered as such and parsed the ordinary way, and so is one libclang
 * cannot read back even when just built: with torch's headers, a PCH built
 * with the preprocessing record (as every PCH is, see build()) makes
 * libclang 19 crash reading it (CXError_Crashed); without the mark every
 * parse would build it again and then parse without it. Files are
 * written through a temporary name and renamed, so concurrent runs never read a
 * half-written PCH.
 */
#define _XOPEN_SOURCE 700 /* mkstemp */
#include "frontend/frontend.h"

#include "util/cuda.h"
#include "util/fs.h"
#include "util/str.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Skips blanks and comments from p; NULL inside an unterminated comment. */
static const char *skip_blank(const char *p, const char *end)
{
	while (p < end) {
		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
			p++;
		} else if (p + 1 < end && p[0] == '/' && p[1] == '/') {
			while (p < end && *p != '\n')
				p++;
		} else if (p + 1 < end && p[0] == '/' && p[1] == '*') {
			const char *c = strstr(p + 2, "*/");
			if (!c || c >= end)
				return NULL;
			p = c + 2;
		} else {
			break;
		}
	}
	return p;
}

/* A folder of the toolkit's or the operating system's. */
static bool system_dir(const char *dir)
{
	static const char *const os[] = {"/usr/include", "/usr/lib",
	                                 "/usr/local/include"};
	const char *root = kt_cuda_root();
	if (!strncmp(dir, root, strlen(root)) || !strcmp(dir, KT_FE_STUB_DIR))
		return true;
	for (size_t i = 0; i < sizeof(os) / sizeof(os[0]); i++)
		if (!strncmp(dir, os[i], strlen(os[i])))
			return true;
	return false;
}

/*
 * Whether `<name>` (len bytes) is found in a folder the arguments add that
 * is not the toolkit's or the system's: a project's or a library's header
 * (torch, a serving stack's own include folder). Such headers stay out of
 * the PCH: libclang reports neither the inclusions inside a PCH
 * (clang_getInclusions) nor, through them, which of those headers the
 * file's device code needs.
 */
static bool project_header(const kt_tu *tu, const char *name, size_t len)
{
	for (size_t i = 0; i < tu->nargs; i++) {
		const char *a = tu->args[i], *dir = NULL;
		if (!strncmp(a, "-I", 2) && a[2])
			dir = a + 2;
		else if ((!strcmp(a, "-isystem") || !strcmp(a, "-idirafter")) &&
		         i + 1 < tu->nargs)
			dir = tu->args[++i];
		struct stat st;
		kt_str path = KT_STR_INIT;
		bool found =
		    dir && !system_dir(dir) &&
		    !kt_str_addf(&path, "%s/%.*s", dir, (int)len, name) &&
		    stat(path.ptr, &st) == 0;
		kt_str_release(&path);
		if (found)
			return true;
	}
	return false;
}

/* `#include <...>` at p, of a toolkit or system header: appends it to out
 * and returns the line's end. */
static const char *angle_include(const kt_tu *tu, const char *p,
                                 const char *end, kt_str *out)
{
	const char *q = p + 1;
	while (q < end && (*q == ' ' || *q == '\t'))
		q++;
	if (end - q < 8 || strncmp(q, "include", 7))
		return NULL;
	q += 7;
	while (q < end && (*q == ' ' || *q == '\t'))
		q++;
	const char *close =
	    q < end && *q == '<' ? memchr(q, '>', (size_t)(end - q)) : NULL;
	const char *nl = memchr(q, '\n', (size_t)(end - q));
	if (!close || (nl && close > nl) ||
	    project_header(tu, q + 1, (size_t)(close - q - 1)))
		return NULL;
	kt_str_addf(out, "#include %.*s\n", (int)(close + 1 - q), q);
	return close + 1;
}

/* The leading `#include <...>` lines of the file's toolkit and system
 * headers (blank lines and comments between them are fine); empty when
 * there are none. */
static int preamble(const kt_tu *tu, kt_str *out)
{
	const char *p = tu->text, *end = tu->text + tu->len;
	for (;;) {
		p = skip_blank(p, end);
		if (!p || p >= end || *p != '#')
			break;
		const char *next = angle_include(tu, p, end, out);
		if (!next)
			break;
		p = next;
	}
	return out->len ? KT_OK : KT_ENOTFOUND;
}

static int cache_dir(kt_str *dir)
{
	const char *env = getenv("KTC_CACHE_DIR");
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	int rc = env && *env   ? kt_str_addf(dir, "%s/pch", env)
	         : xdg && *xdg ? kt_str_addf(dir, "%s/ktc/pch", xdg)
	         : home && *home
	             ? kt_str_addf(dir, "%s/.cache/ktc/pch", home)
	             : kt_str_addf(dir, "/tmp/ktc-pch-%ld", (long)getuid());
	return rc ? rc : kt_fs_mkdirs(dir->ptr);
}

/* What a PCH is built with beyond the arguments (a PCH from before the
 * preprocessing record was built into it has another key). */
static const char build_kind[] = "detailed-preprocessing-record";

static uint64_t key_of(const kt_tu *tu, const kt_str *pre,
                       const struct CXUnsavedFile *stubs, unsigned nstubs)
{
	CXString v = clang_getClangVersion();
	uint64_t h = kt_hash(KT_HASH_INIT, clang_getCString(v),
	                     strlen(clang_getCString(v)));
	clang_disposeString(v);
	h = kt_hash(h, build_kind, sizeof(build_kind));
	for (size_t i = 0; i < tu->nargs; i++)
		h = kt_hash(h, tu->args[i], strlen(tu->args[i]) + 1);
	h = kt_hash(h, pre->ptr, pre->len);
	for (unsigned i = 0; i < nstubs; i++)
		h = kt_hash(h, stubs[i].Contents, stubs[i].Length);
	char path[4096];
	snprintf(path, sizeof(path), "%s/include/cuda.h", kt_cuda_root());
	struct stat st;
	if (stat(path, &st) == 0) {
		h = kt_hash(h, &st.st_mtime, sizeof(st.st_mtime));
		h = kt_hash(h, &st.st_size, sizeof(st.st_size));
	}
	return h;
}

static bool exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* Builds the PCH of the preamble header `hdr` into `pch`, with the
 * preprocessing record: without it, the parse that reads the PCH records
 * no expansion of the PCH's macros in the file (a header's `LIKELY(x)` in
 * a kernel would not make that header NVRTC's). */
static bool build(kt_tu *tu, const char *hdr, const char *pch,
                  struct CXUnsavedFile *files, unsigned nfiles)
{
	CXTranslationUnit t = NULL;
	enum CXErrorCode ec = clang_parseTranslationUnit2(
	    tu->index, hdr, (const char *const *)tu->args, (int)tu->nargs,
	    files, nfiles,
	    CXTranslationUnit_Incomplete | CXTranslationUnit_KeepGoing |
	        CXTranslationUnit_DetailedPreprocessingRecord,
	    &t);
	bool ok = ec == CXError_Success && t;
	for (unsigned i = 0; ok && i < clang_getNumDiagnostics(t); i++) {
		CXDiagnostic d = clang_getDiagnostic(t, i);
		ok = clang_getDiagnosticSeverity(d) < CXDiagnostic_Error;
		clang_disposeDiagnostic(d);
	}
	kt_str tmp = KT_STR_INIT;
	ok = ok && !kt_str_addf(&tmp, "%s.%ld.tmp", pch, (long)getpid());
	ok = ok &&
	     clang_saveTranslationUnit(t, tmp.ptr, 0) == CXSaveError_None &&
	     rename(tmp.ptr, pch) == 0;
	if (!ok && tmp.len)
		remove(tmp.ptr);
	kt_str_release(&tmp);
	if (t)
		clang_disposeTranslationUnit(t);
	return ok;
}

/* Marks a preamble that does not compile alone, so it is not retried. */
static void mark_bad(const char *pch)
{
	kt_str bad = KT_STR_INIT;
	if (!kt_str_addf(&bad, "%s.bad", pch))
		kt_fs_write_atomic(bad.ptr, "", 0);
	kt_str_release(&bad);
}

void kt_fe_pch_refused(const char *pch)
{
	mark_bad(pch);
}

char *kt_fe_pch(kt_tu *tu, struct CXUnsavedFile *files, unsigned nfiles,
                bool rebuild)
{
	kt_str pre = KT_STR_INIT, dir = KT_STR_INIT, hdr = KT_STR_INIT,
	       pch = KT_STR_INIT;
	char *result = NULL;
	if (preamble(tu, &pre) || cache_dir(&dir))
		goto done;
	uint64_t key = key_of(tu, &pre, files, nfiles);
	if (kt_str_addf(&hdr, "%s/%016" PRIx64 ".h", dir.ptr, key) ||
	    kt_str_addf(&pch, "%s/%016" PRIx64 ".pch", dir.ptr, key))
		goto done;
	kt_str bad = KT_STR_INIT;
	bool known_bad =
	    !kt_str_addf(&bad, "%s.bad", pch.ptr) && exists(bad.ptr);
	kt_str_release(&bad);
	if (known_bad)
		goto done;
	if (rebuild || !exists(pch.ptr)) {
		if (!exists(hdr.ptr) &&
		    kt_fs_write_atomic(hdr.ptr, pre.ptr, pre.len))
			goto done;
		if (!build(tu, hdr.ptr, pch.ptr, files, nfiles)) {
			mark_bad(pch.ptr);
			goto done;
		}
	}
	result = kt_str_detach(&pch);
done:
	kt_error_clear();
	kt_str_release(&pre);
	kt_str_release(&dir);
	kt_str_release(&hdr);
	kt_str_release(&pch);
	return result;
}
