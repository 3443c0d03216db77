// Row-per-block kernels with a block reduction: the warp_per_row refactor
// runs one row per warp, WARP_ROWS rows per block, where each warp can run
// the body as a block of 32 threads would (row_rms), and not where the
// kernel sizes its shared memory at the launch (dyn_smem), indexes
// global memory with the thread's number (lane_index) or waits at a
// barrier a macro writes (macro_sync: the rewrite does not reach into it).
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 1024
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
#ifndef VEC
#define VEC 1
#endif
#ifndef CLUSTER
#define CLUSTER 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef ROW_RMS_WARP_ROWS
#define ROW_RMS_WARP_ROWS 0
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
#ifndef CLUSTER_4
#define CLUSTER_4 1
#endif
#ifndef MIN_BLOCKS_4
#define MIN_BLOCKS_4 0
#endif
template <int N> struct kt_vec;
template <> struct kt_vec<1> { typedef unsigned char t; };
template <> struct kt_vec<2> { typedef unsigned short t; };
template <> struct kt_vec<4> { typedef unsigned int t; };
template <> struct kt_vec<8> { typedef uint2 t; };
template <> struct kt_vec<16> { typedef uint4 t; };
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

// y = x / sqrt(mean(x^2) + eps) for each row, the sum reduced through
// shuffles and one float per warp.
#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(1024)
#pragma kt param VEC values(1, 2, 4) default(1)
#pragma kt constraint d % VEC == 0
#pragma kt param CLUSTER values(1, 2, 4, 8) default(1)
#pragma kt constraint CLUSTER == 1 || DEVICE_CC_MAJOR >= 9
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
#pragma kt param ROW_RMS_WARP_ROWS values(0, 1, 2, 4, 8, 16, 32) default(0)
#pragma kt constraint 32 * ROW_RMS_WARP_ROWS <= BLOCK_SIZE
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows, CLUSTER) block(ROW_RMS_WARP_ROWS > 0 ? 32 * ROW_RMS_WARP_ROWS : ((((d < BLOCK_SIZE ? d : BLOCK_SIZE) + 31) / 32 * 32)))
#pragma kt arg y float[rows * d] out
#pragma kt arg x float[rows * d] in
#pragma kt arg d int = d
// ktc: complete and uncomment: #pragma kt arg eps float = ?
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif

#if CLUSTER > 1
__cluster_dims__(1, CLUSTER, 1)
#endif
row_rms(float *__restrict__ y, const float *__restrict__ x,
			int d, float eps)

#if ROW_RMS_WARP_ROWS == 0
{
	__shared__ float part[32];
	const float *in = x + (long)blockIdx.x * d;
	float *out = y + (long)blockIdx.x * d;
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	float ss = 0.f;
	for (int i = threadIdx.x + (CLUSTER == 1 ? 0 : blockIdx.y * blockDim.x); i < d; i += (blockDim.x) * (CLUSTER == 1 ? 1 : gridDim.y))
		ss += in[i] * in[i];
#if CLUSTER > 1
	ss = kt_cluster_sum(ss, CLUSTER);
#endif
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
	if constexpr (VEC == 1)
		for (int i = threadIdx.x + (CLUSTER == 1 ? 0 : blockIdx.y * blockDim.x); i < d; i += (blockDim.x) * (CLUSTER == 1 ? 1 : gridDim.y))
			out[i] = in[i] * r;
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&out[0]) | reinterpret_cast<size_t>(&in[0])) % (VEC * 4)) == 0;
		const int kt_nvec = kt_aligned ? (int)((d) / VEC) : 0;
		for (int kt_v = threadIdx.x + (CLUSTER == 1 ? 0 : blockIdx.y * blockDim.x); kt_v < kt_nvec; kt_v += (blockDim.x) * (CLUSTER == 1 ? 1 : gridDim.y)) {
			float kt_out[VEC];
			float kt_in[VEC];
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_in) = *reinterpret_cast<const typename kt_vec<VEC * 4>::t *>(&in[(0) + kt_v * VEC]);
#pragma unroll
			for (int kt_e = 0; kt_e < VEC; kt_e++) {
				const int i = kt_v * VEC + kt_e;
				(void)i;
				kt_out[kt_e] = kt_in[kt_e] * r;
			}
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(&out[(0) + kt_v * VEC]) = *reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_out);
		}
		for (int i = kt_nvec * VEC + (threadIdx.x + (CLUSTER == 1 ? 0 : blockIdx.y * blockDim.x)); i < (d); i += (blockDim.x) * (CLUSTER == 1 ? 1 : gridDim.y))
			out[i] = in[i] * r;
	}
}
#else
{
	const unsigned kt_warp = threadIdx.x / 32u, kt_lane = threadIdx.x % 32u;
	const unsigned kt_row = blockIdx.x * ROW_RMS_WARP_ROWS + kt_warp;
	if (kt_row >= gridDim.x)
		return;
	__shared__ float part[ROW_RMS_WARP_ROWS][32];
	const float *in = x + (long)kt_row * d;
	float *out = y + (long)kt_row * d;
	const int lane = kt_lane % 32, warp = kt_lane / 32;
	float ss = 0.f;
	for (int i = kt_lane; i < d; i += 32u)
		ss += in[i] * in[i];
	for (int o = 16; o > 0; o /= 2)
		ss += __shfl_xor_sync(0xffffffff, ss, o);
	if (lane == 0)
		part[kt_warp][warp] = ss;
	__syncwarp();
	if (warp == 0) {
		ss = lane < 32u / 32 ? part[kt_warp][lane] : 0.f;
		for (int o = 16; o > 0; o /= 2)
			ss += __shfl_xor_sync(0xffffffff, ss, o);
		if (lane == 0)
			part[kt_warp][0] = rsqrtf(ss / d + eps);
	}
	__syncwarp();
	const float r = part[kt_warp][0];
	for (int i = kt_lane; i < d; i += 32u)
		out[i] = in[i] * r;
}
#endif


