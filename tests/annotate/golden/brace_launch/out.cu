// Launch geometry written with braces, as serving code does: a dim3
// temporary `dim3{K}` at the launch (K a local constexpr, a file-scope one
// or a class's static member), `dim3 block{K};`, `dim3 block = {K, 1,
// 1};`, and a grid `dim3 grid{(n + K - 1) / K}` (also `const`). Each
// block-size literal or constexpr becomes the block parameter, with the
// grid arithmetic tied to it, as the parenthesised forms are.
#ifndef __CUDACC_RTC__
#include <cstdint>
#elif !defined(KTC_RTC_HEADERS_GIVEN)
#include <cuda/std/cstdint>
#endif
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 128
#endif
#ifndef BLOCK_SIZE_3
#define BLOCK_SIZE_3 512
#endif
#ifndef BLOCK_SIZE_4
#define BLOCK_SIZE_4 64
#endif
#ifndef WIDE_BLOCK
#define WIDE_BLOCK 256
#endif
#ifndef BLOCK_SIZE_5
#define BLOCK_SIZE_5 128
#endif
#ifndef ITEMS_PER_THREAD
#define ITEMS_PER_THREAD 1
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
#ifndef ITEMS_PER_THREAD_2
#define ITEMS_PER_THREAD_2 1
#endif
#ifndef MIN_BLOCKS_5
#define MIN_BLOCKS_5 0
#endif
#ifndef MIN_BLOCKS_6
#define MIN_BLOCKS_6 0
#endif

constexpr uint32_t kWideBlock = WIDE_BLOCK;

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil((n + BLOCK_SIZE - 1) / BLOCK_SIZE, ITEMS_PER_THREAD)) block(BLOCK_SIZE)
#pragma kt arg out float[n] out
#pragma kt arg in float[n] in
// ktc: complete and uncomment: #pragma kt arg a float = ?
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
scale_kernel(float *out, const float *in, float a, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			out[i] = a * in[i];
	}
}

#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(((n + (BLOCK_SIZE_2 - 1)) / BLOCK_SIZE_2)) block(BLOCK_SIZE_2)
#pragma kt arg out float[n] out
#pragma kt arg in float[n] in
// ktc: complete and uncomment: #pragma kt arg b float = ?
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif
shift_kernel(float *out, const float *in, float b, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in[i] + b;
}

#pragma kt param BLOCK_SIZE_3 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(512)
#pragma kt param MIN_BLOCKS_3 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_3 * MIN_BLOCKS_3 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(((n + (BLOCK_SIZE_3 - 1)) / BLOCK_SIZE_3), 1, 1) block(BLOCK_SIZE_3, 1, 1)
#pragma kt arg out float[n] out
#pragma kt arg in float[n] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_3 > 0
__launch_bounds__(BLOCK_SIZE_3, MIN_BLOCKS_3)
#endif
square_kernel(float *out, const float *in, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in[i] * in[i];
}

#pragma kt param BLOCK_SIZE_4 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(64)
#pragma kt param MIN_BLOCKS_4 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_4 * MIN_BLOCKS_4 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(((n + BLOCK_SIZE_4 - 1) / BLOCK_SIZE_4)) block(BLOCK_SIZE_4, 1, 1)
#pragma kt arg out float[n] out
#pragma kt arg in float[n] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_4 > 0
__launch_bounds__(BLOCK_SIZE_4, MIN_BLOCKS_4)
#endif
negate_kernel(float *out, const float *in, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = -in[i];
}

#pragma kt param WIDE_BLOCK values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD_2 values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS_5 values(0, 1, 2, 4) default(0)
#pragma kt constraint WIDE_BLOCK * MIN_BLOCKS_5 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil(((n + WIDE_BLOCK - 1) / WIDE_BLOCK), ITEMS_PER_THREAD_2)) block(WIDE_BLOCK)
#pragma kt arg out float[n] out
#pragma kt arg in float[n] in
#pragma kt arg n uint32_t = n
__global__ void
#if MIN_BLOCKS_5 > 0
__launch_bounds__(WIDE_BLOCK, MIN_BLOCKS_5)
#endif
twice_kernel(float *out, const float *in, uint32_t n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD_2; kt_item++) {
		uint32_t i = (blockIdx.x * kWideBlock + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			out[i] = 2.0f * in[i];
	}
}

struct HalfCfg {
	static constexpr int kBlock = BLOCK_SIZE_5;
};

#pragma kt param BLOCK_SIZE_5 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param MIN_BLOCKS_6 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_5 * MIN_BLOCKS_6 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(((n + BLOCK_SIZE_5 - 1) / BLOCK_SIZE_5)) block(BLOCK_SIZE_5)
#pragma kt arg out float[n] out
#pragma kt arg in float[n] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_6 > 0
__launch_bounds__(BLOCK_SIZE_5, MIN_BLOCKS_6)
#endif
half_kernel(float *out, const float *in, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = 0.5f * in[i];
}

#ifndef __CUDACC_RTC__
void scale(float *out, const float *in, float a, int n, cudaStream_t s)
{
	constexpr int kThreadsPerBlock = BLOCK_SIZE;
	scale_kernel<<<((((n + kThreadsPerBlock - 1) / kThreadsPerBlock) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD),
	               dim3{kThreadsPerBlock}, 0, s>>>(out, in, a, n);
}

void shift(float *out, const float *in, float b, unsigned n, cudaStream_t s)
{
	dim3 block{BLOCK_SIZE_2};
	dim3 grid{(n + (BLOCK_SIZE_2 - 1)) / BLOCK_SIZE_2};
	shift_kernel<<<grid, block, 0, s>>>(out, in, b, n);
}

void square(float *out, const float *in, int n, cudaStream_t s)
{
	dim3 block = {BLOCK_SIZE_3, 1, 1};
	dim3 grid = {(unsigned)((n + (BLOCK_SIZE_3 - 1)) / BLOCK_SIZE_3), 1, 1};
	square_kernel<<<grid, block, 0, s>>>(out, in, n);
}

void negate(float *out, const float *in, int n, cudaStream_t s)
{
	constexpr unsigned kBlock = BLOCK_SIZE_4;
	const dim3 grid{(n + kBlock - 1) / kBlock};
	negate_kernel<<<grid, dim3{kBlock, 1, 1}, 0, s>>>(out, in, n);
}

void twice(float *out, const float *in, uint32_t n, cudaStream_t s)
{
	const uint32_t blocks = (n + kWideBlock - 1) / kWideBlock;
	twice_kernel<<<dim3{(((blocks) + ITEMS_PER_THREAD_2 - 1) / ITEMS_PER_THREAD_2)}, dim3{kWideBlock}, 0, s>>>(out, in, n);
}

void half(float *out, const float *in, int n, cudaStream_t s)
{
	dim3 grid{static_cast<unsigned>((n + HalfCfg::kBlock - 1) /
	                                HalfCfg::kBlock)};
	half_kernel<<<grid, dim3{HalfCfg::kBlock}, 0, s>>>(out, in, n);
}
#endif
