// rotary_embedding.kt.cu - the template of rotary_embedding.cu (see there
// for what it computes). Parameters, each defaulting to the literal it
// replaced:
//   VEC     pairs per thread, adjacent (1: 2-byte loads; 8: 16-byte loads
//           of each half, 32 bytes of each of cos and sin)
//   BLOCK   the cap on threads per token (512)
//   ROWS    tokens per block (1)
//   HSPLIT  blocks per token, each taking a share of the heads (1);
//           decode sizes leave most SMs idle with one block per token
// Written by hand (ktc annotate was not there yet) following its
// conventions; lines that go beyond replacing a literal say "hand:".
#include <cuda_bf16.h>

#ifndef VEC
#define VEC 1
#endif
#ifndef BLOCK
#define BLOCK 512
#endif
#ifndef ROWS
#define ROWS 1
#endif
#ifndef HSPLIT
#define HSPLIT 1
#endif

// hand: VEC bf16 and VEC floats, each moved as whole words (a struct of
// bf16 or float elements would be copied element by element)
template <int BYTES> struct kt_word;
template <> struct kt_word<2> { typedef unsigned short type; };
template <> struct kt_word<4> { typedef unsigned int type; };
template <> struct kt_word<8> { typedef uint2 type; };
template <> struct kt_word<16> { typedef uint4 type; };
template <> struct kt_word<32> { typedef uint4 type; };
union rope_h {
	kt_word<2 * VEC>::type w;
	__nv_bfloat16 v[VEC];
};
union rope_f {
	kt_word<4 * VEC>::type w[VEC < 8 ? 1 : 2];
	float v[VEC];
};

// hand: VEC pairs from r on
__device__ __forceinline__ void rotate_pairs(__nv_bfloat16 *x, const float *cache,
					     int r, int embed)
{
	typedef kt_word<2 * VEC>::type hw;
	typedef kt_word<4 * VEC>::type fw;
	rope_f c, s;
	rope_h a, b;
#pragma unroll
	for (int k = 0; k < (VEC < 8 ? 1 : 2); k++) {
		c.w[k] = reinterpret_cast<const fw *>(cache + r)[k];
		s.w[k] = reinterpret_cast<const fw *>(cache + embed + r)[k];
	}
	a.w = *reinterpret_cast<const hw *>(x + r);
	b.w = *reinterpret_cast<const hw *>(x + embed + r);
#pragma unroll
	for (int k = 0; k < VEC; k++) {
		const float fa = __bfloat162float(a.v[k]), fb = __bfloat162float(b.v[k]);
		a.v[k] = __float2bfloat16(fa * c.v[k] - fb * s.v[k]);
		b.v[k] = __float2bfloat16(fb * c.v[k] + fa * s.v[k]);
	}
	*reinterpret_cast<hw *>(x + r) = a.w;
	*reinterpret_cast<hw *>(x + embed + r) = b.w;
}

#pragma kt param VEC values(1, 2, 4, 8) default(1)
#pragma kt param BLOCK values(64, 128, 256, 512, 1024) default(512)
#pragma kt param ROWS values(1, 2, 4, 8) default(1)
#pragma kt param HSPLIT values(1, 2, 4, 8) default(1)
#pragma kt problem T values(1, 64, 4096, 16384) default(4096)
#pragma kt problem QH values(32)
#pragma kt problem KH values(8)
#pragma kt problem HD values(128)
#pragma kt set THREADS = min(div_ceil(QH * HD / 2 / VEC, HSPLIT), BLOCK)
#pragma kt constraint HD % (2 * VEC) == 0
#pragma kt constraint THREADS * ROWS <= 1024
#pragma kt launch grid(div_ceil(T, ROWS), HSPLIT) block(THREADS, ROWS)
#pragma kt arg positions i64[T] in init(random(0, 4095))
#pragma kt arg query bf16[T * QH * HD] inout
#pragma kt arg key bf16[T * KH * HD] inout
#pragma kt arg cache f32[4096 * HD] in
#pragma kt arg tokens int = T
#pragma kt arg dim int = HD
#pragma kt arg qheads int = QH
#pragma kt arg kheads int = KH
#pragma kt verify rtol(0.02) atol(0.001)
#pragma kt objective bandwidth(2 * T * (QH + KH) * HD * 2 + T * HD * 4 + T * 8)
extern "C" __global__ void __launch_bounds__(1024)
rotary_embedding_kernel(const long *__restrict__ positions,
			__nv_bfloat16 *__restrict__ query,
			__nv_bfloat16 *__restrict__ key,
			const float *__restrict__ cache, int tokens, int dim,
			int qheads, int kheads)
{
	const long t = (long)blockIdx.x * ROWS + threadIdx.y; // hand: ROWS
	if (t >= tokens)
		return;
	const float *row = cache + positions[t] * dim;
	const int embed = dim / 2, ev = embed / VEC;
	const int qn = qheads * ev, kn = kheads * ev;                // hand:
	const int qper = (qn + HSPLIT - 1) / HSPLIT, kper = (kn + HSPLIT - 1) / HSPLIT;
	const int qhi = min(qn, (int)(blockIdx.y + 1) * qper);      // hand: HSPLIT
	const int khi = min(kn, (int)(blockIdx.y + 1) * kper);      // hand:
	for (int i = blockIdx.y * qper + threadIdx.x; i < qhi; i += blockDim.x)
		rotate_pairs(query + (t * qheads + i / ev) * dim, row, i % ev * VEC, embed);
	for (int i = blockIdx.y * kper + threadIdx.x; i < khi; i += blockDim.x)
		rotate_pairs(key + (t * kheads + i / ev) * dim, row, i % ev * VEC, embed);
}

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>

// dim a multiple of 2 * VEC; positions index rows of cache.
static cudaError_t rotary_embedding(const long *positions, __nv_bfloat16 *query,
				    __nv_bfloat16 *key, const float *cache,
				    int tokens, int qheads, int kheads, int dim,
				    cudaStream_t stream)
{
	if (dim % (2 * VEC) || tokens <= 0)
		return cudaErrorInvalidValue;
	const int per = (qheads * dim / 2 / VEC + HSPLIT - 1) / HSPLIT; // hand:
	const int threads = per < BLOCK ? per : BLOCK;
	if (threads * ROWS > 1024)
		return cudaErrorInvalidConfiguration;
	dim3 grid((tokens + ROWS - 1) / ROWS, HSPLIT), block(threads, ROWS);
	rotary_embedding_kernel<<<grid, block, 0, stream>>>(positions, query, key, cache,
							   tokens, dim, qheads, kheads);
	return cudaGetLastError();
}
#endif
