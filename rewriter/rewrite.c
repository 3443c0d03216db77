/*
 * rewrite.c - the verifying rewriter's driver: generate the annotated file
 * from the plan, prove it, and drop what cannot be proven.
 *
 * Design choice: the happy path verifies the whole plan at once, so a file
 * costs two nvcc runs (original and annotated, in parallel) plus one NVRTC
 * compile per domain value (on parallel threads). Only when the whole fails
 * are the units (a parameter with its refactors) verified one by one to
 * find the culprits, which are dropped and reported; then the survivors are
 * verified together again. Nothing is returned that was not verified.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "rewriter/rewriter.h"

#include "ktc/common.h"
#include "ktc/model.h"
#include "util/fs.h"
#include "util/vec.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct rw {
	const kt_plan *p;
	const kt_rewrite_file *f;
	const kt_rewrite_opts *o;
	kt_verify_opts vo;
	kt_diags *diags;
	kt_rw_select sel;
	kt_nvcc_job orig; /* the original's PTX, compiled once */
	size_t dropped, values_dropped;
} rw;

/* The first line of a compiler log that says "error", for messages. */
static char *first_error(const char *log)
{
	const char *p = strstr(log, "error");
	if (!p)
		p = log;
	const char *b = p, *e = p;
	while (b > log && b[-1] != '\n')
		b--;
	while (*e && *e != '\n')
		e++;
	return kt_strndup(b, (size_t)(e - b));
}

/* Columns to underline for r: up to the end of its first line. */
/*
 * first_error for a compile of the edited text: its line numbers are not
 * the user's file's, so `k.cu(54): error: x` becomes `line 54 of the
 * edited file: error: x`.
 */
static char *edited_error(const char *log)
{
	char *e = first_error(log);
	char *open = e ? strchr(e, '(') : NULL;
	char *close = open ? strstr(open, "): ") : NULL;
	if (!close || close == open + 1 ||
	    strspn(open + 1, "0123456789") != (size_t)(close - open - 1))
		return e;
	kt_str s = KT_STR_INIT;
	kt_str_addf(&s, "line %.*s of the edited file: %s",
	            (int)(close - open - 1), open + 1, close + 3);
	kt_free(e);
	return kt_str_detach(&s);
}

static int span(const rw *r, kt_range at)
{
	const char *t = r->f->text;
	size_t e = at.begin.offset;
	while (e < at.end.offset && e < r->f->len && t[e] != '\n')
		e++;
	return (int)(e - at.begin.offset);
}

static kt_range unit_range(const rw *r, size_t i)
{
	const kt_plan_param *pp = &r->p->params[i];
	if (pp->nuses)
		return pp->uses[0].range;
	/* a refactor's parameter: its kernel */
	for (size_t k = 0; pp->kernel && k < r->p->nkernels; k++)
		if (!strcmp(r->p->kernels[k].name, pp->kernel))
			return r->p->kernels[k].range;
	return r->p->kernels[0].range;
}

static void drop_unit(rw *r, size_t i, const char *why, const char *detail)
{
	kt_range at = unit_range(r, i);
	kt_diags_add(r->diags, KT_DIAG_WARNING, r->f->path, r->f->text,
	             at.begin.line, at.begin.col, span(r, at),
	             "parameter '%s' dropped: %s%s%s", r->p->params[i].name,
	             why, detail && *detail ? ": " : "", detail ? detail : "");
	r->sel.on[i] = false;
	r->dropped++;
}

/* Generates with the current selection, switching off units that do not
 * fit the file until the rest does. */
static int generate(rw *r, kt_str *out)
{
	for (;;) {
		kt_str_clear(out);
		memset(r->sel.bad, 0, r->p->nparams * sizeof(bool));
		int rc = kt_rw_generate(out, r->p, r->f, &r->sel, r->diags);
		bool any = false;
		for (size_t i = 0; i < r->p->nparams; i++)
			if (r->sel.bad[i] && r->sel.on[i]) {
				r->sel.on[i] = false;
				r->dropped++;
				any = true;
			}
		if (rc != KT_EINVALID || !any)
			return rc;
	}
}

/* ---- one verification of a text ---- */

typedef struct check {
	kt_nvcc_job nvcc;
	kt_nvrtc_job *rtc; /* its NVRTC compile at the defaults */
	bool ok;
	bool ptx_differs; /* it compiles, but not to the original's PTX */
	char *why;        /* for a failure: what failed */
	char *detail;     /* and how */
} check;

static void check_release(check *c)
{
	kt_nvcc_job_release(&c->nvcc);
	kt_free(c->why);
	kt_free(c->detail);
	memset(c, 0, sizeof(*c));
}

static void fail(check *c, const char *why, char *detail)
{
	c->ok = false;
	c->why = kt_strdup(why);
	c->detail = detail;
}

