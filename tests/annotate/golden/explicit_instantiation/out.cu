// explicit_instantiation: host function templates launch kernel
// templates and are instantiated only explicitly (the way libraries build
// their launchers): the instantiation fixes the kernel's template
// arguments, written (`invoke_scale<__half, 8>`) or deduced from its
// parameters (`float *out` for `T *out`), in the file or in the body of
// a macro the file expands (`INSTANTIATE_BIAS(half)`); the file's own
// come first.
#include <cuda_fp16.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 128
#endif
#ifndef BLOCK_SIZE_3
#define BLOCK_SIZE_3 512
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef ITEMS_PER_THREAD
#define ITEMS_PER_THREAD 1
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif
#ifndef ITEMS_PER_THREAD_2
#define ITEMS_PER_THREAD_2 1
#endif
#ifndef MIN_BLOCKS_3
#define MIN_BLOCKS_3 0
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt kernel template("__half", 8)
#pragma kt launch grid(((n + BLOCK_SIZE * 8 - 1) / (BLOCK_SIZE * 8))) block(BLOCK_SIZE)
#pragma kt arg out __half[n] out
#pragma kt arg in __half[n] in
// ktc: complete and uncomment: #pragma kt arg s float = ?
#pragma kt arg n int = n
template <typename T, int VEC>
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
scale_kernel(T *out, const T *in, float s, int n)
{
	int i = (blockIdx.x * blockDim.x + threadIdx.x) * VEC;
#pragma unroll
	for (int k = 0; k < VEC; k++)
		if (i + k < n)
			out[i + k] = (T)((float)in[i + k] * s);
}

#ifndef __CUDACC_RTC__
template <typename T, int VEC>
void invoke_scale(T *out, const T *in, float s, int n, cudaStream_t st)
{
	const int blocks = (n + BLOCK_SIZE * VEC - 1) / (BLOCK_SIZE * VEC);
	scale_kernel<T, VEC><<<blocks, BLOCK_SIZE, 0, st>>>(out, in, s, n);
}
#endif

#define INSTANTIATE_SCALE(T)                                                   \
	template void invoke_scale<T, 4>(T *, const T *, float, int,           \
	                                 cudaStream_t);
#ifndef __CUDACC_RTC__
INSTANTIATE_SCALE(float)
template void invoke_scale<__half, 8>(__half *, const __half *, float, int,
                                      cudaStream_t);
#endif

#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt kernel template("half")
#pragma kt launch grid(div_ceil((n + (BLOCK_SIZE_2 - 1)) / BLOCK_SIZE_2, ITEMS_PER_THREAD)) block(BLOCK_SIZE_2)
#pragma kt arg out half[n] inout
#pragma kt arg bias half[n] in
#pragma kt arg n int = n
template <typename T> __global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif
bias_kernel(T *out, const T *bias, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			out[i] = out[i] + bias[i];
	}
}

#ifndef __CUDACC_RTC__
template <typename T>
void invoke_bias(T *out, const T *bias, int n, cudaStream_t st)
{
	bias_kernel<T><<<((((n + (BLOCK_SIZE_2 - 1)) / BLOCK_SIZE_2) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), BLOCK_SIZE_2, 0, st>>>(out, bias, n);
}
#endif

#define INSTANTIATE_BIAS(T)                                                    \
	template void invoke_bias(T *out, const T *bias, int n, cudaStream_t st)
#ifndef __CUDACC_RTC__
INSTANTIATE_BIAS(half);
INSTANTIATE_BIAS(float);
#endif

#pragma kt param BLOCK_SIZE_3 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(512)
#pragma kt param ITEMS_PER_THREAD_2 values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS_3 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_3 * MIN_BLOCKS_3 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt kernel template("double")
#pragma kt launch grid(div_ceil((n + (BLOCK_SIZE_3 - 1)) / BLOCK_SIZE_3, ITEMS_PER_THREAD_2)) block(BLOCK_SIZE_3)
#pragma kt arg out double[n] out
#pragma kt arg in double[n] in
#pragma kt arg n int = n
template <typename T> __global__ void
#if MIN_BLOCKS_3 > 0
__launch_bounds__(BLOCK_SIZE_3, MIN_BLOCKS_3)
#endif
copy_kernel(T *out, const T *in, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD_2; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			out[i] = in[i];
	}
}

#ifndef __CUDACC_RTC__
template <typename T>
void invoke_copy(T *out, const T *__restrict__ in, int n, cudaStream_t st)
{
	copy_kernel<<<((((n + (BLOCK_SIZE_3 - 1)) / BLOCK_SIZE_3) + ITEMS_PER_THREAD_2 - 1) / ITEMS_PER_THREAD_2), BLOCK_SIZE_3, 0, st>>>(out, in, n);
}

template void invoke_copy(double *out, const double *__restrict__ in, int n,
                          cudaStream_t st);
#endif
