/*
 * scan.c - finds the `#pragma kt` blocks of a source file and the kernel
 * that follows each one.
 *
 * The file is read as a stream of coarse C tokens (identifiers, literals,
 * single punctuation characters, whole preprocessor directives), enough to
 * skip comments and strings and to spot `__global__`/`__kernel` functions;
 * it is no C parser. A block is the run of `#pragma kt` lines since the
 * last code token; only other directives, comments and blanks may stand
 * between its lines. The code after a block must be a kernel declaration:
 * `template<...>`, `extern "C"`, attributes and qualifiers may come first.
 */
#include "grammar/grammar.h"

#include <ctype.h>
#include <string.h>

typedef enum ctok_kind {
	CT_EOF,
	CT_IDENT,
	CT_NUMBER,
	CT_STRING,
	CT_PUNCT,
	CT_DIRECTIVE,
} ctok_kind;

typedef struct ctok {
	ctok_kind kind;
	size_t off, len;
} ctok;

/* A namespace the scan is inside: its name (len 0: anonymous, whose
 * names need no qualification) and the brace depth inside it. */
typedef struct scope {
	size_t off, len;
	int depth;
} scope;

typedef struct scanner {
	gram *g;
	scope *ns; /* the namespaces open where the scan is, outermost first */
	size_t nns, cap_ns;
	int depth; /* braces open */
	size_t pos;
	bool line_start; /* only blanks since the last newline */
	pragma_line *block;
	size_t nblock, cap_block;
	kt_model *models;
	size_t nmodels, cap_models;
	bool split;       /* directives other than ours as tokens (scan_use) */
	size_t line_safe; /* start of the last line not inside a comment or a
	                     continued line: where a line may be inserted */
} scanner;

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static void skip_blanks(scanner *sc)
{
	const char *t = sc->g->text;
	size_t len = sc->g->textlen;
	while (sc->pos < len) {
		size_t s = gram_splice_len(t, len, sc->pos);
		size_t c = gram_skip_comment(t, len, sc->pos);
		if (s) {
			sc->pos += s;
		} else if (c != sc->pos) {
			sc->pos = c;
		} else if (t[sc->pos] == '\n') {
			sc->line_start = true;
			sc->line_safe = ++sc->pos;
		} else if (isspace((unsigned char)t[sc->pos])) {
			sc->pos++;
		} else {
			break;
		}
	}
}

/* R"delim( ... )delim": the end of a raw string starting at the quote. */
static size_t skip_raw_string(const char *t, size_t len, size_t p)
{
	size_t d = p + 1;
	while (d < len && d - p <= 17 && t[d] != '(' &&
	       !isspace((unsigned char)t[d]))
		d++;
	if (d >= len || t[d] != '(')
		return gram_skip_quoted(t, len, p);
	size_t dlen = d - p - 1;
	for (size_t q = d + 1; q < len; q++)
		if (t[q] == ')' && q + 1 + dlen < len &&
		    !memcmp(t + q + 1, t + p + 1, dlen) &&
		    t[q + 1 + dlen] == '"')
			return q + dlen + 2;
	return len;
}

static bool is_string_prefix(const char *s, size_t n)
{
	static const char *const prefixes[] = {"L",  "u",  "U",  "u8", "R",
	                                       "LR", "uR", "UR", "u8R"};
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (strlen(prefixes[i]) == n && !memcmp(prefixes[i], s, n))
			return true;
	return false;
}

/* Skips blanks, splices and comments inside a directive. */
static size_t skip_directive_blanks(const gram *g, size_t p, size_t end)
{
	while (p < end) {
		size_t s = gram_splice_len(g->text, end, p);
		size_t c = gram_skip_comment(g->text, end, p);
		if (s)
			p += s;
		else if (c != p)
			p = c;
		else if (g->text[p] == ' ' || g->text[p] == '\t' ||
		         g->text[p] == '\r' || g->text[p] == '\v' ||
		         g->text[p] == '\f')
			p++;
		else
			break;
	}
	return p;
}

