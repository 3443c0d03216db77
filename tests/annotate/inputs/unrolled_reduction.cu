// A block sum unrolled for 256 threads: `threadIdx.x < 128` and
// `s[threadIdx.x + 128]`, then 64, then a warp. The 128 is half the block
// and follows no parameter: at 512 threads half of each block's elements
// would never be added, at 128 the first step would read past the
// block's. The block stays a literal.
__global__ void bsum(const float *x, float *y, int n)
{
	__shared__ float s[256];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	s[threadIdx.x] = i < n ? x[i] : 0.0f;
	__syncthreads();
	if (threadIdx.x < 128)
		s[threadIdx.x] += s[threadIdx.x + 128];
	__syncthreads();
	if (threadIdx.x < 64)
		s[threadIdx.x] += s[threadIdx.x + 64];
	__syncthreads();
	if (threadIdx.x < 32) {
		float v = s[threadIdx.x] + s[threadIdx.x + 32];
		for (int o = 16; o > 0; o >>= 1)
			v += __shfl_down_sync(0xffffffff, v, o);
		if (threadIdx.x == 0)
			s[0] = v;
	}
	__syncthreads();
	if (i < n)
		y[i] = s[0]; /* each element: its block's sum */
}

void run(const float *x, float *y, int n)
{
	bsum<<<(n + 255) / 256, 256>>>(x, y, n);
}
