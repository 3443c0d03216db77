// per_tensor_quant_fp8.kt.cu - the template of per_tensor_quant_fp8.cu (see
// there for what it computes); its two kernels are tuned apart
// (`ktc tune -k NAME`). Parameters, each defaulting to the literal it
// replaced:
//   absmax pass:   A_BLOCK threads per block (256), A_VEC bf16 per load
//                  (8: 16 bytes), A_ITEMS loads in flight per thread before
//                  any is used (1), A_CAP the most blocks (1024)
//   quantise pass: Q_BLOCK (256), Q_ELEMS elements per step (16: two 16-byte
//                  loads, one 16-byte store), Q_ITEMS steps whose loads are
//                  issued together (1), Q_CAP (1024)
// The number of blocks stays min(div_ceil(n, BLOCK), CAP), as written.
// Written by hand (ktc annotate was not there yet) following its
// conventions; lines that go beyond replacing a literal say "hand:".
#include <cuda_bf16.h>
#include <cuda_fp8.h>

#ifndef A_BLOCK
#define A_BLOCK 256
#endif
#ifndef A_VEC
#define A_VEC 8
#endif
#ifndef A_ITEMS
#define A_ITEMS 1
#endif
#ifndef A_CAP
#define A_CAP 1024
#endif
#ifndef Q_BLOCK
#define Q_BLOCK 256
#endif
#ifndef Q_ELEMS
#define Q_ELEMS 16
#endif
#ifndef Q_ITEMS
#define Q_ITEMS 1
#endif
#ifndef Q_CAP
#define Q_CAP 1024
#endif

// hand: A_VEC bf16, Q_ELEMS bf16 and Q_ELEMS fp8 codes, each moved as
// whole integer words (a struct of bf16 pairs or of bytes would be copied
// piecewise)
template <int BYTES> struct kt_word;
template <> struct kt_word<8> { typedef uint2 type; };
template <> struct kt_word<16> { typedef uint4 type; };
typedef kt_word<2 * A_VEC>::type pt_aword;
union pt_avec {
	pt_aword w;
	__nv_bfloat162 h[A_VEC / 2];
};
struct pt_qin {
	uint4 u[Q_ELEMS / 8];
};
typedef kt_word<Q_ELEMS < 16 ? Q_ELEMS : 16>::type pt_qword;
union pt_qout {
	pt_qword w[Q_ELEMS < 16 ? 1 : Q_ELEMS / 16];
	unsigned char c[Q_ELEMS];
};

__device__ __forceinline__ float warp_max(float v)
{
#pragma unroll
	for (int off = 16; off > 0; off /= 2)
		v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, off));
	return v;
}

#pragma kt param A_BLOCK values(128, 256, 512, 1024) default(256)
#pragma kt param A_VEC values(4, 8) default(8)
#pragma kt param A_ITEMS values(1, 2, 4, 8) default(1)
#pragma kt param A_CAP values(256, 512, 1024, 2048, 4096, 8192) default(1024)
#pragma kt problem T values(1, 64, 4096, 16384) default(4096)
#pragma kt problem D values(8192, 7168) default(8192)
#pragma kt launch grid(min(div_ceil(T * D, A_BLOCK), A_CAP)) block(A_BLOCK)
#pragma kt arg in bf16[T * D] in init(random(-8, 8))
#pragma kt arg scale f32[1] inout init(zeros)
#pragma kt arg n i64 = T * D
#pragma kt verify rtol(0) atol(0)
#pragma kt objective bandwidth(T * D * 2)
extern "C" __global__ void __launch_bounds__(A_BLOCK)
per_tensor_absmax_kernel(const __nv_bfloat16 *__restrict__ in,
			 float *__restrict__ scale, long n)
{
	__shared__ float partial[32];
	const long tid = (long)blockIdx.x * blockDim.x + threadIdx.x;
	const long stride = (long)gridDim.x * blockDim.x;
	const pt_aword *x = reinterpret_cast<const pt_aword *>(in);
	float m = 0.f;
	for (long i = tid; i < n / A_VEC; i += stride * A_ITEMS) {
		pt_avec v[A_ITEMS]; // hand: A_ITEMS loads in flight
#pragma unroll
		for (int j = 0; j < A_ITEMS; j++)
			if (i + j * stride < n / A_VEC)
				v[j].w = x[i + j * stride];
#pragma unroll
		for (int j = 0; j < A_ITEMS; j++)
			if (i + j * stride < n / A_VEC)
#pragma unroll
				for (int k = 0; k < A_VEC / 2; k++) {
					float2 f = __bfloat1622float2(v[j].h[k]);
					m = fmaxf(m, fmaxf(fabsf(f.x), fabsf(f.y)));
				}
	}
	for (long i = n / A_VEC * A_VEC + tid; i < n; i += stride)
		m = fmaxf(m, fabsf(__bfloat162float(in[i])));
	m = warp_max(m);
	if (threadIdx.x % 32 == 0)
		partial[threadIdx.x / 32] = m;
	__syncthreads();
	if (threadIdx.x < 32) {
		m = warp_max(threadIdx.x < blockDim.x / 32 ? partial[threadIdx.x] : 0.f);
		if (threadIdx.x == 0)
			atomicMax(reinterpret_cast<int *>(scale), __float_as_int(m / 448.f));
	}
}

