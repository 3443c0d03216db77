/*
 * cuda.c - the CUDA toolkit's root (see cuda.h). The configured root is a
 * compile definition so that an installed ktc keeps finding the toolkit it
 * was built against when CUDA_HOME is unset.
 */
#include "util/cuda.h"

#include <stdlib.h>

#ifndef KTC_CUDA_ROOT
#define KTC_CUDA_ROOT "/usr/local/cuda"
#endif

const char *kt_cuda_root(void)
{
	const char *env = getenv("CUDA_HOME");
	return env && *env ? env : KTC_CUDA_ROOT;
}
