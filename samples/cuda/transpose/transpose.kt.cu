// transpose.kt.cu - the template of transpose.cu (see there for what it
// computes). Parameters, each defaulting to the literal it replaced:
//   TILE   the square tile's side (32)
//   BROWS  rows of threads per block; each thread moves TILE / BROWS rows
//          (8)
//   PAD    elements of padding per tile row in shared memory (1); the
//          banks are 4 bytes wide, so bf16 needs 2 for conflict-free
//          column reads
//   VEC    adjacent elements per thread on each side (1: 2-byte accesses);
//          a row or column whose length is not a multiple takes the
//          element-wise path
// Written by hand (ktc annotate was not there yet) following its
// conventions; lines that go beyond replacing a literal say "hand:".
#include <cuda_bf16.h>

#ifndef TILE
#define TILE 32
#endif
#ifndef BROWS
#define BROWS 8
#endif
#ifndef PAD
#define PAD 1
#endif
#ifndef VEC
#define VEC 1
#endif

// hand: VEC bf16 in one access, as a whole word (a struct of bf16 would be
// copied element by element)
template <int BYTES> struct kt_word;
template <> struct kt_word<2> { typedef unsigned short type; };
template <> struct kt_word<4> { typedef unsigned int type; };
template <> struct kt_word<8> { typedef uint2 type; };
template <> struct kt_word<16> { typedef uint4 type; };
typedef kt_word<2 * VEC>::type tr_word;
union tr_vec {
	tr_word w;
	__nv_bfloat16 v[VEC];
};

#pragma kt param TILE values(16, 32, 64, 128) default(32)
#pragma kt param BROWS values(2, 4, 8, 16, 32) default(8)
#pragma kt param PAD values(0, 1, 2) default(1)
#pragma kt param VEC values(1, 2, 4, 8) default(1)
#pragma kt problem T values(4096, 16384) default(4096)
#pragma kt problem H values(7168, 4096) default(7168)
#pragma kt constraint TILE % VEC == 0 && BROWS <= TILE
#pragma kt constraint TILE / VEC * BROWS >= 32 && TILE / VEC * BROWS <= 1024
#pragma kt launch grid(div_ceil(H, TILE), div_ceil(T, TILE)) block(TILE / VEC, BROWS)
#pragma kt arg out bf16[T * H] out
#pragma kt arg in bf16[T * H] in
#pragma kt arg rows int = T
#pragma kt arg cols int = H
#pragma kt verify rtol(0) atol(0)
#pragma kt objective bandwidth(2 * T * H * 2)
extern "C" __global__ void __launch_bounds__(TILE / VEC * BROWS)
transpose_kernel(__nv_bfloat16 *__restrict__ out, const __nv_bfloat16 *__restrict__ in,
		 int rows, int cols)
{
	__shared__ __nv_bfloat16 tile[TILE][TILE + PAD];
	const int x = blockIdx.x * TILE + threadIdx.x * VEC; // hand: VEC columns
	const int y = blockIdx.y * TILE + threadIdx.y;
	const bool vec_in = cols % VEC == 0;                 // hand:
	for (int j = 0; j < TILE; j += BROWS) {
		if (y + j < rows) {
			const __nv_bfloat16 *src = in + (long)(y + j) * cols + x;
			__nv_bfloat16 *dst = &tile[threadIdx.y + j][threadIdx.x * VEC];
			if (vec_in && x + VEC <= cols) { // hand: one access
				tr_vec v;
				v.w = *reinterpret_cast<const tr_word *>(src);
#pragma unroll
				for (int k = 0; k < VEC; k++)
					dst[k] = v.v[k];
			} else {
				for (int k = 0; k < VEC && x + k < cols; k++)
					dst[k] = src[k];
			}
		}
	}
	__syncthreads();
	const int ox = blockIdx.y * TILE + threadIdx.x * VEC; // hand: VEC rows
	const int oy = blockIdx.x * TILE + threadIdx.y;
	const bool vec_out = rows % VEC == 0;                 // hand:
	for (int j = 0; j < TILE; j += BROWS) {
		if (oy + j < cols) {
			__nv_bfloat16 *dst = out + (long)(oy + j) * rows + ox;
			if (vec_out && ox + VEC <= rows) { // hand: one access
				tr_vec v;
#pragma unroll
				for (int k = 0; k < VEC; k++)
					v.v[k] = tile[threadIdx.x * VEC + k][threadIdx.y + j];
				*reinterpret_cast<tr_word *>(dst) = v.w;
			} else {
				for (int k = 0; k < VEC && ox + k < rows; k++)
					dst[k] = tile[threadIdx.x * VEC + k][threadIdx.y + j];
			}
		}
	}
}

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>

static cudaError_t transpose(__nv_bfloat16 *out, const __nv_bfloat16 *in, int rows,
			     int cols, cudaStream_t stream)
{
	if (rows <= 0 || cols <= 0)
		return cudaErrorInvalidValue;
	dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
	dim3 block(TILE / VEC, BROWS);
	transpose_kernel<<<grid, block, 0, stream>>>(out, in, rows, cols);
	return cudaGetLastError();
}
#endif
