/*
 * parse.c - the directives of one `#pragma kt` block, parsed into a model.
 *
 * Each directive is parsed on its own: a syntax error ends that directive
 * (one diagnostic per line, since what follows an error is guesswork) and
 * the next line is parsed anyway, so one run reports every bad line. Names
 * are left unresolved; build.c resolves and checks them once the whole
 * block is known, because directives may use names declared below them.
 */
#include "grammar/grammar.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

typedef struct bparser {
	gram *g;
	kt_model *m;
	lexer lx;
	size_t cap_params, cap_sets, cap_constraints, cap_problems, cap_args;
	size_t directive_off; /* the directive name of the current line */
	kt_loc kernel_loc;    /* the `kernel` directive, once seen */
	size_t num_end;       /* end of the last number parse_number read */
} bparser;

/* A domain clause's outcome, shared by `param` and `problem`. */
typedef struct domain {
	kt_value *values;
	size_t nvalues, cap;
	size_t default_index;
} domain;

static bool error_at_tok(bparser *b, const char *what)
{
	lexer *lx = &b->lx;
	if (lx->tok.kind != TOK_BAD)
		gram_diag(b->g, KT_DIAG_ERROR, lx->tok.off, lx->tok.len,
		          "expected %s, found %s", what, lex_describe(lx));
	return false;
}

/* The current identifier as an arena string, consumed; NULL on error. */
static const char *expect_name(bparser *b, const char *what, size_t *off)
{
	lexer *lx = &b->lx;
	if (lx->tok.kind != TOK_IDENT) {
		error_at_tok(b, what);
		return NULL;
	}
	*off = lx->tok.off;
	const char *s =
	    gram_strndup(b->g, b->g->text + lx->tok.off, lx->tok.len);
	lex_next(lx);
	return s;
}

static const char *tok_text(bparser *b)
{
	return gram_strndup(b->g, b->g->text + b->lx.tok.off, b->lx.tok.len);
}

/* Reports an unknown clause name with the closest known one. */
static bool unknown_clause(bparser *b, const char *directive,
                           const char *const *known, size_t n)
{
	lexer *lx = &b->lx;
	if (lx->tok.kind == TOK_BAD)
		return false;
	if (lx->tok.kind != TOK_IDENT) {
		gram_diag(b->g, KT_DIAG_ERROR, lx->tok.off, lx->tok.len,
		          "unexpected %s in '%s'", lex_describe(lx), directive);
		return false;
	}
	const char *sug =
	    gram_suggest(b->g->text + lx->tok.off, lx->tok.len, known, n);
	gram_diag(b->g, KT_DIAG_ERROR, lx->tok.off, lx->tok.len,
	          "unknown clause '%s' in '%s'%s%s%s", tok_text(b), directive,
	          sug ? "; did you mean '" : "", sug ? sug : "",
	          sug ? "'?" : "");
	return false;
}

static bool duplicate_clause(bparser *b, const char *clause)
{
	gram_diag(b->g, KT_DIAG_ERROR, b->lx.tok.off, b->lx.tok.len,
	          "duplicate '%s' clause", clause);
	return false;
}

/* number = [ "-" | "+" ] ( INT | FLOAT ) */
static bool parse_number(bparser *b, kt_value *out, size_t *off)
{
	lexer *lx = &b->lx;
	*off = lx->tok.off;
	bool neg = lex_is(lx, '-');
	if (neg || lex_is(lx, '+'))
		lex_next(lx);
	if (lx->tok.kind == TOK_INT)
		*out = kt_int(neg ? -lx->tok.ival : lx->tok.ival);
	else if (lx->tok.kind == TOK_FLOAT)
		*out = kt_float(neg ? -lx->tok.fval : lx->tok.fval);
	else
		return error_at_tok(b, "a number");
	lex_next(lx);
	b->num_end = lx->prev_end;
	return true;
}

static bool parse_integer(bparser *b, int64_t *out, size_t *off,
                          const char *what)
{
	kt_value v;
	if (!parse_number(b, &v, off))
		return false;
	if (v.is_float) {
		gram_diag(b->g, KT_DIAG_ERROR, *off, b->num_end - *off,
		          "%s must be an integer", what);
		return false;
	}
	*out = v.i;
	return true;
}

