/*
 * host.c - proves that the host code compiles at every domain value of the
 * parameters it uses (nvcc, with the value defined, the other parameters
 * at their defaults). NVRTC never sees host code: without this, a value
 * that breaks the launcher (a static_assert, an array size, a template
 * argument in host code) would be kept in the domain and fail only when
 * the user builds the tuned file.
 *
 * Design choice: nvcc's fixed cost (the CUDA headers, process start) is
 * most of a compile, and host code cannot be copied into namespaces the
 * way domain.c batches device code (extern "C" functions, registration
 * macros). So, first, one compile in which the parameters are not
 * constants at all (see probe()) proves in one go every parameter whose
 * uses all take a run-time int: most block sizes and launch operands.
 * The values it cannot prove are compiled with the value defined, only
 * nvcc's front end running (-fdevice-syntax-only, which still checks the
 * host code fully); the k-th values of all such parameters share one
 * compile, `width` compiles at a time. A compile that fails proves
 * nothing about its values, so each of them is compiled again alone, and
 * only a value's own compile can drop it. The probe itself may start
 * earlier, beside the checks of the template at its defaults
 * (kt_rw_probe_start), since it needs nothing they find; its verdict is
 * taken for the same text and any subset of its parameters.
 */
#include "rewriter/rewriter.h"

#include "ktc/common.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Whether host code uses parameter i (a launch operand, a launcher's
 * expression): those uses are compiled by nvcc only. */
static bool host_used(const kt_plan *p, size_t i)
{
	for (size_t u = 0; u < p->params[i].nuses; u++)
		if (p->params[i].uses[u].host)
			return true;
	return false;
}

enum { MAX_ARGS = 2 * KT_RW_HOST_MAX_PARAMS + 4 };

/* One nvcc run: a text, its extra arguments, and the values it decides. */
typedef struct compile {
	const char *text;
	char *own; /* the text when it is the compile's own */
	const char *args[MAX_ARGS];
	size_t nargs;
	char *defs[KT_RW_HOST_MAX_PARAMS]; /* the args it owns */
	size_t ndefs;
	size_t first, n; /* its values: v's entries [first, first + n) */
	kt_nvcc_job job;
	bool ok;
	char *log; /* a failed compile's nvcc output */
} compile;

static void compile_release(compile *c)
{
	kt_free(c->own);
	kt_free(c->log);
	for (size_t k = 0; k < c->ndefs; k++)
		kt_free(c->defs[k]);
	memset(c, 0, sizeof(*c));
}

/* Adds (i, value) to v; v's arrays have room for every value. */
static int add_value(kt_rw_values *v, size_t i, int64_t value, const char *name)
{
	size_t j = v->n++;
	v->param[j] = i;
	v->value[j] = value;
	v->define[j] = kt_malloc(strlen(name) + 32);
	if (!v->define[j])
		return kt_error(KT_ENOMEM, "out of memory");
	sprintf(v->define[j], "-D%s=%" PRId64, name, value);
	v->ok[j] = true;
	return 0;
}

/* Runs the compiles, `width` at a time; each one's verdict in ok. */
static int run(compile *c, size_t n, const kt_verify_opts *o, const char *name,
               size_t width)
{
	int rc = 0;
	size_t started = 0, finished = 0;
	while (finished < started || (started < n && !rc)) {
		while (!rc && started < n && started - finished < width) {
			compile *s = &c[started++];
			rc = kt_nvcc_start(&s->job, o, s->text, strlen(s->text),
			                   name, s->args, s->nargs);
		}
		if (finished == started)
			break;
		compile *f = &c[finished++];
		int frc = kt_nvcc_finish(&f->job);
		rc = rc ? rc : frc;
		f->ok = !frc && f->job.ok;
		if (!f->ok && !frc)
			f->log = kt_strdup(f->job.log.ptr);
		kt_nvcc_job_release(&f->job);
	}
	for (size_t k = finished; k < started; k++)
		kt_nvcc_job_release(&c[k].job);
	return rc;
}

/* ---- the probe ---- */

