// group_lanes.cu - kernels that give each group of G threads one task,
// reduced across the group with xor shuffles: threads_per_group makes G a
// parameter where every use of it is the group's (lane, group, the lane
// loops' step, the shuffle reduction, the block), groups_per_block the
// host's largest power of two that divides the groups; refused where some
// use is another.
#include <cuda_runtime.h>

#define LANES 8
#define QUAD 4

// The absolute maximum of each group of 64 floats, 16 threads per group;
// the host takes as many groups per block (up to 16) as divide them.
__global__ void group_absmax(const float *__restrict__ x, float *amax)
{
	const int lane = threadIdx.x % 16;
	const int g = blockIdx.x * (blockDim.x / 16) + threadIdx.x / 16;
	float m = 0.f;
	for (int i = lane; i < 64; i += 16)
		m = fmaxf(m, fabsf(x[g * 64 + i]));
	for (int off = 8; off > 0; off /= 2)
		m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
	if (lane == 0)
		amax[g] = m;
}

// A sum from zero, G a const local and the shuffle's width, the start
// written as half of it; the groups of a block a kernel argument.
__global__ void group_sum(const float *__restrict__ x, float *s, int n,
			  int per_block)
{
	const int tpg = 4;
	const int lane = threadIdx.x % tpg;
	const int g = blockIdx.x * per_block + threadIdx.x / tpg;
	float acc = 0.f;
	for (int i = lane; i < n; i += tpg)
		acc += x[g * n + i];
	for (int off = tpg / 2; off >= 1; off >>= 1)
		acc += __shfl_xor_sync(0xffffffffu, acc, off, tpg);
	if (lane == 0)
		s[g] = acc;
}

// G from a macro: the edit goes in its definition.
__global__ void group_min(const int *__restrict__ x, int *lo, int n)
{
	const int lane = threadIdx.x % LANES;
	const int g = blockIdx.x * (blockDim.x / LANES) + threadIdx.x / LANES;
	int m = 2147483647;
	for (int i = lane; i < n; i += LANES)
		m = min(m, x[g * n + i]);
	for (int off = LANES / 2; off > 0; off /= 2)
		m = min(m, __shfl_xor_sync(0xffffffffu, m, off));
	if (lane == 0)
		lo[g] = m;
}

// An unrolled max in a device function only this kernel calls, G = 4:
// each step o becomes o % TPG (0 from TPG up: the lane's own value).
__device__ __forceinline__ float quad_max(float v)
{
	v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, 2));
	v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, 1));
	return v;
}

__global__ void unrolled_max(const float *x, float *y, int n)
{
	const int lane = threadIdx.x % 4;
	const int g = blockIdx.x * (blockDim.x / 4) + threadIdx.x / 4;
	float v = -1e30f;
	for (int i = lane; i < n; i += 4)
		v = fmaxf(v, x[g * n + i]);
	v = quad_max(v);
	if (lane == 0)
		y[g] = v;
}

// Refused: an unrolled sum (xor 0 would add the lane's value twice).
__global__ void unrolled_sum(const float *x, float *y, int n)
{
	const int lane = threadIdx.x % 4;
	const int g = blockIdx.x * (blockDim.x / 4) + threadIdx.x / 4;
	float v = 0.f;
	for (int i = lane; i < n; i += 4)
		v += x[g * n + i];
	v += __shfl_xor_sync(0xffffffffu, v, 2);
	v += __shfl_xor_sync(0xffffffffu, v, 1);
	if (lane == 0)
		y[g] = v;
}

// Refused: each lane owns one element (x[g * 16 + lane]); fewer lanes
// would miss some.
__global__ void lane_owns(const float *x, float *y)
{
	const int lane = threadIdx.x % 16;
	const int g = blockIdx.x * (blockDim.x / 16) + threadIdx.x / 16;
	float v = x[g * 16 + lane];
	for (int off = 8; off > 0; off /= 2)
		v += __shfl_xor_sync(0xffffffffu, v, off);
	if (lane == 0)
		y[g] = v;
}

// Refused: the sum starts from a bias, which idle lanes would add again.
__global__ void biased_sum(const float *x, float *y, float bias, int n)
{
	const int lane = threadIdx.x % 16;
	const int g = blockIdx.x * (blockDim.x / 16) + threadIdx.x / 16;
	float v = bias;
	for (int i = lane; i < n; i += 16)
		v += x[g * n + i];
	for (int off = 8; off > 0; off /= 2)
		v += __shfl_xor_sync(0xffffffffu, v, off);
	if (lane == 0)
		y[g] = v;
}

// Refused: the mask names the group's 16 lanes.
__global__ void narrow_mask(const float *x, float *y, int n)
{
	const int lane = threadIdx.x % 16;
	const int g = blockIdx.x * (blockDim.x / 16) + threadIdx.x / 16;
	float v = 0.f;
	for (int i = lane; i < n; i += 16)
		v += x[g * n + i];
	for (int off = 8; off > 0; off /= 2)
		v += __shfl_xor_sync(0xffff, v, off);
	if (lane == 0)
		y[g] = v;
}

