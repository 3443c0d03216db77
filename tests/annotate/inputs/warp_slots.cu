// A block sum with one shared slot per warp: 128 threads, 4 warps, the 4
// written as a literal (the array and the loop over it) with no tie to
// the block: the block stays 128.
__global__ void block_sum(float *out, const float *x, int n)
{
	__shared__ float warp_sums[4];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float v = i < n ? x[i] : 0.0f;
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_xor_sync(0xffffffff, v, o);
	if ((threadIdx.x & 31) == 0)
		warp_sums[threadIdx.x >> 5] = v;
	__syncthreads();
	if (threadIdx.x == 0) {
		float s = 0.0f;
		for (int w = 0; w < 4; w++)
			s += warp_sums[w];
		atomicAdd(out, s);
	}
}

void run(float *out, const float *x, int n)
{
	block_sum<<<(n + 127) / 128, 128>>>(out, x, n);
}
