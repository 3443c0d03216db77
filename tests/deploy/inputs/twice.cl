#pragma kt problem N values(4096) default(4096)
#pragma kt param BLOCK values(32, 64, 128) default(64)
#pragma kt param ITEMS values(1, 2, 4) default(1)
#pragma kt launch grid(div_ceil(N, BLOCK * ITEMS)) block(BLOCK)
#pragma kt arg z float[N] out
#pragma kt arg x float[N] in
#pragma kt arg n int = N
__kernel void twice(__global float *z, __global const float *x, int n)
{
	int base = get_group_id(0) * BLOCK * ITEMS + get_local_id(0);
	for (int k = 0; k < ITEMS; k++) {
		int i = base + k * BLOCK;
		if (i < n)
			z[i] = 2.0f * x[i];
	}
}
