/*
 * check_wrong.cl - a template whose edits are right at their defaults and
 * wrong at some other values, for `ktc check` (tests/opencl/check_cli.sh):
 *   BLOCK 96      the tree reduction halves BLOCK, which must be a power
 *                 of two: 96 loses partial sums
 *   RPG 1         the launch does not follow the rows per group (it is
 *                 written for 2): half the rows stay unwritten
 * Every other value is right.
 */
#ifndef BLOCK
#define BLOCK 128
#endif
#ifndef RPG
#define RPG 2
#endif

#pragma kt problem ROWS values(64, 7) default(64)
#pragma kt problem D values(300) default(300)
#pragma kt param BLOCK values(32, 64, 96, 128, 256) default(128)
#pragma kt param RPG values(1, 2, 4) default(2)
#pragma kt launch grid((ROWS + 1) / 2) block(BLOCK)
#pragma kt arg y float[ROWS] out
#pragma kt arg x float[ROWS * D] in
#pragma kt arg rows int = ROWS
#pragma kt arg d int = D
__kernel void row_sums(__global float *y, __global const float *x, int rows,
                       int d)
{
	__local float sh[256];
	int lid = get_local_id(0);
	for (int k = 0; k < RPG; k++) {
		int row = get_group_id(0) * RPG + k;
		if (row >= rows)
			return; /* the same for the whole group */
		float s = 0;
		for (int j = lid; j < d; j += BLOCK)
			s += x[row * d + j];
		sh[lid] = s;
		barrier(CLK_LOCAL_MEM_FENCE);
		for (int h = BLOCK / 2; h > 0; h >>= 1) {
			if (lid < h)
				sh[lid] += sh[lid + h];
			barrier(CLK_LOCAL_MEM_FENCE);
		}
		if (lid == 0)
			y[row] = sh[0];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
}
