/*
 * cmd_tune.c - `ktc tune FILE`: search a template's space on a backend,
 * keep every evaluation in the cache, and report the best configuration.
 *
 * The design choice a reader needs: the command is safe to kill and to run
 * again. Every finished evaluation is in the cache before the next one
 * starts; running the same command again replays the search from the
 * start, answers what is done from the cache, and ends with the same
 * results as a run that was never stopped (docs/tuning.md). SIGINT and
 * SIGTERM finish the batch in flight, then write what is done.
 */
#include "cli/args.h"
#include "cli/cmd.h"

#include "ktc/pool.h"
#include "ktc/results.h"
#include "ktc/tune.h"
#include "ktc/wisdom.h"
#include "util/fs.h"
#include "util/opt.h"
#include "util/str.h"

#include <cjson/cJSON.h>

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

enum {
	MAX_LIST = 64,
	DEFAULT_BUDGET = 100,
	DEFAULT_BATCH = 8,
	DEFAULT_WARM = 4,
	MAX_SHAPES = 4096
};

typedef struct options {
	const char *kernel, *backend, *from, *strategy, *cache, *out, *device;
	const char *devices, *job, *wisdom, *objective;
	const char *problem[MAX_LIST], *settings[MAX_LIST + 1];
	int nproblem, nsettings;
	long budget, seed, batch, runs, space_limit, workers, warm, refine;
	double time_limit, timeout, sim_delay, rank_timeout;
	bool json, quiet, compile_only, profile, no_cache, force_new, specials;
	unsigned job_index; /* which job of --job FILE (0 without one) */
} options;

/* What the progress display remembers between calls. */
typedef struct display {
	bool tty, quiet;
	double last_line; /* elapsed time of the last plain line */
	const char *last_best;
	size_t width;
} display;

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* ---- parsing ------------------------------------------------------------ */

/*
 * The backend to use when none is named: sim with --from, opencl for an
 * OpenCL C file, else a GPU one.
 */
static const char *pick_backend(const options *o, const char *path)
{
	if (o->backend)
		return o->backend;
	if (o->from)
		return "sim";
	return cli_default_backend(path);
}

/* ---- the default cache path ------------------------------------------- */

/*
 * .ktc/cache/<template>-<kernel>-<hash>.jsonl under the current folder; the
 * hash covers the device and the problem, so another device or problem
 * gets its own file instead of a refused one.
 */
static char *default_cache(const char *file, const kt_model *m,
                           const kt_value *problem, const kt_device_info *dev,
                           const char *objective)
{
	uint64_t h = kt_hash(KT_HASH_INIT, dev->name, strlen(dev->name));
	/* the graph objective's times are another file's; the cold one's
	 * paths stay what they were before objectives existed */
	if (objective && strcmp(objective, "cold"))
		h = kt_hash(h, objective, strlen(objective));
	for (size_t i = 0; i < m->nproblems; i++) {
		double d = kt_value_as_double(problem[i]);
		h = kt_hash(h, m->problems[i].name,
		            strlen(m->problems[i].name));
		h = kt_hash(h, &d, sizeof(d));
	}
	const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	kt_str s = KT_STR_INIT;
	if (kt_fs_mkdirs(".ktc/cache") ||
	    kt_str_addf(&s, ".ktc/cache/%s-%s-%016llx.jsonl", base, m->kernel,
	                (unsigned long long)h)) {
		kt_str_release(&s);
		return NULL;
	}
	return kt_str_detach(&s);
}

/* ---- progress ------------------------------------------------------------ */

static void format_duration(char *buf, size_t cap, double s)
{
	if (s < 0)
		snprintf(buf, cap, "?");
	else if (s < 60)
		snprintf(buf, cap, "%.1fs", s);
	else if (s < 3600)
		snprintf(buf, cap, "%dm%02ds", (int)s / 60, (int)s % 60);
	else
		snprintf(buf, cap, "%dh%02dm", (int)s / 3600,
		         (int)s % 3600 / 60);
}

/* "[12/100] 1 failed, 3.2s elapsed, ETA 20s, best 0.1 ms (KEY)": the key
 * last, so a narrow terminal cuts only the key. */
static void progress_text(char *buf, size_t cap, const kt_tune_progress *p)
{
	char el[32], eta[32];
	format_duration(el, sizeof(el), p->elapsed_s);
	format_duration(eta, sizeof(eta), p->eta_s);
	int n = snprintf(
	    buf, cap, "[%llu/%llu] %llu failed, %s elapsed, ETA %s",
	    (unsigned long long)p->visited, (unsigned long long)p->total,
	    (unsigned long long)p->failed, el, eta);
	if (n > 0 && (size_t)n < cap && p->best)
		snprintf(buf + n, cap - (size_t)n, ", best %.4g ms (%s)",
		         p->best->result.time_ms, p->best->key);
}

static void on_progress(const kt_tune_progress *p, void *ud)
{
	display *d = ud;
	if (d->quiet)
		return;
	char line[512];
	progress_text(line, sizeof(line), p);
	if (d->tty) { /* one line, rewritten in place, cut to the terminal */
		fprintf(stderr, "\r\033[K%.*s", (int)d->width, line);
		fflush(stderr);
		return;
	}
	const char *best = p->best ? p->best->key : NULL;
	bool new_best = best && best != d->last_best;
	if (new_best || p->visited >= p->total || p->visited == 1 ||
	    p->elapsed_s - d->last_line >= 1.0) {
		fprintf(stderr, "%s\n", line);
		d->last_line = p->elapsed_s;
	}
	d->last_best = best;
}

/* ---- the summary ----------------------------------------------------------
 */

static void print_counts(FILE *out, const kt_tune_report *r)
{
	bool first = true;
	for (int s = KT_STATUS_OK; s <= KT_STATUS_TIMEOUT; s++) {
		if (!r->counts[s] && s != KT_STATUS_OK)
			continue;
		fprintf(out, "%s%llu %s", first ? "" : ", ",
		        (unsigned long long)r->counts[s],
		        kt_status_name((kt_status)s));
		first = false;
	}
	fputc('\n', out);
}

