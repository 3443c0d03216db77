/*
 * client.c - one OpenAI-compatible chat-completions server over libcurl:
 * a request, its retries, its answer (JSON or a stream of server-sent
 * events), the run's budget, and the transcript of it all.
 *
 * Design choice: an exchange is the unit of both the network and the
 * transcript. Each attempt becomes one `exchange` (status, content type,
 * Retry-After, the raw answer, or the transport error), written to the
 * transcript as one JSON line; a replayed run reads the same exchanges
 * back instead of asking the network, so everything after the transport
 * (retries, the fallback from response_format, answer parsing, the budget)
 * runs the same code online and offline. The key goes only into the
 * Authorization header, which nothing writes; any text written is passed
 * through redact() first, in case a server echoes the key.
 */
#include "ktc/llm.h"

#include "util/fs.h"
#include "util/str.h"

#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

enum { MAX_RETRY_HEADER_S = 3600 };

typedef struct exchange {
	long status;         /* HTTP status; 0: no answer */
	char *content_type;  /* may be NULL */
	long retry_after_ms; /* -1: none */
	char *body;          /* the raw answer (redacted) */
	size_t len;
	char *error; /* the transport's failure, NULL if an answer came */
	bool timeout, too_big, cancelled;
} exchange;

struct kt_llm {
	kt_llm_config c;
	char *transcript, *replay;
	FILE *out;      /* the transcript, or NULL */
	cJSON **played; /* the replayed exchanges */
	size_t nplayed, next;
	bool no_format; /* the server refused response_format */
	int requests;   /* made (attempts included) */
	int64_t tokens;
	int attempt_seq; /* numbers the transcript's lines */
};

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_init_rc;

static void init_curl(void)
{
	curl_init_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

/* ---------------------------------------------------------- secrets */

/* s with every occurrence of the key replaced (memory of the caller). */
static char *redact(const kt_llm *l, const char *s, size_t len)
{
	const char *key = l->c.api_key;
	size_t kn = key ? strlen(key) : 0;
	kt_str out = KT_STR_INIT;
	for (size_t i = 0; i < len;) {
		if (kn >= 4 && i + kn <= len && !memcmp(s + i, key, kn)) {
			kt_str_adds(&out, "[redacted]");
			i += kn;
		} else {
			kt_str_addc(&out, s[i++]);
		}
	}
	if (kt_str_addc(&out, 0)) {
		kt_str_release(&out);
		return NULL;
	}
	out.len--;
	return kt_str_detach(&out);
}

/* url with a `user:password@` part replaced (caller's memory). */
static char *without_userinfo(const char *url)
{
	const char *s = strstr(url, "://");
	const char *host = s ? s + 3 : url;
	size_t n = strcspn(host, "/?#");
	const char *at = memchr(host, '@', n);
	if (!at)
		return kt_strdup(url);
	kt_str out = KT_STR_INIT;
	kt_str_addf(&out, "%.*s[redacted]%s", (int)(host - url), url, at);
	return kt_str_detach(&out);
}

/* ------------------------------------------------------ the transcript */

static void write_line(kt_llm *l, cJSON *j)
{
	char *s = cJSON_PrintUnformatted(j);
	char *r = s ? redact(l, s, strlen(s)) : NULL;
	if (r && l->out &&
	    (fputs(r, l->out) < 0 || fputc('\n', l->out) < 0 || fflush(l->out)))
		fprintf(stderr, "ktc: cannot write the transcript '%s'\n",
		        l->transcript);
	kt_free(r);
	cJSON_free(s);
}

static void record(kt_llm *l, const char *request, const exchange *x)
{
	if (!l->out)
		return;
	cJSON *j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "n", ++l->attempt_seq);
	cJSON *req = cJSON_Parse(request);
	cJSON_AddItemToObject(j, "request", req ? req : cJSON_CreateNull());
	cJSON_AddNumberToObject(j, "status", (double)x->status);
	if (x->content_type)
		cJSON_AddStringToObject(j, "content_type", x->content_type);
	if (x->retry_after_ms >= 0)
		cJSON_AddNumberToObject(j, "retry_after_ms",
		                        (double)x->retry_after_ms);
	if (x->body)
		cJSON_AddStringToObject(j, "answer", x->body);
	if (x->error)
		cJSON_AddStringToObject(j, "error", x->error);
	if (x->timeout)
		cJSON_AddTrueToObject(j, "timeout");
	if (x->too_big)
		cJSON_AddTrueToObject(j, "too_big");
	write_line(l, j);
	cJSON_Delete(j);
}

