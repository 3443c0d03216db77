// The grid steps over the problem by 512, the product of the block (128
// threads) and the items per thread (4) folded into one literal. The
// literal follows neither, so the block and the items stay as they are:
// with 64 threads, (n + 511) / 512 blocks would leave half the work
// undone. The blocks per SM of __launch_bounds__ are still free.
#ifndef ITEMS
#define ITEMS 4
#endif
#ifndef BLOCK_SIZE
#define BLOCK_SIZE 128
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param ITEMS values(1, 2, 4, 8, 16) default(4)
#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt kernel template(ITEMS)
#pragma kt launch grid((n + 511) / 512) block(BLOCK_SIZE)
#pragma kt arg x float[n] inout
#pragma kt arg n int = n
template <int kItems>
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
scale(float *x, int n)
{
	int i = (blockIdx.x * blockDim.x + threadIdx.x) * kItems;
	for (int j = 0; j < kItems; j++)
		if (i + j < n)
			x[i + j] = 2.0f * x[i + j];
}

#ifndef __CUDACC_RTC__
void run(float *x, int n)
{
	scale<ITEMS><<<(n + 511) / 512, BLOCK_SIZE>>>(x, n);
}
#endif
