/*
 * test_llm_client.c - the LLM client (ktc/llm.h) against the scripted
 * loopback server of server.h: answers as JSON and as streamed events,
 * the fallback where response_format is refused, 429 then success with
 * Retry-After honoured, a server that hangs, a dropped connection, a
 * 10 MB answer, the budget, Ctrl-C, the transcript (no key in it) and its
 * replay with no network; and the proposal reader on bad answers.
 */
#include "check.h"

#include "ktc/llm.h"
#include "llm/server.h"
#include "util/fs.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define KEY "sk-test-4f2b9c1d8e7a6b5c"

static const char GOOD[] =
    "{\"kind\":\"refactor\",\"refactor\":\"row_split\",\"param\":"
    "\"SPLIT\",\"why\":\"one block per row leaves SMs idle\"}";

static char dir[64];

static kt_llm *client(const llm_server *s, const char *transcript,
                      long timeout_ms)
{
	kt_llm_config c = {
	    .base_url = (char *)(s ? llm_server_url(s) : "http://127.0.0.1:9"),
	    .model = "test-model",
	    .api_key = KEY,
	    .timeout_ms = timeout_ms,
	    .retries = 2,
	    .backoff_ms = 10,
	    .transcript = transcript,
	};
	kt_llm *l = NULL;
	CHECK_EQ_INT(kt_llm_new(&l, &c), 0);
	return l;
}

