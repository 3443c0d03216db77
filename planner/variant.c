/*
 * variant.c - the checks on a kernel body that a plan brings as text (the
 * `body` of a `variant` refactor, which an LLM may write): it is untrusted,
 * so before any compiler sees it, it must be one balanced `{ ... }` of
 * plain ASCII with no preprocessor line (but `#pragma unroll [N]`), no inline
 * assembly and no call into the host's world (files, processes, memory
 * management, output) unless the kernel as written already uses that name.
 *
 * Design choice: a deny list checked on tokens, not a parse. What the body
 * computes is for the rewriter's compilers and the differential tests to
 * judge; this only keeps out of the file what a kernel variant must never
 * do, whatever it computes.
 */
#include "ktc/plan.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Names a variant may not bring in: assembly, processes, files, output,
 * memory management, host API, declarations outside the body. */
static const char *const denied[] = {
    "asm",        "__asm",     "__asm__",        "system",     "popen",
    "pclose",     "fork",      "vfork",          "execl",      "execlp",
    "execle",     "execv",     "execvp",         "execve",     "exit",
    "_exit",      "abort",     "atexit",         "quick_exit", "__trap",
    "__brkpt",    "getenv",    "setenv",         "putenv",     "fopen",
    "freopen",    "fclose",    "fread",          "fwrite",     "fprintf",
    "fscanf",     "fputs",     "fgets",          "fflush",     "open",
    "close",      "read",      "write",          "unlink",     "remove",
    "rename",     "mkdir",     "rmdir",          "printf",     "puts",
    "sprintf",    "snprintf",  "vprintf",        "scanf",      "malloc",
    "calloc",     "realloc",   "free",           "new",        "delete",
    "syscall",    "mmap",      "munmap",         "mprotect",   "dlopen",
    "dlsym",      "kill",      "raise",          "signal",     "socket",
    "connect",    "bind",      "listen",         "accept",     "send",
    "recv",       "ioctl",     "ptrace",         "setjmp",     "longjmp",
    "extern",     "namespace", "using",          "template",   "__global__",
    "__device__", "__host__",  "__prof_trigger", NULL,
};
/* Prefixes of denied names: the CUDA runtime's host API (dynamic
 * parallelism included) and compiler built-ins. */
static const char *const denied_prefix[] = {"cuda", "__builtin_", NULL};

typedef struct scan {
	const char *t;
	size_t n, at;
	int line;
} scan;

static bool is_denied(const char *s, size_t n)
{
	for (const char *const *d = denied; *d; d++)
		if (strlen(*d) == n && !memcmp(*d, s, n))
			return true;
	for (const char *const *d = denied_prefix; *d; d++)
		if (n >= strlen(*d) && !memcmp(*d, s, strlen(*d)))
			return true;
	return false;
}

/* Skips blanks and comments; false on an unterminated comment. */
static bool skip_space(scan *s)
{
	while (s->at < s->n) {
		char c = s->t[s->at];
		if (c == '\n')
			s->line++;
		if (isspace((unsigned char)c)) {
			s->at++;
		} else if (c == '/' && s->at + 1 < s->n &&
		           s->t[s->at + 1] == '/') {
			while (s->at < s->n && s->t[s->at] != '\n')
				s->at++;
		} else if (c == '/' && s->at + 1 < s->n &&
		           s->t[s->at + 1] == '*') {
			s->at += 2;
			while (s->at + 1 < s->n &&
			       !(s->t[s->at] == '*' && s->t[s->at + 1] == '/'))
				s->line += s->t[s->at++] == '\n';
			if (s->at + 1 >= s->n)
				return false;
			s->at += 2;
		} else {
			return true;
		}
	}
	return true;
}

/* A string or character literal at s->at; false when unterminated. */
static bool skip_literal(scan *s)
{
	char q = s->t[s->at++];
	while (s->at < s->n && s->t[s->at] != q && s->t[s->at] != '\n')
		s->at += s->t[s->at] == '\\' ? 2 : 1;
	if (s->at >= s->n || s->t[s->at] != q)
		return false;
	s->at++;
	return true;
}

/* Whether text (the original body) has the identifier s[0, n) or, for
 * n == 0, a string literal. */
static bool original_has(const char *text, size_t len, const char *s, size_t n)
{
	scan o = {text, len, 0, 1};
	while (o.at < o.n && skip_space(&o) && o.at < o.n) {
		char c = o.t[o.at];
		if (c == '"' || c == '\'') {
			if (!n && c == '"')
				return true;
			if (!skip_literal(&o))
				return false;
		} else if (isalpha((unsigned char)c) || c == '_') {
			size_t b = o.at;
			while (o.at < o.n &&
			       (isalnum((unsigned char)o.t[o.at]) ||
			        o.t[o.at] == '_'))
				o.at++;
			if (n && o.at - b == n && !memcmp(o.t + b, s, n))
				return true;
		} else {
			o.at++;
		}
	}
	return false;
}

