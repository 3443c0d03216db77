/*
 * cache.c - the append-only cache of evaluations: JSON lines, one header
 * line, then one line per finished evaluation.
 *
 * Durability is the design: each line goes out in a single write(2) and is
 * fsync'd before kt_cache_append returns, so after a crash the file holds
 * every evaluation that was reported finished, plus at most one partial line
 * at the end. A partial last line (no newline) is dropped when the file is
 * read and cut off before the next append, so the file never holds a broken
 * line in the middle. A damaged line anywhere else is an error, not guessed
 * around.
 */
#include "tuner/results_impl.h"
#include "util/table.h"

#include "util/fs.h"
#include "util/str.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct kt_cache {
	char *path;
	int fd;
	kt_results *res;
	kt_table keys; /* hash of key -> index into res->records */
};

static uint64_t key_hash(const char *key)
{
	return kt_hash(KT_HASH_INIT, key, strlen(key));
}

/* ---- reading ---------------------------------------------------------- */

static int parse_header(kt_results_info *info, const cJSON *h)
{
	const char *s;
	int rc = 0;
	if ((s = kt_json_get_string(h, "ktc_version")) &&
	    !(info->ktc_version = kt_strdup(s)))
		rc = KT_ENOMEM;
	if ((s = kt_json_get_string(h, "template")) &&
	    !(info->template_path = kt_strdup(s)))
		rc = KT_ENOMEM;
	if ((s = kt_json_get_string(h, "kernel")) &&
	    !(info->kernel = kt_strdup(s)))
		rc = KT_ENOMEM;
	if (rc)
		return kt_error(KT_ENOMEM, "out of memory");
	if ((s = kt_json_get_string(h, "template_hash")))
		sscanf(s, "%16llx", (unsigned long long *)&info->template_hash);
	kt_json_to_device(cJSON_GetObjectItemCaseSensitive(h, "device"),
	                  &info->device);
	info->specials =
	    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(h, "specials"));
	if ((rc = kt_json_to_problem(
	         cJSON_GetObjectItemCaseSensitive(h, "problem"), info)))
		return rc;
	const cJSON *params = cJSON_GetObjectItemCaseSensitive(h, "params");
	if (!cJSON_IsArray(params))
		return kt_error(KT_EINVALID, "the header has no 'params' list");
	size_t n = (size_t)cJSON_GetArraySize(params);
	if (!(info->param_names = kt_calloc(n + 1, sizeof(char *))))
		return kt_error(KT_ENOMEM, "out of memory");
	const cJSON *p;
	cJSON_ArrayForEach(p, params)
	{
		if (!cJSON_IsString(p))
			return kt_error(KT_EINVALID,
			                "a parameter name is not a string");
		if (!(info->param_names[info->nparams++] =
		          kt_strdup(p->valuestring)))
			return kt_error(KT_ENOMEM, "out of memory");
	}
	return 0;
}

static int parse_runtimes(kt_result *res, const cJSON *arr)
{
	if (!cJSON_IsArray(arr))
		return 0;
	size_t n = (size_t)cJSON_GetArraySize(arr);
	if (!n)
		return 0;
	if (!(res->runtimes_ms = kt_malloc(n * sizeof(double))))
		return kt_error(KT_ENOMEM, "out of memory");
	const cJSON *v;
	cJSON_ArrayForEach(v, arr) res->runtimes_ms[res->nruntimes++] =
	    cJSON_IsNumber(v) ? v->valuedouble : NAN;
	return 0;
}

static int parse_measures(kt_result *res, const cJSON *arr)
{
	const cJSON *m;
	cJSON_ArrayForEach(m, arr)
	{
		const char *name = kt_json_get_string(m, "name");
		const char *unit = kt_json_get_string(m, "unit");
		if (!name)
			return kt_error(KT_EINVALID, "a measure has no name");
		int rc = kt_result_add_measure(
		    res, name, kt_json_get_number(m, "value", NAN), unit);
		if (rc)
			return rc;
	}
	return 0;
}