static void print_times(FILE *out, const kt_tune_report *r)
{
	const kt_tune_entry *def = &r->entries[0];
	if (def->result.status == KT_STATUS_OK)
		fprintf(out, "default    %s  %.6g ms\n", def->key,
		        def->result.time_ms);
	if (r->best && def->result.status == KT_STATUS_OK)
		fprintf(out,
		        "best       %s  %.6g ms  (%.3fx the default's speed)\n",
		        r->best->key, r->best->result.time_ms,
		        def->result.time_ms / r->best->result.time_ms);
	else if (!r->best)
		fprintf(out, "best       none: no configuration was correct\n");
}

static void print_summary(FILE *out, const kt_tune_report *r, const kt_model *m,
                          const options *o, const char *cache)
{
	fprintf(out, "kernel     %s (%s)\n", m->kernel, m->file);
	fprintf(out, "device     %s (%s)\n", r->device.name, r->device.backend);
	if (o->objective && !strcmp(o->objective, "graph"))
		fprintf(out,
		        "objective  graph: the steady state of back-to-back "
		        "launches in a CUDA graph\n");
	fprintf(out, "strategy   %s, seed %ld (stopped: %s)\n",
	        r->strategy ? r->strategy : "?", o->seed,
	        kt_tune_stop_name(r->stop));
	fprintf(out,
	        "visited    %zu of %llu valid configurations (%llu evaluated, "
	        "%llu from the cache) in %.1f s\n",
	        r->nentries, (unsigned long long)r->space_size,
	        (unsigned long long)r->evaluated, (unsigned long long)r->cached,
	        r->elapsed_s);
	fprintf(out, "status     ");
	print_counts(out, r);
	if (o->compile_only)
		fprintf(out, "times      none: --compile-only runs nothing\n");
	else
		print_times(out, r);
	if (cache)
		fprintf(out, "cache      %s\n", cache);
	if (o->out)
		fprintf(out, "results    %s (T4)\n", o->out);
}

static cJSON *entry_json(const kt_tune_entry *e)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "key", e->key);
	cJSON_AddStringToObject(j, "status", kt_status_name(e->result.status));
	if (isfinite(e->result.time_ms))
		cJSON_AddNumberToObject(j, "time_ms", e->result.time_ms);
	return j;
}

static cJSON *summary_json(const kt_tune_report *r, const kt_model *m,
                           const options *o, const char *cache, int status)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "kernel", m->kernel);
	cJSON_AddStringToObject(j, "template", m->file);
	cJSON_AddStringToObject(j, "device", r->device.name);
	cJSON_AddStringToObject(j, "backend", r->device.backend);
	cJSON_AddStringToObject(j, "strategy", r->strategy ? r->strategy : "");
	cJSON_AddStringToObject(j, "objective",
	                        o->objective ? o->objective : "cold");
	cJSON_AddNumberToObject(j, "seed", (double)o->seed);
	cJSON_AddStringToObject(j, "stop", kt_tune_stop_name(r->stop));
	cJSON_AddBoolToObject(j, "ok", status == 0);
	cJSON_AddNumberToObject(j, "space_size", (double)r->space_size);
	cJSON_AddNumberToObject(j, "visited", (double)r->nentries);
	cJSON_AddNumberToObject(j, "evaluated", (double)r->evaluated);
	cJSON_AddNumberToObject(j, "from_cache", (double)r->cached);
	cJSON_AddNumberToObject(j, "elapsed_s", r->elapsed_s);
	cJSON *c = cJSON_AddObjectToObject(j, "counts");
	for (int s = KT_STATUS_OK; s <= KT_STATUS_TIMEOUT; s++)
		cJSON_AddNumberToObject(c, kt_status_name((kt_status)s),
		                        (double)r->counts[s]);
	if (r->nentries)
		cJSON_AddItemToObject(j, "default", entry_json(&r->entries[0]));
	if (r->best)
		cJSON_AddItemToObject(j, "best", entry_json(r->best));
	if (r->best && r->nentries &&
	    r->entries[0].result.status == KT_STATUS_OK)
		cJSON_AddNumberToObject(j, "speedup",
		                        r->entries[0].result.time_ms /
		                            r->best->result.time_ms);
	cJSON_AddItemToObject(
	    j, "cache", cache ? cJSON_CreateString(cache) : cJSON_CreateNull());
	cJSON_AddItemToObject(j, "results",
	                      o->out ? cJSON_CreateString(o->out)
	                             : cJSON_CreateNull());
	return j;
}

static void print_json(cJSON *j)
{
	char *text = j ? cJSON_Print(j) : NULL;
	if (text)
		printf("%s\n", text);
	cJSON_free(text);
}

/* ---- the command ----------------------------------------------------------
 */

/* Everything one run holds, released in one place. */
typedef struct session {
	kt_diags diags;
	kt_template *t;
	const kt_model *m;
	kt_backend *b;
	kt_value *problem; /* the shape being tuned: a row of grid */
	kt_value *grid;    /* nshapes rows of m->nproblems values */
	size_t nshapes;
	char *cache;
	kt_tune_report *report;
	kt_tune_report **done; /* per shape, for the warm starts */
	kt_wisdom *wisdom;
	cJSON *json; /* the summaries of a grid (--json) */
} session;

static int open_template(session *s, const char *path, const options *o)
{
	int rc = kt_template_load(&s->t, path, &s->diags);
	if (rc) {
		if (s->diags.errors == 0)
			fprintf(stderr, "ktc tune: %s\n", kt_error_last());
		return 1;
	}
	int status = 0;
	s->m = cli_pick_model(s->t, o->kernel, "ktc tune", &status);
	if (!s->m)
		return status;
	if (cli_problem_grid(&s->grid, &s->nshapes, s->m, o->problem,
	                     o->nproblem, MAX_SHAPES, "ktc tune"))
		return 2;
	s->problem = s->grid;
	s->done = kt_calloc(s->nshapes + 1, sizeof(*s->done));
	return s->done ? 0 : 1;
}

