/* args.h - what several commands parse alike: numbers and --problem values. */
#ifndef KTC_CLI_ARGS_H
#define KTC_CLI_ARGS_H

#include "ktc/model.h"

/* An integer if the whole text is one, else a float; -1 if neither. */
int cli_parse_number(const char *text, kt_value *out);

/*
 * Problem values of m: each variable's default, then the NAME=V texts of
 * --problem options. Returns -1 after a message prefixed with cmd
 * ("ktc tune") for malformed text or a name m does not have.
 */
int cli_problem_values(kt_value *vals, const kt_model *m,
                       const char *const *defs, int ndefs, const char *cmd);

#endif
