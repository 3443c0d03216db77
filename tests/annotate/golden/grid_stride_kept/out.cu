// Kernels with grid-stride loops whose literal grid stays as written:
// each reads the grid's position where another count of blocks would
// change what it computes, or meets a barrier inside a loop whose
// threads run different counts of iterations at another grid.

#include <cooperative_groups.h>

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
#define BLOCK_SIZE_4 64
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef WARP_REDUCE
#define WARP_REDUCE 0
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif
#ifndef VEC
#define VEC 1
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
template <int N> struct kt_vec;
template <> struct kt_vec<1> { typedef unsigned char t; };
template <> struct kt_vec<2> { typedef unsigned short t; };
template <> struct kt_vec<4> { typedef unsigned int t; };
template <> struct kt_vec<8> { typedef uint2 t; };
template <> struct kt_vec<16> { typedef uint4 t; };

// a partial sum per block: the host sums 1024 partials
#pragma kt param BLOCK_SIZE values(32, 64, 128, 256, 512, 1024) default(256)
#pragma kt constraint 4 * (BLOCK_SIZE) <= DEVICE_SMEM_PER_BLOCK
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
#pragma kt param WARP_REDUCE values(0, 1) default(0)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(1024) block(BLOCK_SIZE)
#pragma kt arg part float[1024] out
#pragma kt arg x float[n] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
partial_sums(float *part, const float *x, int n)
{
	__shared__ float s[BLOCK_SIZE];
	float acc = 0.0f;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += blockDim.x * gridDim.x)
		acc += x[i];
	s[threadIdx.x] = acc;
	__syncthreads();
#if WARP_REDUCE == 0
	for (int h = blockDim.x / 2; h > 0; h /= 2) {
		if (threadIdx.x < h)
			s[threadIdx.x] += s[threadIdx.x + h];
		__syncthreads();
	}
#else
	{
		float kt_r = s[threadIdx.x];
		__syncthreads();
		for (int kt_o = 16; kt_o > 0; kt_o >>= 1)
			kt_r = kt_r + __shfl_xor_sync(0xffffffffu, kt_r, kt_o);
		if (threadIdx.x % 32 == 0)
			s[threadIdx.x / 32] = kt_r;
		__syncthreads();
		if (threadIdx.x < 32) {
			const int kt_nw = blockDim.x / 32;
			kt_r = s[threadIdx.x < kt_nw ? threadIdx.x : 0];
			for (int kt_o = 16; kt_o > 0; kt_o >>= 1) {
				float kt_y = __shfl_down_sync(0xffffffffu, kt_r, kt_o);
				if (threadIdx.x + kt_o < kt_nw)
					kt_r = kt_r + kt_y;
			}
			if (threadIdx.x == 0)
				s[0] = kt_r;
		}
		__syncthreads();
	}
#endif
	if (threadIdx.x == 0)
		part[blockIdx.x] = s[0];
}

// a barrier inside the per-thread loop
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint 128 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(512) block(128)
#pragma kt arg y float[n] out
#pragma kt arg x float[n] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(128, MIN_BLOCKS_2)
#endif
staged(float *y, const float *x, int n)
{
	__shared__ float t[128];
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += blockDim.x * gridDim.x) {
		t[threadIdx.x] = x[i];
		__syncthreads();
		y[i] = t[(threadIdx.x + 1) % 128];
		__syncthreads();
	}
}

// the first block does extra work
#pragma kt param BLOCK_SIZE_2 values(32, 64, 128, 256, 512, 1024) default(256)
#pragma kt param VEC values(1, 2, 4) default(1)
#pragma kt param MIN_BLOCKS_3 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_3 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(512) block(BLOCK_SIZE_2)
#pragma kt arg y float[n] out
#pragma kt arg count int[1] out
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_3 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_3)
#endif
fill_count(float *y, int *count, int n)
{
	if (blockIdx.x == 0 && threadIdx.x == 0)
		*count = n;
	if constexpr (VEC == 1)
		for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
		     i += blockDim.x * gridDim.x)
			y[i] = 1.0f;
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&y[0])) % (VEC * 4)) == 0;
		const int kt_nvec = kt_aligned ? (int)((n) / VEC) : 0;
		for (int kt_v = blockIdx.x * blockDim.x + threadIdx.x; kt_v < kt_nvec; kt_v += blockDim.x * gridDim.x) {
			float kt_y[VEC];
#pragma unroll
			for (int kt_e = 0; kt_e < VEC; kt_e++) {
				const int i = kt_v * VEC + kt_e;
				(void)i;
				kt_y[kt_e] = 1.0f;
			}
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(&y[(0) + kt_v * VEC]) = *reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_y);
		}
		for (int i = kt_nvec * VEC + (blockIdx.x * blockDim.x + threadIdx.x); i < (n); i += blockDim.x * gridDim.x)
			y[i] = 1.0f;
	}
}

// a helper of the file reads the grid
__device__ int grid_threads() { return blockDim.x * gridDim.x; }

#pragma kt param BLOCK_SIZE_3 values(32, 64, 128, 256, 512, 1024) default(256)
#pragma kt param MIN_BLOCKS_4 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_3 * MIN_BLOCKS_4 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(256) block(BLOCK_SIZE_3)
// ktc: complete and uncomment: #pragma kt arg y float[?] out
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_4 > 0
__launch_bounds__(BLOCK_SIZE_3, MIN_BLOCKS_4)
#endif
zero(float *y, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += grid_threads())
		y[i] = 0.0f;
}

// a partial per block, its place read through cooperative groups
#pragma kt param BLOCK_SIZE_4 values(32, 64, 128, 256, 512, 1024) default(64)
#pragma kt param MIN_BLOCKS_5 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_4 * MIN_BLOCKS_5 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(1024) block(BLOCK_SIZE_4)
// ktc: complete and uncomment: #pragma kt arg part float[?] out
#pragma kt arg x float[n] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_5 > 0
__launch_bounds__(BLOCK_SIZE_4, MIN_BLOCKS_5)
#endif
group_partials(float *part, const float *x, int n)
{
	float acc = 0.0f;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += blockDim.x * gridDim.x)
		acc += x[i];
	if (threadIdx.x == 0)
		part[cooperative_groups::this_thread_block().group_index().x] =
		    acc;
}

#ifndef __CUDACC_RTC__
void run(float *part, float *y, const float *x, int *count, int n)
{
	partial_sums<<<1024, BLOCK_SIZE>>>(part, x, n);
	staged<<<512, 128>>>(y, x, n);
	fill_count<<<512, BLOCK_SIZE_2>>>(y, count, n);
	zero<<<256, BLOCK_SIZE_3>>>(y, n);
	group_partials<<<1024, BLOCK_SIZE_4>>>(part, x, n);
}
#endif
