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

/*
 * The grid of shapes the --problem texts NAME=V[,V...] name: the product
 * of each variable's list (its default where no text names it), the first
 * variable varying slowest. *grid holds *nshapes rows of m->nproblems
 * values (kt_free it). Returns -1 after a message prefixed with cmd, as
 * cli_problem_values, also for a grid of more than max shapes.
 */
int cli_problem_grid(kt_value **grid, size_t *nshapes, const kt_model *m,
                     const char *const *defs, int ndefs, size_t max,
                     const char *cmd);

/*
 * The model of t that kernel names, or the only one when kernel is NULL;
 * otherwise NULL after a message prefixed with cmd, with *status 2 when t
 * has several kernels and none was named (usage), else 1.
 */
const kt_model *cli_pick_model(const kt_template *t, const char *kernel,
                               const char *cmd, int *status);

/* The backend when none is named: opencl for a .cl file where it is
 * built, else cuda, else opencl; NULL when neither is built in. */
const char *cli_default_backend(const char *path);

/* SIGINT and SIGTERM call fn once; the second one kills (SA_RESETHAND).
 * fn NULL puts the defaults back. */
void cli_catch_signals(void (*fn)(int));

/* --space-limit N as kt_space_limits.max_bindings takes it (0: none). */
uint64_t cli_space_limit(long n);

/*
 * After a space build that failed with rc: how to get past the limit on
 * bindings, unless a signal stopped it (interrupted).
 */
void cli_space_limit_hint(const char *cmd, int rc, bool interrupted, long n);

#endif
