/*
 * opt.h - declarative command-line options (git's parse-options): each
 * command lists its options in a table, and the same table prints --help.
 */
#ifndef KTC_UTIL_OPT_H
#define KTC_UTIL_OPT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef enum kt_opt_kind {
	KT_OPT_END,
	KT_OPT_FLAG,   /* bool */
	KT_OPT_STRING, /* const char * */
	KT_OPT_INT,    /* long */
	KT_OPT_DOUBLE, /* double */
	KT_OPT_LIST,   /* repeated string: const char *[] with count */
} kt_opt_kind;

typedef struct kt_opt {
	kt_opt_kind kind;
	char short_name; /* 0 for none */
	const char *long_name;
	void *value;
	const char *arg_name; /* "N", "FILE"; NULL for flags */
	const char *help;
	int *count; /* KT_OPT_LIST: number of values stored */
	int max;    /* KT_OPT_LIST: capacity of the array */
} kt_opt;

#define KT_OPT_FLAG_(s, l, v, h)                                               \
	{                                                                      \
		KT_OPT_FLAG, s, l, v, NULL, h, NULL, 0                         \
	}
#define KT_OPT_STRING_(s, l, v, a, h)                                          \
	{                                                                      \
		KT_OPT_STRING, s, l, v, a, h, NULL, 0                          \
	}
#define KT_OPT_INT_(s, l, v, a, h)                                             \
	{                                                                      \
		KT_OPT_INT, s, l, v, a, h, NULL, 0                             \
	}
#define KT_OPT_DOUBLE_(s, l, v, a, h)                                          \
	{                                                                      \
		KT_OPT_DOUBLE, s, l, v, a, h, NULL, 0                          \
	}
#define KT_OPT_LIST_(s, l, v, n, m, a, h)                                      \
	{                                                                      \
		KT_OPT_LIST, s, l, v, a, h, n, m                               \
	}
#define KT_OPT_END_                                                            \
	{                                                                      \
		KT_OPT_END, 0, NULL, NULL, NULL, NULL, NULL, 0                 \
	}

typedef struct kt_cmd_info {
	const char *usage;   /* "ktc space [options] FILE" */
	const char *summary; /* one paragraph on what the command does */
	const kt_opt *opts;
} kt_cmd_info;

/*
 * Parses argv (argv[0] is the command name). Positional arguments are moved
 * to the front of argv; their count is returned through *npos. Returns 0,
 * 1 when --help was printed (the command should exit 0), or -1 after
 * printing an error to stderr (exit 2).
 */
int kt_opt_parse(const kt_cmd_info *info, int argc, char **argv, int *npos);
void kt_opt_help(const kt_cmd_info *info, FILE *out);

#endif
