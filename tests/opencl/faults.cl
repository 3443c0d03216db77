/*
 * faults.cl - a template whose parameter MODE plants one failure per value,
 * for the OpenCL backend's tests: each must cost its own configuration
 * only, recorded with its reason.
 *   0 correct (the default)        1 writes far out of bounds (SIGSEGV)
 *   2 never finishes (timeout)     3 one wrong element (correctness)
 *   4 does not compile             5 leaves the last element unwritten
 *   6 reads far out of bounds      7 writes just after its output
 */
#ifndef MODE
#define MODE 0
#endif

#pragma kt problem N values(4096) default(4096)
#pragma kt param MODE values(0, 1, 2, 3, 4, 5, 6, 7) default(0)
#pragma kt param BLOCK values(64, 128) default(64)
#pragma kt launch grid(N / BLOCK) block(BLOCK)
#pragma kt arg z float[N] out
#pragma kt arg x float[N] in
#pragma kt arg n int = N
__kernel void faults(__global float *z, __global const float *x, int n)
{
	long i = get_global_id(0);
#if MODE == 4
	this does not compile;
#endif
	/* an index that reaches the first page of memory, never mapped */
	const long far_z = (long)((ulong)z / sizeof(float));
	const long far_x = (long)((ulong)x / sizeof(float));
	if (MODE == 1)
		z[i - far_z] = 1.0f;
	if (MODE == 2)
		while (x[i] < 2.0f)
			z[i] += 1e-30f;
	if (MODE == 5 && i == n - 1)
		return;
	if (MODE == 7 && i == n - 1)
		z[n + 5] = 0.0f;
	float v = 2.0f * x[i];
	if (MODE == 6)
		v += x[i - far_x];
	if (MODE == 3 && i == 7)
		v += 1.0f;
	z[i] = v;
}