static int refuse(char *why, size_t wn, int line, const char *fmt,
                  const char *s, size_t n)
{
	char msg[200];
	snprintf(msg, sizeof(msg), fmt, (int)(n > 40 ? 40 : n), s);
	snprintf(why, wn, "line %d of the body: %s", line, msg);
	return KT_EINVALID;
}

/* `#pragma unroll` or `#pragma unroll N` (N digits) alone on its line
 * (but a `//` comment) at s->at: the one directive a body may hold (it only
 * asks the compiler to unroll the loop below; a copy of a kernel's loops keeps
 * it). Skipped, the line break left for skip_space. */
static bool unroll_line(scan *s)
{
	static const char p[] = "#pragma unroll";
	size_t b = s->at;
	while (b > 0 && (s->t[b - 1] == ' ' || s->t[b - 1] == '\t'))
		b--;
	if ((b > 0 && s->t[b - 1] != '\n') || s->n - s->at < sizeof(p) - 1 ||
	    memcmp(s->t + s->at, p, sizeof(p) - 1))
		return false;
	size_t e = s->at + sizeof(p) - 1;
	while (e < s->n && (s->t[e] == ' ' || s->t[e] == '\t'))
		e++;
	while (e < s->n && isdigit((unsigned char)s->t[e]))
		e++;
	while (e < s->n && (s->t[e] == ' ' || s->t[e] == '\t'))
		e++;
	/* a line comment may close it */
	if (e + 1 < s->n && s->t[e] == '/' && s->t[e + 1] == '/') {
		s->at = e;
		return true;
	}
	if (e < s->n && s->t[e] != '\n')
		return false;
	s->at = e;
	return true;
}

/* One token of the body: a bracket pushed or popped, a name checked. */
static int token(scan *s, char *stack, size_t *depth, const char *orig,
                 size_t olen, char *why, size_t wn)
{
	static const char open[] = "{([", close[] = "})]";
	const char *t = s->t;
	char c = t[s->at];
	if (c == '"' || c == '\'') {
		size_t b = s->at;
		if (!skip_literal(s))
			return refuse(why, wn, s->line,
			              "an unterminated literal%.*s", "", 0);
		if (c == '"' && !original_has(orig, olen, "", 0))
			return refuse(why, wn, s->line,
			              "a string literal (%.*s), which the "
			              "kernel as written has none of",
			              t + b, s->at - b);
		return 0;
	}
	if (isalpha((unsigned char)c) || c == '_') {
		size_t b = s->at;
		while (s->at < s->n &&
		       (isalnum((unsigned char)t[s->at]) || t[s->at] == '_'))
			s->at++;
		size_t n = s->at - b;
		if (is_denied(t + b, n) && !original_has(orig, olen, t + b, n))
			return refuse(why, wn, s->line,
			              "'%.*s' is not allowed in a variant (the "
			              "kernel as written does not use it)",
			              t + b, n);
		return 0;
	}
	if (c == '#' && unroll_line(s))
		return 0;
	if (c == '#' || c == '\\' ||
	    (c == '%' && s->at + 1 < s->n && t[s->at + 1] == ':') ||
	    !(isprint((unsigned char)c)))
		return refuse(why, wn, s->line,
		              "'%.*s': no preprocessor line, line splice or "
		              "byte outside printable ASCII",
		              t + s->at, 1);
	const char *o = strchr(open, c), *k = strchr(close, c);
	if (o && c) {
		if (*depth >= 256)
			return refuse(why, wn, s->line,
			              "brackets nested deeper than 256%.*s", "",
			              0);
		stack[(*depth)++] = c;
	} else if (k && c) {
		if (!*depth || stack[*depth - 1] != open[k - close])
			return refuse(why, wn, s->line, "an unmatched '%.*s'",
			              t + s->at, 1);
		(*depth)--;
	}
	s->at++;
	return 0;
}

int kt_plan_body_check(const char *body, size_t len, const char *orig,
                       size_t olen, char *why, size_t wn)
{
	scan s = {body, len, 0, 1};
	char stack[256];
	size_t depth = 0;
	bool started = false;
	if (len > KT_PLAN_MAX_BODY) {
		snprintf(why, wn, "the body has %zu bytes, more than %d", len,
		         KT_PLAN_MAX_BODY);
		return KT_EINVALID;
	}
	if (memchr(body, 0, len))
		return refuse(why, wn, 1, "a NUL byte%.*s", "", 0);
	if (!skip_space(&s) || s.at >= len || body[s.at] != '{')
		return refuse(why, wn, s.line, "a body starts with '{'%.*s", "",
		              0);
	while (s.at < len) {
		if (!skip_space(&s))
			return refuse(why, wn, s.line,
			              "an unterminated comment%.*s", "", 0);
		if (s.at >= len)
			break;
		if (started && !depth)
			return refuse(why, wn, s.line,
			              "text after the body's closing '}'%.*s",
			              "", 0);
		int rc = token(&s, stack, &depth, orig, olen, why, wn);
		if (rc)
			return rc;
		started = true;
	}
	if (depth)
		return refuse(why, wn, s.line,
		              "the body's '%.*s' is not closed", stack, 1);
	return 0;
}
