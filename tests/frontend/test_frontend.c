/*
 * test_frontend.c - the libclang frontend and the built-in planner on the
 * small kernels of tests/frontend/inputs: parsing (stand-in headers,
 * missing headers, compile_commands.json), what becomes a parameter, what
 * is rejected, and that every plan the planner makes is valid and survives
 * a JSON round trip.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include "ktc/annotate.h"
#include "ktc/rewrite.h"

#include "check.h"
#include "frontend/frontend.h"

#include <dirent.h>

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define IN(name) KT_FRONTEND_INPUTS "/" name

typedef struct run {
	kt_diags d;
	kt_tu *tu;
	kt_candidates *c;
	kt_plan *p;
	int rc;
} run;

static void run_file(run *r, const char *path, const kt_parse_opts *o,
                     bool plan)
{
	memset(r, 0, sizeof(*r));
	kt_diags_init(&r->d);
	r->rc = kt_frontend_parse(&r->tu, path, o, &r->d);
	if (!r->rc)
		r->rc = kt_candidates_find(&r->c, r->tu, &r->d);
	if (!r->rc && plan)
		r->rc = kt_planner_plan(&r->p, r->c, &r->d);
}

static void run_release(run *r)
{
	kt_plan_free(r->p);
	kt_candidates_free(r->c);
	kt_frontend_free(r->tu);
	kt_diags_release(&r->d);
}

static const kt_plan_param *param(const kt_plan *p, const char *name)
{
	for (size_t i = 0; p && i < p->nparams; i++)
		if (!strcmp(p->params[i].name, name))
			return &p->params[i];
	return NULL;
}

static bool has_constraint(const kt_plan_param *pa, const char *c)
{
	for (size_t i = 0; pa && i < pa->nconstraints; i++)
		if (!strcmp(pa->constraints[i], c))
			return true;
	return false;
}

static bool has_pragma(const kt_plan *p, const char *line)
{
	for (size_t i = 0; p && i < p->npragmas; i++)
		if (!strcmp(p->pragmas[i].line, line))
			return true;
	return false;
}

static size_t count_rejected(const kt_plan *p, kt_reason why, const char *text)
{
	size_t n = 0;
	for (size_t i = 0; p && i < p->nrejected; i++)
		n += p->rejected[i].reason == why &&
		     !strcmp(p->rejected[i].text, text);
	return n;
}

/* ---------------------------------------------------------------- parse */

static void test_cuda_headers_parse_without_diagnostics(void)
{
	run r;
	run_file(&r, IN("headers.cu"), NULL, false);
	CHECK_EQ_INT(r.rc, 0);
	CHECK_EQ_INT(r.d.len, 0);
	kt_diags_print(&r.d, stderr, 0);
	CHECK(r.c && r.c->nkernels == 1 && !r.c->kernels[0].has_errors);
	run_release(&r);
}

static void test_cache_hint_loads_and_stores_parse(void)
{
	run r;
	run_file(&r, IN("cache_hints.cu"), NULL, false);
	CHECK_EQ_INT(r.rc, 0);
	CHECK_EQ_INT(r.d.len, 0);
	kt_diags_print(&r.d, stderr, 0);
	CHECK(r.c && r.c->nkernels == 1 && !r.c->kernels[0].has_errors);
	run_release(&r);
}

/* The declaration of the rewrite file whose text starts with `head`. */
static const kt_rewrite_decl *decl(const kt_rewrite_file *f, const char *head)
{
	for (size_t i = 0; i < f->ndecls; i++)
		if (!strncmp(f->text + f->decls[i].range.begin.offset, head,
		             strlen(head)))
			return &f->decls[i];
	return NULL;
}

static void test_host_code_under_the_files_own_guard_is_marked(void)
{
	run r;
	run_file(&r, IN("rtc_guards.cu"), NULL, false);
	CHECK_EQ_INT(r.rc, 0);
	kt_rewrite_file f;
	CHECK_EQ_INT(kt_rewrite_file_from_tu(&f, r.tu), 0);
	const char *in[] = {"static int host_a", "static int host_b",
	                    "static int host_c", "void launch"};
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		const kt_rewrite_decl *d = decl(&f, in[i]);
		CHECK(d && d->host_only && d->guarded);
	}
	const kt_rewrite_decl *d = decl(&f, "static int host_d");
	CHECK(d && d->host_only && !d->guarded);
	d = decl(&f, "__global__ void zero");
	CHECK(d && !d->host_only && !d->guarded);
	CHECK_EQ_INT(f.nincludes, 2);
	CHECK(f.nincludes == 2 && !f.includes[0].guarded &&
	      f.includes[1].guarded);
	kt_rewrite_file_release(&f);
	run_release(&r);
}