/* Whether the directive k is `# pragma kt ...`; *body: after "kt". */
static bool is_kt_pragma(const scanner *sc, ctok k, size_t *body)
{
	const gram *g = sc->g;
	size_t end = k.off + k.len;
	size_t p = skip_directive_blanks(g, k.off + 1, end);
	if (end - p < 6 || memcmp(g->text + p, "pragma", 6) ||
	    (p + 6 < end && ident_char(g->text[p + 6])))
		return false;
	p = skip_directive_blanks(g, p + 6, end);
	if (end - p < 2 || memcmp(g->text + p, "kt", 2) ||
	    (p + 2 < end && ident_char(g->text[p + 2])))
		return false;
	*body = p + 2;
	return true;
}

static void scan_word(scanner *sc, ctok *k)
{
	const char *t = sc->g->text;
	size_t len = sc->g->textlen, p = sc->pos;
	while (p < len && ident_char(t[p]))
		p++;
	k->kind = CT_IDENT;
	if (p < len && (t[p] == '"' || t[p] == '\'') &&
	    is_string_prefix(t + sc->pos, p - sc->pos)) {
		k->kind = CT_STRING;
		p = t[p - 1] == 'R' && t[p] == '"'
		        ? skip_raw_string(t, len, p)
		        : gram_skip_quoted(t, len, p);
	}
	sc->pos = p;
}

/* The next token; directives are whole tokens when they begin a line. */
static ctok next_tok(scanner *sc)
{
	const char *t = sc->g->text;
	size_t len = sc->g->textlen;
	skip_blanks(sc);
	ctok k = {CT_EOF, sc->pos, 0};
	if (sc->pos >= len)
		return k;
	char c = t[sc->pos];
	if (c == '#' && sc->line_start) {
		k.kind = CT_DIRECTIVE;
		sc->pos = gram_directive_end(t, len, sc->pos);
		k.len = sc->pos - k.off;
		size_t body;
		if (sc->split && !is_kt_pragma(sc, k, &body)) {
			k.kind = CT_PUNCT; /* its tokens follow */
			sc->pos = k.off + 1;
		}
	} else if (isalpha((unsigned char)c) || c == '_') {
		scan_word(sc, &k);
	} else if (isdigit((unsigned char)c) ||
	           (c == '.' && sc->pos + 1 < len &&
	            isdigit((unsigned char)t[sc->pos + 1]))) {
		k.kind = CT_NUMBER;
		while (sc->pos < len &&
		       (ident_char(t[sc->pos]) || t[sc->pos] == '.' ||
		        ((t[sc->pos] == '+' || t[sc->pos] == '-') &&
		         strchr("eEpP", t[sc->pos - 1]))))
			sc->pos++;
	} else if (c == '"' || c == '\'') {
		k.kind = CT_STRING;
		sc->pos = gram_skip_quoted(t, len, sc->pos);
	} else {
		k.kind = CT_PUNCT;
		sc->pos++;
	}
	sc->line_start = k.kind == CT_DIRECTIVE;
	k.len = sc->pos - k.off;
	return k;
}

static bool tok_is(const scanner *sc, ctok k, const char *s)
{
	size_t n = strlen(s);
	return k.len == n && !memcmp(sc->g->text + k.off, s, n);
}

/* Skips a balanced (), <> or [] group whose opening token was just read. */
static bool skip_group(scanner *sc, char open, char close)
{
	int depth = 1, paren = 0;
	while (depth > 0) {
		ctok k = next_tok(sc);
		if (k.kind == CT_EOF)
			return false;
		if (k.kind != CT_PUNCT)
			continue;
		char c = sc->g->text[k.off];
		if (open == '<' && (c == '(' || c == ')'))
			paren += c == '(' ? 1 : -1;
		else if (c == open && paren == 0)
			depth++;
		else if (c == close && paren == 0)
			depth--;
		else if (open == '<' && paren == 0 && strchr(";{}", c))
			return false;
	}
	return true;
}