/* The numbers of a record line; absent ones are unknown (NaN) or 0. */
static void parse_numbers(kt_result *res, const cJSON *j)
{
	res->time_ms = kt_json_get_number(j, "time_ms", NAN);
	res->spread = kt_json_get_number(j, "spread", NAN);
	res->timestamp = kt_json_get_number(j, "timestamp", 0);
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "times");
	res->compile_s = kt_json_get_number(t, "compile", 0);
	res->verify_s = kt_json_get_number(t, "verify", 0);
	res->benchmark_s = kt_json_get_number(t, "benchmark", 0);
	res->framework_s = kt_json_get_number(t, "framework", 0);
	res->strategy_s = kt_json_get_number(t, "strategy", 0);
}

static int parse_record(kt_record *rec, const cJSON *j,
                        const kt_results_info *info)
{
	const char *key = kt_json_get_string(j, "key");
	const char *status = kt_json_get_string(j, "status");
	const cJSON *config = cJSON_GetObjectItemCaseSensitive(j, "config");
	if (!key || !status || !cJSON_IsObject(config))
		return kt_error(KT_EINVALID,
		                "a record needs 'key', 'config' and 'status'");
	int st = kt_status_parse(status);
	if (st < 0)
		return kt_error(KT_EINVALID, "unknown status '%s'", status);
	kt_result *res = &rec->result;
	res->status = (kt_status)st;
	parse_numbers(res, j);
	const char *msg = kt_json_get_string(j, "message");
	if (!(rec->key = kt_strdup(key)) ||
	    (msg && !(res->message = kt_strdup(msg))) ||
	    !(rec->values = kt_calloc(info->nparams + 1, sizeof(kt_value))))
		return kt_error(KT_ENOMEM, "out of memory");
	for (size_t i = 0; i < info->nparams; i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(
		    config, info->param_names[i]);
		if (kt_json_to_value(v, &rec->values[i]))
			return kt_error(
			    KT_EINVALID,
			    "parameter '%s' missing or not a number",
			    info->param_names[i]);
	}
	int rc = parse_runtimes(
	    res, cJSON_GetObjectItemCaseSensitive(j, "runtimes"));
	if (!rc)
		rc = parse_measures(
		    res, cJSON_GetObjectItemCaseSensitive(j, "measures"));
	return rc;
}

/* Parses the record line text[0..n) (line number lineno) into r. */
static int parse_line(kt_results *r, const char *text, size_t n, size_t lineno,
                      const char *path)
{
	cJSON *j = cJSON_ParseWithLength(text, n);
	if (!j)
		return kt_error(KT_EPARSE,
		                "cache '%s' line %zu is damaged (not JSON)",
		                path, lineno);
	kt_record rec = {0};
	kt_result_init(&rec.result);
	int rc = parse_record(&rec, j, &r->info);
	if (!rc)
		rc = kt_record_check(&rec, &r->info);
	if (rc)
		rc = kt_error(rc, "cache '%s' line %zu: %s", path, lineno,
		              kt_error_last());
	else
		rc = kt_results_push(r, &rec);
	kt_record_release(&rec);
	cJSON_Delete(j);
	return rc;
}

static int parse_header_line(kt_results *r, const char *text, size_t n,
                             const char *path)
{
	cJSON *h = cJSON_ParseWithLength(text, n);
	if (!h || !cJSON_GetObjectItemCaseSensitive(h, "ktc_cache")) {
		cJSON_Delete(h);
		return kt_error(KT_EPARSE, "'%s' has no ktc cache header line",
		                path);
	}
	double version = kt_json_get_number(h, "ktc_cache", NAN);
	int rc = version == 1 ? parse_header(&r->info, h)
	                      : kt_error(KT_EINVALID,
	                                 "version %g; this ktc reads version 1",
	                                 version);
	if (rc)
		rc = kt_error(rc, "cache '%s' header: %s", path,
		              kt_error_last());
	cJSON_Delete(h);
	return rc;
}