static void test_missing_header_is_diagnosed_and_work_goes_on(void)
{
	run r;
	run_file(&r, IN("missing_header.cu"), NULL, true);
	CHECK_EQ_INT(r.rc, 0);
	CHECK(r.d.len >= 1);
	CHECK(r.d.len && r.d.items[0].severity == KT_DIAG_WARNING);
	CHECK(r.d.len && r.d.items[0].line == 4 && r.d.items[0].col == 10);
	CHECK(r.d.len && strstr(r.d.items[0].message,
	                        "'torch/extension.h' file not found"));
	CHECK(r.c && r.c->nkernels == 2);
	CHECK(r.c && !r.c->kernels[0].has_errors && r.c->kernels[1].has_errors);
	/* only the intact kernel is in the plan */
	CHECK(r.p && r.p->nkernels == 1 &&
	      !strcmp(r.p->kernels[0].name, "axpy"));
	CHECK(param(r.p, "BLOCK_SIZE") != NULL);
	run_release(&r);
}

static void test_unreadable_file_is_an_error(void)
{
	run r;
	run_file(&r, IN("no_such_file.cu"), NULL, false);
	CHECK_EQ_INT(r.rc, KT_EIO);
	CHECK(strstr(kt_error_last(), "cannot open") != NULL);
	run_release(&r);
}

static bool has_arg(const kt_tu *tu, const char *want)
{
	const char *const *args;
	size_t n = kt_frontend_args(tu, &args);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(args[i], want))
			return true;
	return false;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* A database in DIR/build for DIR/src/k.cu (an nvcc command), with a macro
 * that decides the block size the file launches. */
static void make_project(char *dir, size_t cap)
{
	char tmpl[] = "/tmp/ktc-frontend-XXXXXX";
	CHECK(mkdtemp(tmpl) != NULL);
	snprintf(dir, cap, "%s", tmpl);
	char path[512], text[1024];
	snprintf(path, sizeof(path), "%s/src", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/build", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/src/k.cu", dir);
	write_file(path, "#include <cuda_runtime.h>\n"
	                 "__global__ void k(float *a, int n)\n"
	                 "{\n"
	                 "\tfor (int i = threadIdx.x; i < n; i += 64)\n"
	                 "\t\ta[i] = 0.0f;\n"
	                 "}\n"
	                 "void go(float *a, int n)\n"
	                 "{\n"
	                 "#if KT_TEST_BLOCK == 64\n"
	                 "\tk<<<1, 64>>>(a, n);\n"
	                 "#endif\n"
	                 "}\n");
	snprintf(path, sizeof(path), "%s/build/compile_commands.json", dir);
	snprintf(text, sizeof(text),
	         "[{\"directory\": \"%s/build\", \"file\": \"%s/src/k.cu\",\n"
	         "  \"command\": \"/usr/local/cuda/bin/nvcc -DKT_TEST_BLOCK=64 "
	         "-I../inc --generate-code=arch=compute_90,code=sm_90 -x cu "
	         "-c %s/src/k.cu -o k.o\"}]\n",
	         dir, dir, dir);
	write_file(path, text);
}

static void remove_project(const char *dir)
{
	char path[512];
	const char *files[] = {"src/k.cu", "build/compile_commands.json", "src",
	                       "build", ""};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		remove(path);
	}
}

