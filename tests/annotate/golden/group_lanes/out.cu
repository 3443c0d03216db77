// group_lanes.cu - kernels that give each group of G threads one task,
// reduced across the group with xor shuffles: threads_per_group makes G a
// parameter where every use of it is the group's (lane, group, the lane
// loops' step, the shuffle reduction, the block), groups_per_block the
// host's largest power of two that divides the groups; refused where some
// use is another.
#include <cuda_runtime.h>

#ifndef GROUP_ABSMAX_TPG
#define GROUP_ABSMAX_TPG 16
#endif
#ifndef GPB
#define GPB 16
#endif
#ifndef GROUP_SUM_TPG
#define GROUP_SUM_TPG 4
#endif
#ifndef VEC
#define VEC 1
#endif
#ifndef GROUP_MIN_TPG
#define GROUP_MIN_TPG 8
#endif
#ifndef VEC_2
#define VEC_2 1
#endif
#ifndef UNROLLED_MAX_TPG
#define UNROLLED_MAX_TPG 4
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef VEC_3
#define VEC_3 1
#endif
#ifndef HALF_WARP_GROUPS_TPG
#define HALF_WARP_GROUPS_TPG 16
#endif
template <int N> struct kt_vec;
template <> struct kt_vec<1> { typedef unsigned char t; };
template <> struct kt_vec<2> { typedef unsigned short t; };
template <> struct kt_vec<4> { typedef unsigned int t; };
template <> struct kt_vec<8> { typedef uint2 t; };
template <> struct kt_vec<16> { typedef uint4 t; };

#define LANES GROUP_MIN_TPG
#define QUAD 4

// The absolute maximum of each group of 64 floats, 16 threads per group;
// the host takes as many groups per block (up to 16) as divide them.
#pragma kt param GROUP_ABSMAX_TPG values(2, 4, 8, 16, 32) default(16)
#pragma kt param GPB values(1, 2, 4, 8, 16, 32, 64) default(16)
#pragma kt constraint ((groups % GPB == 0 ? GPB : groups & -groups) * GROUP_ABSMAX_TPG) <= DEVICE_MAX_THREADS_PER_BLOCK
// ktc: complete and uncomment: #pragma kt problem groups values(?)
#pragma kt launch grid(groups / (groups % GPB == 0 ? GPB : groups & -groups)) block((groups % GPB == 0 ? GPB : groups & -groups) * GROUP_ABSMAX_TPG)
#pragma kt arg x float[64 * (groups % 16 == 0 ? 16 : groups % 8 == 0 ? 8 : groups % 4 == 0 ? 4 : groups % 2 == 0 ? 2 : 1) * (groups / (groups % 16 == 0 ? 16 : groups % 8 == 0 ? 8 : groups % 4 == 0 ? 4 : groups % 2 == 0 ? 2 : 1))] in
#pragma kt arg amax float[(groups % 16 == 0 ? 16 : groups % 8 == 0 ? 8 : groups % 4 == 0 ? 4 : groups % 2 == 0 ? 2 : 1) * (groups / (groups % 16 == 0 ? 16 : groups % 8 == 0 ? 8 : groups % 4 == 0 ? 4 : groups % 2 == 0 ? 2 : 1))] out
__global__ void group_absmax(const float *__restrict__ x, float *amax)
{
	const int lane = threadIdx.x % GROUP_ABSMAX_TPG;
	const int g = blockIdx.x * (blockDim.x / GROUP_ABSMAX_TPG) + threadIdx.x / GROUP_ABSMAX_TPG;
	float m = 0.f;
	for (int i = lane; i < 64; i += GROUP_ABSMAX_TPG)
		m = fmaxf(m, fabsf(x[g * 64 + i]));
	for (int off = (GROUP_ABSMAX_TPG / 2); off > 0; off /= 2)
		m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
	if (lane == 0)
		amax[g] = m;
}

