// Shared tiles read down their columns: pad_shared pads the tile's rows
// (PAD, default the padding as written) where only full subscripts use
// the tile (flip, flip_padded), and not where the tile is read along its
// rows only (rows_only) or its address is taken (by_address).
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 32
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 32
#endif
#ifndef BLOCK_SIZE_3
#define BLOCK_SIZE_3 32
#endif
#ifndef BLOCK_SIZE_Y
#define BLOCK_SIZE_Y 8
#endif
#ifndef BLOCK_SIZE_4
#define BLOCK_SIZE_4 32
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef FLIP_PAD
#define FLIP_PAD 0
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif
#ifndef FLIP_PADDED_PAD
#define FLIP_PADDED_PAD 2
#endif
#ifndef MIN_BLOCKS_3
#define MIN_BLOCKS_3 0
#endif

// out = in transposed, one 32 x 32 tile per block of 32 x 8 threads.
#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224) default(32)
#pragma kt constraint (BLOCK_SIZE) * (8) <= DEVICE_MAX_THREADS_PER_BLOCK
#pragma kt constraint 4 * (BLOCK_SIZE) * (BLOCK_SIZE) <= DEVICE_SMEM_PER_BLOCK
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * 8 * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
#pragma kt param FLIP_PAD values(0, 1) default(0)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(n / BLOCK_SIZE, n / BLOCK_SIZE) block(BLOCK_SIZE, 8)
// ktc: complete and uncomment: #pragma kt arg out float[?] out
// ktc: complete and uncomment: #pragma kt arg in float[?] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE * 8, MIN_BLOCKS)
#endif
flip(float *__restrict__ out, const float *__restrict__ in,
		     int n)
{
	__shared__ float tile[BLOCK_SIZE][BLOCK_SIZE + FLIP_PAD];
	const int x = blockIdx.x * BLOCK_SIZE + threadIdx.x, y = blockIdx.y * BLOCK_SIZE;
	for (int j = 0; j < BLOCK_SIZE; j += 8)
		tile[threadIdx.y + j][threadIdx.x] =
			in[(long)(y + threadIdx.y + j) * n + x];
	__syncthreads();
	const int ox = blockIdx.y * BLOCK_SIZE + threadIdx.x, oy = blockIdx.x * BLOCK_SIZE;
	for (int j = 0; j < BLOCK_SIZE; j += 8)
		out[(long)(oy + threadIdx.y + j) * n + ox] =
			tile[threadIdx.x][threadIdx.y + j];
}

// The same with the padding the source already has.
#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832) default(32)
#pragma kt constraint (BLOCK_SIZE_2) * (8) <= DEVICE_MAX_THREADS_PER_BLOCK
#pragma kt constraint 8 * (32 + 2) * (BLOCK_SIZE_2) <= DEVICE_SMEM_PER_BLOCK
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * 8 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
#pragma kt param FLIP_PADDED_PAD values(0, 1, 2) default(2)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(n / BLOCK_SIZE_2, n / BLOCK_SIZE_2) block(BLOCK_SIZE_2, 8)
// ktc: complete and uncomment: #pragma kt arg out double[?] out
// ktc: complete and uncomment: #pragma kt arg in double[?] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2 * 8, MIN_BLOCKS_2)
#endif
flip_padded(double *__restrict__ out,
			    const double *__restrict__ in, int n)
{
	__shared__ double tile[BLOCK_SIZE_2][32 + FLIP_PADDED_PAD];
	const int x = blockIdx.x * BLOCK_SIZE_2 + threadIdx.x, y = blockIdx.y * BLOCK_SIZE_2;
	for (int j = 0; j < BLOCK_SIZE_2; j += 8)
		tile[threadIdx.y + j][threadIdx.x] =
			in[(long)(y + threadIdx.y + j) * n + x];
	__syncthreads();
	const int ox = blockIdx.y * BLOCK_SIZE_2 + threadIdx.x, oy = blockIdx.x * BLOCK_SIZE_2;
	for (int j = 0; j < BLOCK_SIZE_2; j += 8)
		out[(long)(oy + threadIdx.y + j) * n + ox] =
			tile[threadIdx.x][threadIdx.y + j];
}

