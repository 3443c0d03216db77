/*
 * answer.c - from an LLM's answer text to a proposal: the JSON found in
 * the text (PCRE2 for fenced blocks, where the server did not honour
 * `response_format`), parsed with cJSON and validated strictly before
 * anything else looks at it.
 *
 * Design choice: the proposal schema is small on purpose (a catalogue
 * refactor by kind, or a new body under a new parameter, or done): the
 * model never writes offsets or ranges, which ktc knows better; the plan
 * it becomes is built by ktc and checked by the plan checker.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "ktc/llm.h"

#include "ktc/plan.h"
#include "util/str.h"

#include <cjson/cJSON.h>
#include <pcre2.h>
#include <stdio.h>
#include <string.h>

/* grammar: proposal = {"kind": "refactor" | "variant" | "done",
 *                      "why": string, "refactor": string,
 *                      "param": string, "values": [integer...],
 *                      "body": string} */
static const char schema[] =
    "{\"type\":\"object\",\"additionalProperties\":false,"
    "\"required\":[\"kind\",\"why\"],\"properties\":{"
    "\"kind\":{\"type\":\"string\",\"enum\":[\"refactor\",\"variant\","
    "\"done\"]},"
    "\"why\":{\"type\":\"string\",\"maxLength\":1000},"
    "\"refactor\":{\"type\":\"string\"},"
    "\"param\":{\"type\":\"string\",\"pattern\":\"^[A-Z][A-Z0-9_]*$\"},"
    "\"values\":{\"type\":\"array\",\"items\":{\"type\":\"integer\"},"
    "\"maxItems\":64},"
    "\"body\":{\"type\":\"string\",\"maxLength\":65536}}}";

const char *kt_llm_proposal_schema(void)
{
	return schema;
}

static bool parses(const char *s, size_t n)
{
	cJSON *j = cJSON_ParseWithLength(s, n);
	bool ok = cJSON_IsObject(j);
	cJSON_Delete(j);
	return ok;
}

/* The last fenced block of text that parses as a JSON object. */
static int fenced(const char *text, size_t len, size_t *b, size_t *e)
{
	int err;
	PCRE2_SIZE off;
	pcre2_code *re = pcre2_compile(
	    (PCRE2_SPTR) "```[A-Za-z0-9_-]*[ \\t]*\\r?\\n(.*?)```",
	    PCRE2_ZERO_TERMINATED, PCRE2_DOTALL, &err, &off, NULL);
	if (!re)
		return kt_error(KT_ERROR, "PCRE2 error %d at %zu", err,
		                (size_t)off);
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
	int found = 0;
	for (PCRE2_SIZE at = 0; md && at <= len;) {
		int rc =
		    pcre2_match(re, (PCRE2_SPTR)text, len, at, 0, md, NULL);
		if (rc < 0)
			break;
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
		if (parses(text + ov[2], ov[3] - ov[2])) {
			*b = ov[2], *e = ov[3];
			found = 1;
		}
		at = ov[1] > at ? ov[1] : at + 1;
	}
	pcre2_match_data_free(md);
	pcre2_code_free(re);
	return found;
}

int kt_llm_extract(char **json, const char *text, size_t len)
{
	*json = NULL;
	size_t b = 0, e = len;
	if (!parses(text, len)) {
		int rc = fenced(text, len, &b, &e);
		if (rc < 0)
			return rc;
		if (!rc) {
			const char *o = memchr(text, '{', len);
			const char *c = o ? o : NULL;
			for (const char *p = text + len; o && p > o; p--)
				if (p[-1] == '}') {
					c = p;
					break;
				}
			if (!o || c == o || !parses(o, (size_t)(c - o)))
				return kt_error(
				    KT_EPARSE,
				    "the answer holds no JSON object");
			b = (size_t)(o - text), e = (size_t)(c - text);
		}
	}
	if (e - b > KT_LLM_MAX_JSON)
		return kt_error(KT_EPARSE,
		                "the answer's JSON has %zu bytes, more than %d",
		                e - b, KT_LLM_MAX_JSON);
	*json = kt_strndup(text + b, e - b);
	return *json ? 0 : kt_error(KT_ENOMEM, "out of memory");
}

/* ------------------------------------------------------------ checking */

static int bad(const char *fmt, const char *a)
{
	return kt_error(KT_EPARSE, fmt, a);
}

static int str_field(char **out, const cJSON *o, const char *key, size_t max)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!j)
		return 0;
	if (!cJSON_IsString(j))
		return bad("proposal.%s: expected a string", key);
	if (strlen(j->valuestring) > max)
		return kt_error(KT_EPARSE, "proposal.%s: longer than %zu bytes",
		                key, max);
	*out = kt_strdup(j->valuestring);
	return *out ? 0 : kt_error(KT_ENOMEM, "out of memory");
}