/* Judges a finished check against the original's PTX. */
static int judge(rw *r, check *c)
{
	int rc = kt_nvcc_finish(&c->nvcc);
	if (rc)
		return rc;
	if (!c->nvcc.ok) {
		fail(c, "the file does not compile with nvcc",
		     edited_error(c->nvcc.log.ptr));
		return 0;
	}
	if (!c->rtc->ok) {
		fail(c, "NVRTC cannot compile the file",
		     edited_error(c->rtc->log.ptr));
		return 0;
	}
	int line = 0;
	kt_str d = KT_STR_INIT;
	int same = kt_ptx_same(r->orig.ptx.ptr, c->nvcc.ptx.ptr, &line, &d);
	if (same == 1)
		c->ok = true;
	else if (same == 0) {
		fail(c, "at its defaults its PTX is not the original's",
		     kt_str_detach(&d));
		c->ptx_differs = true;
	}
	kt_str_release(&d);
	return same < 0 ? same : 0;
}

/* The original's PTX, which every check compares with. */
static int original_ptx(rw *r)
{
	if (!r->orig.running)
		return 0;
	int rc = kt_nvcc_finish(&r->orig);
	if (rc)
		return rc;
	if (!r->orig.ok) {
		char *e = first_error(r->orig.log.ptr);
		rc = kt_error(KT_EINVALID,
		              "'%s' does not compile with nvcc as it is, so "
		              "no edit can be verified: %s",
		              r->f->path, e ? e : "");
		kt_free(e);
	}
	return rc;
}

/*
 * Verifies n texts: nvcc on each (child processes) while NVRTC compiles
 * each at its defaults plus the extra jobs (domain values) on threads.
 */
static int run_checks(rw *r, kt_str *texts, check *c, size_t n,
                      kt_nvrtc_job *extra, size_t nextra)
{
	kt_nvrtc_job *jobs = kt_calloc(n + nextra, sizeof(*jobs));
	if (!jobs)
		return kt_error(KT_ENOMEM, "out of memory");
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		jobs[i].text = texts[i].ptr;
		rc = kt_nvcc_start(&c[i].nvcc, &r->vo, texts[i].ptr,
		                   texts[i].len, r->f->path, NULL, 0);
	}
	for (size_t i = 0; i < nextra; i++)
		jobs[n + i] = extra[i];
	if (!rc)
		rc = kt_nvrtc_run(&r->vo, texts[0].ptr, r->f->path, jobs,
		                  n + nextra);
	for (size_t i = 0; i < nextra; i++)
		extra[i] = jobs[n + i];
	for (size_t i = 0; i < n; i++)
		c[i].rtc = &jobs[i];
	if (!rc)
		rc = original_ptx(r);
	for (size_t i = 0; i < n && !rc; i++)
		rc = judge(r, &c[i]);
	for (size_t i = 0; i < n; i++) {
		c[i].rtc = NULL;
		kt_nvrtc_job_release(&jobs[i]);
	}
	kt_free(jobs);
	return rc;
}

/* ---- domains ---- */

static void note_value(rw *r, size_t i, int64_t value, const char *what,
                       const char *log)
{
	char *e = edited_error(log ? log : "");
	kt_range at = unit_range(r, i);
	kt_diags_add(r->diags, KT_DIAG_NOTE, r->f->path, r->f->text,
	             at.begin.line, at.begin.col, span(r, at),
	             "value %" PRId64
	             " of '%s' dropped from its domain: %s: %s",
	             value, r->p->params[i].name, what, e ? e : "");
	kt_free(e);
	r->values_dropped++;
}

/* Keeps in each domain the values that compiled; notes the others. */
static int filter_domains(rw *r, const kt_rw_values *v)
{
	for (size_t i = 0; i < r->p->nparams; i++) {
		const kt_plan_param *pp = &r->p->params[i];
		kt_free(r->sel.values[i]); /* the domain of an earlier pass */
		r->sel.values[i] = kt_calloc(pp->nvalues + 1, sizeof(int64_t));
		if (!r->sel.values[i])
			return kt_error(KT_ENOMEM, "out of memory");
		size_t n = 0;
		for (size_t k = 0; k < pp->nvalues; k++) {
			size_t j = 0;
			while (j < v->n && (v->param[j] != i ||
			                    v->value[j] != pp->values[k]))
				j++;
			if (j == v->n || v->ok[j])
				r->sel.values[i][n++] = pp->values[k];
			else
				note_value(r, i, pp->values[k],
				           "it does not compile", v->log[j]);
		}
		r->sel.nvalues[i] = n;
	}
	return 0;
}

/* ---- finding what fails ---- */

static size_t units_on(const rw *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->p->nparams; i++)
		n += r->sel.on[i];
	return n;
}

