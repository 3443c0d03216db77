// silu_and_mul: out[t, i] = silu(x[t, i]) * x[t, d + i] for bf16 rows of
// 2 * d elements, one block of 256 threads per token, 16-byte vectors.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#ifndef __CUDACC_RTC__
#include <cstdint>
#elif !defined(KTC_RTC_HEADERS_GIVEN)
#include <cuda/std/cstdint>
#endif

#ifndef VEC_ELEMS
#define VEC_ELEMS 8
#endif

__device__ __forceinline__ float silu(float x)
{
	return x / (1.0f + __expf(-x));
}

#pragma kt param VEC_ELEMS values(8) default(8)
#pragma kt problem num_tokens values(4096)
#pragma kt problem d values(14336)
#pragma kt launch grid(num_tokens) block(256)
#pragma kt arg out bf16[num_tokens * d] out
#pragma kt arg input bf16[num_tokens * 2 * d] in
#pragma kt arg d int = d
__global__ void silu_and_mul_kernel(__nv_bfloat16 *__restrict__ out,
				    const __nv_bfloat16 *__restrict__ input,
				    const int d)
{
	const int64_t token = blockIdx.x;
	const __nv_bfloat16 *x = input + token * 2 * d;
	const __nv_bfloat16 *y = x + d;
	__nv_bfloat16 *o = out + token * d;
	const int nvec = d / 8;
	for (int i = threadIdx.x; i < nvec; i += 256) {
		uint4 xv = reinterpret_cast<const uint4 *>(x)[i];
		uint4 yv = reinterpret_cast<const uint4 *>(y)[i];
		uint4 ov;
		const __nv_bfloat16 *xa = reinterpret_cast<const __nv_bfloat16 *>(&xv);
		const __nv_bfloat16 *ya = reinterpret_cast<const __nv_bfloat16 *>(&yv);
		__nv_bfloat16 *oa = reinterpret_cast<__nv_bfloat16 *>(&ov);
#pragma unroll
		for (int k = 0; k < 8; k++)
			oa[k] = __float2bfloat16(silu(__bfloat162float(xa[k])) *
						 __bfloat162float(ya[k]));
		reinterpret_cast<uint4 *>(o)[i] = ov;
	}
	// the tail that does not fill a vector
	for (int i = nvec * VEC_ELEMS + threadIdx.x; i < d; i += 256)
		o[i] = __float2bfloat16(silu(__bfloat162float(x[i])) *
					__bfloat162float(y[i]));
}

#ifndef __CUDACC_RTC__
void silu_and_mul(__nv_bfloat16 *out, const __nv_bfloat16 *input,
		  int64_t num_tokens, int d, cudaStream_t stream)
{
	dim3 grid(num_tokens);
	dim3 block(256);
	silu_and_mul_kernel<<<grid, block, 0, stream>>>(out, input, d);
}
#endif
