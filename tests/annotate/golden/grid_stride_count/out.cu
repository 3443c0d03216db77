// Kernels that walk their work in grid-stride loops, launched with a
// literal grid: any count of blocks covers the same work, so the count is
// a tuning parameter (GRID_SIZE), from a sixteenth of the original to
// sixteen times it.
#ifndef __CUDACC_RTC__
#include <algorithm>
#endif

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef SAXPY_GRID_SIZE
#define SAXPY_GRID_SIZE 1024
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 128
#endif
#ifndef SQUARE_GRID_SIZE
#define SQUARE_GRID_SIZE 512
#endif
#ifndef ROW_SUM_GRID_SIZE
#define ROW_SUM_GRID_SIZE 132
#endif
#ifndef BLOCK_SIZE_3
#define BLOCK_SIZE_3 256
#endif
#ifndef CLAMP01_GRID_SIZE
#define CLAMP01_GRID_SIZE 4096
#endif
#ifndef BLOCK_SIZE_4
#define BLOCK_SIZE_4 512
#endif
#ifndef RELU_GRID_SIZE
#define RELU_GRID_SIZE 2048
#endif
#ifndef VEC
#define VEC 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef VEC_2
#define VEC_2 1
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif
#ifndef MIN_BLOCKS_3
#define MIN_BLOCKS_3 0
#endif
#ifndef VEC_3
#define VEC_3 1
#endif
#ifndef MIN_BLOCKS_4
#define MIN_BLOCKS_4 0
#endif
#ifndef MIN_BLOCKS_5
#define MIN_BLOCKS_5 0
#endif
template <int N> struct kt_vec;
template <> struct kt_vec<1> { typedef unsigned char t; };
template <> struct kt_vec<2> { typedef unsigned short t; };
template <> struct kt_vec<4> { typedef unsigned int t; };
template <> struct kt_vec<8> { typedef uint2 t; };
template <> struct kt_vec<16> { typedef uint4 t; };

// the plain form: one loop from the global index by the grid's threads
#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param SAXPY_GRID_SIZE values(64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384) default(1024)
#pragma kt param VEC values(1, 2, 4) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(SAXPY_GRID_SIZE) block(BLOCK_SIZE)
#pragma kt arg y float[n] inout
#pragma kt arg x float[n] in
#pragma kt arg a float = 2.0f
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
saxpy(float *y, const float *x, float a, int n)
{
	if constexpr (VEC == 1)
		for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
		     i += blockDim.x * gridDim.x)
			y[i] = a * x[i] + y[i];
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&y[0]) | reinterpret_cast<size_t>(&x[0])) % (VEC * 4)) == 0;
		const int kt_nvec = kt_aligned ? (int)((n) / VEC) : 0;
		for (int kt_v = blockIdx.x * blockDim.x + threadIdx.x; kt_v < kt_nvec; kt_v += blockDim.x * gridDim.x) {
			float kt_y[VEC];
			float kt_x[VEC];
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_y) = *reinterpret_cast<const typename kt_vec<VEC * 4>::t *>(&y[(0) + kt_v * VEC]);
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_x) = *reinterpret_cast<const typename kt_vec<VEC * 4>::t *>(&x[(0) + kt_v * VEC]);
#pragma unroll
			for (int kt_e = 0; kt_e < VEC; kt_e++) {
				const int i = kt_v * VEC + kt_e;
				(void)i;
				kt_y[kt_e] = a * kt_x[kt_e] + kt_y[kt_e];
			}
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(&y[(0) + kt_v * VEC]) = *reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_y);
		}
		for (int i = kt_nvec * VEC + (blockIdx.x * blockDim.x + threadIdx.x); i < (n); i += blockDim.x * gridDim.x)
			y[i] = a * x[i] + y[i];
	}
}

// the start and the step through locals, the grid through a dim3 (and an
// array named `v`, whose registers in the vector loop are not `kt_v`)
#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param SQUARE_GRID_SIZE values(32, 64, 128, 256, 512, 1024, 2048, 4096, 8192) default(512)
#pragma kt param VEC_2 values(1, 2, 4) default(1)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(SQUARE_GRID_SIZE) block(BLOCK_SIZE_2)
#pragma kt arg v float[n] inout
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif
square(float *v, int n)
{
	const int tid = threadIdx.x + blockIdx.x * blockDim.x;
	const int stride = gridDim.x * blockDim.x;
	if constexpr (VEC_2 == 1)
		for (int i = tid; i < n; i += stride)
			v[i] = v[i] * v[i];
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&v[0])) % (VEC_2 * 4)) == 0;
		const int kt_nvec = kt_aligned ? (int)((n) / VEC_2) : 0;
		for (int kt_v = tid; kt_v < kt_nvec; kt_v += stride) {
			float kt_v_reg[VEC_2];
			*reinterpret_cast<typename kt_vec<VEC_2 * 4>::t *>(kt_v_reg) = *reinterpret_cast<const typename kt_vec<VEC_2 * 4>::t *>(&v[(0) + kt_v * VEC_2]);
#pragma unroll
			for (int kt_e = 0; kt_e < VEC_2; kt_e++) {
				const int i = kt_v * VEC_2 + kt_e;
				(void)i;
				kt_v_reg[kt_e] = kt_v_reg[kt_e] * kt_v_reg[kt_e];
			}
			*reinterpret_cast<typename kt_vec<VEC_2 * 4>::t *>(&v[(0) + kt_v * VEC_2]) = *reinterpret_cast<typename kt_vec<VEC_2 * 4>::t *>(kt_v_reg);
		}
		for (int i = kt_nvec * VEC_2 + (tid); i < (n); i += stride)
			v[i] = v[i] * v[i];
	}
}

