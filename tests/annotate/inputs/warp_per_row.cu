// Row-per-block kernels with a block reduction: the warp_per_row refactor
// runs one row per warp, WARP_ROWS rows per block, where each warp can run
// the body as a block of 32 threads would (row_rms), and not where the
// kernel sizes its shared memory at the launch (dyn_smem), indexes
// global memory with the thread's number (lane_index) or waits at a
// barrier a macro writes (macro_sync: the rewrite does not reach into it).
#include <cuda_runtime.h>

// y = x / sqrt(mean(x^2) + eps) for each row, the sum reduced through
// shuffles and one float per warp.
__global__ void row_rms(float *__restrict__ y, const float *__restrict__ x,
			int d, float eps)
{
	__shared__ float part[32];
	const float *in = x + (long)blockIdx.x * d;
	float *out = y + (long)blockIdx.x * d;
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	float ss = 0.f;
	for (int i = threadIdx.x; i < d; i += blockDim.x)
		ss += in[i] * in[i];
	for (int o = 16; o > 0; o /= 2)
		ss += __shfl_xor_sync(0xffffffff, ss, o);
	if (lane == 0)
		part[warp] = ss;
	__syncthreads();
	if (warp == 0) {
		ss = lane < blockDim.x / 32 ? part[lane] : 0.f;
		for (int o = 16; o > 0; o /= 2)
			ss += __shfl_xor_sync(0xffffffff, ss, o);
		if (lane == 0)
			part[0] = rsqrtf(ss / d + eps);
	}
	__syncthreads();
	const float r = part[0];
	for (int i = threadIdx.x; i < d; i += blockDim.x)
		out[i] = in[i] * r;
}

// The same sum with its shared memory sized at the launch.
__global__ void dyn_smem(float *__restrict__ s, const float *__restrict__ x,
			 int d)
{
	extern __shared__ float part[];
	const float *in = x + (long)blockIdx.x * d;
	float acc = 0.f;
	for (int i = threadIdx.x; i < d; i += blockDim.x)
		acc += in[i];
	part[threadIdx.x] = acc;
	__syncthreads();
	if (threadIdx.x == 0) {
		for (int k = 1; k < blockDim.x; k++)
			acc += part[k];
		s[blockIdx.x] = acc;
	}
}

// Thread t writes element t of its row's first block: at a block of 32
// threads the row would lose its other elements.
__global__ void lane_index(float *__restrict__ s, const float *__restrict__ x,
			   int d)
{
	__shared__ float part[256];
	const float *in = x + (long)blockIdx.x * d;
	float acc = 0.f;
	for (int i = threadIdx.x; i < d; i += blockDim.x)
		acc += in[i];
	part[threadIdx.x] = acc;
	__syncthreads();
	s[(long)blockIdx.x * 256 + threadIdx.x] = part[threadIdx.x] + part[0];
}

#define ROW_BARRIER() __syncthreads()

__global__ void macro_sync(float *__restrict__ s, const float *__restrict__ x,
			   int d)
{
	__shared__ float part[32];
	const float *in = x + (long)blockIdx.x * d;
	float acc = 0.f;
	for (int i = threadIdx.x; i < d; i += blockDim.x)
		acc += in[i];
	for (int o = 16; o > 0; o /= 2)
		acc += __shfl_xor_sync(0xffffffff, acc, o);
	if (threadIdx.x % 32 == 0)
		part[threadIdx.x / 32] = acc;
	ROW_BARRIER();
	if (threadIdx.x == 0) {
		for (int k = 1; k < blockDim.x / 32; k++)
			acc += part[k];
		s[blockIdx.x] = acc;
	}
}

void run_rows(float *y, const float *x, int rows, int d, float eps)
{
	int threads = d < 1024 ? d : 1024;
	threads = (threads + 31) / 32 * 32;
	row_rms<<<rows, threads>>>(y, x, d, eps);
	dyn_smem<<<rows, 256, 256 * sizeof(float)>>>(y, x, d);
	lane_index<<<rows, 256>>>(y, x, d);
	macro_sync<<<rows, 256>>>(y, x, d);
}