/* "(" number ")" */
static bool parse_paren_number(bparser *b, kt_value *out, size_t *off)
{
	lex_next(&b->lx); /* the clause name */
	return lex_expect(&b->lx, '(', "'('") && parse_number(b, out, off) &&
	       lex_expect(&b->lx, ')', "')'");
}

static bool value_eq(kt_value a, kt_value b)
{
	if (!a.is_float && !b.is_float)
		return a.i == b.i;
	return kt_value_as_double(a) == kt_value_as_double(b);
}

static void value_text(char *buf, size_t n, kt_value v)
{
	if (v.is_float)
		snprintf(buf, n, "%g", v.f);
	else
		snprintf(buf, n, "%lld", (long long)v.i);
}

static bool add_value(bparser *b, domain *d, kt_value v, size_t off,
                      const char *name)
{
	if (d->nvalues >= GRAM_MAX_DOMAIN) {
		gram_diag(b->g, KT_DIAG_ERROR, off, 1,
		          "domain of '%s' has more than %d values", name,
		          GRAM_MAX_DOMAIN);
		return false;
	}
	for (size_t i = 0; i < d->nvalues; i++) {
		if (value_eq(d->values[i], v)) {
			char buf[64];
			value_text(buf, sizeof(buf), v);
			gram_diag(b->g, KT_DIAG_ERROR, off, b->num_end - off,
			          "duplicate value %s in the domain of '%s'",
			          buf, name);
			return false;
		}
	}
	GRAM_PUSH(b->g, d->values, d->nvalues, d->cap, v);
	return true;
}

/* "values" "(" number { "," number } ")" */
static bool parse_values(bparser *b, domain *d, const char *name)
{
	lexer *lx = &b->lx;
	size_t clause = lx->tok.off;
	lex_next(lx);
	if (!lex_expect(lx, '(', "'('"))
		return false;
	if (lex_is(lx, ')')) {
		gram_diag(b->g, KT_DIAG_ERROR, clause, lx->tok.off + 1 - clause,
		          "empty domain for '%s'", name);
		return false;
	}
	for (;;) {
		kt_value v;
		size_t off;
		if (!parse_number(b, &v, &off) ||
		    !add_value(b, d, v, off, name))
			return false;
		if (lex_is(lx, ')'))
			break;
		if (!lex_expect(lx, ',', "',' or ')'"))
			return false;
	}
	lex_next(lx);
	/* One float makes a float domain, so every value has one type. */
	bool any_float = false;
	for (size_t i = 0; i < d->nvalues; i++)
		any_float |= d->values[i].is_float;
	for (size_t i = 0; any_float && i < d->nvalues; i++)
		d->values[i] = kt_float(kt_value_as_double(d->values[i]));
	return true;
}

/* "range" "(" INT "," INT [ "," INT ] ")" */
static bool parse_range(bparser *b, domain *d, const char *name)
{
	lexer *lx = &b->lx;
	size_t clause = lx->tok.off, off, step_off = 0;
	int64_t lo, hi, step = 1;
	lex_next(lx);
	if (!lex_expect(lx, '(', "'('") ||
	    !parse_integer(b, &lo, &off, "a range bound") ||
	    !lex_expect(lx, ',', "','") ||
	    !parse_integer(b, &hi, &off, "a range bound"))
		return false;
	if (lex_is(lx, ',')) {
		lex_next(lx);
		if (!parse_integer(b, &step, &step_off, "a range step"))
			return false;
	}
	if (!lex_expect(lx, ')', "')'"))
		return false;
	size_t len = lx->prev_end - clause;
	if (step_off && step <= 0) {
		gram_diag(b->g, KT_DIAG_ERROR, step_off, b->num_end - step_off,
		          "range step must be positive, not %lld",
		          (long long)step);
		return false;
	}
	if (lo > hi) {
		gram_diag(b->g, KT_DIAG_ERROR, clause, len,
		          "empty domain for '%s': range from %lld down to %lld",
		          name, (long long)lo, (long long)hi);
		return false;
	}
	uint64_t n = ((uint64_t)hi - (uint64_t)lo) / (uint64_t)step + 1;
	if (n > GRAM_MAX_DOMAIN) {
		gram_diag(b->g, KT_DIAG_ERROR, clause, len,
		          "domain of '%s' has %llu values; at most %d are "
		          "allowed",
		          name, (unsigned long long)n, GRAM_MAX_DOMAIN);
		return false;
	}
	for (uint64_t i = 0; i < n; i++)
		GRAM_PUSH(b->g, d->values, d->nvalues, d->cap,
		          kt_int((int64_t)((uint64_t)lo + i * (uint64_t)step)));
	return true;
}

