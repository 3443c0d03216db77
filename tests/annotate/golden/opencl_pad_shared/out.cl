/*
 * opencl_pad_shared.cl - pad_shared on OpenCL C: a transpose through a
 * __local tile read down its columns gets PAD on the tile's inner extent,
 * verified on the OpenCL backend (every value run against the original).
 */
#pragma kt problem N values(64, 96)
#pragma kt launch grid(N / 16, N / 16) block(16, 16)
#pragma kt arg out float[N * N] out
#pragma kt arg in float[N * N] in
#pragma kt arg n int = N
#ifndef FLIP_PAD
#define FLIP_PAD 0
#endif

#pragma kt param FLIP_PAD values(0, 1) default(0)
__kernel void flip(__global float *out, __global const float *in, int n)
{
	__local float tile[16][16 + FLIP_PAD];
	const int x = get_group_id(0) * 16 + get_local_id(0);
	const int y = get_group_id(1) * 16 + get_local_id(1);
	tile[get_local_id(1)][get_local_id(0)] = in[y * n + x];
	barrier(CLK_LOCAL_MEM_FENCE);
	const int ox = get_group_id(1) * 16 + get_local_id(0);
	const int oy = get_group_id(0) * 16 + get_local_id(1);
	out[oy * n + ox] = tile[get_local_id(0)][get_local_id(1)];
}