static int open_transcript(kt_llm *l)
{
	if (!l->transcript)
		return 0;
	l->out = fopen(l->transcript, "w");
	if (!l->out)
		return kt_error(KT_EIO, "cannot write '%s': %s", l->transcript,
		                strerror(errno));
	cJSON *h = cJSON_CreateObject();
	cJSON_AddNumberToObject(h, "ktc_llm_transcript", 1);
	char *url = l->c.base_url ? without_userinfo(l->c.base_url) : NULL;
	if (url)
		cJSON_AddStringToObject(h, "base_url", url);
	kt_free(url);
	if (l->c.model)
		cJSON_AddStringToObject(h, "model", l->c.model);
	if (l->replay)
		cJSON_AddStringToObject(h, "replayed_from", l->replay);
	write_line(l, h);
	cJSON_Delete(h);
	return 0;
}

static int load_replay(kt_llm *l)
{
	char *text = NULL;
	size_t len = 0;
	int rc = kt_fs_read(&text, &len, l->replay);
	if (rc)
		return rc;
	int line = 0;
	for (char *p = text, *nl; !rc && p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = 0;
		line++;
		if (!*p)
			continue;
		cJSON *j = cJSON_Parse(p);
		if (!cJSON_IsObject(j)) {
			cJSON_Delete(j);
			rc = kt_error(KT_EPARSE,
			              "%s:%d:1: error: not a JSON object",
			              l->replay, line);
			break;
		}
		if (!cJSON_GetObjectItem(j, "status")) {
			cJSON_Delete(j); /* the header */
			continue;
		}
		cJSON **v =
		    kt_realloc(l->played, (l->nplayed + 1) * sizeof(*v));
		if (!v) {
			cJSON_Delete(j);
			rc = kt_error(KT_ENOMEM, "out of memory");
			break;
		}
		l->played = v;
		l->played[l->nplayed++] = j;
	}
	kt_free(text);
	return rc;
}

/* ------------------------------------------------------------- network */

typedef struct xfer {
	kt_llm *l;
	exchange *x;
	kt_str body;
} xfer;

static size_t on_body(char *p, size_t size, size_t n, void *ud)
{
	xfer *t = ud;
	size_t len = size * n;
	if (t->body.len + len > t->l->c.max_answer) {
		t->x->too_big = true;
		return 0;
	}
	return kt_str_add(&t->body, p, len) ? 0 : len;
}

static size_t on_header(char *p, size_t size, size_t n, void *ud)
{
	xfer *t = ud;
	size_t len = size * n;
	if (len > 12 && !strncasecmp(p, "retry-after:", 12)) {
		char *end;
		long s = strtol(p + 12, &end, 10);
		if (end != p + 12 && s >= 0)
			t->x->retry_after_ms =
			    (s > MAX_RETRY_HEADER_S ? MAX_RETRY_HEADER_S : s) *
			    1000;
	}
	return len;
}

static int on_progress(void *ud, curl_off_t a, curl_off_t b, curl_off_t c,
                       curl_off_t d)
{
	xfer *t = ud;
	return t->l->c.stop && *t->l->c.stop;
}

static void set_error(exchange *x, CURLcode rc, const char *detail)
{
	x->timeout = rc == CURLE_OPERATION_TIMEDOUT;
	x->cancelled = rc == CURLE_ABORTED_BY_CALLBACK;
	const char *what = *detail ? detail : curl_easy_strerror(rc);
	x->error = kt_strdup(x->too_big ? "the answer is too large" : what);
}

