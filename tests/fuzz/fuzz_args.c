/*
 * fuzz_args.c - libFuzzer target for the runtime's argument sizing
 * (runtime/buffers.c): the input is a template; each kernel's arguments
 * are evaluated at its default configuration and sized as a backend sizes
 * them (kt_buf_bytes with a device cap, kt_buf_scalar_check and
 * kt_buf_scalar), so counts and values the grammar accepts must give a
 * size or an error, never a crash, an overflow or a size over the cap.
 */
#include "ktc/model.h"
#include "runtime/buffers.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void size_args(const kt_model *m, uint64_t cap)
{
	kt_value *slots = kt_calloc(m->nsymbols + 1, sizeof(kt_value));
	uint32_t *idx = kt_calloc(m->nparams + 1, sizeof(uint32_t));
	if (!slots || !idx)
		goto done;
	kt_model_default_config(m, idx);
	if (kt_model_bind(slots, m, idx, NULL, NULL))
		goto done;
	for (size_t a = 0; a < m->nargs; a++) {
		const kt_arg *g = &m->args[a];
		kt_value v;
		if (g->count) {
			uint64_t count = 0, bytes = 0;
			if (kt_expr_eval(&v, g->count, slots) ||
			    kt_buf_bytes(&count, &bytes, g, v, cap))
				continue;
			if (bytes > cap || bytes >> 63 ||
			    (count && bytes / count != kt_type_size(g->type)))
				abort(); /* a size that should have been refused
				          */
		} else if (g->value && !kt_expr_eval(&v, g->value, slots) &&
		           !kt_buf_scalar_check(g, v)) {
			unsigned char buf[16];
			if (kt_buf_scalar(buf, g->type, v) > 8)
				abort();
		}
	}
done:
	kt_free(slots);
	kt_free(idx);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	kt_diags d;
	kt_template *t = NULL;
	kt_diags_init(&d);
	if (!kt_template_parse(&t, "fuzz.cu", text, &d))
		for (size_t i = 0; i < t->nmodels; i++)
			size_args(&t->models[i], (uint64_t)80 << 30);
	kt_template_free(t);
	kt_diags_release(&d);
	free(text);
	return 0;
}