static bool is_pow2(int64_t v)
{
	return v > 0 && (v & (v - 1)) == 0;
}

/* "pow2" "(" INT "," INT ")" */
static bool parse_pow2(bparser *b, domain *d, const char *name)
{
	lexer *lx = &b->lx;
	size_t clause = lx->tok.off, lo_off, hi_off;
	int64_t lo, hi;
	lex_next(lx);
	if (!lex_expect(lx, '(', "'('") ||
	    !parse_integer(b, &lo, &lo_off, "a pow2 bound"))
		return false;
	size_t lo_end = b->num_end;
	if (!lex_expect(lx, ',', "','") ||
	    !parse_integer(b, &hi, &hi_off, "a pow2 bound"))
		return false;
	size_t hi_end = b->num_end;
	if (!lex_expect(lx, ')', "')'"))
		return false;
	bool ok = true;
	for (int i = 0; i < 2; i++) {
		int64_t v = i ? hi : lo;
		if (!is_pow2(v)) {
			gram_diag(b->g, KT_DIAG_ERROR, i ? hi_off : lo_off,
			          i ? hi_end - hi_off : lo_end - lo_off,
			          "pow2 bound %lld is not a power of two",
			          (long long)v);
			ok = false;
		}
	}
	if (ok && lo > hi) {
		gram_diag(b->g, KT_DIAG_ERROR, clause, lx->prev_end - clause,
		          "empty domain for '%s': pow2 from %lld down to %lld",
		          name, (long long)lo, (long long)hi);
		ok = false;
	}
	for (int64_t v = lo; ok && v <= hi; v *= 2) {
		GRAM_PUSH(b->g, d->values, d->nvalues, d->cap, kt_int(v));
		if (v > INT64_MAX / 2)
			break;
	}
	return ok;
}

static bool check_default(bparser *b, domain *d, kt_value def, size_t off,
                          size_t end, const char *name)
{
	for (size_t i = 0; i < d->nvalues; i++) {
		if (value_eq(d->values[i], def)) {
			d->default_index = i;
			return true;
		}
	}
	char buf[64];
	value_text(buf, sizeof(buf), def);
	gram_diag(b->g, KT_DIAG_ERROR, off, end - off,
	          "default %s is not in the domain of '%s'", buf, name);
	return false;
}

/* domain-clauses = { "values"(...) | "range"(...) | "pow2"(...) |
 * "default"(number) } */
static bool parse_domain(bparser *b, domain *d, const char *name,
                         size_t name_off, const char *directive)
{
	static const char *const clauses[] = {"values", "range", "pow2",
	                                      "default"};
	lexer *lx = &b->lx;
	bool have_domain = false, have_default = false;
	kt_value def = kt_int(0);
	size_t def_off = 0, def_end = 0;
	while (lx->tok.kind != TOK_EOL) {
		int k = -1;
		for (int i = 0; i < 4; i++)
			if (lex_is_ident(lx, clauses[i]))
				k = i;
		if (k < 0)
			return unknown_clause(b, directive, clauses, 4);
		if (k == 3) {
			if (have_default)
				return duplicate_clause(b, "default");
			have_default = true;
			if (!parse_paren_number(b, &def, &def_off))
				return false;
			def_end = b->num_end;
			continue;
		}
		if (have_domain) {
			gram_diag(b->g, KT_DIAG_ERROR, lx->tok.off, lx->tok.len,
			          "'%s' has a second domain clause", name);
			return false;
		}
		have_domain = true;
		bool ok = k == 0   ? parse_values(b, d, name)
		          : k == 1 ? parse_range(b, d, name)
		                   : parse_pow2(b, d, name);
		if (!ok)
			return false;
	}
	if (!have_domain) {
		gram_diag(b->g, KT_DIAG_ERROR, name_off, strlen(name),
		          "'%s' has no domain; expected values(...), "
		          "range(...) or pow2(...)",
		          name);
		return false;
	}
	return !have_default ||
	       check_default(b, d, def, def_off, def_end, name);
}