static void test_compile_commands_found_by_walking_up(void)
{
	char dir[256], file[512];
	make_project(dir, sizeof(dir));
	snprintf(file, sizeof(file), "%s/src/k.cu", dir);
	run r;
	run_file(&r, file, NULL, true);
	CHECK_EQ_INT(r.rc, 0);
	CHECK(r.tu && has_arg(r.tu, "-DKT_TEST_BLOCK=64"));
	char inc[512];
	snprintf(inc, sizeof(inc), "-I%s/build/../inc", dir);
	CHECK(r.tu && has_arg(r.tu, inc));
	CHECK(r.tu &&
	      !has_arg(r.tu, "--generate-code=arch=compute_90,code=sm_90"));
	/* the macro from the database made the launch visible */
	const kt_plan_param *b = param(r.p, "BLOCK_SIZE");
	CHECK(b && b->def == 64 && b->nuses == 1);
	run_release(&r);
	remove_project(dir);
}

static void test_build_dir_option_and_no_compdb(void)
{
	char dir[256], file[512], build[512];
	make_project(dir, sizeof(dir));
	snprintf(file, sizeof(file), "%s/src/k.cu", dir);
	snprintf(build, sizeof(build), "%s/build", dir);
	kt_parse_opts o = {.build_dir = build};
	run r;
	run_file(&r, file, &o, false);
	CHECK_EQ_INT(r.rc, 0);
	CHECK(r.tu && has_arg(r.tu, "-DKT_TEST_BLOCK=64"));
	run_release(&r);
	kt_parse_opts none = {.no_compdb = true};
	run_file(&r, file, &none, false);
	CHECK(r.tu && !has_arg(r.tu, "-DKT_TEST_BLOCK=64"));
	CHECK(r.tu && has_arg(r.tu, "--cuda-gpu-arch=sm_90a"));
	CHECK(r.tu && has_arg(r.tu, "-std=c++17"));
	run_release(&r);
	remove_project(dir);
}

/* -------------------------------------------------------------- planner */

static void test_launch_and_stride_become_one_parameter(void)
{
	run r;
	run_file(&r, IN("stride.cu"), NULL, true);
	CHECK_EQ_INT(r.rc, 0);
	const kt_plan_param *b = param(r.p, "BLOCK_SIZE");
	CHECK(b && b->def == 256 && b->role == KT_ROLE_BLOCK_SIZE);
	/* launch block, (n + 255), / 256, __launch_bounds__, shared slots,
	 * 256 / 32, two blockIdx.x * 256; the loop stride is the refactor's */
	CHECK(b && b->nuses == 8);
	bool launch = false, minus = false, bounds = false;
	for (size_t i = 0; b && i < b->nuses; i++) {
		launch |= b->uses[i].site == KT_SITE_LAUNCH_BLOCK &&
		          b->uses[i].host && b->uses[i].launch == 0;
		minus |= !strcmp(b->uses[i].with, "(BLOCK_SIZE - 1)");
		bounds |= b->uses[i].site == KT_SITE_LAUNCH_BOUNDS &&
		          !b->uses[i].host;
	}
	CHECK(launch && minus && bounds);
	CHECK(r.p && r.p->nrefactors == 1 &&
	      r.p->refactors[0].kind == KT_REFACTOR_STRIDE_FOLLOWS_BLOCK &&
	      r.p->refactors[0].nedits == 1 &&
	      !strcmp(r.p->refactors[0].edits[0].with, "BLOCK_SIZE"));
	CHECK(has_pragma(r.p,
	                 "launch grid((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) "
	                 "block(BLOCK_SIZE)"));
	run_release(&r);
}

static void test_meaningful_literals_stay(void)
{
	run r;
	run_file(&r, IN("stride.cu"), NULL, true);
	CHECK_EQ_INT(count_rejected(r.p, KT_REASON_FP8_MAX, "448.0f"), 1);
	CHECK_EQ_INT(count_rejected(r.p, KT_REASON_WARP_SIZE, "32"), 3);
	CHECK_EQ_INT(count_rejected(r.p, KT_REASON_MASK, "0xffffffff"), 1);
	CHECK_EQ_INT(count_rejected(r.p, KT_REASON_EPS, "1e-6f"), 1);
	CHECK_EQ_INT(count_rejected(r.p, KT_REASON_SHIFT, "3"), 1);
	CHECK_EQ_INT(count_rejected(r.p, KT_REASON_SHUFFLE, "16"), 1);
	run_release(&r);
	run_file(&r, IN("group_quant.cu"), NULL, true);
	CHECK_EQ_INT(count_rejected(r.p, KT_REASON_FORMAT_GROUP, "64"), 1);
	/* the 8 threads of a group, in the kernel and in the launch, are
	 * threads_per_group's parameter, no longer left as unsafe */
	CHECK_EQ_INT(count_rejected(r.p, KT_REASON_UNSAFE, "8"), 0);
	CHECK(param(r.p, "TPG") != NULL && param(r.p, "TPG")->def == 8 &&
	      param(r.p, "TPG")->nvalues == 3);
	CHECK(param(r.p, "GROUPS_PER_BLOCK") != NULL);
	run_release(&r);
}