static int open_backend(session *s, const options *o)
{
	const char *name = pick_backend(o, s->t->path);
	if (!name) {
		fprintf(stderr,
		        "ktc tune: no GPU backend is built into this ktc "
		        "(built in: %s); use --backend sim --from RESULTS\n",
		        kt_backend_names());
		return 1;
	}
	if (o->objective && !strcmp(o->objective, "graph") &&
	    strcmp(name, "cuda") && strcmp(name, "sim")) {
		fprintf(stderr,
		        "ktc tune: --objective graph needs the cuda backend "
		        "(or sim, replaying results measured so), not '%s'\n",
		        name);
		return 2;
	}
	kt_backend_options bo = {
	    .from = o->from,
	    .device = o->device,
	    .timed_runs = (int)o->runs,
	    .timeout_s = o->timeout,
	    .profile = o->profile,
	    .compile_only = o->compile_only,
	    .seed = (uint64_t)o->seed,
	    .specials = o->specials,
	    .sim_delay_ms = o->sim_delay,
	    .worker_exe = "/proc/self/exe", /* ktc is its own worker */
	    .objective = o->objective,
	};
	kt_pool_options po = {
	    .backend = name,
	    .devices = o->devices,
	    .workers_per_device = (int)o->workers,
	    .base = bo,
	    .mpi = true,
	    .job = o->job_index,
	    .rank_timeout_s = o->rank_timeout,
	};
	bool pooled = o->devices || o->workers > 1 || kt_mpi_size() > 1;
	if (pooled ? kt_pool_open(&s->b, s->m, &po)
	           : kt_backend_open(&s->b, name, s->m, &bo)) {
		fprintf(stderr, "ktc tune: %s\n", kt_error_last());
		return 1;
	}
	return 0;
}

/* The cache path: --cache, none (--no-cache, --compile-only), or default. */
static int choose_cache(session *s, const options *o)
{
	if (o->no_cache || o->compile_only)
		return 0;
	if (o->cache) {
		s->cache = kt_strdup(o->cache);
		return s->cache ? 0 : 1;
	}
	kt_device_info dev;
	if (s->b->ops->device_info(s->b, &dev)) {
		fprintf(stderr, "ktc tune: %s\n", kt_error_last());
		return 1;
	}
	s->cache =
	    default_cache(s->m->file, s->m, s->problem, &dev, o->objective);
	if (!s->cache) {
		fprintf(stderr, "ktc tune: %s\n", kt_error_last());
		return 1;
	}
	return 0;
}

/* Columns of the terminal on stderr (80 when it does not say). */
static size_t term_width(void)
{
	struct winsize w;
	if (ioctl(2, TIOCGWINSZ, &w) == 0 && w.ws_col > 10)
		return (size_t)w.ws_col - 1;
	return 79;
}

static int tune(session *s, const options *o, long budget, const kt_value *warm,
                size_t nwarm)
{
	display d = {.tty = isatty(2), .quiet = o->quiet};
	if (d.tty)
		d.width = term_width();
	kt_tune_options to = {
	    .strategy = o->strategy,
	    .strategy_settings = o->nsettings ? o->settings : NULL,
	    .max_evals = (uint64_t)budget,
	    .max_seconds = o->time_limit,
	    .seed = (uint64_t)o->seed,
	    .batch = (size_t)o->batch,
	    .problem = s->problem,
	    .cache_path = s->cache,
	    .force_new = o->force_new,
	    .specials = o->specials,
	    .t4_path = o->out,
	    .progress = on_progress,
	    .progress_ud = &d,
	    .diags = &s->diags,
	    .space_limit = cli_space_limit(o->space_limit),
	    .stop = &stop_requested,
	    .warm = warm,
	    .nwarm = nwarm,
	    .objective = o->objective,
	};
	cli_catch_signals(on_signal);
	int rc = kt_tune_run(&s->report, s->m, s->b, &to);
	if (d.tty && !d.quiet)
		fputc('\n', stderr);
	kt_diags_print(&s->diags, stderr,
	               isatty(2)); /* before the error line */
	kt_diags_release(&s->diags);
	kt_diags_init(&s->diags);
	if (rc)
		fprintf(stderr, "ktc tune: %s\n", kt_error_last());
	if (!s->report)
		cli_space_limit_hint("ktc tune", rc, stop_requested,
		                     o->space_limit);
	if (!rc && s->report->stop == KT_TUNE_INTERRUPTED)
		fprintf(stderr,
		        "ktc tune: interrupted after %zu configurations; "
		        "the same command resumes from the cache\n",
		        s->report->nentries);
	return rc || s->report->stop == KT_TUNE_INTERRUPTED ? 1 : 0;
}

/*
 * The ranges of the numeric options: what the backends store (an int of
 * timed runs, milliseconds of a timeout in an int) and what is sane; a
 * value outside is refused, never wrapped (--runs 4294967297 is not 1).
 */
enum { MAX_RUNS = 1000000, MAX_BATCH = 4096 };
#define MAX_SECONDS 1e6

static int check_options(const options *o)
{
	const char *bad =
	    o->budget < 0 ? "--budget must be >= 0"
	    : o->batch < 1 || o->batch > MAX_BATCH
	        ? "--batch must be from 1 to 4096"
	    : o->seed < 0        ? "--seed must be >= 0"
	    : o->space_limit < 0 ? "--space-limit must be >= 0"
	    : o->runs < 0 || o->runs > MAX_RUNS
	        ? "--runs must be from 0 to 1000000"
	    : o->time_limit < 0 ? "--time-limit must be >= 0"
	    : o->timeout < 0 || o->timeout > MAX_SECONDS
	        ? "--timeout must be from 0 to 1000000 seconds"
	    : o->sim_delay < 0 || o->sim_delay > MAX_SECONDS
	        ? "--sim-delay must be from 0 to 1000000 ms"
	    : o->workers < 0 || o->workers > 256
	        ? "--workers must be from 1 to 256"
	    : !(o->rank_timeout >= 0 && o->rank_timeout <= MAX_SECONDS)
	        ? "--rank-timeout must be from 0 to 1000000 seconds"
	    : o->warm < 0 || o->warm > 64 ? "--warm must be from 0 to 64"
	    : o->refine < 0 || o->refine > MAX_SHAPES
	        ? "--refine must be from 0 to 4096"
	    : o->refine > 0 && !o->wisdom
	        ? "--refine needs --wisdom FILE: the middles are chosen by it"
	    : o->objective && strcmp(o->objective, "cold") &&
	            strcmp(o->objective, "graph")
	        ? "--objective must be cold or graph"
	    : o->no_cache && o->cache ? "--cache and --no-cache conflict"
	                              : NULL;
	if (bad)
		fprintf(stderr, "ktc tune: %s\n", bad);
	return bad ? 2 : 0;
}

