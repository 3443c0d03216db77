// Block size and items per thread as template arguments: the kernel's
// body says kBlock is the block's width (blockIdx.x * kBlock +
// threadIdx.x) and kItems the work of a thread (the global index times
// kItems), so the launch's block and grid must follow them.
#ifndef ITEMS
#define ITEMS 4
#endif
#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param ITEMS values(1, 2, 4, 8, 16) default(4)
#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt kernel template(BLOCK_SIZE, ITEMS)
#pragma kt launch grid((n + BLOCK_SIZE * ITEMS - 1) / (BLOCK_SIZE * ITEMS)) block(BLOCK_SIZE)
#pragma kt arg y float[n] out
#pragma kt arg x float[n] in
#pragma kt arg n int = n
template <int kBlock, int kItems>
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
scale(float *y, const float *x, int n)
{
	int base = (blockIdx.x * kBlock + threadIdx.x) * kItems;
#pragma unroll
	for (int k = 0; k < kItems; k++)
		if (base + k < n)
			y[base + k] = 2.0f * x[base + k];
}

#ifndef __CUDACC_RTC__
void launch(float *y, const float *x, int n)
{
	scale<BLOCK_SIZE, ITEMS><<<(n + BLOCK_SIZE * ITEMS - 1) / (BLOCK_SIZE * ITEMS), BLOCK_SIZE>>>(y, x, n);
}
#endif
