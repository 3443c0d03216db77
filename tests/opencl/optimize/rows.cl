/*
 * rows.cl - a row-wise OpenCL C kernel (a work-group per row, its columns
 * walked by a loop strided by the work-group's size, its pointers
 * restrict), for `ktc optimize --backend opencl`
 * (tests/opencl/optimize_cli.sh): hoisted loads and the row split.
 */
#pragma kt problem D values(2048) default(2048)
#pragma kt launch grid(R) block(128)
__kernel void rowscale(__global float *restrict y,
                       __global const float *restrict x,
                       __global const float *restrict w, int d)
{
	int row = get_group_id(0);
	for (int j = get_local_id(0); j < d; j += get_local_size(0))
		y[row * d + j] = x[row * d + j] * w[j];
}
