// gelu_bias: out[r, c] = gelu(x[r, c] + bias[c]) in float, a fixed launch
// of 256 threads per block, rows spread over the grid, columns strided by
// the block size and unrolled by 4.
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
constexpr int kt_unroll_UNROLL = UNROLL;
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

__device__ __forceinline__ float gelu(float v)
{
	return 0.5f * v * (1.0f + erff(v * 0.70710678f));
}

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param UNROLL values(1, 2, 4, 8, 16) default(4)
#pragma kt param VEC values(1, 2, 4) default(1)
#pragma kt constraint cols % VEC == 0
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem cols values(?)
#pragma kt launch grid(rows) block(BLOCK_SIZE)
#pragma kt arg out float[rows * cols] out
#pragma kt arg x float[rows * cols] in
#pragma kt arg bias float[cols] in
#pragma kt arg cols int = cols
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
gelu_bias_kernel(float *__restrict__ out,
				 const float *__restrict__ x,
				 const float *__restrict__ bias, int cols)
{
	const float *xr = x + (size_t)blockIdx.x * cols;
	float *outr = out + (size_t)blockIdx.x * cols;
	if constexpr (VEC == 1)
#pragma unroll kt_unroll_UNROLL
		for (int c = threadIdx.x; c < cols; c += BLOCK_SIZE)
			outr[c] = gelu(xr[c] + bias[c]);
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&outr[0]) | reinterpret_cast<size_t>(&xr[0]) | reinterpret_cast<size_t>(&bias[0])) % (VEC * 4)) == 0;
		const int kt_nvec = kt_aligned ? (int)((cols) / VEC) : 0;
#pragma unroll kt_unroll_UNROLL
		for (int kt_v = threadIdx.x; kt_v < kt_nvec; kt_v += BLOCK_SIZE) {
			float kt_outr[VEC];
			float kt_xr[VEC];
			float kt_bias[VEC];
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_xr) = *reinterpret_cast<const typename kt_vec<VEC * 4>::t *>(&xr[(0) + kt_v * VEC]);
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_bias) = *reinterpret_cast<const typename kt_vec<VEC * 4>::t *>(&bias[(0) + kt_v * VEC]);
#pragma unroll
			for (int kt_e = 0; kt_e < VEC; kt_e++) {
				const int c = kt_v * VEC + kt_e;
				(void)c;
				kt_outr[kt_e] = gelu(kt_xr[kt_e] + kt_bias[kt_e]);
			}
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(&outr[(0) + kt_v * VEC]) = *reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_outr);
		}
#pragma unroll kt_unroll_UNROLL
		for (int c = kt_nvec * VEC + (threadIdx.x); c < (cols); c += BLOCK_SIZE)
			outr[c] = gelu(xr[c] + bias[c]);
	}
}

#ifndef __CUDACC_RTC__
void gelu_bias(float *out, const float *x, const float *bias, int rows,
	       int cols, cudaStream_t stream)
{
	gelu_bias_kernel<<<rows, BLOCK_SIZE, 0, stream>>>(out, x, bias, cols);
}
#endif
