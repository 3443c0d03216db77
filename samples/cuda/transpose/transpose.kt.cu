// transpose.cu - out[c, r] = in[r, c] for a bf16 matrix of rows x cols (an
// activation [tokens, hidden] turned column-major for a GEMM operand or for
// per-column scales). The classic tiled transpose: a 32 x 32 tile staged in
// shared memory with one element of padding per row, blocks of 32 x 8
// threads each moving 4 rows, 2-byte accesses on both sides.
//
// hand: the template's parameters, each defaulting to the literal it
// replaced (the default configuration takes the original's code path):
//   TILE   the square tile's side (32; annotate calls it BLOCK_SIZE, but
//          the block is TILE / VEC x BROWS threads)
//   BROWS  rows of threads per block (8)
//   PAD    elements of padding per tile row in shared memory (1); the
//          banks are 4 bytes wide, so bf16 needs 2 for conflict-free
//          column reads
//   VEC    adjacent elements per thread on each side (1: 2-byte accesses)
//   REGS   0: the tile goes through shared memory (the original); 1: each
//          thread loads VEC rows of VEC elements as one word each,
//          transposes the VEC x VEC block in registers (byte permutes of
//          bf16 pairs) and stores VEC words: 2 * VEC-byte accesses on both
//          sides, no shared memory, no barrier
//   SWAP   with REGS: 0 the grid's x walks the column tiles (blocks side by
//          side read the same rows), 1 it walks the row tiles (blocks side
//          by side write the same output rows)
// A matrix whose rows or columns are not a multiple of VEC takes the
// element-wise path.
#include <cuda_bf16.h>

#ifndef TILE // hand: annotate's BLOCK_SIZE, renamed (the tile's side)
#define TILE 32
#endif
#ifndef BROWS // hand: annotate keeps the 8 (no tie to the launch it sees)
#define BROWS 8
#endif
#ifndef PAD // hand: annotate read 32 + 1 as the warp size plus one; its pad_shared refactor now makes this PAD
#define PAD 1
#endif
#ifndef VEC // hand: a refactor annotate does not make (2-D tile)
#define VEC 1
#endif
#ifndef REGS // hand: a different algorithm for the same tile
#define REGS 0
#endif
#ifndef SWAP // hand: the order of the tiles
#define SWAP 0
#endif

// hand: VEC bf16 in one access, as a whole word (a struct of bf16 would be
// copied element by element); the word's bf16 pairs as 32-bit halves
template <int N> struct kt_vec;
template <> struct kt_vec<2> { typedef unsigned short t; };
template <> struct kt_vec<4> { typedef unsigned int t; };
template <> struct kt_vec<8> { typedef uint2 t; };
template <> struct kt_vec<16> { typedef uint4 t; };
typedef kt_vec<2 * VEC>::t tr_word;
union tr_vec {
	tr_word w;
	__nv_bfloat16 v[VEC];
	unsigned int u[VEC > 1 ? VEC / 2 : 1];
};

// hand: the block's size for the compiler, except at the original's code
// path (which has none)
#if VEC == 1 && !REGS
#define TR_BOUNDS
#else
#define TR_BOUNDS __launch_bounds__(TILE / VEC * BROWS)
#endif