// Read along the rows: no bank conflict to avoid.
#pragma kt param BLOCK_SIZE_3 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(32)
#pragma kt param BLOCK_SIZE_Y values(1, 2, 4, 8, 16, 32, 64) default(8)
#pragma kt constraint (BLOCK_SIZE_3) * (BLOCK_SIZE_Y) <= DEVICE_MAX_THREADS_PER_BLOCK
#pragma kt constraint 4 * (BLOCK_SIZE_3) * (BLOCK_SIZE_Y) <= DEVICE_SMEM_PER_BLOCK
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(n / BLOCK_SIZE_3) block(BLOCK_SIZE_3, BLOCK_SIZE_Y)
// ktc: complete and uncomment: #pragma kt arg out float[?] out
// ktc: complete and uncomment: #pragma kt arg in float[?] in
#pragma kt arg n int = n
__global__ void rows_only(float *__restrict__ out, const float *__restrict__ in,
			  int n)
{
	__shared__ float tile[BLOCK_SIZE_Y][BLOCK_SIZE_3];
	const int x = blockIdx.x * BLOCK_SIZE_3 + threadIdx.x;
	tile[threadIdx.y][threadIdx.x] = in[(long)threadIdx.y * n + x];
	__syncthreads();
	out[(long)threadIdx.y * n + x] = tile[7 - threadIdx.y][threadIdx.x];
}

// A row's address walks into the next row: the padding would show.
#pragma kt param BLOCK_SIZE_4 values(32, 64, 96, 128, 160, 192, 224) default(32)
#pragma kt constraint (BLOCK_SIZE_4) * (8) <= DEVICE_MAX_THREADS_PER_BLOCK
#pragma kt constraint 4 * (BLOCK_SIZE_4) * (BLOCK_SIZE_4) <= DEVICE_SMEM_PER_BLOCK
#pragma kt param MIN_BLOCKS_3 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_4 * 8 * MIN_BLOCKS_3 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(n / BLOCK_SIZE_4) block(BLOCK_SIZE_4, 8)
// ktc: complete and uncomment: #pragma kt arg out float[?] out
// ktc: complete and uncomment: #pragma kt arg in float[?] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_3 > 0
__launch_bounds__(BLOCK_SIZE_4 * 8, MIN_BLOCKS_3)
#endif
by_address(float *__restrict__ out,
			   const float *__restrict__ in, int n)
{
	__shared__ float tile[BLOCK_SIZE_4][BLOCK_SIZE_4];
	const int x = blockIdx.x * BLOCK_SIZE_4 + threadIdx.x;
	for (int j = 0; j < BLOCK_SIZE_4; j += 8)
		tile[threadIdx.y + j][threadIdx.x] =
			in[(long)(threadIdx.y + j) * n + x];
	__syncthreads();
	const float *p = &tile[threadIdx.x][0];
	out[x] = p[threadIdx.y + 32];
}

#ifndef __CUDACC_RTC__
void run_pad(float *o, const float *i, double *od, const double *id, int n)
{
	flip<<<dim3(n / BLOCK_SIZE, n / BLOCK_SIZE), dim3(BLOCK_SIZE, 8)>>>(o, i, n);
	flip_padded<<<dim3(n / BLOCK_SIZE_2, n / BLOCK_SIZE_2), dim3(BLOCK_SIZE_2, 8)>>>(od, id, n);
	rows_only<<<n / BLOCK_SIZE_3, dim3(BLOCK_SIZE_3, BLOCK_SIZE_Y)>>>(o, i, n);
	by_address<<<n / BLOCK_SIZE_4, dim3(BLOCK_SIZE_4, 8)>>>(o, i, n);
}
#endif
