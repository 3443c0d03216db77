// vectorize_types.cu - element loops whose arrays have different element
// types: each array keeps its own type in the vector moves (bf16 in, fp8
// out; float in, int out, the same size but not the same bits), and a
// local of the loop's body may be assigned.
#include <cuda_bf16.h>
#include <cuda_fp8.h>
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
#ifndef VEC_3
#define VEC_3 1
#endif
#ifndef MIN_BLOCKS_3
#define MIN_BLOCKS_3 0
#endif
template <int N> struct kt_vec;
template <> struct kt_vec<1> { typedef unsigned char t; };
template <> struct kt_vec<2> { typedef unsigned short t; };
template <> struct kt_vec<4> { typedef unsigned int t; };
template <> struct kt_vec<8> { typedef uint2 t; };
template <> struct kt_vec<16> { typedef uint4 t; };

// bf16 -> fp8, clamped through a local of the body.
#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param VEC values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(1) block(BLOCK_SIZE)
#pragma kt arg x __nv_bfloat16[n] in
#pragma kt arg q __nv_fp8_e4m3[n] out
#pragma kt arg inv float = 0.5f
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
to_fp8(const __nv_bfloat16 *__restrict__ x,
		       __nv_fp8_e4m3 *__restrict__ q, float inv, int n)
{
	if constexpr (VEC == 1)
		for (int i = threadIdx.x; i < n; i += blockDim.x) {
			float v = __bfloat162float(x[i]) * inv;
			v = fminf(fmaxf(v, -448.f), 448.f);
			q[i] = __nv_fp8_e4m3(v);
		}
	else {
		const bool kt_aligned = (reinterpret_cast<size_t>(&x[0]) % (VEC * sizeof(__nv_bfloat16))) == 0 && (reinterpret_cast<size_t>(&q[0]) % (VEC * sizeof(__nv_fp8_e4m3))) == 0;
		const int kt_nvec = kt_aligned ? (int)((n) / VEC) : 0;
		for (int kt_v = threadIdx.x; kt_v < kt_nvec; kt_v += blockDim.x) {
			__nv_bfloat16 kt_x[VEC];
			__nv_fp8_e4m3 kt_q[VEC];
			*reinterpret_cast<typename kt_vec<VEC * sizeof(__nv_bfloat16)>::t *>(kt_x) = *reinterpret_cast<const typename kt_vec<VEC * sizeof(__nv_bfloat16)>::t *>(&x[(0) + kt_v * VEC]);
#pragma unroll
			for (int kt_e = 0; kt_e < VEC; kt_e++) {
				const int i = kt_v * VEC + kt_e;
				(void)i;
				{
				float v = __bfloat162float(kt_x[kt_e]) * inv;
				v = fminf(fmaxf(v, -448.f), 448.f);
				kt_q[kt_e] = __nv_fp8_e4m3(v);
			}
			}
			*reinterpret_cast<typename kt_vec<VEC * sizeof(__nv_fp8_e4m3)>::t *>(&q[(0) + kt_v * VEC]) = *reinterpret_cast<typename kt_vec<VEC * sizeof(__nv_fp8_e4m3)>::t *>(kt_q);
		}
		for (int i = kt_nvec * VEC + (threadIdx.x); i < (n); i += blockDim.x)
			{
		float v = __bfloat162float(x[i]) * inv;
		v = fminf(fmaxf(v, -448.f), 448.f);
		q[i] = __nv_fp8_e4m3(v);
	}
	}
}