static char *ask(kt_llm *l, int *rc)
{
	char *content = NULL;
	*rc = kt_llm_chat(l, &content, "you plan refactors", "the kernel",
	                  "proposal", kt_llm_proposal_schema());
	return content;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool file_has(const char *path, const char *what)
{
	char *t = NULL;
	size_t n = 0;
	if (kt_fs_read(&t, &n, path))
		return false;
	bool has = strstr(t, what) != NULL;
	kt_free(t);
	return has;
}

static void a_json_answer_is_read_and_the_key_is_sent_only_in_the_header(void)
{
	llm_step st[] = {{.content = GOOD}};
	llm_server *s = llm_server_start(st, 1);
	char tr[128];
	snprintf(tr, sizeof(tr), "%s/json.jsonl", dir);
	kt_llm *l = client(s, tr, 5000);
	int rc;
	char *c = ask(l, &rc);
	CHECK_EQ_INT(rc, 0);
	CHECK(c && !strcmp(c, GOOD));
	const char *req = llm_server_request(s, 0);
	CHECK(req && strstr(req, "Authorization: Bearer " KEY));
	CHECK(req && strstr(req, "\"response_format\""));
	CHECK(req && strstr(req, "POST /v1/chat/completions"));
	int n;
	int64_t tokens;
	kt_llm_usage(l, &n, &tokens);
	CHECK(n == 1 && tokens == 100);
	kt_free(c);
	kt_llm_free(l);
	llm_server_stop(s);
	CHECK(file_has(tr, "row_split"));
	CHECK(!file_has(tr, KEY));
	CHECK(!file_has(tr, "Authorization"));
	CHECK(!file_has(tr, "Bearer"));
}

static void credentials_in_the_url_are_not_written(void)
{
	char tr[128];
	snprintf(tr, sizeof(tr), "%s/url.jsonl", dir);
	kt_llm_config c = {.base_url = "http://ktc:" KEY "@127.0.0.1:9/v1",
	                   .model = "m",
	                   .transcript = tr};
	kt_llm *l = NULL;
	CHECK_EQ_INT(kt_llm_new(&l, &c), 0);
	kt_llm_free(l);
	CHECK(file_has(tr, "http://[redacted]@127.0.0.1:9/v1"));
	CHECK(!file_has(tr, KEY));
}

static void a_streamed_answer_is_read(void)
{
	llm_step st[] = {{.content = GOOD, .sse = true}};
	llm_server *s = llm_server_start(st, 1);
	kt_llm_config cf = {.base_url = (char *)llm_server_url(s),
	                    .model = "m",
	                    .stream = true};
	kt_llm *l = NULL;
	CHECK_EQ_INT(kt_llm_new(&l, &cf), 0);
	int rc;
	char *c = ask(l, &rc);
	CHECK_EQ_INT(rc, 0);
	CHECK(c && !strcmp(c, GOOD));
	const char *req = llm_server_request(s, 0);
	CHECK(req && strstr(req, "\"stream\":true"));
	/* no usage in the events: charged by size */
	int n;
	int64_t tokens;
	kt_llm_usage(l, &n, &tokens);
	CHECK(n == 1 && tokens > 50 && tokens < 2000);
	kt_free(c);
	kt_llm_free(l);
	llm_server_stop(s);
}

static void a_refused_response_format_asks_again_for_json_in_text(void)
{
	llm_step st[] = {
	    {.status = 400,
	     .raw = "{\"error\":{\"message\":\"response_format is not "
	            "supported\"}}"},
	    {.content = "Here is my plan:\n```json\n{\"kind\":\"done\","
	                "\"why\":\"nothing left\"}\n```\nGood luck."}};
	llm_server *s = llm_server_start(st, 2);
	kt_llm *l = client(s, NULL, 5000);
	int rc;
	char *c = ask(l, &rc);
	CHECK_EQ_INT(rc, 0);
	const char *second = llm_server_request(s, 1);
	CHECK(second && !strstr(second, "\"response_format\""));
	CHECK(second && strstr(second, "JSON schema"));
	kt_llm_proposal p;
	CHECK_EQ_INT(kt_llm_proposal_parse(&p, c, strlen(c)), 0);
	CHECK(p.kind == KT_LLM_DONE && !strcmp(p.why, "nothing left"));
	kt_llm_proposal_release(&p);
	kt_free(c);
	kt_llm_free(l);
	llm_server_stop(s);
}

static void a_429_is_retried_after_its_retry_after(void)
{
	llm_step st[] = {{.status = 429,
	                  .retry_after = 1,
	                  .raw = "{\"error\":{\"message\":\"slow down\"}}"},
	                 {.content = GOOD}};
	llm_server *s = llm_server_start(st, 2);
	kt_llm *l = client(s, NULL, 5000);
	double t0 = now();
	int rc;
	char *c = ask(l, &rc);
	double took = now() - t0;
	CHECK_EQ_INT(rc, 0);
	CHECK(c && !strcmp(c, GOOD));
	CHECK(took >= 1.0); /* the backoff alone is 10 ms */
	CHECK_EQ_INT((int)llm_server_requests(s), 2);
	kt_free(c);
	kt_llm_free(l);
	llm_server_stop(s);
}

static void server_errors_that_retries_do_not_cure_are_an_error(void)
{
	llm_step st[] = {{.status = 503, .raw = "{\"error\":\"down\"}"},
	                 {.status = 503, .raw = "{\"error\":\"down\"}"},
	                 {.status = 503, .raw = "{\"error\":\"down\"}"}};
	llm_server *s = llm_server_start(st, 3);
	kt_llm *l = client(s, NULL, 5000);
	int rc;
	char *c = ask(l, &rc);
	CHECK_EQ_INT(rc, KT_EIO);
	CHECK(!c);
	CHECK(strstr(kt_error_last(), "answered 503 after 3 tries: down"));
	kt_llm_free(l);
	llm_server_stop(s);
}

static void a_server_that_hangs_times_out(void)
{
	llm_step st[] = {{.how = LLM_HANG}};
	llm_server *s = llm_server_start(st, 1);
	kt_llm *l = client(s, NULL, 500);
	double t0 = now();
	int rc;
	char *c = ask(l, &rc);
	CHECK_EQ_INT(rc, KT_EIO);
	CHECK(!c && now() - t0 < 5);
	CHECK(strstr(kt_error_last(), "did not answer within 500 ms"));
	kt_llm_free(l);
	llm_server_stop(s);
}

static void a_dropped_connection_is_retried(void)
{
	llm_step st[] = {{.how = LLM_DROP}, {.content = GOOD}};
	llm_server *s = llm_server_start(st, 2);
	kt_llm *l = client(s, NULL, 5000);
	int rc;
	char *c = ask(l, &rc);
	CHECK_EQ_INT(rc, 0);
	CHECK(c && !strcmp(c, GOOD));
	kt_free(c);
	kt_llm_free(l);
	llm_server_stop(s);
}

static void a_10_mb_answer_is_refused(void)
{
	llm_step st[] = {{.content = GOOD, .pad = 10u << 20}};
	llm_server *s = llm_server_start(st, 1);
	kt_llm *l = client(s, NULL, 20000);
	int rc;
	char *c = ask(l, &rc);
	CHECK_EQ_INT(rc, KT_EIO);
	CHECK(!c && strstr(kt_error_last(), "larger than 4194304 bytes"));
	kt_llm_free(l);
	llm_server_stop(s);
}

static void the_request_budget_stops_asking(void)
{
	llm_step st[] = {{.content = GOOD}, {.content = GOOD}};
	llm_server *s = llm_server_start(st, 2);
	kt_llm_config c = {.base_url = (char *)llm_server_url(s),
	                   .model = "m",
	                   .max_requests = 1};
	kt_llm *l = NULL;
	CHECK_EQ_INT(kt_llm_new(&l, &c), 0);
	int rc;
	char *a = ask(l, &rc);
	CHECK_EQ_INT(rc, 0);
	kt_free(a);
	a = ask(l, &rc);
	CHECK_EQ_INT(rc, KT_EINTERRUPTED);
	CHECK(strstr(kt_error_last(), "budget is spent: 1 requests"));
	CHECK_EQ_INT((int)llm_server_requests(s), 1);
	kt_llm_free(l);
	llm_server_stop(s);

	/* 100 tokens an answer (the server's usage), 150 allowed */
	llm_step st2[] = {
	    {.content = GOOD}, {.content = GOOD}, {.content = GOOD}};
	s = llm_server_start(st2, 3);
	c = (kt_llm_config){.base_url = (char *)llm_server_url(s),
	                    .model = "m",
	                    .max_tokens = 150};
	CHECK_EQ_INT(kt_llm_new(&l, &c), 0);
	for (int i = 0; i < 2; i++) {
		a = ask(l, &rc);
		CHECK_EQ_INT(rc, 0);
		kt_free(a);
	}
	a = ask(l, &rc);
	CHECK_EQ_INT(rc, KT_EINTERRUPTED);
	CHECK(strstr(kt_error_last(), "budget is spent: 200 tokens of 150"));
	CHECK_EQ_INT((int)llm_server_requests(s), 2);
	kt_llm_free(l);
	llm_server_stop(s);
}

static volatile sig_atomic_t stop_flag;

static void *press_ctrl_c(void *ud)
{
	(void)ud;
	struct timespec ts = {0, 300000000L};
	nanosleep(&ts, NULL);
	stop_flag = 1;
	return NULL;
}

static void ctrl_c_cancels_a_request(void)
{
	llm_step st[] = {{.how = LLM_HANG}};
	llm_server *s = llm_server_start(st, 1);
	kt_llm_config c = {.base_url = (char *)llm_server_url(s),
	                   .model = "m",
	                   .stop = &stop_flag};
	kt_llm *l = NULL;
	CHECK_EQ_INT(kt_llm_new(&l, &c), 0);
	stop_flag = 0;
	pthread_t t;
	pthread_create(&t, NULL, press_ctrl_c, NULL);
	double t0 = now();
	int rc;
	char *a = ask(l, &rc);
	pthread_join(t, NULL);
	CHECK_EQ_INT(rc, KT_EINTERRUPTED);
	CHECK(!a && now() - t0 < 5);
	kt_llm_free(l);
	llm_server_stop(s);
}

static void a_transcript_replays_without_the_network(void)
{
	llm_step st[] = {{.status = 429, .retry_after = 1, .raw = "{}"},
	                 {.content = GOOD, .sse = true}};
	llm_server *s = llm_server_start(st, 2);
	char tr[128], tr2[128];
	snprintf(tr, sizeof(tr), "%s/replay.jsonl", dir);
	snprintf(tr2, sizeof(tr2), "%s/replayed.jsonl", dir);
	kt_llm *l = client(s, tr, 5000);
	int rc;
	char *online = ask(l, &rc);
	CHECK_EQ_INT(rc, 0);
	kt_llm_free(l);
	llm_server_stop(s);

	kt_llm_config c = {.replay = tr, .transcript = tr2};
	CHECK_EQ_INT(kt_llm_new(&l, &c), 0);
	double t0 = now();
	char *offline = ask(l, &rc);
	CHECK_EQ_INT(rc, 0);
	CHECK(now() - t0 < 0.5); /* no Retry-After wait offline */
	CHECK(online && offline && !strcmp(online, offline));
	char *more = ask(l, &rc); /* the transcript has no third answer */
	CHECK_EQ_INT(rc, KT_EIO);
	CHECK(!more && strstr(kt_error_last(), "no more answers"));
	kt_free(online);
	kt_free(offline);
	kt_llm_free(l);
}

static void the_config_comes_from_the_environment_and_a_private_file(void)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/llm.conf", dir);
	const char text[] = "# ktc llm\nbase_url = http://x/v1\nmodel = a\n"
	                    "api_key = " KEY "\ntimeout = 2.5\n";
	CHECK_EQ_INT(kt_fs_write_atomic(path, text, strlen(text)), 0);
	chmod(path, 0644);
	kt_llm_config c;
	unsetenv("KTC_LLM_MODEL");
	CHECK_EQ_INT(kt_llm_config_load(&c, path, true), KT_EINVALID);
	CHECK(strstr(kt_error_last(), "readable by others: chmod 600"));
	CHECK(!strstr(kt_error_last(), KEY));
	chmod(path, 0600);
	setenv("KTC_LLM_MODEL", "b", 1);
	CHECK_EQ_INT(kt_llm_config_load(&c, path, true), 0);
	CHECK(!strcmp(c.model, "b") && !strcmp(c.base_url, "http://x/v1"));
	CHECK(c.api_key && !strcmp(c.api_key, KEY) && c.timeout_ms == 2500);
	kt_llm_config_release(&c);
	unsetenv("KTC_LLM_MODEL");
	unsetenv("KTC_LLM_BASE_URL");
	unsetenv("OPENAI_BASE_URL");
	CHECK_EQ_INT(kt_llm_config_load(&c, NULL, true), KT_EINVALID);
	CHECK(strstr(kt_error_last(), "no LLM server configured"));
}

