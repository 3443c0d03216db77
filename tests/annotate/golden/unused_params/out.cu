// Parameters the kernel never reads: one without a name (a signature kept
// for a common launcher), one named but unused, and an unused pointer.
// Their values change nothing, so the annotation fills them in (0, the
// launch's value where it is derived, one element for the pointer) and
// the unnamed one gets a label: the `arg` lines go by position. An unused
// struct is still asked for: no number stands for it.
struct shift_opts {
	int mode;
	float scale;
};

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 128
#endif
#ifndef ITEMS_PER_THREAD
#define ITEMS_PER_THREAD 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, ITEMS_PER_THREAD)) block(BLOCK_SIZE)
#pragma kt arg y float[n] out
#pragma kt arg x float[n] in
#pragma kt arg kt_arg2 int = 0
#pragma kt arg n int = n
#pragma kt arg spare int = n * 2
#pragma kt arg unused float[1] in
// ktc: complete and uncomment: #pragma kt arg opts shift_opts = ?
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
shift(float *y, const float *x, int /*stride*/, int n,
                      int spare, const float *unused, shift_opts opts)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * BLOCK_SIZE + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			y[i] = x[i] + 1.0f;
	}
}

#ifndef __CUDACC_RTC__
void launch(float *y, const float *x, int n, int stride)
{
	shift<<<((((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), BLOCK_SIZE>>>(y, x, stride, n, n * 2, x,
	                                shift_opts{0, 1.0f});
}
#endif