static void perform(kt_llm *l, const char *request, exchange *x)
{
	char err[CURL_ERROR_SIZE] = "";
	xfer t = {.l = l, .x = x, .body = KT_STR_INIT};
	CURL *h = curl_easy_init();
	if (!h) {
		x->error = kt_strdup("cannot start libcurl");
		return;
	}
	kt_str url = KT_STR_INIT, auth = KT_STR_INIT;
	size_t bl = strlen(l->c.base_url);
	while (bl && l->c.base_url[bl - 1] == '/')
		bl--;
	kt_str_addf(&url, "%.*s/chat/completions", (int)bl, l->c.base_url);
	struct curl_slist *hd = NULL;
	hd = curl_slist_append(hd, "Content-Type: application/json");
	hd = curl_slist_append(hd, "Expect:");
	if (l->c.api_key && *l->c.api_key) {
		kt_str_addf(&auth, "Authorization: Bearer %s", l->c.api_key);
		hd = curl_slist_append(hd, auth.ptr);
	}
	curl_easy_setopt(h, CURLOPT_URL, url.ptr);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hd);
	curl_easy_setopt(h, CURLOPT_POSTFIELDS, request);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, l->c.connect_timeout_ms);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, l->c.timeout_ms);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &t);
	curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(h, CURLOPT_HEADERDATA, &t);
	curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl_easy_setopt(h, CURLOPT_XFERINFODATA, &t);
	curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, err);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	CURLcode rc =
	    url.ptr && hd ? curl_easy_perform(h) : CURLE_OUT_OF_MEMORY;
	if (rc == CURLE_OK) {
		char *ct = NULL;
		curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &x->status);
		curl_easy_getinfo(h, CURLINFO_CONTENT_TYPE, &ct);
		x->content_type = ct ? kt_strdup(ct) : NULL;
	} else {
		set_error(x, rc, err);
	}
	x->body = redact(l, t.body.ptr ? t.body.ptr : "", t.body.len);
	x->len = x->body ? strlen(x->body) : 0;
	if (l->c.api_key && *l->c.api_key)
		memset(auth.ptr, 0, auth.len);
	kt_str_release(&auth);
	kt_str_release(&url);
	kt_str_release(&t.body);
	curl_slist_free_all(hd);
	curl_easy_cleanup(h);
}

static const char *jstr(const cJSON *o, const char *k)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(j) ? j->valuestring : NULL;
}

static void replayed(kt_llm *l, exchange *x)
{
	if (l->next >= l->nplayed) {
		x->error = kt_strdup("the transcript has no more answers");
		x->status = -1;
		return;
	}
	const cJSON *j = l->played[l->next++];
	const cJSON *st = cJSON_GetObjectItem(j, "status");
	const cJSON *ra = cJSON_GetObjectItem(j, "retry_after_ms");
	const char *ct = jstr(j, "content_type"), *b = jstr(j, "answer"),
	           *e = jstr(j, "error");
	x->status = cJSON_IsNumber(st) ? (long)st->valuedouble : 0;
	x->retry_after_ms = cJSON_IsNumber(ra) ? (long)ra->valuedouble : -1;
	x->content_type = ct ? kt_strdup(ct) : NULL;
	x->body = kt_strdup(b ? b : "");
	x->len = x->body ? strlen(x->body) : 0;
	x->error = e ? kt_strdup(e) : NULL;
	x->timeout = cJSON_IsTrue(cJSON_GetObjectItem(j, "timeout"));
	x->too_big = cJSON_IsTrue(cJSON_GetObjectItem(j, "too_big"));
}

static void exchange_release(exchange *x)
{
	kt_free(x->content_type);
	kt_free(x->body);
	kt_free(x->error);
	memset(x, 0, sizeof(*x));
}

/* ---------------------------------------------------------- the answer */

static void add_usage(kt_llm *l, const cJSON *o)
{
	const cJSON *u = cJSON_GetObjectItem(o, "usage");
	const cJSON *t = cJSON_GetObjectItem(u, "total_tokens");
	if (cJSON_IsNumber(t) && t->valuedouble > 0)
		l->tokens += (int64_t)t->valuedouble;
}

