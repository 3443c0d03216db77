/*
 * cmd_annotate.c - `ktc annotate FILE`: turns a kernel's tuning literals
 * into a `#pragma kt` template, proven by the verifying rewriter.
 *
 * Pipeline: the frontend parses FILE (flags from compile_commands.json),
 * finds candidates and the built-in planner proposes an edit plan (or
 * --apply-plan reads one); the rewriter applies and verifies it. The one
 * design choice: the input file is only ever replaced whole (-i, through an
 * atomic rename) and only after everything was verified; every failure
 * leaves it untouched.
 */
#include "cli/cmd.h"

#include "ktc/frontend.h"
#include "ktc/plan.h"
#include "ktc/rewrite.h"
#include "util/fs.h"
#include "util/opt.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct options {
	const char *build_dir, *apply_plan, *out, *kernel, *arch;
	bool plan, in_place, diff, no_verify, verify_run, no_verify_run;
	long jobs;
} options;

typedef struct session {
	const options *o;
	const char *path;
	kt_diags d;
	kt_tu *tu;
	kt_candidates *cands;
	kt_plan *plan;
	kt_rewrite_file rf;
	kt_rewrite_result res;
	kt_rewrite_opts ro;
	char **flags;
	size_t nflags;
} session;

static void say(const char *what)
{
	fprintf(stderr, "ktc annotate: %s\n", what);
}

/* The plan: read from --apply-plan, or the built-in planner's. */
static int get_plan(session *s)
{
	size_t len;
	const char *text = kt_frontend_text(s->tu, &len);
	if (!s->o->apply_plan) {
		int rc = kt_candidates_find(&s->cands, s->tu, &s->d);
		return rc ? rc : kt_planner_plan(&s->plan, s->cands, &s->d);
	}
	char *json = NULL;
	size_t jlen = 0;
	int rc = kt_fs_read(&json, &jlen, s->o->apply_plan);
	if (!rc)
		rc = kt_plan_from_json(&s->plan, json, jlen, s->o->apply_plan,
		                       text, len, &s->d);
	if (rc == KT_EPARSE)
		kt_error(rc, "the plan '%s' does not fit '%s'",
		         s->o->apply_plan, s->path);
	kt_free(json);
	return rc;
}

static int rewrite(session *s)
{
	int rc = kt_rewrite_file_from_tu(&s->rf, s->tu);
	return rc ? rc : kt_rewrite(&s->res, s->plan, &s->rf, &s->ro, &s->d);
}

/*
 * The verification's options; the original's nvcc compile starts now, so
 * it runs while libclang parses the file.
 */
static int prepare(session *s)
{
	const options *o = s->o;
	const char *dest = o->in_place ? s->path : o->out;
	/* the plan is read before the output is written, but a plan replaced
	 * by the annotated source is lost (the same file, by any name) */
	if (dest && o->apply_plan &&
	    (kt_fs_same_file(dest, o->apply_plan) ||
	     !strcmp(dest, o->apply_plan)))
		return kt_error(KT_EINVALID,
		                "the output '%s' is the plan '%s'; refusing to "
		                "replace it",
		                dest, o->apply_plan);
	int rc = kt_rewrite_flags(&s->flags, &s->nflags, s->path, o->build_dir);
	if (rc)
		return rc;
	s->ro = (kt_rewrite_opts){
	    .arch = o->arch,
	    .flags = (const char *const *)s->flags,
	    .nflags = s->nflags,
	    .out_name = o->out        ? o->out
	                : o->in_place ? s->path
	                              : "<stdout>",
	    .no_verify = o->no_verify,
	    .threads = (int)o->jobs,
	    .run = o->verify_run      ? KT_RUN_REQUIRED
	           : o->no_verify_run ? KT_RUN_OFF
	                              : KT_RUN_AUTO,
	    .worker_exe = "/proc/self/exe", /* ktc is its own worker */
	};
	/* the original's nvcc compile, early; OpenCL C has none */
	if (!o->plan && !o->no_verify && !kt_path_is_opencl(s->path) &&
	    kt_rewrite_base_start(&s->ro.base, s->path, &s->ro))
		kt_error_clear(); /* the parse reports what is wrong */
	return 0;
}

