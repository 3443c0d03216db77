/*
 * fs.h - whole-file reads, atomic writes (temporary file, fsync, rename: an
 * output is never left half-written), and a 64-bit content hash.
 */
#ifndef KTC_UTIL_FS_H
#define KTC_UTIL_FS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Reads the file into *out (NUL-terminated, kt_free it); *len may be NULL.
 * Refuses more than KT_FS_MAX_READ bytes: templates, plans, caches and
 * recordings are far smaller, and /dev/zero never ends.
 */
#define KT_FS_MAX_READ (256 << 20)
int kt_fs_read(char **out, size_t *len, const char *path);
/*
 * Writes data to path through a temporary file in the same folder as the
 * file written: a symlink's target (the link stays), keeping an existing
 * file's mode. Refuses to replace what is not a regular file (a fifo, a
 * device, a folder).
 */
int kt_fs_write_atomic(const char *path, const void *data, size_t len);
/*
 * Whether kt_fs_write_atomic(path) can work, checked before a long run:
 * path is a regular file or absent, its folder exists and is writable.
 */
int kt_fs_check_output(const char *path);
/* 1 if a and b name the same existing file (device and inode), else 0. */
int kt_fs_same_file(const char *a, const char *b);
/* Creates a folder and its parents; fine if it exists. */
int kt_fs_mkdirs(const char *path);

/* FNV-1a, 64 bits; chain calls by passing the previous hash as h. */
#define KT_HASH_INIT 0xcbf29ce484222325ULL
uint64_t kt_hash(uint64_t h, const void *data, size_t len);

#endif
