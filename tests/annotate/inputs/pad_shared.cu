// Shared tiles read down their columns: pad_shared pads the tile's rows
// (PAD, default the padding as written) where only full subscripts use
// the tile (flip, flip_padded), and not where the tile is read along its
// rows only (rows_only) or its address is taken (by_address).
#include <cuda_runtime.h>

// out = in transposed, one 32 x 32 tile per block of 32 x 8 threads.
__global__ void flip(float *__restrict__ out, const float *__restrict__ in,
		     int n)
{
	__shared__ float tile[32][32];
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
__global__ void flip_padded(double *__restrict__ out,
			    const double *__restrict__ in, int n)
{
	__shared__ double tile[32][32 + 2];
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
__global__ void rows_only(float *__restrict__ out, const float *__restrict__ in,
			  int n)
{
	__shared__ float tile[8][32];
	const int x = blockIdx.x * 32 + threadIdx.x;
	tile[threadIdx.y][threadIdx.x] = in[(long)threadIdx.y * n + x];
	__syncthreads();
	out[(long)threadIdx.y * n + x] = tile[7 - threadIdx.y][threadIdx.x];
}

// A row's address walks into the next row: the padding would show.
__global__ void by_address(float *__restrict__ out,
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

void run_pad(float *o, const float *i, double *od, const double *id, int n)
{
	flip<<<dim3(n / 32, n / 32), dim3(32, 8)>>>(o, i, n);
	flip_padded<<<dim3(n / 32, n / 32), dim3(32, 8)>>>(od, id, n);
	rows_only<<<n / 32, dim3(32, 8)>>>(o, i, n);
	by_address<<<n / 32, dim3(32, 8)>>>(o, i, n);
}