static void test_tiles_get_constraints_between_them(void)
{
	run r;
	run_file(&r, IN("tile2d.cu"), NULL, true);
	CHECK_EQ_INT(r.rc, 0);
	const kt_plan_param *t = param(r.p, "TILE"), *rows = param(r.p, "ROWS");
	CHECK(t && t->def == 16 && t->role == KT_ROLE_TILE && t->nuses == 1 &&
	      t->uses[0].site == KT_SITE_MACRO && !t->uses[0].with);
	CHECK(rows && rows->def == 4);
	CHECK(has_constraint(rows, "TILE % ROWS == 0"));
	CHECK(has_constraint(rows, "(TILE) * (ROWS) <= "
	                           "DEVICE_MAX_THREADS_PER_BLOCK"));
	CHECK(has_constraint(t, "4 * (TILE + 1) * (TILE) <= "
	                        "DEVICE_SMEM_PER_BLOCK"));
	CHECK_EQ_INT(count_rejected(r.p, KT_REASON_WARP_SIZE, "32"), 1);
	run_release(&r);
}

static void test_pragma_unroll_becomes_a_parameter(void)
{
	run r;
	run_file(&r, IN("tile2d.cu"), NULL, true);
	const kt_plan_param *u = param(r.p, "UNROLL");
	CHECK(u && u->def == 4 && u->role == KT_ROLE_UNROLL && u->nuses == 1 &&
	      u->uses[0].site == KT_SITE_PRAGMA_UNROLL &&
	      !strcmp(u->uses[0].text, "4"));
	CHECK(u && u->nvalues == 5 && u->values[0] == 1 && u->values[4] == 16);
	run_release(&r);
}

static void test_template_arguments_are_tiles(void)
{
	run r;
	run_file(&r, IN("templated.cu"), NULL, true);
	CHECK_EQ_INT(r.rc, 0);
	/* TM names the template parameter: the macro gets a new name */
	const kt_plan_param *tm = param(r.p, "TILE_SUM_TM");
	CHECK(tm && tm->def == 32 && tm->nuses == 3);
	CHECK(param(r.p, "TILE_SUM_TK") != NULL);
	CHECK(has_pragma(r.p, "kernel template(TILE_SUM_TM, TILE_SUM_TK, "
	                      "\"float\")"));
	CHECK(has_pragma(r.p, "launch grid((m + (TILE_SUM_TM - 1)) / "
	                      "TILE_SUM_TM) block(BLOCK_SIZE)"));
	run_release(&r);
}

static const kt_plan_need *need(const kt_plan *p, const char *what,
                                const char *suggest)
{
	for (size_t i = 0; p && i < p->nneeds; i++)
		if (!strcmp(p->needs[i].what, what) && p->needs[i].suggest &&
		    !strcmp(p->needs[i].suggest, suggest))
			return &p->needs[i];
	return NULL;
}

static void test_float_arguments_are_not_problem_sizes(void)
{
	run r;
	run_file(&r, IN("float_args.cu"), NULL, true);
	CHECK_EQ_INT(r.rc, 0);
	const kt_plan_need *eps = need(r.p, "arg", "arg eps float = ?");
	CHECK(eps && strstr(eps->message, "'eps' is a float the host passes "
	                                  "to the kernel, not a problem size"));
	CHECK(eps && eps->range.begin.line == 12);
	CHECK(has_pragma(r.p, "arg scale float = 0.5f"));
	CHECK(has_pragma(r.p, "arg n int = n"));
	CHECK(need(r.p, "problem_values", "problem n values(?)") != NULL);
	for (size_t i = 0; r.p && i < r.p->nneeds; i++)
		CHECK(!strstr(r.p->needs[i].message, "'eps' is a problem") &&
		      !strstr(r.p->needs[i].message, "'scale' is a problem"));
	run_release(&r);
}

