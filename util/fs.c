/* fs.c - file helpers of fs.h. POSIX only. */
#include "util/fs.h"

#include "ktc/common.h"

#include <errno.h>
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

int kt_fs_write_atomic(const char *path, const void *data, size_t len)
{
	size_t plen = strlen(path);
	char *tmp = kt_malloc(plen + 32);
	if (!tmp)
		return kt_error(KT_ENOMEM, "out of memory");
	snprintf(tmp, plen + 32, "%s.tmp.%ld", path, (long)getpid());
	int rc = KT_OK;
	FILE *f = fopen(tmp, "wb");
	if (!f) {
		rc = kt_error(KT_EIO, "cannot write '%s': %s", path,
		              strerror(errno));
		goto done;
	}
	if (fwrite(data, 1, len, f) != len || fflush(f) != 0 ||
	    fsync(fileno(f)) != 0) {
		rc = kt_error(KT_EIO, "cannot write '%s': %s", path,
		              strerror(errno));
		fclose(f);
		unlink(tmp);
		goto done;
	}
	fclose(f);
	if (rename(tmp, path) != 0) {
		rc = kt_error(KT_EIO, "cannot replace '%s': %s", path,
		              strerror(errno));
		unlink(tmp);
	}
done:
	kt_free(tmp);
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
