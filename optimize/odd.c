/*
 * odd.c - the shapes tuning does not visit: before a shape's best
 * configuration counts, it must give the original's outputs around the
 * shape too, with each integer problem variable at 1 (one token, one row)
 * and at (v / 2) | 1 (odd, about half: a tail no vector width divides),
 * the others as at the shape. The backend's own checks cover the tuned
 * size (two input seeds and special values) and one size off it; a
 * refactor that is wrong only at one token or only at an odd length of
 * one variable is caught here, and the next fastest configuration that
 * holds takes its place.
 */
#include "optimize/opt.h"

#include "util/str.h"

#include <stdlib.h>
#include <string.h>

enum { ODD_MAX = 16 };

size_t kt_opt_odd_shapes(const kt_model *m, const kt_value *at, kt_value *out,
                         size_t max)
{
	size_t n = 0, np = m->nproblems;
	for (size_t i = 0; i < np; i++) {
		if (at[i].is_float || at[i].i < 2)
			continue;
		int64_t v = at[i].i, c[2] = {1, (v / 2) | 1};
		for (int k = 0; k < 2 && n < max; k++) {
			if (c[k] == v || (k == 1 && c[1] == c[0]))
				continue;
			kt_value *o = &out[n * np];
			memcpy(o, at, np * sizeof(*o));
			o[i].i = c[k];
			n++;
		}
	}
	return n;
}

static int by_time(const void *x, const void *y)
{
	const kt_tune_entry *a = *(const kt_tune_entry *const *)x;
	const kt_tune_entry *b = *(const kt_tune_entry *const *)y;
	return (a->result.time_ms > b->result.time_ms) -
	       (a->result.time_ms < b->result.time_ms);
}

static const char *problem_text(const kt_model *m, const kt_value *p,
                                kt_arena *a)
{
	kt_str s = KT_STR_INIT;
	for (size_t i = 0; i < m->nproblems; i++)
		kt_str_addf(&s, "%s%s=%lld", i ? " " : "", m->problems[i].name,
		            (long long)p[i].i);
	const char *r = s.ptr ? kt_arena_strdup(a, s.ptr) : NULL;
	kt_str_release(&s);
	return r;
}

/* Marks in bad[] the entries of e[0, n) that do not hold at odd shape p
 * on backend b (set to p): the original's outputs, or a constraint that
 * leaves p out for them. */
static int check_at(kt_backend *b, const kt_model *m, const kt_value *p,
                    const kt_value *dev, const kt_tune_entry *const *e,
                    size_t n, bool *bad, kt_arena *a, const char **why)
{
	kt_value *slots = calloc(n * m->nsymbols + 1, sizeof(*slots));
	kt_eval_request *reqs = calloc(n + 1, sizeof(*reqs));
	kt_result *res = calloc(n + 1, sizeof(*res));
	int rc =
	    !slots || !reqs || !res ? kt_error(KT_ENOMEM, "out of memory") : 0;
	for (size_t i = 0; !rc && i < n; i++) {
		kt_result_init(&res[i]);
		reqs[i] = (kt_eval_request){e[i]->param_idx,
		                            &slots[i * m->nsymbols], e[i]->key};
		rc = kt_model_bind(&slots[i * m->nsymbols], m, e[i]->param_idx,
		                   p, dev);
	}
	if (!rc)
		rc = b->ops->evaluate(b, reqs, n, res);
	for (size_t i = 0; !rc && i < n; i++) {
		if (res[i].status == KT_STATUS_OK ||
		    res[i].status == KT_STATUS_CONSTRAINTS || bad[i])
			continue;
		bad[i] = true;
		if (!*why)
			*why = kt_arena_printf(a, "%s at %s: %s: %s", e[i]->key,
			                       problem_text(m, p, a),
			                       kt_status_name(res[i].status),
			                       res[i].message ? res[i].message
			                                      : "");
	}
	for (size_t i = 0; res && i < n; i++)
		kt_result_release(&res[i]);
	free(slots);
	free(reqs);
	free(res);
	return rc;
}

/* Candidates are tried in batches of growing size, fastest first, so
 * that the usual case (the fastest holds) costs one configuration per
 * odd shape, and a parameter value wrong around the shape, which spoils
 * every configuration that has it, costs a few rounds. */
static const size_t batches[] = {1, 3, 12, 48};

int kt_opt_odd_best(const kt_tune_entry **best, const kt_opt_odd_ctx *c,
                    const kt_tune_entry *const *cands, size_t ncands,
                    const kt_tune_entry *def, size_t *set_aside,
                    const char **why)
{
	const kt_model *m = c->m;
	size_t np = m->nproblems;
	kt_value *odd = calloc(ODD_MAX * (np + 1), sizeof(*odd));
	const kt_tune_entry **order = calloc(ncands + 1, sizeof(*order));
	bool *bad = calloc(ncands + 1, sizeof(*bad));
	int rc =
	    !odd || !order || !bad ? kt_error(KT_ENOMEM, "out of memory") : 0;
	size_t nodd = rc ? 0 : kt_opt_odd_shapes(m, c->at, odd, ODD_MAX);
	if (!rc) {
		memcpy(order, cands, ncands * sizeof(*order));
		qsort(order, ncands, sizeof(*order), by_time);
	}
	*best = def;
	size_t from = 0;
	for (size_t k = 0; !rc && k < sizeof(batches) / sizeof(batches[0]) &&
	                   from < ncands && *best == def;
	     k++) {
		size_t n =
		    ncands - from < batches[k] ? ncands - from : batches[k];
		size_t upto = from + n;
		for (size_t i = from; i < upto; i++)
			if (order[i] ==
			    def) /* the original: nothing to check */
				upto = i;
		for (size_t o = 0; !rc && o < nodd && upto > from; o++) {
			if (c->b->ops->set_problem(c->b, &odd[o * np])) {
				kt_error_clear(); /* no reference there */
				continue;
			}
			rc = check_at(c->b, m, &odd[o * np], c->dev,
			              order + from, upto - from, bad + from,
			              c->arena, why);
		}
		for (size_t i = from; !rc && i < upto && *best == def; i++) {
			if (!bad[i])
				*best = order[i];
			else
				(*set_aside)++;
		}
		if (upto < from + n) /* the default came next */
			break;
		from += n;
	}
	free(odd);
	free(order);
	free(bad);
	return rc;
}
