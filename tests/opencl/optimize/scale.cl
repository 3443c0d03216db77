/*
 * scale.cl - an elementwise OpenCL C kernel, one element per work-item,
 * for `ktc optimize --backend opencl` (tests/opencl/optimize_cli.sh). No
 * host code launches it: the launch is the line above it; the problem
 * sizes and arguments come from the command line.
 */
#pragma kt launch grid((N + 255) / 256) block(256)
__kernel void scale(__global float *y, __global const float *x, float a,
                    int n)
{
	int i = get_global_id(0);
	if (i < n)
		y[i] = a * x[i] + 1.0f;
}
