// row_negative.cu - kernels whose preconditions for row_split and
// hoist_loads fail, each for one reason (a barrier, a reduction, a 2-D
// grid, no __restrict__, two pointers from one __restrict__ parameter, a
// call that may write), next to one that keeps hoist_loads but not
// row_split. launch_bounds is offered to every kernel but the one that
// has launch bounds already.
#include <cuda_runtime.h>

// A barrier in the loop: threads of the block depend on each other.
__global__ void row_barrier(float *__restrict__ out, const float *__restrict__ in,
			    int d)
{
	__shared__ float tile[256];
	const int row = blockIdx.x;
	for (int i = threadIdx.x; i < d; i += blockDim.x) {
		tile[threadIdx.x] = in[row * d + i];
		__syncthreads();
		out[row * d + i] = tile[(threadIdx.x + 1) % blockDim.x];
		__syncthreads();
	}
}

// A reduction: each thread keeps a sum across its iterations.
__global__ void row_sum(float *__restrict__ out, const float *__restrict__ in,
			int d)
{
	const int row = blockIdx.x;
	float s = 0.0f;
	for (int i = threadIdx.x; i < d; i += blockDim.x)
		s += in[row * d + i];
	out[row * 128 + threadIdx.x] = s;
}

// A 2-D grid (rows along x, halves along y): no row split; the loop is
// still elementwise, so its loads may be hoisted.
__global__ void row_halves(float *__restrict__ out, const float *__restrict__ in,
			   int d)
{
	const int row = blockIdx.x;
	const int half = blockIdx.y * (d / 2);
	for (int i = threadIdx.x; i < d / 2; i += blockDim.x)
		out[row * d + half + i] = 2.0f * in[row * d + half + i];
}

// Stores through a pointer that is not __restrict__: another pointer may
// reach what the loop stores, so no load moves above a store.
__global__ void row_alias(float *out, const float *in, int d)
{
	const int row = blockIdx.x;
	for (int i = threadIdx.x; i < d; i += blockDim.x)
		out[row * d + i] = in[i] + 1.0f;
}

// Loads and stores through two pointers made from one __restrict__
// parameter: restrict does not keep them apart, so no load is hoisted
// (row_split stays: each iteration still touches its own elements).
__global__ void row_same_root(float *__restrict__ buf, int d)
{
	const float *in = buf;
	float *out = buf + d;
	const int row = blockIdx.x;
	for (int i = threadIdx.x; i < d; i += blockDim.x)
		out[row * d + i] = 2.0f * in[i];
}

// A call that may write through its pointer argument (rotary embedding's
// shape): what it writes is not known, so neither refactor is offered.
__device__ void halve(float *p, int k)
{
	p[k] *= 0.5f;
}

__global__ void row_call(float *__restrict__ out, int d)
{
	const int row = blockIdx.x;
	for (int i = threadIdx.x; i < d; i += blockDim.x)
		halve(out + row * d, i);
}

// Launch bounds already given.
__global__ void __launch_bounds__(128) row_bounded(float *__restrict__ out, int d)
{
	const int row = blockIdx.x;
	for (int i = threadIdx.x; i < d; i += blockDim.x)
		out[row * d + i] = 0.0f;
}

void launch_all(float *out, const float *in, int rows, int d,
		cudaStream_t stream)
{
	row_barrier<<<rows, 256, 0, stream>>>(out, in, d);
	row_sum<<<rows, 128, 0, stream>>>(out, in, d);
	row_halves<<<dim3(rows, 2), 128, 0, stream>>>(out, in, d);
	row_alias<<<rows, 512, 0, stream>>>(out, in, d);
	row_same_root<<<rows, 128, 0, stream>>>(out, d);
	row_call<<<rows, 128, 0, stream>>>(out, d);
	row_bounded<<<rows, 128, 0, stream>>>(out, d);
}
