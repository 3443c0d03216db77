/*
 * main.c - the ktc command: dispatches to one cmd_<name>() per file in cli/.
 * The CLI uses only the public API in include/ktc/ (and util/ for option
 * parsing); it alone decides exit statuses: 0 success, 1 failure, 2 usage.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"
#include "ktc/eval.h"

static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} commands[] = {
#ifdef KTC_HAVE_LIBCLANG
    {"annotate", cmd_annotate,
     "turn a kernel's tuning literals into a #pragma kt template"},
    {"optimize", cmd_optimize,
     "refactor, verify and tune a kernel, round after round"},
#endif
    {"space", cmd_space,
     "print a template's parameters, constraints and space size"},
    {"tune", cmd_tune, "search a template's space on a backend"},
    {"landscape", cmd_landscape,
     "write a synthetic results file for testing strategies"},
    {"check", cmd_check,
     "run every value of every parameter against the default"},
    {"apply", cmd_apply, "write a template with its best configuration fixed"},
#ifdef KTC_HAVE_CUDA
    {"export", cmd_export,
     "write C that launches a tuned kernel by shape, compiled by nvcc"},
#endif
};

static void usage(FILE *out)
{
	fprintf(out,
	        "usage: ktc [--version] [--help] <command> [<args>]\n\n"
	        "ktc compiles kernel templates and tunes them.\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name,
		        commands[i].summary);
	fprintf(out, "\n'ktc <command> --help' describes a command.\n");
}

/*
 * A command's status, or 1 when its standard output was not all written
 * (a full disk, a closed pipe): printf's errors are sticky, so checking
 * once at exit catches every one, as git does.
 */
static int finish(int status)
{
	if (fflush(stdout) == 0 && !ferror(stdout) && fclose(stdout) == 0)
		return status;
	fprintf(stderr, "ktc: cannot write standard output: %s\n",
	        errno ? strerror(errno) : "write error");
	return status ? status : 1;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return finish(0);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("ktc %s\n", KTC_VERSION);
		return finish(0);
	}
#ifdef KTC_HAVE_CUDA
	/* hidden: the CUDA backend's worker process (ktc/eval.h) */
	if (!strcmp(argv[1], "__cuda-worker"))
		return kt_cuda_worker_main(argc - 1, argv + 1);
#endif
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		/* Commands name themselves "ktc <name>" in messages and usage.
		 */
		char self[64];
		snprintf(self, sizeof(self), "ktc %s", commands[i].name);
		argv[1] = self;
		return finish(commands[i].fn(argc - 1, argv + 1));
	}
	fprintf(stderr, "ktc: '%s' is not a ktc command (see 'ktc --help')\n",
	        argv[1]);
	return 2;
}