/* Whether -o a may be written without destroying b (what = "--from"). */
static int distinct(const char *a, const char *b, const char *what)
{
	if (!b || !(kt_fs_same_file(a, b) || !strcmp(a, b)))
		return 0;
	fprintf(stderr,
	        "ktc tune: -o '%s' is the %s '%s'; refusing to replace "
	        "it\n",
	        a, what, b);
	return 1;
}

/*
 * -o is checked before the run, not after it: a folder that is not there,
 * or an output that is the cache, the recording or the template, would
 * otherwise lose a whole run or destroy its input at the end.
 */
static int check_output(const session *s, const options *o, const char *path)
{
	if (!o->out)
		return 0;
	if (distinct(o->out, path, "template") ||
	    distinct(o->out, o->from, "recording (--from)") ||
	    distinct(o->out, s->cache, "cache"))
		return 1;
	if (kt_fs_check_output(o->out)) {
		fprintf(stderr, "ktc tune: %s\n", kt_error_last());
		return 1;
	}
	return 0;
}

/* ---- a grid of shapes -------------------------------------------------- */

/* "T=64,D=14336" for the shape being tuned. */
static void shape_label(char *buf, size_t cap, const session *s)
{
	size_t n = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < s->m->nproblems && n < cap; i++) {
		char v[64];
		kt_value_format(v, sizeof(v), s->problem[i]);
		n += (size_t)snprintf(buf + n, cap - n, "%s%s=%s", i ? "," : "",
		                      s->m->problems[i].name, v);
	}
}

/* Entries of r that are correct, by time: the first k into out. */
static size_t best_entries(const kt_tune_entry **out, size_t k,
                           const kt_tune_report *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nentries; i++) {
		const kt_tune_entry *e = &r->entries[i];
		if (e->result.status != KT_STATUS_OK)
			continue;
		size_t at = n < k ? n++ : k;
		while (at > 0 &&
		       out[at - 1]->result.time_ms > e->result.time_ms) {
			if (at < k)
				out[at] = out[at - 1];
			at--;
		}
		if (at < k)
			out[at] = e;
	}
	return n;
}

/*
 * The warm start of shape `target`: the best `warm` configurations of the
 * nearest shape done among the grid's first `at`, then the best of each
 * other shape done, nearer first. *out holds *n configurations (kt_free
 * it).
 */
