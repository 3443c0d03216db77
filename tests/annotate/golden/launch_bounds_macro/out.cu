// launch_bounds_macro: the block is a macro of the file (`#define BS
// 256`) that the kernels' `__launch_bounds__(BS)` name too: the define
// becomes the parameter and the bounds follow it by expansion (up to
// 61c3ba0 each bound was also an edit of the macro parameter, and the
// built-in planner's plan was refused as invalid: nothing annotated).
// The second kernel's launch pragma keeps the define's default, which
// its bound then reads too.
#ifndef BS
#define BS 256
#endif
#ifndef ITEMS_PER_THREAD
#define ITEMS_PER_THREAD 1
#endif
#ifndef ITEMS_PER_THREAD_2
#define ITEMS_PER_THREAD_2 1
#endif

#pragma kt param BS values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil((n + BS - 1) / BS, ITEMS_PER_THREAD)) block(BS)
#pragma kt arg y float[n] out
#pragma kt arg n int = n
__global__ void __launch_bounds__(BS) k1(float *y, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			y[i] = 1.0f;
	}
}
#pragma kt param ITEMS_PER_THREAD_2 values(1, 2, 4, 8) default(1)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil((n + 256 - 1) / 256, ITEMS_PER_THREAD_2)) block(256)
#pragma kt arg y float[n] out
#pragma kt arg n int = n
__global__ void __launch_bounds__(BS) k2(float *y, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD_2; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			y[i] = 2.0f;
	}
}
#ifndef __CUDACC_RTC__
void run(float *y, int n)
{
	k1<<<((((n + BS - 1) / BS) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), BS>>>(y, n);
	k2<<<((((n + BS - 1) / BS) + ITEMS_PER_THREAD_2 - 1) / ITEMS_PER_THREAD_2), BS>>>(y, n);
}
#endif
