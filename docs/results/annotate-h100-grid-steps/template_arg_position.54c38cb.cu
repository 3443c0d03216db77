// A kernel template launched from a function template: in `scale<4,
// kSquare>` the kernel's name is a reference of its own in the AST, so
// which template parameter an argument sets comes from the text. The 4
// sets kItems, the items per thread (not kSquare, the second): the grid
// follows it, and the block, as the launch writes them.
#ifndef SQUARE
#define SQUARE 4
#endif
#ifndef BLOCK_SIZE
#define BLOCK_SIZE 128
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param SQUARE values(1, 2, 4, 8, 16) default(4)
#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt kernel template(SQUARE, "true")
#pragma kt launch grid((n + BLOCK_SIZE * 4 - 1) / (BLOCK_SIZE * 4)) block(BLOCK_SIZE)
#pragma kt arg x float[n] inout
#pragma kt arg n int = n
template <int kItems, bool kSquare>
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
scale(float *x, int n)
{
	int i = (blockIdx.x * blockDim.x + threadIdx.x) * kItems;
	for (int j = 0; j < kItems; j++)
		if (i + j < n)
			x[i + j] = kSquare ? x[i + j] * x[i + j] : 2.0f * x[i + j];
}

#ifndef __CUDACC_RTC__
template <bool kSquare>
void launch(float *x, int n)
{
	scale<SQUARE, kSquare><<<(n + BLOCK_SIZE * 4 - 1) / (BLOCK_SIZE * 4), BLOCK_SIZE>>>(x, n);
}

void run(float *x, int n, bool square)
{
	if (square)
		launch<true>(x, n);
	else
		launch<false>(x, n);
}
#endif