static int print_plan(session *s)
{
	char *json = NULL;
	int rc = kt_plan_to_json(&json, s->plan);
	if (!rc)
		fputs(json, stdout);
	kt_free(json);
	return rc;
}

static int write_result(session *s)
{
	const options *o = s->o;
	if (o->in_place || o->out)
		return kt_fs_write_atomic(o->in_place ? s->path : o->out,
		                          s->res.text, s->res.len);
	const char *t = o->diff ? s->res.diff : s->res.text;
	if (fputs(t, stdout) < 0 || fflush(stdout))
		return kt_error(KT_EIO, "cannot write the output");
	return 0;
}

/* Which checks ran: the static ones, and the run on a GPU or why not. */
static void checks_text(char *buf, size_t n, const kt_rewrite_result *r,
                        bool opencl)
{
	if (!r->verified && opencl && r->run_skipped) {
		snprintf(buf, n,
		         "NOT verified (not run on the OpenCL backend: %s)",
		         r->run_skipped);
		return;
	}
	if (!r->verified) {
		snprintf(buf, n, "NOT verified (--no-verify)");
		return;
	}
	if (opencl) {
		snprintf(buf, n,
		         "verified (%s: %zu configurations at %zu "
		         "problem instances)",
		         r->how, r->run_configs, r->run_problems);
		return;
	}
	int k = snprintf(buf, n, "verified (nvcc, NVRTC, PTX at the defaults");
	if (k < 0 || (size_t)k >= n)
		return;
	if (r->ran)
		snprintf(buf + k, n - (size_t)k,
		         "; run on %s: %zu configurations at %zu problem "
		         "instances against the default)",
		         r->run_device, r->run_configs, r->run_problems);
	else if (r->run_skipped)
		snprintf(buf + k, n - (size_t)k, "; not run on a GPU: %s)",
		         r->run_skipped);
	else
		snprintf(buf + k, n - (size_t)k,
		         "; not run on a GPU: --no-verify-run)");
}

static void summary(session *s)
{
	if (s->o->plan)
		return;
	char checks[1024];
	checks_text(checks, sizeof(checks), &s->res,
	            kt_path_is_opencl(s->path));
	fprintf(stderr,
	        "ktc annotate: %s: %zu parameter%s kept, %zu dropped, %zu "
	        "value%s dropped; %s\n",
	        s->path, s->res.params_kept, s->res.params_kept == 1 ? "" : "s",
	        s->res.params_dropped, s->res.values_dropped,
	        s->res.values_dropped == 1 ? "" : "s", checks);
}

static int run(const options *o, const char *path)
{
	session s = {.o = o, .path = path};
	kt_diags_init(&s.d);
	kt_parse_opts po = {.build_dir = o->build_dir, .arch = o->arch};
	int rc = prepare(&s);
	if (!rc)
		rc = kt_frontend_parse(&s.tu, path, &po, &s.d);
	if (!rc)
		rc = get_plan(&s);
	/* every kernel has errors: when nvcc refuses the file too, that is
	 * the cause (the database's flags, the toolkit); when it compiles
	 * it, ktc's parse is what fails */
	if (rc == KT_EPARSE && s.tu && !o->apply_plan &&
	    !kt_frontend_missing(s.tu)) {
		int v = kt_rewrite_base_verdict(s.ro.base, path);
		if (v == 1)
			rc = KT_EINVALID;
		else if (v == 0)
			kt_error(
			    rc,
			    "%s (nvcc compiles the file: it is ktc's parse, "
			    "libclang 19's view of it, that the errors above "
			    "come from)",
			    kt_error_last());
	}
	if (!rc && o->kernel)
		rc = kt_plan_only_kernel(s.plan, o->kernel);
	if (!rc && o->plan)
		rc = print_plan(&s);
	else if (!rc)
		rc = rewrite(&s);
	if (!rc && !o->plan)
		rc = write_result(&s);
	kt_diags_print(&s.d, stderr, isatty(2));
	if (rc)
		say(kt_error_last());
	else
		summary(&s);
	kt_rewrite_base_free(s.ro.base);
	kt_rewrite_flags_free(s.flags, s.nflags);
	kt_rewrite_result_release(&s.res);
	kt_rewrite_file_release(&s.rf);
	kt_plan_free(s.plan);
	kt_candidates_free(s.cands);
	kt_frontend_free(s.tu);
	kt_diags_release(&s.d);
	return rc ? 1 : 0;
}

