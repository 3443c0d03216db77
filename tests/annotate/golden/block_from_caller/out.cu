// block_from_caller: the launcher takes its block size and a scale as
// parameters, and the file's one call of it passes literals
// (`launch_axpy(2.0f, x, y, n, 256)`): the 256 at the call is the block's
// parameter, which the launch and the grid read through `threads`, and
// the scale is 2.0f. A launcher called twice (`launch_fill`) binds
// nothing: its block stays a problem variable to complete, as a block
// size that two calls give differently must.
#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef ITEMS_PER_THREAD
#define ITEMS_PER_THREAD 1
#endif
#ifndef ITEMS_PER_THREAD_2
#define ITEMS_PER_THREAD_2 1
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil(((n + BLOCK_SIZE - 1) / BLOCK_SIZE), ITEMS_PER_THREAD)) block(BLOCK_SIZE)
#pragma kt arg a float = 2.0f
#pragma kt arg x float[n] in
#pragma kt arg y float[n] inout
#pragma kt arg n int = n
__global__ void axpy(float a, const float *x, float *y, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			y[i] += a * x[i];
	}
}

#pragma kt param ITEMS_PER_THREAD_2 values(1, 2, 4, 8) default(1)
// ktc: complete and uncomment: #pragma kt problem n values(?)
// ktc: complete and uncomment: #pragma kt problem threads values(?)
#pragma kt launch grid(div_ceil((n + threads - 1) / threads, ITEMS_PER_THREAD_2)) block(threads)
#pragma kt arg y float[n] out
// ktc: complete and uncomment: #pragma kt arg v float = ?
#pragma kt arg n int = n
__global__ void fill(float *y, float v, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD_2; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			y[i] = v;
	}
}

#ifndef __CUDACC_RTC__
static void launch_axpy(float a, const float *x, float *y, int n, int threads)
{
	int blocks = (n + threads - 1) / threads;
	axpy<<<(((blocks) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), threads>>>(a, x, y, n);
}

static void launch_fill(float *y, float v, int n, int threads)
{
	fill<<<((((n + threads - 1) / threads) + ITEMS_PER_THREAD_2 - 1) / ITEMS_PER_THREAD_2), threads>>>(y, v, n);
}

void run(const float *x, float *y, float *z, int n)
{
	launch_axpy(2.0f, x, y, n, BLOCK_SIZE);
	launch_fill(z, 0.0f, n, 128);
	launch_fill(z, 1.0f, n, 512);
}
#endif
