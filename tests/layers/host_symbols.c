/*
 * host_symbols.c - a host program that defines lex_next and parse_block,
 * names ktc's grammar uses inside, links with libktc.a and parses a
 * template through it: each side calls its own function.
 */
#include "ktc/model.h"

#include <stdio.h>

int lex_next(void);
int parse_block(void);

int lex_next(void)
{
	return 42;
}

int parse_block(void)
{
	return 7;
}

int main(void)
{
	static const char text[] =
	    "#pragma kt param BLOCK pow2(32, 1024) default(256)\n"
	    "#pragma kt param ITEMS values(1, 2, 4) default(1)\n"
	    "#pragma kt launch grid(1) block(BLOCK)\n"
	    "__global__ void k(void) {}\n";
	kt_diags d;
	kt_diags_init(&d);
	kt_template *t = NULL;
	int rc = kt_template_parse(&t, "k.kt.cu", text, &d);
	const kt_model *m = rc ? NULL : kt_template_model(t, NULL);
	int ok = m && m->nparams == 2 && lex_next() == 42 && parse_block() == 7;
	if (!ok) {
		kt_diags_print(&d, stderr, 0);
		fprintf(stderr, "host_symbols: rc %d, %s\n", rc,
		        kt_error_last());
	}
	kt_template_free(t);
	kt_diags_release(&d);
	return ok ? 0 : 1;
}
