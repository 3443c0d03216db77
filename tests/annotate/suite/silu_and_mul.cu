// silu_and_mul.cu - the gated activation of a SwiGLU MLP on bf16:
// out[t, i] = silu(x[t, i]) * x[t, d + i], x being [tokens, 2 * d] (the gate
// and up halves of the fused projection). Written in the style of SGLang's
// AOT activation kernel: one block per token, 16-byte vectors (8 bf16), at
// most 1024 threads per block, the column loop kept rolled.
#include <cuda_bf16.h>

__device__ __forceinline__ float silu(float x)
{
	return x / (1.0f + __expf(-x));
}

extern "C" __global__ void silu_and_mul_kernel(__nv_bfloat16 *__restrict__ out,
					       const __nv_bfloat16 *__restrict__ in,
					       int d)
{
	const long t = blockIdx.x;
	const uint4 *x = reinterpret_cast<const uint4 *>(in + t * 2 * d);
	const uint4 *y = reinterpret_cast<const uint4 *>(in + t * 2 * d + d);
	uint4 *o = reinterpret_cast<uint4 *>(out + t * d);
#pragma unroll 1
	for (int i = threadIdx.x; i < d / 8; i += blockDim.x) {
		uint4 xv = x[i], yv = y[i], ov;
		const __nv_bfloat162 *xp = reinterpret_cast<const __nv_bfloat162 *>(&xv);
		const __nv_bfloat162 *yp = reinterpret_cast<const __nv_bfloat162 *>(&yv);
		__nv_bfloat162 *op = reinterpret_cast<__nv_bfloat162 *>(&ov);
#pragma unroll
		for (int k = 0; k < 4; k++) {
			float2 a = __bfloat1622float2(xp[k]);
			float2 b = __bfloat1622float2(yp[k]);
			op[k] = __floats2bfloat162_rn(silu(a.x) * b.x, silu(a.y) * b.y);
		}
		o[i] = ov;
	}
}

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>

// d must be a multiple of 8 (whole 16-byte vectors, aligned rows).
static cudaError_t silu_and_mul(__nv_bfloat16 *out, const __nv_bfloat16 *in,
				int tokens, int d, cudaStream_t stream)
{
	if (d % 8 || tokens <= 0)
		return cudaErrorInvalidValue;
	dim3 grid(tokens);
	dim3 block(d / 8 < 1024 ? d / 8 : 1024);
	silu_and_mul_kernel<<<grid, block, 0, stream>>>(out, in, d);
	return cudaGetLastError();
}
#endif
