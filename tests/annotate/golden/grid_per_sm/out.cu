// grid_per_sm: grids sized as blocks per SM. A grid-stride kernel
// launched with four blocks per SM of cudaGetDeviceProperties; a chunked
// count whose chunk per block comes from the same product as its grid
// (both must move together), the SM count read from a struct of the
// caller; a product of a literal and a count that is not the SM count,
// which stays; and a chunk computed inside a macro of another file
// (grid_per_sm_util.h), where a parameter could not follow: the grid's
// literal stays too.
#include <cuda_runtime.h>

#include "grid_per_sm_util.h"

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef BLOCKS_PER_SM
#define BLOCKS_PER_SM 4
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 128
#endif
#ifndef BLOCKS_PER_SM_2
#define BLOCKS_PER_SM_2 2
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param BLOCKS_PER_SM values(1, 2, 4, 8, 16, 32) default(4)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(DEVICE_SM_COUNT * BLOCKS_PER_SM) block(BLOCK_SIZE)
#pragma kt arg y float[n] inout
#pragma kt arg x float[n] in
// ktc: complete and uncomment: #pragma kt arg a float = ?
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
axpy_persistent(float *y, const float *x, float a, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		y[i] += a * x[i];
}

#ifndef __CUDACC_RTC__
void axpy(float *y, const float *x, float a, int n, cudaStream_t s)
{
	int dev = 0;
	cudaDeviceProp prop;
	cudaGetDevice(&dev);
	cudaGetDeviceProperties(&prop, dev);
	axpy_persistent<<<prop.multiProcessorCount * BLOCKS_PER_SM, BLOCK_SIZE, 0, s>>>(y, x, a,
	                                                             n);
}
#endif

#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param BLOCKS_PER_SM_2 values(1, 2, 4, 8, 16, 32) default(2)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem ne values(?)
#pragma kt launch grid((BLOCKS_PER_SM_2 * DEVICE_SM_COUNT < ne ? BLOCKS_PER_SM_2 * DEVICE_SM_COUNT : ne)) block(BLOCK_SIZE_2)
// ktc: complete and uncomment: #pragma kt arg x int[?] in
// ktc: complete and uncomment: #pragma kt arg y int[?] in
#pragma kt arg dst int[1] inout
#pragma kt arg dk long = ((ne + BLOCKS_PER_SM_2 * DEVICE_SM_COUNT - 1) / (BLOCKS_PER_SM_2 * DEVICE_SM_COUNT))
#pragma kt arg k long = ne
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif
count_equal(const int *x, const int *y, int *dst, long dk,
                            long k)
{
	const long i0 = (long)blockIdx.x * dk;
	const long i1 = i0 + dk < k ? i0 + dk : k;
	int same = 0;
	for (long i = i0 + threadIdx.x; i < i1; i += blockDim.x)
		same += x[i] == y[i];
	atomicAdd(dst, same);
}

struct device_info {
	int nsm;
	int copies;
};

#ifndef __CUDACC_RTC__
void count(const int *x, const int *y, int *dst, long ne,
           const device_info &info, cudaStream_t s)
{
	const int nsm = info.nsm;
	const long dne = (ne + BLOCKS_PER_SM_2 * nsm - 1) / (BLOCKS_PER_SM_2 * nsm);
	const long blocks = BLOCKS_PER_SM_2 * nsm < ne ? BLOCKS_PER_SM_2 * nsm : ne;
	const int spare = 2 * info.copies; /* not an SM count: stays */
	(void)spare;
	count_equal<<<blocks, BLOCK_SIZE_2, 0, s>>>(x, y, dst, dne, ne);
}

void count_padded(const int *x, const int *y, int *dst, long ne,
                  const device_info &info, cudaStream_t s)
{
	const long dne = ROUND_UP((ne + 3 * info.nsm - 1) / (3 * info.nsm), 64);
	const long blocks = (ne + dne - 1) / dne;
	count_equal<<<blocks < 3 * info.nsm ? blocks : 3 * info.nsm, BLOCK_SIZE_2, 0,
	              s>>>(x, y, dst, dne, ne);
}
#endif