static const cJSON *first_choice(const cJSON *o)
{
	const cJSON *c = cJSON_GetObjectItem(o, "choices");
	return cJSON_IsArray(c) ? cJSON_GetArrayItem(c, 0) : NULL;
}

/* The content of a stream of `data: {...}` events. */
static int from_events(kt_llm *l, char **content, const exchange *x)
{
	kt_str s = KT_STR_INIT;
	const char *p = x->body;
	int rc = 0, events = 0;
	while (!rc && p && *p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		if (n >= 5 && !strncmp(p, "data:", 5)) {
			const char *d = p + 5;
			while (*d == ' ')
				d++;
			if (!strncmp(d, "[DONE]", 6))
				break;
			cJSON *o =
			    cJSON_ParseWithLength(d, n - (size_t)(d - p));
			const cJSON *dl =
			    cJSON_GetObjectItem(first_choice(o), "delta");
			const char *c = jstr(dl, "content");
			if (!o)
				rc = kt_error(KT_EIO, "a streamed event is not "
				                      "JSON");
			else if (c)
				rc = kt_str_adds(&s, c);
			add_usage(l, o);
			cJSON_Delete(o);
			events++;
		}
		p = nl ? nl + 1 : NULL;
	}
	if (!rc && !events)
		rc = kt_error(KT_EIO, "the streamed answer has no events");
	if (!rc && !s.ptr)
		rc = kt_str_adds(&s, "");
	*content = rc ? NULL : kt_str_detach(&s);
	kt_str_release(&s);
	return rc;
}

static int from_json(kt_llm *l, char **content, const exchange *x)
{
	cJSON *o = cJSON_ParseWithLength(x->body, x->len);
	const cJSON *m = cJSON_GetObjectItem(first_choice(o), "message");
	const char *c = jstr(m, "content");
	int rc = 0;
	if (!o)
		rc = kt_error(KT_EIO, "the server's answer is not JSON");
	else if (!c)
		rc = kt_error(KT_EIO, "the server's answer has no "
		                      "choices[0].message.content");
	add_usage(l, o);
	*content = rc ? NULL : kt_strdup(c);
	cJSON_Delete(o);
	return rc || *content ? rc : kt_error(KT_ENOMEM, "out of memory");
}

/* The server's own error message, for the user: at most 200 bytes. */
static const char *server_message(const exchange *x, char *buf, size_t n)
{
	cJSON *o = cJSON_ParseWithLength(x->body ? x->body : "", x->len);
	const char *m = jstr(cJSON_GetObjectItem(o, "error"), "message");
	if (!m)
		m = jstr(o, "error");
	snprintf(buf, n, "%.200s", m ? m : x->body ? x->body : "");
	for (char *p = buf; *p; p++)
		if ((unsigned char)*p < 32)
			*p = ' ';
	cJSON_Delete(o);
	return buf;
}

/* ------------------------------------------------------------ requests */

static char *request_json(kt_llm *l, const char *system, const char *user,
                          const char *name, const char *schema)
{
	cJSON *r = cJSON_CreateObject();
	cJSON_AddStringToObject(r, "model", l->c.model ? l->c.model : "");
	cJSON *ms = cJSON_AddArrayToObject(r, "messages");
	const char *role[2] = {"system", "user"}, *text[2] = {system, user};
	for (int i = 0; i < 2; i++) {
		cJSON *m = cJSON_CreateObject();
		cJSON_AddStringToObject(m, "role", role[i]);
		cJSON_AddStringToObject(m, "content", text[i]);
		cJSON_AddItemToArray(ms, m);
	}
	cJSON_AddNumberToObject(r, "temperature", 0);
	if (l->c.stream)
		cJSON_AddTrueToObject(r, "stream");
	cJSON *sch = schema ? cJSON_Parse(schema) : NULL;
	if (sch && !l->no_format) {
		cJSON *f = cJSON_AddObjectToObject(r, "response_format");
		cJSON_AddStringToObject(f, "type", "json_schema");
		cJSON *js = cJSON_AddObjectToObject(f, "json_schema");
		cJSON_AddStringToObject(js, "name", name ? name : "answer");
		cJSON_AddItemToObject(js, "schema", sch);
		sch = NULL;
	}
	cJSON_Delete(sch);
	char *s = cJSON_PrintUnformatted(r);
	cJSON_Delete(r);
	char *out = s ? kt_strdup(s) : NULL;
	cJSON_free(s);
	return out;
}

