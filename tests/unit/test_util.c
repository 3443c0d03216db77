/* test_util.c - strings, arenas, arrays, the generator, files, options,
 * numbers as text. */
#include "check.h"

#include "ktc/diag.h"
#include "util/arena.h"
#include "util/fs.h"
#include "util/num.h"
#include "util/opt.h"
#include "util/rng.h"
#include "util/str.h"
#include "util/vec.h"

#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static void str_grows_and_formats(void)
{
	kt_str s = KT_STR_INIT;
	CHECK_EQ_STR(s.ptr, "");
	CHECK_EQ_INT(kt_str_adds(&s, "block="), 0);
	CHECK_EQ_INT(kt_str_addf(&s, "%d", 256), 0);
	CHECK_EQ_STR(s.ptr, "block=256");
	for (int i = 0; i < 1000; i++)
		kt_str_addc(&s, 'x');
	CHECK_EQ_INT(s.len, 1009);
	kt_str_clear(&s);
	CHECK_EQ_STR(s.ptr, "");
	kt_str_release(&s);
}

static void str_respects_its_maximum(void)
{
	kt_str s;
	kt_str_init(&s, 8);
	CHECK_EQ_INT(kt_str_adds(&s, "12345678"), 0);
	CHECK(kt_str_adds(&s, "9") < 0);
	CHECK_EQ_STR(s.ptr, "12345678");
	kt_str_release(&s);
}

static void str_adds_nothing_from_null(void)
{
	/* memcpy from NULL is undefined even for 0 bytes (UBSan says so) */
	kt_str s = KT_STR_INIT;
	CHECK_EQ_INT(kt_str_add(&s, NULL, 0), 0);
	CHECK_EQ_STR(s.ptr, "");
	char *d = kt_strndup(NULL, 0);
	CHECK(d && !*d);
	kt_free(d);
	kt_str_release(&s);
}

static void error_may_quote_the_previous_error(void)
{
	kt_error(KT_EIO, "cannot open '%s': %s", "cache.jsonl",
	         "No such file or directory");
	kt_error(KT_EIO, "reading the cache: %s", kt_error_last());
	CHECK_EQ_STR(kt_error_last(), "reading the cache: cannot open "
	                              "'cache.jsonl': No such file or "
	                              "directory");
	kt_error(KT_EIO, "%s%s", kt_error_last(), kt_error_last());
	CHECK(!strncmp(kt_error_last(), "reading the cache: cannot open", 30));
}

static void arena_allocates_zeroed_and_large(void)
{
	kt_arena a = KT_ARENA_INIT;
	int *small = kt_arena_alloc(&a, 10 * sizeof(int));
	CHECK(small && small[9] == 0);
	char *big = kt_arena_alloc(&a, 1 << 20);
	CHECK(big && big[(1 << 20) - 1] == 0);
	CHECK_EQ_STR(kt_arena_printf(&a, "%s-%d", "tile", 32), "tile-32");
	kt_arena_release(&a);
}

static void vec_pushes(void)
{
	KT_VEC(int) v = {0};
	for (int i = 0; i < 100; i++)
		CHECK_EQ_INT(kt_vec_push(&v, i * i), 0);
	CHECK_EQ_INT(v.len, 100);
	CHECK_EQ_INT(v.items[99], 9801);
	kt_vec_release(&v);
}

static void rng_is_reproducible_and_unbiased(void)
{
	kt_rng a, b;
	kt_rng_seed(&a, 42);
	kt_rng_seed(&b, 42);
	for (int i = 0; i < 10; i++)
		CHECK(kt_rng_next(&a) == kt_rng_next(&b));
	int counts[3] = {0};
	for (int i = 0; i < 30000; i++)
		counts[kt_rng_below(&a, 3)]++;
	for (int i = 0; i < 3; i++)
		CHECK(counts[i] > 9500 && counts[i] < 10500);
}

static void fs_writes_atomically_and_reads_back(void)
{
	char path[] = "/tmp/ktc_test_fsXXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	CHECK_EQ_INT(kt_fs_write_atomic(path, "hello\n", 6), 0);
	char *text;
	size_t len;
	CHECK_EQ_INT(kt_fs_read(&text, &len, path), 0);
	CHECK_EQ_INT(len, 6);
	CHECK_EQ_STR(text, "hello\n");
	kt_free(text);
	unlink(path);
	CHECK(kt_fs_read(&text, &len, "/dev/zero") == KT_EINVALID);
	CHECK(strstr(kt_error_last(), "larger than the limit") != NULL);
	CHECK(kt_fs_read(&text, &len, "/nonexistent/x") == KT_EIO);
	CHECK(strstr(kt_error_last(), "cannot open '/nonexistent/x'") != NULL);
}

/* A fresh scratch folder's path in buf. */
static void scratch(char *buf)
{
	strcpy(buf, "/tmp/ktc_test_outXXXXXX");
	CHECK(mkdtemp(buf) != NULL);
}

static void fs_writes_through_symlinks_keeping_the_mode(void)
{
	char dir[64], file[96], link[96];
	scratch(dir);
	snprintf(file, sizeof(file), "%s/real.json", dir);
	snprintf(link, sizeof(link), "%s/link.json", dir);
	CHECK_EQ_INT(kt_fs_write_atomic(file, "old", 3), 0);
	CHECK_EQ_INT(chmod(file, 0640), 0);
	CHECK_EQ_INT(symlink("real.json", link), 0);
	CHECK_EQ_INT(kt_fs_write_atomic(link, "new", 3), 0);
	struct stat st;
	CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
	CHECK(stat(file, &st) == 0 && (st.st_mode & 07777) == 0640);
	char *text = NULL;
	CHECK_EQ_INT(kt_fs_read(&text, NULL, file), 0);
	CHECK_EQ_STR(text, "new");
	kt_free(text);
	unlink(link);
	unlink(file);
	rmdir(dir);
}

