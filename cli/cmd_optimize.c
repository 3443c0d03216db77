/*
 * cmd_optimize.c - `ktc optimize FILE.cu -o OUT.kt.cu`: the semantic
 * refactoring loop of ktc/optimize.h from the command line: progress on
 * the terminal, a summary (or --json), the template written only when the
 * loop produced one.
 */
#include "cli/args.h"
#include "cli/cmd.h"

#include "ktc/optimize.h"
#include "util/fs.h"
#include "util/opt.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAX_LIST = 64 };

typedef struct options {
	const char *build_dir, *kernel, *arch, *out, *work, *strategy, *backend;
	const char *planner, *replay, *llm_config;
	const char *problem[MAX_LIST], *arg[MAX_LIST], *init[MAX_LIST];
	int nproblem, narg, ninit;
	long budget, rounds, seed, jobs;
	bool json, quiet, notes, past_light, profile;
} options;

static volatile sig_atomic_t stop_requested;

static bool same_diag(const kt_diag *a, const kt_diag *b)
{
	return a->severity == b->severity && a->line == b->line &&
	       a->col == b->col && !strcmp(a->message, b->message) &&
	       !strcmp(a->file ? a->file : "", b->file ? b->file : "");
}

/*
 * The diagnostics of the run, each once (every round verifies the file
 * again and says the same); notes (why a literal stayed one) only with
 * --notes, else counted in one line.
 */
static void print_diags(const kt_diags *d, const options *o)
{
	kt_diags out;
	kt_diags_init(&out);
	size_t notes = 0;
	for (size_t i = 0; i < d->len; i++) {
		const kt_diag *x = &d->items[i];
		bool seen = false;
		for (size_t k = 0; k < i && !seen; k++)
			seen = same_diag(&d->items[k], x);
		if (seen)
			continue;
		if (x->severity == KT_DIAG_NOTE && !o->notes) {
			notes++;
			continue;
		}
		if (out.len == out.cap) {
			size_t cap = out.cap ? 2 * out.cap : 16;
			kt_diag *n = realloc(out.items, cap * sizeof(*n));
			if (!n)
				break;
			out.items = n;
			out.cap = cap;
		}
		out.items[out.len++] = *x; /* borrowed: not released */
	}
	kt_diags_print(&out, stderr, isatty(2));
	free(out.items);
	if (notes)
		fprintf(
		    stderr,
		    "ktc optimize: %zu notes (why literals stayed literals, "
		    "what annotate left alone): --notes prints them\n",
		    notes);
}

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void on_progress(const kt_optimize_progress *p, void *ud)
{
	const options *o = ud;
	if (o->quiet)
		return;
	if (!strcmp(p->what, "tune"))
		fprintf(stderr, "ktc optimize: round %d, shape %zu/%zu: %s\n",
		        p->round, p->shape + 1, p->nshapes, p->message);
	else
		fprintf(stderr, "ktc optimize: round %d: %s\n", p->round,
		        p->message);
}

static void print_summary(const kt_optimize_report *r, const options *o)
{
	const kt_optimize_round *k = &r->rounds[r->kept];
	printf("kernel %s on %s (copy bandwidth %.0f GB/s, launch floor %.4g "
	       "ms)\n\n",
	       r->kernel, r->device.name, r->device.copy_gbs, r->floor_ms);
	printf("%-28s %12s %12s %9s %12s %8s\n", "shape", "original ms",
	       "tuned ms", "speed-up", "light ms", "of light");
	for (size_t s = 0; s < r->nshapes; s++) {
		double t = k->best_ms[s], orig = kt_optimize_original_at(r, s);
		printf("%-28s %12.4g %12.4g %8.2fx %12.4g %7.0f%%\n",
		       r->shapes[s], orig, t, t > 0 ? orig / t : 0,
		       r->sol_ms[s], t > 0 ? 100 * r->sol_ms[s] / t : 0);
	}
	printf("\nchecks: every configuration against the original at each "
	       "shape and an odd one, two input seeds%s\n",
	       r->specials ? ", and inputs with NaN, Inf, subnormals and -0"
	                   : "");
	if (r->specials_note)
		printf("special input values: %s\n", r->specials_note);
	bool counted = false;
	for (size_t s = 0; s < r->nshapes; s++)
		counted |= r->occupancy_pct[s] >= 0 || r->sm_pct[s] >= 0;
	if (counted) {
		printf("\nround 0's best, counters (--profile):\n%-28s %14s "
		       "%10s %10s\n",
		       "shape", "DRAM bytes", "occupancy", "SM busy");
		for (size_t s = 0; s < r->nshapes; s++)
			printf("%-28s %14.0f %9.0f%% %9.0f%%\n", r->shapes[s],
			       r->dram_bytes[s], r->occupancy_pct[s],
			       r->sm_pct[s]);
	}
	printf("\nrounds:\n");
	for (size_t i = 0; i < r->nrounds; i++) {
		const kt_optimize_round *rd = &r->rounds[i];
		printf("  %d %s%s%s: %s\n", rd->index,
		       rd->refactor ? rd->refactor : "annotate",
		       rd->param ? " " : "", rd->param ? rd->param : "",
		       rd->verdict ? rd->verdict : "not finished");
	}
	printf("\nstopped: %s\nkept: round %d; the template is %s, its "
	       "results per shape are %s/round-%d-shape-N.t4, the summary "
	       "%s/summary.json, the diff against the original "
	       "%s/original.diff\n",
	       r->stop, r->kept, o->out, o->work, r->kept, o->work, o->work);
}