static int warm_start(kt_value **out, size_t *n, const session *s,
                      const kt_value *target, size_t at, size_t warm)
{
	size_t np = s->m->nproblems, nparams = s->m->nparams, k = 0;
	const kt_tune_entry **best = kt_calloc(warm + 1, sizeof(*best));
	size_t *order = kt_calloc(at + 1, sizeof(size_t));
	*out = kt_calloc((warm + at + 1) * nparams + 1, sizeof(kt_value));
	*n = 0;
	if (!best || !order || !*out) {
		kt_free(best);
		kt_free(order);
		return kt_error(KT_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < at; i++) /* shapes done, nearest first */
		if (s->done[i]) {
			size_t j = k++;
			double d =
			    kt_wisdom_distance(&s->grid[i * np], target, np);
			while (j > 0 &&
			       kt_wisdom_distance(&s->grid[order[j - 1] * np],
			                          target, np) > d) {
				order[j] = order[j - 1];
				j--;
			}
			order[j] = i;
		}
	for (size_t i = 0; i < k; i++) {
		size_t got =
		    best_entries(best, i ? 1 : warm, s->done[order[i]]);
		for (size_t e = 0; e < got && e < (i ? 1 : warm); e++)
			memcpy(&(*out)[(*n)++ * nparams], best[e]->values,
			       nparams * sizeof(kt_value));
	}
	kt_free(best);
	kt_free(order);
	return 0;
}

static const char *objective(const options *o)
{
	return o->objective ? o->objective : "cold";
}

/* "sm_90a" -> "9.0", "sm_100" -> "10.0"; "" when arch says nothing. */
static void compute_capability(char *buf, size_t cap, const char *arch)
{
	int v = 0;
	buf[0] = '\0';
	if (sscanf(arch, "sm_%d", &v) == 1 && v >= 10)
		snprintf(buf, cap, "%d.%d", v / 10, v % 10);
}

/*
 * The wisdom file to update (--wisdom): the shapes of an existing file
 * for the same kernel, template, device and objective are kept beside
 * this run's; anything else is started afresh.
 */
static int open_wisdom(session *s, const options *o)
{
	if (!o->wisdom)
		return 0;
	kt_device_info dev;
	uint64_t hash =
	    kt_hash(KT_HASH_INIT, s->t->source, strlen(s->t->source));
	if (s->b->ops->device_info(s->b, &dev) ||
	    kt_fs_check_output(o->wisdom)) {
		fprintf(stderr, "ktc tune: %s\n", kt_error_last());
		return 1;
	}
	kt_wisdom *old = NULL;
	if (access(o->wisdom, F_OK) == 0 && kt_wisdom_load(&old, o->wisdom))
		fprintf(stderr,
		        "ktc tune: warning: %s; starting the wisdom afresh\n",
		        kt_error_last());
	if (old && old->template_hash == hash &&
	    !strcmp(old->kernel, s->m->kernel) &&
	    !strcmp(old->device, dev.name) && !strcmp(old->objective, "cold") &&
	    old->nparams == s->m->nparams &&
	    old->nproblems == s->m->nproblems) {
		s->wisdom = old;
		return 0;
	}
	kt_wisdom_free(old);
	if (kt_wisdom_new(&s->wisdom, s->m, s->t->path, hash, objective(o))) {
		fprintf(stderr, "ktc tune: %s\n", kt_error_last());
		return 1;
	}
	snprintf(s->wisdom->device, sizeof(s->wisdom->device), "%s", dev.name);
	snprintf(s->wisdom->arch, sizeof(s->wisdom->arch), "%s", dev.arch);
	snprintf(s->wisdom->driver, sizeof(s->wisdom->driver), "%s",
	         dev.driver);
	compute_capability(s->wisdom->compute_capability,
	                   sizeof(s->wisdom->compute_capability), dev.arch);
	return 0;
}

/* The shape just tuned into the wisdom file, written at once. */
static int record_wisdom(session *s, const options *o)
{
	const kt_tune_report *r = s->report;
	if (!s->wisdom || !r || !r->best || !r->nentries ||
	    r->stop == KT_TUNE_INTERRUPTED || r->stop == KT_TUNE_ERROR)
		return 0;
	if (kt_wisdom_set(s->wisdom, s->problem, r->best->values,
	                  r->best->result.time_ms,
	                  r->entries[0].result.time_ms) ||
	    kt_wisdom_write(s->wisdom, o->wisdom)) {
		fprintf(stderr, "ktc tune: %s\n", kt_error_last());
		return 1;
	}
	return 0;
}

/* Options that name one file for a whole run cannot serve a grid. */
static int check_grid(const session *s, const options *o)
{
	if (s->nshapes < 2)
		return 0;
	const char *bad = o->out     ? "-o writes one T4 file"
	                  : o->cache ? "--cache names one cache file"
	                             : NULL;
	if (bad)
		fprintf(stderr,
		        "ktc tune: %s, and --problem names %zu shapes; each "
		        "shape has its own cache under .ktc/cache and its "
		        "best goes to --wisdom FILE\n",
		        bad, s->nshapes);
	return bad ? 2 : 0;
}

static void print_shape(session *s, const options *o, int status)
{
	if (o->json) {
		cJSON *j = s->report ? summary_json(s->report, s->m, o,
		                                    s->cache, status)
		                     : NULL;
		if (j && s->nshapes > 1) {
			cJSON *p = cJSON_AddObjectToObject(j, "problem");
			for (size_t i = 0; i < s->m->nproblems; i++)
				cJSON_AddNumberToObject(
				    p, s->m->problems[i].name,
				    kt_value_as_double(s->problem[i]));
		}
		if (j && s->json)
			cJSON_AddItemToArray(s->json, j);
		else if (j) {
			print_json(j);
			cJSON_Delete(j);
		}
	} else if (s->report && s->report->nentries) {
		print_summary(stdout, s->report, s->m, o, s->cache);
	}
	fflush(stdout);
}

/* Tunes shape i of the grid; the report is kept for later warm starts. */
static int run_shape(session *s, const options *o, const char *path, size_t i)
{
	s->problem = &s->grid[i * s->m->nproblems];
	kt_free(s->cache);
	s->cache = NULL;
	int status = choose_cache(s, o);
	if (!status)
		status = check_output(s, o, path);
	kt_value *warm = NULL;
	size_t nwarm = 0;
	if (!status &&
	    warm_start(&warm, &nwarm, s, s->problem, i, (size_t)o->warm)) {
		fprintf(stderr, "ktc tune: %s\n", kt_error_last());
		status = 1;
	}
	if (!status && s->nshapes > 1 && !o->json) {
		char label[256];
		shape_label(label, sizeof(label), s);
		printf("%s== shape %zu/%zu: %s\n", i ? "\n" : "", i + 1,
		       s->nshapes, label);
		fflush(stdout);
	}
	if (!status)
		status = tune(s, o, o->budget, warm, nwarm);
	kt_free(warm);
	kt_diags_print(&s->diags, stderr, isatty(2));
	kt_diags_release(&s->diags);
	kt_diags_init(&s->diags);
	print_shape(s, o, status);
	status |= record_wisdom(s, o);
	s->done[i] = s->report;
	s->report = NULL;
	return status;
}

/* ---- refining the grid ----------------------------------------------- */

/* A configuration slower than the default by more than this share is a
 * loss (above the spread of repeated timings of one configuration,
 * docs/cuda-backend.md). */
#define REFINE_LOSS 0.01

/* The entry of r with values v (nparams of them), or NULL. */
static const kt_tune_entry *entry_of(const kt_tune_report *r, const kt_value *v,
                                     size_t nparams)
{
	for (size_t i = 0; r && i < r->nentries; i++) {
		bool same = true;
		for (size_t p = 0; p < nparams && same; p++)
			same = kt_value_as_double(r->entries[i].values[p]) ==
			       kt_value_as_double(v[p]);
		if (same)
			return &r->entries[i];
	}
	return NULL;
}

/*
 * Shape s->problem, between two shapes of the grid and tuned in neither:
 * the default and the configuration the wisdom picks there (the nearest
 * shape's best) are timed; where the pick loses to the default, the shape
 * is tuned like one of the grid and joins the wisdom. *tuned says whether
 * it was.
 */
static int probe(session *s, const options *o, const char *path,
                 const char *label, bool *tuned)
{
	size_t sh, nparams = s->m->nparams;
	*tuned = false;
	if (kt_wisdom_select(s->wisdom, NULL, s->problem, &sh) !=
	    KT_WISDOM_NEAREST)
		return 0;
	kt_value *pick = kt_calloc(nparams + 1, sizeof(kt_value));
	if (!pick) {
		fprintf(stderr, "ktc tune: out of memory\n");
		return 1;
	}
	memcpy(pick, s->wisdom->shapes[sh].best, nparams * sizeof(kt_value));
	kt_free(s->cache);
	s->cache = NULL;
	int status = choose_cache(s, o);
	if (!status)
		status = check_output(s, o, path);
	if (!o->json)
		printf("\n== refine: %s, tuned in no shape: the default and "
		       "the nearest shape's best\n",
		       label);
	fflush(stdout);
	if (!status)
		status = tune(s, o, 2, pick, 1);
	const kt_tune_entry *d =
	    s->report && s->report->nentries ? &s->report->entries[0] : NULL;
	const kt_tune_entry *e = entry_of(s->report, pick, nparams);
	bool loses =
	    !status && d && e && d->result.status == KT_STATUS_OK &&
	    (e->result.status != KT_STATUS_OK ||
	     e->result.time_ms > d->result.time_ms * (1 + REFINE_LOSS));
	if (!status && d && e && !o->json)
		printf("the nearest shape's best %s: %s than the default "
		       "(%.4g ms against %.4g ms)%s\n",
		       e->result.status == KT_STATUS_OK ? "runs" : "fails",
		       loses ? "slower" : "not slower", e->result.time_ms,
		       d->result.time_ms, loses ? "; tuning this shape" : "");
	kt_tune_report_free(s->report);
	s->report = NULL;
	kt_free(pick);
	kt_value *warm = NULL;
	size_t nwarm = 0;
	if (loses && warm_start(&warm, &nwarm, s, s->problem, s->nshapes,
	                        (size_t)o->warm)) {
		fprintf(stderr, "ktc tune: %s\n", kt_error_last());
		status = 1;
	}
	if (loses && !status) {
		status = tune(s, o, o->budget, warm, nwarm);
		print_shape(s, o, status);
		status |= record_wisdom(s, o);
		*tuned = !status;
	}
	kt_free(warm);
	kt_tune_report_free(s->report);
	s->report = NULL;
	return status;
}

/*
 * --refine N: between each two neighbouring values of a problem variable
 * in the grid (the other variables as in a shape of the grid), the
 * geometric middle, rounded, is probed (see probe); at most N such shapes
 * are tuned. A shape the grid does not name is served by the nearest
 * one's configuration, which can lose there (a launch attribute whose
 * gain depends on the number of blocks): this finds where it does.
 */
static int refine(session *s, const options *o, const char *path)
{
	size_t np = s->m->nproblems, added = 0;
	kt_value *mid = kt_calloc(np + 1, sizeof(kt_value));
	if (!mid) {
		fprintf(stderr, "ktc tune: out of memory\n");
		return 1;
	}
	int failed = 0;
	for (size_t i = 0; i < s->nshapes && !stop_requested; i++)
		for (size_t v = 0; v < np && (long)added < o->refine; v++) {
			const kt_value *a = &s->grid[i * np];
			const kt_value *b = NULL;
			for (size_t j = 0; j < s->nshapes; j++) {
				const kt_value *c = &s->grid[j * np];
				bool line = kt_value_as_double(c[v]) >
				            kt_value_as_double(a[v]);
				for (size_t u = 0; u < np && line; u++)
					line = u == v ||
					       kt_value_as_double(c[u]) ==
					           kt_value_as_double(a[u]);
				if (line &&
				    (!b || kt_value_as_double(c[v]) <
				               kt_value_as_double(b[v])))
					b = c;
			}
			if (!b || a[v].is_float || b[v].is_float || a[v].i < 1)
				continue;
			int64_t m = llround(sqrt((double)a[v].i * b[v].i));
			if (m <= a[v].i || m >= b[v].i)
				continue;
			memcpy(mid, a, np * sizeof(kt_value));
			mid[v] = kt_int(m);
			s->problem = mid;
			char label[256], at[400];
			shape_label(label, sizeof(label), s);
			snprintf(at, sizeof(at),
			         "%s (between %s=%lld and %lld)", label,
			         s->m->problems[v].name, (long long)a[v].i,
			         (long long)b[v].i);
			bool tuned;
			failed |= probe(s, o, path, at, &tuned);
			added += tuned;
		}
	kt_free(mid);
	s->problem = s->grid;
	return failed;
}

static int run(const options *o, const char *path)
{
	session s = {0};
	kt_diags_init(&s.diags);
	int status = open_template(&s, path, o);
	if (!status)
		status = check_grid(&s, o);
	if (!status)
		status = open_backend(&s, o);
	if (!status)
		status = open_wisdom(&s, o);
	if (!status && o->json && s.nshapes > 1)
		s.json = cJSON_CreateArray();
	int failed = status;
	for (size_t i = 0; !status && i < s.nshapes && !stop_requested; i++)
		failed |= run_shape(&s, o, path, i);
	if (!status && !failed && o->refine > 0 && s.wisdom && s.nshapes > 1 &&
	    !stop_requested)
		failed |= refine(&s, o, path);
	kt_diags_print(&s.diags, stderr, isatty(2)); /* of opening, if any */
	if (s.json) {
		print_json(s.json);
		cJSON_Delete(s.json);
	}
	if (!status && s.wisdom && !o->json)
		printf("%swisdom     %s (%zu shapes)\n",
		       s.nshapes > 1 ? "\n" : "", o->wisdom, s.wisdom->nshapes);
	for (size_t i = 0; s.done && i < s.nshapes; i++)
		kt_tune_report_free(s.done[i]);
	kt_free(s.done);
	kt_wisdom_free(s.wisdom);
	kt_backend_free(s.b);
	kt_free(s.cache);
	kt_free(s.grid);
	kt_template_free(s.t);
	kt_diags_release(&s.diags);
	return status ? status : failed ? 1 : 0;
}

static const char TUNE_SUMMARY[] =
    "Searches the space of an annotated kernel of FILE on a backend and "
    "prints the best\nconfiguration. Every evaluation is appended to a "
    "cache at once; the same command\nrun again resumes and ends with the "
    "same results. --devices spreads each batch\nover a worker per device; "
    "under mpirun, rank 0 searches and every rank evaluates\n"
    "(docs/scale.md). --job FILE runs a campaign: each line of FILE holds "
    "a FILE and\noptions of its own, added to those given here. Exit "
    "status: 0 ok, 1 failure or\ninterrupted, 2 usage.";

/*
 * Parses a tune command line into *o (set to the defaults first); *npos is
 * the number of positional arguments, left at the front of argv. Returns
 * 0, 1 after --help, or 2 for a usage error (already said).
 */
static int parse(options *o, int argc, char **argv, int *npos)
{
	*o = (options){.budget = DEFAULT_BUDGET,
	               .seed = 1,
	               .batch = DEFAULT_BATCH,
	               .warm = DEFAULT_WARM,
	               .space_limit = KT_SPACE_MAX_BINDINGS};
	const kt_opt opts[] = {
	    KT_OPT_STRING_('k', "kernel", &o->kernel, "NAME",
	                   "the kernel to tune (needed when FILE has several)"),
	    KT_OPT_STRING_('b', "backend", &o->backend, "NAME",
	                   "sim, cuda or opencl (default: sim with --from, "
	                   "else a GPU backend)"),
	    KT_OPT_STRING_(
	        0, "from", &o->from, "RESULTS",
	        "sim: the recorded T4 file or ktc cache to answer from"),
	    KT_OPT_STRING_('s', "strategy", &o->strategy, "NAME",
	                   "search strategy (default: random)"),
	    KT_OPT_LIST_(0, "strategy-option", o->settings, &o->nsettings,
	                 MAX_LIST, "NAME=V", "a setting of the strategy"),
	    KT_OPT_INT_('n', "budget", &o->budget, "N",
	                "distinct configurations to visit, default included "
	                "(default 100; 0: all)"),
	    KT_OPT_DOUBLE_(
	        0, "time-limit", &o->time_limit, "S",
	        "stop after S seconds (the run is then not reproducible)"),
	    KT_OPT_INT_(0, "seed", &o->seed, "S",
	                "seed of the strategy and the input data (default 1)"),
	    KT_OPT_INT_(
	        0, "batch", &o->batch, "N",
	        "configurations asked for and compiled at once (default 8)"),
	    KT_OPT_LIST_('p', "problem", o->problem, &o->nproblem, MAX_LIST,
	                 "NAME=V[,V...]",
	                 "a problem variable's values (default: its default); "
	                 "lists make a grid of shapes, each tuned in turn"),
	    KT_OPT_STRING_(0, "wisdom", &o->wisdom, "FILE",
	                   "write each shape's best configuration and time "
	                   "to FILE (JSON, docs/deploy.md)"),
	    KT_OPT_STRING_(0, "objective", &o->objective, "cold|graph",
	                   "what a time measures: one launch on a cold L2 "
	                   "(default), or graph: the steady state of "
	                   "back-to-back launches in a CUDA graph (cuda)"),
	    KT_OPT_INT_(0, "refine", &o->refine, "N",
	                "a grid with --wisdom: time the nearest shape's best "
	                "at the middle of each two neighbouring shapes and "
	                "tune up to N middles where it loses to the default "
	                "(default 0: none)"),
	    KT_OPT_INT_(0, "warm", &o->warm, "N",
	                "a grid: start each shape with the N best "
	                "configurations of the nearest shape done (default "
	                "4; 0: none)"),
	    KT_OPT_INT_(0, "space-limit", &o->space_limit, "N",
	                "values bound while building the space before giving "
	                "up (default 33554432; 0: no limit)"),
	    KT_OPT_STRING_(0, "cache", &o->cache, "FILE",
	                   "the cache file (default: "
	                   ".ktc/cache/<template>-<kernel>-<hash>.jsonl)"),
	    KT_OPT_FLAG_(0, "no-cache", &o->no_cache, "keep no cache"),
	    KT_OPT_FLAG_(
	        0, "force-new", &o->force_new,
	        "replace a cache made for something else (kept as FILE.old)"),
	    KT_OPT_STRING_('o', "output", &o->out, "FILE",
	                   "write the results as T4 JSON"),
	    KT_OPT_FLAG_(0, "json", &o->json, "print the summary as JSON"),
	    KT_OPT_FLAG_('q', "quiet", &o->quiet, "no progress display"),
	    KT_OPT_FLAG_(0, "compile-only", &o->compile_only,
	                 "compile each configuration, run nothing (no cache)"),
	    KT_OPT_STRING_(0, "device", &o->device, "D",
	                   "which device (index or name)"),
	    KT_OPT_STRING_(0, "devices", &o->devices, "LIST",
	                   "one worker per device: all, or a comma-separated "
	                   "list (cuda: 0,1,3; opencl: 0:0,0:1)"),
	    KT_OPT_INT_(0, "workers", &o->workers, "N",
	                "workers per device (default 1; several share it)"),
	    KT_OPT_STRING_(0, "job", &o->job, "FILE",
	                   "a campaign: one run per line of FILE (a template "
	                   "and its options)"),
	    KT_OPT_DOUBLE_(0, "rank-timeout", &o->rank_timeout, "S",
	                   "mpirun: a rank silent for S seconds is lost "
	                   "(default 30)"),
	    KT_OPT_DOUBLE_(0, "timeout", &o->timeout, "S",
	                   "seconds one configuration may take"),
	    KT_OPT_INT_(
	        0, "runs", &o->runs, "N",
	        "timed runs per configuration (default: the backend's)"),
	    KT_OPT_FLAG_(0, "profile", &o->profile,
	                 "collect hardware counters"),
	    KT_OPT_FLAG_(0, "specials", &o->specials,
	                 "check every configuration also on inputs with NaN, "
	                 "Inf, subnormals and -0 mixed in"),
	    KT_OPT_DOUBLE_(
	        0, "sim-delay", &o->sim_delay, "MS",
	        "sim: sleep MS per evaluation (for testing interruption)"),
	    KT_OPT_END_,
	};
	const kt_cmd_info info = {
	    .usage = "ktc tune [options] FILE | ktc tune [options] --job JOBS",
	    .summary = TUNE_SUMMARY,
	    .opts = opts,
	};
	int rc = kt_opt_parse(&info, argc, argv, npos);
	if (rc)
		return rc > 0 ? 1 : 2;
	return check_options(o) ? 2 : 0;
}

/* ---- campaigns and ranks ------------------------------------------------ */

/* The jobs of --job FILE: each line's words, after the command line's. */
typedef struct jobs {
	char *text;   /* the file, cut into words in place */
	char ***argv; /* per job: base arguments, then the line's words */
	int *argc;    /* per job */
	int *line;    /* per job: its line in FILE */
	size_t n;
} jobs;

static void jobs_free(jobs *j)
{
	for (size_t i = 0; i < j->n; i++)
		kt_free(j->argv[i]);
	kt_free(j->argv);
	kt_free(j->argc);
	kt_free(j->line);
	kt_free(j->text);
}

/* The command line without --job FILE, which each job's words follow. */
static int base_args(char **out, int argc, char **argv)
{
	int n = 0;
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--job")) {
			i++;
			continue;
		}
		if (!strncmp(argv[i], "--job=", 6))
			continue;
		out[n++] = argv[i];
	}
	return n;
}

