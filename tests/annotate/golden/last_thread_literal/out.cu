// Each block's last element, taken by its last thread written as a
// literal (`threadIdx.x == 255` for a block of 256): the 255 does not
// follow a block-size parameter, so at 128 threads no thread would write
// and at 512 a block would give its middle element. The block stays a
// literal.
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint 256 * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + 255) / 256) block(256)
#pragma kt arg x float[n] in
#pragma kt arg out float[(n + 255) / 256] out
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(256, MIN_BLOCKS)
#endif
block_last(const float *x, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n && threadIdx.x == 255)
		out[blockIdx.x] = x[i];
}

#ifndef __CUDACC_RTC__
void run(const float *x, float *out, int n)
{
	block_last<<<(n + 255) / 256, 256>>>(x, out, n);
}
#endif
