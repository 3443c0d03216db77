// cluster_split.cu - row kernels that sum their row in block-strided
// loops, then reduce the block's sums: offered the split of the row over a
// thread-block cluster where every iteration is independent but for the
// sums, the sums start from zero, and what a loop stores stays with the
// thread that stored it; not offered otherwise.
#include <cuda_runtime.h>

// Each row scaled by its root mean square: a sum, a shuffle and shared
// memory block reduction, a second pass.
__global__ void rms_scale(float *__restrict__ y, const float *__restrict__ x,
			  int d)
{
	const long row = blockIdx.x;
	__shared__ float part[32];
	float ss = 0.f;
	for (int i = threadIdx.x; i < d; i += blockDim.x) {
		const float v = x[row * d + i];
		ss += v * v;
	}
	for (int o = 16; o > 0; o /= 2)
		ss += __shfl_xor_sync(0xffffffff, ss, o);
	if (threadIdx.x % 32 == 0)
		part[threadIdx.x / 32] = ss;
	__syncthreads();
	if (threadIdx.x < 32) {
		ss = threadIdx.x < blockDim.x / 32 ? part[threadIdx.x] : 0.f;
		for (int o = 16; o > 0; o /= 2)
			ss += __shfl_xor_sync(0xffffffff, ss, o);
		if (threadIdx.x == 0)
			part[0] = rsqrtf(ss / d + 1e-6f);
	}
	__syncthreads();
	const float r = part[0];
	for (int i = threadIdx.x; i < d; i += blockDim.x)
		y[row * d + i] = x[row * d + i] * r;
}

// Two sums (of the row and of its squares) and the row kept in dynamic
// shared memory between the passes, read back by the thread that wrote
// it.
__global__ void standardize(float *__restrict__ y, const float *__restrict__ x,
			    int d)
{
	extern __shared__ float smem[];
	float *red = smem, *row = smem + 64;
	const float *xr = x + (long)blockIdx.x * d;
	float s = 0, s2 = 0;
	for (int i = threadIdx.x; i < d; i += blockDim.x) {
		const float v = xr[i];
		row[i] = v;
		s += v;
		s2 += v * v;
	}
	for (int o = 16; o > 0; o /= 2) {
		s += __shfl_xor_sync(0xffffffff, s, o);
		s2 += __shfl_xor_sync(0xffffffff, s2, o);
	}
	if (threadIdx.x % 32 == 0) {
		red[threadIdx.x / 32] = s;
		red[32 + threadIdx.x / 32] = s2;
	}
	__syncthreads();
	const int w = blockDim.x / 32;
	float m = 0, q = 0;
	for (int k = 0; k < w; k++) {
		m += red[k];
		q += red[32 + k];
	}
	m /= d;
	const float sd = sqrtf(q / d - m * m + 1e-5f);
	for (int i = threadIdx.x; i < d; i += blockDim.x)
		y[(long)blockIdx.x * d + i] = (row[i] - m) / sd;
}

// A count of an integer type, written by one thread: every block of a
// cluster writes the same total.
__global__ void row_count(int *__restrict__ count, const float *__restrict__ x,
			  int d)
{
	__shared__ int part[32];
	int nz = 0;
	for (int i = threadIdx.x; i < d; i += blockDim.x)
		nz += x[(long)blockIdx.x * d + i] != 0.f;
	for (int o = 16; o > 0; o /= 2)
		nz += __shfl_xor_sync(0xffffffff, nz, o);
	if (threadIdx.x % 32 == 0)
		part[threadIdx.x / 32] = nz;
	__syncthreads();
	if (threadIdx.x == 0) {
		int t = 0;
		for (int k = 0; k < blockDim.x / 32; k++)
			t += part[k];
		count[blockIdx.x] = t;
	}
}

// The block's sum added to a total with an atomic: each block of a
// cluster would add it once more.
__global__ void atomic_total(float *total, const float *__restrict__ x, int d)
{
	float s = 0;
	for (int i = threadIdx.x; i < d; i += blockDim.x)
		s += x[(long)blockIdx.x * d + i];
	for (int o = 16; o > 0; o /= 2)
		s += __shfl_xor_sync(0xffffffff, s, o);
	if (threadIdx.x % 32 == 0)
		atomicAdd(total, s);
}

// Thread 0's sum starts from the bias: each block of a cluster would add
// it.
__global__ void biased_sum(float *__restrict__ out, const float *__restrict__ x,
			   const float *__restrict__ bias, int d)
{
	__shared__ float part[32];
	float s = threadIdx.x == 0 ? bias[blockIdx.x] : 0.f;
	for (int i = threadIdx.x; i < d; i += blockDim.x)
		s += x[(long)blockIdx.x * d + i];
	for (int o = 16; o > 0; o /= 2)
		s += __shfl_xor_sync(0xffffffff, s, o);
	if (threadIdx.x % 32 == 0)
		part[threadIdx.x / 32] = s;
	__syncthreads();
	if (threadIdx.x == 0) {
		float t = 0;
		for (int k = 0; k < blockDim.x / 32; k++)
			t += part[k];
		out[blockIdx.x] = t;
	}
}

