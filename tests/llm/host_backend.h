/*
 * host_backend.h - the LLM loop tests' backend (host_backend.c): each
 * configuration of an axpb-shaped kernel compiled as host C++ and run, its
 * outputs compared with the default's at the problem size and an odd size;
 * times by formula.
 */
#ifndef KTC_TEST_LLM_HOST_BACKEND_H
#define KTC_TEST_LLM_HOST_BACKEND_H

#include "ktc/eval.h"

typedef struct host_world {
	const char *dir;     /* where sources and binaries go */
	const char *variant; /* value 1 of a parameter with this prefix is
	                        20% faster */
	int evals, compiles;
	int wrong; /* configurations whose outputs differed */
} host_world;

extern host_world HW;

/* A kt_optimize_open_fn. */
int host_backend_open(kt_backend **out, const kt_model *m,
                      const kt_backend_options *bo, void *ud);

#endif