static bool param_has_constraints(const kt_plan_param *pa)
{
	return pa && pa->nconstraints > 0;
}

static void test_block_size_cap_becomes_a_parameter(void)
{
	run r;
	run_file(&r, IN("clamp.cu"), NULL, true);
	CHECK_EQ_INT(r.rc, 0);
	/* `d < 1024 ? d : 1024` through a dim3 variable: both literals */
	const kt_plan_param *b = param(r.p, "BLOCK_SIZE");
	CHECK(b && !strcmp(b->kernel, "row_scale") && b->def == 1024 &&
	      b->role == KT_ROLE_BLOCK_SIZE && b->nuses == 2);
	CHECK(b && b->nvalues == 32 && b->values[0] == 32 &&
	      b->values[31] == 1024);
	CHECK(b && b->nuses == 2 && b->uses[0].host &&
	      b->uses[0].site == KT_SITE_EXPR);
	/* row_split makes the grid two-dimensional (planner/rows.c) */
	CHECK(has_pragma(r.p, "launch grid(rows, SPLIT) block((d < BLOCK_SIZE "
	                      "? d : BLOCK_SIZE))"));
	/* std::min, a variable assigned twice, rounded up to whole warps:
	 * the block never exceeds the cap, so no constraint */
	const kt_plan_param *s = param(r.p, "BLOCK_SIZE_2");
	CHECK(s && !strcmp(s->kernel, "row_sum") && s->def == 1024 &&
	      s->nuses == 1 && !param_has_constraints(s));
	/* a row per block with a barrier: a warp per row (planner/reduce.c)
	 * puts its block before the clamp; the row's sum split over a
	 * cluster (planner/rows.c) makes the grid two-dimensional */
	CHECK(has_pragma(r.p, "launch grid(rows, CLUSTER) block(WARP_ROWS > 0 "
	                      "? 32 * WARP_ROWS : ((((min(d, BLOCK_SIZE_2)) + "
	                      "31) / 32 * 32)))"));
	/* threadIdx.x indexes a shared array: the cap stays */
	CHECK_EQ_INT(count_rejected(r.p, KT_REASON_UNSAFE, "256"), 2);
	/* a shared array of 8 warps: no larger than the original cap */
	const kt_plan_param *m = param(r.p, "BLOCK_SIZE_3");
	CHECK(m && !strcmp(m->kernel, "row_max") && m->def == 256 &&
	      m->nvalues == 8 && m->values[7] == 256);
	run_release(&r);
}

static void test_equal_block_dims_are_left_alone(void)
{
	run r;
	run_file(&r, IN("ambiguous.cu"), NULL, true);
	CHECK_EQ_INT(r.rc, 0);
	/* only launch_bounds' MIN_BLOCKS, over the 16 x 16 block */
	CHECK(r.p && r.p->nparams == 1 && r.p->nrefactors == 1 &&
	      r.p->refactors[0].kind == KT_REFACTOR_LAUNCH_BOUNDS &&
	      !strcmp(r.p->refactors[0].max_threads, "256"));
	CHECK_EQ_INT(count_rejected(r.p, KT_REASON_AMBIGUOUS, "16"), 3);
	run_release(&r);
}

static void test_warps_and_items_through_constants(void)
{
	run r;
	run_file(&r, IN("warps.cu"), NULL, true);
	const kt_plan_param *w = param(r.p, "WARPS"), *it = param(r.p, "ITEMS");
	CHECK(w && w->role == KT_ROLE_WARPS && w->def == 8 &&
	      w->uses[0].site == KT_SITE_CONSTEXPR);
	CHECK(
	    has_constraint(w, "(WARPS * 32) <= DEVICE_MAX_THREADS_PER_BLOCK"));
	CHECK(it && it->role == KT_ROLE_ITEMS_PER_THREAD && it->def == 4);
	run_release(&r);
}