static int values_field(kt_llm_proposal *p, const cJSON *o)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "values");
	if (!v)
		return 0;
	if (!cJSON_IsArray(v))
		return bad("proposal.values: expected an array%s", "");
	const cJSON *x;
	cJSON_ArrayForEach(x, v)
	{
		if (p->nvalues == KT_LLM_MAX_VALUES)
			return kt_error(KT_EPARSE,
			                "proposal.values: more than %d",
			                KT_LLM_MAX_VALUES);
		double d = cJSON_IsNumber(x) ? x->valuedouble : 0.5;
		/* the range first: a cast of a double out of int64_t's
		 * range is undefined (fuzz_llm found it) */
		if (d < -1e15 || d > 1e15 || d != (double)(int64_t)d)
			return bad("proposal.values: an item is not an "
			           "integer%s",
			           "");
		p->values[p->nvalues++] = (int64_t)d;
	}
	return 0;
}

static int check_fields(const cJSON *o)
{
	static const char *const known[] = {
	    "kind", "why", "refactor", "param", "values", "body", NULL};
	const cJSON *x;
	cJSON_ArrayForEach(x, o)
	{
		bool ok = false;
		for (const char *const *k = known; *k && !ok; k++)
			ok = !strcmp(*k, x->string);
		if (!ok)
			return bad("proposal.%s: unknown field", x->string);
	}
	return 0;
}

static int check_kind(kt_llm_proposal *p, const char *kind)
{
	if (!strcmp(kind, "done"))
		p->kind = KT_LLM_DONE;
	else if (!strcmp(kind, "variant"))
		p->kind = KT_LLM_VARIANT;
	else if (!strcmp(kind, "refactor"))
		p->kind = KT_LLM_REFACTOR;
	else
		return bad("proposal.kind: '%.40s' is not refactor, variant "
		           "or done",
		           kind);
	if (p->kind == KT_LLM_VARIANT && (!p->param || !p->body))
		return bad("proposal: a variant needs 'param' and 'body'%s",
		           "");
	if (p->kind == KT_LLM_REFACTOR && !p->refactor)
		return bad("proposal: a refactor needs 'refactor'%s", "");
	if (p->kind == KT_LLM_REFACTOR &&
	    kt_refactor_kind_from_name(p->refactor) < 0)
		return bad("proposal.refactor: '%.40s' is not a refactor of "
		           "the catalogue",
		           p->refactor);
	if (p->kind != KT_LLM_VARIANT && p->body)
		return bad("proposal.body: only a variant has a body%s", "");
	if (p->kind == KT_LLM_REFACTOR &&
	    kt_refactor_kind_from_name(p->refactor) == KT_REFACTOR_VARIANT)
		return bad("proposal.refactor: a variant is kind 'variant'%s",
		           "");
	if (p->param && !kt_is_ident(p->param))
		return bad("proposal.param: '%.40s' is not a C identifier",
		           p->param);
	return 0;
}

int kt_llm_proposal_parse(kt_llm_proposal *out, const char *text, size_t len)
{
	memset(out, 0, sizeof(*out));
	char *json = NULL;
	int rc = kt_llm_extract(&json, text, len);
	if (rc)
		return rc;
	cJSON *o = cJSON_Parse(json);
	kt_free(json);
	const cJSON *k = cJSON_GetObjectItemCaseSensitive(o, "kind");
	char *kind = NULL;
	rc = check_fields(o);
	if (!rc && !cJSON_IsString(k))
		rc = bad("proposal.kind: a string is required%s", "");
	if (!rc && !cJSON_GetObjectItemCaseSensitive(o, "why"))
		rc = bad("proposal.why: a string is required%s", "");
	if (!rc)
		rc = str_field(&kind, o, "kind", 16);
	if (!rc)
		rc = str_field(&out->why, o, "why", 1000);
	if (!rc)
		rc = str_field(&out->refactor, o, "refactor", 64);
	if (!rc)
		rc = str_field(&out->param, o, "param", 64);
	if (!rc)
		rc = str_field(&out->body, o, "body", KT_PLAN_MAX_BODY);
	if (!rc)
		rc = values_field(out, o);
	if (!rc)
		rc = check_kind(out, kind);
	kt_free(kind);
	cJSON_Delete(o);
	if (rc)
		kt_llm_proposal_release(out);
	return rc;
}

void kt_llm_proposal_release(kt_llm_proposal *p)
{
	kt_free(p->refactor);
	kt_free(p->param);
	kt_free(p->body);
	kt_free(p->why);
	memset(p, 0, sizeof(*p));
}