/* The text with only unit u on (u == SIZE_MAX: none), without pragmas. */
static int text_with(rw *r, kt_str *out, size_t u, const bool *on)
{
	for (size_t i = 0; i < r->p->nparams; i++)
		r->sel.on[i] = on[i] && i == u; /* none when u is SIZE_MAX */
	r->sel.pragmas = false;
	kt_str_clear(out);
	int rc = kt_rw_generate(out, r->p, r->f, &r->sel, r->diags);
	memcpy(r->sel.on, on, r->p->nparams * sizeof(bool));
	r->sel.pragmas = true;
	return rc;
}

/*
 * Verifies the file without any unit (only host code guarded) and with
 * each unit alone; drops the units that fail. Returns the number dropped.
 */
static int isolate(rw *r, size_t *ndropped, bool *retry)
{
	size_t n = r->p->nparams, m = 1;
	bool *on = kt_calloc(n + 1, sizeof(bool));
	size_t *unit = kt_calloc(n + 1, sizeof(size_t));
	kt_str *texts = kt_calloc(n + 1, sizeof(kt_str));
	check *c = kt_calloc(n + 1, sizeof(check));
	int rc =
	    on && unit && texts && c ? 0 : kt_error(KT_ENOMEM, "out of memory");
	if (rc)
		goto done;
	memcpy(on, r->sel.on, n * sizeof(bool));
	unit[0] = SIZE_MAX;
	for (size_t i = 0; i < n; i++)
		if (on[i])
			unit[m++] = i;
	for (size_t k = 0; k < m && !rc; k++)
		rc = text_with(r, &texts[k], unit[k], on);
	if (!rc)
		rc = run_checks(r, texts, c, m, NULL, 0);
	/* the PTX holds line numbers (an assert's __LINE__): number the
	 * original's lines as they were, and verify again */
	if (!rc && c[0].ptx_differs && !r->sel.keep_lines) {
		r->sel.keep_lines = *retry = true;
		goto done;
	}
	if (!rc && !c[0].ok)
		rc = kt_error(KT_EINVALID,
		              "with only its host code kept out of NVRTC's "
		              "way, %s: %s",
		              c[0].why, c[0].detail ? c[0].detail : "");
	*ndropped = 0;
	for (size_t k = 1; k < m && !rc; k++)
		if (!c[k].ok) {
			drop_unit(r, unit[k], c[k].why, c[k].detail);
			(*ndropped)++;
		}
done:
	for (size_t k = 0; c && texts && k < m; k++) {
		check_release(&c[k]);
		kt_str_release(&texts[k]);
	}
	kt_free(on);
	kt_free(unit);
	kt_free(texts);
	kt_free(c);
	return rc;
}

/* Every unit passes alone but not all together: add them one by one. */
static int greedy(rw *r)
{
	size_t n = r->p->nparams;
	bool *want = kt_calloc(n + 1, sizeof(bool));
	if (!want)
		return kt_error(KT_ENOMEM, "out of memory");
	memcpy(want, r->sel.on, n * sizeof(bool));
	memset(r->sel.on, 0, n * sizeof(bool));
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		if (!want[i])
			continue;
		r->sel.on[i] = true;
		kt_str t = KT_STR_INIT;
		check c = {0};
		rc = generate(r, &t);
		if (!rc)
			rc = run_checks(r, &t, &c, 1, NULL, 0);
		if (!rc && !c.ok)
			drop_unit(r, i,
			          "it conflicts with the parameters "
			          "before it",
			          c.why);
		check_release(&c);
		kt_str_release(&t);
	}
	kt_free(want);
	return rc;
}

/* As many batches of domain values as NVRTC threads. */
static int batches(const rw *r)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	return r->vo.threads > 0 ? r->vo.threads : cpus > 0 ? (int)cpus : 1;
}

/* Drops from the domains the values at which the host code (nvcc) does
 * not compile. */
static int filter_host_values(rw *r, const char *text, kt_rw_probe *early)
{
	kt_rw_values v;
	int rc = kt_rw_host_values(&v, r->p, r->sel.on, r->sel.values,
	                           r->sel.nvalues, &r->vo, text, r->f->path,
	                           batches(r), early);
	for (size_t j = 0; j < v.n && !rc; j++) {
		if (v.ok[j])
			continue;
		size_t i = v.param[j], n = 0;
		for (size_t k = 0; k < r->sel.nvalues[i]; k++)
			if (r->sel.values[i][k] != v.value[j])
				r->sel.values[i][n++] = r->sel.values[i][k];
		r->sel.nvalues[i] = n;
		note_value(r, i, v.value[j],
		           "nvcc does not compile the file with it (host code "
		           "included)",
		           v.log[j]);
	}
	kt_rw_values_release(&v);
	return rc;
}

static size_t others_left(const rw *r, size_t i);

/* Drops each parameter whose domain of several values kept only its
 * default (every other value failed to compile: a `static_assert` that
 * fixes the block, say), which tunes nothing; a plan's own one-value
 * domain stays. Whether one was dropped. */
