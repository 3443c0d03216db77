/*
 * ktc/llm.h - the LLM planner's client (llm/): one OpenAI-compatible
 * chat-completions server over libcurl, and the proposals it answers,
 * which are untrusted input.
 *
 * The client asks for a structured answer (`response_format` with a JSON
 * schema) and falls back to finding the JSON in free text (PCRE2) where
 * the server does not support it. It has connect and total timeouts,
 * retries with backoff on 429 and 5xx (honouring Retry-After), a budget of
 * requests and tokens per run, a size limit on answers, and stops when the
 * caller's stop flag is set (Ctrl-C). Every request and answer is written
 * to a transcript (JSON lines) with the API key redacted; the key itself
 * is sent only in the Authorization header, which is never written. A
 * transcript can be replayed: the same answers, in order, with no network.
 *
 * A proposal is parsed and validated strictly here (unknown fields, types,
 * sizes); what it proposes becomes a plan (ktc/plan.h) and passes the
 * plan's checks and the rewriter's verification like any other.
 */
#ifndef KTC_LLM_H
#define KTC_LLM_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktc/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kt_llm_config {
	char *base_url; /* `https://api.openai.com/v1`: POST base_url
	                   + `/chat/completions` */
	char *model;
	char *api_key;           /* may be NULL (local servers) */
	long connect_timeout_ms; /* 0: 10 s */
	long timeout_ms;         /* a whole request; 0: 300 s */
	int retries;             /* on 429, 5xx, a dropped connection;
	                            0: 4; -1: none */
	long backoff_ms;         /* first wait; doubles; 0: 1000 */
	long max_wait_ms;        /* longest wait (Retry-After too);
	                            0: 60 s */
	int max_requests;        /* per run; 0: 32 */
	int64_t max_tokens;      /* per run: usage.total_tokens, else a token
	                            per 4 bytes sent and received; 0: 1e6 */
	size_t max_answer;       /* bytes of one HTTP answer; 0: 4 MiB */
	bool stream;             /* ask for a streamed (SSE) answer */
	const char *transcript;  /* JSON lines written here; may be NULL */
	const char *replay;      /* answers read from this transcript, no
	                            network; may be NULL */
	volatile sig_atomic_t *stop; /* set asynchronously to cancel */
} kt_llm_config;

/*
 * Fills c from the config file `file` (NULL: $KTC_LLM_CONFIG, else none;
 * lines `key = value`, `#` comments: base_url, model, api_key, timeout,
 * connect_timeout, retries, max_requests, max_tokens, stream), then from
 * the environment, which wins: KTC_LLM_BASE_URL, KTC_LLM_MODEL,
 * KTC_LLM_API_KEY (else OPENAI_BASE_URL, OPENAI_MODEL, OPENAI_API_KEY),
 * KTC_LLM_TIMEOUT, KTC_LLM_CONNECT_TIMEOUT (seconds), KTC_LLM_MAX_REQUESTS,
 * KTC_LLM_MAX_TOKENS, KTC_LLM_STREAM. A file that holds an API key and is
 * readable by others is refused. No base URL or model is an error unless
 * replaying (need_server false). Messages never contain the key.
 */
KT_API int kt_llm_config_load(kt_llm_config *c, const char *file,
                              bool need_server);
KT_API void kt_llm_config_release(kt_llm_config *c);

typedef struct kt_llm kt_llm;

/* A client for c (which it copies; the strings too). */
KT_API int kt_llm_new(kt_llm **out, const kt_llm_config *c);
KT_API void kt_llm_free(kt_llm *l);

/*
 * One chat: a system and a user message; the answer must follow the JSON
 * schema schema_json (named name). *content is the model's message text
 * (kt_free). Errors: KT_EINTERRUPTED when stopped or the budget is spent,
 * KT_EIO when the server did not answer usably (timeout, refused, a status
 * that retries did not cure, an answer too large or not a chat answer),
 * with kt_error() saying which.
 */
KT_API int kt_llm_chat(kt_llm *l, char **content, const char *system,
                       const char *user, const char *name,
                       const char *schema_json);
/* Requests made, tokens used (as the server counted them). */
KT_API void kt_llm_usage(const kt_llm *l, int *requests, int64_t *tokens);

/* ------------------------------------------------------------ proposals */

typedef enum kt_llm_kind {
	KT_LLM_REFACTOR, /* a refactor of the catalogue */
	KT_LLM_VARIANT,  /* a new kernel body under a new parameter */
	KT_LLM_DONE,     /* nothing more to propose */
} kt_llm_kind;

#define KT_LLM_MAX_VALUES 64
#define KT_LLM_MAX_JSON (256 * 1024)

typedef struct kt_llm_proposal {
	kt_llm_kind kind;
	char *refactor; /* KT_LLM_REFACTOR: the catalogue's kind name */
	char *param;    /* the parameter it introduces (may be NULL for a
	                   refactor: the catalogue's) */
	int64_t values[KT_LLM_MAX_VALUES]; /* a refactor's domain; may be
	                                      empty */
	size_t nvalues;
	char *body; /* KT_LLM_VARIANT: `{ ... }` */
	char *why;
} kt_llm_proposal;

/* The JSON schema of a proposal (static text). */
KT_API const char *kt_llm_proposal_schema(void);

/*
 * The JSON object in an answer's text: the whole text when it parses,
 * else the last fenced code block (```json ... ```) that parses, else the
 * span from the first '{' to the last '}'. *json is the caller's.
 */
KT_API int kt_llm_extract(char **json, const char *text, size_t len);

/* Extracts, parses and validates a proposal (unknown fields, types, what
 * each kind requires, sizes); KT_EPARSE with the reason in kt_error(). */
KT_API int kt_llm_proposal_parse(kt_llm_proposal *out, const char *text,
                                 size_t len);
KT_API void kt_llm_proposal_release(kt_llm_proposal *p);

#ifdef __cplusplus
}
#endif
#endif