static void test_kernel_without_launch_needs_one(void)
{
	run r;
	run_file(&r, IN("headers.cu"), NULL, true);
	CHECK_EQ_INT(r.rc, 0);
	bool need = false;
	for (size_t i = 0; r.p && i < r.p->nneeds; i++)
		need |= !strcmp(r.p->needs[i].what, "launch");
	CHECK(need);
	CHECK_EQ_INT(count_rejected(r.p, KT_REASON_UNSAFE, "8"), 1);
	run_release(&r);
}

static void test_file_without_kernel_is_an_error(void)
{
	char tmpl[] = "/tmp/ktc-frontend-XXXXXX";
	CHECK(mkdtemp(tmpl) != NULL);
	char path[512];
	snprintf(path, sizeof(path), "%s/host.cu", tmpl);
	write_file(path, "int add(int a, int b) { return a + b; }\n");
	run r;
	run_file(&r, path, NULL, true);
	CHECK_EQ_INT(r.rc, KT_EINVALID);
	CHECK(strstr(kt_error_last(), "no __global__ kernel") != NULL);
	run_release(&r);
	remove(path);
	rmdir(tmpl);
}

static void same_candidates(const kt_candidates *a, const kt_candidates *b)
{
	CHECK(a && b && a->len == b->len);
	for (size_t i = 0; a && b && i < a->len && i < b->len; i++) {
		CHECK_EQ_STR(a->items[i].text, b->items[i].text);
		CHECK_EQ_INT(a->items[i].range.begin.offset,
		             b->items[i].range.begin.offset);
		CHECK_EQ_INT(a->items[i].link, b->items[i].link);
		CHECK_EQ_INT(a->items[i].rejected, b->items[i].rejected);
	}
}

static void test_header_cache_gives_the_same_candidates(void)
{
	kt_parse_opts off = {.no_pch = true};
	run cold, warm, none;
	run_file(&cold, IN("stride.cu"), NULL, false); /* builds the cache */
	run_file(&warm, IN("stride.cu"), NULL, false);
	run_file(&none, IN("stride.cu"), &off, false);
	CHECK(warm.tu && kt_frontend_used_cache(warm.tu));
	CHECK(none.tu && !kt_frontend_used_cache(none.tu));
	same_candidates(warm.c, none.c);
	same_candidates(cold.c, none.c);
	CHECK_EQ_INT(warm.d.len, none.d.len);
	run_release(&cold);
	run_release(&warm);
	run_release(&none);
}

/* A PCH libclang cannot read back even when just built (torch's headers
 * give ASTReadError) is marked, and the next parse goes without it at
 * once instead of building it again. */
static void test_refused_header_cache_is_not_built_again(void)
{
	char tmpl[] = "/tmp/ktc-pch-XXXXXX";
	CHECK(mkdtemp(tmpl) != NULL);
	const char *was = getenv("KTC_CACHE_DIR");
	char *saved = was ? strdup(was) : NULL;
	setenv("KTC_CACHE_DIR", tmpl, 1);
	run a, b;
	run_file(&a, IN("stride.cu"), NULL, false);
	CHECK(a.tu && kt_frontend_used_cache(a.tu));
	char dir[600], pch[900] = "";
	snprintf(dir, sizeof(dir), "%s/pch", tmpl);
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));)
		if (strstr(e->d_name, ".pch"))
			snprintf(pch, sizeof(pch), "%s/%s", dir, e->d_name);
	if (d)
		closedir(d);
	CHECK(pch[0] != 0);
	kt_fe_pch_refused(pch);
	run_file(&b, IN("stride.cu"), NULL, false);
	CHECK(b.tu && !kt_frontend_used_cache(b.tu));
	CHECK_EQ_INT(b.rc, 0);
	run_release(&a);
	run_release(&b);
	if (saved)
		setenv("KTC_CACHE_DIR", saved, 1);
	else
		unsetenv("KTC_CACHE_DIR");
	free(saved);
}

/* A header of the project changes: clang refuses the cached PCH, the
 * cache is rebuilt, and the parse sees the new value. */