// A sum from zero, G a const local and the shuffle's width, the start
// written as half of it; the groups of a block a kernel argument.
#pragma kt param GROUP_SUM_TPG values(2, 4, 8, 16, 32) default(4)
#pragma kt constraint (8 * GROUP_SUM_TPG) <= DEVICE_MAX_THREADS_PER_BLOCK
#pragma kt constraint GROUP_SUM_TPG % 2 == 0
// ktc: complete and uncomment: #pragma kt problem groups values(?)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(groups) block(8 * GROUP_SUM_TPG)
#pragma kt arg x float[8 * groups * n] in
#pragma kt arg s float[8 * groups] out
#pragma kt arg n int = n
#pragma kt arg per_block int = 8
__global__ void group_sum(const float *__restrict__ x, float *s, int n,
			  int per_block)
{
	const int tpg = GROUP_SUM_TPG;
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
#pragma kt param VEC values(1, 2, 4) default(1)
#pragma kt constraint n % VEC == 0
#pragma kt param GROUP_MIN_TPG values(2, 4, 8, 16, 32) default(8)
#pragma kt constraint (4 * GROUP_MIN_TPG) <= DEVICE_MAX_THREADS_PER_BLOCK
#pragma kt constraint GROUP_MIN_TPG % 2 == 0
// ktc: complete and uncomment: #pragma kt problem groups values(?)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(groups) block(4 * GROUP_MIN_TPG)
#pragma kt arg x int[4 * groups * n] in
#pragma kt arg lo int[4 * groups] out
#pragma kt arg n int = n
__global__ void group_min(const int *__restrict__ x, int *lo, int n)
{
	const int lane = threadIdx.x % LANES;
	const int g = blockIdx.x * (blockDim.x / LANES) + threadIdx.x / LANES;
	int m = 2147483647;
	if constexpr (VEC == 1)
		for (int i = lane; i < n; i += LANES)
			m = min(m, x[g * n + i]);
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&x[g * n])) % (VEC * 4)) == 0;
		const int kt_nvec = kt_aligned ? (int)((n) / VEC) : 0;
		for (int kt_v = lane; kt_v < kt_nvec; kt_v += LANES) {
			int kt_x[VEC];
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_x) = *reinterpret_cast<const typename kt_vec<VEC * 4>::t *>(&x[(g * n) + kt_v * VEC]);
#pragma unroll
			for (int kt_e = 0; kt_e < VEC; kt_e++) {
				const int i = kt_v * VEC + kt_e;
				(void)i;
				m = min(m, kt_x[kt_e]);
			}
		}
		for (int i = kt_nvec * VEC + (lane); i < (n); i += LANES)
			m = min(m, x[g * n + i]);
	}
	for (int off = LANES / 2; off > 0; off /= 2)
		m = min(m, __shfl_xor_sync(0xffffffffu, m, off));
	if (lane == 0)
		lo[g] = m;
}

// An unrolled max in a device function only this kernel calls, G = 4:
// each step o becomes o % TPG (0 from TPG up: the lane's own value).
__device__ __forceinline__ float quad_max(float v)
{
	v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, (2 % UNROLLED_MAX_TPG)));
	v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, (1 % UNROLLED_MAX_TPG)));
	return v;
}