static bool drop_lone(rw *r)
{
	bool any = false;
	for (size_t i = 0; i < r->p->nparams; i++)
		if (r->sel.on[i] && r->p->params[i].nvalues > 1 &&
		    others_left(r, i) == 0) {
			drop_unit(r, i,
			          "no value but its default compiles, so it "
			          "tunes nothing",
			          NULL);
			any = true;
		}
	return any;
}

/* Verifies text; on failure drops units and regenerates until it holds. */
static int verify_loop(rw *r, kt_str *text)
{
	bool renumbered = false; /* keep_lines tried on the whole file */
	bool just = false;       /* ... in the check just made */
	for (size_t pass = 0;; pass++) {
		bool after_renumber = just;
		just = false;
		kt_rw_values v;
		check c = {0};
		/* the first pass, which usually holds: the host code's probe
		 * compiles beside the checks instead of after them */
		kt_rw_probe early = {0};
		int rc = pass == 0
		             ? kt_rw_probe_start(&early, r->p, r->sel.on,
		                                 &r->vo, text->ptr, r->f->path)
		             : 0;
		if (!rc)
			rc = kt_rw_values_make(&v, r->p, r->sel.on, r->f,
			                       text->ptr, batches(r));
		if (!rc)
			rc = run_checks(r, text, &c, 1, v.batch, v.nbatch);
		bool ok = !rc && c.ok;
		/* the PTX holds line numbers (an assert's __LINE__): number the
		 * original's lines as they were and verify again, before
		 * looking for a culprit unit by unit */
		bool renumber =
		    !rc && c.ptx_differs && !r->sel.keep_lines && !renumbered;
		if (ok)
			rc = kt_rw_values_settle(&v, &r->vo, text->ptr,
			                         r->f->path);
		if (ok && !rc)
			rc = filter_domains(r, &v);
		if (ok && !rc)
			rc = filter_host_values(r, text->ptr, &early);
		kt_rw_probe_release(&early);
		/* the file again without a parameter that kept its default
		 * alone */
		bool lone = ok && !rc && drop_lone(r);
		check_release(&c);
		kt_rw_values_release(&v);
		if (lone) {
			rc = generate(r, text);
			if (rc)
				return rc;
			continue;
		}
		if (rc || ok)
			return rc;
		if (renumber) {
			r->sel.keep_lines = renumbered = just = true;
			rc = generate(r, text);
			if (rc)
				return rc;
			continue;
		}
		/* line numbers were not the cause: isolate turns keep_lines
		 * back on if the file without units needs it */
		if (after_renumber)
			r->sel.keep_lines = false;
		size_t dropped = 0;
		bool retry = false;
		rc = isolate(r, &dropped, &retry);
		if (!rc && dropped == 0 && !retry)
			rc = greedy(r);
		if (!rc)
			rc = generate(r, text);
		if (rc)
			return rc;
	}
}

/* ---- what the user must add ---- */

/* The 1-based line of the annotated text that holds marker for the
 * (skip + 1)-th time, or 0. */
static int line_of(const char *text, const char *marker, size_t skip)
{
	const char *p = strstr(text, marker);
	for (; p && skip; skip--)
		p = strstr(p + 1, marker);
	if (!p)
		return 0;
	int line = 1;
	for (const char *q = text; q < p; q++)
		line += *q == '\n';
	return line;
}

static void report_needs(rw *r, const char *text)
{
	for (size_t i = 0; i < r->p->nneeds; i++) {
		const kt_plan_need *n = &r->p->needs[i];
		kt_range at = n->range;
		kt_diags_add(r->diags, KT_DIAG_WARNING, r->f->path, r->f->text,
		             at.begin.line, at.begin.col, span(r, at), "%s",
		             n->message);
		if (!n->suggest)
			continue;
		/* kernels' blocks stand in the plan's order: the same line
		 * for an earlier kernel comes first */
		size_t same = 0;
		for (size_t j = 0; j < i; j++)
			same += r->p->needs[j].suggest &&
			        !strcmp(r->p->needs[j].suggest, n->suggest);
		kt_str m = KT_STR_INIT;
		kt_str_addf(&m, KT_RW_TODO "%s\n", n->suggest);
		int line = line_of(text, m.ptr, same);
		kt_str_release(&m);
		if (line)
			kt_diags_add(r->diags, KT_DIAG_NOTE, NULL, NULL, 0, 0,
			             0,
			             "complete '#pragma kt %s' at line %d of "
			             "the annotated file (kernel '%s')",
			             n->suggest, line, n->kernel);
	}
}