static void fs_refuses_to_replace_what_is_not_a_file(void)
{
	char dir[64], fifo[96], sub[96];
	scratch(dir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	CHECK_EQ_INT(mkfifo(fifo, 0600), 0);
	CHECK_EQ_INT(mkdir(sub, 0700), 0);
	CHECK(kt_fs_write_atomic(fifo, "x", 1) == KT_EIO);
	CHECK(strstr(kt_error_last(), "it is a fifo") != NULL);
	struct stat st;
	CHECK(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
	CHECK(kt_fs_write_atomic(sub, "x", 1) == KT_EIO);
	CHECK(lstat(sub, &st) == 0 && S_ISDIR(st.st_mode));
	unlink(fifo);
	rmdir(sub);
	rmdir(dir);
}

static void fs_checks_an_output_before_a_run(void)
{
	char dir[64], file[96], missing[96];
	scratch(dir);
	snprintf(file, sizeof(file), "%s/t4.json", dir);
	snprintf(missing, sizeof(missing), "%s/nothere/t4.json", dir);
	CHECK_EQ_INT(kt_fs_check_output(file), 0);
	CHECK(kt_fs_check_output(missing) == KT_EIO);
	CHECK(strstr(kt_error_last(), "nothere") != NULL);
	CHECK(kt_fs_check_output(dir) == KT_EIO);
	CHECK_EQ_INT(kt_fs_write_atomic(file, "x", 1), 0);
	char alias[160];
	snprintf(alias, sizeof(alias), "%s/../%s/t4.json", dir, dir + 5);
	CHECK_EQ_INT(kt_fs_same_file(file, alias), 1);
	CHECK_EQ_INT(kt_fs_same_file(file, missing), 0);
	unlink(file);
	rmdir(dir);
}

static void diag_prints_caret_under_column(void)
{
	kt_diags d;
	kt_diags_init(&d);
	const char *text = "line one\n#pragma kt constraint BLOK % 32 == 0\n";
	kt_diags_add(&d, KT_DIAG_ERROR, "k.cu", text, 2, 23, 4,
	             "unknown name '%s'", "BLOK");
	CHECK_EQ_INT(d.errors, 1);
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	kt_diags_print(&d, f, 0);
	fclose(f);
	CHECK(strstr(buf, "k.cu:2:23: error: unknown name 'BLOK'\n") != NULL);
	CHECK(strstr(buf, "      |                       ^~~~\n") != NULL);
	free(buf);
	kt_diags_release(&d);
}

static void opt_parses_long_short_and_positionals(void)
{
	bool flag = false;
	long n = 0;
	const char *s = NULL;
	const kt_opt opts[] = {
	    KT_OPT_FLAG_('v', "verbose", &flag, "talk"),
	    KT_OPT_INT_('n', "count", &n, "N", "how many"),
	    KT_OPT_STRING_(0, "out", &s, "FILE", "where"),
	    KT_OPT_END_,
	};
	kt_cmd_info info = {"x [options] FILE", "test", opts};
	char *argv[] = {"x",     "a.cu",   "-v",  "--count=5",
	                "--out", "o.json", "b.cu"};
	int npos = 0;
	CHECK_EQ_INT(kt_opt_parse(&info, 7, argv, &npos), 0);
	CHECK_EQ_INT(npos, 2);
	CHECK_EQ_STR(argv[0], "a.cu");
	CHECK_EQ_STR(argv[1], "b.cu");
	CHECK(flag);
	CHECK_EQ_INT(n, 5);
	CHECK_EQ_STR(s, "o.json");
	char *bad[] = {"x", "--count", "five"};
	CHECK_EQ_INT(kt_opt_parse(&info, 3, bad, &npos), -1);
}

static void num_is_shortest_and_reads_back(void)
{
	char buf[KT_NUM_MAX];
	kt_num_shortest(buf, sizeof(buf), 0.1);
	CHECK_EQ_STR(buf, "0.1");
	kt_num_shortest(buf, sizeof(buf), 100);
	CHECK_EQ_STR(buf, "100");
	kt_num_shortest(buf, sizeof(buf), 1.0 / 3);
	CHECK_EQ_STR(buf, "0.3333333333333333");
	kt_num_shortest(buf, sizeof(buf), 0.1 + 0.2);
	CHECK_EQ_STR(buf, "0.30000000000000004");
	kt_num_float_literal(buf, sizeof(buf), 2);
	CHECK_EQ_STR(buf, "2.0");
	kt_num_float_literal(buf, sizeof(buf), 1e20);
	CHECK_EQ_STR(buf, "1e+20");
	kt_num_float_literal(buf, sizeof(buf), -0.5);
	CHECK_EQ_STR(buf, "-0.5");
	kt_num_float_literal(buf, sizeof(buf), INFINITY);
	CHECK_EQ_STR(buf, "inf");
}

int main(void)
{
	RUN(str_grows_and_formats);
	RUN(str_respects_its_maximum);
	RUN(str_adds_nothing_from_null);
	RUN(error_may_quote_the_previous_error);
	RUN(arena_allocates_zeroed_and_large);
	RUN(vec_pushes);
	RUN(rng_is_reproducible_and_unbiased);
	RUN(fs_writes_atomically_and_reads_back);
	RUN(fs_writes_through_symlinks_keeping_the_mode);
	RUN(fs_refuses_to_replace_what_is_not_a_file);
	RUN(fs_checks_an_output_before_a_run);
	RUN(diag_prints_caret_under_column);
	RUN(opt_parses_long_short_and_positionals);
	RUN(num_is_shortest_and_reads_back);
	return check_summary();
}
