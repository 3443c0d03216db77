// A 2-D 9-point stencil (radius 2 in x and y) over a 4096 x 4096 fp32 grid.
// Knobs: the thread block (BX x BY), outputs per thread in x and y, a
// shared-memory tile or plain cached loads, read-only loads, unrolling.
// bench/strategies.c runs the search strategies on a synthetic performance
// landscape over this space (docs/strategies.md).
#pragma kt param BX values(8, 16, 32, 64, 128) default(32)
#pragma kt param BY values(1, 2, 4, 8, 16, 32) default(8)
#pragma kt param TX values(1, 2, 4) default(1)
#pragma kt param TY values(1, 2, 4, 8) default(1)
#pragma kt param SMEM_TILE values(0, 1) default(1)
#pragma kt param LDG values(0, 1) default(0)
#pragma kt param UNROLL values(1, 2, 4) default(1)
#pragma kt problem NX values(4096)
#pragma kt problem NY values(4096)
#pragma kt set THREADS = BX * BY
#pragma kt set SMEM = SMEM_TILE * (BX * TX + 4) * (BY * TY + 4) * 4
#pragma kt constraint THREADS >= 32 && THREADS <= DEVICE_MAX_THREADS_PER_BLOCK
#pragma kt constraint SMEM <= DEVICE_SMEM_PER_BLOCK
#pragma kt constraint UNROLL <= TY
#pragma kt launch grid(div_ceil(NX, BX * TX), div_ceil(NY, BY * TY)) block(BX, BY) smem(SMEM)
#pragma kt arg in f32[NX * NY] in
#pragma kt arg out f32[NX * NY] out
#pragma kt arg nx i32 = NX
#pragma kt arg ny i32 = NY
__global__ void stencil(const float *in, float *out, int nx, int ny)
{
	const int x0 = (blockIdx.x * BX + threadIdx.x) * TX;
	const int y0 = (blockIdx.y * BY + threadIdx.y) * TY;
#pragma unroll UNROLL
	for (int j = 0; j < TY; j++)
		for (int i = 0; i < TX; i++) {
			int x = x0 + i, y = y0 + j;
			if (x < 2 || y < 2 || x >= nx - 2 || y >= ny - 2)
				continue;
			out[y * nx + x] =
				0.4f * in[y * nx + x] +
				0.1f * (in[y * nx + x - 1] + in[y * nx + x + 1] +
					in[(y - 1) * nx + x] + in[(y + 1) * nx + x]) +
				0.05f * (in[y * nx + x - 2] + in[y * nx + x + 2] +
					 in[(y - 2) * nx + x] + in[(y + 2) * nx + x]);
		}
}