static void report_rejected(rw *r)
{
	for (size_t i = 0; i < r->p->nrejected; i++) {
		const kt_plan_reject *x = &r->p->rejected[i];
		kt_diags_add(r->diags, KT_DIAG_NOTE, r->f->path, r->f->text,
		             x->range.begin.line, x->range.begin.col,
		             span(r, x->range), "'%s' stays a literal: %s",
		             x->text, x->message);
	}
}

/*
 * Reads the annotated file back with the grammar, as `ktc tune` will. While
 * the plan has lines for the user to complete, errors are expected (a
 * launch over a problem size not declared yet): one note says so.
 * Otherwise what the grammar finds is passed on as warnings, located in the
 * annotated file.
 */
static int grammar_check(rw *r, const kt_str *text)
{
	kt_diags gd;
	kt_diags_init(&gd);
	kt_template *t = NULL;
	const char *name = r->o->out_name ? r->o->out_name : r->f->path;
	int rc = kt_template_parse(&t, name, text->ptr, &gd);
	kt_template_free(t);
	if (gd.errors && r->p->nneeds)
		kt_diags_add(r->diags, KT_DIAG_NOTE, NULL, NULL, 0, 0, 0,
		             "'ktc tune' reads the template once the lines "
		             "marked 'ktc: complete' are completed");
	for (size_t i = 0; i < gd.len && !(gd.errors && r->p->nneeds); i++) {
		const kt_diag *g = &gd.items[i];
		kt_severity sev = g->severity == KT_DIAG_NOTE ? KT_DIAG_NOTE
		                                              : KT_DIAG_WARNING;
		kt_diags_add(r->diags, sev, g->file, text->ptr, g->line, g->col,
		             g->len, "%s%s",
		             g->severity == KT_DIAG_ERROR
		                 ? "the template does not read back: "
		                 : "",
		             g->message);
	}
	kt_diags_release(&gd);
	return rc == KT_ENOMEM ? rc : 0;
}

/* ---- the original's compile, possibly started early ---- */

/*
 * The absolute folder of path, for the file's own includes: nvcc runs in a
 * temporary folder, so a relative one would not do.
 */
static char *folder_of(const char *path)
{
	const char *s = strrchr(path, '/');
	char *dir = s ? kt_strndup(path, (size_t)(s - path + (s == path)))
	              : kt_strdup(".");
	char *abs = dir ? realpath(dir, NULL) : NULL;
	char *res = abs ? kt_strdup(abs) : dir ? kt_strdup(dir) : NULL;
	free(abs);
	kt_free(dir);
	return res;
}

struct kt_rewrite_base {
	char *text;
	size_t len;
	char *dir;
	kt_nvcc_job job;
};

static void verify_opts(kt_verify_opts *vo, const kt_rewrite_opts *o)
{
	vo->arch = o->arch;
	vo->cuda_root = o->cuda_root;
	vo->flags = o->flags;
	vo->nflags = o->nflags;
	vo->threads = o->threads;
}

int kt_rewrite_base_start(kt_rewrite_base **out, const char *path,
                          const kt_rewrite_opts *o)
{
	kt_rewrite_base *b = kt_calloc(1, sizeof(*b));
	*out = NULL;
	if (!b)
		return kt_error(KT_ENOMEM, "out of memory");
	kt_verify_opts vo = {0};
	verify_opts(&vo, o);
	int rc = kt_fs_read(&b->text, &b->len, path);
	if (!rc)
		b->dir = folder_of(path);
	vo.dir = b->dir;
	if (!rc && !b->dir)
		rc = kt_error(KT_ENOMEM, "out of memory");
	if (!rc)
		rc =
		    kt_nvcc_start(&b->job, &vo, b->text, b->len, path, NULL, 0);
	if (rc) {
		kt_rewrite_base_free(b);
		return rc;
	}
	*out = b;
	return 0;
}

int kt_rewrite_base_verdict(kt_rewrite_base *b, const char *path)
{
	if (!b || !b->job.running)
		return -1;
	char *was = kt_strdup(kt_error_last());
	bool ran = !kt_nvcc_finish(&b->job);
	bool refused = ran && !b->job.ok;
	if (refused) {
		char *e = first_error(b->job.log.ptr);
		kt_error(KT_EINVALID,
		         "'%s' does not compile with nvcc as it is, so no edit "
		         "can be verified: %s",
		         path, e ? e : "");
		kt_free(e);
	} else if (was) {
		kt_error(KT_EPARSE, "%s", was);
	}
	kt_free(was);
	return refused ? 1 : ran ? 0 : -1;
}

void kt_rewrite_base_free(kt_rewrite_base *b)
{
	if (!b)
		return;
	kt_nvcc_job_release(&b->job);
	kt_free(b->text);
	kt_free(b->dir);
	kt_free(b);
}

