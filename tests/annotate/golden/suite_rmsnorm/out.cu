// rmsnorm.cu - RMSNorm of bf16 rows: out = x * rsqrt(mean(x^2) + eps) * w.
// Written in the style of SGLang's AOT norm kernels (FlashInfer's RMSNorm):
// one block per token, 16-byte vectors, min(d / 8, 1024) threads rounded up
// to whole warps, the sum of squares reduced through warp shuffles and 32
// floats of shared memory, then a second pass that reads the row again.
#include <cuda_bf16.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 1024
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(1024)
// ktc: complete and uncomment: #pragma kt problem tokens values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(tokens) block((((d / 8 < BLOCK_SIZE ? d / 8 : BLOCK_SIZE) + 31) / 32 * 32))
// ktc: complete and uncomment: #pragma kt arg out __nv_bfloat16[?] out
// ktc: complete and uncomment: #pragma kt arg in __nv_bfloat16[?] in
// ktc: complete and uncomment: #pragma kt arg w __nv_bfloat16[?] in
#pragma kt arg d int = d
// ktc: complete and uncomment: #pragma kt arg eps float = ?
extern "C" __global__ void rmsnorm_kernel(__nv_bfloat16 *__restrict__ out,
					  const __nv_bfloat16 *__restrict__ in,
					  const __nv_bfloat16 *__restrict__ w, int d,
					  float eps)
{
	const long t = blockIdx.x;
	const uint4 *x = reinterpret_cast<const uint4 *>(in + t * d);
	const uint4 *wv = reinterpret_cast<const uint4 *>(w);
	uint4 *o = reinterpret_cast<uint4 *>(out + t * d);
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	__shared__ float partial[32];

	float ss = 0.f;
	for (int i = threadIdx.x; i < d / 8; i += blockDim.x) {
		uint4 v = x[i];
		const __nv_bfloat162 *p = reinterpret_cast<const __nv_bfloat162 *>(&v);
#pragma unroll
		for (int k = 0; k < 4; k++) {
			float2 f = __bfloat1622float2(p[k]);
			ss += f.x * f.x + f.y * f.y;
		}
	}
#pragma unroll
	for (int off = 16; off > 0; off /= 2)
		ss += __shfl_xor_sync(0xffffffff, ss, off);
	if (lane == 0)
		partial[warp] = ss;
	__syncthreads();
	if (warp == 0) {
		ss = lane < blockDim.x / 32 ? partial[lane] : 0.f;
#pragma unroll
		for (int off = 16; off > 0; off /= 2)
			ss += __shfl_xor_sync(0xffffffff, ss, off);
		if (lane == 0)
			partial[0] = rsqrtf(ss / d + eps);
	}
	__syncthreads();
	const float r = partial[0];

	for (int i = threadIdx.x; i < d / 8; i += blockDim.x) {
		uint4 v = x[i], g = wv[i], ov;
		const __nv_bfloat162 *p = reinterpret_cast<const __nv_bfloat162 *>(&v);
		const __nv_bfloat162 *q = reinterpret_cast<const __nv_bfloat162 *>(&g);
		__nv_bfloat162 *op = reinterpret_cast<__nv_bfloat162 *>(&ov);
#pragma unroll
		for (int k = 0; k < 4; k++) {
			float2 f = __bfloat1622float2(p[k]), s = __bfloat1622float2(q[k]);
			op[k] = __floats2bfloat162_rn(f.x * r * s.x, f.y * r * s.y);
		}
		o[i] = ov;
	}
}

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>

// d must be a multiple of 8 (whole 16-byte vectors, aligned rows).
static cudaError_t rmsnorm(__nv_bfloat16 *out, const __nv_bfloat16 *in,
			   const __nv_bfloat16 *w, int tokens, int d, float eps,
			   cudaStream_t stream)
{
	if (d % 8 || tokens <= 0)
		return cudaErrorInvalidValue;
	int threads = d / 8 < BLOCK_SIZE ? d / 8 : BLOCK_SIZE;
	threads = (threads + 31) / 32 * 32;
	rmsnorm_kernel<<<tokens, threads, 0, stream>>>(out, in, w, d, eps);
	return cudaGetLastError();
}
#endif
