// overloaded_kernel: two __global__ functions share a name (overloads by
// element type); a plan names kernels by name, so only the first is
// annotated and the second stays as it is.
#include <cuda_fp16.h>

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
#pragma kt arg y half[n] out
#pragma kt arg x float[n] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
convert(half *y, const float *x, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * BLOCK_SIZE + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			y[i] = __float2half(x[i]);
	}
}

__global__ void convert(float *y, const half *x, int n)
{
	int i = blockIdx.x * 128 + threadIdx.x;
	if (i < n)
		y[i] = __half2float(x[i]);
}

#ifndef __CUDACC_RTC__
void convert_to_half(half *y, const float *x, int n)
{
	convert<<<((((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), BLOCK_SIZE>>>(y, x, n);
}

void convert_to_float(float *y, const half *x, int n)
{
	convert<<<(n + 127) / 128, 128>>>(y, x, n);
}
#endif
