// fused_add_rmsnorm.cu - the residual add and RMSNorm between two layers,
// in place on bf16 rows: x = in + residual (float); residual = x; in = x *
// rsqrt(mean(x^2) + eps) * w. Written in the style of SGLang's AOT
// fused_add_rmsnorm (FlashInfer's): one block per token, 16-byte vectors,
// min(d / 8, 1024) threads rounded up to whole warps, x kept in float in
// dynamic shared memory ((32 + d) floats) between the two passes.
#include <cuda_bf16.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 1024
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(1024)
// ktc: complete and uncomment: #pragma kt problem tokens values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(tokens) block((((d / 8 < BLOCK_SIZE ? d / 8 : BLOCK_SIZE) + 31) / 32 * 32)) smem(((32 + d) * 4))
// ktc: complete and uncomment: #pragma kt arg in __nv_bfloat16[?] inout
// ktc: complete and uncomment: #pragma kt arg residual __nv_bfloat16[?] inout
// ktc: complete and uncomment: #pragma kt arg w __nv_bfloat16[?] in
#pragma kt arg d int = d
// ktc: complete and uncomment: #pragma kt arg eps float = ?
extern "C" __global__ void fused_add_rmsnorm_kernel(__nv_bfloat16 *__restrict__ in,
						    __nv_bfloat16 *__restrict__ residual,
						    const __nv_bfloat16 *__restrict__ w,
						    int d, float eps)
{
	extern __shared__ float smem[];
	float *partial = smem, *xs = smem + 32;
	const long t = blockIdx.x;
	uint4 *x = reinterpret_cast<uint4 *>(in + t * d);
	uint4 *res = reinterpret_cast<uint4 *>(residual + t * d);
	const uint4 *wv = reinterpret_cast<const uint4 *>(w);
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

	float ss = 0.f;
	for (int i = threadIdx.x; i < d / 8; i += blockDim.x) {
		uint4 a = x[i], b = res[i], s;
		const __nv_bfloat162 *ap = reinterpret_cast<const __nv_bfloat162 *>(&a);
		const __nv_bfloat162 *bp = reinterpret_cast<const __nv_bfloat162 *>(&b);
		__nv_bfloat162 *sp = reinterpret_cast<__nv_bfloat162 *>(&s);
#pragma unroll
		for (int k = 0; k < 4; k++) {
			float2 f = __bfloat1622float2(ap[k]), g = __bfloat1622float2(bp[k]);
			float u = f.x + g.x, v = f.y + g.y;
			ss += u * u + v * v;
			xs[i * 8 + 2 * k] = u;
			xs[i * 8 + 2 * k + 1] = v;
			sp[k] = __floats2bfloat162_rn(u, v);
		}
		res[i] = s;
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
		uint4 g = wv[i], ov;
		const __nv_bfloat162 *q = reinterpret_cast<const __nv_bfloat162 *>(&g);
		__nv_bfloat162 *op = reinterpret_cast<__nv_bfloat162 *>(&ov);
#pragma unroll
		for (int k = 0; k < 4; k++) {
			float2 s = __bfloat1622float2(q[k]);
			op[k] = __floats2bfloat162_rn(xs[i * 8 + 2 * k] * r * s.x,
						      xs[i * 8 + 2 * k + 1] * r * s.y);
		}
		x[i] = ov;
	}
}

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>

// d must be a multiple of 8 and at most 8192 (the row in shared memory).
static cudaError_t fused_add_rmsnorm(__nv_bfloat16 *in, __nv_bfloat16 *residual,
				     const __nv_bfloat16 *w, int tokens, int d,
				     float eps, cudaStream_t stream)
{
	if (d % 8 || d > 8192 || tokens <= 0)
		return cudaErrorInvalidValue;
	int threads = d / 8 < BLOCK_SIZE ? d / 8 : BLOCK_SIZE;
	threads = (threads + 31) / 32 * 32;
	size_t smem = (32 + d) * sizeof(float);
	fused_add_rmsnorm_kernel<<<tokens, threads, smem, stream>>>(in, residual, w,
								    d, eps);
	return cudaGetLastError();
}
#endif
