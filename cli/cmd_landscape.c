/*
 * cmd_landscape.c - `ktc landscape FILE --kind K`: write a synthetic T4
 * result for every valid configuration of a template, so strategies can be
 * compared on the simulation backend before real GPU results exist.
 *
 * The output is marked synthetic in its metadata and in its device name;
 * it is a test landscape, never a measurement (docs/tuning.md).
 */
#include "cli/args.h"
#include "cli/cmd.h"

#include "ktc/tune.h"
#include "util/opt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAX_LIST = 64, DEFAULT_LIMIT = 100000 };

typedef struct options {
	const char *kernel, *kind, *out;
	const char *problem[MAX_LIST];
	int nproblem;
	long seed, limit;
} options;

static int run(const options *o, const char *path)
{
	kt_diags d;
	kt_diags_init(&d);
	kt_template *t = NULL;
	kt_value *problem = NULL;
	int status = 1;
	if (kt_template_load(&t, path, &d)) {
		if (d.errors == 0)
			fprintf(stderr, "ktc landscape: %s\n", kt_error_last());
		goto done;
	}
	const kt_model *m = kt_template_model(t, o->kernel);
	if (!m) {
		fprintf(stderr, "ktc landscape: %s in '%s'\n",
		        o->kernel    ? "no such annotated kernel"
		        : t->nmodels ? "several kernels; name one with --kernel"
		                     : "no '#pragma kt' kernel",
		        path);
		goto done;
	}
	problem = kt_calloc(m->nproblems + 1, sizeof(kt_value));
	if (!problem || cli_problem_values(problem, m, o->problem, o->nproblem,
	                                   "ktc landscape")) {
		status = 2;
		goto done;
	}
	if (kt_landscape_write(o->out, m, problem, o->kind, (uint64_t)o->seed,
	                       (uint64_t)o->limit, &d)) {
		kt_diags_print(&d, stderr,
		               isatty(2)); /* before the error line */
		kt_diags_release(&d);
		kt_diags_init(&d);
		fprintf(stderr, "ktc landscape: %s\n", kt_error_last());
		goto done;
	}
	status = 0;
	fprintf(stderr,
	        "ktc landscape: wrote '%s' (synthetic '%s', seed %ld)\n",
	        o->out, o->kind, o->seed);
done:
	kt_diags_print(&d, stderr, isatty(2));
	kt_free(problem);
	kt_template_free(t);
	kt_diags_release(&d);
	return status;
}

int cmd_landscape(int argc, char **argv)
{
	options o = {.seed = 1, .limit = DEFAULT_LIMIT};
	const kt_opt opts[] = {
	    KT_OPT_STRING_(0, "kind", &o.kind, "NAME",
	                   "bowl, roofline or rugged (docs/tuning.md)"),
	    KT_OPT_LIST_('p', "problem", o.problem, &o.nproblem, MAX_LIST,
	                 "NAME=V",
	                 "a problem variable's value (default: its default)"),
	    KT_OPT_INT_(0, "seed", &o.seed, "S",
	                "seed of the landscape (default 1)"),
	    KT_OPT_STRING_('k', "kernel", &o.kernel, "NAME",
	                   "the kernel (needed when FILE has several)"),
	    KT_OPT_INT_(0, "limit", &o.limit, "N",
	                "refuse spaces with more valid configurations (default "
	                "100000)"),
	    KT_OPT_STRING_('o', "output", &o.out, "FILE",
	                   "the T4 file to write"),
	    KT_OPT_END_,
	};
	const kt_cmd_info info = {
	    .usage = "ktc landscape --kind NAME -o FILE [options] TEMPLATE",
	    .summary =
	        "Writes a SYNTHETIC T4 result for every valid configuration "
	        "of TEMPLATE: times\nfrom a documented formula, not "
	        "measurements, to compare search strategies on\nthe sim "
	        "backend (ktc tune --backend sim --from FILE). Exit "
	        "status: 0 ok,\n1 failure, 2 usage.",
	    .opts = opts,
	};
	static char name[] = "ktc landscape";
	int npos;
	argv[0] = name;
	int rc = kt_opt_parse(&info, argc, argv, &npos);
	if (rc)
		return rc > 0 ? 0 : 2;
	if (npos != 1 || !o.kind || !o.out || o.seed < 0 || o.limit < 1) {
		fprintf(stderr, "usage: %s (see 'ktc landscape --help')\n",
		        info.usage);
		return 2;
	}
	return run(&o, argv[0]);
}