static int write_outputs(const kt_optimize_report *r, const options *o)
{
	char diff[4096];
	snprintf(diff, sizeof(diff), "%s/original.diff", o->work);
	if (kt_fs_write_atomic(o->out, r->text, r->len) ||
	    kt_fs_write_atomic(diff, r->diff, strlen(r->diff))) {
		fprintf(stderr, "ktc optimize: %s\n", kt_error_last());
		return 1;
	}
	if (!o->json) {
		print_summary(r, o);
		return fflush(stdout) ? 1 : 0;
	}
	char *json = NULL;
	int rc = kt_optimize_report_json(&json, r);
	if (!rc && (fputs(json, stdout) < 0 || fflush(stdout)))
		rc = kt_error(KT_EIO, "cannot write the output");
	kt_free(json);
	if (rc)
		fprintf(stderr, "ktc optimize: %s\n", kt_error_last());
	return rc ? 1 : 0;
}

static int run(options *o, const char *path)
{
	char work[4096];
	if (!o->work) {
		snprintf(work, sizeof(work), "%s.optimize", o->out);
		o->work = work;
	}
	if (kt_fs_check_output(o->out)) {
		fprintf(stderr, "ktc optimize: %s\n", kt_error_last());
		return 1;
	}
	kt_optimize_options oo = {
	    .build_dir = o->build_dir,
	    .kernel = o->kernel,
	    .arch = o->arch,
	    .problems = o->problem,
	    .nproblems = (size_t)o->nproblem,
	    .args = o->arg,
	    .nargs = (size_t)o->narg,
	    .inits = o->init,
	    .ninits = (size_t)o->ninit,
	    .workdir = o->work,
	    .strategy = o->strategy,
	    .budget = (uint64_t)o->budget,
	    .rounds = (int)o->rounds,
	    .past_light = o->past_light,
	    .profile = o->profile,
	    .seed = (uint64_t)o->seed,
	    /* an OpenCL C file runs where it can be verified */
	    .backend = o->backend                ? o->backend
	               : kt_path_is_opencl(path) ? "opencl"
	                                         : NULL,
	    .worker_exe = "/proc/self/exe", /* ktc is its own worker */
	    .threads = (int)o->jobs,
	    .progress = on_progress,
	    .progress_ud = o,
	    .stop = &stop_requested,
	};
	kt_llm_config llm = {0};
	bool use_llm = o->planner && !strcmp(o->planner, "llm");
#ifdef KTC_HAVE_LLM
	if (use_llm && kt_llm_config_load(&llm, o->llm_config, !o->replay)) {
		fprintf(stderr, "ktc optimize: %s\n", kt_error_last());
		return 1;
	}
	/* the key stays in this process: nvcc and the workers ktc starts
	 * do not inherit it */
	unsetenv("KTC_LLM_API_KEY");
	unsetenv("OPENAI_API_KEY");
#else
	if (use_llm) {
		fprintf(stderr, "ktc optimize: this ktc was built without "
		                "libcurl and PCRE2: --planner llm is not "
		                "available\n");
		return 1;
	}
#endif
	llm.replay = o->replay;
	oo.planner = o->planner;
	oo.llm = use_llm ? &llm : NULL;
	kt_diags d;
	kt_diags_init(&d);
	kt_optimize_report *r = NULL;
	cli_catch_signals(on_signal);
	int rc = kt_optimize(&r, path, &oo, &d);
	cli_catch_signals(NULL);
	print_diags(&d, o);
	kt_diags_release(&d);
	int status = 0;
	if (rc) {
		fprintf(stderr, "ktc optimize: %s\n", kt_error_last());
		if (rc == KT_EINTERRUPTED)
			fprintf(stderr,
			        "ktc optimize: the same command "
			        "resumes from the caches in %s\n",
			        o->work);
		status = 1;
	}
	if (r && !rc)
		status = write_outputs(r, o);
	kt_optimize_report_free(r);
#ifdef KTC_HAVE_LLM
	kt_llm_config_release(&llm);
#endif
	return status;
}

