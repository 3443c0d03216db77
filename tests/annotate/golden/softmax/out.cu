// softmax: a numerically stable softmax over each row of a rows x cols
// float matrix; one block of 256 threads per row, two block reductions
// (maximum, then sum) through shared memory.
#include <cuda_runtime.h>

#ifndef __CUDACC_RTC__
#include <cfloat>
#elif !defined(KTC_RTC_HEADERS_GIVEN)
#define FLT_MAX 3.402823466e+38F
#define FLT_MIN 1.175494351e-38F
#define FLT_EPSILON 1.192092896e-07F
#define DBL_MAX 1.7976931348623158e+308
#endif

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef VEC
#define VEC 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
template <int N> struct kt_vec;
template <> struct kt_vec<1> { typedef unsigned char t; };
template <> struct kt_vec<2> { typedef unsigned short t; };
template <> struct kt_vec<4> { typedef unsigned int t; };
template <> struct kt_vec<8> { typedef uint2 t; };
template <> struct kt_vec<16> { typedef uint4 t; };

#pragma kt param BLOCK_SIZE values(32, 64, 128, 256, 512, 1024) default(256)
#pragma kt constraint 4 * (BLOCK_SIZE) <= DEVICE_SMEM_PER_BLOCK
#pragma kt param VEC values(1, 2, 4) default(1)
#pragma kt constraint cols % VEC == 0
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem cols values(?)
#pragma kt launch grid(rows) block(BLOCK_SIZE)
#pragma kt arg out float[rows * cols] out
#pragma kt arg in float[rows * cols] in
#pragma kt arg cols int = cols
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
softmax_kernel(float *__restrict__ out,
			       const float *__restrict__ in, int cols)
{
	__shared__ float red[BLOCK_SIZE];
	const float *x = in + (size_t)blockIdx.x * cols;
	float *y = out + (size_t)blockIdx.x * cols;
	float m = -FLT_MAX;
	for (int i = threadIdx.x; i < cols; i += BLOCK_SIZE)
		m = fmaxf(m, x[i]);
	red[threadIdx.x] = m;
	__syncthreads();
	for (int s = BLOCK_SIZE / 2; s > 0; s >>= 1) {
		if (threadIdx.x < s)
			red[threadIdx.x] = fmaxf(red[threadIdx.x],
						 red[threadIdx.x + s]);
		__syncthreads();
	}
	m = red[0];
	__syncthreads();
	float sum = 0.0f;
	for (int i = threadIdx.x; i < cols; i += BLOCK_SIZE)
		sum += __expf(x[i] - m);
	red[threadIdx.x] = sum;
	__syncthreads();
	for (int s = BLOCK_SIZE / 2; s > 0; s >>= 1) {
		if (threadIdx.x < s)
			red[threadIdx.x] += red[threadIdx.x + s];
		__syncthreads();
	}
	const float inv = 1.0f / red[0];
	if constexpr (VEC == 1)
		for (int i = threadIdx.x; i < cols; i += BLOCK_SIZE)
			y[i] = __expf(x[i] - m) * inv;
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&y[0]) | reinterpret_cast<size_t>(&x[0])) % (VEC * 4)) == 0;
		const int kt_nvec = kt_aligned ? (int)((cols) / VEC) : 0;
		for (int kt_v = threadIdx.x; kt_v < kt_nvec; kt_v += BLOCK_SIZE) {
			float kt_y[VEC];
			float kt_x[VEC];
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_x) = *reinterpret_cast<const typename kt_vec<VEC * 4>::t *>(&x[(0) + kt_v * VEC]);
#pragma unroll
			for (int kt_e = 0; kt_e < VEC; kt_e++) {
				const int i = kt_v * VEC + kt_e;
				(void)i;
				kt_y[kt_e] = __expf(kt_x[kt_e] - m) * inv;
			}
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(&y[(0) + kt_v * VEC]) = *reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_y);
		}
		for (int i = kt_nvec * VEC + (threadIdx.x); i < (cols); i += BLOCK_SIZE)
			y[i] = __expf(x[i] - m) * inv;
	}
}

#ifndef __CUDACC_RTC__
void softmax(float *out, const float *in, int rows, int cols,
	     cudaStream_t stream)
{
	softmax_kernel<<<rows, BLOCK_SIZE, 0, stream>>>(out, in, cols);
}
#endif
