/* fs.c - file helpers of fs.h. POSIX only (realpath is XSI). */
#define _XOPEN_SOURCE 700
#include "util/fs.h"

#include "ktc/common.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int kt_fs_read(char **out, size_t *len, const char *path)
{
	*out = NULL;
	FILE *f = fopen(path, "rb");
	if (!f)
		return kt_error(KT_EIO, "cannot open '%s': %s", path,
		                strerror(errno));
	size_t cap = 4096, n = 0;
	char *buf = kt_malloc(cap);
	int rc = KT_OK;
	while (buf) {
		if (n >= KT_FS_MAX_READ) { /* /dev/zero, a huge file */
			fclose(f);
			kt_free(buf);
			return kt_error(
			    KT_EINVALID,
			    "'%s' is larger than the limit of %d MiB "
			    "for an input",
			    path, KT_FS_MAX_READ >> 20);
		}
		if (n + 1 >= cap) {
			char *p = kt_realloc(buf, cap *= 2);
			if (!p) {
				kt_free(buf);
				buf = NULL;
				break;
			}
			buf = p;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	if (!buf)
		rc = kt_error(KT_ENOMEM, "out of memory reading '%s'", path);
	else if (ferror(f)) {
		rc = kt_error(KT_EIO, "cannot read '%s': %s", path,
		              strerror(errno));
		kt_free(buf);
	} else {
		buf[n] = '\0';
		*out = buf;
		if (len)
			*len = n;
	}
	fclose(f);
	return rc;
}

static const char *file_kind(mode_t m)
{
	return S_ISDIR(m)    ? "a folder"
	       : S_ISFIFO(m) ? "a fifo"
	       : S_ISCHR(m)  ? "a character device"
	       : S_ISBLK(m)  ? "a block device"
	       : S_ISSOCK(m) ? "a socket"
	                     : "not a regular file";
}

/*
 * The file to write for path, into *real (kt_free it): path itself, or
 * the file its symlinks lead to; *st is its status and *exists whether it
 * is there. Refuses a target that is not a regular file.
 */
static int output_target(char **real, struct stat *st, bool *exists,
                         const char *path)
{
	struct stat l;
	*real = NULL;
	*exists = stat(path, st) == 0;
	if (!*exists && lstat(path, &l) == 0)
		return kt_error(KT_EIO, "cannot write '%s': a dangling symlink",
		                path);
	if (*exists && !S_ISREG(st->st_mode))
		return kt_error(KT_EIO,
		                "cannot write '%s': it is %s, not a regular "
		                "file",
		                path, file_kind(st->st_mode));
	char *resolved = NULL;
	if (*exists && lstat(path, &l) == 0 && S_ISLNK(l.st_mode) &&
	    !(resolved = realpath(path, NULL)))
		return kt_error(KT_EIO, "cannot resolve '%s': %s", path,
		                strerror(errno));
	*real = kt_strdup(resolved ? resolved : path);
	free(resolved); /* realpath's malloc */
	return *real ? 0 : kt_error(KT_ENOMEM, "out of memory");
}

/* The folder part of path ("." when it has none), into buf. */
static void folder_of(char *buf, size_t n, const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(buf, n, ".");
	else if (slash == path)
		snprintf(buf, n, "/");
	else
		snprintf(buf, n, "%.*s", (int)(slash - path), path);
}

int kt_fs_check_output(const char *path)
{
	char *real;
	struct stat st;
	bool exists;
	int rc = output_target(&real, &st, &exists, path);
	if (rc)
		return rc;
	char dir[4096];
	folder_of(dir, sizeof(dir), real);
	if (access(dir, W_OK | X_OK) != 0)
		rc = kt_error(KT_EIO, "cannot write '%s': folder '%s': %s",
		              path, dir, strerror(errno));
	kt_free(real);
	return rc;
}

int kt_fs_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Writes data to the new file tmp, with mode when keep is set. */
static int write_temp(const char *tmp, const char *path, const void *data,
                      size_t len, bool keep, mode_t mode)
{
	FILE *f = fopen(tmp, "wb");
	if (!f)
		return kt_error(KT_EIO, "cannot write '%s': %s", path,
		                strerror(errno));
	if (fwrite(data, 1, len, f) != len || fflush(f) != 0 ||
	    (keep && fchmod(fileno(f), mode & 07777) != 0) ||
	    fsync(fileno(f)) != 0) {
		int e = errno;
		fclose(f);
		unlink(tmp);
		return kt_error(KT_EIO, "cannot write '%s': %s", path,
		                strerror(e));
	}
	if (fclose(f) != 0) {
		unlink(tmp);
		return kt_error(KT_EIO, "cannot write '%s': %s", path,
		                strerror(errno));
	}
	return 0;
}

int kt_fs_write_atomic(const char *path, const void *data, size_t len)
{
	char *real, *tmp = NULL;
	struct stat st;
	bool exists;
	int rc = output_target(&real, &st, &exists, path);
	if (rc)
		return rc;
	size_t plen = strlen(real);
	if (!(tmp = kt_malloc(plen + 32))) {
		rc = kt_error(KT_ENOMEM, "out of memory");
		goto done;
	}
	snprintf(tmp, plen + 32, "%s.tmp.%ld", real, (long)getpid());
	rc = write_temp(tmp, path, data, len, exists, st.st_mode);
	if (!rc && rename(tmp, real) != 0) {
		rc = kt_error(KT_EIO, "cannot replace '%s': %s", path,
		              strerror(errno));
		unlink(tmp);
	}
done:
	kt_free(tmp);
	kt_free(real);
	return rc;
}

int kt_fs_mkdirs(const char *path)
{
	char buf[4096];
	size_t n = strlen(path);
	if (n == 0 || n >= sizeof(buf))
		return kt_error(KT_EINVALID, "bad folder name '%s'", path);
	memcpy(buf, path, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		char c = buf[i];
		buf[i] = '\0';
		if (mkdir(buf, 0777) != 0 && errno != EEXIST)
			return kt_error(KT_EIO, "cannot create '%s': %s", buf,
			                strerror(errno));
		buf[i] = c;
	}
	return 0;
}

uint64_t kt_hash(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

bool kt_path_is_opencl(const char *path)
{
	size_t n = path ? strlen(path) : 0;
	return n > 3 && !strcmp(path + n - 3, ".cl");
}