static int read_jobs(jobs *j, const char *path, int argc, char **argv)
{
	size_t len = 0;
	if (kt_fs_read(&j->text, &len, path)) {
		fprintf(stderr, "ktc tune: %s\n", kt_error_last());
		return 1;
	}
	size_t lines = 1;
	for (size_t i = 0; i < len; i++)
		lines += j->text[i] == '\n';
	j->argv = kt_calloc(lines + 1, sizeof(char *));
	j->argc = kt_calloc(lines + 1, sizeof(int));
	j->line = kt_calloc(lines + 1, sizeof(int));
	if (!j->argv || !j->argc || !j->line)
		return 1;
	int lineno = 0;
	for (char *l = j->text, *nl; l; l = nl ? nl + 1 : NULL) {
		if ((nl = strchr(l, '\n')))
			*nl = '\0';
		lineno++;
		char *hash = strchr(l, '#');
		if (hash)
			*hash = '\0';
		char **av =
		    kt_calloc((size_t)argc + strlen(l) + 2, sizeof(char *));
		if (!av)
			return 1;
		int n = base_args(av, argc, argv), base = n;
		char *ws = NULL;
		for (char *w = strtok_r(l, " \t\r", &ws); w;
		     w = strtok_r(NULL, " \t\r", &ws))
			av[n++] = w;
		if (n == base) {
			kt_free(av);
			continue;
		}
		j->argv[j->n] = av;
		j->argc[j->n] = n;
		j->line[j->n++] = lineno;
	}
	if (!j->n)
		fprintf(stderr, "ktc tune: %s: no job in the file\n", path);
	return j->n ? 0 : 1;
}