static bool is_one_of(const scanner *sc, ctok k, const char *const *words,
                      size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (tok_is(sc, k, words[i]))
			return true;
	return false;
}

static ctok peek_tok(scanner *sc)
{
	size_t pos = sc->pos;
	bool ls = sc->line_start;
	ctok k = next_tok(sc);
	sc->pos = pos;
	sc->line_start = ls;
	return k;
}

static bool is_punct(const scanner *sc, ctok k, char c)
{
	return k.kind == CT_PUNCT && sc->g->text[k.off] == c;
}

/* Reads the next code token, stepping over directives other than ours. */
static ctok next_code(scanner *sc)
{
	for (;;) {
		ctok k = next_tok(sc);
		size_t body;
		if (k.kind != CT_DIRECTIVE)
			return k;
		if (is_kt_pragma(sc, k, &body)) {
			/* A new block begins: leave it for the main loop. */
			sc->pos = k.off;
			sc->line_start = true;
			return (ctok){CT_EOF, k.off, 0};
		}
	}
}

/* After the kernel keyword: the identifier before the parameter list. */
static bool find_kernel_name(scanner *sc, ctok *name)
{
	static const char *const attrs[] = {
	    "__launch_bounds__", "__attribute__", "__maxnreg__",
	    "__cluster_dims__",  "__declspec",    "alignas"};
	for (int guard = 0; guard < 256; guard++) {
		ctok k = next_code(sc);
		if (k.kind == CT_IDENT && is_one_of(sc, k, attrs, 6)) {
			if (!is_punct(sc, next_code(sc), '(') ||
			    !skip_group(sc, '(', ')'))
				return false;
			continue;
		}
		if (k.kind == CT_IDENT) {
			ctok n = peek_tok(sc);
			if (is_punct(sc, n, '<')) {
				next_tok(sc);
				if (!skip_group(sc, '<', '>'))
					return false;
				n = peek_tok(sc);
			}
			if (is_punct(sc, n, '(')) {
				*name = k;
				return true;
			}
			continue;
		}
		if (k.kind != CT_PUNCT || !strchr("*&:", sc->g->text[k.off]))
			return false;
	}
	return false;
}

/* decl = { "template" "<...>" | "extern" [STRING] ["{"] | attribute | WORD }
 *        ( "__global__" | "__kernel" | "kernel" ) ... NAME "(" */
static bool match_kernel(scanner *sc, ctok k, ctok *name)
{
	static const char *const kernel_words[] = {"__global__", "__kernel",
	                                           "kernel"};
	for (int guard = 0; guard < 256; guard++, k = next_code(sc)) {
		if (k.kind == CT_IDENT && is_one_of(sc, k, kernel_words, 3))
			return find_kernel_name(sc, name);
		if (k.kind == CT_IDENT && tok_is(sc, k, "template")) {
			if (!is_punct(sc, next_code(sc), '<') ||
			    !skip_group(sc, '<', '>'))
				return false;
		} else if (k.kind == CT_IDENT &&
		           (tok_is(sc, k, "__attribute__") ||
		            tok_is(sc, k, "__declspec"))) {
			if (!is_punct(sc, next_code(sc), '(') ||
			    !skip_group(sc, '(', ')'))
				return false;
		} else if (is_punct(sc, k, '[') &&
		           is_punct(sc, peek_tok(sc), '[')) {
			if (!skip_group(sc, '[', ']'))
				return false;
		} else if (k.kind == CT_STRING || is_punct(sc, k, '{') ||
		           (k.kind == CT_PUNCT &&
		            strchr("*&:", sc->g->text[k.off]))) {
			continue; /* extern "C" {, qualified return types */
		} else if (k.kind != CT_IDENT) {
			return false;
		}
	}
	return false;
}

