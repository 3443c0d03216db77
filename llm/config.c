/*
 * config.c - where the LLM planner's server, model and key come from: a
 * config file of `key = value` lines, then the environment, which wins.
 *
 * Design choice: the key is a secret from the moment it is read. No
 * message here ever contains a value read for it, and a config file that
 * holds one must not be readable by others (as ssh does with its keys).
 */
#include "ktc/llm.h"

#include "util/fs.h"
#include "util/str.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int set_str(char **dst, const char *v)
{
	char *s = kt_strdup(v);
	if (!s)
		return kt_error(KT_ENOMEM, "out of memory");
	kt_free(*dst);
	*dst = s;
	return 0;
}

static int set_num(long *dst, const char *v, long scale, const char *what)
{
	char *end;
	errno = 0;
	double d = strtod(v, &end);
	if (errno || end == v || *end || d < 0 || d * (double)scale > 1e15)
		return kt_error(KT_EINVALID, "%s: '%s' is not a number >= 0",
		                what, v);
	*dst = (long)(d * (double)scale);
	return 0;
}

/* One setting, by the file's key name; what names it in messages. */
static int setting(kt_llm_config *c, const char *key, const char *v,
                   const char *what)
{
	long n = 0;
	int rc = 0;
	if (!strcmp(key, "base_url"))
		return set_str(&c->base_url, v);
	if (!strcmp(key, "model"))
		return set_str(&c->model, v);
	if (!strcmp(key, "api_key"))
		return set_str(&c->api_key, v);
	if (!strcmp(key, "stream")) {
		c->stream = !strcmp(v, "1") || !strcmp(v, "true");
		return 0;
	}
	if (!strcmp(key, "timeout"))
		return set_num(&c->timeout_ms, v, 1000, what);
	if (!strcmp(key, "connect_timeout"))
		return set_num(&c->connect_timeout_ms, v, 1000, what);
	if (!strcmp(key, "retries") || !strcmp(key, "max_requests") ||
	    !strcmp(key, "max_tokens")) {
		rc = set_num(&n, v, 1, what);
		if (!rc && key[0] == 'r')
			c->retries = n ? (int)(n > 100 ? 100 : n) : -1;
		else if (!rc && key[4] == 'r')
			c->max_requests = (int)(n > 100000 ? 100000 : n);
		else if (!rc)
			c->max_tokens = n;
		return rc;
	}
	return kt_error(KT_EINVALID, "%s: unknown setting '%s'", what, key);
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
	return s;
}

static int read_file(kt_llm_config *c, const char *path)
{
	char *text = NULL;
	size_t len = 0;
	int rc = kt_fs_read(&text, &len, path);
	if (rc)
		return rc;
	int line = 0;
	bool key = false;
	for (char *p = text, *nl; !rc && p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = 0;
		line++;
		char *s = trim(p), *eq = strchr(s, '=');
		if (!*s || *s == '#')
			continue;
		if (!eq) {
			rc = kt_error(KT_EINVALID,
			              "%s:%d:1: error: expected 'key = value'",
			              path, line);
			break;
		}
		*eq = 0;
		char *k = trim(s), *v = trim(eq + 1);
		key |= !strcmp(k, "api_key");
		char what[300];
		snprintf(what, sizeof(what), "%s:%d", path, line);
		rc = setting(c, k, v, what);
	}
	kt_free(text);
	struct stat st;
	if (!rc && key && !stat(path, &st) && (st.st_mode & 077))
		rc = kt_error(KT_EINVALID,
		              "'%s' holds an API key and is readable by "
		              "others: chmod 600 it",
		              path);
	return rc;
}

/* The first of the variables that is set and not empty. */
static const char *env(const char *a, const char *b)
{
	const char *v = getenv(a);
	if ((!v || !*v) && b)
		v = getenv(b);
	return v && *v ? v : NULL;
}

static int read_env(kt_llm_config *c)
{
	static const char *const vars[][3] = {
	    {"KTC_LLM_BASE_URL", "OPENAI_BASE_URL", "base_url"},
	    {"KTC_LLM_MODEL", "OPENAI_MODEL", "model"},
	    {"KTC_LLM_API_KEY", "OPENAI_API_KEY", "api_key"},
	    {"KTC_LLM_TIMEOUT", NULL, "timeout"},
	    {"KTC_LLM_CONNECT_TIMEOUT", NULL, "connect_timeout"},
	    {"KTC_LLM_RETRIES", NULL, "retries"},
	    {"KTC_LLM_MAX_REQUESTS", NULL, "max_requests"},
	    {"KTC_LLM_MAX_TOKENS", NULL, "max_tokens"},
	    {"KTC_LLM_STREAM", NULL, "stream"},
	};
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = env(vars[i][0], vars[i][1]);
		int rc = v ? setting(c, vars[i][2], v, vars[i][0]) : 0;
		if (rc)
			return rc;
	}
	return 0;
}

int kt_llm_config_load(kt_llm_config *c, const char *file, bool need_server)
{
	memset(c, 0, sizeof(*c));
	if (!file)
		file = env("KTC_LLM_CONFIG", NULL);
	int rc = file ? read_file(c, file) : 0;
	if (!rc)
		rc = read_env(c);
	if (!rc && need_server && (!c->base_url || !c->model))
		rc = kt_error(KT_EINVALID,
		              "no LLM server configured: set KTC_LLM_BASE_URL "
		              "and KTC_LLM_MODEL (and KTC_LLM_API_KEY), or "
		              "give a config file (docs/llm.md)");
	if (rc)
		kt_llm_config_release(c);
	return rc;
}

void kt_llm_config_release(kt_llm_config *c)
{
	kt_free(c->base_url);
	kt_free(c->model);
	if (c->api_key)
		memset(c->api_key, 0, strlen(c->api_key));
	kt_free(c->api_key);
	c->base_url = c->model = c->api_key = NULL;
}
