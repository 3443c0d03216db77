/*
 * tune_pocl.c - a host program built against an installed ktc (by a CMake
 * project with find_package and by a Makefile with pkg-config): it tunes a
 * small OpenCL template through the C API on whatever platform the ICD
 * loader finds (PoCL on the CI machine) and checks the report. Exits 77
 * where the library has no OpenCL backend or no platform exists.
 */
#include <ktc/eval.h>
#include <ktc/model.h>
#include <ktc/tune.h>

#include <stdio.h>
#include <string.h>

static const char text[] =
    "#pragma kt problem N values(4096) default(4096)\n"
    "#pragma kt param BLOCK values(32, 64, 128) default(64)\n"
    "#pragma kt param ITEMS values(1, 2, 4) default(1)\n"
    "#pragma kt launch grid(div_ceil(N, BLOCK * ITEMS)) block(BLOCK)\n"
    "#pragma kt arg z float[N] out\n"
    "#pragma kt arg x float[N] in\n"
    "#pragma kt arg n int = N\n"
    "__kernel void twice(__global float *z, __global const float *x,\n"
    "                    int n)\n"
    "{\n"
    "	int base = get_group_id(0) * BLOCK * ITEMS + get_local_id(0);\n"
    "	for (int k = 0; k < ITEMS; k++) {\n"
    "		int i = base + k * BLOCK;\n"
    "		if (i < n)\n"
    "			z[i] = 2.0f * x[i];\n"
    "	}\n"
    "}\n";

int main(void)
{
	kt_diags d;
	kt_diags_init(&d);
	kt_template *t = NULL;
	kt_backend *b = NULL;
	kt_tune_report *r = NULL;
	int status = 1;
	if (kt_template_parse(&t, "twice.cl", text, &d)) {
		kt_diags_print(&d, stderr, 0);
		goto done;
	}
	const kt_model *m = kt_template_model(t, NULL);
	kt_backend_options bo = {.timed_runs = 3, .seed = 1};
	int rc = kt_backend_open(&b, "opencl", m, &bo);
	if (rc) {
		fprintf(stderr, "tune_pocl: %s\n", kt_error_last());
		status = rc == KT_EUNSUPPORTED ? 77 : 1;
		goto done;
	}
	kt_tune_options to = {.strategy = "brute_force", .seed = 1};
	if (kt_tune_run(&r, m, b, &to)) {
		fprintf(stderr, "tune_pocl: %s\n", kt_error_last());
		goto done;
	}
	/* the whole space (9 configurations) evaluated, every one correct */
	if (r->space_size != 9 || r->nentries != 9 ||
	    r->counts[KT_STATUS_OK] != 9 || !r->best ||
	    !(r->best->result.time_ms > 0)) {
		fprintf(stderr,
		        "tune_pocl: unexpected report (space %llu, %zu "
		        "entries, %llu correct)\n",
		        (unsigned long long)r->space_size, r->nentries,
		        (unsigned long long)r->counts[KT_STATUS_OK]);
		goto done;
	}
	printf("tuned on %s: best %s, %.4f ms\n", r->device.name, r->best->key,
	       r->best->result.time_ms);
	status = 0;
done:
	kt_tune_report_free(r);
	kt_backend_free(b);
	kt_template_free(t);
	kt_diags_release(&d);
	return status;
}