static void report_missing_kernel(scanner *sc, ctok k)
{
	gram *g = sc->g;
	const pragma_line *last = &sc->block[sc->nblock - 1];
	if (k.kind == CT_EOF) {
		gram_diag(g, KT_DIAG_ERROR, last->hash, 1,
		          "'#pragma kt' block is not followed by a kernel");
		return;
	}
	gram_diag(g, KT_DIAG_ERROR, k.off, k.len,
	          "expected a kernel ('__global__' or '__kernel' function) "
	          "after the '#pragma kt' block, found '%.*s'",
	          (int)(k.len > 40 ? 40 : k.len), g->text + k.off);
	gram_diag(g, KT_DIAG_NOTE, sc->block[0].hash, 1,
	          "the block starts here");
}

/* Braces and namespaces, for each code token the scan passes: `namespace
 * a::b {` opens two named scopes, `namespace {` an anonymous one, `}`
 * closes the innermost brace (and the namespace it opened). Only names
 * are read, not the preprocessor's branches: braces of code that `#if`
 * leaves out count as well. */
static void track_scope(scanner *sc, ctok k)
{
	gram *g = sc->g;
	if (k.kind == CT_PUNCT && tok_is(sc, k, "{")) {
		sc->depth++;
	} else if (k.kind == CT_PUNCT && tok_is(sc, k, "}")) {
		while (sc->nns && sc->ns[sc->nns - 1].depth == sc->depth)
			sc->nns--;
		sc->depth--;
	} else if (k.kind == CT_IDENT && tok_is(sc, k, "namespace")) {
		/* names up to `{`; `namespace x = y;` opens nothing */
		size_t save = sc->pos, had = sc->nns;
		ctok t = next_tok(sc);
		bool named = false;
		while (t.kind == CT_IDENT ||
		       (t.kind == CT_PUNCT && tok_is(sc, t, ":"))) {
			if (t.kind == CT_IDENT && !tok_is(sc, t, "inline")) {
				scope s = {t.off, t.len, sc->depth + 1};
				GRAM_PUSH(g, sc->ns, sc->nns, sc->cap_ns, s);
				named = true;
			}
			t = next_tok(sc);
		}
		if (t.kind == CT_PUNCT && tok_is(sc, t, "{")) {
			if (!named) {
				scope s = {0, 0, sc->depth + 1};
				GRAM_PUSH(g, sc->ns, sc->nns, sc->cap_ns, s);
			}
			sc->depth++;
		} else {
			sc->nns = had;
			sc->pos = save;
		}
	}
}

/* "a::b::" for the named namespaces open, anonymous ones left out. */
static const char *scope_text(scanner *sc)
{
	size_t n = 0;
	for (size_t i = 0; i < sc->nns; i++)
		n += sc->ns[i].len ? sc->ns[i].len + 2 : 0;
	char *r = gram_alloc(sc->g, n + 1);
	size_t at = 0;
	for (size_t i = 0; i < sc->nns; i++) {
		if (!sc->ns[i].len)
			continue;
		memcpy(r + at, sc->g->text + sc->ns[i].off, sc->ns[i].len);
		at += sc->ns[i].len;
		r[at++] = ':';
		r[at++] = ':';
	}
	r[at] = '\0';
	return r;
}

static void close_block(scanner *sc, ctok k)
{
	gram *g = sc->g;
	ctok name = {CT_EOF, 0, 0};
	bool found = k.kind != CT_EOF && match_kernel(sc, k, &name);
	kt_model m = {.file = g->file, .source = g->text};
	if (found) {
		m.kernel = gram_strndup(g, g->text + name.off, name.len);
		m.scope = scope_text(sc);
		m.kernel_loc = gram_loc(g, name.off);
	}
	parse_block(g, &m, sc->block, sc->nblock);
	build_model(g, &m);
	if (!found)
		report_missing_kernel(sc, k);
	else
		GRAM_PUSH(g, sc->models, sc->nmodels, sc->cap_models, m);
	sc->nblock = 0;
}