static const char SUMMARY[] =
    "Refactors FILE's kernel round after round: round 0 is `ktc annotate`'s "
    "template\n(the literals as parameters), tuned at every shape; each "
    "later round adds one\nrefactor the planner proposes, verified as "
    "annotate verifies and tuned at every\nshape (every configuration "
    "checked against the original, on inputs with NaN,\nInf and "
    "subnormals too; each shape's best also at the sizes around it), "
    "and\nkeeps it when the geometric mean over the shapes gains more "
    "than 2%.\nThe planner is "
    "the built-in catalogue (vector width, items per thread,\nrow split, "
    "...; no network), or with --planner llm an OpenAI-compatible\nserver "
    "(KTC_LLM_BASE_URL, KTC_LLM_MODEL, KTC_LLM_API_KEY), whose answers are\n"
    "untrusted: a catalogue refactor or a new kernel body under a new "
    "parameter,\nchecked as any plan, verified and tested at every shape; "
    "its transcript goes\nto the work folder and --replay reruns it "
    "offline. Stops at the speed of light\n(bytes over the measured copy "
    "bandwidth, or the launch floor), when the rounds\nor the proposals "
    "run out. What the code does not say is asked for: problem\nsizes "
    "(--problem), a scalar the host passes or a buffer's length (--arg);\n"
    "an input whose values index another buffer is drawn as --init says.\n"
    "An OpenCL C file (.cl) is launched by its '#pragma kt launch' lines, "
    "runs on\nthe OpenCL backend and is verified there against the "
    "original at every value.\n"
    "Writes the template to OUT; the rounds' templates, caches and T4 "
    "files,\nsummary.json and original.diff to the work folder. Killed, "
    "the same command\nresumes. Exit status: 0 ok, 1 errors, 2 usage.";

