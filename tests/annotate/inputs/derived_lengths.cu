// Lengths the kernel body proves (golden derived_lengths): one block per
// row with local pointer aliases and 16-byte vector views, a vector loop
// with a scalar tail, a flat index taken apart by / and %, a 2-D grid.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

// in is [rows, 2 * d], out [rows, d]: the aliases start at the row, the
// uint4 view counts 8 bf16 each; the host checks that 8 divides d.
__global__ void gated(__nv_bfloat16 *out, const __nv_bfloat16 *in, int d)
{
	const long r = blockIdx.x;
	const uint4 *x = reinterpret_cast<const uint4 *>(in + r * 2 * d);
	const uint4 *y = reinterpret_cast<const uint4 *>(&in[r * 2 * d + d]);
	uint4 *o = reinterpret_cast<uint4 *>(out + r * d);
	for (int i = threadIdx.x; i < d / 8; i += blockDim.x) {
		uint4 a = x[i], b = y[i];
		a.x ^= b.x;
		o[i] = a;
	}
}

// a vector loop and a scalar tail: 4 * (n / 4) and n, the larger n
__global__ void scale_tail(float *v, long n)
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
__global__ void flat(float *out, float *lse, const float *in, int rows,
		     int dim)
{
	const int packs = dim / 4;
	const long gid = (long)blockIdx.x * 128 + threadIdx.x;
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
__global__ void tiles(float *dst, int w)
{
	const int row = blockIdx.y, col = blockIdx.x * 64 + threadIdx.x;
	if (col < w)
		dst[(long)row * w + col] = 1.f;
}

// a guard a bool holds (`if (c >= w) continue;` would bound c as well,
// but clangd's extract-function check fails on it: moe_sum_reduce has one)
__global__ void sweep(float *dst, const float *src, int rows, int w)
{
	const int row = blockIdx.x * 4 + threadIdx.y;
	const bool live = row < rows;
	for (int c = threadIdx.x; c < w + 32; c += 32)
		if (live && c < w)
			dst[(long)row * w + c] = src[c];
}

void run(__nv_bfloat16 *out, const __nv_bfloat16 *in, float *v, float *lse,
	 float *fo, const float *fi, int rows, int d, long n, int h, int w)
{
	if (d % 8 || rows <= 0 || d <= 0 || n < 0)
		return;
	gated<<<rows, 128>>>(out, in, d);
	scale_tail<<<132, 256>>>(v, n);
	flat<<<(rows * (d / 4) + 127) / 128, 128>>>(fo, lse, fi, rows, d);
	dim3 grid((w + 63) / 64, h);
	tiles<<<grid, 64>>>(fo, w);
	sweep<<<(h + 3) / 4, dim3(32, 4)>>>(fo, fi, h, w);
}
