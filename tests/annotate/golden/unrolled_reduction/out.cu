// A block sum unrolled for 256 threads: `threadIdx.x < 128` and
// `s[threadIdx.x + 128]`, then 64, then a warp. The 128 is half the block
// and follows no parameter: at 512 threads half of each block's elements
// would never be added, at 128 the first step would read past the
// block's. The block stays a literal.
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint 256 * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + 255) / 256) block(256)
#pragma kt arg x float[n] in
#pragma kt arg y float[n] out
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(256, MIN_BLOCKS)
#endif
bsum(const float *x, float *y, int n)
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

#ifndef __CUDACC_RTC__
void run(const float *x, float *y, int n)
{
	bsum<<<(n + 255) / 256, 256>>>(x, y, n);
}
#endif