static bool cancelled(const kt_llm *l)
{
	return l->c.stop && *l->c.stop;
}

/* Waits ms, in steps, unless cancelled; no wait when replaying. */
static void wait_ms(const kt_llm *l, long ms)
{
	if (l->replay)
		return;
	for (long left = ms; left > 0 && !cancelled(l); left -= 50) {
		struct timespec ts = {0, (left < 50 ? left : 50) * 1000000L};
		nanosleep(&ts, NULL);
	}
}

static int budget_left(const kt_llm *l)
{
	if (cancelled(l))
		return kt_error(KT_EINTERRUPTED, "interrupted");
	if (l->requests >= l->c.max_requests)
		return kt_error(KT_EINTERRUPTED,
		                "the LLM budget is spent: %d requests",
		                l->c.max_requests);
	if (l->tokens >= l->c.max_tokens)
		return kt_error(KT_EINTERRUPTED,
		                "the LLM budget is spent: %lld tokens of %lld",
		                (long long)l->tokens,
		                (long long)l->c.max_tokens);
	return 0;
}

/* What one exchange means: 0 and *content, 1 to retry after *wait, or
 * an error. */
static int judge(kt_llm *l, const exchange *x, char **content, long *wait,
                 int tries)
{
	char msg[256];
	bool again = tries < l->c.retries;
	long backoff = l->c.backoff_ms << (tries < 16 ? tries : 16);
	*wait = backoff < l->c.max_wait_ms ? backoff : l->c.max_wait_ms;
	if (x->cancelled)
		return kt_error(KT_EINTERRUPTED, "interrupted");
	if (x->status < 0)
		return kt_error(KT_EIO, "replay: %s", x->error);
	if (x->too_big)
		return kt_error(KT_EIO,
		                "the server's answer is larger than %zu bytes",
		                l->c.max_answer);
	if (x->timeout)
		return kt_error(KT_EIO,
		                "the server did not answer within %ld "
		                "ms (%s)",
		                l->c.timeout_ms, x->error);
	if (x->error)
		return again ? 1
		             : kt_error(KT_EIO, "no answer from the server: %s",
		                        x->error);
	if (x->status == 429 || x->status >= 500) {
		if (x->retry_after_ms >= 0)
			*wait = x->retry_after_ms < l->c.max_wait_ms
			            ? x->retry_after_ms
			            : l->c.max_wait_ms;
		return again ? 1
		             : kt_error(KT_EIO,
		                        "the server answered %ld after %d "
		                        "tries: %s",
		                        x->status, tries + 1,
		                        server_message(x, msg, sizeof(msg)));
	}
	if (x->status == 400 && !l->no_format &&
	    strstr(x->body ? x->body : "", "response_format")) {
		l->no_format = true; /* ask again for JSON in the text */
		*wait = 0;
		return 2;
	}
	if (x->status != 200)
		return kt_error(KT_EIO, "the server answered %ld: %s",
		                x->status, server_message(x, msg, sizeof(msg)));
	bool sse =
	    (x->content_type && strstr(x->content_type, "text/event-stream")) ||
	    !strncmp(x->body ? x->body : "", "data:", 5);
	return sse ? from_events(l, content, x) : from_json(l, content, x);
}

