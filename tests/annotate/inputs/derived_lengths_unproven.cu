// Lengths the kernel body does not prove, left to complete (golden
// derived_lengths_unproven): each kernel has one use ktc cannot bound.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

struct rgb {
	unsigned char r, g, b;
};

__device__ void put(float *p, float v) { *p = v; }

// i - 1 is -1 for the first thread: an index that may be negative
__global__ void shifted(float *dst, const float *src, int n)
{
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		dst[i] = src[i - 1];
}

// the alias is assigned again: which row it points at is not its
// initialiser's
__global__ void reassigned(float *out, const float *in, int d)
{
	const float *x = in + (long)blockIdx.x * d;
	if (threadIdx.x == 0)
		x = in;
	for (int i = threadIdx.x; i < d; i += blockDim.x)
		out[(long)blockIdx.x * d + i] = x[i];
}

// a 3-byte view of 2-byte elements: not a whole number of elements
__global__ void odd_view(__nv_bfloat16 *p, int n)
{
	rgb *c = reinterpret_cast<rgb *>(p);
	for (int i = threadIdx.x; i < n; i += blockDim.x)
		c[i].r = 0;
}

// the alias escapes to a function of the file, its address is taken
__global__ void escapes(float *a, float *b, int n)
{
	float *x = a + blockIdx.x;
	put(x, 1.f);
	float *y = b + blockIdx.x;
	float **yy = &y;
	**yy = 2.f;
	(void)n;
}

// rows * packs >= 1 bounds packs only where rows is known >= 1: the host
// checks it, but then changes rows
__global__ void flat_rows(float *out, int rows, int dim)
{
	const int packs = dim / 4;
	const long gid = (long)blockIdx.x * 128 + threadIdx.x;
	if (gid >= (long)rows * packs)
		return;
	out[gid / packs * dim + gid % packs * 4] = 0.f;
}

void run_rows(float *f, int rows, int dim)
{
	if (rows <= 0 || dim <= 0)
		return;
	rows -= 1;
	flat_rows<<<(rows * (dim / 4) + 127) / 128, 128>>>(f, rows, dim);
}

void run(float *f, float *g, __nv_bfloat16 *h, int n, int d)
{
	shifted<<<(n + 255) / 256, 256>>>(f, g, n);
	reassigned<<<n, 128>>>(f, g, d);
	odd_view<<<1, 128>>>(h, n);
	escapes<<<n, 1>>>(f, g, n);
}
