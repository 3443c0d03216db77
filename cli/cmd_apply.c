/* cmd_apply.c - placeholder until the apply command lands. */
#include <stdio.h>

#include "cli/cmd.h"

int cmd_apply(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "ktc: '%s' is not built yet\n", argv[0]);
	return 1;
}
