/*
 * server.c - the scripted chat-completions server of server.h: HTTP/1.1
 * with `Connection: close`, one step per connection, on 127.0.0.1 with a
 * port the kernel picks.
 */
#include "llm/server.h"

#include <cjson/cJSON.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

struct llm_server {
	int fd, port;
	char url[64];
	const llm_step *steps;
	size_t nsteps, next;
	char **seen;
	size_t nseen;
	volatile int stop;
	pthread_t thread;
	pthread_mutex_t mu;
};

static void send_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
		if (k <= 0)
			return;
		p += k, n -= (size_t)k;
	}
}

/* Reads one request (headers and a Content-Length body). */
static char *read_request(int fd)
{
	size_t cap = 1 << 16, len = 0;
	char *b = malloc(cap + 1);
	long want = -1;
	for (;;) {
		if (len == cap) {
			cap *= 2;
			b = realloc(b, cap + 1);
		}
		struct pollfd p = {fd, POLLIN, 0};
		if (poll(&p, 1, 5000) <= 0)
			break;
		ssize_t k = recv(fd, b + len, cap - len, 0);
		if (k <= 0)
			break;
		len += (size_t)k;
		b[len] = 0;
		char *end = strstr(b, "\r\n\r\n");
		if (!end)
			continue;
		if (want < 0) {
			char *cl = b;
			while (*cl && strncasecmp(cl, "content-length:", 15))
				cl++;
			want = (long)(end + 4 - b) +
			       (*cl && cl < end ? atol(cl + 15) : 0);
		}
		if ((long)len >= want)
			break;
	}
	b[len] = 0;
	return b;
}

static char *chat_json(const char *content)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "object", "chat.completion");
	cJSON *ch = cJSON_AddArrayToObject(o, "choices");
	cJSON *c = cJSON_CreateObject();
	cJSON *m = cJSON_AddObjectToObject(c, "message");
	cJSON_AddStringToObject(m, "role", "assistant");
	cJSON_AddStringToObject(m, "content", content);
	cJSON_AddStringToObject(c, "finish_reason", "stop");
	cJSON_AddItemToArray(ch, c);
	cJSON *u = cJSON_AddObjectToObject(o, "usage");
	cJSON_AddNumberToObject(u, "total_tokens", 100);
	char *s = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return s;
}

/* The content as events of at most 16 bytes of content each. */
static void send_events(int fd, const char *content)
{
	static const char head[] = "HTTP/1.1 200 OK\r\nContent-Type: "
	                           "text/event-stream\r\nConnection: "
	                           "close\r\n\r\n";
	send_all(fd, head, strlen(head));
	size_t n = strlen(content);
	for (size_t at = 0; at < n; at += 16) {
		char piece[17];
		snprintf(piece, sizeof(piece), "%.16s", content + at);
		cJSON *o = cJSON_CreateObject();
		cJSON *ch = cJSON_AddArrayToObject(o, "choices");
		cJSON *c = cJSON_CreateObject();
		cJSON *d = cJSON_AddObjectToObject(c, "delta");
		cJSON_AddStringToObject(d, "content", piece);
		cJSON_AddItemToArray(ch, c);
		char *s = cJSON_PrintUnformatted(o);
		send_all(fd, "data: ", 6);
		send_all(fd, s, strlen(s));
		send_all(fd, "\n\n", 2);
		free(s);
		cJSON_Delete(o);
	}
	static const char done[] = "data: [DONE]\n\n";
	send_all(fd, done, strlen(done));
}

static void answer(llm_server *s, int fd, const llm_step *st)
{
	if (st->how == LLM_DROP)
		return;
	if (st->how == LLM_HANG) {
		while (!s->stop) {
			struct pollfd p = {fd, POLLIN, 0};
			char c;
			if (poll(&p, 1, 50) > 0 && recv(fd, &c, 1, 0) <= 0)
				return; /* the client gave up */
		}
		return;
	}
	char *content = NULL;
	if (st->content) {
		size_t n = strlen(st->content);
		content = malloc(n + st->pad + 1);
		memcpy(content, st->content, n);
		memset(content + n, ' ', st->pad);
		content[n + st->pad] = 0;
	}
	if (st->sse && content) {
		send_events(fd, content);
		free(content);
		return;
	}
	char *body =
	    content ? chat_json(content) : strdup(st->raw ? st->raw : "");
	char head[256];
	int status = st->status ? st->status : 200;
	int n = snprintf(head, sizeof(head),
	                 "HTTP/1.1 %d X\r\nContent-Type: application/json\r\n"
	                 "Content-Length: %zu\r\nConnection: close\r\n",
	                 status, strlen(body));
	if (st->retry_after)
		n += snprintf(head + n, sizeof(head) - (size_t)n,
		              "Retry-After: %d\r\n", st->retry_after);
	snprintf(head + n, sizeof(head) - (size_t)n, "\r\n");
	send_all(fd, head, strlen(head));
	send_all(fd, body, strlen(body));
	free(body);
	free(content);
}

static void *serve(void *ud)
{
	llm_server *s = ud;
	static const llm_step fail = {.status = 500,
	                              .raw = "{\"error\":{\"message\":\"no "
	                                     "more steps\"}}"};
	while (!s->stop) {
		struct pollfd p = {s->fd, POLLIN, 0};
		if (poll(&p, 1, 50) <= 0)
			continue;
		int c = accept(s->fd, NULL, NULL);
		if (c < 0)
			continue;
		char *req = read_request(c);
		pthread_mutex_lock(&s->mu);
		s->seen = realloc(s->seen, (s->nseen + 1) * sizeof(char *));
		s->seen[s->nseen++] = req;
		const llm_step *st =
		    s->next < s->nsteps ? &s->steps[s->next++] : &fail;
		pthread_mutex_unlock(&s->mu);
		answer(s, c, st);
		close(c);
	}
	return NULL;
}

llm_server *llm_server_start(const llm_step *steps, size_t n)
{
	llm_server *s = calloc(1, sizeof(*s));
	s->steps = steps;
	s->nsteps = n;
	pthread_mutex_init(&s->mu, NULL);
	s->fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET,
	                        .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t al = sizeof(a);
	if (s->fd < 0 || bind(s->fd, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(s->fd, 16) ||
	    getsockname(s->fd, (struct sockaddr *)&a, &al)) {
		perror("llm_server");
		exit(1);
	}
	s->port = ntohs(a.sin_port);
	snprintf(s->url, sizeof(s->url), "http://127.0.0.1:%d/v1", s->port);
	pthread_create(&s->thread, NULL, serve, s);
	return s;
}

int llm_server_port(const llm_server *s)
{
	return s->port;
}

const char *llm_server_url(const llm_server *s)
{
	return s->url;
}

size_t llm_server_requests(llm_server *s)
{
	pthread_mutex_lock(&s->mu);
	size_t n = s->nseen;
	pthread_mutex_unlock(&s->mu);
	return n;
}

const char *llm_server_request(llm_server *s, size_t i)
{
	pthread_mutex_lock(&s->mu);
	const char *r = i < s->nseen ? s->seen[i] : NULL;
	pthread_mutex_unlock(&s->mu);
	return r;
}

void llm_server_stop(llm_server *s)
{
	s->stop = 1;
	pthread_join(s->thread, NULL);
	close(s->fd);
	for (size_t i = 0; i < s->nseen; i++)
		free(s->seen[i]);
	free(s->seen);
	pthread_mutex_destroy(&s->mu);
	free(s);
}
