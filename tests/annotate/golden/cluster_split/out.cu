// cluster_split.cu - row kernels that sum their row in block-strided
// loops, then reduce the block's sums: offered the split of the row over a
// thread-block cluster where every iteration is independent but for the
// sums, the sums start from zero, and what a loop stores stays with the
// thread that stored it; not offered otherwise.
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 256
#endif
#ifndef BLOCK_SIZE_3
#define BLOCK_SIZE_3 256
#endif
#ifndef BLOCK_SIZE_4
#define BLOCK_SIZE_4 256
#endif
#ifndef BLOCK_SIZE_5
#define BLOCK_SIZE_5 256
#endif
#ifndef BLOCK_SIZE_6
#define BLOCK_SIZE_6 256
#endif
#ifndef BLOCK_SIZE_7
#define BLOCK_SIZE_7 256
#endif
#ifndef BLOCK_SIZE_8
#define BLOCK_SIZE_8 256
#endif
#ifndef BLOCK_SIZE_9
#define BLOCK_SIZE_9 256
#endif
#ifndef VEC
#define VEC 1
#endif
#ifndef CLUSTER
#define CLUSTER 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef WARP_ROWS
#define WARP_ROWS 0
#endif
#ifndef CLUSTER_2
#define CLUSTER_2 1
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif
#ifndef CLUSTER_3
#define CLUSTER_3 1
#endif
#ifndef MIN_BLOCKS_3
#define MIN_BLOCKS_3 0
#endif
#ifndef WARP_ROWS_2
#define WARP_ROWS_2 0
#endif
#ifndef MIN_BLOCKS_4
#define MIN_BLOCKS_4 0
#endif
#ifndef MIN_BLOCKS_5
#define MIN_BLOCKS_5 0
#endif
#ifndef WARP_ROWS_3
#define WARP_ROWS_3 0
#endif
#ifndef MIN_BLOCKS_6
#define MIN_BLOCKS_6 0
#endif
#ifndef WARP_ROWS_4
#define WARP_ROWS_4 0
#endif
#ifndef MIN_BLOCKS_7
#define MIN_BLOCKS_7 0
#endif
#ifndef MIN_BLOCKS_8
#define MIN_BLOCKS_8 0
#endif
#ifndef WARP_ROWS_5
#define WARP_ROWS_5 0
#endif
#ifndef FAST_DIV
#define FAST_DIV 0
#endif
#ifndef MIN_BLOCKS_9
#define MIN_BLOCKS_9 0
#endif
#ifndef WARP_ROWS_6
#define WARP_ROWS_6 0
#endif
template <int N> struct kt_vec;
template <> struct kt_vec<1> { typedef unsigned char t; };
template <> struct kt_vec<2> { typedef unsigned short t; };
template <> struct kt_vec<4> { typedef unsigned int t; };
template <> struct kt_vec<8> { typedef uint2 t; };
template <> struct kt_vec<16> { typedef uint4 t; };
/* ktc fast_div: n / d and n % d by a multiply-high (Granlund and
 * Montgomery 1994, Fig. 4.1, N = 32), exact for every 32-bit n and
 * d >= 1; kt_fastdiv_new once per divisor */
