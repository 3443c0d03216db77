/*
 * vecadd.cl - a work-group's loop over contiguous elements, for the
 * vectorize refactor in OpenCL C (vloadN / vstoreN;
 * tests/opencl/optimize_cli.sh). The problem size is declared here: the
 * launch does not use it.
 */
#pragma kt problem N values(100000) default(100000)
#pragma kt launch grid(1) block(256)
__kernel void vecadd(__global float *c, __global const float *a,
                     __global const float *b, int n)
{
	for (int j = get_local_id(0); j < n; j += get_local_size(0))
		c[j] = a[j] + b[j];
}