// Refused: the block is a literal (256), not groups times the group.
__global__ void fixed_block(const float *x, float *y, int n)
{
	const int lane = threadIdx.x % 16;
	const int g = blockIdx.x * 16 + threadIdx.x / 16;
	float v = 0.f;
	for (int i = lane; i < n; i += 16)
		v += x[g * n + i];
	for (int off = 8; off > 0; off /= 2)
		v += __shfl_xor_sync(0xffffffffu, v, off);
	if (lane == 0)
		y[g] = v;
}

// Refused: QUAD, the group, also divides the launch's grid.
__global__ void quad_sum(const float *x, float *y, int n)
{
	const int lane = threadIdx.x % QUAD;
	const int g = blockIdx.x * (blockDim.x / QUAD) + threadIdx.x / QUAD;
	float v = 0.f;
	for (int i = lane; i < n; i += QUAD)
		v += x[g * n + i];
	for (int off = QUAD / 2; off > 0; off /= 2)
		v += __shfl_xor_sync(0xffffffffu, v, off);
	if (lane == 0)
		y[g] = v;
}

// SGLang's GroupReduceMax: a half-warp mask computed from threadIdx
// (it holds every 16-lane group, so every smaller one too: TPG up to 16),
// and an argument (tid) it never reads, which the kernel passes its lane.
__device__ __forceinline__ float half_warp_max(float val, const int tid)
{
	unsigned mask = threadIdx.x % 32 >= 16 ? 0xffff0000 : 0x0000ffff;
	val = fmaxf(val, __shfl_xor_sync(mask, val, 8));
	val = fmaxf(val, __shfl_xor_sync(mask, val, 4));
	val = fmaxf(val, __shfl_xor_sync(mask, val, 2));
	val = fmaxf(val, __shfl_xor_sync(mask, val, 1));
	return val;
}

__global__ void half_warp_groups(const float *__restrict__ x, float *amax,
				 int n, int groups_per_block)
{
	const int threads_per_group = 16;
	const int lane_id = threadIdx.x % threads_per_group;
	const int g = blockIdx.x * groups_per_block +
		      threadIdx.x / threads_per_group;
	float m = 0.f;
	for (int i = lane_id; i < n; i += 16)
		m = fmaxf(m, fabsf(x[g * n + i]));
	m = half_warp_max(m, lane_id);
	if (lane_id == 0)
		amax[g] = m;
}

// Refused: this mask leaves out half of each 16-lane group.
__device__ __forceinline__ float quarter_max(float val)
{
	unsigned mask = threadIdx.x % 32 >= 8 ? 0xffffff00 : 0x000000ff;
	val = fmaxf(val, __shfl_xor_sync(mask, val, 8));
	val = fmaxf(val, __shfl_xor_sync(mask, val, 4));
	val = fmaxf(val, __shfl_xor_sync(mask, val, 2));
	val = fmaxf(val, __shfl_xor_sync(mask, val, 1));
	return val;
}

__global__ void wrong_mask(const float *__restrict__ x, float *amax, int n)
{
	const int lane = threadIdx.x % 16;
	const int g = blockIdx.x * (blockDim.x / 16) + threadIdx.x / 16;
	float m = 0.f;
	for (int i = lane; i < n; i += 16)
		m = fmaxf(m, fabsf(x[g * n + i]));
	m = quarter_max(m);
	if (lane == 0)
		amax[g] = m;
}

// Refused: the group index is spelled as a shift, which would not follow
// the group's size.
__global__ void shifted_group(const float *x, float *y, int n)
{
	const int lane = threadIdx.x % 16;
	const int g = blockIdx.x * (blockDim.x / 16) + (threadIdx.x >> 4);
	float v = 0.f;
	for (int i = lane; i < n; i += 16)
		v += x[g * n + i];
	for (int off = 8; off > 0; off /= 2)
		v += __shfl_xor_sync(0xffffffffu, v, off);
	if (lane == 0)
		y[g] = v;
}

void run(const float *x, float *amax, float *s, const int *xi, int *lo,
	 float *y, int groups, int n)
{
	const int per_block = groups % 16 == 0 ? 16
			      : groups % 8 == 0  ? 8
			      : groups % 4 == 0  ? 4
			      : groups % 2 == 0  ? 2
						 : 1;
	group_absmax<<<groups / per_block, per_block * 16>>>(x, amax);
	// the rest: `blocks` blocks of a fixed number of groups
	const int blocks = groups;
	group_sum<<<blocks, 8 * 4>>>(x, s, n, 8);
	group_min<<<blocks, 4 * LANES>>>(xi, lo, n);
	unrolled_max<<<blocks, 8 * 4>>>(x, y, n);
	unrolled_sum<<<blocks, 8 * 4>>>(x, y, n);
	lane_owns<<<blocks, 8 * 16>>>(x, y);
	biased_sum<<<blocks, 8 * 16>>>(x, y, 1.f, n);
	narrow_mask<<<blocks, 8 * 16>>>(x, y, n);
	fixed_block<<<blocks, 256>>>(x, y, n);
	quad_sum<<<blocks * QUAD, 2 * QUAD>>>(x, y, n);
	constexpr int THREADS_PER_GROUP = 16;
	half_warp_groups<<<blocks, 8 * THREADS_PER_GROUP>>>(x, amax, n, 8);
	wrong_mask<<<blocks, 8 * 16>>>(x, amax, n);
	shifted_group<<<blocks, 8 * 16>>>(x, y, n);
}
