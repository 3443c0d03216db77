// static_assert.kt.cu - a space where one configuration does not compile,
// for `ktc tune --compile-only` (tests/cuda/tests.cmake): BLOCK = 96 fails
// a static_assert, every other value compiles.
#pragma kt param BLOCK values(64, 96, 128, 256) default(128)
#pragma kt param ITEMS values(1, 2) default(1)
#pragma kt problem N values(4096)
#pragma kt launch grid(div_ceil(N, BLOCK * ITEMS)) block(BLOCK)
#pragma kt arg n int = N
#pragma kt arg y f32[N] inout
#ifndef BLOCK
#define BLOCK 128
#endif
#ifndef ITEMS
#define ITEMS 1
#endif

__global__ void scale(int n, float *y)
{
	static_assert(BLOCK % 64 == 0, "BLOCK must be a multiple of 64");
	int base = blockIdx.x * BLOCK * ITEMS + threadIdx.x;
	for (int k = 0; k < ITEMS; k++)
		if (base + k * BLOCK < n)
			y[base + k * BLOCK] *= 2.0f;
}
