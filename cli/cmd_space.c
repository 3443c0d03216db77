/* cmd_space.c - placeholder until the space command lands. */
#include <stdio.h>

#include "cli/cmd.h"

int cmd_space(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "ktc: '%s' is not built yet\n", argv[0]);
	return 1;
}