int kt_llm_chat(kt_llm *l, char **content, const char *system, const char *user,
                const char *name, const char *schema_json)
{
	*content = NULL;
	static const char json_note[] =
	    "\n\nAnswer with one JSON object only, in a ```json code block, "
	    "following this JSON schema:\n";
	int rc = 0;
	for (int tries = 0;;) {
		rc = budget_left(l);
		if (rc)
			return rc;
		kt_str sys = KT_STR_INIT;
		kt_str_adds(&sys, system);
		if (l->no_format && schema_json) {
			kt_str_adds(&sys, json_note);
			kt_str_adds(&sys, schema_json);
		}
		char *req =
		    sys.ptr ? request_json(l, sys.ptr, user, name, schema_json)
		            : NULL;
		kt_str_release(&sys);
		if (!req)
			return kt_error(KT_ENOMEM, "out of memory");
		exchange x = {.retry_after_ms = -1};
		l->requests++;
		if (l->replay)
			replayed(l, &x);
		else
			perform(l, req, &x);
		record(l, req, &x);
		long wait = 0;
		int64_t before = l->tokens;
		rc = judge(l, &x, content, &wait, tries);
		/* a server that reports no usage (a stream without
		 * stream_options) is charged about a token per 4 bytes */
		if (!rc && l->tokens == before)
			l->tokens += (int64_t)((strlen(req) + x.len) / 4);
		kt_free(req);
		exchange_release(&x);
		if (rc <= 0)
			return rc;
		if (rc == 1)
			tries++;
		wait_ms(l, wait);
	}
}

void kt_llm_usage(const kt_llm *l, int *requests, int64_t *tokens)
{
	*requests = l->requests;
	*tokens = l->tokens;
}

/* ------------------------------------------------------------ lifetime */

static int copy_config(kt_llm *l, const kt_llm_config *c)
{
	l->c = *c;
	l->c.base_url = c->base_url ? kt_strdup(c->base_url) : NULL;
	l->c.model = c->model ? kt_strdup(c->model) : NULL;
	l->c.api_key = c->api_key ? kt_strdup(c->api_key) : NULL;
	l->transcript = c->transcript ? kt_strdup(c->transcript) : NULL;
	l->replay = c->replay ? kt_strdup(c->replay) : NULL;
	if ((c->base_url && !l->c.base_url) || (c->model && !l->c.model) ||
	    (c->api_key && !l->c.api_key) ||
	    (c->transcript && !l->transcript) || (c->replay && !l->replay))
		return kt_error(KT_ENOMEM, "out of memory");
	l->c.connect_timeout_ms =
	    c->connect_timeout_ms > 0 ? c->connect_timeout_ms : 10000;
	l->c.timeout_ms = c->timeout_ms > 0 ? c->timeout_ms : 300000;
	l->c.retries = c->retries > 0 ? c->retries : c->retries < 0 ? 0 : 4;
	l->c.backoff_ms = c->backoff_ms > 0 ? c->backoff_ms : 1000;
	l->c.max_wait_ms = c->max_wait_ms > 0 ? c->max_wait_ms : 60000;
	l->c.max_requests = c->max_requests > 0 ? c->max_requests : 32;
	l->c.max_tokens = c->max_tokens > 0 ? c->max_tokens : 1000000;
	l->c.max_answer = c->max_answer > 0 ? c->max_answer : 4u << 20;
	return 0;
}

int kt_llm_new(kt_llm **out, const kt_llm_config *c)
{
	*out = NULL;
	if (!c->replay && (!c->base_url || !c->model))
		return kt_error(KT_EINVALID, "no LLM server configured");
	pthread_once(&curl_once, init_curl);
	if (curl_init_rc != CURLE_OK)
		return kt_error(KT_EIO, "cannot start libcurl: %s",
		                curl_easy_strerror(curl_init_rc));
	kt_llm *l = kt_calloc(1, sizeof(*l));
	if (!l)
		return kt_error(KT_ENOMEM, "out of memory");
	int rc = copy_config(l, c);
	if (!rc && l->replay)
		rc = load_replay(l);
	if (!rc)
		rc = open_transcript(l);
	if (rc) {
		kt_llm_free(l);
		return rc;
	}
	*out = l;
	return 0;
}

void kt_llm_free(kt_llm *l)
{
	if (!l)
		return;
	if (l->out)
		fclose(l->out);
	for (size_t i = 0; i < l->nplayed; i++)
		cJSON_Delete(l->played[i]);
	kt_free(l->played);
	kt_free(l->transcript);
	kt_free(l->replay);
	kt_llm_config_release(&l->c);
	kt_free(l);
}
