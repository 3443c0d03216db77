/*
 * lex.c - tokens of one `#pragma kt` directive, read straight from the file
 * text so every token keeps its byte offset (and so its line and column).
 *
 * A directive ends at the first newline not escaped by a backslash; as in
 * C's translation phases, backslash-newline and comments count as blanks, so
 * a block comment may carry a directive onto the next line. A token itself
 * cannot be split by a continuation.
 */
#include "grammar/grammar.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of a backslash-newline at p ("\\\n" or "\\\r\n"), else 0. */
size_t gram_splice_len(const char *text, size_t len, size_t p)
{
	if (p >= len || text[p] != '\\')
		return 0;
	if (p + 1 < len && text[p + 1] == '\n')
		return 2;
	if (p + 2 < len && text[p + 1] == '\r' && text[p + 2] == '\n')
		return 3;
	return 0;
}

/* Skips a quoted literal starting at p (on the quote); stops at a newline. */
size_t gram_skip_quoted(const char *text, size_t len, size_t p)
{
	char q = text[p++];
	while (p < len && text[p] != q && text[p] != '\n') {
		size_t s = gram_splice_len(text, len, p);
		if (s)
			p += s;
		else if (text[p] == '\\' && p + 1 < len && text[p + 1] != '\n')
			p += 2;
		else
			p++;
	}
	return p < len && text[p] == q ? p + 1 : p;
}

/* Skips a comment at p if there is one; returns p unchanged otherwise. */
size_t gram_skip_comment(const char *text, size_t len, size_t p)
{
	if (p + 1 >= len || text[p] != '/')
		return p;
	if (text[p + 1] == '*') {
		const char *e = strstr(text + p + 2, "*/");
		return e && (size_t)(e - text) < len ? (size_t)(e - text) + 2
		                                     : len;
	}
	if (text[p + 1] == '/') {
		p += 2;
		while (p < len && text[p] != '\n') {
			size_t s = gram_splice_len(text, len, p);
			p += s ? s : 1;
		}
		return p;
	}
	return p;
}

size_t gram_directive_end(const char *text, size_t len, size_t off)
{
	size_t p = off;
	while (p < len && text[p] != '\n') {
		size_t s = gram_splice_len(text, len, p);
		size_t c = gram_skip_comment(text, len, p);
		if (s)
			p += s;
		else if (c != p)
			p = c;
		else if (text[p] == '"' || text[p] == '\'')
			p = gram_skip_quoted(text, len, p);
		else
			p++;
	}
	return p;
}

void lex_init(lexer *lx, gram *g, size_t start, size_t end)
{
	memset(lx, 0, sizeof(*lx));
	lx->g = g;
	lx->pos = start;
	lx->end = end;
	lx->prev_end = start;
	lex_next(lx);
}

static void skip_blanks(lexer *lx)
{
	const char *t = lx->g->text;
	while (lx->pos < lx->end) {
		size_t s = gram_splice_len(t, lx->end, lx->pos);
		size_t c = gram_skip_comment(t, lx->end, lx->pos);
		if (s)
			lx->pos += s;
		else if (c != lx->pos)
			lx->pos = c;
		else if (t[lx->pos] == ' ' || t[lx->pos] == '\t' ||
		         t[lx->pos] == '\r' || t[lx->pos] == '\v' ||
		         t[lx->pos] == '\f')
			lx->pos++;
		else
			break;
	}
	if (lx->pos > lx->end)
		lx->pos = lx->end;
}