/* Job i's options and template; 0, or the exit status of a bad line. */
static int job_options(options *o, const char **path, const jobs *j, size_t i,
                       const char *file)
{
	int npos = 0;
	int rc = parse(o, j->argc[i], j->argv[i], &npos);
	if (rc == 2)
		fprintf(stderr,
		        "ktc tune: %s:%d: the job's options are wrong\n", file,
		        j->line[i]);
	if (!rc && npos != 1) {
		fprintf(stderr,
		        "ktc tune: %s:%d: a job names one template, not %d\n",
		        file, j->line[i], npos);
		rc = 2;
	}
	if (rc == 1) {
		fprintf(stderr, "ktc tune: %s:%d: --help in a job\n", file,
		        j->line[i]);
		rc = 2;
	}
	o->job_index = (unsigned)i;
	o->job = NULL;
	*path = j->argv[i][0];
	return rc;
}

/*
 * A rank other than 0: opens each job rank 0 announces, on this rank's
 * devices, and evaluates for rank 0 until the job ends.
 */
static int serve(const options *cmd, const char *path, const jobs *j)
{
	unsigned job = 0;
	int status = 0;
	while (kt_mpi_next_job(&job) == 0) {
		options o = *cmd;
		const char *file = path;
		session s = {0};
		kt_diags_init(&s.diags);
		int st = j && job < j->n
		             ? job_options(&o, &file, j, job, cmd->job)
		         : j ? 2
		             : 0;
		if (!st)
			st = open_template(&s, file, &o);
		if (!st)
			st = open_backend(&s, &o);
		if (kt_mpi_serve(st ? NULL : s.b,
		                 st ? "cannot open the job here" : NULL))
			status = 1;
		kt_backend_free(s.b);
		kt_free(s.grid);
		kt_free(s.done);
		kt_template_free(s.t);
		kt_diags_release(&s.diags);
	}
	return status;
}

