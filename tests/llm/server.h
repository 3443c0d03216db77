/*
 * server.h - a scripted OpenAI-compatible chat-completions server on
 * loopback for the LLM tests: plain sockets in a thread of the test, one
 * scripted step per connection (an answer as JSON or as server-sent
 * events, an error status with Retry-After, a hang, a dropped
 * connection), every request kept for the test to read.
 */
#ifndef KTC_TEST_LLM_SERVER_H
#define KTC_TEST_LLM_SERVER_H

#include <stdbool.h>
#include <stddef.h>

typedef enum llm_how {
	LLM_ANSWER, /* answer the request */
	LLM_HANG,   /* read the request, never answer */
	LLM_DROP,   /* read the request, close the connection */
} llm_how;

typedef struct llm_step {
	llm_how how;
	int status;          /* 0: 200 */
	const char *content; /* the model's message, wrapped in a chat
	                        answer */
	const char *raw;     /* else the body as it is */
	bool sse;            /* the content as a stream of events */
	int retry_after;     /* seconds; 0: no header */
	size_t pad;          /* bytes of blanks added to the content */
} llm_step;

typedef struct llm_server llm_server;

/* Serves steps[0..n) in order, then 500 to any further request. */
llm_server *llm_server_start(const llm_step *steps, size_t n);
int llm_server_port(const llm_server *s);
/* "http://127.0.0.1:PORT/v1" (static buffer of s). */
const char *llm_server_url(const llm_server *s);
size_t llm_server_requests(llm_server *s);
/* The text (headers and body) of request i, or NULL. */
const char *llm_server_request(llm_server *s, size_t i);
void llm_server_stop(llm_server *s);

#endif