typedef struct kt_fastdiv {
	unsigned d, m, l;
} kt_fastdiv;
__device__ __forceinline__ kt_fastdiv kt_fastdiv_new(unsigned d)
{
	kt_fastdiv f;
	f.d = d;
	f.l = d > 1 ? 32 - __clz(d - 1) : 0;
	f.m = d ? (unsigned)((1ull << 32) * ((1ull << f.l) - d) / d + 1)
	        : 0;
	return f;
}
__device__ __forceinline__ unsigned kt_fastdiv_q(unsigned n, kt_fastdiv f)
{
	return (unsigned)(((unsigned long long)__umulhi(n, f.m) + n) >> f.l);
}
__device__ __forceinline__ unsigned kt_fastdiv_udiv(unsigned n, kt_fastdiv f)
{
	return f.d ? kt_fastdiv_q(n, f) : n / f.d;
}
__device__ __forceinline__ unsigned kt_fastdiv_umod(unsigned n, kt_fastdiv f)
{
	return f.d ? n - kt_fastdiv_q(n, f) * f.d : n % f.d;
}
/* int: the multiply where n >= 0 and d > 0, C's operator elsewhere */
__device__ __forceinline__ int kt_fastdiv_div(int n, kt_fastdiv f)
{
	int d = (int)f.d;
	return n >= 0 && d > 0 ? (int)kt_fastdiv_q((unsigned)n, f) : n / d;
}
__device__ __forceinline__ int kt_fastdiv_mod(int n, kt_fastdiv f)
{
	int d = (int)f.d;
	return n >= 0 && d > 0 ? n - (int)kt_fastdiv_q((unsigned)n, f) * d
	                       : n % d;
}
template <typename T>
__device__ __forceinline__ T kt_cluster_sum(T v, unsigned n)
{
	__shared__ T kt_slot[1024];
	const unsigned t =
	    threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
	kt_slot[t] = v;
	asm volatile("barrier.cluster.arrive.release.aligned;\n\t"
	             "barrier.cluster.wait.acquire.aligned;" ::: "memory");
	T s = v;
	for (unsigned r = 0; r < n; r++) {
		unsigned long long p;
		asm volatile("mapa.u64 %0, %1, %2;" : "=l"(p)
		             : "l"(&kt_slot[t]), "r"(r));
		const T x = *reinterpret_cast<volatile T *>(p);
		s = r ? s + x : x;
	}
	asm volatile("barrier.cluster.arrive.release.aligned;\n\t"
	             "barrier.cluster.wait.acquire.aligned;" ::: "memory");
	return s;
}

// Each row scaled by its root mean square: a sum, a shuffle and shared
// memory block reduction, a second pass.
#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param VEC values(1, 2, 4) default(1)
#pragma kt constraint d % VEC == 0
#pragma kt param CLUSTER values(1, 2, 4, 8) default(1)
#pragma kt constraint CLUSTER == 1 || DEVICE_CC_MAJOR >= 9
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
#pragma kt param WARP_ROWS values(0, 1, 2, 4, 8, 16, 32) default(0)
#pragma kt constraint 32 * WARP_ROWS <= BLOCK_SIZE
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows, CLUSTER) block(WARP_ROWS > 0 ? 32 * WARP_ROWS : (BLOCK_SIZE))
#pragma kt arg y float[rows * d] out
#pragma kt arg x float[rows * d] in
#pragma kt arg d int = d
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif

#if CLUSTER > 1
__cluster_dims__(1, CLUSTER, 1)
#endif
rms_scale(float *__restrict__ y, const float *__restrict__ x,
			  int d)

#if WARP_ROWS == 0
{
	const long row = blockIdx.x;
	__shared__ float part[32];
	float ss = 0.f;
	for (int i = threadIdx.x + (CLUSTER == 1 ? 0 : blockIdx.y * blockDim.x); i < d; i += (blockDim.x) * (CLUSTER == 1 ? 1 : gridDim.y)) {
		const float v = x[row * d + i];
		ss += v * v;
	}
#if CLUSTER > 1
	ss = kt_cluster_sum(ss, CLUSTER);
#endif
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
	if constexpr (VEC == 1)
		for (int i = threadIdx.x + (CLUSTER == 1 ? 0 : blockIdx.y * blockDim.x); i < d; i += (blockDim.x) * (CLUSTER == 1 ? 1 : gridDim.y))
			y[row * d + i] = x[row * d + i] * r;
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&y[row * d]) | reinterpret_cast<size_t>(&x[row * d])) % (VEC * 4)) == 0;
		const int kt_nvec = kt_aligned ? (int)((d) / VEC) : 0;
		for (int kt_v = threadIdx.x + (CLUSTER == 1 ? 0 : blockIdx.y * blockDim.x); kt_v < kt_nvec; kt_v += (blockDim.x) * (CLUSTER == 1 ? 1 : gridDim.y)) {
			float kt_y[VEC];
			float kt_x[VEC];
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_x) = *reinterpret_cast<const typename kt_vec<VEC * 4>::t *>(&x[(row * d) + kt_v * VEC]);
#pragma unroll
			for (int kt_e = 0; kt_e < VEC; kt_e++) {
				const int i = kt_v * VEC + kt_e;
				(void)i;
				kt_y[kt_e] = kt_x[kt_e] * r;
			}
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(&y[(row * d) + kt_v * VEC]) = *reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_y);
		}
		for (int i = kt_nvec * VEC + (threadIdx.x + (CLUSTER == 1 ? 0 : blockIdx.y * blockDim.x)); i < (d); i += (blockDim.x) * (CLUSTER == 1 ? 1 : gridDim.y))
			y[row * d + i] = x[row * d + i] * r;
	}
}
#else
{
	const unsigned kt_warp = threadIdx.x / 32u, kt_lane = threadIdx.x % 32u;
	const unsigned kt_row = blockIdx.x * WARP_ROWS + kt_warp;
	if (kt_row >= gridDim.x)
		return;
	const long row = kt_row;
	__shared__ float part[WARP_ROWS][32];
	float ss = 0.f;
	for (int i = kt_lane; i < d; i += 32u) {
		const float v = x[row * d + i];
		ss += v * v;
	}
	for (int o = 16; o > 0; o /= 2)
		ss += __shfl_xor_sync(0xffffffff, ss, o);
	if (kt_lane % 32 == 0)
		part[kt_warp][kt_lane / 32] = ss;
	__syncwarp();
	if (kt_lane < 32) {
		ss = kt_lane < 32u / 32 ? part[kt_warp][kt_lane] : 0.f;
		for (int o = 16; o > 0; o /= 2)
			ss += __shfl_xor_sync(0xffffffff, ss, o);
		if (kt_lane == 0)
			part[kt_warp][0] = rsqrtf(ss / d + 1e-6f);
	}
	__syncwarp();
	const float r = part[kt_warp][0];
	for (int i = kt_lane; i < d; i += 32u)
		y[row * d + i] = x[row * d + i] * r;
}
#endif


