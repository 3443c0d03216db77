/*
 * opencl_kernels.cl - OpenCL C for annotate's golden test: no host code,
 * each kernel launched by the `#pragma kt launch` line above it.
 *   scale    one element per work-item from get_global_id(0): items per
 *            thread, the grid of its launch line shrinking
 *   rowsum   a work-group per row, a column loop strided by the
 *            work-group's size and a `#pragma unroll 4`: the row split,
 *            a second grid dimension in its launch line, and UNROLL
 *            (not vectorize: the row's offset `row * d` needs d's value
 *            at a launch, which no code says)
 *   vecadd   a contiguous loop: vectorize, with vloadN / vstoreN
 */
#pragma kt launch grid((N + 255) / 256) block(256)
__kernel void scale(__global float *y, __global const float *x, float a,
                    int n)
{
	int i = get_global_id(0);
	if (i < n)
		y[i] = a * x[i];
}

#pragma kt launch grid(ROWS) block(128)
__kernel void rowsum(__global float *y, __global const float *x, int d)
{
	int row = get_group_id(0);
#pragma unroll 4
	for (int j = get_local_id(0); j < d; j += get_local_size(0))
		y[row * d + j] = x[row * d + j] + 1.0f;
}

#pragma kt launch grid(1) block(256)
__kernel void vecadd(__global float *c, __global const float *a,
                     __global const float *b, int n)
{
	for (int j = get_local_id(0); j < n; j += get_local_size(0))
		c[j] = a[j] + b[j];
}
