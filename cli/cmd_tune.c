/* cmd_tune.c - placeholder until the tune command lands. */
#include <stdio.h>

#include "cli/cmd.h"

int cmd_tune(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "ktc: '%s' is not built yet\n", argv[0]);
	return 1;
}
