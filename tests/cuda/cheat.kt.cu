/* CHEAT 1: computes on its first eight launches only (a __device__ counter);
 * CHEAT 2: right, but writes its input x. */
__device__ unsigned launches;

#pragma kt problem N values(1048576) default(1048576)
#pragma kt param CHEAT values(0, 1, 2) default(0)
#pragma kt launch grid(div_ceil(N, 256)) block(256)
#pragma kt arg z float[N] out
#pragma kt arg x float[N] in
#pragma kt arg n int = N
#ifndef CHEAT
#define CHEAT 0
#endif
__global__ void cheat(float *z, float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	__shared__ unsigned seen;
	if (threadIdx.x == 0)
		seen = blockIdx.x == 0 ? atomicAdd(&launches, 1) : 0;
	__syncthreads();
	if (CHEAT == 1 && launches > 8)
		return;
	if (i >= n)
		return;
	float s = x[i];
	for (int k = 0; k < 2000; k++)
		s = s * 0.999999f + 1e-7f;
	z[i] = s;
	if (CHEAT == 2)
		x[i] = 0;
}
