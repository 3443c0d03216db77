// Each element gets the last element of its block, which the block's last
// thread, written as a literal (`threadIdx.x == 255` for a block of
// 256), puts in shared memory: the 255 does not follow a block-size
// parameter, so at 128 threads no thread would write it and at 512 a
// block would hand out its middle element. The block stays a literal.
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
block_last(const float *x, float *y, int n)
{
	__shared__ float last;
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (threadIdx.x == 255)
		last = i < n ? x[i] : 0.0f;
	__syncthreads();
	if (i < n)
		y[i] = last;
}

#ifndef __CUDACC_RTC__
void run(const float *x, float *y, int n)
{
	block_last<<<(n + 255) / 256, 256>>>(x, y, n);
}
#endif
