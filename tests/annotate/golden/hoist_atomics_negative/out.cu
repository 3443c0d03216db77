// hoist_atomics_negative.cu - block-strided loops of atomics where loads
// must stay after the earlier iterations' atomics: each reads memory the
// loop may update. hoist_loads is not offered for any of them.
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 256
#endif
#ifndef BLOCK_SIZE_3
#define BLOCK_SIZE_3 256
#endif
#ifndef BLOCK_SIZE_4
#define BLOCK_SIZE_4 256
#endif
#ifndef BLOCK_SIZE_5
#define BLOCK_SIZE_5 256
#endif
#ifndef BLOCK_SIZE_6
#define BLOCK_SIZE_6 256
#endif
#ifndef BLOCK_SIZE_7
#define BLOCK_SIZE_7 256
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif
#ifndef MIN_BLOCKS_3
#define MIN_BLOCKS_3 0
#endif
#ifndef MIN_BLOCKS_4
#define MIN_BLOCKS_4 0
#endif
#ifndef MIN_BLOCKS_5
#define MIN_BLOCKS_5 0
#endif
#ifndef MIN_BLOCKS_6
#define MIN_BLOCKS_6 0
#endif
#ifndef MIN_BLOCKS_7
#define MIN_BLOCKS_7 0
#endif

// the loop reads the array it updates (restrict says nothing of one
// pointer's own loads and atomics)
#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(1) block(BLOCK_SIZE)
#pragma kt arg a int[max(256, n)] inout
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
self_update(int *__restrict__ a, int n)
{
	for (int i = threadIdx.x; i < n; i += blockDim.x)
		atomicAdd(&a[a[i] & 255], 1);
}

// two global pointers, neither __restrict__: counts may alias keys
#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(1) block(BLOCK_SIZE_2)
#pragma kt arg keys int[n] in
// ktc: complete and uncomment: #pragma kt arg counts int[?] inout
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif
maybe_aliased(const int *keys, int *counts, int n)
{
	for (int i = threadIdx.x; i < n; i += blockDim.x)
		atomicAdd(&counts[keys[i]], 1);
}

// two arrays of dynamic shared memory: both start at the same address
#pragma kt param BLOCK_SIZE_3 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS_3 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_3 * MIN_BLOCKS_3 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem m values(?)
#pragma kt launch grid(1) block(BLOCK_SIZE_3) smem(m * 4)
#pragma kt arg m int = m
__global__ void
#if MIN_BLOCKS_3 > 0
__launch_bounds__(BLOCK_SIZE_3, MIN_BLOCKS_3)
#endif
dynamic_shared(int m)
{
	extern __shared__ int counts[];
	extern __shared__ int order[];
	for (int i = threadIdx.x; i < m; i += blockDim.x)
		order[i] = i;
	__syncthreads();
	for (int i = threadIdx.x; i < m; i += blockDim.x)
		atomicAdd(&counts[order[i] % 64], 1);
}

// the bound is read from memory the atomics update
#pragma kt param BLOCK_SIZE_4 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS_4 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_4 * MIN_BLOCKS_4 <= DEVICE_MAX_THREADS_PER_SM
#pragma kt launch grid(1) block(BLOCK_SIZE_4)
// ktc: complete and uncomment: #pragma kt arg keys int[?] in
// ktc: complete and uncomment: #pragma kt arg counts int[?] inout
#pragma kt arg n int = 0
__global__ void
#if MIN_BLOCKS_4 > 0
__launch_bounds__(BLOCK_SIZE_4, MIN_BLOCKS_4)
#endif
moving_bound(const int *__restrict__ keys,
			     int *__restrict__ counts, int n)
{
	for (int i = threadIdx.x; i < counts[0]; i += blockDim.x)
		atomicAdd(&counts[keys[i] + 1], 1);
}

// a barrier in the loop
#pragma kt param BLOCK_SIZE_5 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS_5 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_5 * MIN_BLOCKS_5 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(1) block(BLOCK_SIZE_5)
#pragma kt arg keys int[n] in
// ktc: complete and uncomment: #pragma kt arg counts int[?] inout
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_5 > 0
__launch_bounds__(BLOCK_SIZE_5, MIN_BLOCKS_5)
#endif
with_barrier(const int *__restrict__ keys,
			     int *__restrict__ counts, int n)
{
	for (int i = threadIdx.x; i < n; i += blockDim.x) {
		atomicAdd(&counts[keys[i]], 1);
		__syncthreads();
	}
}

// a stride the kernel is given: nothing says it is positive
#pragma kt param BLOCK_SIZE_6 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS_6 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_6 * MIN_BLOCKS_6 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(1) block(BLOCK_SIZE_6)
#pragma kt arg keys int[n] in
// ktc: complete and uncomment: #pragma kt arg counts int[?] inout
#pragma kt arg n int = n
#pragma kt arg step int = 256
__global__ void
#if MIN_BLOCKS_6 > 0
__launch_bounds__(BLOCK_SIZE_6, MIN_BLOCKS_6)
#endif
given_stride(const int *__restrict__ keys,
			     int *__restrict__ counts, int n, int step)
{
	for (int i = threadIdx.x; i < n; i += step)
		atomicAdd(&counts[keys[i]], 1);
}

// the counters are where a table's pointer points: __restrict__ says the
// table is not aliased, not what its pointers reach (keys, maybe)
#pragma kt param BLOCK_SIZE_7 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS_7 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_7 * MIN_BLOCKS_7 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(4) block(BLOCK_SIZE_7)
#pragma kt arg keys int[n] in
#pragma kt arg table int *[4] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_7 > 0
__launch_bounds__(BLOCK_SIZE_7, MIN_BLOCKS_7)
#endif
through_table(const int *keys, int *const *__restrict__ table,
			      int n)
{
	for (int i = threadIdx.x; i < n; i += blockDim.x)
		atomicAdd(&table[blockIdx.x][keys[i]], 1);
}

#ifndef __CUDACC_RTC__
void launch(int *a, const int *keys, int *counts, int *const *table, int n,
	    int m, cudaStream_t stream)
{
	self_update<<<1, BLOCK_SIZE, 0, stream>>>(a, n);
	maybe_aliased<<<1, BLOCK_SIZE_2, 0, stream>>>(keys, counts, n);
	dynamic_shared<<<1, BLOCK_SIZE_3, m * sizeof(int), stream>>>(m);
	moving_bound<<<1, BLOCK_SIZE_4, 0, stream>>>(keys, counts, n);
	with_barrier<<<1, BLOCK_SIZE_5, 0, stream>>>(keys, counts, n);
	given_stride<<<1, BLOCK_SIZE_6, 0, stream>>>(keys, counts, n, 256);
	through_table<<<4, BLOCK_SIZE_7, 0, stream>>>(keys, table, n);
}
#endif
