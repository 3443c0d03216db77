// The grid steps over the problem by 512 for a block of 128 threads, each
// of which does 4 elements in a loop of its own: no parameter stands for
// the 4, so the step cannot follow the block, and the block stays a
// literal (with 64 threads, (n + 511) / 512 blocks would leave half the
// work undone). The loop's unroll and the blocks per SM stay free.
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint 128 * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + 511) / 512) block(128)
#pragma kt arg x float[n] inout
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(128, MIN_BLOCKS)
#endif
scale4(float *x, int n)
{
	int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
	for (int j = 0; j < 4; j++)
		if (i + j < n)
			x[i + j] = 2.0f * x[i + j];
}

#ifndef __CUDACC_RTC__
void run(float *x, int n)
{
	scale4<<<(n + 511) / 512, 128>>>(x, n);
}
#endif
