/* test_wire.c - the worker framing (runtime/wire.h) over a socket pair:
 * round trips, messages that arrive a byte at a time, the peer closing
 * before or inside a message, lengths over the limit, timeouts. */
#include "check.h"

#include "ktc/common.h"
#include "runtime/wire.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static void pair(int fd[2])
{
	CHECK_EQ_INT(socketpair(AF_UNIX, SOCK_STREAM, 0, fd), 0);
}

static void close_pair(int fd[2])
{
	close(fd[0]);
	if (fd[1] >= 0)
		close(fd[1]);
}

static void raw(int fd, uint32_t type, uint32_t len, const char *data, size_t n)
{
	uint32_t head[2] = {type, len};
	CHECK_EQ_INT(write(fd, head, sizeof(head)), (long)sizeof(head));
	if (n)
		CHECK_EQ_INT(write(fd, data, n), (long)n);
}

static void message_round_trips(void)
{
	int fd[2];
	uint32_t type = 0;
	kt_str s = KT_STR_INIT;
	pair(fd);
	CHECK_EQ_INT(kt_wire_send(fd[1], 7, "hello", 5, 64, "peer"), 0);
	CHECK_EQ_INT(kt_wire_send(fd[1], 8, NULL, 0, 64, "peer"), 0);
	CHECK_EQ_INT(kt_wire_recv(fd[0], &type, &s, 64, 0, "peer"), 0);
	CHECK_EQ_INT(type, 7);
	CHECK_EQ_INT(s.len, 5);
	CHECK_EQ_STR(s.ptr, "hello");
	CHECK_EQ_INT(kt_wire_recv(fd[0], &type, &s, 64, 0, "peer"), 0);
	CHECK_EQ_INT(type, 8);
	CHECK_EQ_INT(s.len, 0);
	kt_str_release(&s);
	close_pair(fd);
}

/* Writes a whole message a byte at a time, pausing between bytes. */
static void *trickle(void *arg)
{
	int fd = *(int *)arg;
	uint32_t head[2] = {3, 6};
	char msg[14];
	memcpy(msg, head, 8);
	memcpy(msg + 8, "abcdef", 6);
	for (size_t i = 0; i < sizeof(msg); i++) {
		struct timespec ts = {0, 1000000};
		nanosleep(&ts, NULL);
		if (write(fd, msg + i, 1) != 1)
			break;
	}
	return NULL;
}

static void short_reads_are_joined(void)
{
	int fd[2];
	uint32_t type = 0;
	kt_str s = KT_STR_INIT;
	pthread_t th;
	pair(fd);
	CHECK_EQ_INT(pthread_create(&th, NULL, trickle, &fd[1]), 0);
	CHECK_EQ_INT(kt_wire_recv(fd[0], &type, &s, 64, 5, "peer"), 0);
	pthread_join(th, NULL);
	CHECK_EQ_INT(type, 3);
	CHECK_EQ_STR(s.ptr, "abcdef");
	kt_str_release(&s);
	close_pair(fd);
}

static void eof_before_a_message_is_eof(void)
{
	int fd[2];
	uint32_t type = 0;
	kt_str s = KT_STR_INIT;
	pair(fd);
	close(fd[1]);
	fd[1] = -1;
	CHECK_EQ_INT(kt_wire_recv(fd[0], &type, &s, 64, 0, "peer"),
	             KT_WIRE_EOF);
	kt_str_release(&s);
	close_pair(fd);
}

static void eof_inside_a_message_delivers_nothing(void)
{
	int fd[2];
	uint32_t type = 0;
	kt_str s = KT_STR_INIT;
	pair(fd);
	raw(fd[1], 5, 100, "0123456789", 10); /* 10 of 100 bytes */
	close(fd[1]);
	fd[1] = -1;
	CHECK_EQ_INT(kt_wire_recv(fd[0], &type, &s, 1024, 0, "peer"),
	             KT_WIRE_EOF);
	CHECK_EQ_INT(s.len, 0);
	CHECK_EQ_INT(type, 0);
	/* and inside a header */
	close(fd[0]);
	pair(fd);
	CHECK_EQ_INT(write(fd[1], "\1\0", 2), 2);
	close(fd[1]);
	fd[1] = -1;
	CHECK_EQ_INT(kt_wire_recv(fd[0], &type, &s, 1024, 0, "peer"),
	             KT_WIRE_EOF);
	kt_str_release(&s);
	close_pair(fd);
}