// Two sums (of the row and of its squares) and the row kept in dynamic
// shared memory between the passes, read back by the thread that wrote
// it.
#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param CLUSTER_2 values(1, 2, 4, 8) default(1)
#pragma kt constraint CLUSTER_2 == 1 || DEVICE_CC_MAJOR >= 9
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows, CLUSTER_2) block(BLOCK_SIZE_2) smem((64 + d) * 4)
#pragma kt arg y float[rows * d] out
#pragma kt arg x float[rows * d] in
#pragma kt arg d int = d
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif

#if CLUSTER_2 > 1
__cluster_dims__(1, CLUSTER_2, 1)
#endif
standardize(float *__restrict__ y, const float *__restrict__ x,
			    int d)
{
	extern __shared__ float smem[];
	float *red = smem, *row = smem + 64;
	const float *xr = x + (long)blockIdx.x * d;
	float s = 0, s2 = 0;
	for (int i = threadIdx.x + (CLUSTER_2 == 1 ? 0 : blockIdx.y * blockDim.x); i < d; i += (blockDim.x) * (CLUSTER_2 == 1 ? 1 : gridDim.y)) {
		const float v = xr[i];
		row[i] = v;
		s += v;
		s2 += v * v;
	}
#if CLUSTER_2 > 1
	s = kt_cluster_sum(s, CLUSTER_2);
	s2 = kt_cluster_sum(s2, CLUSTER_2);
#endif
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
	for (int i = threadIdx.x + (CLUSTER_2 == 1 ? 0 : blockIdx.y * blockDim.x); i < d; i += (blockDim.x) * (CLUSTER_2 == 1 ? 1 : gridDim.y))
		y[(long)blockIdx.x * d + i] = (row[i] - m) / sd;
}

// A count of an integer type, written by one thread: every block of a
// cluster writes the same total.
#pragma kt param BLOCK_SIZE_3 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param CLUSTER_3 values(1, 2, 4, 8) default(1)
#pragma kt constraint CLUSTER_3 == 1 || DEVICE_CC_MAJOR >= 9
#pragma kt param MIN_BLOCKS_3 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_3 * MIN_BLOCKS_3 <= DEVICE_MAX_THREADS_PER_SM
#pragma kt param WARP_ROWS_2 values(0, 1, 2, 4, 8, 16, 32) default(0)
#pragma kt constraint 32 * WARP_ROWS_2 <= BLOCK_SIZE_3
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows, CLUSTER_3) block(WARP_ROWS_2 > 0 ? 32 * WARP_ROWS_2 : (BLOCK_SIZE_3))
#pragma kt arg count int[rows] out
#pragma kt arg x float[rows * d] in
#pragma kt arg d int = d
__global__ void
#if MIN_BLOCKS_3 > 0
__launch_bounds__(BLOCK_SIZE_3, MIN_BLOCKS_3)
#endif

#if CLUSTER_3 > 1
__cluster_dims__(1, CLUSTER_3, 1)
#endif
row_count(int *__restrict__ count, const float *__restrict__ x,
			  int d)

