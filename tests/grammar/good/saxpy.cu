// saxpy: y = a * x + y, with the block size and items per thread tunable.
#include <cuda_runtime.h>

#pragma kt param BLOCK pow2(32, 1024) default(256)
#pragma kt param ITEMS values(1, 2, 4, 8) default(1)
#pragma kt problem N values(1048576, 16777216, 1000003)
#pragma kt set TILE = BLOCK * ITEMS
#pragma kt constraint BLOCK <= DEVICE_MAX_THREADS_PER_BLOCK
#pragma kt launch grid(div_ceil(N, TILE)) block(BLOCK)
#pragma kt arg n int = N
#pragma kt arg a float = 2.5
#pragma kt arg x f32[N] in init(random(-1, 1))
#pragma kt arg y f32[N] inout
#pragma kt verify rtol(1e-6) atol(1e-6)
#pragma kt objective bandwidth(3 * N * 4)
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ITEMS
#define ITEMS 1
#endif
__global__ void __launch_bounds__(BLOCK)
saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y)
{
	int base = (blockIdx.x * BLOCK) * ITEMS + threadIdx.x;
#pragma unroll
	for (int k = 0; k < ITEMS; k++) {
		int i = base + k * BLOCK;
		if (i < n)
			y[i] = a * x[i] + y[i];
	}
}
