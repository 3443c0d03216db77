/* test_compile.c - NVRTC compilation, name expressions, logs, the cache. */
#include "check.h"

#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>

#include "ktc/eval.h"
#include "runtime/cuda/backend.h"
#include "runtime/cuda/compile.h"
#include "util/fs.h"

static const char *text =
    "#ifndef BLOCK\n#define BLOCK 128\n#endif\n"
    "template <int N, typename T>\n"
    "__global__ void __launch_bounds__(BLOCK) scale(T *x, int n)\n"
    "{\n"
    "\tconstexpr int kt_unroll = N;\n"
    "\tint i = blockIdx.x * BLOCK + threadIdx.x;\n"
    "#pragma unroll kt_unroll\n"
    "\tfor (int k = 0; k < N; k++)\n"
    "\t\tif (i < n) x[i] *= (T)2;\n"
    "}\n"
    "__global__ void plain(float *x) { x[threadIdx.x] = BLOCK; }\n";

static char cache_dir[64];

static void compiles_a_templated_kernel(void)
{
	char *defs[] = {"BLOCK=256"};
	kt_cu_source src = {text, "t.kt.cu", "scale<4, float>", "sm_90a", defs,
	                    1,    NULL};
	kt_cu_binary b;
	CHECK_EQ_INT(kt_cu_compile(&b, &src, NULL), 0);
	CHECK(b.ok);
	CHECK(b.size > 0);
	CHECK(b.lowered && strstr(b.lowered, "scale") != NULL);
	CHECK(!b.cached);
	kt_cu_binary_release(&b);
}

static void compiles_a_plain_kernel_by_name(void)
{
	kt_cu_source src = {text, "t.kt.cu", "plain", "sm_80", NULL, 0, NULL};
	kt_cu_binary b;
	CHECK_EQ_INT(kt_cu_compile(&b, &src, NULL), 0);
	CHECK(b.ok);
	CHECK(b.lowered && strstr(b.lowered, "plain") != NULL);
	kt_cu_binary_release(&b);
}

static void a_compile_error_keeps_its_log(void)
{
	char *defs[] = {"BLOCK=not_a_number"};
	kt_cu_source src = {text, "t.kt.cu", "plain", "sm_90a", defs, 1, NULL};
	kt_cu_binary b;
	CHECK_EQ_INT(kt_cu_compile(&b, &src, NULL), 0);
	CHECK(!b.ok);
	CHECK(b.log && strstr(b.log, "not_a_number") != NULL);
	CHECK(b.log && strstr(b.log, "t.kt.cu") != NULL);
	kt_cu_binary_release(&b);
}

static void cache_answers_the_second_time(void)
{
	char *defs[] = {"BLOCK=64"};
	kt_cu_source src = {text, "t.kt.cu", "scale<2, double>", "sm_90a", defs,
	                    1,    NULL};
	kt_cu_binary a, b;
	CHECK_EQ_INT(kt_cu_compile(&a, &src, cache_dir), 0);
	CHECK_EQ_INT(kt_cu_compile(&b, &src, cache_dir), 0);
	CHECK(a.ok && b.ok && !a.cached && b.cached);
	CHECK(a.size == b.size && a.image && b.image &&
	      !memcmp(a.image, b.image, a.size));
	CHECK_EQ_STR(a.lowered, b.lowered);
	kt_cu_binary_release(&a);
	kt_cu_binary_release(&b);
	/* failures are cached with their log */
	char *bad[] = {"BLOCK=oops"};
	src.defines = bad;
	CHECK_EQ_INT(kt_cu_compile(&a, &src, cache_dir), 0);
	CHECK_EQ_INT(kt_cu_compile(&b, &src, cache_dir), 0);
	CHECK(!a.ok && !b.ok && b.cached);
	CHECK_EQ_STR(a.log, b.log);
	kt_cu_binary_release(&a);
	kt_cu_binary_release(&b);
}

static void a_torn_cache_file_is_a_miss(void)
{
	char *defs[] = {"BLOCK=32"};
	kt_cu_source src = {text, "t.kt.cu", "plain", "sm_90a", defs, 1, NULL};
	kt_cu_binary a;
	CHECK_EQ_INT(kt_cu_compile(&a, &src, cache_dir), 0);
	char path[256];
	snprintf(path, sizeof(path), "%s/%016llx%016llx.cubin", cache_dir,
	         (unsigned long long)a.key[0], (unsigned long long)a.key[1]);
	CHECK_EQ_INT(kt_fs_write_atomic(path, "ktc-cubin-2 ok 5 9", 18), 0);
	kt_cu_binary b;
	CHECK_EQ_INT(kt_cu_compile(&b, &src, cache_dir), 0);
	CHECK(b.ok && !b.cached);
	kt_cu_binary_release(&a);
	kt_cu_binary_release(&b);
}

