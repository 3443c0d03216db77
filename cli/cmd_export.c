/*
 * cmd_export.c - `ktc export TEMPLATE WISDOM -o PREFIX`: PREFIX.h and
 * PREFIX.c that launch a tuned kernel by shape with no JIT. A thin
 * command over kt_export (ktc/export.h, runtime/cuda/export.c).
 */
#include "cli/args.h"
#include "cli/cmd.h"

#include "ktc/export.h"
#include "util/opt.h"

#include <stdio.h>
#include <unistd.h>

typedef struct options {
	const char *out, *kernel, *arch, *nvcc;
} options;

static int export(const options *o, const char *tpath, const char *wpath)
{
	kt_diags d;
	kt_diags_init(&d);
	kt_template *t = NULL;
	kt_export_report rep = {0};
	int status = 1;
	if (kt_template_load(&t, tpath, &d)) {
		kt_diags_print(&d, stderr, isatty(2));
		if (!d.errors)
			fprintf(stderr, "ktc export: %s\n", kt_error_last());
		goto done;
	}
	const kt_model *m = cli_pick_model(t, o->kernel, "ktc export", &status);
	kt_export_options eo = {.arch = o->arch, .nvcc = o->nvcc};
	if (!m)
		goto done;
	status = 1;
	if (kt_export(&rep, t, m, wpath, o->out, &eo)) {
		fprintf(stderr, "ktc export: %s\n", kt_error_last());
		goto done;
	}
	printf("%s, %s: kernel '%s', %zu configurations for %zu shapes (%s)\n",
	       rep.header, rep.source, m->kernel, rep.nconfigs, rep.nshapes,
	       o->arch ? o->arch : "sm_90a");
	status = 0;
done:
	kt_export_report_release(&rep);
	kt_template_free(t);
	kt_diags_release(&d);
	return status;
}

int cmd_export(int argc, char **argv)
{
	options o = {0};
	const kt_opt opts[] = {
	    KT_OPT_STRING_('o', "output", &o.out, "PREFIX",
	                   "write PREFIX.h and PREFIX.c"),
	    KT_OPT_STRING_('k', "kernel", &o.kernel, "NAME",
	                   "the kernel (needed when TEMPLATE has several)"),
	    KT_OPT_STRING_(0, "arch", &o.arch, "SM",
	                   "the GPU architecture to compile for (default "
	                   "sm_90a)"),
	    KT_OPT_STRING_(0, "nvcc", &o.nvcc, "PATH",
	                   "the nvcc to run (default: the CUDA toolkit's)"),
	    KT_OPT_END_,
	};
	const kt_cmd_info info = {
	    .usage = "ktc export [options] TEMPLATE WISDOM -o PREFIX",
	    .summary =
	        "Writes PREFIX.h and PREFIX.c: one entry point for the kernel "
	        "that launches,\nat the shape it is given, the configuration "
	        "WISDOM (ktc tune --wisdom) holds\nfor it (exact, else the "
	        "nearest tuned shape, else the template's defaults),\neach "
	        "compiled ahead of time by nvcc into a fatbin embedded in "
	        "PREFIX.c: no JIT\nat run time. Link with -lcuda -lpthread "
	        "-lm. Exit status: 0 ok, 1 failure, 2 usage.",
	    .opts = opts,
	};
	static char name[] = "ktc export";
	int npos = 0;
	argv[0] = name;
	int rc = kt_opt_parse(&info, argc, argv, &npos);
	if (rc)
		return rc > 0 ? 0 : 2;
	if (npos != 2 || !o.out) {
		fprintf(stderr, "usage: %s (see 'ktc export --help')\n",
		        info.usage);
		return 2;
	}
	return export(&o, argv[0], argv[1]);
}
