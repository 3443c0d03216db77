/* opt.c - the option parser of opt.h: --long, --long=V, --long V, -s V, --. */
#include "util/opt.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void kt_opt_help(const kt_cmd_info *info, FILE *out)
{
	fprintf(out, "usage: %s\n\n%s\n", info->usage, info->summary);
	if (!info->opts || info->opts[0].kind == KT_OPT_END)
		return;
	fprintf(out, "\noptions:\n");
	for (const kt_opt *o = info->opts; o->kind != KT_OPT_END; o++) {
		char left[64];
		int n = 0;
		if (o->short_name)
			n = snprintf(left, sizeof(left), "-%c, ",
			             o->short_name);
		snprintf(left + n, sizeof(left) - (size_t)n, "--%s%s%s",
		         o->long_name, o->arg_name ? " " : "",
		         o->arg_name ? o->arg_name : "");
		fprintf(out, "  %-26s %s\n", left, o->help);
	}
	fprintf(out, "  %-26s %s\n", "-h, --help", "show this help");
}

static const kt_opt *find_long(const kt_opt *opts, const char *name, size_t n)
{
	for (const kt_opt *o = opts; o && o->kind != KT_OPT_END; o++)
		if (strlen(o->long_name) == n &&
		    !strncmp(o->long_name, name, n))
			return o;
	return NULL;
}

static const kt_opt *find_short(const kt_opt *opts, char c)
{
	for (const kt_opt *o = opts; o && o->kind != KT_OPT_END; o++)
		if (o->short_name == c)
			return o;
	return NULL;
}

static int store(const char *cmd, const kt_opt *o, const char *arg)
{
	char *end;
	errno = 0;
	switch (o->kind) {
	case KT_OPT_STRING: *(const char **)o->value = arg; return 0;
	case KT_OPT_INT: {
		long v = strtol(arg, &end, 0);
		if (errno || *end || end == arg)
			break;
		*(long *)o->value = v;
		return 0;
	}
	case KT_OPT_DOUBLE: {
		double v = strtod(arg, &end);
		/* nan passes every range check after it; inf is no count */
		if (errno || *end || end == arg || !isfinite(v))
			break;
		*(double *)o->value = v;
		return 0;
	}
	case KT_OPT_LIST:
		if (*o->count >= o->max) {
			fprintf(stderr,
			        "%s: too many --%s options (at most %d)\n", cmd,
			        o->long_name, o->max);
			return -1;
		}
		((const char **)o->value)[(*o->count)++] = arg;
		return 0;
	default: return -1;
	}
	fprintf(stderr, "%s: option '--%s' expects a number, not '%s'\n", cmd,
	        o->long_name, arg);
	return -1;
}

int kt_opt_parse(const kt_cmd_info *info, int argc, char **argv, int *npos)
{
	const char *cmd = argv[0];
	int pos = 0;
	bool only_pos = false;
	for (int i = 1; i < argc; i++) {
		char *a = argv[i];
		if (only_pos || a[0] != '-' || a[1] == '\0') {
			argv[pos++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_pos = true;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			kt_opt_help(info, stdout);
			return 1;
		}
		const kt_opt *o;
		const char *val = NULL;
		if (a[1] == '-') {
			const char *eq = strchr(a + 2, '=');
			size_t n = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
			o = find_long(info->opts, a + 2, n);
			val = eq ? eq + 1 : NULL;
		} else {
			o = a[2] == '\0' ? find_short(info->opts, a[1]) : NULL;
		}
		if (!o) {
			fprintf(stderr,
			        "%s: unknown option '%s' (see '%s --help')\n",
			        cmd, a, cmd);
			return -1;
		}
		if (o->kind == KT_OPT_FLAG) {
			if (val) {
				fprintf(stderr,
				        "%s: option '--%s' takes no value\n",
				        cmd, o->long_name);
				return -1;
			}
			*(bool *)o->value = true;
			continue;
		}
		if (!val) {
			if (i + 1 >= argc) {
				fprintf(stderr,
				        "%s: option '%s' needs a value\n", cmd,
				        a);
				return -1;
			}
			val = argv[++i];
		}
		if (store(cmd, o, val))
			return -1;
	}
	*npos = pos;
	return 0;
}
