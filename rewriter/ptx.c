/*
 * ptx.c - the PTX normaliser: what is left of a PTX module once what may
 * differ between two compiles of the same kernel is set aside, so "the
 * default instantiation is the original kernel" becomes a string compare.
 *
 * Set aside: comments (the compiler banner, `// .globl`, `// begin inline
 * asm`), the `.version` line, `.file` and `.loc` line information, debug
 * sections, blank lines and runs of white space. Symbol names declared at
 * module scope (kernels, device functions, global, shared and constant
 * variables) become @s0, @s1, ... in the order they are declared, and a
 * kernel's parameters (NAME_param_N) follow their kernel, so renaming a
 * kernel or instantiating a template by another name does not count as a
 * change. Everything else, instructions and registers, must match exactly.
 */
#include "rewriter/rewriter.h"

#include "ktc/common.h"
#include "util/vec.h"

#include <ctype.h>
#include <string.h>

typedef struct sym {
	const char *p; /* while a line is read; then an offset into kept text */
	size_t off, len;
} sym;

typedef struct syms {
	sym *items;
	size_t len, cap;
	const char *base; /* the kept text the offsets refer to */
} syms;

static int is_id_start(int c)
{
	return isalpha(c) || c == '_' || c == '$' || c == '%';
}

static int is_id(int c)
{
	return isalnum(c) || c == '_' || c == '$';
}

/* Copies line [p, end) without comments and with single spaces. */
static int strip_line(kt_str *out, const char *p, const char *end,
                      int *in_block)
{
	int space = 0;
	for (; p < end; p++) {
		if (*in_block) {
			if (p + 1 < end && p[0] == '*' && p[1] == '/')
				*in_block = 0, p++;
			continue;
		}
		if (p + 1 < end && p[0] == '/' && p[1] == '/')
			break;
		if (p + 1 < end && p[0] == '/' && p[1] == '*') {
			*in_block = 1, p++;
			continue;
		}
		if (isspace((unsigned char)*p)) {
			space = out->len > 0;
			continue;
		}
		if (space && kt_str_addc(out, ' '))
			return KT_ENOMEM;
		space = 0;
		if (kt_str_addc(out, *p))
			return KT_ENOMEM;
	}
	return 0;
}

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Line information and the header that names the PTX ISA version. */
static int dropped(const char *l)
{
	return !*l || starts(l, ".version ") || starts(l, ".file ") ||
	       starts(l, ".loc ") || starts(l, "@@DWARF");
}

/* The name declared by a module-scope line, or len 0. */
static sym declared(const char *l)
{
	sym s = {0};
	const char *p = strstr(l, ".entry ");
	if (!p && (p = strstr(l, ".func ")) != NULL) {
		p += 6;
		if (*p == '(') /* return value */
			p = strchr(p, ')') ? strchr(p, ')') + 1 : p;
	} else if (p) {
		p += 7;
	} else if (starts(l, ".global ") || starts(l, ".shared ") ||
	           starts(l, ".const ") || starts(l, ".visible .global ") ||
	           starts(l, ".extern .shared ") ||
	           starts(l, ".visible .const ")) {
		/* the last identifier before '[', '=' or ';' */
		const char *stop = l + strcspn(l, "[=;");
		p = stop;
		while (p > l && isspace((unsigned char)p[-1]))
			p--;
		while (p > l && is_id((unsigned char)p[-1]))
			p--;
	} else {
		return s;
	}
	while (*p == ' ')
		p++;
	s.p = p;
	while (is_id((unsigned char)p[s.len]))
		s.len++;
	return s;
}

static int find_sym(const syms *t, const char *p, size_t len)
{
	for (size_t i = 0; i < t->len; i++)
		if (t->items[i].len == len &&
		    !memcmp(t->base + t->items[i].off, p, len))
			return (int)i;
	return -1;
}

/* Rewrites identifiers of one stripped line through the symbol table. */
static int rename_line(kt_str *out, const char *l, const syms *t)
{
	for (const char *p = l; *p;) {
		if (!is_id_start((unsigned char)*p) ||
		    (p > l && is_id((unsigned char)p[-1]))) {
			if (kt_str_addc(out, *p++))
				return KT_ENOMEM;
			continue;
		}
		size_t n = 1;
		while (is_id((unsigned char)p[n]))
			n++;
		const char *param = NULL;
		for (size_t k = 1; k < n && !param; k++)
			if (!strncmp(p + k, "_param_", 7) &&
			    find_sym(t, p, k) >= 0)
				param = p + k;
		int at = find_sym(t, p, param ? (size_t)(param - p) : n);
		int rc = at < 0  ? kt_str_add(out, p, n)
		         : param ? kt_str_addf(out, "@s%d%.*s", at,
		                               (int)(p + n - param), param)
		                 : kt_str_addf(out, "@s%d", at);
		if (rc)
			return rc;
		p += n;
	}
	return kt_str_addc(out, '\n');
}