static void bad_answers_are_refused_with_a_reason(void)
{
	static const char *const bad[][2] = {
	    {"{\"kind\": \"refactor\", \"why\": ", "no JSON object"},
	    {"I would vectorize.", "no JSON object"},
	    {"{\"kind\":\"refactor\",\"why\":\"x\",\"refactor\":\"row_split\","
	     "\"colour\":1}",
	     "proposal.colour: unknown field"},
	    {"{\"kind\":\"variant\",\"why\":\"x\",\"param\":\"V\"}",
	     "a variant needs 'param' and 'body'"},
	    {"{\"kind\":\"refactor\",\"why\":\"x\",\"refactor\":\"warp_"
	     "magic\"}",
	     "not a refactor of the catalogue"},
	    {"{\"kind\":\"refactor\",\"why\":7,\"refactor\":\"row_split\"}",
	     "proposal.why: expected a string"},
	    {"{\"kind\":\"refactor\",\"why\":\"x\",\"refactor\":\"row_split\","
	     "\"values\":[1,2.5]}",
	     "not an integer"},
	    {"{\"kind\":\"variant\",\"why\":\"x\",\"param\":\"2V\",\"body\":"
	     "\"{}\"}",
	     "not a C identifier"},
	    {"{\"why\":\"x\"}", "proposal.kind: a string is required"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		kt_llm_proposal p;
		int rc =
		    kt_llm_proposal_parse(&p, bad[i][0], strlen(bad[i][0]));
		CHECK_EQ_INT(rc, KT_EPARSE);
		if (!strstr(kt_error_last(), bad[i][1]))
			printf("  answer %zu: '%s'\n", i, kt_error_last());
		CHECK(strstr(kt_error_last(), bad[i][1]));
	}
	kt_llm_proposal p;
	const char fenced[] = "```json\n{\"kind\":\"refactor\",\"why\":\"w\","
	                      "\"refactor\":\"vectorize\",\"values\":[1,2,4]}"
	                      "\n```";
	CHECK_EQ_INT(kt_llm_proposal_parse(&p, fenced, strlen(fenced)), 0);
	CHECK(p.kind == KT_LLM_REFACTOR && p.nvalues == 3 && p.values[2] == 4);
	kt_llm_proposal_release(&p);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/ktc-llm-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	RUN(a_json_answer_is_read_and_the_key_is_sent_only_in_the_header);
	RUN(credentials_in_the_url_are_not_written);
	RUN(a_streamed_answer_is_read);
	RUN(a_refused_response_format_asks_again_for_json_in_text);
	RUN(a_429_is_retried_after_its_retry_after);
	RUN(server_errors_that_retries_do_not_cure_are_an_error);
	RUN(a_server_that_hangs_times_out);
	RUN(a_dropped_connection_is_retried);
	RUN(a_10_mb_answer_is_refused);
	RUN(the_request_budget_stops_asking);
	RUN(ctrl_c_cancels_a_request);
	RUN(a_transcript_replays_without_the_network);
	RUN(the_config_comes_from_the_environment_and_a_private_file);
	RUN(bad_answers_are_refused_with_a_reason);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		return 1;
	return check_summary();
}