/* The original's compile: the one started early if it is of this text. */
static int start_original(rw *r)
{
	kt_rewrite_base *b = r->o->base;
	if (b && b->job.running && b->len == r->f->len &&
	    !memcmp(b->text, r->f->text, b->len)) {
		r->orig = b->job; /* taken over: b no longer owns it */
		memset(&b->job, 0, sizeof(b->job));
		return 0;
	}
	return kt_nvcc_start(&r->orig, &r->vo, r->f->text, r->f->len,
	                     r->f->path, NULL, 0);
}

/* ---- the entry point ---- */

static int setup(rw *r, const kt_plan *p, const kt_rewrite_file *f,
                 const kt_rewrite_opts *o, kt_diags *diags)
{
	memset(r, 0, sizeof(*r));
	r->p = p, r->f = f, r->o = o, r->diags = diags;
	verify_opts(&r->vo, o);
	size_t n = p->nparams + 1;
	r->sel.on = kt_calloc(n, sizeof(bool));
	r->sel.bad = kt_calloc(n, sizeof(bool));
	r->sel.values = kt_calloc(n, sizeof(int64_t *));
	r->sel.nvalues = kt_calloc(n, sizeof(size_t));
	r->sel.pragmas = true;
	if (!r->sel.on || !r->sel.bad || !r->sel.values || !r->sel.nvalues)
		return kt_error(KT_ENOMEM, "out of memory");
	for (size_t i = 0; i < p->nparams; i++)
		r->sel.on[i] = true;
	return 0;
}

static void teardown(rw *r)
{
	for (size_t i = 0; r->sel.values && i < r->p->nparams; i++)
		kt_free(r->sel.values[i]);
	kt_free(r->sel.values);
	kt_free(r->sel.nvalues);
	kt_free(r->sel.on);
	kt_free(r->sel.bad);
	kt_nvcc_job_release(&r->orig);
}

static int finish(rw *r, kt_rewrite_result *out, kt_str *text)
{
	report_needs(r, text->ptr);
	report_rejected(r);
	if (grammar_check(r, text))
		return KT_ENOMEM;
	kt_str diff = KT_STR_INIT, a = KT_STR_INIT, b = KT_STR_INIT;
	const char *base = r->f->path[0] == '/' ? r->f->path + 1 : r->f->path;
	int rc = kt_str_addf(&a, "a/%s", base);
	if (!rc)
		rc = kt_str_addf(&b, "b/%s", base);
	if (!rc)
		rc = kt_diff_unified(&diff, r->f->text, r->f->len, text->ptr,
		                     text->len, a.ptr, b.ptr, 3);
	if (!rc) {
		out->len = text->len;
		out->text = kt_str_detach(text);
		out->diff = kt_str_detach(&diff);
		out->params_kept = units_on(r);
		out->params_dropped = r->dropped;
		out->values_dropped = r->values_dropped;
	}
	kt_str_release(&diff);
	kt_str_release(&a);
	kt_str_release(&b);
	return rc;
}

/* ---- values that must change together ---- */

/* Drops a parameter whose old name stays elsewhere in the file (the same
 * value, untied from it); says where the default's number stays in a
 * launch the parameter changes. */
static void check_ties(rw *r)
{
	for (size_t i = 0; i < r->p->nparams; i++) {
		kt_rw_untie u;
		if (!r->sel.on[i] || kt_rw_untied(&u, r->p, r->sel.on, r->f, i))
			continue;
		const kt_plan_param *pp = &r->p->params[i];
		if (u.name) {
			char detail[512];
			snprintf(detail, sizeof(detail),
			         "'%s' at %d:%d stands for the same value and "
			         "would not follow it",
			         u.name, u.at.line, u.at.col);
			drop_unit(r, i, "it replaces a name only in part",
			          detail);
		} else if (u.number) {
			kt_diags_add(
			    r->diags, KT_DIAG_WARNING, r->f->path, r->f->text,
			    u.num_at.line, u.num_at.col, u.num_len,
			    "%" PRId64 " stays in this launch while parameter "
			    "'%s' replaces %" PRId64 " in it: if the two must "
			    "be equal, the template is wrong at the "
			    "parameter's other values (the run on a GPU "
			    "checks them)",
			    pp->def, pp->name, pp->def);
		}
	}
}

/* ---- the run on a GPU ---- */

/* Non-default values left in parameter i's domain. */
static size_t others_left(const rw *r, size_t i)
{
	size_t n = 0;
	for (size_t k = 0; k < r->sel.nvalues[i]; k++)
		n += r->sel.values[i][k] != r->p->params[i].def;
	return n;
}

/* Drops what the run found wrong: each failing value, and a parameter
 * none of whose other values is right. *units: a parameter was dropped. */