/* Collects the stripped lines that count, and the declared symbols. */
static int collect(kt_str *kept, syms *t, const char *ptx)
{
	int in_block = 0, in_debug = 0;
	kt_str line = KT_STR_INIT;
	int rc = 0;
	for (const char *p = ptx; *p && !rc;) {
		const char *end = p + strcspn(p, "\n");
		kt_str_clear(&line);
		rc = strip_line(&line, p, end, &in_block);
		p = *end ? end + 1 : end;
		if (rc || dropped(line.ptr))
			continue;
		if (starts(line.ptr, ".section .debug"))
			in_debug = 1;
		if (in_debug) {
			in_debug = line.ptr[0] != '}';
			continue;
		}
		sym s = declared(line.ptr);
		size_t at = kept->len;
		rc = kt_str_adds(kept, line.ptr);
		if (!rc)
			rc = kt_str_addc(kept, '\n');
		if (!rc && s.len) {
			s.off = at + (size_t)(s.p - line.ptr);
			rc = kt_vec_push(t, s);
		}
	}
	kt_str_release(&line);
	return rc;
}

/* Where the value of `st.param.b32 [param2+0], N;` (line l) is, at out
 * offset `at`: 0 when l is not that. */
static size_t line_arg(const char *l, size_t at, size_t *n)
{
	static const char pre[] = "st.param.b32 [param2";
	if (!starts(l, pre))
		return 0;
	const char *v = l + sizeof(pre) - 1;
	if (starts(v, "+0"))
		v += 2;
	if (!starts(v, "], "))
		return 0;
	v += 3;
	*n = strspn(v, "0123456789");
	return *n && v[*n] == ';' ? at + (size_t)(v - l) : 0;
}

/* The value [at, at + n) of out becomes LINE. */
static int mark_line(kt_str *out, size_t at, size_t n)
{
	kt_str tail = KT_STR_INIT;
	int rc = kt_str_add(&tail, out->ptr + at + n, out->len - at - n);
	if (!rc) {
		kt_str_truncate(out, at);
		rc = kt_str_adds(out, "LINE");
	}
	if (!rc && tail.len)
		rc = kt_str_add(out, tail.ptr, tail.len);
	kt_str_release(&tail);
	return rc;
}

/*
 * assert() passes __LINE__ to __assertfail as its third argument: lines
 * the annotation adds above a kernel change it, and nothing else. Its
 * value becomes LINE, so the kernel's PTX at the defaults is still the
 * original's.
 */
int kt_ptx_normalise(kt_str *out, const char *ptx)
{
	kt_str kept = KT_STR_INIT;
	syms t = {0};
	int rc = collect(&kept, &t, ptx);
	t.base = kept.ptr;
	size_t arg = 0, arg_n = 0; /* the last param2 value of this call */
	for (const char *p = kept.ptr; !rc && *p;) {
		const char *end = strchr(p, '\n');
		char *l = kt_strndup(p, (size_t)(end - p));
		size_t n = 0, a = l ? line_arg(l, out->len, &n) : 0;
		if (l && l[0] == '}')
			arg = 0;
		else if (a)
			arg = a, arg_n = n;
		if (l && arg && strstr(l, "__assertfail") &&
		    !starts(l, ".extern")) {
			rc = mark_line(out, arg, arg_n);
			arg = 0;
		}
		rc = rc ? rc : l ? rename_line(out, l, &t) : KT_ENOMEM;
		kt_free(l);
		p = end + 1;
	}
	kt_vec_release(&t);
	kt_str_release(&kept);
	return rc;
}

int kt_ptx_same(const char *a, const char *b, int *line, kt_str *detail)
{
	kt_str na = KT_STR_INIT, nb = KT_STR_INIT;
	int rc = kt_ptx_normalise(&na, a);
	if (!rc)
		rc = kt_ptx_normalise(&nb, b);
	if (rc)
		goto done;
	const char *p = na.ptr, *q = nb.ptr;
	int l = 1;
	while (*p && *p == *q) {
		l += *p == '\n';
		p++, q++;
	}
	if (!*p && !*q) {
		rc = 1;
		goto done;
	}
	while (p > na.ptr && p[-1] != '\n')
		p--, q--;
	if (line)
		*line = l;
	if (detail)
		rc = kt_str_addf(detail, "'%.*s' became '%.*s'",
		                 (int)strcspn(p, "\n"), p,
		                 (int)strcspn(q, "\n"), q);
done:
	kt_str_release(&na);
	kt_str_release(&nb);
	return rc;
}