static bool is_ident_char(int c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Reports a malformed token; the parser stays quiet about TOK_BAD. */
__attribute__((format(printf, 2, 3))) static void bad(lexer *lx,
                                                      const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	lx->tok.kind = TOK_BAD;
	gram_vdiag(lx->g, KT_DIAG_ERROR, lx->tok.off, lx->tok.len, fmt, ap);
	va_end(ap);
}

/* A hexadecimal or decimal integer with optional u/l suffixes. */
static void lex_int(lexer *lx, size_t p, size_t digits_end, int base)
{
	const char *t = lx->g->text;
	uint64_t v = 0;
	bool overflow = false;
	for (size_t i = p; i < digits_end; i++) {
		int d = isdigit((unsigned char)t[i])
		            ? t[i] - '0'
		            : tolower((unsigned char)t[i]) - 'a' + 10;
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			overflow = true;
		v = v * (uint64_t)base + (uint64_t)d;
	}
	const char *spell = t + lx->tok.off;
	if (overflow || v > (uint64_t)INT64_MAX)
		bad(lx, "integer literal '%.*s' is too large", (int)lx->tok.len,
		    spell);
	else if (base == 16 && digits_end == p)
		bad(lx, "hexadecimal literal '%.*s' has no digits",
		    (int)lx->tok.len, spell);
	else if (base == 10 && t[p] == '0' && digits_end - p > 1)
		bad(lx,
		    "octal literal '%.*s' is not supported; write it in "
		    "decimal or hexadecimal",
		    (int)lx->tok.len, spell);
	else {
		lx->tok.kind = TOK_INT;
		lx->tok.ival = (int64_t)v;
	}
}

static void lex_float(lexer *lx)
{
	char buf[128];
	const char *spell = lx->g->text + lx->tok.off;
	size_t n = lx->tok.len;
	while (n > 0 && strchr("fFlL", spell[n - 1]))
		n--;
	if (n >= sizeof(buf)) {
		bad(lx, "float literal '%.*s' is too long", (int)lx->tok.len,
		    spell);
		return;
	}
	memcpy(buf, spell, n);
	buf[n] = '\0';
	char *endp;
	double d = strtod(buf, &endp);
	if (*endp || isinf(d) || isnan(d)) {
		bad(lx, "float literal '%.*s' is out of range",
		    (int)lx->tok.len, spell);
		return;
	}
	lx->tok.kind = TOK_FLOAT;
	lx->tok.fval = d;
}

static void lex_number(lexer *lx)
{
	const char *t = lx->g->text;
	size_t p = lx->pos, end = lx->end;
	bool hex =
	    t[p] == '0' && p + 1 < end && (t[p + 1] == 'x' || t[p + 1] == 'X');
	size_t q = hex ? p + 2 : p;
	while (q < end && (hex ? isxdigit((unsigned char)t[q])
	                       : isdigit((unsigned char)t[q])))
		q++;
	size_t digits_end = q;
	bool is_float = false;
	if (!hex && q < end && t[q] == '.') {
		is_float = true;
		for (q++; q < end && isdigit((unsigned char)t[q]); q++)
			;
	}
	if (!hex && q < end && (t[q] == 'e' || t[q] == 'E')) {
		size_t r = q + 1;
		if (r < end && (t[r] == '+' || t[r] == '-'))
			r++;
		if (r < end && isdigit((unsigned char)t[r])) {
			is_float = true;
			for (q = r; q < end && isdigit((unsigned char)t[q]);
			     q++)
				;
		}
	}
	size_t suffix = q;
	while (q < end && strchr(is_float ? "fFlL" : "uUlL", t[q]) && t[q])
		q++;
	if (q - suffix > 3)
		q = suffix; /* not a C suffix; reported below */
	lx->tok.off = p;
	lx->pos = q;
	while (lx->pos < end && is_ident_char(t[lx->pos]))
		lx->pos++;
	lx->tok.len = lx->pos - p;
	if (lx->pos != q) {
		bad(lx, "invalid suffix on number '%.*s'", (int)lx->tok.len,
		    t + p);
		return;
	}
	if (is_float)
		lex_float(lx);
	else
		lex_int(lx, hex ? p + 2 : p, digits_end, hex ? 16 : 10);
}

static void lex_string(lexer *lx)
{
	const char *t = lx->g->text;
	size_t p = lx->pos + 1, end = lx->end;
	char *out = gram_alloc(lx->g, end - p + 1);
	size_t n = 0;
	while (p < end && t[p] != '"' && t[p] != '\n') {
		char c = t[p++];
		if (c == '\\' && p < end) {
			char e = t[p++];
			c = e == 'n' ? '\n' : e == 't' ? '\t' : e;
			if (!strchr("nt\\\"'", e)) {
				lx->tok.len = p - lx->tok.off;
				lx->pos = p;
				bad(lx, "unknown escape '%.2s' in string",
				    t + p - 2);
				return;
			}
		}
		out[n++] = c;
	}
	lx->pos = p < end && t[p] == '"' ? p + 1 : p;
	lx->tok.len = lx->pos - lx->tok.off;
	if (p >= end || t[p] != '"') {
		bad(lx, "unterminated string");
		return;
	}
	lx->tok.kind = TOK_STRING;
	lx->tok.str = out;
}

static int two_char_punct(char a, char b)
{
	static const struct {
		char s[3];
		int code;
	} ops[] = {{"<<", P_SHL}, {">>", P_SHR}, {"<=", P_LE},  {">=", P_GE},
	           {"==", P_EQ},  {"!=", P_NE},  {"&&", P_AND}, {"||", P_OR}};
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (ops[i].s[0] == a && ops[i].s[1] == b)
			return ops[i].code;
	return 0;
}

static void lex_punct(lexer *lx)
{
	const char *t = lx->g->text;
	size_t p = lx->pos;
	int two = p + 1 < lx->end ? two_char_punct(t[p], t[p + 1]) : 0;
	lx->tok.kind = TOK_PUNCT;
	if (two) {
		lx->tok.punct = two;
		lx->tok.len = 2;
	} else if (t[p] && strchr("(),[]=?:+-*/%<>&^|!~", t[p])) {
		lx->tok.punct = (unsigned char)t[p];
		lx->tok.len = 1;
	} else {
		/* One diagnostic for a whole UTF-8 sequence. */
		size_t q = p + 1;
		while (q < lx->end && ((unsigned char)t[q] & 0xC0) == 0x80)
			q++;
		lx->tok.len = q - p;
		lx->pos = q;
		if (isprint((unsigned char)t[p]))
			bad(lx, "unexpected character '%c'", t[p]);
		else if ((unsigned char)t[p] < 0x80 || q == p + 1)
			bad(lx, "unexpected byte 0x%02x", (unsigned char)t[p]);
		else
			bad(lx, "unexpected character '%.*s'", (int)(q - p),
			    t + p);
		return;
	}
	lx->pos = p + lx->tok.len;
}

void lex_next(lexer *lx)
{
	const char *t = lx->g->text;
	if (lx->tok.kind != TOK_EOL || lx->tok.len)
		lx->prev_end = lx->tok.off + lx->tok.len;
	skip_blanks(lx);
	memset(&lx->tok, 0, sizeof(lx->tok));
	lx->tok.off = lx->pos;
	if (lx->pos >= lx->end) {
		lx->tok.kind = TOK_EOL;
		return;
	}
	char c = t[lx->pos];
	if (isalpha((unsigned char)c) || c == '_') {
		while (lx->pos < lx->end && is_ident_char(t[lx->pos]))
			lx->pos++;
		lx->tok.kind = TOK_IDENT;
		lx->tok.len = lx->pos - lx->tok.off;
	} else if (isdigit((unsigned char)c) ||
	           (c == '.' && lx->pos + 1 < lx->end &&
	            isdigit((unsigned char)t[lx->pos + 1]))) {
		lex_number(lx);
	} else if (c == '"') {
		lex_string(lx);
	} else {
		lex_punct(lx);
	}
}

bool lex_is(const lexer *lx, int punct)
{
	return lx->tok.kind == TOK_PUNCT && lx->tok.punct == punct;
}

bool lex_is_ident(const lexer *lx, const char *name)
{
	size_t n = strlen(name);
	return lx->tok.kind == TOK_IDENT && lx->tok.len == n &&
	       !memcmp(lx->g->text + lx->tok.off, name, n);
}

const char *lex_describe(lexer *lx)
{
	const token *k = &lx->tok;
	if (k->kind == TOK_EOL)
		return "end of line";
	int n = k->len > 40 ? 40 : (int)k->len;
	return gram_printf(lx->g, "'%.*s%s'", n, lx->g->text + k->off,
	                   k->len > 40 ? "..." : "");
}

bool lex_expect(lexer *lx, int punct, const char *what)
{
	if (lex_is(lx, punct)) {
		lex_next(lx);
		return true;
	}
	if (lx->tok.kind != TOK_BAD)
		gram_diag(lx->g, KT_DIAG_ERROR, lx->tok.off, lx->tok.len,
		          "expected %s, found %s", what, lex_describe(lx));
	return false;
}
