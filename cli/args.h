/* args.h - what several commands parse alike: numbers and --problem values. */
#ifndef KTC_CLI_ARGS_H
#define KTC_CLI_ARGS_H

#include "ktc/model.h"

#include <stdbool.h>
#include <stdint.h>

/* An integer if the whole text is one, else a float; -1 if neither. */
int cli_parse_number(const char *text, kt_value *out);

/*
 * Problem values of m: each variable's default, then the NAME=V texts of
 * --problem options. Returns -1 after a message prefixed with cmd
 * ("ktc tune") for malformed text or a name m does not have.
 */
int cli_problem_values(kt_value *vals, const kt_model *m,
                       const char *const *defs, int ndefs, const char *cmd);

/* --space-limit N as kt_space_limits.max_bindings takes it (0: none). */
uint64_t cli_space_limit(long n);

/*
 * After a space build that failed with rc: how to get past the limit on
 * bindings, unless a signal stopped it (interrupted).
 */
void cli_space_limit_hint(const char *cmd, int rc, bool interrupted, long n);

#endif