// float -> int: four bytes each, the values converted, not copied.
#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param VEC_2 values(1, 2, 4) default(1)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(1) block(BLOCK_SIZE_2)
#pragma kt arg x float[n] in
#pragma kt arg y int[n] out
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif
round_to_int(const float *__restrict__ x, int *__restrict__ y,
			     int n)
{
	if constexpr (VEC_2 == 1)
		for (int i = threadIdx.x; i < n; i += blockDim.x)
			y[i] = __float2int_rn(x[i]);
	else {
		const bool kt_aligned = (reinterpret_cast<size_t>(&y[0]) % (VEC_2 * sizeof(int))) == 0 && (reinterpret_cast<size_t>(&x[0]) % (VEC_2 * sizeof(float))) == 0;
		const int kt_nvec = kt_aligned ? (int)((n) / VEC_2) : 0;
		for (int kt_v = threadIdx.x; kt_v < kt_nvec; kt_v += blockDim.x) {
			int kt_y[VEC_2];
			float kt_x[VEC_2];
			*reinterpret_cast<typename kt_vec<VEC_2 * sizeof(float)>::t *>(kt_x) = *reinterpret_cast<const typename kt_vec<VEC_2 * sizeof(float)>::t *>(&x[(0) + kt_v * VEC_2]);
#pragma unroll
			for (int kt_e = 0; kt_e < VEC_2; kt_e++) {
				const int i = kt_v * VEC_2 + kt_e;
				(void)i;
				kt_y[kt_e] = __float2int_rn(kt_x[kt_e]);
			}
			*reinterpret_cast<typename kt_vec<VEC_2 * sizeof(int)>::t *>(&y[(0) + kt_v * VEC_2]) = *reinterpret_cast<typename kt_vec<VEC_2 * sizeof(int)>::t *>(kt_y);
		}
		for (int i = kt_nvec * VEC_2 + (threadIdx.x); i < (n); i += blockDim.x)
			y[i] = __float2int_rn(x[i]);
	}
}

// half -> float, wider out than in.
#pragma kt param BLOCK_SIZE_3 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param VEC_3 values(1, 2, 4) default(1)
#pragma kt param MIN_BLOCKS_3 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_3 * MIN_BLOCKS_3 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(1) block(BLOCK_SIZE_3)
#pragma kt arg x __half[n] in
#pragma kt arg y float[n] out
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_3 > 0
__launch_bounds__(BLOCK_SIZE_3, MIN_BLOCKS_3)
#endif
widen(const __half *__restrict__ x, float *__restrict__ y,
		      int n)
{
	if constexpr (VEC_3 == 1)
		for (int i = threadIdx.x; i < n; i += blockDim.x)
			y[i] = __half2float(x[i]) * 2.f;
	else {
		const bool kt_aligned = (reinterpret_cast<size_t>(&y[0]) % (VEC_3 * sizeof(float))) == 0 && (reinterpret_cast<size_t>(&x[0]) % (VEC_3 * sizeof(__half))) == 0;
		const int kt_nvec = kt_aligned ? (int)((n) / VEC_3) : 0;
		for (int kt_v = threadIdx.x; kt_v < kt_nvec; kt_v += blockDim.x) {
			float kt_y[VEC_3];
			__half kt_x[VEC_3];
			*reinterpret_cast<typename kt_vec<VEC_3 * sizeof(__half)>::t *>(kt_x) = *reinterpret_cast<const typename kt_vec<VEC_3 * sizeof(__half)>::t *>(&x[(0) + kt_v * VEC_3]);
#pragma unroll
			for (int kt_e = 0; kt_e < VEC_3; kt_e++) {
				const int i = kt_v * VEC_3 + kt_e;
				(void)i;
				kt_y[kt_e] = __half2float(kt_x[kt_e]) * 2.f;
			}
			*reinterpret_cast<typename kt_vec<VEC_3 * sizeof(float)>::t *>(&y[(0) + kt_v * VEC_3]) = *reinterpret_cast<typename kt_vec<VEC_3 * sizeof(float)>::t *>(kt_y);
		}
		for (int i = kt_nvec * VEC_3 + (threadIdx.x); i < (n); i += blockDim.x)
			y[i] = __half2float(x[i]) * 2.f;
	}
}

#ifndef __CUDACC_RTC__
void run(const __nv_bfloat16 *x, __nv_fp8_e4m3 *q, const float *f, int *k,
	 const __half *h, float *w, int n)
{
	to_fp8<<<1, BLOCK_SIZE>>>(x, q, 0.5f, n);
	round_to_int<<<1, BLOCK_SIZE_2>>>(f, k, n);
	widen<<<1, BLOCK_SIZE_3>>>(h, w, n);
}
#endif
