// A grid written as one literal counts blocks, not steps of the block:
// it follows no parameter, even where it has the block's value. In a
// kernel whose threads each take their global index (no grid-stride
// loop), the grid's blocks times the block's threads is the work
// covered, so the block stays as written too.

// the grid equal to the block: 256 * 256 elements, one a thread
#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 128
#endif
#ifndef BLOCK_SIZE_3
#define BLOCK_SIZE_3 16
#endif
#ifndef BLOCK_SIZE_Y
#define BLOCK_SIZE_Y 16
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef ITEMS_PER_THREAD
#define ITEMS_PER_THREAD 1
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
#pragma kt launch grid(BLOCK_SIZE) block(BLOCK_SIZE)
#pragma kt arg y float[65536] out
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
fill(float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	y[i] = 1.0f;
}

// guarded, a fixed grid of 64 blocks of 128 threads
#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
#pragma kt launch grid(div_ceil(64, ITEMS_PER_THREAD)) block(BLOCK_SIZE_2)
#pragma kt arg y float[8192] out
#pragma kt arg x float[8192] in
#pragma kt arg n int = 64 * 128
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif
scale(float *y, const float *x, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			y[i] = 2.0f * x[i];
	}
}

// both dimensions fixed: 64 x 64 blocks of 16 x 16 threads, one element
// a thread of a 1024 x 1024 matrix
#pragma kt param BLOCK_SIZE_3 values(1, 2, 4, 8, 16, 32, 64) default(16)
#pragma kt param BLOCK_SIZE_Y values(1, 2, 4, 8, 16, 32, 64) default(16)
#pragma kt constraint (BLOCK_SIZE_3) * (BLOCK_SIZE_Y) <= DEVICE_MAX_THREADS_PER_BLOCK
#pragma kt launch grid(64, 64) block(BLOCK_SIZE_3, BLOCK_SIZE_Y)
#pragma kt arg y float[1048576] out
#pragma kt arg w int = 1024
__global__ void fill2d(float *y, int w)
{
	int c = blockIdx.x * blockDim.x + threadIdx.x;
	int r = blockIdx.y * blockDim.y + threadIdx.y;
	y[r * w + c] = 1.0f;
}

#ifndef __CUDACC_RTC__
void run(float *y, const float *x)
{
	fill<<<BLOCK_SIZE, BLOCK_SIZE>>>(y);
	scale<<<(((64) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), BLOCK_SIZE_2>>>(y, x, 64 * 128);
	dim3 block(BLOCK_SIZE_3, BLOCK_SIZE_Y);
	dim3 grid(64, 64);
	fill2d<<<grid, block>>>(y, 1024);
}
#endif