/* param = "param" NAME domain-clauses */
static bool parse_param(bparser *b)
{
	size_t off;
	lex_next(&b->lx);
	const char *name = expect_name(b, "a parameter name", &off);
	domain d = {0};
	if (!name)
		return false;
	/* Declared even when its domain is bad, so uses of it stay quiet. */
	bool ok = parse_domain(b, &d, name, off, "param");
	kt_param p = {.name = name,
	              .values = d.values,
	              .nvalues = d.nvalues,
	              .default_index = d.default_index,
	              .sym = -1,
	              .loc = gram_loc(b->g, off)};
	GRAM_PUSH(b->g, b->m->params, b->m->nparams, b->cap_params, p);
	return ok;
}

/* problem = "problem" NAME domain-clauses */
static bool parse_problem(bparser *b)
{
	size_t off;
	lex_next(&b->lx);
	const char *name = expect_name(b, "a problem variable name", &off);
	domain d = {0};
	if (!name)
		return false;
	bool ok = parse_domain(b, &d, name, off, "problem");
	kt_problem p = {.name = name,
	                .values = d.values,
	                .nvalues = d.nvalues,
	                .default_index = d.default_index,
	                .sym = -1,
	                .loc = gram_loc(b->g, off)};
	GRAM_PUSH(b->g, b->m->problems, b->m->nproblems, b->cap_problems, p);
	return ok;
}

/* set = "set" NAME "=" expr */
static bool parse_set(bparser *b)
{
	size_t off;
	lex_next(&b->lx);
	const char *name = expect_name(b, "a name", &off);
	if (!name)
		return false;
	kt_expr *e = NULL;
	if (lex_expect(&b->lx, '=', "'='"))
		e = expr_parse(&b->lx, false);
	/* Declared even when its expression is bad, like parameters. */
	kt_set s = {
	    .name = name, .expr = e, .sym = -1, .loc = gram_loc(b->g, off)};
	GRAM_PUSH(b->g, b->m->sets, b->m->nsets, b->cap_sets, s);
	return e != NULL;
}