// a block per row, the rows walked by the grid: a barrier inside is
// fine, every thread of a block runs the same rows
#pragma kt param ROW_SUM_GRID_SIZE values(8, 16, 32, 64, 128, 132, 256, 512, 1024, 2048) default(132)
#pragma kt param MIN_BLOCKS_3 values(0, 1, 2, 4) default(0)
#pragma kt constraint 256 * MIN_BLOCKS_3 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
#pragma kt launch grid(ROW_SUM_GRID_SIZE) block(256)
#pragma kt arg out float[rows] out
#pragma kt arg in float[4096 * rows] in
#pragma kt arg rows int = rows
#pragma kt arg cols int = 4096
__global__ void
#if MIN_BLOCKS_3 > 0
__launch_bounds__(256, MIN_BLOCKS_3)
#endif
row_sum(float *out, const float *in, int rows, int cols)
{
	__shared__ float part[256];
	for (int r = blockIdx.x; r < rows; r += gridDim.x) {
		float s = 0.0f;
		for (int c = threadIdx.x; c < cols; c += blockDim.x)
			s += in[r * cols + c];
		part[threadIdx.x] = s;
		__syncthreads();
		if (threadIdx.x == 0) {
			float t = 0.0f;
			for (int k = 0; k < 256; k++)
				t += part[k];
			out[r] = t;
		}
		__syncthreads();
	}
}

// a grid counted from the problem, capped: the cap is the parameter
#pragma kt param BLOCK_SIZE_3 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param CLAMP01_GRID_SIZE values(256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536) default(4096)
#pragma kt param VEC_3 values(1, 2, 4) default(1)
#pragma kt param MIN_BLOCKS_4 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_3 * MIN_BLOCKS_4 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(min((n + (BLOCK_SIZE_3 - 1)) / BLOCK_SIZE_3, CLAMP01_GRID_SIZE)) block(BLOCK_SIZE_3)
#pragma kt arg v float[n] inout
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_4 > 0
__launch_bounds__(BLOCK_SIZE_3, MIN_BLOCKS_4)
#endif
clamp01(float *v, int n)
{
	if constexpr (VEC_3 == 1)
		for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
		     i += blockDim.x * gridDim.x)
			v[i] = fminf(fmaxf(v[i], 0.0f), 1.0f);
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&v[0])) % (VEC_3 * 4)) == 0;
		const int kt_nvec = kt_aligned ? (int)((n) / VEC_3) : 0;
		for (int kt_v = blockIdx.x * blockDim.x + threadIdx.x; kt_v < kt_nvec; kt_v += blockDim.x * gridDim.x) {
			float kt_v_reg[VEC_3];
			*reinterpret_cast<typename kt_vec<VEC_3 * 4>::t *>(kt_v_reg) = *reinterpret_cast<const typename kt_vec<VEC_3 * 4>::t *>(&v[(0) + kt_v * VEC_3]);
#pragma unroll
			for (int kt_e = 0; kt_e < VEC_3; kt_e++) {
				const int i = kt_v * VEC_3 + kt_e;
				(void)i;
				kt_v_reg[kt_e] = fminf(fmaxf(kt_v_reg[kt_e], 0.0f), 1.0f);
			}
			*reinterpret_cast<typename kt_vec<VEC_3 * 4>::t *>(&v[(0) + kt_v * VEC_3]) = *reinterpret_cast<typename kt_vec<VEC_3 * 4>::t *>(kt_v_reg);
		}
		for (int i = kt_nvec * VEC_3 + (blockIdx.x * blockDim.x + threadIdx.x); i < (n); i += blockDim.x * gridDim.x)
			v[i] = fminf(fmaxf(v[i], 0.0f), 1.0f);
	}
}

// the loop written by a macro
#define KERNEL_LOOP(i, n) \
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
	     i += blockDim.x * gridDim.x)

#pragma kt param BLOCK_SIZE_4 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(512)
#pragma kt param RELU_GRID_SIZE values(128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768) default(2048)
#pragma kt param MIN_BLOCKS_5 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_4 * MIN_BLOCKS_5 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(RELU_GRID_SIZE) block(BLOCK_SIZE_4)
// ktc: complete and uncomment: #pragma kt arg v float[?] inout
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_5 > 0
__launch_bounds__(BLOCK_SIZE_4, MIN_BLOCKS_5)
#endif
relu(float *v, int n)
{
	KERNEL_LOOP(i, n) { v[i] = v[i] > 0.0f ? v[i] : 0.0f; }
}

#ifndef __CUDACC_RTC__
void run(float *y, const float *x, float *v, float *sums, const float *m,
         int n, int rows)
{
	saxpy<<<SAXPY_GRID_SIZE, BLOCK_SIZE>>>(y, x, 2.0f, n);
	dim3 grid(SQUARE_GRID_SIZE);
	square<<<grid, BLOCK_SIZE_2>>>(v, n);
	row_sum<<<ROW_SUM_GRID_SIZE, 256>>>(sums, m, rows, 4096);
	clamp01<<<std::min((n + (BLOCK_SIZE_3 - 1)) / BLOCK_SIZE_3, CLAMP01_GRID_SIZE), BLOCK_SIZE_3>>>(v, n);
	relu<<<RELU_GRID_SIZE, BLOCK_SIZE_4>>>(v, n);
}
#endif