static void test_changed_header_is_seen_through_the_cache(void)
{
	char tmpl[] = "/tmp/ktc-frontend-XXXXXX";
	CHECK(mkdtemp(tmpl) != NULL);
	char inc[512], hdr[512], file[512], flag[600];
	snprintf(inc, sizeof(inc), "%s/inc", tmpl);
	mkdir(inc, 0700);
	snprintf(hdr, sizeof(hdr), "%s/inc/block.h", tmpl);
	snprintf(file, sizeof(file), "%s/k.cu", tmpl);
	snprintf(flag, sizeof(flag), "-I%s", inc);
	const char *extra[] = {flag};
	kt_parse_opts o = {.extra = extra, .nextra = 1, .no_compdb = true};
	write_file(hdr, "#pragma once\n#define KT_HDR_BLOCK 128\n");
	write_file(file, "#include <cuda_runtime.h>\n#include <block.h>\n"
	                 "__global__ void k(float *a) { a[threadIdx.x] = 0; }\n"
	                 "void go(float *a) { k<<<1, KT_HDR_BLOCK>>>(a); }\n");
	run r;
	run_file(&r, file, &o, false);
	run_release(&r);
	run_file(&r, file, &o, false);
	CHECK(r.tu && kt_frontend_used_cache(r.tu));
	run_release(&r);
	sleep(1); /* a new modification time */
	write_file(hdr, "#pragma once\n#define KT_HDR_BLOCK 512\n");
	run_file(&r, file, &o, true);
	CHECK_EQ_INT(r.rc, 0);
	CHECK_EQ_INT(r.d.errors, 0);
	kt_diags_print(&r.d, stderr, 0);
	/* the launch's block is a macro of another file: the parameter
	 * stands where it expands, with the value the parse saw */
	CHECK(has_pragma(r.p, "launch grid(1) block(K_KT_HDR_BLOCK)"));
	const kt_plan_param *b = param(r.p, "K_KT_HDR_BLOCK");
	CHECK(b && b->def == 512);
	run_release(&r);
	remove(hdr);
	remove(file);
	rmdir(inc);
	rmdir(tmpl);
}

static void test_every_plan_round_trips(void)
{
	static const char *const files[] = {
	    "stride.cu",  "tile2d.cu",        "templated.cu",
	    "warps.cu",   "ambiguous.cu",     "group_quant.cu",
	    "headers.cu", "missing_header.cu"};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/%s", KT_FRONTEND_INPUTS,
		         files[i]);
		run r;
		run_file(&r, path, NULL, true);
		CHECK_EQ_INT(r.rc, 0);
		char *json = NULL, *again = NULL;
		kt_plan *back = NULL;
		CHECK(r.p && kt_plan_to_json(&json, r.p) == 0);
		size_t len;
		const char *src = r.tu ? kt_frontend_text(r.tu, &len) : NULL;
		CHECK(json && kt_plan_from_json(&back, json, strlen(json),
		                                files[i], src, len, &r.d) == 0);
		CHECK(back && kt_plan_to_json(&again, back) == 0);
		CHECK(json && again && !strcmp(json, again));
		kt_free(json);
		kt_free(again);
		kt_plan_free(back);
		run_release(&r);
	}
}

int main(void)
{
	RUN(test_cuda_headers_parse_without_diagnostics);
	RUN(test_cache_hint_loads_and_stores_parse);
	RUN(test_host_code_under_the_files_own_guard_is_marked);
	RUN(test_missing_header_is_diagnosed_and_work_goes_on);
	RUN(test_unreadable_file_is_an_error);
	RUN(test_compile_commands_found_by_walking_up);
	RUN(test_build_dir_option_and_no_compdb);
	RUN(test_launch_and_stride_become_one_parameter);
	RUN(test_meaningful_literals_stay);
	RUN(test_tiles_get_constraints_between_them);
	RUN(test_pragma_unroll_becomes_a_parameter);
	RUN(test_template_arguments_are_tiles);
	RUN(test_float_arguments_are_not_problem_sizes);
	RUN(test_block_size_cap_becomes_a_parameter);
	RUN(test_equal_block_dims_are_left_alone);
	RUN(test_warps_and_items_through_constants);
	RUN(test_kernel_without_launch_needs_one);
	RUN(test_file_without_kernel_is_an_error);
	RUN(test_header_cache_gives_the_same_candidates);
	RUN(test_refused_header_cache_is_not_built_again);
	RUN(test_changed_header_is_seen_through_the_cache);
	RUN(test_every_plan_round_trips);
	return check_summary();
}