#pragma kt param VEC_2 values(1, 2, 4) default(1)
#pragma kt constraint n % VEC_2 == 0
#pragma kt param UNROLLED_MAX_TPG values(2, 4) default(4)
#pragma kt constraint (8 * UNROLLED_MAX_TPG) <= DEVICE_MAX_THREADS_PER_BLOCK
// ktc: complete and uncomment: #pragma kt problem groups values(?)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(groups) block(8 * UNROLLED_MAX_TPG)
#pragma kt arg x float[8 * groups * n] in
#pragma kt arg y float[8 * groups] out
#pragma kt arg n int = n
__global__ void unrolled_max(const float *x, float *y, int n)
{
	const int lane = threadIdx.x % UNROLLED_MAX_TPG;
	const int g = blockIdx.x * (blockDim.x / UNROLLED_MAX_TPG) + threadIdx.x / UNROLLED_MAX_TPG;
	float v = -1e30f;
	if constexpr (VEC_2 == 1)
		for (int i = lane; i < n; i += UNROLLED_MAX_TPG)
			v = fmaxf(v, x[g * n + i]);
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&x[g * n])) % (VEC_2 * 4)) == 0;
		const int kt_nvec = kt_aligned ? (int)((n) / VEC_2) : 0;
		for (int kt_v = lane; kt_v < kt_nvec; kt_v += UNROLLED_MAX_TPG) {
			float kt_x[VEC_2];
			*reinterpret_cast<typename kt_vec<VEC_2 * 4>::t *>(kt_x) = *reinterpret_cast<const typename kt_vec<VEC_2 * 4>::t *>(&x[(g * n) + kt_v * VEC_2]);
#pragma unroll
			for (int kt_e = 0; kt_e < VEC_2; kt_e++) {
				const int i = kt_v * VEC_2 + kt_e;
				(void)i;
				v = fmaxf(v, kt_x[kt_e]);
			}
		}
		for (int i = kt_nvec * VEC_2 + (lane); i < (n); i += UNROLLED_MAX_TPG)
			v = fmaxf(v, x[g * n + i]);
	}
	v = quad_max(v);
	if (lane == 0)
		y[g] = v;
}

// Refused: an unrolled sum (xor 0 would add the lane's value twice).
// ktc: complete and uncomment: #pragma kt problem groups values(?)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(groups) block(8 * 4)
#pragma kt arg x float[8 * groups * n] in
#pragma kt arg y float[8 * groups] out
#pragma kt arg n int = n
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
// ktc: complete and uncomment: #pragma kt problem groups values(?)
#pragma kt launch grid(groups) block(8 * 16)
#pragma kt arg x float[128 * groups] in
#pragma kt arg y float[8 * groups] out
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
// ktc: complete and uncomment: #pragma kt problem groups values(?)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(groups) block(8 * 16)
#pragma kt arg x float[8 * groups * n] in
#pragma kt arg y float[8 * groups] out
#pragma kt arg bias float = 1.f
#pragma kt arg n int = n
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
// ktc: complete and uncomment: #pragma kt problem groups values(?)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(groups) block(8 * 16)
#pragma kt arg x float[8 * groups * n] in
#pragma kt arg y float[8 * groups] out
#pragma kt arg n int = n
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
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint 256 * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem groups values(?)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(groups) block(256)
#pragma kt arg x float[16 * groups * n] in
#pragma kt arg y float[16 * groups] out
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(256, MIN_BLOCKS)
#endif
fixed_block(const float *x, float *y, int n)
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
// ktc: complete and uncomment: #pragma kt problem groups values(?)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(groups * 4) block(2 * 4)
#pragma kt arg x float[8 * groups * n] in
#pragma kt arg y float[8 * groups] out
#pragma kt arg n int = n
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
	val = fmaxf(val, __shfl_xor_sync(mask, val, (8 % HALF_WARP_GROUPS_TPG)));
	val = fmaxf(val, __shfl_xor_sync(mask, val, (4 % HALF_WARP_GROUPS_TPG)));
	val = fmaxf(val, __shfl_xor_sync(mask, val, (2 % HALF_WARP_GROUPS_TPG)));
	val = fmaxf(val, __shfl_xor_sync(mask, val, (1 % HALF_WARP_GROUPS_TPG)));
	return val;
}