int cmd_annotate(int argc, char **argv)
{
	options o = {0};
	const kt_opt opts[] = {
	    KT_OPT_STRING_('p', "build-dir", &o.build_dir, "DIR",
	                   "folder with compile_commands.json (default: "
	                   "searched upward from FILE)"),
	    KT_OPT_FLAG_(0, "plan", &o.plan,
	                 "print the edit plan (JSON) instead of rewriting"),
	    KT_OPT_STRING_(0, "apply-plan", &o.apply_plan, "PLAN.json",
	                   "apply this plan instead of the built-in "
	                   "planner's"),
	    KT_OPT_STRING_('o', "output", &o.out, "OUT",
	                   "write the annotated file to OUT"),
	    KT_OPT_FLAG_('i', "in-place", &o.in_place,
	                 "replace FILE (only after full verification)"),
	    KT_OPT_FLAG_(0, "diff", &o.diff,
	                 "print a unified diff instead of the file"),
	    KT_OPT_FLAG_(0, "no-verify", &o.no_verify,
	                 "skip the nvcc/NVRTC verification (not with -i)"),
	    KT_OPT_FLAG_(0, "verify-run", &o.verify_run,
	                 "run every value on the GPU against the default "
	                 "and fail if that cannot run (default: run where a "
	                 "CUDA device answers)"),
	    KT_OPT_FLAG_(0, "no-verify-run", &o.no_verify_run,
	                 "do not run the template on a GPU"),
	    KT_OPT_STRING_(0, "kernel", &o.kernel, "NAME",
	                   "only the kernel called NAME"),
	    KT_OPT_STRING_(0, "arch", &o.arch, "SM",
	                   "GPU architecture to verify for (sm_90a)"),
	    KT_OPT_INT_('j', "jobs", &o.jobs, "N",
	                "NVRTC compile threads (default: one per CPU)"),
	    KT_OPT_END_,
	};
	const kt_cmd_info info = {
	    .usage = "ktc annotate [options] FILE",
	    .summary =
	        "Finds the tuning literals of FILE's kernels (launch "
	        "geometry, strides tied to\nthe block size, #pragma "
	        "unroll, tiles, vector widths, group sizes), makes "
	        "them\n#pragma kt parameters and verifies the result: "
	        "it compiles with nvcc and\nNVRTC, its default "
	        "instantiation has the original's PTX, and every "
	        "domain\nvalue compiles; on a GPU, every value runs and is "
	        "compared with the default.\nWrites the annotated file to "
	        "stdout, OUT (-o), FILE (-i) or as a diff\n(--diff). "
	        "Exit status: 0 ok, 1 errors, 2 usage.",
	    .opts = opts,
	};
	static char name[] = "ktc annotate";
	argv[0] = name;
	int npos;
	int rc = kt_opt_parse(&info, argc, argv, &npos);
	if (rc)
		return rc > 0 ? 0 : 2;
	if (npos != 1) {
		fprintf(stderr, "usage: %s (see 'ktc annotate --help')\n",
		        info.usage);
		return 2;
	}
	if ((o.in_place + !!o.out + o.diff + o.plan) > 1) {
		say("choose one of -i, -o, --diff and --plan");
		return 2;
	}
	if (o.in_place && o.no_verify) {
		say("-i replaces FILE only after verification: drop "
		    "--no-verify or use -o");
		return 2;
	}
	if (o.verify_run && (o.no_verify_run || o.no_verify)) {
		say("--verify-run conflicts with --no-verify-run and "
		    "--no-verify");
		return 2;
	}
	if (o.jobs < 0 || o.jobs > 64) {
		say("--jobs expects 0 to 64");
		return 2;
	}
	return run(&o, argv[0]);
}
