/* str.c - the string buffer of str.h. */
#include "util/str.h"

#include <ctype.h>

#include "ktc/common.h"

#include <stdio.h>
#include <string.h>

char kt_str_empty[1];

void kt_str_init(kt_str *s, size_t max)
{
	s->ptr = kt_str_empty;
	s->len = s->cap = 0;
	s->max = max;
}

void kt_str_release(kt_str *s)
{
	if (s->cap)
		kt_free(s->ptr);
	kt_str_init(s, s->max);
}

void kt_str_clear(kt_str *s)
{
	s->len = 0;
	if (s->cap)
		s->ptr[0] = '\0';
}

char *kt_str_detach(kt_str *s)
{
	char *p = s->cap ? s->ptr : kt_strdup("");
	kt_str_init(s, s->max);
	return p;
}

int kt_str_grow(kt_str *s, size_t extra)
{
	size_t need = s->len + extra + 1;
	if (need < s->len)
		return kt_error(KT_ENOMEM, "string too long");
	if (s->max && need > s->max + 1)
		return kt_error(KT_EINVALID,
		                "text longer than the limit of %zu bytes",
		                s->max);
	if (need <= s->cap)
		return 0;
	size_t cap = s->cap ? s->cap : 64;
	while (cap < need)
		cap *= 2;
	char *p = kt_realloc(s->cap ? s->ptr : NULL, cap);
	if (!p)
		return kt_error(KT_ENOMEM, "out of memory");
	if (!s->cap)
		p[0] = '\0';
	s->ptr = p;
	s->cap = cap;
	return 0;
}

int kt_str_add(kt_str *s, const void *data, size_t len)
{
	int rc = kt_str_grow(s, len);
	if (rc)
		return rc;
	if (len) /* data may be NULL when len is 0 (an empty log) */
		memcpy(s->ptr + s->len, data, len);
	s->len += len;
	s->ptr[s->len] = '\0';
	return 0;
}

int kt_str_adds(kt_str *s, const char *cstr)
{
	return kt_str_add(s, cstr, strlen(cstr));
}

int kt_str_addc(kt_str *s, char c)
{
	return kt_str_add(s, &c, 1);
}

int kt_str_vaddf(kt_str *s, const char *fmt, va_list ap)
{
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return kt_error(KT_EINVALID, "bad format '%s'", fmt);
	int rc = kt_str_grow(s, (size_t)n);
	if (rc)
		return rc;
	vsnprintf(s->ptr + s->len, (size_t)n + 1, fmt, ap);
	s->len += (size_t)n;
	return 0;
}

int kt_str_addf(kt_str *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = kt_str_vaddf(s, fmt, ap);
	va_end(ap);
	return rc;
}

void kt_str_truncate(kt_str *s, size_t len)
{
	if (len < s->len) {
		s->len = len;
		s->ptr[len] = '\0';
	}
}

bool kt_is_ident(const char *s)
{
	if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

bool kt_c_word_next(const char *t, size_t len, size_t *at, size_t *b, size_t *e)
{
	size_t i = *at;
	bool line_start = i == 0 || t[i - 1] == '\n';
	while (i < len) {
		char c = t[i];
		if (c == '\n') {
			line_start = true;
			i++;
		} else if (isspace((unsigned char)c)) {
			i++;
		} else if (c == '/' && i + 1 < len && t[i + 1] == '/') {
			while (i < len && t[i] != '\n')
				i++;
		} else if (c == '/' && i + 1 < len && t[i + 1] == '*') {
			const char *end = strstr(t + i + 2, "*/");
			i = end ? (size_t)(end - t) + 2 : len;
		} else if (c == '#' && line_start) {
			while (i < len && !(t[i] == '\n' && t[i - 1] != '\\'))
				i++;
		} else if (c == '"' || c == '\'') {
			for (i++; i < len && t[i] != c && t[i] != '\n'; i++)
				if (t[i] == '\\')
					i++;
			i++;
			line_start = false;
		} else if (isalnum((unsigned char)c) || c == '_') {
			*b = i;
			while (i < len &&
			       (isalnum((unsigned char)t[i]) || t[i] == '_'))
				i++;
			*e = *at = i;
			return true;
		} else {
			i++;
			line_start = false;
		}
	}
	*at = len;
	return false;
}
