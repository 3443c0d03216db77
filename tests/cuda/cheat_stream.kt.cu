/* A kernel slow enough to be timed run by run on the stream (over 0.1 ms:
 * 2^24 floats and an atomic sum), whose timed runs are checked on the GPU
 * (inputs against their pristine copies, outputs against the checked
 * run's bytes). MODE 0 is honest; 1 skips its work on every third launch
 * once the checked runs are over; 2 writes its input then. The sum adds
 * with float atomics in an order that may change from run to run, so a
 * timed run's bytes may differ from the checked run's within the
 * tolerance: such an output is compared on the host and passes. PAD only
 * doubles the configurations. */
__device__ unsigned launches;

#pragma kt problem N values(16777216) default(16777216)
#pragma kt param MODE values(0, 1, 2) default(0)
#pragma kt param PAD values(0, 1) default(0)
#pragma kt launch grid(div_ceil(N, 256)) block(256)
#pragma kt arg z float[N] out
#pragma kt arg sum float[1] inout init(zeros)
#pragma kt arg x float[N] in
#pragma kt arg n int = N
#pragma kt verify rtol(1e-3) atol(1e-3)
#ifndef MODE
#define MODE 0
#endif
__global__ void cheat_stream(float *z, float *sum, float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	__shared__ unsigned seen;
	if (threadIdx.x == 0 && blockIdx.x == 0)
		seen = atomicAdd(&launches, 1);
	else if (threadIdx.x == 0)
		seen = launches;
	__syncthreads();
	bool late = seen > 8 && seen % 3 == 1;
	if (MODE == 1 && late)
		return;
	if (i < n) {
		z[i] = x[i] * 0.5f + 1.0f;
		if (MODE == 2 && late && i == 0)
			x[0] = 7.0f;
		if ((i & 255) == 0)
			atomicAdd(sum, x[i] * 1e-6f);
	}
}
