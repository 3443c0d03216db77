// A vector add with three knobs: block size, items per thread, vector width.
#pragma kt param BLOCK pow2(32, 1024) default(256)
#pragma kt param ITEMS values(1, 2, 4, 8) default(1)
#pragma kt param VEC values(1, 2, 4) default(1)
#pragma kt set PER_BLOCK = BLOCK * ITEMS
#pragma kt problem N values(1048576, 4096)
#pragma kt constraint ITEMS % VEC == 0
#pragma kt constraint N % PER_BLOCK == 0
#pragma kt constraint BLOCK <= DEVICE_MAX_THREADS_PER_BLOCK
#pragma kt launch grid(div_ceil(N, PER_BLOCK)) block(BLOCK)
#pragma kt arg a f32[N] in
#pragma kt arg b f32[N] in
#pragma kt arg c f32[N] out
#pragma kt arg n i32 = N
__global__ void vecadd(const float *a, const float *b, float *c, int n)
{
	int base = (blockIdx.x * BLOCK + threadIdx.x) * ITEMS;
	for (int i = 0; i < ITEMS; i++)
		if (base + i < n)
			c[base + i] = a[base + i] + b[base + i];
}
