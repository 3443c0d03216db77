/*
 * row_sum.cl - out[r] = the sum of row r of a ROWS x COLS float matrix: the
 * reduction sample of the OpenCL backend (the shape of the reductions in
 * normalisation and softmax kernels).
 *
 * WG work-items share a row: each adds up a strided part of it, ITEMS loads
 * per step, and the work-group folds the partial sums in local memory;
 * one work-group handles RPG rows side by side. The default is the
 * textbook reduction: 256 work-items per row, one load per step, one row
 * per work-group.
 */
#ifndef WG /* the defaults, for a build without ktc */
#define WG 256
#define ITEMS 1
#define RPG 1
#endif

#pragma kt problem ROWS values(4096, 1000) default(4096)
#pragma kt problem COLS values(1024, 3000) default(1024)
#pragma kt param WG values(1, 2, 4, 8, 16, 32, 64, 128, 256, 512) default(256)
#pragma kt param ITEMS values(1, 2, 4, 8) default(1)
#pragma kt param RPG values(1, 2, 4, 8, 16) default(1)
#pragma kt constraint WG * RPG <= DEVICE_MAX_WORK_GROUP_SIZE
#pragma kt constraint WG * RPG * 4 <= DEVICE_LOCAL_MEM_SIZE
#pragma kt launch grid(div_ceil(ROWS, RPG)) block(WG, RPG)
#pragma kt arg out float[ROWS] out
#pragma kt arg in float[ROWS * COLS] in
#pragma kt arg rows int = ROWS
#pragma kt arg cols int = COLS
#pragma kt verify rtol(1e-4) atol(1e-4)
#pragma kt objective bandwidth(4 * ROWS * COLS)
__kernel void row_sum(__global float *out, __global const float *in, int rows,
		      int cols)
{
	__local float part[RPG][WG];
	const int lid = get_local_id(0), ly = get_local_id(1);
	const int r = get_group_id(0) * RPG + ly;
	float s = 0.0f;
	if (r < rows) {
		__global const float *row = in + (long)r * cols;
		int c = lid;
		for (; c + (ITEMS - 1) * WG < cols; c += ITEMS * WG)
			for (int k = 0; k < ITEMS; k++)
				s += row[c + k * WG];
		for (; c < cols; c += WG)
			s += row[c];
	}
	part[ly][lid] = s;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int h = WG / 2; h > 0; h /= 2) {
		if (lid < h)
			part[ly][lid] += part[ly][lid + h];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0 && r < rows)
		out[r] = part[ly][0];
}