#pragma kt param VEC_3 values(1, 2, 4) default(1)
#pragma kt constraint 8 % VEC_3 == 0
#pragma kt constraint n % VEC_3 == 0
#pragma kt param HALF_WARP_GROUPS_TPG values(2, 4, 8, 16) default(16)
#pragma kt constraint (8 * HALF_WARP_GROUPS_TPG) <= DEVICE_MAX_THREADS_PER_BLOCK
// ktc: complete and uncomment: #pragma kt problem groups values(?)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(groups) block(8 * HALF_WARP_GROUPS_TPG)
#pragma kt arg x float[8 * groups * n] in
#pragma kt arg amax float[8 * groups] out
#pragma kt arg n int = n
#pragma kt arg groups_per_block int = 8
__global__ void half_warp_groups(const float *__restrict__ x, float *amax,
				 int n, int groups_per_block)
{
	const int threads_per_group = HALF_WARP_GROUPS_TPG;
	const int lane_id = threadIdx.x % threads_per_group;
	const int g = blockIdx.x * groups_per_block +
		      threadIdx.x / threads_per_group;
	float m = 0.f;
	if constexpr (VEC_3 == 1)
		for (int i = lane_id; i < n; i += HALF_WARP_GROUPS_TPG)
			m = fmaxf(m, fabsf(x[g * n + i]));
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&x[g * n])) % (VEC_3 * 4)) == 0;
		const int kt_nvec = kt_aligned ? (int)((n) / VEC_3) : 0;
		for (int kt_v = lane_id; kt_v < kt_nvec; kt_v += HALF_WARP_GROUPS_TPG) {
			float kt_x[VEC_3];
			*reinterpret_cast<typename kt_vec<VEC_3 * 4>::t *>(kt_x) = *reinterpret_cast<const typename kt_vec<VEC_3 * 4>::t *>(&x[(g * n) + kt_v * VEC_3]);
#pragma unroll
			for (int kt_e = 0; kt_e < VEC_3; kt_e++) {
				const int i = kt_v * VEC_3 + kt_e;
				(void)i;
				m = fmaxf(m, fabsf(kt_x[kt_e]));
			}
		}
		for (int i = kt_nvec * VEC_3 + (lane_id); i < (n); i += HALF_WARP_GROUPS_TPG)
			m = fmaxf(m, fabsf(x[g * n + i]));
	}
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

// ktc: complete and uncomment: #pragma kt problem groups values(?)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(groups) block(8 * 16)
#pragma kt arg x float[8 * groups * n] in
#pragma kt arg amax float[8 * groups] out
#pragma kt arg n int = n
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
// ktc: complete and uncomment: #pragma kt problem groups values(?)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(groups) block(8 * 16)
#pragma kt arg x float[8 * groups * n] in
#pragma kt arg y float[8 * groups] out
#pragma kt arg n int = n
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

#ifndef __CUDACC_RTC__
void run(const float *x, float *amax, float *s, const int *xi, int *lo,
	 float *y, int groups, int n)
{
	const int per_block = (groups % GPB == 0 ? GPB : (int)(groups & -groups));
	group_absmax<<<groups / per_block, per_block * GROUP_ABSMAX_TPG>>>(x, amax);
	// the rest: `blocks` blocks of a fixed number of groups
	const int blocks = groups;
	group_sum<<<blocks, 8 * GROUP_SUM_TPG>>>(x, s, n, 8);
	group_min<<<blocks, 4 * LANES>>>(xi, lo, n);
	unrolled_max<<<blocks, 8 * UNROLLED_MAX_TPG>>>(x, y, n);
	unrolled_sum<<<blocks, 8 * 4>>>(x, y, n);
	lane_owns<<<blocks, 8 * 16>>>(x, y);
	biased_sum<<<blocks, 8 * 16>>>(x, y, 1.f, n);
	narrow_mask<<<blocks, 8 * 16>>>(x, y, n);
	fixed_block<<<blocks, 256>>>(x, y, n);
	quad_sum<<<blocks * QUAD, 2 * QUAD>>>(x, y, n);
	constexpr int THREADS_PER_GROUP = HALF_WARP_GROUPS_TPG;
	half_warp_groups<<<blocks, 8 * THREADS_PER_GROUP>>>(x, amax, n, 8);
	wrong_mask<<<blocks, 8 * 16>>>(x, amax, n);
	shifted_group<<<blocks, 8 * 16>>>(x, y, n);
}
#endif