int kt_cache_parse(kt_results *r, const char *text, size_t len,
                   const char *path)
{
	r->format = KT_RESULTS_CACHE;
	size_t pos = 0, lineno = 0;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		lineno++;
		if (!nl) { /* a run killed mid-write: the line never finished */
			if (lineno == 1)
				return kt_error(
				    KT_EPARSE,
				    "cache '%s' has a truncated header line",
				    path);
			r->dropped = 1;
			break;
		}
		size_t n = (size_t)(nl - (text + pos));
		int rc = 0;
		if (lineno == 1)
			rc = parse_header_line(r, text + pos, n, path);
		else if (n > 0)
			rc = parse_line(r, text + pos, n, lineno, path);
		if (rc)
			return rc;
		pos += n + 1;
		r->good_bytes = pos;
	}
	if (lineno == 0)
		return kt_error(KT_EPARSE, "cache '%s' is empty", path);
	return 0;
}

/* ---- writing ---------------------------------------------------------- */

static int write_all(int fd, const char *data, size_t len, const char *path)
{
	while (len > 0) {
		ssize_t w = write(fd, data, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return kt_error(KT_EIO, "cannot write '%s': %s", path,
			                strerror(errno));
		data += w;
		len -= (size_t)w;
	}
	if (fsync(fd) != 0)
		return kt_error(KT_EIO, "cannot sync '%s': %s", path,
		                strerror(errno));
	return 0;
}

/* Prints j as one line and appends it to the file. */
static int write_line(kt_cache *c, cJSON *j)
{
	char *text = j ? cJSON_PrintUnformatted(j) : NULL;
	if (!text)
		return kt_error(KT_ENOMEM, "out of memory");
	kt_str line = KT_STR_INIT;
	int rc = kt_str_adds(&line, text);
	if (!rc)
		rc = kt_str_addc(&line, '\n');
	if (!rc)
		rc = write_all(c->fd, line.ptr, line.len, c->path);
	kt_str_release(&line);
	cJSON_free(text);
	return rc;
}

static cJSON *header_json(const kt_results_info *info)
{
	char hash[20];
	snprintf(hash, sizeof(hash), "%016llx",
	         (unsigned long long)info->template_hash);
	cJSON *h = cJSON_CreateObject();
	kt_json_add_number(h, "ktc_cache", 1);
	cJSON_AddStringToObject(h, "ktc_version", KTC_VERSION);
	cJSON_AddStringToObject(h, "template",
	                        info->template_path ? info->template_path : "");
	cJSON_AddStringToObject(h, "template_hash", hash);
	cJSON_AddStringToObject(h, "kernel", info->kernel ? info->kernel : "");
	cJSON_AddItemToObject(h, "problem", kt_json_from_problem(info));
	cJSON_AddItemToObject(h, "device", kt_json_from_device(&info->device));
	if (info->specials)
		cJSON_AddTrueToObject(h, "specials");
	cJSON *p = cJSON_AddArrayToObject(h, "params");
	for (size_t i = 0; i < info->nparams; i++)
		cJSON_AddItemToArray(p,
		                     cJSON_CreateString(info->param_names[i]));
	kt_json_add_number(h, "created", kt_results_now());
	return h;
}

/* The JSON of one record line; NULL when out of memory. */
static cJSON *record_json(const kt_results_info *info, const char *key,
                          const kt_value *values, const kt_result *r)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "key", key);
	cJSON *config = cJSON_AddObjectToObject(j, "config");
	for (size_t i = 0; i < info->nparams; i++)
		cJSON_AddItemToObject(config, info->param_names[i],
		                      kt_json_from_value(values[i]));
	cJSON_AddStringToObject(j, "status", kt_status_name(r->status));
	cJSON_AddItemToObject(j, "time_ms", kt_json_number(r->time_ms));
	cJSON_AddItemToObject(j, "spread", kt_json_number(r->spread));
	cJSON *rt = cJSON_AddArrayToObject(j, "runtimes");
	for (size_t i = 0; i < r->nruntimes; i++)
		cJSON_AddItemToArray(rt, kt_json_number(r->runtimes_ms[i]));
	cJSON *t = cJSON_AddObjectToObject(j, "times");
	kt_json_add_number(t, "compile", r->compile_s);
	kt_json_add_number(t, "verify", r->verify_s);
	kt_json_add_number(t, "benchmark", r->benchmark_s);
	kt_json_add_number(t, "framework", r->framework_s);
	kt_json_add_number(t, "strategy", r->strategy_s);
	cJSON *ms = cJSON_AddArrayToObject(j, "measures");
	for (size_t i = 0; i < r->nmeasures; i++) {
		cJSON *m = cJSON_CreateObject();
		cJSON_AddStringToObject(m, "name", r->measures[i].name);
		cJSON_AddItemToObject(m, "value",
		                      kt_json_number(r->measures[i].value));
		cJSON_AddStringToObject(m, "unit", r->measures[i].unit);
		cJSON_AddItemToArray(ms, m);
	}
	if (r->message)
		cJSON_AddStringToObject(j, "message", r->message);
	kt_json_add_number(j, "timestamp", r->timestamp);
	return j;
}

