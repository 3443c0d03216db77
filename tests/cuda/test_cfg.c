/*
 * test_cfg.c - a CUDA configuration's sizes (runtime/cuda/config.c), with
 * no GPU: a buffer over the device's memory is refused before anything is
 * allocated, sizes that do not evaluate say where, at file:line:col, and
 * a launch's pdl() switch is 0 or 1.
 */
#include "check.h"

#include <string.h>

#include "runtime/cuda/config.h"

static const char *text =
    "#pragma kt problem N values(1024) default(1024)\n"
    "#pragma kt param B values(64, 0, 256) default(64)\n"
    "#pragma kt launch grid(N / B) block(64) smem(128 - B)\n"
    "#pragma kt arg out float[N * 1000000000] out\n"
    "__global__ void k(float *out) {}\n";

static int make(const kt_model *m, uint32_t b, uint64_t cap)
{
	kt_cu_cfg c;
	uint32_t idx[1] = {b};
	int rc = kt_cu_cfg_make(&c, m, idx, NULL, NULL, cap);
	kt_cu_cfg_release(&c);
	return rc;
}

static const kt_model *m;

static void buffer_over_device_memory_refused_at_its_pragma(void)
{
	CHECK(make(m, 0, (uint64_t)80 << 30) != 0);
	CHECK(strstr(kt_error_last(), "t.kt.cu:4:") != NULL);
	CHECK(strstr(kt_error_last(), "4096000000000 bytes") != NULL);
}

static void grid_error_located(void)
{
	CHECK(make(m, 1, 0) != 0);
	CHECK(strstr(kt_error_last(), "t.kt.cu:3:24: the grid x size") != NULL);
}

static void smem_error_located(void)
{
	CHECK(make(m, 2, 0) != 0);
	CHECK(strstr(kt_error_last(), "t.kt.cu:3:46: the shared memory size") !=
	      NULL);
}

static const char *pdl_text =
    "#pragma kt param P values(0, 1, 2) default(0)\n"
    "#pragma kt launch grid(4) block(64) pdl(P)\n"
    "#pragma kt arg out float[256] out\n"
    "__global__ void k(float *out) { "
    "asm volatile(\"griddepcontrol.wait;\" ::: \"memory\"); }\n";

/* pdl(P) at P's value i: the switch made, or -1 where it was refused. */
static int pdl_at(uint32_t i)
{
	kt_diags d;
	kt_template *t = NULL;
	kt_diags_init(&d);
	int on = -1;
	if (!kt_template_parse(&t, "p.kt.cu", pdl_text, &d)) {
		kt_cu_cfg c;
		uint32_t idx[1] = {i};
		if (!kt_cu_cfg_make(&c, kt_template_model(t, NULL), idx, NULL,
		                    NULL, 0))
			on = c.pdl;
		kt_cu_cfg_release(&c);
	}
	kt_template_free(t);
	kt_diags_release(&d);
	return on;
}

static void pdl_is_a_switch(void)
{
	CHECK_EQ_INT(pdl_at(0), 0);
	CHECK_EQ_INT(pdl_at(1), 1);
	CHECK_EQ_INT(pdl_at(2), -1);
	CHECK(strstr(kt_error_last(), "p.kt.cu:2:41: the pdl switch") != NULL);
}

int main(void)
{
	kt_diags d;
	kt_template *t = NULL;
	kt_diags_init(&d);
	CHECK(kt_template_parse(&t, "t.kt.cu", text, &d) == 0);
	m = t ? kt_template_model(t, NULL) : NULL;
	if (m) {
		RUN(buffer_over_device_memory_refused_at_its_pragma);
		RUN(grid_error_located);
		RUN(smem_error_located);
	}
	RUN(pdl_is_a_switch);
	kt_template_free(t);
	kt_diags_release(&d);
	return m ? check_summary() : 1;
}
