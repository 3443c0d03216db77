/* cmd_annotate.c - placeholder until the annotate command lands. */
#include <stdio.h>

#include "cli/cmd.h"

int cmd_annotate(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "ktc: '%s' is not built yet\n", argv[0]);
	return 1;
}
