// Shared tiles read down their columns: pad_shared pads the tile's rows
// (PAD, default the padding as written) where only full subscripts use
// the tile (flip, flip_padded), and not where the tile is read along its
// rows only (rows_only) or its address is taken (by_address).
#include <cuda_runtime.h>

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
#ifndef MIN_BLOCKS_4
#define MIN_BLOCKS_4 0
#endif

// out = in transposed, one 32 x 32 tile per block of 32 x 8 threads.
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint 256 * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
#pragma kt param FLIP_PAD values(0, 1) default(0)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(n / 32, n / 32) block(32, 8)
// ktc: complete and uncomment: #pragma kt arg out float[?] out
// ktc: complete and uncomment: #pragma kt arg in float[?] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(256, MIN_BLOCKS)
#endif
flip(float *__restrict__ out, const float *__restrict__ in,
		     int n)
{
	__shared__ float tile[32][32 + FLIP_PAD];
	const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32;
	for (int j = 0; j < 32; j += 8)
		tile[threadIdx.y + j][threadIdx.x] =
			in[(long)(y + threadIdx.y + j) * n + x];
	__syncthreads();
	const int ox = blockIdx.y * 32 + threadIdx.x, oy = blockIdx.x * 32;
	for (int j = 0; j < 32; j += 8)
		out[(long)(oy + threadIdx.y + j) * n + ox] =
			tile[threadIdx.x][threadIdx.y + j];
}

// The same with the padding the source already has.
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint 256 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
#pragma kt param FLIP_PADDED_PAD values(0, 1, 2) default(2)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(n / 32, n / 32) block(32, 8)
// ktc: complete and uncomment: #pragma kt arg out double[?] out
// ktc: complete and uncomment: #pragma kt arg in double[?] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(256, MIN_BLOCKS_2)
#endif
flip_padded(double *__restrict__ out,
			    const double *__restrict__ in, int n)
{
	__shared__ double tile[32][32 + FLIP_PADDED_PAD];
	const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32;
	for (int j = 0; j < 32; j += 8)
		tile[threadIdx.y + j][threadIdx.x] =
			in[(long)(y + threadIdx.y + j) * n + x];
	__syncthreads();
	const int ox = blockIdx.y * 32 + threadIdx.x, oy = blockIdx.x * 32;
	for (int j = 0; j < 32; j += 8)
		out[(long)(oy + threadIdx.y + j) * n + ox] =
			tile[threadIdx.x][threadIdx.y + j];
}

// Read along the rows: no bank conflict to avoid.
#pragma kt param MIN_BLOCKS_3 values(0, 1, 2, 4) default(0)
#pragma kt constraint 256 * MIN_BLOCKS_3 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(n / 32) block(32, 8)
// ktc: complete and uncomment: #pragma kt arg out float[?] out
// ktc: complete and uncomment: #pragma kt arg in float[?] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_3 > 0
__launch_bounds__(256, MIN_BLOCKS_3)
#endif
rows_only(float *__restrict__ out, const float *__restrict__ in,
			  int n)
{
	__shared__ float tile[8][32];
	const int x = blockIdx.x * 32 + threadIdx.x;
	tile[threadIdx.y][threadIdx.x] = in[(long)threadIdx.y * n + x];
	__syncthreads();
	out[(long)threadIdx.y * n + x] = tile[7 - threadIdx.y][threadIdx.x];
}

// A row's address walks into the next row: the padding would show.
#pragma kt param MIN_BLOCKS_4 values(0, 1, 2, 4) default(0)
#pragma kt constraint 256 * MIN_BLOCKS_4 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(n / 32) block(32, 8)
#pragma kt arg out float[32 * (n / 32)] out
// ktc: complete and uncomment: #pragma kt arg in float[?] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_4 > 0
__launch_bounds__(256, MIN_BLOCKS_4)
#endif
by_address(float *__restrict__ out,
			   const float *__restrict__ in, int n)
{
	__shared__ float tile[32][32];
	const int x = blockIdx.x * 32 + threadIdx.x;
	for (int j = 0; j < 32; j += 8)
		tile[threadIdx.y + j][threadIdx.x] =
			in[(long)(threadIdx.y + j) * n + x];
	__syncthreads();
	const float *p = &tile[threadIdx.x][0];
	out[x] = p[threadIdx.y + 32];
}

#ifndef __CUDACC_RTC__
void run_pad(float *o, const float *i, double *od, const double *id, int n)
{
	flip<<<dim3(n / 32, n / 32), dim3(32, 8)>>>(o, i, n);
	flip_padded<<<dim3(n / 32, n / 32), dim3(32, 8)>>>(od, id, n);
	rows_only<<<n / 32, dim3(32, 8)>>>(o, i, n);
	by_address<<<n / 32, dim3(32, 8)>>>(o, i, n);
}
#endif
