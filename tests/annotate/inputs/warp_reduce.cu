// Block reductions through a shared-memory tree: the warp_reduce refactor
// offers warp shuffles where the tree's shape and its uses are proven
// (row_sum, block_max), and nothing where they are not (the tree's slot 1
// read after it, a block that is not whole warps, a tree inside a loop).
#include <cuda_runtime.h>

// One row per block; the row's sum of x through a tree of +.
__global__ void row_sum(const float *__restrict__ x, float *__restrict__ out,
			int d)
{
	__shared__ float sh[256];
	const int tid = threadIdx.x;
	const float *row = x + (long)blockIdx.x * d;
	float acc = 0.f;
	for (int c = threadIdx.x; c < d; c += blockDim.x)
		acc += row[c];
	sh[tid] = acc;
	__syncthreads();
	for (int s = blockDim.x / 2; s > 0; s >>= 1) {
		if (tid < s)
			sh[tid] += sh[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		out[blockIdx.x] = sh[0];
}

// The largest element of each chunk of 128, through a tree of fmaxf.
__global__ void block_max(const float *x, float *m, int n)
{
	__shared__ float sh[128];
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	sh[threadIdx.x] = i < n ? x[i] : -1e30f;
	__syncthreads();
	for (unsigned s = blockDim.x >> 1; s > 0; s /= 2) {
		if (threadIdx.x < s)
			sh[threadIdx.x] = fmaxf(sh[threadIdx.x], sh[threadIdx.x + s]);
		__syncthreads();
	}
	if (threadIdx.x == 0)
		m[blockIdx.x] = sh[0];
}

// Reads slot 1 after the tree: the shuffles leave another value there.
__global__ void two_slots(const float *x, float *out)
{
	__shared__ float sh[64];
	const int tid = threadIdx.x;
	sh[tid] = x[blockIdx.x * 64 + tid];
	__syncthreads();
	for (int s = blockDim.x / 2; s > 0; s >>= 1) {
		if (tid < s)
			sh[tid] += sh[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		out[blockIdx.x] = sh[0] - sh[1];
}

// Blocks of 16 threads: not whole warps.
__global__ void half_warp(const float *x, float *out)
{
	__shared__ float sh[16];
	const int tid = threadIdx.x;
	sh[tid] = x[blockIdx.x * 16 + tid];
	__syncthreads();
	for (int s = blockDim.x / 2; s > 0; s >>= 1) {
		if (tid < s)
			sh[tid] += sh[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		out[blockIdx.x] = sh[0];
}

// The tree runs once per pass of a loop: a slot read at the top of the
// next pass would see what the shuffles left.
__global__ void passes(const float *x, float *out, int k)
{
	__shared__ float sh[128];
	const int tid = threadIdx.x;
	float carry = 0.f;
	for (int p = 0; p < k; p++) {
		sh[tid] = x[(blockIdx.x * k + p) * 128 + tid] + carry;
		__syncthreads();
		for (int s = blockDim.x / 2; s > 0; s >>= 1) {
			if (tid < s)
				sh[tid] += sh[tid + s];
			__syncthreads();
		}
		carry = sh[0];
		__syncthreads();
	}
	if (tid == 0)
		out[blockIdx.x] = carry;
}

void run_all(const float *x, float *out, int rows, int d, int n, int k)
{
	row_sum<<<rows, 256>>>(x, out, d);
	block_max<<<(n + 127) / 128, 128>>>(x, out, n);
	two_slots<<<rows, 64>>>(x, out);
	half_warp<<<rows, 16>>>(x, out);
	passes<<<rows, 128>>>(x, out, k);
}
