// vectorize_grid_stride.cu - grid-stride element loops (the start the thread's
// global index, the step the grid's threads, written in any order, through
// const locals) are vectorized as block-stride ones are: every thread of the
// grid starts once in [0, step). A loop whose step is only the block is not.
#include <cuda_fp16.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef GRID_SIZE
#define GRID_SIZE 132
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 256
#endif
#ifndef GRID_SIZE_2
#define GRID_SIZE_2 132
#endif
#ifndef BLOCK_SIZE_3
#define BLOCK_SIZE_3 256
#endif
#ifndef VEC
#define VEC 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef VEC_2
#define VEC_2 1
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif
#ifndef MIN_BLOCKS_3
#define MIN_BLOCKS_3 0
#endif
template <int N> struct kt_vec;
template <> struct kt_vec<1> { typedef unsigned char t; };
template <> struct kt_vec<2> { typedef unsigned short t; };
template <> struct kt_vec<4> { typedef unsigned int t; };
template <> struct kt_vec<8> { typedef uint2 t; };
template <> struct kt_vec<16> { typedef uint4 t; };
#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param GRID_SIZE values(8, 16, 32, 64, 128, 132, 256, 512, 1024, 2048) default(132)
#pragma kt param VEC values(1, 2, 4) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(GRID_SIZE) block(BLOCK_SIZE)
#pragma kt arg x float[n] in
#pragma kt arg y float[n] out
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
gs1(const float *__restrict__ x, float *__restrict__ y, int n)
{
	if constexpr (VEC == 1)
		for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
			y[i] = x[i] * 2.f;
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&y[0]) | reinterpret_cast<size_t>(&x[0])) % (VEC * 4)) == 0;
		const int kt_nvec = kt_aligned ? (int)((n) / VEC) : 0;
		for (int kt_v = blockIdx.x * blockDim.x + threadIdx.x; kt_v < kt_nvec; kt_v += blockDim.x * gridDim.x) {
			float kt_y[VEC];
			float kt_x[VEC];
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_x) = *reinterpret_cast<const typename kt_vec<VEC * 4>::t *>(&x[(0) + kt_v * VEC]);
#pragma unroll
			for (int kt_e = 0; kt_e < VEC; kt_e++) {
				const int i = kt_v * VEC + kt_e;
				(void)i;
				kt_y[kt_e] = kt_x[kt_e] * 2.f;
			}
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(&y[(0) + kt_v * VEC]) = *reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_y);
		}
		for (int i = kt_nvec * VEC + (blockIdx.x * blockDim.x + threadIdx.x); i < (n); i += blockDim.x * gridDim.x)
			y[i] = x[i] * 2.f;
	}
}
#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param GRID_SIZE_2 values(8, 16, 32, 64, 128, 132, 256, 512, 1024, 2048) default(132)
#pragma kt param VEC_2 values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(GRID_SIZE_2) block(BLOCK_SIZE_2)
#pragma kt arg x __half[n] in
#pragma kt arg y __half[n] out
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif
gs2(const __half *__restrict__ x, __half *__restrict__ y, int n)
{
	const int idx = threadIdx.x + blockDim.x * blockIdx.x;
	const int stride = gridDim.x * blockDim.x;
	if constexpr (VEC_2 == 1)
		for (int i = idx; i < n; i += stride)
			y[i] = __hmul(x[i], x[i]);
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&y[0]) | reinterpret_cast<size_t>(&x[0])) % (VEC_2 * 2)) == 0;
		const int kt_nvec = kt_aligned ? (int)((n) / VEC_2) : 0;
		for (int kt_v = idx; kt_v < kt_nvec; kt_v += stride) {
			__half kt_y[VEC_2];
			__half kt_x[VEC_2];
			*reinterpret_cast<typename kt_vec<VEC_2 * 2>::t *>(kt_x) = *reinterpret_cast<const typename kt_vec<VEC_2 * 2>::t *>(&x[(0) + kt_v * VEC_2]);
#pragma unroll
			for (int kt_e = 0; kt_e < VEC_2; kt_e++) {
				const int i = kt_v * VEC_2 + kt_e;
				(void)i;
				kt_y[kt_e] = __hmul(kt_x[kt_e], kt_x[kt_e]);
			}
			*reinterpret_cast<typename kt_vec<VEC_2 * 2>::t *>(&y[(0) + kt_v * VEC_2]) = *reinterpret_cast<typename kt_vec<VEC_2 * 2>::t *>(kt_y);
		}
		for (int i = kt_nvec * VEC_2 + (idx); i < (n); i += stride)
			y[i] = __hmul(x[i], x[i]);
	}
}
// not covering: the step is the block only
#pragma kt param BLOCK_SIZE_3 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS_3 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_3 * MIN_BLOCKS_3 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(1) block(BLOCK_SIZE_3)
#pragma kt arg x float[n] in
#pragma kt arg y float[n] out
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_3 > 0
__launch_bounds__(BLOCK_SIZE_3, MIN_BLOCKS_3)
#endif
gs3(const float *__restrict__ x, float *__restrict__ y, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x)
		y[i] = x[i] * 2.f;
}
#ifndef __CUDACC_RTC__
void run(const float *x, float *y, const __half *h, __half *g, int n)
{
	gs1<<<GRID_SIZE, BLOCK_SIZE>>>(x, y, n);
	gs2<<<GRID_SIZE_2, BLOCK_SIZE_2>>>(h, g, n);
	gs3<<<1, BLOCK_SIZE_3>>>(x, y, n);
}
#endif
