/*
 * runtime/cuda/compile.c - one configuration through NVRTC: options, name
 * expression, cubin, log, and the on-disk cache of both outcomes.
 *
 * A failed compile is cached too (its log), so a resumed run does not pay
 * again for configurations that cannot compile. A cache file starts with a
 * one-line text header that states the lengths of what follows, and is
 * written atomically, so a torn or foreign file reads as a miss.
 */
#include "runtime/cuda/compile.h"
#include "runtime/cuda/nvrtc.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ktc/common.h"
#include "util/cuda.h"
#include "util/fs.h"
#include "util/str.h"

static const char cache_magic[] = "ktc-cubin-2";

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The folder of the template, for -I: "." when path has none. */
static char *template_dir(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;
	char *dir =
	    slash ? kt_strndup(path, (size_t)(slash - path) + (slash == path))
	          : kt_strdup(".");
	if (!dir)
		kt_error(KT_ENOMEM, "out of memory");
	return dir;
}

int kt_cu_options(char ***opts, size_t *nopts, const kt_cu_source *src)
{
	char **o = NULL;
	size_t n = 0;
	char *dir = template_dir(src->path);
	int rc =
	    dir ? kt_cu_nvrtc_options(&o, &n, src->arch, dir, NULL) : KT_ENOMEM;
	kt_free(dir);
	if (!rc)
		rc = kt_cu_opt_push(&o, &n, "%s", "--std=c++17");
	if (!rc)
		rc = kt_cu_opt_push(&o, &n, "%s", "-default-device");
	/* `#pragma kt` lines are ktc's, not NVRTC's: no warning per line */
	if (!rc)
		rc = kt_cu_opt_push(&o, &n, "%s", "--diag-suppress=161");
	if (!rc)
		rc = kt_cu_opt_push(&o, &n, "%s", "-DKTC_TUNING=1");
	for (size_t i = 0; !rc && i < src->ndefines; i++)
		rc = kt_cu_opt_push(&o, &n, "-D%s", src->defines[i]);
	if (rc) {
		kt_cu_opts_free(o, n);
		return rc;
	}
	*opts = o;
	*nopts = n;
	return 0;
}

void kt_cu_options_free(char **opts, size_t nopts)
{
	kt_cu_opts_free(opts, nopts);
}

static uint64_t hash_str(uint64_t h, const char *s)
{
	/* the terminating NUL separates fields: "ab","c" != "a","bc" */
	return kt_hash(h, s ? s : "", s ? strlen(s) + 1 : 1);
}

void kt_cu_cache_key(uint64_t key[2], const kt_cu_source *src, char **opts,
                     size_t nopts)
{
	for (int k = 0; k < 2; k++) {
		uint64_t h = KT_HASH_INIT ^ (uint64_t)k * 0x9e3779b97f4a7c15ULL;
		h = hash_str(h, cache_magic);
		h = hash_str(h, kt_cu_nvrtc_version());
		h = hash_str(h, src->text);
		h = hash_str(h, src->name_expr);
		for (size_t i = 0; i < nopts; i++)
			h = hash_str(h, opts[i]);
		if (src->salt)
			h = hash_str(h, src->salt);
		key[k] = h;
	}
}

static char *cache_path(const char *dir, const uint64_t key[2])
{
	kt_str s = KT_STR_INIT;
	if (kt_str_addf(&s, "%s/%016" PRIx64 "%016" PRIx64 ".cubin", dir,
	                key[0], key[1]))
		return NULL;
	return kt_str_detach(&s);
}

/* Header: "ktc-cubin-2 ok LOWERED_LEN IMAGE_LEN LOG_LEN\n" or "... fail
 * 0 0 LOG_LEN\n", then the lowered name, the image and the log. */
static int cache_read(kt_cu_binary *b, const char *path)
{
	char *data = NULL;
	size_t len = 0;
	if (kt_fs_read(&data, &len, path)) {
		kt_error_clear();
		return 1;
	}
	char state[8];
	size_t nl = 0, ni = 0, ng = 0;
	int used = 0, rc = 1;
	char fmt[64];
	snprintf(fmt, sizeof(fmt), "%s %%7s %%zu %%zu %%zu\n%%n", cache_magic);
	if (sscanf(data, fmt, state, &nl, &ni, &ng, &used) != 4 || used <= 0 ||
	    (size_t)used + nl + ni + ng != len)
		goto done;
	b->ok = !strcmp(state, "ok");
	b->lowered = kt_strndup(data + used, nl);
	b->image = kt_malloc(ni ? ni : 1);
	b->log = kt_strndup(data + used + nl + ni, ng);
	if (!b->lowered || !b->image || !b->log) {
		rc = kt_error(KT_ENOMEM, "out of memory");
		goto done;
	}
	memcpy(b->image, data + used + nl, ni);
	b->size = ni;
	b->cached = true;
	rc = 0;
done:
	kt_free(data);
	return rc;
}

static void cache_write(const kt_cu_binary *b, const char *dir,
                        const char *path)
{
	kt_str s = KT_STR_INIT;
	size_t nl = b->lowered ? strlen(b->lowered) : 0;
	size_t ng = b->log ? strlen(b->log) : 0;
	if (kt_fs_mkdirs(dir) ||
	    kt_str_addf(&s, "%s %s %zu %zu %zu\n", cache_magic,
	                b->ok ? "ok" : "fail", nl, b->size, ng) ||
	    kt_str_add(&s, b->lowered ? b->lowered : "", nl) ||
	    kt_str_add(&s, b->image ? b->image : "", b->size) ||
	    kt_str_add(&s, b->log ? b->log : "", ng) ||
	    kt_fs_write_atomic(path, s.ptr, s.len))
		kt_error_clear(); /* a cache that cannot be written is no error
		                   */
	kt_str_release(&s);
}

static int run_nvrtc(kt_cu_binary *b, const kt_cu_source *src, char **opts,
                     size_t nopts)
{
	kt_cu_nvrtc r;
	int rc = kt_cu_nvrtc_compile(&r, src->text, src->path,
	                             (const char *const *)opts, nopts,
	                             src->name_expr, true);
	if (rc)
		return rc;
	b->ok = r.ok;
	b->log = r.log;
	b->lowered = r.lowered;
	b->image = r.image;
	b->size = r.size;
	return 0;
}

int kt_cu_compile(kt_cu_binary *out, const kt_cu_source *src,
                  const char *cache_dir)
{
	double t0 = now_s();
	*out = (kt_cu_binary){0};
	char **opts = NULL, *path = NULL;
	size_t nopts = 0;
	int rc = kt_cu_options(&opts, &nopts, src);
	if (rc)
		return rc;
	kt_cu_cache_key(out->key, src, opts, nopts);
	if (cache_dir && (path = cache_path(cache_dir, out->key)) != NULL) {
		rc = cache_read(out, path);
		if (rc <= 0)
			goto done;
	}
	rc = run_nvrtc(out, src, opts, nopts);
	if (!rc && path)
		cache_write(out, cache_dir, path);
done:
	kt_free(path);
	kt_cu_options_free(opts, nopts);
	out->seconds = now_s() - t0;
	if (rc) {
		uint64_t key[2] = {out->key[0], out->key[1]};
		kt_cu_binary_release(out);
		out->key[0] = key[0];
		out->key[1] = key[1];
	}
	return rc;
}

void kt_cu_binary_release(kt_cu_binary *b)
{
	kt_free(b->image);
	kt_free(b->lowered);
	kt_free(b->log);
	*b = (kt_cu_binary){0};
}