// A maximum is not a sum.
__global__ void row_max(float *__restrict__ out, const float *__restrict__ x,
			int d)
{
	__shared__ float part[32];
	float m = -3.4e38f;
	for (int i = threadIdx.x; i < d; i += blockDim.x)
		m = fmaxf(m, x[(long)blockIdx.x * d + i]);
	for (int o = 16; o > 0; o /= 2)
		m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
	if (threadIdx.x % 32 == 0)
		part[threadIdx.x / 32] = m;
	__syncthreads();
	if (threadIdx.x == 0) {
		float t = part[0];
		for (int k = 1; k < blockDim.x / 32; k++)
			t = fmaxf(t, part[k]);
		out[blockIdx.x] = t;
	}
}

// The row cached in shared memory is read outside the loops (thread 0
// reads its last element): another block of a cluster would hold it.
__global__ void cached_row(float *__restrict__ out, const float *__restrict__ x,
			   int d)
{
	extern __shared__ float row[];
	__shared__ float part[32];
	float s = 0;
	for (int i = threadIdx.x; i < d; i += blockDim.x) {
		row[i] = x[(long)blockIdx.x * d + i];
		s += row[i];
	}
	for (int o = 16; o > 0; o /= 2)
		s += __shfl_xor_sync(0xffffffff, s, o);
	if (threadIdx.x % 32 == 0)
		part[threadIdx.x / 32] = s;
	__syncthreads();
	if (threadIdx.x == 0) {
		float t = row[d - 1];
		for (int k = 0; k < blockDim.x / 32; k++)
			t += part[k];
		out[blockIdx.x] = t;
	}
}

// A thread reads its neighbour's element: not where its iterations go.
__global__ void neighbour(float *__restrict__ y, float *__restrict__ out,
			  float *__restrict__ tmp, const float *__restrict__ x,
			  int d)
{
	__shared__ float part[32];
	float s = 0;
	for (int i = threadIdx.x; i < d; i += blockDim.x) {
		tmp[(long)blockIdx.x * d + i] = 2.f * x[(long)blockIdx.x * d + i];
		s += x[(long)blockIdx.x * d + i];
	}
	for (int o = 16; o > 0; o /= 2)
		s += __shfl_xor_sync(0xffffffff, s, o);
	if (threadIdx.x % 32 == 0)
		part[threadIdx.x / 32] = s;
	__syncthreads();
	for (int i = threadIdx.x; i < d; i += blockDim.x)
		y[(long)blockIdx.x * d + i] = tmp[(long)blockIdx.x * d + (i + 1) % d];
	if (threadIdx.x == 0) {
		float t = 0;
		for (int k = 0; k < blockDim.x / 32; k++)
			t += part[k];
		out[blockIdx.x] = t;
	}
}

// Warps past the row's end leave first: not every thread of a cluster
// would meet the others.
__global__ void early_out(float *__restrict__ out, const float *__restrict__ x,
			  int d)
{
	__shared__ float part[32];
	const int warps = (d + 31) / 32;
	if (threadIdx.x / 32 >= warps)
		return;
	float s = 0;
	for (int i = threadIdx.x; i < d; i += blockDim.x)
		s += x[(long)blockIdx.x * d + i];
	for (int o = 16; o > 0; o /= 2)
		s += __shfl_xor_sync(0xffffffff, s, o);
	if (threadIdx.x % 32 == 0)
		part[threadIdx.x / 32] = s;
	__syncthreads();
	if (threadIdx.x == 0) {
		float t = 0;
		for (int k = 0; k < blockDim.x / 32 && k < warps; k++)
			t += part[k];
		out[blockIdx.x] = t;
	}
}

void run_all(float *y, float *tmp, int *count, float *out, const float *x,
	     const float *bias, int rows, int d, cudaStream_t st)
{
	rms_scale<<<rows, 256, 0, st>>>(y, x, d);
	standardize<<<rows, 256, (64 + d) * sizeof(float), st>>>(y, x, d);
	atomic_total<<<rows, 256, 0, st>>>(out, x, d);
	row_count<<<rows, 256, 0, st>>>(count, x, d);
	biased_sum<<<rows, 256, 0, st>>>(out, x, bias, d);
	row_max<<<rows, 256, 0, st>>>(out, x, d);
	cached_row<<<rows, 256, d * sizeof(float), st>>>(out, x, d);
	neighbour<<<rows, 256, 0, st>>>(y, out, tmp, x, d);
	early_out<<<rows, 256, 0, st>>>(out, x, d);
}