/* Rank 0 with --job FILE: the jobs one after another, each on all ranks. */
static int campaign(const jobs *j, const char *file, bool quiet)
{
	int failed = 0;
	for (size_t i = 0; i < j->n; i++) {
		options o;
		const char *path = NULL;
		if (!quiet)
			fprintf(stderr, "== job %zu/%zu (%s:%d)\n", i + 1, j->n,
			        file, j->line[i]);
		int st = job_options(&o, &path, j, i, file);
		if (!st) {
			printf("== job %zu/%zu: %s\n", i + 1, j->n, path);
			fflush(stdout);
			st = run(&o, path);
		}
		failed += st != 0;
		if (stop_requested)
			break;
	}
	printf("campaign   %zu jobs, %zu ok, %d failed\n", j->n,
	       j->n - (size_t)failed, failed);
	return failed ? 1 : 0;
}

int cmd_tune(int argc, char **argv)
{
	static char name[] = "ktc tune";
	options o;
	int npos = 0;
	argv[0] = name;
	int rc = parse(&o, argc, argv, &npos);
	if (rc)
		return rc == 1 ? 0 : 2;
	if (npos != (o.job ? 0 : 1)) {
		fprintf(stderr,
		        "usage: ktc tune [options] FILE | ktc tune "
		        "[options] --job JOBS (see 'ktc tune --help')\n");
		return 2;
	}
	if (o.job && (o.out || o.cache)) {
		fprintf(stderr, "ktc tune: with --job, -o and --cache go in "
		                "each job's line\n");
		return 2;
	}
	if (kt_mpi_init(NULL, NULL)) {
		fprintf(stderr, "ktc tune: %s\n", kt_error_last());
		return 1;
	}
	jobs j = {0};
	const char *path = o.job ? NULL : argv[0];
	int status = o.job ? read_jobs(&j, o.job, argc, argv) : 0;
	if (!status && kt_mpi_rank() > 0)
		status = serve(&o, path, o.job ? &j : NULL);
	else if (!status)
		status = o.job ? campaign(&j, o.job, o.quiet) : run(&o, path);
	jobs_free(&j);
	fflush(NULL);
	return kt_mpi_finish(status);
}
