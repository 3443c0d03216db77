/* fastdiv_dump.c - writes the fast_div helper, the very text the rewriter
 * emits (rewriter/fastdiv.h), to the file argv[1], for test_fastdiv.c to
 * compile on the host. */
#include "rewriter/fastdiv.h"

#include <stdio.h>

int main(int argc, char **argv)
{
	FILE *f = argc == 2 ? fopen(argv[1], "w") : NULL;
	if (!f || fputs(kt_fastdiv_helper, f) < 0 || fclose(f)) {
		fprintf(stderr, "fastdiv_dump: cannot write '%s'\n",
		        argc == 2 ? argv[1] : "?");
		return 1;
	}
	return 0;
}