__device__ __forceinline__ unsigned char to_fp8(float x, float inv)
{
	float y = fminf(fmaxf(x * inv, -448.f), 448.f);
	return __nv_cvt_float_to_fp8(y, __NV_SATFINITE, __NV_E4M3);
}

#pragma kt param Q_BLOCK values(128, 256, 512, 1024) default(256)
#pragma kt param Q_ELEMS values(8, 16, 32) default(16)
#pragma kt param Q_ITEMS values(1, 2, 4) default(1)
#pragma kt param Q_CAP values(256, 512, 1024, 2048, 4096, 8192) default(1024)
#pragma kt problem T values(1, 64, 4096, 16384) default(4096)
#pragma kt problem D values(8192, 7168) default(8192)
#pragma kt constraint Q_ELEMS * Q_ITEMS <= 64
#pragma kt launch grid(min(div_ceil(T * D, Q_BLOCK), Q_CAP)) block(Q_BLOCK)
#pragma kt arg in bf16[T * D] in init(random(-8, 8))
#pragma kt arg q fp8e4m3[T * D] out
#pragma kt arg scale f32[1] in init(value(0.02))
#pragma kt arg n i64 = T * D
#pragma kt verify rtol(0) atol(0)
#pragma kt objective bandwidth(T * D * 3)
extern "C" __global__ void __launch_bounds__(Q_BLOCK)
per_tensor_quant_fp8_kernel(const __nv_bfloat16 *__restrict__ in,
			    __nv_fp8_e4m3 *__restrict__ q,
			    const float *__restrict__ scale, long n)
{
	const float inv = 1.0f / *scale;
	const long tid = (long)blockIdx.x * blockDim.x + threadIdx.x;
	const long stride = (long)gridDim.x * blockDim.x;
	const uint4 *x = reinterpret_cast<const uint4 *>(in);
	pt_qword *o = reinterpret_cast<pt_qword *>(q);
	constexpr int kIn = Q_ELEMS / 8, kOut = Q_ELEMS < 16 ? 1 : Q_ELEMS / 16;
	for (long i = tid; i < n / Q_ELEMS; i += stride * Q_ITEMS) {
		pt_qin v[Q_ITEMS]; // hand: Q_ITEMS steps of loads in flight
#pragma unroll
		for (int j = 0; j < Q_ITEMS; j++)
			if (i + j * stride < n / Q_ELEMS)
#pragma unroll
				for (int u = 0; u < kIn; u++)
					v[j].u[u] = x[(i + j * stride) * kIn + u];
#pragma unroll
		for (int j = 0; j < Q_ITEMS; j++) {
			if (i + j * stride >= n / Q_ELEMS)
				break;
			const __nv_bfloat16 *p = reinterpret_cast<const __nv_bfloat16 *>(&v[j]);
			pt_qout w;
#pragma unroll
			for (int k = 0; k < Q_ELEMS; k++)
				w.c[k] = to_fp8(__bfloat162float(p[k]), inv);
#pragma unroll
			for (int u = 0; u < kOut; u++)
				o[(i + j * stride) * kOut + u] = w.w[u];
		}
	}
	for (long i = n / Q_ELEMS * Q_ELEMS + tid; i < n; i += stride)
		q[i].__x = to_fp8(__bfloat162float(in[i]), inv);
}

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>

// Both passes; scale is one float of device memory.
static cudaError_t per_tensor_quant_fp8(const __nv_bfloat16 *in, __nv_fp8_e4m3 *q,
					float *scale, long n, cudaStream_t stream)
{
	if (n <= 0)
		return cudaErrorInvalidValue;
	const long ab = (n + A_BLOCK - 1) / A_BLOCK;
	const long qb = (n + Q_BLOCK - 1) / Q_BLOCK;
	cudaError_t e = cudaMemsetAsync(scale, 0, sizeof(float), stream);
	if (e != cudaSuccess)
		return e;
	per_tensor_absmax_kernel<<<ab < A_CAP ? ab : A_CAP, A_BLOCK, 0, stream>>>(
		in, scale, n);
	per_tensor_quant_fp8_kernel<<<qb < Q_CAP ? qb : Q_CAP, Q_BLOCK, 0, stream>>>(
		in, q, scale, n);
	return cudaGetLastError();
}
#endif
