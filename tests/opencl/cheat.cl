/*
 * cheat.cl - reward hacks the timed runs must not reward (issue 11), for
 * the OpenCL backend's tests:
 *   0 honest (the default)
 *   1 skips its work where the output already holds a number, so it is
 *     right on the checked run (poisoned output) and, when the timed runs
 *     start from the checked run's output, does nothing and "wins"
 *   2 right, but writes its input (state a next run could read)
 */
#ifndef CHEAT
#define CHEAT 0
#endif

#pragma kt problem N values(4096) default(4096)
#pragma kt param CHEAT values(0, 1, 2) default(0)
#pragma kt launch grid(N / 64) block(64)
#pragma kt arg z float[N] out
#pragma kt arg x float[N] in
#pragma kt arg n int = N
__kernel void cheat(__global float *z, __global float *x, int n)
{
	int i = get_global_id(0);
	if (i >= n)
		return;
	if (CHEAT == 1 && !isnan(z[i]) && fabs(z[i]) < 1e30f)
		return;
	float s = x[i];
	for (int k = 0; k < 20000; k++) /* enough work to time */
		s = s * 0.999999f + 1e-7f;
	z[i] = s;
	if (CHEAT == 2)
		x[i] = 0;
}
