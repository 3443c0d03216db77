/*
 * twice.cl - the input of two wrong plans (tests/opencl/optimize_cli.sh):
 * wrong.plan.json, whose parameter FACTOR is right at its default (2) and
 * wrong at 3: the run on the OpenCL backend must drop 3, and FACTOR with
 * it; wrong_launch.plan.json, whose BLK doubles the block at its default:
 * the outputs stay right, the launch is not the original's.
 */
#pragma kt problem N values(4096, 1000) default(4096)
#pragma kt launch grid((N + 127) / 128) block(128)
__kernel void twice(__global float *y, __global const float *x, int n)
{
	int i = get_global_id(0);
	if (i < n)
		y[i] = x[i] * 2;
}
