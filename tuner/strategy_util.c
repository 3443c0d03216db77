/*
 * strategy_util.c - small tools the strategies share: an index map, a
 * sampler without replacement, and the "name=value" settings parser.
 *
 * The sampler is a Fisher-Yates shuffle of 0..count-1 that stores only the
 * positions it swapped, so it serves a space of 10^12 configurations as
 * well as one of ten: memory grows with the draws, and it runs dry exactly
 * when every index was drawn once.
 */
#include "tuner/strategy_impl.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static size_t slot_of(uint64_t key, size_t cap)
{
	uint64_t z = key + 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (size_t)(z ^ (z >> 31)) & (cap - 1);
}

static void insert_slot(uint64_t *keys, uint64_t *vals, size_t cap,
                        uint64_t key, uint64_t val)
{
	size_t i = slot_of(key, cap);
	while (keys[i] != KT_IMAP_EMPTY && keys[i] != key)
		i = (i + 1) & (cap - 1);
	keys[i] = key;
	vals[i] = val;
}

static int imap_grow(kt_imap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	uint64_t *keys = kt_malloc(cap * sizeof(*keys));
	uint64_t *vals = kt_malloc(cap * sizeof(*vals));
	if (!keys || !vals) {
		kt_free(keys);
		kt_free(vals);
		return kt_error(KT_ENOMEM, "out of memory for a map of %zu",
		                cap);
	}
	memset(keys, 0xff, cap * sizeof(*keys));
	for (size_t i = 0; i < m->cap; i++)
		if (m->keys[i] != KT_IMAP_EMPTY)
			insert_slot(keys, vals, cap, m->keys[i], m->vals[i]);
	kt_free(m->keys);
	kt_free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
	return 0;
}

int kt_imap_put(kt_imap *m, uint64_t key, uint64_t val)
{
	if (key == KT_IMAP_EMPTY)
		return kt_error(KT_EINVALID, "map key out of range");
	if ((m->len + 1) * 2 > m->cap) {
		int rc = imap_grow(m);
		if (rc)
			return rc;
	}
	size_t i = slot_of(key, m->cap);
	while (m->keys[i] != KT_IMAP_EMPTY && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	if (m->keys[i] == KT_IMAP_EMPTY)
		m->len++;
	m->keys[i] = key;
	m->vals[i] = val;
	return 0;
}

bool kt_imap_get(const kt_imap *m, uint64_t key, uint64_t *val)
{
	if (!m->cap)
		return false;
	size_t i = slot_of(key, m->cap);
	while (m->keys[i] != KT_IMAP_EMPTY) {
		if (m->keys[i] == key) {
			if (val)
				*val = m->vals[i];
			return true;
		}
		i = (i + 1) & (m->cap - 1);
	}
	return false;
}

void kt_imap_release(kt_imap *m)
{
	kt_free(m->keys);
	kt_free(m->vals);
	memset(m, 0, sizeof(*m));
}

void kt_sampler_init(kt_sampler *s, uint64_t count)
{
	memset(s, 0, sizeof(*s));
	s->count = count;
}

/* The value at position i of the virtual permutation (i where unswapped). */
static uint64_t perm_at(const kt_sampler *s, uint64_t i)
{
	uint64_t v;
	return kt_imap_get(&s->swaps, i, &v) ? v : i;
}

int kt_sampler_next(kt_sampler *s, kt_rng *rng, uint64_t *out)
{
	if (s->drawn >= s->count)
		return 0;
	uint64_t i = s->drawn;
	uint64_t j = i + kt_rng_below(rng, s->count - i);
	uint64_t vi = perm_at(s, i), vj = perm_at(s, j);
	/* Position i is never read again, so only j needs to remember vi. */
	if (j != i) {
		int rc = kt_imap_put(&s->swaps, j, vi);
		if (rc)
			return rc;
	}
	s->drawn++;
	*out = vj;
	return 1;
}

void kt_sampler_release(kt_sampler *s)
{
	kt_imap_release(&s->swaps);
}

/* Index of word in "a|b|c", or -1. */
static int choice_index(const char *choices, const char *word)
{
	size_t wlen = strlen(word);
	int k = 0;
	for (const char *p = choices; *p; k++) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);
		if (len == wlen && !strncmp(p, word, len))
			return k;
		if (!bar)
			break;
		p = bar + 1;
	}
	return -1;
}

static int set_default(void *conf, const kt_setting *t)
{
	char *field = (char *)conf + t->offset;
	if (t->kind == KT_SETTING_REAL)
		*(double *)field = t->def;
	else
		*(int *)field = (int)t->def;
	return 0;
}

static int bad_value(const char *strategy, const kt_setting *t,
                     const char *value)
{
	if (t->kind == KT_SETTING_CHOICE)
		return kt_error(KT_EINVALID,
		                "setting '%s' of strategy '%s' is one of %s, "
		                "not '%s'",
		                t->name, strategy, t->choices, value);
	return kt_error(KT_EINVALID,
	                "setting '%s' of strategy '%s' wants %s from %g to %g, "
	                "not '%s'",
	                t->name, strategy,
	                t->kind == KT_SETTING_INT ? "an integer" : "a number",
	                t->lo, t->hi, value);
}

static int set_value(void *conf, const kt_setting *t, const char *strategy,
                     const char *value)
{
	char *field = (char *)conf + t->offset;
	if (t->kind == KT_SETTING_CHOICE) {
		int k = choice_index(t->choices, value);
		if (k < 0)
			return bad_value(strategy, t, value);
		*(int *)field = k;
		return 0;
	}
	char *end;
	errno = 0;
	double v = t->kind == KT_SETTING_INT ? (double)strtoll(value, &end, 10)
	                                     : strtod(value, &end);
	if (end == value || *end || errno || !isfinite(v) || v < t->lo ||
	    v > t->hi)
		return bad_value(strategy, t, value);
	if (t->kind == KT_SETTING_REAL)
		*(double *)field = v;
	else
		*(int *)field = (int)v;
	return 0;
}

static const kt_setting *find_setting(const kt_setting *table, const char *name,
                                      size_t len)
{
	for (const kt_setting *t = table; t && t->name; t++)
		if (strlen(t->name) == len && !strncmp(t->name, name, len))
			return t;
	return NULL;
}

int kt_settings_parse(void *conf, const kt_setting *table, const char *strategy,
                      const char *const *settings)
{
	for (const kt_setting *t = table; t && t->name; t++)
		set_default(conf, t);
	for (size_t i = 0; settings && settings[i]; i++) {
		const char *s = settings[i], *eq = strchr(s, '=');
		if (!eq)
			return kt_error(KT_EINVALID,
			                "setting '%s' of strategy '%s' is not "
			                "name=value",
			                s, strategy);
		const kt_setting *t = find_setting(table, s, (size_t)(eq - s));
		if (!t)
			return kt_error(KT_ENOTFOUND,
			                "unknown setting '%.*s' for strategy "
			                "'%s'",
			                (int)(eq - s), s, strategy);
		int rc = set_value(conf, t, strategy, eq + 1);
		if (rc)
			return rc;
	}
	return 0;
}
