// pack_stores.cu - loops of a constant count that store one narrow element
// per iteration. The built-in planner offers pack_stores (registers, then
// one 4-, 8- or 16-byte store) for the first loop of each kernel and not
// for the others: a store only some iterations make, a store through a
// pointer without __restrict__ (a later iteration could read it), and a
// vector of 3 * 2 bytes. The last kernel's subscript offset spans two lines:
// still one expression, offered.
#include <cuda_fp16.h>
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
#ifndef PACK
#define PACK 0
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
#ifndef PACK_2
#define PACK_2 0
#endif
#ifndef MIN_BLOCKS_4
#define MIN_BLOCKS_4 0
#endif
template <int N> struct kt_vec;
template <> struct kt_vec<1> { typedef unsigned char t; };
template <> struct kt_vec<2> { typedef unsigned short t; };
template <> struct kt_vec<4> { typedef unsigned int t; };
template <> struct kt_vec<8> { typedef uint2 t; };
template <> struct kt_vec<16> { typedef uint4 t; };

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param PACK values(0, 1) default(0)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n / 8 + (BLOCK_SIZE - 1)) / BLOCK_SIZE) block(BLOCK_SIZE)
#pragma kt arg out __half[2 * n + 7] inout
#pragma kt arg in float[n + 7] in
#pragma kt arg s float[1] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
to_half(__half *__restrict__ out, const float *__restrict__ in,
			const float *__restrict__ s, int n)
{
	const int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t * 8 >= n)
		return;
	const float f = s[0];
#if PACK
	{
		__align__(16) __half kt_pk[8];
#pragma unroll
		for (int k = 0; k < 8; k++)
			kt_pk[k] = __float2half(in[t * 8 + k] * f);
		if ((reinterpret_cast<size_t>(&out[t * 8]) & 15) == 0)
			*reinterpret_cast<kt_vec<16>::t *>(&out[t * 8]) =
			    *reinterpret_cast<const kt_vec<16>::t *>(kt_pk);
		else
			for (int kt_j = 0; kt_j < 8; kt_j++)
				out[t * 8 + kt_j] = kt_pk[kt_j];
	}
#else
#pragma unroll
	for (int k = 0; k < 8; k++)
		out[t * 8 + k] = __float2half(in[t * 8 + k] * f);
#endif
	for (int k = 0; k < 8; k++)
		if (in[t * 8 + k] > 0)
			out[n + t * 8 + k] = __float2half(f);
}

#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n / 4 + (BLOCK_SIZE_2 - 1)) / BLOCK_SIZE_2) block(BLOCK_SIZE_2)
#pragma kt arg out unsigned char[n + 3] out
#pragma kt arg in float[n + 3] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif
to_bytes(unsigned char *out, const float *__restrict__ in,
			 int n)
{
	const int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t * 4 >= n)
		return;
	for (int k = 0; k < 4; k++)
		out[t * 4 + k] = (unsigned char)(in[t * 4 + k] * 255.0f);
}

#pragma kt param BLOCK_SIZE_3 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS_3 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_3 * MIN_BLOCKS_3 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n / 3 + (BLOCK_SIZE_3 - 1)) / BLOCK_SIZE_3) block(BLOCK_SIZE_3)
#pragma kt arg out __half[n + 2] out
#pragma kt arg in float[n + 2] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_3 > 0
__launch_bounds__(BLOCK_SIZE_3, MIN_BLOCKS_3)
#endif
three(__half *__restrict__ out, const float *__restrict__ in,
		      int n)
{
	const int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t * 3 >= n)
		return;
	for (int k = 0; k < 3; k++)
		out[t * 3 + k] = __float2half(in[t * 3 + k]);
}

#pragma kt param BLOCK_SIZE_4 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param PACK_2 values(0, 1) default(0)
#pragma kt param MIN_BLOCKS_4 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_4 * MIN_BLOCKS_4 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n / 4 + (BLOCK_SIZE_4 - 1)) / BLOCK_SIZE_4) block(BLOCK_SIZE_4)
#pragma kt arg out __half[n + 3] out
#pragma kt arg in float[n + 3] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_4 > 0
__launch_bounds__(BLOCK_SIZE_4, MIN_BLOCKS_4)
#endif
wrapped(__half *__restrict__ out, const float *__restrict__ in,
			int n)
{
	const int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t * 4 >= n)
		return;
#if PACK_2
	{
		__align__(8) __half kt_pk[4];
		for (int k = 0; k < 4; k++)
			kt_pk[k] = __float2half(in[t * 4 + k]);
		if ((reinterpret_cast<size_t>(&out[t *
			    4]) & 7) == 0)
			*reinterpret_cast<kt_vec<8>::t *>(&out[t *
			    4]) =
			    *reinterpret_cast<const kt_vec<8>::t *>(kt_pk);
		else
			for (int kt_j = 0; kt_j < 4; kt_j++)
				out[t *
			    4 + kt_j] = kt_pk[kt_j];
	}
#else
	for (int k = 0; k < 4; k++)
		out[t *
		    4 + k] = __float2half(in[t * 4 + k]);
#endif
}

#ifndef __CUDACC_RTC__
void launch(__half *h, unsigned char *b, const float *in, const float *s,
	    int n, cudaStream_t stream)
{
	to_half<<<(n / 8 + (BLOCK_SIZE - 1)) / BLOCK_SIZE, BLOCK_SIZE, 0, stream>>>(h, in, s, n);
	to_bytes<<<(n / 4 + (BLOCK_SIZE_2 - 1)) / BLOCK_SIZE_2, BLOCK_SIZE_2, 0, stream>>>(b, in, n);
	three<<<(n / 3 + (BLOCK_SIZE_3 - 1)) / BLOCK_SIZE_3, BLOCK_SIZE_3, 0, stream>>>(h, in, n);
	wrapped<<<(n / 4 + (BLOCK_SIZE_4 - 1)) / BLOCK_SIZE_4, BLOCK_SIZE_4, 0, stream>>>(h, in, n);
}
#endif