static void key_covers_defines_arch_and_kernel(void)
{
	char *d1[] = {"BLOCK=64"}, *d2[] = {"BLOCK=65"};
	kt_cu_source a = {text, "t.kt.cu", "plain", "sm_90a", d1, 1, NULL};
	kt_cu_source b = a;
	uint64_t ka[2], kb[2];
	char **o = NULL;
	size_t n = 0;
#define KEY(src, k)                                                            \
	do {                                                                   \
		CHECK_EQ_INT(kt_cu_options(&o, &n, &(src)), 0);                \
		kt_cu_cache_key(k, &(src), o, n);                              \
		kt_cu_options_free(o, n);                                      \
	} while (0)
	KEY(a, ka);
	KEY(b, kb);
	CHECK(ka[0] == kb[0] && ka[1] == kb[1]);
	b.defines = d2;
	KEY(b, kb);
	CHECK(ka[0] != kb[0]);
	b = a;
	b.arch = "sm_80";
	KEY(b, kb);
	CHECK(ka[0] != kb[0]);
	b = a;
	b.name_expr = "scale<1, float>";
	KEY(b, kb);
	CHECK(ka[0] != kb[0]);
#undef KEY
}

static void options_carry_the_required_flags(void)
{
	char *defs[] = {"TILE=16"};
	kt_cu_source src = {text, "dir/t.kt.cu", "plain", "sm_90a", defs,
	                    1,    NULL};
	char **o = NULL;
	size_t n = 0;
	CHECK_EQ_INT(kt_cu_options(&o, &n, &src), 0);
	int found = 0;
	for (size_t i = 0; i < n; i++) {
		found += !strcmp(o[i], "-arch=sm_90a");
		found += !strcmp(o[i], "--std=c++17");
		found += !strcmp(o[i], "-default-device");
		found += !strcmp(o[i], "-DKTC_TUNING=1");
		found += !strcmp(o[i], "-DTILE=16");
		found += !strcmp(o[i], "-Idir");
	}
	CHECK_EQ_INT(found, 6);
	kt_cu_options_free(o, n);
}

static void pragma_lines_raise_no_warnings(void)
{
	char *defs[] = {"BLOCK=oops"};
	const char *tpl = "#pragma kt param BLOCK values(1, 2) default(1)\n"
	                  "__global__ void k(int *y) { y[0] = BLOCK; }\n";
	kt_cu_source src = {tpl, "p.kt.cu", "k", "sm_90a", defs, 1, NULL};
	kt_cu_binary b;
	CHECK_EQ_INT(kt_cu_compile(&b, &src, NULL), 0);
	CHECK(!b.ok);
	CHECK(b.log && strstr(b.log, "oops") != NULL);
	CHECK(b.log && strstr(b.log, "unrecognized #pragma") == NULL);
	kt_cu_binary_release(&b);
}

/* Compiler processes: this program is their executable (main below). */
static void a_compiler_process_compiles_and_survives_a_crash(void)
{
	char *defs[] = {"BLOCK=128"};
	kt_cu_source src = {text, "t.kt.cu", "scale<2, float>", "sm_90a", defs,
	                    1,    NULL};
	kt_cu_compiler c = {.fd = -1, .exe = "/proc/self/exe"};
	kt_cu_binary here, there;
	CHECK_EQ_INT(kt_cu_compile(&here, &src, NULL), 0);
	CHECK_EQ_INT(kt_cu_compiler_run(&c, &there, &src, NULL), 0);
	CHECK(there.ok && there.size == here.size &&
	      !memcmp(there.image, here.image, here.size));
	CHECK_EQ_STR(there.lowered, here.lowered);
	kt_cu_binary_release(&there);
	CHECK(c.pid > 0);
	/* killed from outside (a user, the OOM killer): compiled again */
	kill(c.pid, SIGKILL);
	CHECK_EQ_INT(kt_cu_compiler_run(&c, &there, &src, NULL), 0);
	CHECK(there.ok);
	kt_cu_binary_release(&there);
	CHECK(c.pid > 0);
	kill(c.pid, SIGSEGV); /* a compiler that crashes costs one compile */
	CHECK_EQ_INT(kt_cu_compiler_run(&c, &there, &src, NULL), 0);
	CHECK(!there.ok);
	CHECK(there.log && strstr(there.log, "compiler process") != NULL);
	kt_cu_binary_release(&there);
	CHECK_EQ_INT(kt_cu_compiler_run(&c, &there, &src, NULL), 0);
	CHECK(there.ok); /* and the next starts a new one */
	kt_cu_binary_release(&there);
	kt_cu_binary_release(&here);
	kt_cu_compilers_stop(&c, 1);
	CHECK_EQ_INT(c.pid, 0);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "__cuda-worker"))
		return kt_cuda_worker_main(argc - 1, argv + 1);
	snprintf(cache_dir, sizeof(cache_dir), "/tmp/ktc-test-cubin-%ld",
	         (long)getpid());
	RUN(compiles_a_templated_kernel);
	RUN(compiles_a_plain_kernel_by_name);
	RUN(a_compile_error_keeps_its_log);
	RUN(cache_answers_the_second_time);
	RUN(a_torn_cache_file_is_a_miss);
	RUN(key_covers_defines_arch_and_kernel);
	RUN(options_carry_the_required_flags);
	RUN(pragma_lines_raise_no_warnings);
	RUN(a_compiler_process_compiles_and_survives_a_crash);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", cache_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", cache_dir);
	return check_summary();
}