/*
 * A parameter is proven for all its positive int values by one compile in
 * which it is not a constant: NAME stands for a call to a declared,
 * undefined `int kt_host_probe_N() noexcept`, and cicc refuses variable
 * length arrays (--no_vla). If that compiles, no use of the parameter,
 * host or device, needs a constant (no array size, template argument,
 * static_assert, case label, #if, constexpr), so a literal there is an int
 * like any other: overloads, deduction, noexcept and narrowing (a literal
 * that fits is never narrowing) see the same. Values the argument does not
 * cover are compiled one by one: 0 (a null pointer constant), negative
 * values (`x-NAME` becomes `x--5`), values past INT_MAX (a long literal);
 * and with flags that make warnings errors (a constant can warn where a
 * call does not), nothing is proven this way. `__launch_bounds__` is
 * emptied in the probe: the attribute is device code, which NVRTC
 * compiles at every value of the domain, and it needs a constant that a
 * host-used block size would otherwise fail the probe on; and
 * `constexpr TYPE NAME = P;` is read as `const` (see relax_constexpr).
 */
static bool probe_allowed(const kt_verify_opts *o)
{
	for (size_t k = 0; k < o->nflags; k++) {
		const char *f = o->flags[k];
		if (!strncmp(f, "-Werror", 7) || !strncmp(f, "--Werror", 8) ||
		    strstr(f, "diag-error") || strstr(f, "diag_error"))
			return false;
	}
	return true;
}

static bool probe_covers(int64_t v)
{
	return v > 0 && v <= INT32_MAX;
}