#if WARP_ROWS_2 == 0
{
	__shared__ int part[32];
	int nz = 0;
	for (int i = threadIdx.x + (CLUSTER_3 == 1 ? 0 : blockIdx.y * blockDim.x); i < d; i += (blockDim.x) * (CLUSTER_3 == 1 ? 1 : gridDim.y))
		nz += x[(long)blockIdx.x * d + i] != 0.f;
#if CLUSTER_3 > 1
	nz = kt_cluster_sum(nz, CLUSTER_3);
#endif
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
#else
{
	const unsigned kt_warp = threadIdx.x / 32u, kt_lane = threadIdx.x % 32u;
	const unsigned kt_row = blockIdx.x * WARP_ROWS_2 + kt_warp;
	if (kt_row >= gridDim.x)
		return;
	__shared__ int part[WARP_ROWS_2][32];
	int nz = 0;
	for (int i = kt_lane; i < d; i += 32u)
		nz += x[(long)kt_row * d + i] != 0.f;
	for (int o = 16; o > 0; o /= 2)
		nz += __shfl_xor_sync(0xffffffff, nz, o);
	if (kt_lane % 32 == 0)
		part[kt_warp][kt_lane / 32] = nz;
	__syncwarp();
	if (kt_lane == 0) {
		int t = 0;
		for (int k = 0; k < 32u / 32; k++)
			t += part[kt_warp][k];
		count[kt_row] = t;
	}
}
#endif


// The block's sum added to a total with an atomic: each block of a
// cluster would add it once more.
#pragma kt param BLOCK_SIZE_4 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS_4 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_4 * MIN_BLOCKS_4 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows) block(BLOCK_SIZE_4)
#pragma kt arg total float[1] inout
#pragma kt arg x float[rows * d] in
#pragma kt arg d int = d
__global__ void
#if MIN_BLOCKS_4 > 0
__launch_bounds__(BLOCK_SIZE_4, MIN_BLOCKS_4)
#endif
atomic_total(float *total, const float *__restrict__ x, int d)
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
#pragma kt param BLOCK_SIZE_5 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS_5 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_5 * MIN_BLOCKS_5 <= DEVICE_MAX_THREADS_PER_SM
#pragma kt param WARP_ROWS_3 values(0, 1, 2, 4, 8, 16, 32) default(0)
#pragma kt constraint 32 * WARP_ROWS_3 <= BLOCK_SIZE_5
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows) block(WARP_ROWS_3 > 0 ? 32 * WARP_ROWS_3 : (BLOCK_SIZE_5))
#pragma kt arg out float[rows] out
#pragma kt arg x float[rows * d] in
#pragma kt arg bias float[rows] in
#pragma kt arg d int = d
__global__ void
#if MIN_BLOCKS_5 > 0
__launch_bounds__(BLOCK_SIZE_5, MIN_BLOCKS_5)
#endif
biased_sum(float *__restrict__ out, const float *__restrict__ x,
			   const float *__restrict__ bias, int d)

#if WARP_ROWS_3 == 0
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
#else
{
	const unsigned kt_warp = threadIdx.x / 32u, kt_lane = threadIdx.x % 32u;
	const unsigned kt_row = blockIdx.x * WARP_ROWS_3 + kt_warp;
	if (kt_row >= gridDim.x)
		return;
	__shared__ float part[WARP_ROWS_3][32];
	float s = kt_lane == 0 ? bias[kt_row] : 0.f;
	for (int i = kt_lane; i < d; i += 32u)
		s += x[(long)kt_row * d + i];
	for (int o = 16; o > 0; o /= 2)
		s += __shfl_xor_sync(0xffffffff, s, o);
	if (kt_lane % 32 == 0)
		part[kt_warp][kt_lane / 32] = s;
	__syncwarp();
	if (kt_lane == 0) {
		float t = 0;
		for (int k = 0; k < 32u / 32; k++)
			t += part[kt_warp][k];
		out[kt_row] = t;
	}
}
#endif


