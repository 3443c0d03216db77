// A launch written inside another macro's argument (an error-checking
// wrapper around the launch expression): the block size's macro expands
// in that argument, so each of its literals stands at the outer macro's
// name. The literal is still the body of THREADS, found from where it is
// spelled, so THREADS is the block parameter and the grid follows it.
#ifndef __CUDACC_RTC__
#include <cstdio>
#endif
#include <cuda_runtime.h>

#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#define CHECKED(expr)                                                          \
	do {                                                                   \
		expr;                                                          \
		cudaError_t err = cudaGetLastError();                          \
		if (err != cudaSuccess)                                        \
			printf("launch: %s\n", cudaGetErrorString(err));       \
	} while (0)

#ifndef THREADS
#define THREADS 128
#endif

#pragma kt param THREADS values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint THREADS * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + THREADS - 1) / THREADS) block(THREADS)
#pragma kt arg y float[n] inout
#pragma kt arg x float[n] in
// ktc: complete and uncomment: #pragma kt arg a float = ?
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(THREADS, MIN_BLOCKS)
#endif
axpy(float *y, const float *x, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] += a * x[i];
}

#ifndef __CUDACC_RTC__
void run_axpy(float *y, const float *x, float a, int n)
{
	CHECKED((axpy<<<(n + THREADS - 1) / THREADS, THREADS>>>(y, x, a, n)));
}
#endif