static bool ident_char(char ch)
{
	return ch == '_' || (ch >= 'a' && ch <= 'z') ||
	       (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

/* Whether [b, e) is integer type words and one name: `size_t kBlock`,
 * `static const unsigned long long n`, `std::int32_t k`, `auto k`. */
static bool integral_decl(const char *b, const char *e)
{
	static const char *const words[] = {
	    "static",  "inline",   "const",    "unsigned",  "signed",
	    "long",    "short",    "int",      "char",      "auto",
	    "std",     "size_t",   "ssize_t",  "ptrdiff_t", "int8_t",
	    "uint8_t", "int16_t",  "uint16_t", "int32_t",   "uint32_t",
	    "int64_t", "uint64_t", "intptr_t", "uintptr_t", NULL};
	int names = 0;
	while (b < e) {
		if (*b == ' ' || *b == '\t' || (*b == ':' && b[1] == ':')) {
			b += *b == ':' ? 2 : 1;
			continue;
		}
		const char *w = b;
		while (b < e && ident_char(*b))
			b++;
		if (b == w)
			return false;
		bool known = false;
		for (size_t i = 0; words[i] && !known; i++)
			known = strlen(words[i]) == (size_t)(b - w) &&
			        !strncmp(words[i], w, (size_t)(b - w));
		names += !known;
	}
	return names == 1;
}

/* Names relax_constexpr made `const`: their uses stand for a probe too. */
typedef struct relaxed {
	const char *name[64];
	size_t len[64];
	size_t n;
} relaxed;

/* Whether [b, e) holds name as a whole identifier. */
static bool names_in(const char *b, const char *e, const char *name, size_t n)
{
	for (const char *h = b; h + n <= e; h++)
		if (!strncmp(h, name, n) && (h == b || !ident_char(h[-1])) &&
		    (h + n == e || !ident_char(h[n])))
			return true;
	return false;
}

/* Whether t (at a `constexpr`) declares `constexpr TYPE NAME = E;` with
 * TYPE an integer type and E, on one line, naming one of the probed
 * parameters or a name relaxed before it (`constexpr int kWarps = BLOCK
 * / 32;`, `constexpr auto kBlock = ((unsigned)(BLOCK));`); NAME is then
 * added to r. */
static bool constexpr_of_param(const char *t, const kt_plan *p,
                               const bool *which, relaxed *r)
{
	size_t k = 9; /* strlen("constexpr") */
	while (t[k] && t[k] != '=' && t[k] != ';' && t[k] != '{' &&
	       t[k] != '(' && t[k] != '\n' && k < 200)
		k++;
	if (t[k] != '=' || !integral_decl(t + 9, t + k))
		return false;
	size_t e = k + 1;
	while (t[e] && t[e] != ';' && t[e] != '\n' && t[e] != '{' &&
	       t[e] != '}' && e < k + 400)
		e++;
	if (t[e] != ';')
		return false;
	bool hit = false;
	for (size_t i = 0; i < p->nparams && !hit; i++)
		hit = which[i] && names_in(t + k + 1, t + e, p->params[i].name,
		                           strlen(p->params[i].name));
	for (size_t i = 0; i < r->n && !hit; i++)
		hit = names_in(t + k + 1, t + e, r->name[i], r->len[i]);
	if (!hit)
		return false;
	/* NAME: the last word before `=` */
	size_t ne = k;
	while (ne > 9 && !ident_char(t[ne - 1]))
		ne--;
	size_t nb = ne;
	while (nb > 9 && ident_char(t[nb - 1]))
		nb--;
	if (nb < ne && r->n < sizeof(r->name) / sizeof(r->name[0])) {
		r->name[r->n] = t + nb;
		r->len[r->n++] = ne - nb;
	}
	return true;
}

/*
 * The text with `constexpr TYPE NAME = E;` (TYPE an integer type, E
 * naming a probed parameter P, or a name relaxed before it: sglang's
 * `constexpr size_t kBlockSize = BLOCK_SIZE;`, vLLM's `constexpr int32_t
 * NUM_WARPS_PER_BLOCK = BLOCK_SIZE / WARP_SIZE;` after it) written
 * `const`: a constexpr variable needs a constant initialiser, which the
 * probe's call is not, while a `const` one takes any value (an
 * integer's copy-initialisation from any int compiles); a use of NAME
 * that needs a constant (an array size, a template argument) still fails
 * the probe, as a use of P would. Columns and lines stay.
 */
static int relax_constexpr(kt_str *s, const char *text, const kt_plan *p,
                           const bool *which)
{
	const char *at = text;
	relaxed r = {0};
	int rc = 0;
	for (const char *c = strstr(text, "constexpr"); c && !rc;
	     c = strstr(c + 9, "constexpr")) {
		if ((c > text && ident_char(c[-1])) || ident_char(c[9]) ||
		    !constexpr_of_param(c, p, which, &r))
			continue;
		rc = kt_str_add(s, at, (size_t)(c - at));
		if (!rc)
			rc = kt_str_adds(s, "const    ");
		at = c + 9;
	}
	return rc ? rc : kt_str_adds(s, at);
}

/* A probe of the parameters marked in which[]. */
static int probe_make(compile *c, const kt_plan *p, const bool *which,
                      const char *text)
{
	kt_str s = KT_STR_INIT;
	int rc = 0;
	c->args[c->nargs++] = "-fdevice-syntax-only";
	c->args[c->nargs++] = "-Xcicc";
	c->args[c->nargs++] = "--no_vla";
	for (size_t i = 0; i < p->nparams && !rc; i++) {
		if (!which[i])
			continue;
		rc = kt_str_addf(&s,
		                 "__host__ __device__ int kt_host_probe_%zu() "
		                 "noexcept;\n",
		                 i);
		char *d = kt_malloc(strlen(p->params[i].name) + 48);
		if (!d && !rc)
			rc = kt_error(KT_ENOMEM, "out of memory");
		if (!rc) {
			sprintf(d, "-D%s=(kt_host_probe_%zu())",
			        p->params[i].name, i);
			c->args[c->nargs++] = d;
			c->defs[c->ndefs++] = d;
		}
	}
	if (!rc)
		rc = kt_str_adds(&s, "#undef __launch_bounds__\n"
		                     "#define __launch_bounds__(...)\n"
		                     "#line 1\n");
	if (!rc)
		rc = relax_constexpr(&s, text, p, which);
	c->own = kt_str_detach(&s);
	c->text = c->own;
	return rc;
}

int kt_rw_probe_start(kt_rw_probe *pr, const kt_plan *p, const bool *on,
                      const kt_verify_opts *o, const char *text,
                      const char *name)
{
	memset(pr, 0, sizeof(*pr));
	size_t n = 0, np = p->nparams;
	pr->which = kt_calloc(np + 1, sizeof(bool));
	if (!pr->which)
		return kt_error(KT_ENOMEM, "out of memory");
	for (size_t i = 0; i < np; i++) {
		pr->which[i] =
		    on[i] && host_used(p, i) && p->params[i].nvalues > 1;
		n += pr->which[i];
	}
	if (!n || !probe_allowed(o))
		return 0;
	compile c = {0};
	int rc = probe_make(&c, p, pr->which, text);
	if (!rc && !(pr->text = kt_strdup(text)))
		rc = kt_error(KT_ENOMEM, "out of memory");
	/* nvcc has the text and the arguments once it started */
	if (!rc)
		rc = kt_nvcc_start(&pr->job, o, c.text, strlen(c.text), name,
		                   c.args, c.nargs);
	pr->started = rc == 0;
	compile_release(&c);
	return rc;
}

void kt_rw_probe_release(kt_rw_probe *pr)
{
	if (pr->started)
		kt_nvcc_job_release(&pr->job);
	kt_free(pr->which);
	kt_free(pr->text);
	memset(pr, 0, sizeof(*pr));
}

/* The early probe's verdict on hostp in text: 1 it compiled (every
 * parameter of hostp proven), 0 it failed on exactly hostp, -1 it does not
 * apply (another text, a parameter it lacks) or failed on more. */
static int early_verdict(kt_rw_probe *pr, const bool *hostp, size_t np,
                         const char *text, int *rc)
{
	*rc = 0;
	if (!pr || !pr->started || strcmp(pr->text, text))
		return -1;
	bool same = true;
	for (size_t i = 0; i < np; i++) {
		if (hostp[i] && !pr->which[i])
			return -1;
		same = same && hostp[i] == pr->which[i];
	}
	*rc = kt_nvcc_finish(&pr->job);
	bool ok = !*rc && pr->job.ok;
	kt_nvcc_job_release(&pr->job);
	pr->started = false;
	return *rc ? -1 : ok ? 1 : same ? 0 : -1;
}

/* Marks in proven[] the host-used parameters a probe proves. */
static int probe(bool *proven, const bool *hostp, const kt_plan *p,
                 const kt_verify_opts *o, const char *text, const char *name,
                 size_t width, kt_rw_probe *early)
{
	size_t n = 0, np = p->nparams;
	for (size_t i = 0; i < np; i++)
		n += hostp[i];
	if (!n || !probe_allowed(o))
		return 0;
	int rc = 0, verdict = early_verdict(early, hostp, np, text, &rc);
	if (rc || verdict == 1) {
		if (verdict == 1)
			memcpy(proven, hostp, np * sizeof(bool));
		return rc;
	}
	compile *c = kt_calloc(np + 1, sizeof(compile));
	bool *one = kt_calloc(np + 1, sizeof(bool));
	rc = c && one ? 0 : kt_error(KT_ENOMEM, "out of memory");
	/* the early probe of these very parameters failed: no need to
	 * compile them together again */
	if (!rc && verdict < 0)
		rc = probe_make(&c[0], p, hostp, text);
	if (!rc && verdict < 0)
		rc = run(c, 1, o, name, 1);
	if (!rc && c[0].ok)
		memcpy(proven, hostp, np * sizeof(bool));
	/* together they fail: each alone */
	size_t m = 0;
	for (size_t i = 0; i < np && !rc && !c[0].ok && n > 1; i++) {
		if (!hostp[i])
			continue;
		memset(one, 0, np * sizeof(bool));
		one[i] = true;
		c[1 + m].first = i;
		rc = probe_make(&c[1 + m++], p, one, text);
	}
	if (!rc && m)
		rc = run(c + 1, m, o, name, width);
	for (size_t k = 0; k < m && !rc; k++)
		proven[c[1 + k].first] = c[1 + k].ok;
	for (size_t k = 0; c && k < m + 1; k++)
		compile_release(&c[k]);
	kt_free(c);
	kt_free(one);
	return rc;
}

/* ---- values one by one ---- */

int kt_rw_host_values(kt_rw_values *v, const kt_plan *p, const bool *on,
                      int64_t *const *values, const size_t *nvalues,
                      const kt_verify_opts *o, const char *text,
                      const char *name, int width, kt_rw_probe *early)
{
	memset(v, 0, sizeof(*v));
	size_t np = p->nparams, total = 0, nhost = 0;
	bool *hostp = kt_calloc(np + 1, sizeof(bool));
	bool *proven = kt_calloc(np + 1, sizeof(bool));
	int rc = hostp && proven ? 0 : kt_error(KT_ENOMEM, "out of memory");
	for (size_t i = 0; i < np && !rc; i++)
		if (on[i] && host_used(p, i) && nvalues[i] > 1) {
			hostp[i] = true;
			total += nvalues[i];
			nhost++;
		}
	if (!rc && nhost > KT_RW_HOST_MAX_PARAMS)
		rc = kt_error(KT_EINVALID,
		              "%zu parameters used in host code: at most %d",
		              nhost, KT_RW_HOST_MAX_PARAMS);
	size_t w = width > 0 ? (size_t)width : 1;
	if (!rc)
		rc = probe(proven, hostp, p, o, text, name, w, early);
	if (rc || !total) {
		kt_free(hostp);
		kt_free(proven);
		return rc;
	}
	v->param = kt_calloc(total, sizeof(size_t));
	v->value = kt_calloc(total, sizeof(int64_t));
	v->define = kt_calloc(total, sizeof(char *));
	v->ok = kt_calloc(total, sizeof(bool));
	v->log = kt_calloc(total, sizeof(char *));
	compile *c = kt_calloc(2 * total + 1, sizeof(compile));
	rc = v->param && v->value && v->define && v->ok && v->log && c
	         ? 0
	         : kt_error(KT_ENOMEM, "out of memory");
	/* round k: the k-th value still to prove of each parameter */
	size_t nc = 0;
	for (size_t k = 0; k < total && !rc; k++) {
		compile *r = &c[nc];
		r->first = v->n;
		r->text = text;
		r->args[r->nargs++] = "-fdevice-syntax-only";
		for (size_t i = 0; i < np && !rc; i++) {
			if (!hostp[i])
				continue;
			size_t m = 0;
			for (size_t x = 0; x < nvalues[i] && !rc; x++) {
				int64_t val = values[i][x];
				if (val == p->params[i].def ||
				    (proven[i] && probe_covers(val)) ||
				    m++ != k)
					continue;
				rc = add_value(v, i, val, p->params[i].name);
				r->args[r->nargs++] = v->define[v->n - 1];
			}
		}
		r->n = v->n - r->first;
		if (!r->n) {
			r->nargs = 0;
			break;
		}
		nc++;
	}
	if (!rc)
		rc = run(c, nc, o, name, w);
	/* a failed round's values, each alone */
	size_t na = 0;
	compile *alone = c + nc;
	for (size_t k = 0; k < nc && !rc; k++) {
		if (c[k].ok)
			continue;
		if (c[k].n == 1) {
			v->ok[c[k].first] = false;
			v->log[c[k].first] = c[k].log;
			c[k].log = NULL;
			continue;
		}
		for (size_t x = 0; x < c[k].n; x++) {
			compile *a = &alone[na++];
			a->first = c[k].first + x;
			a->n = 1;
			a->text = text;
			a->args[a->nargs++] = "-fdevice-syntax-only";
			a->args[a->nargs++] = v->define[a->first];
		}
	}
	if (!rc && na)
		rc = run(alone, na, o, name, w);
	for (size_t k = 0; k < na && !rc; k++)
		if (!alone[k].ok) {
			v->ok[alone[k].first] = false;
			v->log[alone[k].first] = alone[k].log;
			alone[k].log = NULL;
		}
	for (size_t k = 0; c && k < nc + na; k++)
		compile_release(&c[k]);
	kt_free(c);
	kt_free(hostp);
	kt_free(proven);
	return rc;
}
