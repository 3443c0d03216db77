/*
 * saxpy.cl - z = a * x + y over N floats: the elementwise sample of the
 * OpenCL backend.
 *
 * Knobs: the work-group size, how many elements one work-item handles, and
 * whether a work-item's elements are contiguous (CONTIG=1: i, i+1, ...) or
 * a work-group's stride apart (CONTIG=0: coalesced on GPUs). The default
 * is the textbook launch: 256 work-items per group, one element each.
 */
#ifndef BLOCK /* the defaults, for a build without ktc */
#define BLOCK 256
#define ITEMS 1
#define CONTIG 0
#endif

#pragma kt problem N values(4194304, 1000003) default(4194304)
#pragma kt param BLOCK values(32, 64, 128, 256, 512, 1024) default(256)
#pragma kt param ITEMS values(1, 2, 4, 8, 16, 32) default(1)
#pragma kt param CONTIG values(0, 1) default(0)
#pragma kt constraint BLOCK <= DEVICE_MAX_WORK_GROUP_SIZE
#pragma kt launch grid(div_ceil(N, BLOCK * ITEMS)) block(BLOCK)
#pragma kt arg z float[N] out
#pragma kt arg x float[N] in
#pragma kt arg y float[N] in
#pragma kt arg a float = 2.5
#pragma kt arg n int = N
#pragma kt objective bandwidth(12 * N)
__kernel void saxpy(__global float *z, __global const float *x,
		    __global const float *y, float a, int n)
{
	int base = get_group_id(0) * BLOCK * ITEMS;
	int lid = get_local_id(0);
	for (int k = 0; k < ITEMS; k++) {
		int i = CONTIG ? base + lid * ITEMS + k : base + k * BLOCK + lid;
		if (i < n)
			z[i] = a * x[i] + y[i];
	}
}
