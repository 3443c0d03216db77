// Lengths the kernel body proves (golden derived_lengths): one block per
// row with local pointer aliases and 16-byte vector views, a vector loop
// with a scalar tail, a flat index taken apart by / and %, a 2-D grid.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 128
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 256
#endif
#ifndef BLOCK_SIZE_3
#define BLOCK_SIZE_3 128
#endif
#ifndef BLOCK_SIZE_4
#define BLOCK_SIZE_4 64
#endif
#ifndef BLOCK_SIZE_Y
#define BLOCK_SIZE_Y 4
#endif
#ifndef SPLIT
#define SPLIT 1
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

// in is [rows, 2 * d], out [rows, d]: the aliases start at the row, the
// uint4 view counts 8 bf16 each; the host checks that 8 divides d.
#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param SPLIT values(1, 2, 4, 8, 16, 32) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows, SPLIT) block(BLOCK_SIZE)
#pragma kt constraint d % 8 == 0
#pragma kt constraint rows > 0
#pragma kt constraint d > 0
#pragma kt arg out __nv_bfloat16[rows * d] out
#pragma kt arg in __nv_bfloat16[2 * rows * d] in
#pragma kt arg d int = d
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
gated(__nv_bfloat16 *out, const __nv_bfloat16 *in, int d)
{
	const long r = blockIdx.x;
	const uint4 *x = reinterpret_cast<const uint4 *>(in + r * 2 * d);
	const uint4 *y = reinterpret_cast<const uint4 *>(&in[r * 2 * d + d]);
	uint4 *o = reinterpret_cast<uint4 *>(out + r * d);
	for (int i = threadIdx.x + (SPLIT == 1 ? 0 : blockIdx.y * blockDim.x); i < d / 8; i += (blockDim.x) * (SPLIT == 1 ? 1 : gridDim.y)) {
		uint4 a = x[i], b = y[i];
		a.x ^= b.x;
		o[i] = a;
	}
}

// a vector loop and a scalar tail: 4 * (n / 4) and n, the larger n
#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(132) block(BLOCK_SIZE_2)
#pragma kt constraint n >= 0
#pragma kt arg v float[n] inout
#pragma kt arg n long = n
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif
scale_tail(float *v, long n)
{
	const long tid = (long)blockIdx.x * blockDim.x + threadIdx.x;
	const long stride = (long)gridDim.x * blockDim.x;
	float4 *w = (float4 *)v;
	for (long i = tid; i < n / 4; i += stride) {
		float4 e = w[i];
		e.x *= 2.f;
		w[i] = e;
	}
	for (long i = n / 4 * 4 + tid; i < n; i += stride)
		v[i] *= 2.f;
}

// one thread per (row, pack): th = gid / packs rows of dim, lse per row
#pragma kt param BLOCK_SIZE_3 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param MIN_BLOCKS_3 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_3 * MIN_BLOCKS_3 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid((rows * (d / 4) + (BLOCK_SIZE_3 - 1)) / BLOCK_SIZE_3) block(BLOCK_SIZE_3)
#pragma kt constraint d % 8 == 0
#pragma kt constraint rows > 0
#pragma kt constraint d > 0
#pragma kt arg out float[rows * d] out
#pragma kt arg lse float[rows] out
#pragma kt arg in float[rows * d] in
#pragma kt arg rows int = rows
#pragma kt arg dim int = d
__global__ void
#if MIN_BLOCKS_3 > 0
__launch_bounds__(BLOCK_SIZE_3, MIN_BLOCKS_3)
#endif
flat(float *out, float *lse, const float *in, int rows,
		     int dim)
{
	const int packs = dim / 4;
	const long gid = (long)blockIdx.x * BLOCK_SIZE_3 + threadIdx.x;
	if (gid >= (long)rows * packs)
		return;
	const long th = gid / packs;
	const int pack = gid % packs;
	const long off = th * dim + pack * 4;
	*(float4 *)(out + off) = *(const float4 *)(in + off);
	if (pack == 0)
		lse[th] = 0.f;
}

// a 2-D grid: blockIdx.y below the grid's y, blockIdx.x below its x
#pragma kt param BLOCK_SIZE_4 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(64)
#pragma kt param MIN_BLOCKS_4 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_4 * MIN_BLOCKS_4 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem w values(?)
// ktc: complete and uncomment: #pragma kt problem h values(?)
#pragma kt launch grid((w + (BLOCK_SIZE_4 - 1)) / BLOCK_SIZE_4, h) block(BLOCK_SIZE_4)
#pragma kt arg dst float[h * w] out
#pragma kt arg w int = w
__global__ void
#if MIN_BLOCKS_4 > 0
__launch_bounds__(BLOCK_SIZE_4, MIN_BLOCKS_4)
#endif
tiles(float *dst, int w)
{
	const int row = blockIdx.y, col = blockIdx.x * BLOCK_SIZE_4 + threadIdx.x;
	if (col < w)
		dst[(long)row * w + col] = 1.f;
}

// a guard a bool holds (`if (c >= w) continue;` would bound c as well,
// but clangd's extract-function check fails on it: moe_sum_reduce has one)
#pragma kt param BLOCK_SIZE_Y values(1, 2, 4, 8, 16, 32, 64) default(4)
#pragma kt constraint (32) * (BLOCK_SIZE_Y) <= DEVICE_MAX_THREADS_PER_BLOCK
// ktc: complete and uncomment: #pragma kt problem h values(?)
// ktc: complete and uncomment: #pragma kt problem w values(?)
#pragma kt launch grid((h + (BLOCK_SIZE_Y - 1)) / BLOCK_SIZE_Y) block(32, BLOCK_SIZE_Y)
#pragma kt arg dst float[h * w] out
#pragma kt arg src float[w] in
#pragma kt arg rows int = h
#pragma kt arg w int = w
__global__ void sweep(float *dst, const float *src, int rows, int w)
{
	const int row = blockIdx.x * BLOCK_SIZE_Y + threadIdx.y;
	const bool live = row < rows;
	for (int c = threadIdx.x; c < w + 32; c += 32)
		if (live && c < w)
			dst[(long)row * w + c] = src[c];
}

#ifndef __CUDACC_RTC__
void run(__nv_bfloat16 *out, const __nv_bfloat16 *in, float *v, float *lse,
	 float *fo, const float *fi, int rows, int d, long n, int h, int w)
{
	if (d % 8 || rows <= 0 || d <= 0 || n < 0)
		return;
	gated<<<dim3(rows, SPLIT), BLOCK_SIZE>>>(out, in, d);
	scale_tail<<<132, BLOCK_SIZE_2>>>(v, n);
	flat<<<(rows * (d / 4) + (BLOCK_SIZE_3 - 1)) / BLOCK_SIZE_3, BLOCK_SIZE_3>>>(fo, lse, fi, rows, d);
	dim3 grid((w + (BLOCK_SIZE_4 - 1)) / BLOCK_SIZE_4, h);
	tiles<<<grid, BLOCK_SIZE_4>>>(fo, w);
	sweep<<<(h + (BLOCK_SIZE_Y - 1)) / BLOCK_SIZE_Y, dim3(32, BLOCK_SIZE_Y)>>>(fo, fi, h, w);
}
#endif
