// One kernel launched on two branches, each with its block capped at
// 1024 (`min(d / 4, 1024)` where the host packs four elements, else
// `min(d, 1024)`): any block size up to the cap serves both, so the two
// caps are one parameter (before, the second launch counted as another
// block size and the cap stayed).
#ifndef __CUDACC_RTC__
#include <algorithm>
#endif
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 1024
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

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(1024)
#pragma kt param VEC values(1, 2, 4) default(1)
#pragma kt constraint d % VEC == 0
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows) block((min(d / 4, BLOCK_SIZE)))
#pragma kt arg out float[rows * d] out
#pragma kt arg in float[rows * d] in
#pragma kt arg d int = d
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
twice_rows(float *out, const float *in, int d)
{
	if constexpr (VEC == 1)
		for (int i = threadIdx.x; i < d; i += blockDim.x)
			out[blockIdx.x * d + i] = 2.0f * in[blockIdx.x * d + i];
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&out[blockIdx.x * d]) | reinterpret_cast<size_t>(&in[blockIdx.x * d])) % (VEC * 4)) == 0;
		const int kt_nvec = kt_aligned ? (int)((d) / VEC) : 0;
		for (int kt_v = threadIdx.x; kt_v < kt_nvec; kt_v += blockDim.x) {
			float kt_out[VEC];
			float kt_in[VEC];
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_in) = *reinterpret_cast<const typename kt_vec<VEC * 4>::t *>(&in[(blockIdx.x * d) + kt_v * VEC]);
#pragma unroll
			for (int kt_e = 0; kt_e < VEC; kt_e++) {
				const int i = kt_v * VEC + kt_e;
				(void)i;
				kt_out[kt_e] = 2.0f * kt_in[kt_e];
			}
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(&out[(blockIdx.x * d) + kt_v * VEC]) = *reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_out);
		}
		for (int i = kt_nvec * VEC + (threadIdx.x); i < (d); i += blockDim.x)
			out[blockIdx.x * d + i] = 2.0f * in[blockIdx.x * d + i];
	}
}

#ifndef __CUDACC_RTC__
void twice(float *out, const float *in, int rows, int d, bool packed,
           cudaStream_t s)
{
	dim3 grid(rows);
	if (packed) {
		dim3 block(std::min(d / 4, BLOCK_SIZE));
		twice_rows<<<grid, block, 0, s>>>(out, in, d);
	} else {
		dim3 block(std::min(d, BLOCK_SIZE));
		twice_rows<<<grid, block, 0, s>>>(out, in, d);
	}
}
#endif
