// Two kernels launched over one grid the host computes once from the
// first launch's block size: the second kernel's launch reads the first
// one's block at its default while the second is tuned alone.
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 256
#endif
#ifndef ITEMS
#define ITEMS 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) < 1024 ? ((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) : 1024)) block(BLOCK_SIZE)
#pragma kt arg x float[n] in
#pragma kt arg m float[1] inout
#pragma kt arg n long = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
absmax_kernel(const float *__restrict__ x, float *m, long n)
{
#if ITEMS == 1
	for (long i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += (long)gridDim.x * blockDim.x)
		atomicMax((int *)m, __float_as_int(fabsf(x[i])));
#else
	for (long kt_i = blockIdx.x * blockDim.x + threadIdx.x; kt_i < (n); kt_i += ((long)gridDim.x * blockDim.x) * ITEMS) {
		float kt_ld0[ITEMS];
#pragma unroll
		for (int kt_j = 0; kt_j < ITEMS; kt_j++) {
			const long i = kt_i + kt_j * ((long)gridDim.x * blockDim.x);
			if (i < (n)) {
				kt_ld0[kt_j] = x[i];
			}
		}
#pragma unroll
		for (int kt_j = 0; kt_j < ITEMS; kt_j++) {
			const long i = kt_i + kt_j * ((long)gridDim.x * blockDim.x);
			if (i < (n))
				atomicMax((int *)m, __float_as_int(fabsf(kt_ld0[kt_j])));
		}
	}
#endif
}

#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((((n + (256 - 1)) / 256) < 1024 ? ((n + (256 - 1)) / 256) : 1024)) block(BLOCK_SIZE_2)
#pragma kt arg x float[n] in
#pragma kt arg y float[n] out
#pragma kt arg m float[1] in
#pragma kt arg n long = n
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif
scale_kernel(const float *__restrict__ x, float *__restrict__ y,
			     const float *m, long n)
{
	for (long i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += (long)gridDim.x * blockDim.x)
		y[i] = x[i] / m[0];
}

#ifndef __CUDACC_RTC__
void normalise(const float *x, float *y, float *m, long n, cudaStream_t s)
{
	const long blocks = (n + (BLOCK_SIZE - 1)) / BLOCK_SIZE;
	const int grid = blocks < 1024 ? (int)blocks : 1024;
	absmax_kernel<<<grid, BLOCK_SIZE, 0, s>>>(x, m, n);
	scale_kernel<<<grid, BLOCK_SIZE_2, 0, s>>>(x, y, m, n);
}
#endif