static int apply_run(rw *r, const kt_rw_run *run, bool *units)
{
	bool *hit = kt_calloc(r->p->nparams + 1, sizeof(bool));
	if (!hit)
		return kt_error(KT_ENOMEM, "out of memory");
	for (size_t j = 0; j < run->n; j++) {
		size_t i = run->param[j], n = 0;
		if (!r->sel.on[i])
			continue;
		for (size_t k = 0; k < r->sel.nvalues[i]; k++)
			if (r->sel.values[i][k] != run->value[j])
				r->sel.values[i][n++] = r->sel.values[i][k];
		if (n == r->sel.nvalues[i])
			continue;
		r->sel.nvalues[i] = n;
		hit[i] = true;
		kt_range at = unit_range(r, i);
		kt_diags_add(r->diags, KT_DIAG_WARNING, r->f->path, r->f->text,
		             at.begin.line, at.begin.col, span(r, at),
		             "value %" PRId64
		             " of '%s' dropped from its domain: it is wrong "
		             "%s: %s",
		             run->value[j], r->p->params[i].name,
		             r->f->opencl ? "when run" : "on the GPU",
		             run->why[j]);
		r->values_dropped++;
	}
	*units = false;
	for (size_t i = 0; i < r->p->nparams; i++)
		if (hit[i] && r->sel.on[i] && others_left(r, i) == 0) {
			drop_unit(
			    r, i,
			    r->f->opencl
			        ? "no value but its default is right when "
			          "run"
			        : "no value but its default is right on "
			          "the GPU",
			    NULL);
			*units = true;
		}
	kt_free(hit);
	return 0;
}

/*
 * The differential check on a GPU (kt_rewrite_opts.run): on the verified
 * text, then what fails is dropped; a dropped parameter means the rest is
 * verified again, statically, as after any drop.
 */
static int gpu_check(rw *r, kt_str *text, kt_rewrite_result *out)
{
	kt_rw_run run = {0};
	int rc = 0;
	if (r->p->nneeds)
		run.skipped =
		    kt_strdup("lines marked 'ktc: complete' are left");
	else
		rc = kt_rw_run_check(&run, r->p, text->ptr, r->f->path,
		                     r->o->worker_exe, "cuda");
	bool units = false;
	if (!rc && run.ran)
		rc = apply_run(r, &run, &units);
	if (!rc && units)
		rc = generate(r, text);
	if (!rc && units)
		rc = verify_loop(r, text);
	if (!rc && run.n) /* the param lines list what is left */
		rc = generate(r, text);
	out->ran = run.ran;
	out->run_configs = run.configs;
	out->run_problems = run.problems;
	snprintf(out->run_device, sizeof(out->run_device), "%s", run.device);
	if (!run.ran && !rc && !run.skipped)
		rc = kt_error(KT_ENOMEM, "out of memory");
	if (!rc && !run.ran && r->o->run == KT_RUN_REQUIRED)
		rc =
		    kt_error(KT_EUNSUPPORTED,
		             "--verify-run: the check on a GPU did not run: %s",
		             run.skipped);
	out->run_skipped = run.skipped;
	run.skipped = NULL;
	kt_rw_run_release(&run);
	return rc;
}

/* ---- OpenCL C: verified by running it ---- */

/* One run of the template and the original on the OpenCL backend (see
 * opencl.c); *again: a parameter was dropped, so the text changed. */
static int opencl_run(rw *r, kt_str *text, kt_rewrite_result *out, bool *again)
{
	kt_rw_run run = {0};
	kt_str both = KT_STR_INIT;
	*again = false;
	int rc = kt_rw_opencl_text(&both, r->f, text->ptr, r->f->path);
	if (rc == KT_ENOMEM)
		return rc;
	if (rc) { /* the grammar's check (finish) says why */
		kt_error_clear();
		rc = 0;
		run.skipped = kt_strdup("the template does not read back");
	} else
		rc = kt_rw_run_check(&run, r->p, both.ptr, r->f->path,
		                     r->o->worker_exe, "opencl");
	kt_str_release(&both);
	bool units = false;
	if (!rc && run.differs)
		rc = kt_error(KT_EINVALID,
		              "at its defaults the template does not compute "
		              "what the original computes: %s",
		              run.differs);
	if (!rc && run.ran)
		rc = apply_run(r, &run, &units);
	if (!rc && (units || run.n)) /* the param lines list what is left */
		rc = generate(r, text);
	*again = !rc && units;
	out->ran = !rc && run.ran;
	out->run_configs += run.configs;
	out->run_problems = run.problems;
	snprintf(out->run_device, sizeof(out->run_device), "%s", run.device);
	kt_free(out->run_skipped);
	out->run_skipped = run.skipped;
	run.skipped = NULL;
	kt_rw_run_release(&run);
	return rc;
}

/* The template's launch at its defaults against the original's: the
 * file with the plan's pragma lines and no parameter. */
