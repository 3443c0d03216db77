/* A kernel fast enough to be timed as a CUDA graph that, with CHEAT 1,
 * skips its work on every PERIOD-th launch once the checked runs are over
 * (a __device__ counter; one block, so every thread sees the same count).
 * Only a graph run whose outputs are read back can catch it, and which run
 * is last depends on --runs. CHEAT 0 is honest. */
__device__ unsigned launches;

#pragma kt problem N values(256) default(256)
#pragma kt param CHEAT values(0, 1) default(0)
#pragma kt param PERIOD values(2, 3, 5) default(3)
#pragma kt launch grid(div_ceil(N, 256)) block(256)
#pragma kt arg z float[N] out
#pragma kt arg x float[N] in
#pragma kt arg n int = N
#ifndef CHEAT
#define CHEAT 0
#endif
#ifndef PERIOD
#define PERIOD 3
#endif
__global__ void cheat_graph(float *z, float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	__shared__ unsigned seen;
	if (threadIdx.x == 0)
		seen = atomicAdd(&launches, 1);
	__syncthreads();
	if (CHEAT && seen > 8 && seen % PERIOD == 1)
		return;
	if (i < n)
		z[i] = x[i] * 0.5f + 1.0f;
}