// A maximum is not a sum.
#pragma kt param BLOCK_SIZE_6 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS_6 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_6 * MIN_BLOCKS_6 <= DEVICE_MAX_THREADS_PER_SM
#pragma kt param WARP_ROWS_4 values(0, 1, 2, 4, 8, 16, 32) default(0)
#pragma kt constraint 32 * WARP_ROWS_4 <= BLOCK_SIZE_6
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows) block(WARP_ROWS_4 > 0 ? 32 * WARP_ROWS_4 : (BLOCK_SIZE_6))
#pragma kt arg out float[rows] out
#pragma kt arg x float[rows * d] in
#pragma kt arg d int = d
__global__ void
#if MIN_BLOCKS_6 > 0
__launch_bounds__(BLOCK_SIZE_6, MIN_BLOCKS_6)
#endif
row_max(float *__restrict__ out, const float *__restrict__ x,
			int d)

#if WARP_ROWS_4 == 0
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
#else
{
	const unsigned kt_warp = threadIdx.x / 32u, kt_lane = threadIdx.x % 32u;
	const unsigned kt_row = blockIdx.x * WARP_ROWS_4 + kt_warp;
	if (kt_row >= gridDim.x)
		return;
	__shared__ float part[WARP_ROWS_4][32];
	float m = -3.4e38f;
	for (int i = kt_lane; i < d; i += 32u)
		m = fmaxf(m, x[(long)kt_row * d + i]);
	for (int o = 16; o > 0; o /= 2)
		m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
	if (kt_lane % 32 == 0)
		part[kt_warp][kt_lane / 32] = m;
	__syncwarp();
	if (kt_lane == 0) {
		float t = part[kt_warp][0];
		for (int k = 1; k < 32u / 32; k++)
			t = fmaxf(t, part[kt_warp][k]);
		out[kt_row] = t;
	}
}
#endif


// The row cached in shared memory is read outside the loops (thread 0
// reads its last element): another block of a cluster would hold it.
#pragma kt param BLOCK_SIZE_7 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS_7 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_7 * MIN_BLOCKS_7 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows) block(BLOCK_SIZE_7) smem(d * 4)
#pragma kt arg out float[rows] out
#pragma kt arg x float[rows * d] in
#pragma kt arg d int = d
__global__ void
#if MIN_BLOCKS_7 > 0
__launch_bounds__(BLOCK_SIZE_7, MIN_BLOCKS_7)
#endif
cached_row(float *__restrict__ out, const float *__restrict__ x,
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
#pragma kt param BLOCK_SIZE_8 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS_8 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_8 * MIN_BLOCKS_8 <= DEVICE_MAX_THREADS_PER_SM
#pragma kt param WARP_ROWS_5 values(0, 1, 2, 4, 8, 16, 32) default(0)
#pragma kt constraint 32 * WARP_ROWS_5 <= BLOCK_SIZE_8
#pragma kt param FAST_DIV values(0, 1) default(0)
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows) block(WARP_ROWS_5 > 0 ? 32 * WARP_ROWS_5 : (BLOCK_SIZE_8))
#pragma kt arg y float[rows * d] out
#pragma kt arg out float[rows] out
#pragma kt arg tmp float[rows * d] inout
#pragma kt arg x float[rows * d] in
#pragma kt arg d int = d
__global__ void
#if MIN_BLOCKS_8 > 0
__launch_bounds__(BLOCK_SIZE_8, MIN_BLOCKS_8)
#endif
neighbour(float *__restrict__ y, float *__restrict__ out,
			  float *__restrict__ tmp, const float *__restrict__ x,
			  int d)

#if WARP_ROWS_5 == 0
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
#if FAST_DIV
	const kt_fastdiv kt_fd_d = kt_fastdiv_new(d);
#else
	const kt_fastdiv kt_fd_d = {0, 0, 0};
#endif
	for (int i = threadIdx.x; i < d; i += blockDim.x)
		y[(long)blockIdx.x * d + i] = tmp[(long)blockIdx.x * d + (FAST_DIV ? kt_fastdiv_mod((i + 1), kt_fd_d) : (i + 1) % d)];
	if (threadIdx.x == 0) {
		float t = 0;
		for (int k = 0; k < blockDim.x / 32; k++)
			t += part[k];
		out[blockIdx.x] = t;
	}
}
#else
{
	const unsigned kt_warp = threadIdx.x / 32u, kt_lane = threadIdx.x % 32u;
	const unsigned kt_row = blockIdx.x * WARP_ROWS_5 + kt_warp;
	if (kt_row >= gridDim.x)
		return;
	__shared__ float part[WARP_ROWS_5][32];
	float s = 0;
	for (int i = kt_lane; i < d; i += 32u) {
		tmp[(long)kt_row * d + i] = 2.f * x[(long)kt_row * d + i];
		s += x[(long)kt_row * d + i];
	}
	for (int o = 16; o > 0; o /= 2)
		s += __shfl_xor_sync(0xffffffff, s, o);
	if (kt_lane % 32 == 0)
		part[kt_warp][kt_lane / 32] = s;
	__syncwarp();
	for (int i = kt_lane; i < d; i += 32u)
		y[(long)kt_row * d + i] = tmp[(long)kt_row * d + (i + 1) % d];
	if (kt_lane == 0) {
		float t = 0;
		for (int k = 0; k < 32u / 32; k++)
			t += part[kt_warp][k];
		out[kt_row] = t;
	}
}
#endif


