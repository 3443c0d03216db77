// residual_add: out[row, :] = x[row, :] + r[row, :] for half rows, one block
// of 128 threads per row walking the row element by element.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 128
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

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param VEC values(1, 2, 4, 8) default(1)
#pragma kt constraint hidden % VEC == 0
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem hidden values(?)
#pragma kt launch grid(rows) block(BLOCK_SIZE)
#pragma kt arg out half[rows * hidden] out
#pragma kt arg x half[rows * hidden] in
#pragma kt arg r half[rows * hidden] in
#pragma kt arg hidden int = hidden
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
residual_add_kernel(half *__restrict__ out,
				    const half *__restrict__ x,
				    const half *__restrict__ r, int hidden)
{
	const size_t row = (size_t)blockIdx.x * hidden;
	if constexpr (VEC == 1)
		for (int i = threadIdx.x; i < hidden; i += BLOCK_SIZE)
			out[row + i] = __hadd(x[row + i], r[row + i]);
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&out[row]) | reinterpret_cast<size_t>(&x[row]) | reinterpret_cast<size_t>(&r[row])) % (VEC * 2)) == 0;
		const int kt_nvec = kt_aligned ? (int)((hidden) / VEC) : 0;
		for (int kt_v = threadIdx.x; kt_v < kt_nvec; kt_v += BLOCK_SIZE) {
			half kt_out[VEC];
			half kt_x[VEC];
			half kt_r[VEC];
			*reinterpret_cast<typename kt_vec<VEC * 2>::t *>(kt_x) = *reinterpret_cast<const typename kt_vec<VEC * 2>::t *>(&x[(row) + kt_v * VEC]);
			*reinterpret_cast<typename kt_vec<VEC * 2>::t *>(kt_r) = *reinterpret_cast<const typename kt_vec<VEC * 2>::t *>(&r[(row) + kt_v * VEC]);
#pragma unroll
			for (int kt_e = 0; kt_e < VEC; kt_e++) {
				const int i = kt_v * VEC + kt_e;
				(void)i;
				kt_out[kt_e] = __hadd(kt_x[kt_e], kt_r[kt_e]);
			}
			*reinterpret_cast<typename kt_vec<VEC * 2>::t *>(&out[(row) + kt_v * VEC]) = *reinterpret_cast<typename kt_vec<VEC * 2>::t *>(kt_out);
		}
		for (int i = kt_nvec * VEC + (threadIdx.x); i < (hidden); i += BLOCK_SIZE)
			out[row + i] = __hadd(x[row + i], r[row + i]);
	}
}

#ifndef __CUDACC_RTC__
void residual_add(half *out, const half *x, const half *r, int rows,
		  int hidden, cudaStream_t stream)
{
	residual_add_kernel<<<rows, BLOCK_SIZE, 0, stream>>>(out, x, r, hidden);
}
#endif
