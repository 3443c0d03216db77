// rmsnorm: y = x / sqrt(mean(x^2) + eps) * w, one block per row, a block
// reduction through warp shuffles and a shared array of per-warp sums.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 512
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
constexpr int kt_unroll_UNROLL = UNROLL;
#ifndef UNROLL_2
#define UNROLL_2 4
#endif
constexpr int kt_unroll_UNROLL_2 = UNROLL_2;
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

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
	for (int offset = 16; offset > 0; offset >>= 1)
		v += __shfl_xor_sync(0xffffffff, v, offset);
	return v;
}

__device__ float block_sum(float v)
{
	__shared__ float partial[32];
	const int lane = threadIdx.x % 32;
	const int warp = threadIdx.x / 32;
	v = warp_sum(v);
	if (lane == 0)
		partial[warp] = v;
	__syncthreads();
	v = threadIdx.x < blockDim.x / 32 ? partial[lane] : 0.0f;
	if (warp == 0)
		v = warp_sum(v);
	return v;
}

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(512)
#pragma kt param UNROLL values(1, 2, 4, 8, 16) default(4)
#pragma kt param UNROLL_2 values(1, 2, 4, 8, 16) default(4)
#pragma kt param VEC values(1, 2, 4, 8) default(1)
#pragma kt constraint hidden % VEC == 0
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem hidden values(?)
#pragma kt launch grid(rows) block(BLOCK_SIZE)
#pragma kt arg out half[rows * hidden] out
#pragma kt arg input half[rows * hidden] in
#pragma kt arg weight half[hidden] in
#pragma kt arg hidden int = hidden
// ktc: complete and uncomment: #pragma kt arg eps float = ?
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
rmsnorm_kernel(half *__restrict__ out,
			       const half *__restrict__ input,
			       const half *__restrict__ weight, int hidden,
			       float eps)
{
	__shared__ float inv_rms;
	const half *x = input + (size_t)blockIdx.x * hidden;
	half *y = out + (size_t)blockIdx.x * hidden;
	float sum = 0.0f;
#pragma unroll kt_unroll_UNROLL
	for (int i = threadIdx.x; i < hidden; i += BLOCK_SIZE) {
		float v = __half2float(x[i]);
		sum += v * v;
	}
	sum = block_sum(sum);
	if (threadIdx.x == 0)
		inv_rms = rsqrtf(sum / hidden + eps);
	__syncthreads();
	if constexpr (VEC == 1)
#pragma unroll kt_unroll_UNROLL_2
		for (int i = threadIdx.x; i < hidden; i += BLOCK_SIZE)
			y[i] = __float2half(__half2float(x[i]) * inv_rms *
					    __half2float(weight[i]));
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&y[0]) | reinterpret_cast<size_t>(&x[0]) | reinterpret_cast<size_t>(&weight[0])) % (VEC * 2)) == 0;
		const int kt_nvec = kt_aligned ? (int)((hidden) / VEC) : 0;
#pragma unroll kt_unroll_UNROLL_2
		for (int kt_v = threadIdx.x; kt_v < kt_nvec; kt_v += BLOCK_SIZE) {
			half kt_y[VEC];
			half kt_x[VEC];
			half kt_weight[VEC];
			*reinterpret_cast<typename kt_vec<VEC * 2>::t *>(kt_x) = *reinterpret_cast<const typename kt_vec<VEC * 2>::t *>(&x[(0) + kt_v * VEC]);
			*reinterpret_cast<typename kt_vec<VEC * 2>::t *>(kt_weight) = *reinterpret_cast<const typename kt_vec<VEC * 2>::t *>(&weight[(0) + kt_v * VEC]);
#pragma unroll
			for (int kt_e = 0; kt_e < VEC; kt_e++) {
				const int i = kt_v * VEC + kt_e;
				(void)i;
				kt_y[kt_e] = __float2half(__half2float(kt_x[kt_e]) * inv_rms *
						    __half2float(kt_weight[kt_e]));
			}
			*reinterpret_cast<typename kt_vec<VEC * 2>::t *>(&y[(0) + kt_v * VEC]) = *reinterpret_cast<typename kt_vec<VEC * 2>::t *>(kt_y);
		}
#pragma unroll kt_unroll_UNROLL_2
		for (int i = kt_nvec * VEC + (threadIdx.x); i < (hidden); i += BLOCK_SIZE)
			y[i] = __float2half(__half2float(x[i]) * inv_rms *
				    __half2float(weight[i]));
	}
}

#ifndef __CUDACC_RTC__
void rmsnorm(half *out, const half *input, const half *weight, int rows,
	     int hidden, float eps, cudaStream_t stream)
{
	rmsnorm_kernel<<<rows, BLOCK_SIZE, 0, stream>>>(out, input, weight, hidden,
						 eps);
}
#endif
