// limits.kt.cu - configurations over the device's limits, which no
// constraint excludes: the CUDA backend must reject them before launch as
// `constraints` (tests/gpu/test_cuda_gpu.c, tests/cuda/tests.cmake).
//   BLOCK 2048     more threads than a block may have (1024)
//   SMEM 300000    more dynamic shared memory than a block may opt in to
#pragma kt param BLOCK values(256, 2048) default(256)
#pragma kt param SMEM values(0, 300000) default(0)
#pragma kt problem N values(65536)
#pragma kt launch grid(div_ceil(N, BLOCK)) block(BLOCK) smem(SMEM)
#pragma kt arg y f32[N] out
#pragma kt arg n int = N
#ifndef BLOCK
#define BLOCK 256
#endif

__global__ void limits(float *y, int n)
{
	extern __shared__ float scratch[];
	int i = blockIdx.x * BLOCK + threadIdx.x;
	if (i < n)
		y[i] = (float)i;
	(void)scratch;
}