int cmd_optimize(int argc, char **argv)
{
	options o = {.seed = 1};
	const kt_opt opts[] = {
	    KT_OPT_STRING_('p', "build-dir", &o.build_dir, "DIR",
	                   "folder with compile_commands.json (default: "
	                   "searched upward from FILE)"),
	    KT_OPT_STRING_(0, "kernel", &o.kernel, "NAME",
	                   "the kernel to optimize (default: the only one "
	                   "with a launch)"),
	    KT_OPT_LIST_(0, "problem", o.problem, &o.nproblem, MAX_LIST,
	                 "NAME=V1,V2",
	                 "a problem size's values; the shapes "
	                 "are every combination"),
	    KT_OPT_LIST_(0, "arg", o.arg, &o.narg, MAX_LIST, "NAME=VALUE",
	                 "a scalar argument's value or a buffer's length "
	                 "where the code does not say it (or replacing what "
	                 "the planner derived)"),
	    KT_OPT_LIST_(0, "init", o.init, &o.ninit, MAX_LIST, "NAME=INIT",
	                 "how an input buffer's elements are drawn, as the "
	                 "arg line's init(...) says it: random(LO, HI), "
	                 "zeros, iota or value(V) (an index into another "
	                 "buffer: --init positions='random(0, 4095)')"),
	    KT_OPT_STRING_('o', "output", &o.out, "OUT",
	                   "write the template to OUT (required)"),
	    KT_OPT_STRING_(0, "work", &o.work, "DIR",
	                   "work folder (default: OUT.optimize)"),
	    KT_OPT_INT_(0, "budget", &o.budget, "N",
	                "configurations per shape and round (default 100)"),
	    KT_OPT_INT_(0, "rounds", &o.rounds, "R",
	                "refactors to try at most (default 8)"),
	    KT_OPT_FLAG_(0, "past-light", &o.past_light,
	                 "try the refactors even where every shape is within "
	                 "10% of its speed-of-light estimate"),
	    KT_OPT_FLAG_(0, "profile", &o.profile,
	                 "hardware counters of round 0's best at every shape "
	                 "(CUPTI: DRAM bytes, achieved occupancy, SM "
	                 "throughput) in the summary, and in the ranking: "
	                 "low occupancy puts launch bounds and more work "
	                 "per thread first, busy SMs with idle DRAM fewer "
	                 "instructions per byte"),
	    KT_OPT_STRING_(0, "strategy", &o.strategy, "NAME",
	                   "search strategy of each tuning run (default "
	                   "random)"),
	    KT_OPT_INT_(0, "seed", &o.seed, "N",
	                "seed of the strategy and the inputs (default 1)"),
	    KT_OPT_STRING_(0, "backend", &o.backend, "NAME",
	                   "backend (default cuda; opencl for a .cl file)"),
	    KT_OPT_STRING_(0, "arch", &o.arch, "SM",
	                   "GPU architecture to verify for (sm_90a)"),
	    KT_OPT_INT_('j', "jobs", &o.jobs, "N",
	                "NVRTC compile threads (default: one per CPU)"),
	    KT_OPT_STRING_(0, "planner", &o.planner, "NAME",
	                   "who proposes each round's change: builtin (the "
	                   "default: the catalogue, no network) or llm (an "
	                   "OpenAI-compatible server: KTC_LLM_BASE_URL, "
	                   "KTC_LLM_MODEL, KTC_LLM_API_KEY; docs/llm.md)"),
	    KT_OPT_STRING_(0, "replay", &o.replay, "TRANSCRIPT",
	                   "--planner llm: the answers of a recorded "
	                   "transcript (WORK/llm-transcript.jsonl), in "
	                   "order, with no network"),
	    KT_OPT_STRING_(0, "llm-config", &o.llm_config, "FILE",
	                   "--planner llm: a config file of key = value "
	                   "lines (default $KTC_LLM_CONFIG); the "
	                   "environment wins"),
	    KT_OPT_FLAG_(0, "json", &o.json,
	                 "print the report as JSON instead of the summary"),
	    KT_OPT_FLAG_('q', "quiet", &o.quiet, "no progress lines"),
	    KT_OPT_FLAG_(0, "notes", &o.notes,
	                 "print annotate's notes too (why each literal stayed "
	                 "a literal), not only warnings and errors"),
	    KT_OPT_END_,
	};
	const kt_cmd_info info = {
	    .usage = "ktc optimize [options] FILE.cu -o OUT.kt.cu",
	    .summary = SUMMARY,
	    .opts = opts,
	};
	static char name[] = "ktc optimize";
	argv[0] = name;
	int npos;
	int rc = kt_opt_parse(&info, argc, argv, &npos);
	if (rc)
		return rc > 0 ? 0 : 2;
	const char *bad = npos != 1 ? "expected one FILE"
	                  : !o.out  ? "-o OUT is required"
	                  : o.budget < 0 || o.budget > 1000000
	                      ? "--budget expects 0 to 1000000"
	                  : o.rounds < 0 || o.rounds > 64
	                      ? "--rounds expects 0 to 64"
	                  : o.jobs < 0 || o.jobs > 64 ? "--jobs expects 0 to 64"
	                  : o.seed < 0 ? "--seed expects a non-negative "
	                                 "integer"
	                  : o.planner && strcmp(o.planner, "builtin") &&
	                          strcmp(o.planner, "llm")
	                      ? "--planner expects builtin or llm"
	                  : (o.replay || o.llm_config) &&
	                          !(o.planner && !strcmp(o.planner, "llm"))
	                      ? "--replay and --llm-config need --planner llm"
	                      : NULL;
	if (bad) {
		fprintf(stderr,
		        "ktc optimize: %s (see 'ktc optimize --help')\n", bad);
		return 2;
	}
	if (kt_fs_same_file(o.out, argv[0]) || !strcmp(o.out, argv[0])) {
		fprintf(stderr,
		        "ktc optimize: the output '%s' is the input; "
		        "refusing to replace it\n",
		        o.out);
		return 2;
	}
	return run(&o, argv[0]);
}
