// A kernel that prints __LINE__: its PTX holds the number, so lines the
// annotation inserts before it must not renumber the original's (`#line`
// after them), and a refactor that moves its lines is dropped.
#ifndef __CUDACC_RTC__
#line 4
#include <cstdio>
#endif
#line 5

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#line 5

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) block(BLOCK_SIZE)
#pragma kt arg y float[n] out
#pragma kt arg x float[n] in
#pragma kt arg n int = n
#line 6
__global__ void scale(float *y, const float *x, int n)
{
	int i = blockIdx.x * BLOCK_SIZE + threadIdx.x;
	if (i == n)
		printf("past the end at line %d\n", __LINE__);
	if (i < n)
		y[i] = 2.0f * x[i];
}

#ifndef __CUDACC_RTC__
#line 15
void launch(float *y, const float *x, int n)
{
	scale<<<(n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, BLOCK_SIZE>>>(y, x, n);
}
#endif
#line 19
