// per_tensor_quant_fp8.cu - fp8 (e4m3) quantisation of a bf16 tensor with
// one scale for all of it, in two launches as SGLang's AOT
// per_tensor_quant_fp8: the first finds scale = max|x| / 448 (block
// reduction, then an atomic max on the float's bits, which order like the
// non-negative floats they are), the second writes q = fp8(clamp(x / scale))
// as x * (1 / scale). Both: 256 threads, min(div_ceil(n, 256), 1024) blocks
// (the formula counts elements, not vectors), a grid-stride loop over
// 16-byte vectors; the quantise pass takes 16 elements (two loads, one
// 16-byte store) per step.
#include <cuda_bf16.h>
#include <cuda_fp8.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 256
#endif

__device__ __forceinline__ float warp_max(float v)
{
#pragma unroll
	for (int off = 16; off > 0; off /= 2)
		v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, off));
	return v;
}

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) < 1024 ? ((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) : 1024)) block(BLOCK_SIZE)
// ktc: complete and uncomment: #pragma kt arg in __nv_bfloat16[?] in
// ktc: complete and uncomment: #pragma kt arg scale float[?] in
#pragma kt arg n long = n
extern "C" __global__ void per_tensor_absmax_kernel(const __nv_bfloat16 *__restrict__ in,
						    float *__restrict__ scale, long n)
{
	__shared__ float partial[32];
	const long tid = (long)blockIdx.x * blockDim.x + threadIdx.x;
	const long stride = (long)gridDim.x * blockDim.x;
	const uint4 *x = reinterpret_cast<const uint4 *>(in);
	float m = 0.f;
	for (long i = tid; i < n / 8; i += stride) {
		uint4 v = x[i];
		const __nv_bfloat162 *p = reinterpret_cast<const __nv_bfloat162 *>(&v);
#pragma unroll
		for (int k = 0; k < 4; k++) {
			float2 f = __bfloat1622float2(p[k]);
			m = fmaxf(m, fmaxf(fabsf(f.x), fabsf(f.y)));
		}
	}
	for (long i = n / 8 * 8 + tid; i < n; i += stride)
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

#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) < 1024 ? ((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) : 1024)) block(BLOCK_SIZE_2)
// ktc: complete and uncomment: #pragma kt arg in __nv_bfloat16[?] in
// ktc: complete and uncomment: #pragma kt arg q __nv_fp8_e4m3[?] inout
// ktc: complete and uncomment: #pragma kt arg scale float[?] in
#pragma kt arg n long = n
extern "C" __global__ void per_tensor_quant_fp8_kernel(const __nv_bfloat16 *__restrict__ in,
						       __nv_fp8_e4m3 *__restrict__ q,
						       const float *__restrict__ scale,
						       long n)
{
	const float inv = 1.0f / *scale;
	const long tid = (long)blockIdx.x * blockDim.x + threadIdx.x;
	const long stride = (long)gridDim.x * blockDim.x;
	const uint4 *x = reinterpret_cast<const uint4 *>(in);
	uint4 *o = reinterpret_cast<uint4 *>(q);
	for (long i = tid; i < n / 16; i += stride) {
		uint4 v[2] = {x[2 * i], x[2 * i + 1]}, w;
		const __nv_bfloat16 *p = reinterpret_cast<const __nv_bfloat16 *>(v);
		unsigned char *c = reinterpret_cast<unsigned char *>(&w);
#pragma unroll
		for (int k = 0; k < 16; k++)
			c[k] = to_fp8(__bfloat162float(p[k]), inv);
		o[i] = w;
	}
	for (long i = n / 16 * 16 + tid; i < n; i += stride)
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
	const long blocks = (n + (BLOCK_SIZE - 1)) / BLOCK_SIZE;
	const int grid = blocks < 1024 ? (int)blocks : 1024;
	cudaError_t e = cudaMemsetAsync(scale, 0, sizeof(float), stream);
	if (e != cudaSuccess)
		return e;
	per_tensor_absmax_kernel<<<grid, BLOCK_SIZE, 0, stream>>>(in, scale, n);
	per_tensor_quant_fp8_kernel<<<grid, BLOCK_SIZE_2, 0, stream>>>(in, q, scale, n);
	return cudaGetLastError();
}
#endif