static void oversize_lengths_are_refused(void)
{
	int fd[2];
	uint32_t type = 0;
	kt_str s = KT_STR_INIT;
	pair(fd);
	raw(fd[1], 1, 0xFFFFFFFFu, NULL, 0);
	CHECK_EQ_INT(kt_wire_recv(fd[0], &type, &s, 1024, 0, "the worker"),
	             KT_EIO);
	CHECK(strstr(kt_error_last(), "the worker sent a 4294967295-byte") !=
	      NULL);
	CHECK_EQ_INT(s.cap, 0); /* nothing was allocated for it */
	CHECK_EQ_INT(kt_wire_send(fd[1], 1, "0123456789", 10, 4, "peer"),
	             KT_EINVALID);
	raw(fd[1], 2, 4, "abcd", 4); /* the refused send wrote nothing */
	CHECK_EQ_INT(kt_wire_recv(fd[0], &type, &s, 4, 0, "peer"), 0);
	CHECK_EQ_INT(type, 2);
	CHECK_EQ_STR(s.ptr, "abcd");
	kt_str_release(&s);
	close_pair(fd);
}

static void silence_times_out(void)
{
	int fd[2];
	uint32_t type = 0;
	kt_str s = KT_STR_INIT;
	pair(fd);
	CHECK_EQ_INT(kt_wire_recv(fd[0], &type, &s, 64, 0.02, "peer"),
	             KT_WIRE_TIMEOUT);
	CHECK_EQ_INT(write(fd[1], "\1\0\0", 3), 3); /* half a header */
	CHECK_EQ_INT(kt_wire_recv(fd[0], &type, &s, 64, 0.02, "peer"),
	             KT_WIRE_TIMEOUT);
	kt_str_release(&s);
	close_pair(fd);
}

static void send_to_a_closed_peer_is_an_error(void)
{
	int fd[2];
	pair(fd);
	close(fd[0]);
	fd[0] = fd[1];
	fd[1] = -1;
	CHECK_EQ_INT(kt_wire_send(fd[0], 1, "x", 1, 64, "peer"), KT_EIO);
	CHECK(strstr(kt_error_last(), "cannot talk to peer") != NULL);
	close_pair(fd);
}

/* A result and its id through the payload codec the workers and MPI's
 * ranks share; a truncated payload is refused. */
static void results_survive_the_payload(void)
{
	kt_result r, back;
	kt_str s = KT_STR_INIT;
	kt_wire_reader rd;
	double runs[3] = {1.5, 2.5, 3.5};
	kt_result_init(&r);
	kt_result_init(&back);
	r.status = KT_STATUS_CORRECTNESS;
	r.time_ms = 2.5;
	r.runtimes_ms = runs;
	r.nruntimes = 3;
	r.message = "output 'z' differs";
	kt_result_add_measure(&r, "local_mem", 4096, "B");
	CHECK(!kt_wire_put_u32(&s, 42) && !kt_wire_put_result(&s, &r));
	CHECK(!kt_wire_put_str(&s, NULL) && !kt_wire_put_str(&s, "tail"));
	kt_wire_reader_init(&rd, &s);
	CHECK_EQ_INT(kt_wire_get_u32(&rd), 42);
	CHECK(!kt_wire_get_result(&rd, &back));
	CHECK_EQ_INT(back.status, KT_STATUS_CORRECTNESS);
	CHECK(back.nruntimes == 3 && back.runtimes_ms[2] == 3.5);
	CHECK_EQ_STR(back.message, "output 'z' differs");
	CHECK(kt_result_measure(&back, "local_mem") &&
	      kt_result_measure(&back, "local_mem")->value == 4096);
	CHECK(kt_wire_get_strdup(&rd) == NULL); /* "" */
	CHECK_EQ_STR(kt_wire_get_str(&rd), "tail");
	CHECK(!rd.bad && rd.left == 0);
	s.len -= 12; /* a truncated message is refused */
	kt_wire_reader_init(&rd, &s);
	kt_result_release(&back);
	kt_result_init(&back);
	(void)kt_wire_get_u32(&rd);
	CHECK(kt_wire_get_result(&rd, &back) == 0);
	CHECK(*kt_wire_get_str(&rd) == 0 && rd.bad);
	s.len -= 20;
	kt_wire_reader_init(&rd, &s);
	(void)kt_wire_get_u32(&rd);
	kt_result_release(&back);
	kt_result_init(&back);
	CHECK(kt_wire_get_result(&rd, &back) == KT_EIO);
	kt_result_release(&back);
	kt_str_release(&s);
}

int main(void)
{
	RUN(message_round_trips);
	RUN(short_reads_are_joined);
	RUN(eof_before_a_message_is_eof);
	RUN(eof_inside_a_message_delivers_nothing);
	RUN(oversize_lengths_are_refused);
	RUN(silence_times_out);
	RUN(send_to_a_closed_peer_is_an_error);
	RUN(results_survive_the_payload);
	return check_summary();
}
