// A kernel that prints __LINE__: its PTX holds the number, so lines the
// annotation inserts before it must not renumber the original's (`#line`
// after them), and its launch bounds come through a macro defined above
// it, on the kernel's own line.
#ifndef __CUDACC_RTC__
#line 5
#include <cstdio>
#endif
#line 6

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#if MIN_BLOCKS > 0
#define kt_lb_MIN_BLOCKS __launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#else
#define kt_lb_MIN_BLOCKS
#endif
#line 6

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) block(BLOCK_SIZE)
#pragma kt arg y float[n] out
#pragma kt arg x float[n] in
#pragma kt arg n int = n
#line 7
__global__ void kt_lb_MIN_BLOCKS scale(float *y, const float *x, int n)
{
	int i = blockIdx.x * BLOCK_SIZE + threadIdx.x;
	if (i == n)
		printf("past the end at line %d\n", __LINE__);
	if (i < n)
		y[i] = 2.0f * x[i];
}

#ifndef __CUDACC_RTC__
#line 16
void launch(float *y, const float *x, int n)
{
	scale<<<(n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, BLOCK_SIZE>>>(y, x, n);
}
#endif
#line 20
