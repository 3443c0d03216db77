/*
 * scale.kt.cu - a small template for the tuning tests: out = 2 * in over N
 * floats, with five knobs tied by three constraints (a few hundred valid
 * configurations), so whole landscapes are quick to write and search.
 */
#pragma kt problem N values(1048576, 4096) default(1048576)
#pragma kt param BLOCK pow2(32, 1024) default(256)
#pragma kt param ITEMS values(1, 2, 4, 8, 16) default(1)
#pragma kt param VEC values(1, 2, 4) default(1)
#pragma kt param UNROLL values(1, 2, 4, 8) default(1)
#pragma kt param CONTIG values(0, 1) default(0)
#pragma kt constraint ITEMS % VEC == 0
#pragma kt constraint BLOCK * ITEMS <= 8192
#pragma kt constraint UNROLL <= ITEMS
#pragma kt launch grid(div_ceil(N, BLOCK * ITEMS)) block(BLOCK)
#pragma kt arg out float[N] out
#pragma kt arg in float[N] in
#pragma kt arg n int = N
__global__ void scale(float *out, const float *in, int n)
{
	int base = blockIdx.x * BLOCK * ITEMS + threadIdx.x * (CONTIG ? ITEMS : 1);
#pragma unroll UNROLL
	for (int k = 0; k < ITEMS; k++) {
		int i = base + (CONTIG ? k : k * BLOCK);
		if (i < n)
			out[i] = 2.0f * in[i];
	}
}