/* The text from off to end with continuations and blank runs as one space. */
static const char *squeeze(gram *g, size_t off, size_t end)
{
	char *out = gram_alloc(g, end - off + 1);
	size_t n = 0;
	for (size_t i = off; i < end; i++) {
		char c = g->text[i];
		if (c == '\\' && i + 1 < end &&
		    (g->text[i + 1] == '\n' || g->text[i + 1] == '\r'))
			c = ' ';
		if (isspace((unsigned char)c)) {
			if (n > 0 && out[n - 1] != ' ')
				out[n++] = ' ';
			continue;
		}
		out[n++] = c;
	}
	while (n > 0 && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
	return out;
}

/* constraint = "constraint" expr */
static bool parse_constraint(bparser *b)
{
	lex_next(&b->lx);
	size_t off = b->lx.tok.off;
	kt_expr *e = expr_parse(&b->lx, false);
	if (!e)
		return false;
	kt_constraint c = {.expr = e,
	                   .text = squeeze(b->g, off, b->lx.prev_end),
	                   .loc = e->loc};
	GRAM_PUSH(b->g, b->m->constraints, b->m->nconstraints,
	          b->cap_constraints, c);
	return true;
}

/* dims = "(" expr [ "," expr [ "," expr ] ] ")" */
static bool parse_dims(bparser *b, kt_expr **dims, const char *clause)
{
	lexer *lx = &b->lx;
	lex_next(lx);
	if (!lex_expect(lx, '(', "'('"))
		return false;
	for (int i = 0;; i++) {
		if (i == 3) {
			gram_diag(b->g, KT_DIAG_ERROR, lx->tok.off, lx->tok.len,
			          "'%s' takes at most 3 dimensions", clause);
			return false;
		}
		if (!(dims[i] = expr_parse(lx, false)))
			return false;
		if (lex_is(lx, ')'))
			break;
		if (!lex_expect(lx, ',', "',' or ')'"))
			return false;
	}
	lex_next(lx);
	return true;
}

static bool previous_directive(bparser *b, const char *what, kt_loc prev)
{
	gram_diag(b->g, KT_DIAG_ERROR, b->directive_off, strlen(what),
	          "duplicate '%s' directive", what);
	gram_diag_at(b->g, KT_DIAG_NOTE, prev, (int)strlen(what),
	             "the first '%s' is here", what);
	return false;
}

/* launch = "launch" { "grid" dims | "block" dims | "smem" "(" expr ")"
 *                    | "pdl" "(" expr ")" } */
static bool parse_launch_clauses(bparser *b)
{
	static const char *const clauses[] = {"grid", "block", "smem", "pdl"};
	lexer *lx = &b->lx;
	kt_launch *l = &b->m->launch;
	if (l->present)
		return previous_directive(b, "launch", l->loc);
	l->present = true;
	l->loc = gram_loc(b->g, b->directive_off);
	lex_next(lx);
	while (lx->tok.kind != TOK_EOL) {
		int k = -1;
		for (int i = 0; i < 4; i++)
			if (lex_is_ident(lx, clauses[i]))
				k = i;
		if (k < 0)
			return unknown_clause(b, "launch", clauses, 4);
		kt_expr **one = k == 2 ? &l->smem : k == 3 ? &l->pdl : NULL;
		if ((k == 0 && l->grid[0]) || (k == 1 && l->block[0]) ||
		    (one && *one))
			return duplicate_clause(b, clauses[k]);
		if (k < 2 && !parse_dims(b, k ? l->block : l->grid, clauses[k]))
			return false;
		if (one) {
			lex_next(lx);
			if (!lex_expect(lx, '(', "'('") ||
			    !(*one = expr_parse(lx, false)) ||
			    !lex_expect(lx, ')', "')'"))
				return false;
		}
	}
	if (!l->grid[0] || !l->block[0]) {
		gram_diag(b->g, KT_DIAG_ERROR, b->directive_off, 6,
		          "'launch' needs %s",
		          !l->grid[0] ? "grid(...)" : "block(...)");
		return false;
	}
	return true;
}

/* A launch that failed keeps none of its expressions: they would only
 * draw more diagnostics about names. */
static bool parse_launch(bparser *b)
{
	kt_launch *l = &b->m->launch;
	bool was_present = l->present;
	if (parse_launch_clauses(b))
		return true;
	if (!was_present)
		*l = (kt_launch){.present = true, .loc = l->loc};
	return false;
}

static void init_directive_defaults(kt_model *m)
{
	m->verify.rtol = m->verify.atol = m->verify.match = -1;
	m->objective.kind = KT_OBJ_TIME;
}

/* The directives below parse_launch stand after the table's users. */
static bool parse_arg(bparser *b);
static bool parse_verify(bparser *b);
static bool parse_objective(bparser *b);
static bool parse_kernel(bparser *b);

static const struct directive {
	const char *name;
	bool (*parse)(bparser *b);
} directives[] = {
    {"param", parse_param},           {"set", parse_set},
    {"constraint", parse_constraint}, {"problem", parse_problem},
    {"launch", parse_launch},         {"arg", parse_arg},
    {"verify", parse_verify},         {"objective", parse_objective},
    {"kernel", parse_kernel},
};
enum { NDIRECTIVES = sizeof(directives) / sizeof(directives[0]) };

static void unknown_directive(bparser *b)
{
	lexer *lx = &b->lx;
	const char *names[NDIRECTIVES];
	for (size_t i = 0; i < NDIRECTIVES; i++)
		names[i] = directives[i].name;
	const char *sug = gram_suggest(b->g->text + lx->tok.off, lx->tok.len,
	                               names, NDIRECTIVES);
	if (sug)
		gram_diag(b->g, KT_DIAG_ERROR, lx->tok.off, lx->tok.len,
		          "unknown directive '%s'; did you mean '%s'?",
		          tok_text(b), sug);
	else
		gram_diag(b->g, KT_DIAG_ERROR, lx->tok.off, lx->tok.len,
		          "unknown directive '%s'; expected param, set, "
		          "constraint, problem, launch, arg, verify, objective "
		          "or kernel",
		          tok_text(b));
}

static void parse_line(bparser *b, const pragma_line *pl)
{
	lexer *lx = &b->lx;
	lex_init(lx, b->g, pl->body, pl->end);
	if (lx->tok.kind == TOK_EOL) {
		gram_diag(b->g, KT_DIAG_ERROR, pl->hash, 1,
		          "empty '#pragma kt' directive");
		return;
	}
	if (lx->tok.kind != TOK_IDENT) {
		error_at_tok(b, "a directive name");
		return;
	}
	b->directive_off = lx->tok.off;
	const struct directive *d = NULL;
	for (size_t i = 0; i < NDIRECTIVES; i++)
		if (lex_is_ident(lx, directives[i].name))
			d = &directives[i];
	if (!d) {
		unknown_directive(b);
		return;
	}
	if (d->parse(b) && lx->tok.kind != TOK_EOL && lx->tok.kind != TOK_BAD)
		gram_diag(b->g, KT_DIAG_ERROR, lx->tok.off, lx->tok.len,
		          "unexpected %s after the '%s' directive",
		          lex_describe(lx), d->name);
}

void parse_block(gram *g, kt_model *m, const pragma_line *lines, size_t n)
{
	bparser b = {.g = g, .m = m};
	init_directive_defaults(m);
	for (size_t i = 0; i < n; i++)
		parse_line(&b, &lines[i]);
}

/* C type words that may combine: "unsigned long long", "signed char". */
static bool is_type_word(const lexer *lx)
{
	static const char *const words[] = {"unsigned", "signed", "short",
	                                    "long",     "int",    "char"};
	for (size_t i = 0; i < 6; i++)
		if (lex_is_ident(lx, words[i]))
			return true;
	return false;
}

/* type = TYPE-NAME | C-TYPE-WORD { C-TYPE-WORD } */
static bool parse_type(bparser *b, kt_type *out)
{
	lexer *lx = &b->lx;
	if (lx->tok.kind != TOK_IDENT)
		return error_at_tok(b, "a type");
	size_t off = lx->tok.off;
	char buf[64] = "";
	if (!is_type_word(lx)) {
		snprintf(buf, sizeof(buf), "%.*s", (int)lx->tok.len,
		         b->g->text + off);
		lex_next(lx);
	}
	while (is_type_word(lx)) {
		size_t n = strlen(buf);
		snprintf(buf + n, sizeof(buf) - n, "%s%.*s", n ? " " : "",
		         (int)lx->tok.len, b->g->text + lx->tok.off);
		lex_next(lx);
	}
	int t = gram_type_lookup(buf);
	if (t >= 0) {
		*out = (kt_type)t;
		return true;
	}
	const char *sug = gram_suggest(buf, strlen(buf), gram_type_spellings,
	                               gram_ntype_spellings);
	gram_diag(b->g, KT_DIAG_ERROR, off, lx->prev_end - off,
	          "unknown type '%s'%s%s%s", buf, sug ? "; did you mean '" : "",
	          sug ? sug : "", sug ? "'?" : "");
	return false;
}

/* The default init of a buffer: random in a range that fits its type. */
static kt_init default_init(kt_type t)
{
	kt_init in = {.kind = KT_INIT_RANDOM, .lo = -1, .hi = 1};
	if (!kt_type_is_float(t)) {
		bool is_unsigned = t >= KT_TYPE_U8;
		in.lo = is_unsigned ? 0 : -100;
		in.hi = 100;
	}
	return in;
}

static bool check_fits(bparser *b, kt_type t, double v, size_t off, size_t end)
{
	double lo, hi;
	gram_type_range(t, &lo, &hi);
	if (v >= lo && v <= hi && (kt_type_is_float(t) || v == floor(v)))
		return true;
	gram_diag(b->g, KT_DIAG_ERROR, off, end - off,
	          "init value %g does not fit type '%s'", v, kt_type_name(t));
	return false;
}

/* "random" "(" number "," number ")" */
static bool parse_random(bparser *b, kt_init *in, kt_type t)
{
	lexer *lx = &b->lx;
	kt_value lo, hi;
	size_t lo_off, hi_off, lo_end;
	lex_next(lx);
	if (!lex_expect(lx, '(', "'('") || !parse_number(b, &lo, &lo_off))
		return false;
	lo_end = b->num_end;
	if (!lex_expect(lx, ',', "','") || !parse_number(b, &hi, &hi_off) ||
	    !lex_expect(lx, ')', "')'"))
		return false;
	in->lo = kt_value_as_double(lo);
	in->hi = kt_value_as_double(hi);
	if (in->lo > in->hi) {
		gram_diag(b->g, KT_DIAG_ERROR, lo_off, b->num_end - lo_off,
		          "random(%g, %g) is an empty range", in->lo, in->hi);
		return false;
	}
	return check_fits(b, t, in->lo, lo_off, lo_end) &&
	       check_fits(b, t, in->hi, hi_off, b->num_end);
}

/* init = "init" "(" ( random | "zeros" | "iota" | "value" "(" number ")" ) ")"
 */
static bool parse_init(bparser *b, kt_init *in, kt_type t)
{
	static const char *const kinds[] = {"random", "zeros", "iota", "value"};
	lexer *lx = &b->lx;
	lex_next(lx);
	if (!lex_expect(lx, '(', "'('"))
		return false;
	int k = -1;
	for (int i = 0; i < 4; i++)
		if (lex_is_ident(lx, kinds[i]))
			k = i;
	if (k < 0)
		return unknown_clause(b, "init", kinds, 4);
	in->kind = (kt_init_kind)k;
	if (k == KT_INIT_RANDOM) {
		if (!parse_random(b, in, t))
			return false;
	} else if (k == KT_INIT_VALUE) {
		kt_value v;
		size_t off;
		if (!parse_paren_number(b, &v, &off))
			return false;
		in->value = kt_value_as_double(v);
		if (!check_fits(b, t, in->value, off, b->num_end))
			return false;
	} else {
		lex_next(lx);
	}
	return lex_expect(lx, ')', "')'");
}

static bool parse_direction(bparser *b, kt_arg *a)
{
	static const char *const dirs[] = {"in", "out", "inout"};
	lexer *lx = &b->lx;
	for (int i = 0; i < 3; i++) {
		if (lex_is_ident(lx, dirs[i])) {
			a->dir = (kt_arg_dir)i;
			lex_next(lx);
			return true;
		}
	}
	if (lex_is(lx, '=')) {
		gram_diag(b->g, KT_DIAG_ERROR, lx->tok.off, 1,
		          "scalar argument '%s' cannot have a count; write "
		          "'arg %s TYPE = EXPR'",
		          a->name, a->name);
		return false;
	}
	if (lx->tok.kind == TOK_BAD)
		return false;
	gram_diag(b->g, KT_DIAG_ERROR, lx->tok.off, lx->tok.len,
	          "missing direction of buffer '%s': expected in, out or "
	          "inout, found %s",
	          a->name, lex_describe(lx));
	return false;
}

/* buffer = "[" expr "]" ( "in" | "out" | "inout" ) [ init ] */
static bool parse_buffer(bparser *b, kt_arg *a)
{
	lexer *lx = &b->lx;
	lex_next(lx);
	if (!(a->count = expr_parse(lx, false)) ||
	    !lex_expect(lx, ']', "']'") || !parse_direction(b, a))
		return false;
	a->init = default_init(a->type);
	if (!lex_is_ident(lx, "init")) {
		static const char *const clauses[] = {"init"};
		if (lx->tok.kind == TOK_IDENT)
			return unknown_clause(b, "arg", clauses, 1);
		return true;
	}
	size_t init_off = lx->tok.off;
	if (!parse_init(b, &a->init, a->type))
		return false;
	if (lex_is_ident(lx, "init"))
		return duplicate_clause(b, "init");
	if (a->dir == KT_ARG_OUT)
		gram_diag(b->g, KT_DIAG_WARNING, init_off, 4,
		          "init of output '%s' is ignored: outputs are "
		          "poisoned before each run",
		          a->name);
	return true;
}

/* arg = "arg" NAME type ( buffer | "=" expr ) */
static bool parse_arg(bparser *b)
{
	lexer *lx = &b->lx;
	size_t off;
	lex_next(lx);
	kt_arg a = {0};
	if (!(a.name = expect_name(b, "an argument name", &off)) ||
	    !parse_type(b, &a.type))
		return false;
	a.loc = gram_loc(b->g, off);
	if (lex_is(lx, '[')) {
		if (!parse_buffer(b, &a))
			return false;
	} else if (lex_is(lx, '=')) {
		lex_next(lx);
		if (!(a.value = expr_parse(lx, false)))
			return false;
	} else {
		return error_at_tok(b, "'[' (a buffer) or '=' (a scalar)");
	}
	GRAM_PUSH(b->g, b->m->args, b->m->nargs, b->cap_args, a);
	return true;
}

static bool check_tolerance(bparser *b, int k, double v, size_t off)
{
	static const char *const names[] = {"rtol", "atol", "match"};
	if (k == 2 ? (v >= 0 && v <= 1) : v >= 0)
		return true;
	gram_diag(b->g, KT_DIAG_ERROR, off, b->num_end - off,
	          k == 2 ? "%s(%g) is out of range: expected a fraction in "
	                   "[0, 1]"
	                 : "%s(%g) is out of range: expected a value >= 0",
	          names[k], v);
	return false;
}

/* verify = "verify" ( "off" | { "rtol" "(" number ")" | "atol" "(" number ")"
 *                            | "match" "(" number ")" } ) */
static bool parse_verify(bparser *b)
{
	static const char *const clauses[] = {"rtol", "atol", "match", "off"};
	lexer *lx = &b->lx;
	kt_verify *v = &b->m->verify;
	if (v->loc.line)
		return previous_directive(b, "verify", v->loc);
	v->loc = gram_loc(b->g, b->directive_off);
	lex_next(lx);
	if (lex_is_ident(lx, "off")) {
		v->off = true;
		lex_next(lx);
		return true;
	}
	while (lx->tok.kind != TOK_EOL) {
		int k = -1;
		for (int i = 0; i < 3; i++)
			if (lex_is_ident(lx, clauses[i]))
				k = i;
		if (k < 0)
			return unknown_clause(b, "verify", clauses, 4);
		double *slot = k == 0   ? &v->rtol
		               : k == 1 ? &v->atol
		                        : &v->match;
		if (*slot >= 0)
			return duplicate_clause(b, clauses[k]);
		kt_value x;
		size_t off;
		if (!parse_paren_number(b, &x, &off) ||
		    !check_tolerance(b, k, kt_value_as_double(x), off))
			return false;
		*slot = kt_value_as_double(x);
	}
	return true;
}

/* objective = "objective" ( "time" | "bandwidth" "(" expr ")"
 *                         | "flops" "(" expr ")" ) */
static bool parse_objective(bparser *b)
{
	static const char *const kinds[] = {"time", "bandwidth", "flops"};
	lexer *lx = &b->lx;
	kt_objective *o = &b->m->objective;
	if (o->loc.line)
		return previous_directive(b, "objective", o->loc);
	o->loc = gram_loc(b->g, b->directive_off);
	lex_next(lx);
	int k = -1;
	for (int i = 0; i < 3; i++)
		if (lex_is_ident(lx, kinds[i]))
			k = i;
	if (k < 0) {
		if (lx->tok.kind == TOK_EOL)
			return error_at_tok(
			    b, "time, bandwidth(...) or flops(...)");
		return unknown_clause(b, "objective", kinds, 3);
	}
	o->kind = (kt_objective_kind)k;
	lex_next(lx);
	if (k == KT_OBJ_TIME)
		return true;
	return lex_expect(lx, '(', "'('") &&
	       (o->expr = expr_parse(lx, false)) && lex_expect(lx, ')', "')'");
}

/* kernel = "kernel" "template" "(" targ { "," targ } ")", targ = STRING | expr
 */
static bool parse_kernel(bparser *b)
{
	lexer *lx = &b->lx;
	kt_model *m = b->m;
	static const char *const clauses[] = {"template"};
	if (b->kernel_loc.line)
		return previous_directive(b, "kernel", b->kernel_loc);
	b->kernel_loc = gram_loc(b->g, b->directive_off);
	lex_next(lx);
	if (lx->tok.kind == TOK_EOL)
		return error_at_tok(b, "template(...)");
	if (!lex_is_ident(lx, "template"))
		return unknown_clause(b, "kernel", clauses, 1);
	lex_next(lx);
	if (!lex_expect(lx, '(', "'('"))
		return false;
	size_t cap = 0;
	kt_expr **args = NULL;
	int n = 0;
	for (;;) {
		kt_expr *e = expr_parse(lx, true);
		if (!e)
			return false;
		GRAM_PUSH(b->g, args, n, cap, e);
		if (lex_is(lx, ')'))
			break;
		if (!lex_expect(lx, ',', "',' or ')'"))
			return false;
	}
	lex_next(lx);
	m->template_args = args;
	m->ntemplate_args = n;
	return true;
}