/* ---- opening ---------------------------------------------------------- */

static bool same_problem(const kt_results_info *a, const kt_results_info *b)
{
	if (a->nproblems != b->nproblems)
		return false;
	for (size_t i = 0; i < a->nproblems; i++)
		if (strcmp(a->problem_names[i], b->problem_names[i]) ||
		    kt_value_as_double(a->problem[i]) !=
		        kt_value_as_double(b->problem[i]))
			return false;
	return true;
}

static void format_problem(char *buf, size_t cap, const kt_results_info *info)
{
	size_t n = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < info->nproblems && n < cap; i++) {
		kt_value v = info->problem[i];
		if (v.is_float)
			n += (size_t)snprintf(buf + n, cap - n, "%s%s=%.17g",
			                      i ? "," : "",
			                      info->problem_names[i], v.f);
		else
			n += (size_t)snprintf(
			    buf + n, cap - n, "%s%s=%lld", i ? "," : "",
			    info->problem_names[i], (long long)v.i);
	}
	if (!info->nproblems)
		snprintf(buf, cap, "(none)");
}

/* Why the cache's header does not fit want, or 0 if it does. */
static int check_header(const kt_results_info *have,
                        const kt_results_info *want, const char *path)
{
	const char *hint = "; use another cache file or start a new one "
	                   "(ktc tune --force-new keeps the old one as '.old')";
	if (have->template_hash != want->template_hash)
		return kt_error(
		    KT_EINVALID,
		    "cache '%s' was written for another version of the "
		    "template (content hash %016llx, now %016llx)%s",
		    path, (unsigned long long)have->template_hash,
		    (unsigned long long)want->template_hash, hint);
	if (strcmp(have->kernel ? have->kernel : "",
	           want->kernel ? want->kernel : ""))
		return kt_error(
		    KT_EINVALID,
		    "cache '%s' was written for kernel '%s', not '%s'%s", path,
		    have->kernel ? have->kernel : "", want->kernel, hint);
	if (!same_problem(have, want)) {
		char a[256], b[256];
		format_problem(a, sizeof(a), have);
		format_problem(b, sizeof(b), want);
		return kt_error(
		    KT_EINVALID,
		    "cache '%s' was written for problem %s, not %s%s", path, a,
		    b, hint);
	}
	if (want->specials && !have->specials)
		return kt_error(KT_EINVALID,
		                "cache '%s' holds results checked without "
		                "special input values (NaN, Inf, subnormals): "
		                "they do not answer a run that checks them%s",
		                path, hint);
	if (strcmp(have->device.name, want->device.name))
		return kt_error(
		    KT_EINVALID,
		    "cache '%s' was written on device '%s', not '%s'%s", path,
		    have->device.name, want->device.name, hint);
	/* one name, other limits: a MIG slice, another driver's view */
	for (size_t i = 0; i < kt_device_nconsts && i < 64; i++)
		if (have->device.has_const[i] && want->device.has_const[i] &&
		    have->device.consts[i] != want->device.consts[i])
			return kt_error(
			    KT_EINVALID,
			    "cache '%s' was written on a device with "
			    "%s = %lld, not %lld%s",
			    path, kt_device_consts[i].name,
			    (long long)have->device.consts[i],
			    (long long)want->device.consts[i], hint);
	return 0;
}