// Warps past the row's end leave first: not every thread of a cluster
// would meet the others.
#pragma kt param BLOCK_SIZE_9 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS_9 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_9 * MIN_BLOCKS_9 <= DEVICE_MAX_THREADS_PER_SM
#pragma kt param WARP_ROWS_6 values(0, 1, 2, 4, 8, 16, 32) default(0)
#pragma kt constraint 32 * WARP_ROWS_6 <= BLOCK_SIZE_9
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows) block(WARP_ROWS_6 > 0 ? 32 * WARP_ROWS_6 : (BLOCK_SIZE_9))
#pragma kt arg out float[rows] out
#pragma kt arg x float[rows * d] in
#pragma kt arg d int = d
__global__ void
#if MIN_BLOCKS_9 > 0
__launch_bounds__(BLOCK_SIZE_9, MIN_BLOCKS_9)
#endif
early_out(float *__restrict__ out, const float *__restrict__ x,
			  int d)

#if WARP_ROWS_6 == 0
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
#else
{
	const unsigned kt_warp = threadIdx.x / 32u, kt_lane = threadIdx.x % 32u;
	const unsigned kt_row = blockIdx.x * WARP_ROWS_6 + kt_warp;
	if (kt_row >= gridDim.x)
		return;
	__shared__ float part[WARP_ROWS_6][32];
	const int warps = (d + 31) / 32;
	if (kt_lane / 32 >= warps)
		return;
	float s = 0;
	for (int i = kt_lane; i < d; i += 32u)
		s += x[(long)kt_row * d + i];
	for (int o = 16; o > 0; o /= 2)
		s += __shfl_xor_sync(0xffffffff, s, o);
	if (kt_lane % 32 == 0)
		part[kt_warp][kt_lane / 32] = s;
	__syncwarp();
	if (kt_lane == 0) {
		float t = 0;
		for (int k = 0; k < 32u / 32 && k < warps; k++)
			t += part[kt_warp][k];
		out[kt_row] = t;
	}
}
#endif


#ifndef __CUDACC_RTC__
void run_all(float *y, float *tmp, int *count, float *out, const float *x,
	     const float *bias, int rows, int d, cudaStream_t st)
{
	rms_scale<<<dim3(rows, CLUSTER), (WARP_ROWS > 0 ? 32 * WARP_ROWS : (BLOCK_SIZE)), 0, st>>>(y, x, d);
	standardize<<<dim3(rows, CLUSTER_2), BLOCK_SIZE_2, (64 + d) * sizeof(float), st>>>(y, x, d);
	atomic_total<<<rows, BLOCK_SIZE_4, 0, st>>>(out, x, d);
	row_count<<<dim3(rows, CLUSTER_3), (WARP_ROWS_2 > 0 ? 32 * WARP_ROWS_2 : (BLOCK_SIZE_3)), 0, st>>>(count, x, d);
	biased_sum<<<rows, (WARP_ROWS_3 > 0 ? 32 * WARP_ROWS_3 : (BLOCK_SIZE_5)), 0, st>>>(out, x, bias, d);
	row_max<<<rows, (WARP_ROWS_4 > 0 ? 32 * WARP_ROWS_4 : (BLOCK_SIZE_6)), 0, st>>>(out, x, d);
	cached_row<<<rows, BLOCK_SIZE_7, d * sizeof(float), st>>>(out, x, d);
	neighbour<<<rows, (WARP_ROWS_5 > 0 ? 32 * WARP_ROWS_5 : (BLOCK_SIZE_8)), 0, st>>>(y, out, tmp, x, d);
	early_out<<<rows, (WARP_ROWS_6 > 0 ? 32 * WARP_ROWS_6 : (BLOCK_SIZE_9)), 0, st>>>(out, x, d);
}
#endif
