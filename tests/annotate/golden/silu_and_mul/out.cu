// silu_and_mul: out[t, i] = silu(x[t, i]) * x[t, d + i] for bf16 rows of
// 2 * d elements, one block of 256 threads per token, 16-byte vectors.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#ifndef __CUDACC_RTC__
#include <cstdint>
#elif !defined(KTC_RTC_HEADERS_GIVEN)
#include <cuda/std/cstdint>
#endif

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

__device__ __forceinline__ float silu(float x)
{
	return x / (1.0f + __expf(-x));
}

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem num_tokens values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(num_tokens) block(BLOCK_SIZE)
// ktc: complete and uncomment: #pragma kt arg out __nv_bfloat16[?] out
// ktc: complete and uncomment: #pragma kt arg input __nv_bfloat16[?] in
#pragma kt arg d int = d
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
silu_and_mul_kernel(__nv_bfloat16 *__restrict__ out,
				    const __nv_bfloat16 *__restrict__ input,
				    const int d)
{
	const int64_t token = blockIdx.x;
	const __nv_bfloat16 *x = input + token * 2 * d;
	const __nv_bfloat16 *y = x + d;
	__nv_bfloat16 *o = out + token * d;
	const int nvec = d / 8;
	for (int i = threadIdx.x; i < nvec; i += BLOCK_SIZE) {
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
	for (int i = nvec * 8 + threadIdx.x; i < d; i += BLOCK_SIZE)
		o[i] = __float2bfloat16(silu(__bfloat162float(x[i])) *
					__bfloat162float(y[i]));
}

#ifndef __CUDACC_RTC__
void silu_and_mul(__nv_bfloat16 *out, const __nv_bfloat16 *input,
		  int64_t num_tokens, int d, cudaStream_t stream)
{
	dim3 grid(num_tokens);
	dim3 block(BLOCK_SIZE);
	silu_and_mul_kernel<<<grid, block, 0, stream>>>(out, input, d);
}
#endif