// The same sum with its shared memory sized at the launch.
#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256) default(256)
#pragma kt param CLUSTER_2 values(1, 2, 4, 8) default(1)
#pragma kt constraint CLUSTER_2 == 1 || DEVICE_CC_MAJOR >= 9
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows, CLUSTER_2) block(BLOCK_SIZE_2) smem(256 * 4)
#pragma kt arg s float[rows] out
#pragma kt arg x float[rows * d] in
#pragma kt arg d int = d
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif

#if CLUSTER_2 > 1
__cluster_dims__(1, CLUSTER_2, 1)
#endif
dyn_smem(float *__restrict__ s, const float *__restrict__ x,
			 int d)
{
	extern __shared__ float part[];
	const float *in = x + (long)blockIdx.x * d;
	float acc = 0.f;
	for (int i = threadIdx.x + (CLUSTER_2 == 1 ? 0 : blockIdx.y * blockDim.x); i < d; i += (blockDim.x) * (CLUSTER_2 == 1 ? 1 : gridDim.y))
		acc += in[i];
#if CLUSTER_2 > 1
	acc = kt_cluster_sum(acc, CLUSTER_2);
#endif
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
#pragma kt param BLOCK_SIZE_3 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt constraint 4 * (BLOCK_SIZE_3) <= DEVICE_SMEM_PER_BLOCK
#pragma kt param CLUSTER_3 values(1, 2, 4, 8) default(1)
#pragma kt constraint CLUSTER_3 == 1 || DEVICE_CC_MAJOR >= 9
#pragma kt param MIN_BLOCKS_3 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_3 * MIN_BLOCKS_3 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows, CLUSTER_3) block(BLOCK_SIZE_3)
// ktc: complete and uncomment: #pragma kt arg s float[?] out
#pragma kt arg x float[rows * d] in
#pragma kt arg d int = d
__global__ void
#if MIN_BLOCKS_3 > 0
__launch_bounds__(BLOCK_SIZE_3, MIN_BLOCKS_3)
#endif

#if CLUSTER_3 > 1
__cluster_dims__(1, CLUSTER_3, 1)
#endif
lane_index(float *__restrict__ s, const float *__restrict__ x,
			   int d)
{
	__shared__ float part[BLOCK_SIZE_3];
	const float *in = x + (long)blockIdx.x * d;
	float acc = 0.f;
	for (int i = threadIdx.x + (CLUSTER_3 == 1 ? 0 : blockIdx.y * blockDim.x); i < d; i += (blockDim.x) * (CLUSTER_3 == 1 ? 1 : gridDim.y))
		acc += in[i];
#if CLUSTER_3 > 1
	acc = kt_cluster_sum(acc, CLUSTER_3);
#endif
	part[threadIdx.x] = acc;
	__syncthreads();
	s[(long)blockIdx.x * BLOCK_SIZE_3 + threadIdx.x] = part[threadIdx.x] + part[0];
}

#define ROW_BARRIER() __syncthreads()

#pragma kt param BLOCK_SIZE_4 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param CLUSTER_4 values(1, 2, 4, 8) default(1)
#pragma kt constraint CLUSTER_4 == 1 || DEVICE_CC_MAJOR >= 9
#pragma kt param MIN_BLOCKS_4 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_4 * MIN_BLOCKS_4 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows, CLUSTER_4) block(BLOCK_SIZE_4)
#pragma kt arg s float[rows] out
#pragma kt arg x float[rows * d] in
#pragma kt arg d int = d
__global__ void
#if MIN_BLOCKS_4 > 0
__launch_bounds__(BLOCK_SIZE_4, MIN_BLOCKS_4)
#endif

#if CLUSTER_4 > 1
__cluster_dims__(1, CLUSTER_4, 1)
#endif
macro_sync(float *__restrict__ s, const float *__restrict__ x,
			   int d)
{
	__shared__ float part[32];
	const float *in = x + (long)blockIdx.x * d;
	float acc = 0.f;
	for (int i = threadIdx.x + (CLUSTER_4 == 1 ? 0 : blockIdx.y * blockDim.x); i < d; i += (blockDim.x) * (CLUSTER_4 == 1 ? 1 : gridDim.y))
		acc += in[i];
#if CLUSTER_4 > 1
	acc = kt_cluster_sum(acc, CLUSTER_4);
#endif
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

#ifndef __CUDACC_RTC__
void run_rows(float *y, const float *x, int rows, int d, float eps)
{
	int threads = d < BLOCK_SIZE ? d : BLOCK_SIZE;
	threads = (threads + 31) / 32 * 32;
	row_rms<<<dim3(rows, CLUSTER), (ROW_RMS_WARP_ROWS > 0 ? 32 * ROW_RMS_WARP_ROWS : (threads))>>>(y, x, d, eps);
	dyn_smem<<<dim3(rows, CLUSTER_2), BLOCK_SIZE_2, 256 * sizeof(float)>>>(y, x, d);
	lane_index<<<dim3(rows, CLUSTER_3), BLOCK_SIZE_3>>>(y, x, d);
	macro_sync<<<dim3(rows, CLUSTER_4), BLOCK_SIZE_4>>>(y, x, d);
}
#endif