static int opencl_launch(rw *r, const kt_str *text)
{
	size_t n = r->p->nparams;
	bool *on = kt_calloc(n + 1, sizeof(bool));
	kt_str orig = KT_STR_INIT;
	char *why = NULL;
	if (!on)
		return kt_error(KT_ENOMEM, "out of memory");
	memcpy(on, r->sel.on, n * sizeof(bool));
	memset(r->sel.on, 0, n * sizeof(bool));
	int rc = kt_rw_generate(&orig, r->p, r->f, &r->sel, r->diags);
	memcpy(r->sel.on, on, n * sizeof(bool));
	if (!rc)
		rc = kt_rw_opencl_launch(&why, orig.ptr, text->ptr, r->f->path);
	if (rc && rc != KT_ENOMEM) {
		kt_error_clear(); /* the run says what does not read back */
		rc = 0;
	}
	if (!rc && why)
		rc = kt_error(KT_EINVALID, "%s", why);
	kt_free(why);
	kt_free(on);
	kt_str_release(&orig);
	return rc;
}

/*
 * An OpenCL C file has no nvcc, NVRTC or PTX: the template is built on
 * the OpenCL backend at its defaults and at every value, and each of them
 * runs against the original on the same inputs (kt_rw_opencl_text). It is
 * verified only when that ran; a parameter none of whose other values is
 * right is dropped and the rest runs again.
 */
static int opencl_verify(rw *r, kt_str *text, kt_rewrite_result *out)
{
	if (r->p->nneeds) {
		out->run_skipped =
		    kt_strdup("lines marked 'ktc: complete' are left");
		return out->run_skipped ? 0
		                        : kt_error(KT_ENOMEM, "out of memory");
	}
	/* every domain whole: the run decides what stays (nothing is
	 * compiled first, as filter_domains does for CUDA) */
	for (size_t i = 0; i < r->p->nparams; i++) {
		const kt_plan_param *pp = &r->p->params[i];
		r->sel.values[i] = kt_calloc(pp->nvalues + 1, sizeof(int64_t));
		if (!r->sel.values[i])
			return kt_error(KT_ENOMEM, "out of memory");
		memcpy(r->sel.values[i], pp->values,
		       pp->nvalues * sizeof(int64_t));
		r->sel.nvalues[i] = pp->nvalues;
	}
	int rc = opencl_launch(r, text);
	for (bool again = true; again && !rc;)
		rc = opencl_run(r, text, out, &again);
	out->verified = !rc && out->ran;
	if (out->verified)
		snprintf(out->how, sizeof(out->how),
		         "built on %s at the defaults and at every value, each "
		         "run equal to the original on the same inputs; no PTX "
		         "for OpenCL C",
		         out->run_device);
	if (!rc && !out->ran && r->o->run == KT_RUN_REQUIRED)
		rc =
		    kt_error(KT_EUNSUPPORTED,
		             "the run on the OpenCL backend did not happen: %s",
		             out->run_skipped ? out->run_skipped : "?");
	return rc;
}

int kt_rewrite(kt_rewrite_result *out, const kt_plan *plan,
               const kt_rewrite_file *f, const kt_rewrite_opts *o,
               kt_diags *diags)
{
	static const kt_rewrite_opts none = {0};
	rw r;
	kt_str text = KT_STR_INIT;
	char *dir = NULL;
	memset(out, 0, sizeof(*out));
	int rc = setup(&r, plan, f, o ? o : &none, diags);
	if (!rc && kt_plan_validate(plan, "plan", f->text, f->len, diags))
		rc = kt_error(KT_EPARSE, "the plan does not fit '%s'", f->path);
	if (!rc)
		check_ties(&r);
	if (!rc)
		rc = generate(&r, &text);
	if (rc || r.o->no_verify)
		goto done;
	if (f->opencl) {
		rc = opencl_verify(&r, &text, out);
		goto settled;
	}
	dir = folder_of(f->path);
	r.vo.dir = dir;
	rc = dir ? start_original(&r) : KT_ENOMEM;
	if (!rc)
		rc = verify_loop(&r, &text);
	if (!rc && r.values_dropped) /* the param lines list what compiled */
		rc = generate(&r, &text);
	if (!rc && r.o->run != KT_RUN_OFF)
		rc = gpu_check(&r, &text, out);
	if (!rc) {
		out->verified = true;
		snprintf(out->how, sizeof(out->how),
		         "nvcc, NVRTC, PTX at the defaults equal to the "
		         "original's%s",
		         out->ran ? "; every value run against the default"
		                  : "");
	}
settled:
	if (!rc && plan->nparams && units_on(&r) == 0)
		rc = kt_error(KT_EINVALID, "no parameter of the plan survived "
		                           "verification");
done:
	if (!rc)
		rc = finish(&r, out, &text);
	kt_str_release(&text);
	kt_free(dir);
	teardown(&r);
	return rc;
}

void kt_rewrite_result_release(kt_rewrite_result *r)
{
	kt_free(r->text);
	kt_free(r->diff);
	kt_free(r->run_skipped);
	memset(r, 0, sizeof(*r));
}
