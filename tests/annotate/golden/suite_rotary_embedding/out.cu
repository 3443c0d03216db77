// rotary_embedding.cu - NeoX-style rotary position embedding, in place on
// the bf16 query [tokens, qheads, dim] and key [tokens, kheads, dim]: for
// each head, element r < dim / 2 pairs with r + dim / 2 and the pair turns
// by the angle of (position, r), read from an fp32 cache [pos][dim] holding
// dim / 2 cosines then dim / 2 sines. In the style of the rotary kernel
// SGLang took from vLLM: one block per token, min(qheads * dim / 2, 512)
// threads, each thread one pair at a time with 2-byte loads.
#include <cuda_bf16.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 512
#endif

__device__ __forceinline__ void rotate_pair(__nv_bfloat16 *x, const float *cache,
					    int r, int embed)
{
	const float c = cache[r], s = cache[embed + r];
	const float a = __bfloat162float(x[r]), b = __bfloat162float(x[embed + r]);
	x[r] = __float2bfloat16(a * c - b * s);
	x[embed + r] = __float2bfloat16(b * c + a * s);
}

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(512)
// ktc: complete and uncomment: #pragma kt problem tokens values(?)
// ktc: complete and uncomment: #pragma kt problem qheads values(?)
// ktc: complete and uncomment: #pragma kt problem dim values(?)
// ktc: complete and uncomment: #pragma kt problem kheads values(?)
#pragma kt launch grid(tokens) block((qheads * dim / 2) < BLOCK_SIZE ? (qheads * dim / 2) : BLOCK_SIZE)
// ktc: complete and uncomment: #pragma kt arg positions long[?] in
// ktc: complete and uncomment: #pragma kt arg query __nv_bfloat16[?] in
// ktc: complete and uncomment: #pragma kt arg key __nv_bfloat16[?] in
// ktc: complete and uncomment: #pragma kt arg cache float[?] in
#pragma kt arg dim int = dim
#pragma kt arg qheads int = qheads
#pragma kt arg kheads int = kheads
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
	rotary_embedding_kernel<<<tokens, pairs < BLOCK_SIZE ? pairs : BLOCK_SIZE, 0, stream>>>(
		positions, query, key, cache, dim, qheads, kheads);
	return cudaGetLastError();
}
#endif
