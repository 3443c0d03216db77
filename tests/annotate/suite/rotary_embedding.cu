// rotary_embedding.cu - NeoX-style rotary position embedding, in place on
// the bf16 query [tokens, qheads, dim] and key [tokens, kheads, dim]: for
// each head, element r < dim / 2 pairs with r + dim / 2 and the pair turns
// by the angle of (position, r), read from an fp32 cache [pos][dim] holding
// dim / 2 cosines then dim / 2 sines. In the style of the rotary kernel
// SGLang took from vLLM: one block per token, min(qheads * dim / 2, 512)
// threads, each thread one pair at a time with 2-byte loads.
#include <cuda_bf16.h>

__device__ __forceinline__ void rotate_pair(__nv_bfloat16 *x, const float *cache,
					    int r, int embed)
{
	const float c = cache[r], s = cache[embed + r];
	const float a = __bfloat162float(x[r]), b = __bfloat162float(x[embed + r]);
	x[r] = __float2bfloat16(a * c - b * s);
	x[embed + r] = __float2bfloat16(b * c + a * s);
}

extern "C" __global__ void rotary_embedding_kernel(const long *__restrict__ positions,
						   __nv_bfloat16 *__restrict__ query,
						   __nv_bfloat16 *__restrict__ key,
						   const float *__restrict__ cache,
						   int dim, int qheads, int kheads)
{
	const long t = blockIdx.x;
	const float *row = cache + positions[t] * dim;
	const int embed = dim / 2;
	for (int i = threadIdx.x; i < qheads * embed; i += blockDim.x)
		rotate_pair(query + (t * qheads + i / embed) * dim, row, i % embed, embed);
	for (int i = threadIdx.x; i < kheads * embed; i += blockDim.x)
		rotate_pair(key + (t * kheads + i / embed) * dim, row, i % embed, embed);
}

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>

// dim even; positions index rows of cache.
static cudaError_t rotary_embedding(const long *positions, __nv_bfloat16 *query,
				    __nv_bfloat16 *key, const float *cache,
				    int tokens, int qheads, int kheads, int dim,
				    cudaStream_t stream)
{
	if (dim % 2 || tokens <= 0)
		return cudaErrorInvalidValue;
	const int pairs = qheads * dim / 2;
	rotary_embedding_kernel<<<tokens, pairs < 512 ? pairs : 512, 0, stream>>>(
		positions, query, key, cache, dim, qheads, kheads);
	return cudaGetLastError();
}
#endif