static void check_duplicate_kernels(scanner *sc)
{
	for (size_t i = 0; i < sc->nmodels; i++) {
		const kt_model *m = &sc->models[i];
		for (size_t j = 0; j < i; j++) {
			if (strcmp(sc->models[j].kernel, m->kernel))
				continue;
			int len = (int)strlen(m->kernel);
			gram_diag_at(sc->g, KT_DIAG_ERROR, m->kernel_loc, len,
			             "a second '#pragma kt' block for kernel "
			             "'%s'",
			             m->kernel);
			gram_diag_at(sc->g, KT_DIAG_NOTE,
			             sc->models[j].kernel_loc, len,
			             "the first one is here");
			break;
		}
	}
}

void scan_file(gram *g, kt_model **models, size_t *nmodels)
{
	scanner sc = {.g = g, .line_start = true};
	if (g->textlen >= 3 && !memcmp(g->text, "\xEF\xBB\xBF", 3))
		sc.pos = 3; /* a UTF-8 byte order mark */
	for (;;) {
		ctok k = next_tok(&sc);
		size_t body;
		if (k.kind == CT_DIRECTIVE && is_kt_pragma(&sc, k, &body)) {
			pragma_line pl = {k.off, body, k.off + k.len};
			GRAM_PUSH(g, sc.block, sc.nblock, sc.cap_block, pl);
		} else if (k.kind != CT_DIRECTIVE && sc.nblock) {
			close_block(&sc, k);
		} else {
			track_scope(&sc, k);
		}
		if (k.kind == CT_EOF)
			break;
	}
	check_duplicate_kernels(&sc);
	*models = sc.models;
	*nmodels = sc.nmodels;
}

void scan_pragmas(gram *g, pragma_line **out, size_t *n)
{
	scanner sc = {.g = g, .line_start = true};
	size_t cap = 0;
	*out = NULL;
	*n = 0;
	for (ctok k = next_tok(&sc); k.kind != CT_EOF; k = next_tok(&sc)) {
		size_t body;
		if (k.kind == CT_DIRECTIVE && is_kt_pragma(&sc, k, &body)) {
			pragma_line pl = {k.off, body, k.off + k.len};
			GRAM_PUSH(g, *out, *n, cap, pl);
		}
	}
}

void scan_lines(gram *g, kt_pragma_text **out, size_t *n)
{
	scanner sc = {.g = g, .line_start = true};
	size_t cap = 0, open = 0; /* the current block's first line */
	*out = NULL;
	*n = 0;
	for (;;) {
		ctok k = next_tok(&sc);
		size_t body;
		if (k.kind == CT_DIRECTIVE && is_kt_pragma(&sc, k, &body)) {
			kt_pragma_text t = {
			    .begin = k.off, .end = k.off + k.len, .body = body};
			GRAM_PUSH(g, *out, *n, cap, t);
		} else if (k.kind != CT_DIRECTIVE && open < *n) {
			ctok name = {CT_EOF, 0, 0};
			if (k.kind != CT_EOF && match_kernel(&sc, k, &name))
				for (size_t i = open; i < *n; i++) {
					(*out)[i].kernel = name.off;
					(*out)[i].kernel_len = name.len;
				}
			open = *n;
		}
		if (k.kind == CT_EOF)
			break;
	}
}

bool scan_use(gram *g, const char *name, size_t *use, size_t *line)
{
	scanner sc = {.g = g, .line_start = true, .split = true};
	for (ctok k = next_tok(&sc); k.kind != CT_EOF; k = next_tok(&sc)) {
		if (k.kind == CT_IDENT && tok_is(&sc, k, name)) {
			*use = k.off;
			*line = sc.line_safe;
			return true;
		}
	}
	return false;
}