static int lock_file(int fd, const char *path)
{
	struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
	if (fcntl(fd, F_SETLK, &fl) == 0)
		return 0;
	if (errno == EACCES || errno == EAGAIN)
		return kt_error(
		    KT_EIO, "cache '%s' is in use by another ktc run", path);
	return kt_error(KT_EIO, "cannot lock '%s': %s", path, strerror(errno));
}

/* Reads the whole open file into a NUL-terminated buffer. */
static int read_fd(int fd, char **out, size_t *len, const char *path)
{
	struct stat st;
	if (fstat(fd, &st) != 0)
		return kt_error(KT_EIO, "cannot read '%s': %s", path,
		                strerror(errno));
	if (!S_ISREG(st.st_mode))
		return kt_error(KT_EINVALID, "cache '%s' is not a regular file",
		                path);
	if (st.st_size > KT_FS_MAX_READ)
		return kt_error(KT_EINVALID,
		                "cache '%s' is larger than the limit of %d MiB",
		                path, KT_FS_MAX_READ >> 20);
	size_t n = (size_t)st.st_size, got = 0;
	char *buf = kt_malloc(n + 1);
	if (!buf)
		return kt_error(KT_ENOMEM, "out of memory reading '%s'", path);
	while (got < n) {
		ssize_t r = pread(fd, buf + got, n - got, (off_t)got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	buf[got] = '\0';
	*out = buf;
	*len = got;
	return 0;
}

/*
 * A key recorded again is not indexed again: the first record answers, as
 * before, and n copies of one key no longer probe n^2 slots of the table
 * (200000 copies took 33 s to open).
 */
static int index_records(kt_cache *c, size_t from)
{
	for (size_t i = from; i < c->res->nrecords; i++)
		if (!kt_cache_find(c, c->res->records[i].key) &&
		    kt_table_put(&c->keys, key_hash(c->res->records[i].key), i))
			return KT_ENOMEM;
	return 0;
}

/* Opens and locks path, creating it; fills c->fd. */
static int open_locked(kt_cache *c, bool truncate)
{
	c->fd =
	    open(c->path, O_RDWR | O_CREAT | (truncate ? O_TRUNC : 0), 0644);
	if (c->fd < 0)
		return kt_error(KT_EIO, "cannot open '%s': %s", c->path,
		                strerror(errno));
	return lock_file(c->fd, c->path);
}

/* Moves the old cache aside and starts an empty one with want's header. */
static int start_new(kt_cache *c, const kt_results_info *want, bool move_old)
{
	if (move_old) {
		kt_str old = KT_STR_INIT;
		int rc = kt_str_addf(&old, "%s.old", c->path);
		if (!rc && rename(c->path, old.ptr) != 0)
			rc = kt_error(KT_EIO, "cannot rename '%s': %s", c->path,
			              strerror(errno));
		kt_str_release(&old);
		close(c->fd);
		c->fd = -1;
		if (rc || (rc = open_locked(c, true)))
			return rc;
	}
	kt_results_free(c->res);
	if (!(c->res = kt_calloc(1, sizeof(*c->res))))
		return kt_error(KT_ENOMEM, "out of memory");
	c->res->format = KT_RESULTS_CACHE;
	cJSON *h = header_json(want);
	int rc = write_line(c, h);
	cJSON_Delete(h);
	if (rc)
		return rc;
	return kt_results_info_copy(&c->res->info, want);
}

/* Reads the existing file; *usable is false when it must be replaced. */
static int load_existing(kt_cache *c, const kt_results_info *want,
                         bool force_new, bool *usable)
{
	char *text = NULL;
	size_t len = 0;
	int rc = read_fd(c->fd, &text, &len, c->path);
	if (rc)
		return rc;
	*usable = len > 0;
	if (len > 0) {
		if (!(c->res = kt_calloc(1, sizeof(*c->res))))
			rc = kt_error(KT_ENOMEM, "out of memory");
		if (!rc)
			rc = kt_cache_parse(c->res, text, len, c->path);
		if (!rc)
			rc = check_header(&c->res->info, want, c->path);
		if (rc && force_new) {
			*usable = false;
			rc = 0;
		}
	}
	kt_free(text);
	return rc;
}

int kt_cache_open(kt_cache **out, const char *path, const kt_results_info *want,
                  bool force_new)
{
	*out = NULL;
	kt_cache *c = kt_calloc(1, sizeof(*c));
	if (!c || !(c->path = kt_strdup(path))) {
		kt_free(c);
		return kt_error(KT_ENOMEM, "out of memory");
	}
	c->fd = -1;
	bool usable = false;
	int rc = open_locked(c, false);
	if (!rc)
		rc = load_existing(c, want, force_new, &usable);
	if (rc)
		goto done;
	if (!usable) {
		off_t size = lseek(c->fd, 0, SEEK_END);
		rc = start_new(c, want, size > 0);
	} else if (c->res->dropped &&
	           ftruncate(c->fd, (off_t)c->res->good_bytes) != 0) {
		rc = kt_error(KT_EIO,
		              "cannot cut the truncated line of '%s': %s", path,
		              strerror(errno));
	}
	if (!rc && lseek(c->fd, 0, SEEK_END) < 0)
		rc = kt_error(KT_EIO, "cannot seek '%s': %s", path,
		              strerror(errno));
	if (!rc)
		rc = index_records(c, 0);
done:
	if (rc)
		kt_cache_close(c);
	else
		*out = c;
	return rc;
}

const kt_results *kt_cache_results(const kt_cache *c)
{
	return c->res;
}

const kt_record *kt_cache_find(const kt_cache *c, const char *key)
{
	uint64_t h = key_hash(key);
	size_t pos = 0, i;
	while ((i = kt_table_next(&c->keys, h, &pos)) != SIZE_MAX)
		if (!strcmp(c->res->records[i].key, key))
			return &c->res->records[i];
	return NULL;
}

static int copy_record(kt_record *rec, const kt_results_info *info,
                       const char *key, const kt_value *values,
                       const kt_result *r)
{
	memset(rec, 0, sizeof(*rec));
	kt_result_init(&rec->result);
	rec->key = kt_strdup(key);
	rec->values = kt_calloc(info->nparams + 1, sizeof(kt_value));
	if (!rec->key || !rec->values)
		return kt_error(KT_ENOMEM, "out of memory");
	memcpy(rec->values, values, info->nparams * sizeof(kt_value));
	return kt_result_copy(&rec->result, r);
}

int kt_cache_append(kt_cache *c, const char *key, const kt_value *values,
                    const kt_result *r)
{
	cJSON *j = record_json(&c->res->info, key, values, r);
	int rc = write_line(c, j);
	cJSON_Delete(j);
	if (rc)
		return rc;
	kt_record rec;
	rc = copy_record(&rec, &c->res->info, key, values, r);
	if (!rc)
		rc = kt_results_push(c->res, &rec);
	if (!rc)
		rc = index_records(c, c->res->nrecords - 1);
	kt_record_release(&rec);
	return rc;
}

void kt_cache_close(kt_cache *c)
{
	if (!c)
		return;
	if (c->fd >= 0)
		close(c->fd); /* also releases the lock */
	kt_results_free(c->res);
	kt_table_release(&c->keys);
	kt_free(c->path);
	kt_free(c);
}