// hand: the space (annotate finds BLOCK_SIZE alone, and only in the tile's
// first dimension), the problem sizes and the buffers' lengths
#pragma kt param TILE values(32, 64, 128) default(32)
#pragma kt param BROWS values(2, 4, 8, 16, 32) default(8)
#pragma kt param PAD values(0, 1, 2) default(1)
#pragma kt param VEC values(1, 2, 4, 8) default(1)
#pragma kt param REGS values(0, 1) default(0)
#pragma kt param SWAP values(0, 1) default(0)
#pragma kt problem T values(4096, 16384) default(4096)
#pragma kt problem H values(7168, 4096) default(7168)
#pragma kt constraint TILE % VEC == 0 && BROWS <= TILE
#pragma kt constraint TILE / VEC * BROWS >= 32 && TILE / VEC * BROWS <= 1024
// hand: the shared-memory path's vectors want padding (2 was the best);
// the register path has no tile, and its warp ((TILE / VEC) x (32 * VEC /
// TILE) threads) must store whole 32-byte sectors: 2 * VEC * VEC >= TILE
#pragma kt constraint REGS == 1 || VEC == 1 || PAD >= 1
#pragma kt constraint REGS == 0 || (PAD == 0 && TILE % (BROWS * VEC) == 0 && 2 * VEC * VEC >= TILE)
#pragma kt constraint SWAP == 0 || REGS == 1
#pragma kt launch grid(div_ceil(SWAP ? T : H, TILE), div_ceil(SWAP ? H : T, TILE)) block(TILE / VEC, BROWS)
#pragma kt arg out bf16[T * H] out
#pragma kt arg in bf16[T * H] in
#pragma kt arg rows int = T
#pragma kt arg cols int = H
#pragma kt verify rtol(0) atol(0)
#pragma kt objective bandwidth(2 * T * H * 2)
extern "C" __global__ void TR_BOUNDS transpose_kernel(__nv_bfloat16 *__restrict__ out,
					    const __nv_bfloat16 *__restrict__ in,
					    int rows, int cols)
{
#if VEC == 1 && !REGS // hand: the original's code path
	__shared__ __nv_bfloat16 tile[TILE][TILE + PAD];
	const int x = blockIdx.x * TILE + threadIdx.x;
	const int y = blockIdx.y * TILE + threadIdx.y;
	for (int j = 0; j < TILE; j += BROWS)
		if (x < cols && y + j < rows)
			tile[threadIdx.y + j][threadIdx.x] = in[(long)(y + j) * cols + x];
	__syncthreads();
	const int ox = blockIdx.y * TILE + threadIdx.x;
	const int oy = blockIdx.x * TILE + threadIdx.y;
	for (int j = 0; j < TILE; j += BROWS)
		if (ox < rows && oy + j < cols)
			out[(long)(oy + j) * rows + ox] = tile[threadIdx.x][threadIdx.y + j];
#elif !REGS
	// hand: VEC columns per thread on the load side, VEC rows on the store
	// side, the tile in between
	__shared__ __nv_bfloat16 tile[TILE][TILE + PAD];
	const int x = blockIdx.x * TILE + threadIdx.x * VEC;
	const int y = blockIdx.y * TILE + threadIdx.y;
	const bool vec_in = cols % VEC == 0;
	for (int j = 0; j < TILE; j += BROWS) {
		if (y + j < rows) {
			const __nv_bfloat16 *src = in + (long)(y + j) * cols + x;
			__nv_bfloat16 *dst = &tile[threadIdx.y + j][threadIdx.x * VEC];
			if (vec_in && x + VEC <= cols) {
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
	const int ox = blockIdx.y * TILE + threadIdx.x * VEC;
	const int oy = blockIdx.x * TILE + threadIdx.y;
	const bool vec_out = rows % VEC == 0;
	for (int j = 0; j < TILE; j += BROWS) {
		if (oy + j < cols) {
			__nv_bfloat16 *dst = out + (long)(oy + j) * rows + ox;
			if (vec_out && ox + VEC <= rows) {
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
#else
	// hand: the VEC x VEC block of rows r0.., columns c0.. in registers;
	// output word k, half m holds rows 2m and 2m + 1 of column k
	const int c0 = (SWAP ? blockIdx.y : blockIdx.x) * TILE + threadIdx.x * VEC;
	const bool vec_ok = cols % VEC == 0 && rows % VEC == 0;
#pragma unroll
	for (int j = 0; j < TILE; j += BROWS * VEC) {
		const int r0 = (SWAP ? blockIdx.x : blockIdx.y) * TILE + threadIdx.y * VEC + j;
		if (r0 >= rows || c0 >= cols)
			continue;
		if (vec_ok) {
			tr_vec a[VEC], b[VEC];
#pragma unroll
			for (int i = 0; i < VEC; i++)
				a[i].w = *reinterpret_cast<const tr_word *>(in + (long)(r0 + i) * cols + c0);
#pragma unroll
			for (int k = 0; k < VEC; k++)
#pragma unroll
				for (int m = 0; m < VEC / 2; m++)
					b[k].u[m] = __byte_perm(a[2 * m].u[k / 2], a[2 * m + 1].u[k / 2],
								k % 2 ? 0x7632 : 0x5410);
#pragma unroll
			for (int k = 0; k < VEC; k++)
				*reinterpret_cast<tr_word *>(out + (long)(c0 + k) * rows + r0) = b[k].w;
		} else {
			for (int i = 0; i < VEC && r0 + i < rows; i++)
				for (int k = 0; k < VEC && c0 + k < cols; k++)
					out[(long)(c0 + k) * rows + r0 + i] =
						in[(long)(r0 + i) * cols + c0 + k];
		}
	}
#endif
}

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>

static cudaError_t transpose(__nv_bfloat16 *out, const __nv_bfloat16 *in, int rows,
			     int cols, cudaStream_t stream)
{
	if (rows <= 0 || cols <= 0)
		return cudaErrorInvalidValue;
	// hand: VEC columns per thread, BROWS rows of threads, the tiles' order
	dim3 grid((cols + (TILE - 1)) / TILE, (rows + (TILE - 1)) / TILE), block(TILE / VEC, BROWS);
	if (SWAP)
		grid = dim3(grid.y, grid.x);
	transpose_kernel<<<grid, block, 0, stream>>>(out, in, rows, cols);
	return cudaGetLastError();
}
#endif
