// rotary_embedding.cu - NeoX-style rotary position embedding, in place on
// the bf16 query [tokens, qheads, dim] and key [tokens, kheads, dim]: for
// each head, element r < dim / 2 pairs with r + dim / 2 and the pair turns
// by the angle of (position, r), read from an fp32 cache [pos][dim] holding
// dim / 2 cosines then dim / 2 sines. In the style of the rotary kernel
// SGLang took from vLLM: one block per token, min(qheads * dim / 2, 512)
// threads, each thread one pair at a time with 2-byte loads.
//
// hand: the template's parameters, each defaulting to the literal it
// replaced (VEC, HPT and HSPLIT at 1 take the original's code path):
//   BLOCK_SIZE   the cap on threads per block (512)
//   VEC     pairs per thread, adjacent (1: 2-byte loads; 8: 16-byte loads
//           of each half, 32 bytes of each of cos and sin)
//   HPT     heads per thread in flight: a thread keeps one slice of the
//           pair (its cos and sin loaded once) and loads that slice of HPT
//           heads before it rotates and stores them (1)
//   HSPLIT  blocks per token, each taking a share of the heads (1);
//           decode sizes leave most SMs idle with one block per token
// Off the original's path a block is (heads side by side) x (dim / 2 /
// VEC) threads, at most BLOCK_SIZE.
#include <cuda_bf16.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 512
#endif
#ifndef VEC // hand: the pair loop is not a vectorize loop annotate knows
#define VEC 1
#endif
#ifndef HPT // hand: a new loop
#define HPT 1
#endif
#ifndef HSPLIT // hand: a new grid dimension
#define HSPLIT 1
#endif
// hand: the original's code path, and the block's size for the compiler
// off it (the original has none)
#define ROPE_ORIGINAL (VEC == 1 && HPT == 1 && HSPLIT == 1)
#if ROPE_ORIGINAL
#define ROPE_BOUNDS
#else
#define ROPE_BOUNDS __launch_bounds__(BLOCK_SIZE)
#endif

__device__ __forceinline__ void rotate_pair(__nv_bfloat16 *x, const float *cache,
					    int r, int embed)
{
	const float c = cache[r], s = cache[embed + r];
	const float a = __bfloat162float(x[r]), b = __bfloat162float(x[embed + r]);
	x[r] = __float2bfloat16(a * c - b * s);
	x[embed + r] = __float2bfloat16(b * c + a * s);
}

// hand: VEC bf16 and VEC floats, each moved as whole words (a struct of
// bf16 or float elements would be copied element by element)
template <int N> struct kt_vec;
template <> struct kt_vec<2> { typedef unsigned short t; };
template <> struct kt_vec<4> { typedef unsigned int t; };
template <> struct kt_vec<8> { typedef uint2 t; };
template <> struct kt_vec<16> { typedef uint4 t; };
template <> struct kt_vec<32> { typedef uint4 t; };
union rope_h {
	kt_vec<2 * VEC>::t w;
	__nv_bfloat16 v[VEC];
};
union rope_f {
	kt_vec<4 * VEC>::t w[VEC < 8 ? 1 : 2];
	float v[VEC];
};

// hand: the space, the problem sizes (names as the checkers' and the
// benchmark's) and the buffers' lengths, the arguments in the kernel's
// order; off the original's path the block is HG heads side by side, EV
// threads each (one per VEC pairs of a head)
#pragma kt param BLOCK_SIZE values(64, 128, 256, 512, 1024) default(512) // hand: annotate's cap, powers of two only
#pragma kt param VEC values(1, 2, 4, 8) default(1)
#pragma kt param HPT values(1, 2, 4, 8) default(1)
#pragma kt param HSPLIT values(1, 2, 4, 8) default(1)
#pragma kt problem T values(1, 64, 4096, 16384) default(4096)
#pragma kt problem QH values(32)
#pragma kt problem KH values(8)
#pragma kt problem HD values(128)
#pragma kt set ORIG = VEC == 1 && HPT == 1 && HSPLIT == 1
#pragma kt set EV = HD / 2 / VEC
#pragma kt set PER = div_ceil(QH + KH, HSPLIT)
#pragma kt set HG = min(div_ceil(PER, HPT), BLOCK_SIZE / EV)
#pragma kt set THREADS = ORIG ? min(QH * HD / 2, BLOCK_SIZE) : HG * EV
#pragma kt constraint HD % (2 * VEC) == 0 && EV <= BLOCK_SIZE
#pragma kt constraint BLOCK_SIZE == 64 || (ORIG ? QH * HD / 2 : div_ceil(PER, HPT) * EV) > BLOCK_SIZE / 2
#pragma kt launch grid(T, HSPLIT) block(THREADS)
#pragma kt arg positions i64[T] in init(random(0, 4095))
#pragma kt arg query bf16[T * QH * HD] inout
#pragma kt arg key bf16[T * KH * HD] inout
#pragma kt arg cache f32[4096 * HD] in
#pragma kt arg dim int = HD
#pragma kt arg qheads int = QH
#pragma kt arg kheads int = KH
#pragma kt verify rtol(0.02) atol(0.001)
#pragma kt objective bandwidth(2 * T * (QH + KH) * HD * 2 + T * HD * 4 + T * 8)
extern "C" __global__ void ROPE_BOUNDS rotary_embedding_kernel(const long *__restrict__ positions,
						   __nv_bfloat16 *__restrict__ query,
						   __nv_bfloat16 *__restrict__ key,
						   const float *__restrict__ cache,
						   int dim, int qheads, int kheads)
{
#if ROPE_ORIGINAL // hand: the original's code path
	const long t = blockIdx.x;
	const float *row = cache + positions[t] * dim;
	const int embed = dim / 2;
	for (int i = threadIdx.x; i < qheads * embed; i += blockDim.x)
		rotate_pair(query + (t * qheads + i / embed) * dim, row, i % embed, embed);
	for (int i = threadIdx.x; i < kheads * embed; i += blockDim.x)
		rotate_pair(key + (t * kheads + i / embed) * dim, row, i % embed, embed);
#else
	// hand: thread = (head hl, pairs r .. r + VEC - 1); heads of this block
	// [blockIdx.y * per, ...) of the qheads + kheads, query's first
	typedef kt_vec<2 * VEC>::t hw;
	typedef kt_vec<4 * VEC>::t fw;
	const long t = blockIdx.x;
	const int embed = dim / 2, ev = embed / VEC;
	const int r = threadIdx.x % ev * VEC, hl = threadIdx.x / ev, hstep = blockDim.x / ev;
	const int nh = qheads + kheads, per = (nh + HSPLIT - 1) / HSPLIT;
	const int h1 = min(nh, (int)(blockIdx.y + 1) * per);
	rope_f c, s;
	bool have_cs = false;
	for (int h = blockIdx.y * per + hl; h < h1; h += hstep * HPT) {
		rope_h a[HPT], b[HPT];
		__nv_bfloat16 *x[HPT];
#pragma unroll
		for (int k = 0; k < HPT; k++) {
			const int hk = h + k * hstep;
			x[k] = hk < qheads ? query + (t * qheads + hk) * dim + r
					   : key + (t * kheads + hk - qheads) * dim + r;
			if (hk < h1) {
				a[k].w = *reinterpret_cast<const hw *>(x[k]);
				b[k].w = *reinterpret_cast<const hw *>(x[k] + embed);
			}
		}
		// cos and sin after the first heads' loads: those do not wait for
		// the position
		if (!have_cs) {
			const float *row = cache + positions[t] * dim;
#pragma unroll
			for (int k = 0; k < (VEC < 8 ? 1 : 2); k++) {
				c.w[k] = reinterpret_cast<const fw *>(row + r)[k];
				s.w[k] = reinterpret_cast<const fw *>(row + embed + r)[k];
			}
			have_cs = true;
		}
#pragma unroll
		for (int k = 0; k < HPT; k++) {
			if (h + k * hstep >= h1)
				break;
#pragma unroll
			for (int e = 0; e < VEC; e++) {
				const float fa = __bfloat162float(a[k].v[e]);
				const float fb = __bfloat162float(b[k].v[e]);
				a[k].v[e] = __float2bfloat16(fa * c.v[e] - fb * s.v[e]);
				b[k].v[e] = __float2bfloat16(fb * c.v[e] + fa * s.v[e]);
			}
			*reinterpret_cast<hw *>(x[k]) = a[k].w;
			*reinterpret_cast<hw *>(x[k] + embed) = b[k].w;
		}
	}
#endif
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
#if ROPE_ORIGINAL // hand: the original's launch
	const int pairs = qheads * dim / 2;
	rotary_embedding_kernel<<<tokens, pairs < BLOCK_SIZE ? pairs : BLOCK_SIZE, 0, stream>>>(
		positions, query, key, cache, dim, qheads, kheads);
#else
	// hand: dim a multiple of 2 * VEC, one head's slices within BLOCK_SIZE
	const int ev = dim / 2 / VEC, per = (qheads + kheads + HSPLIT - 1) / HSPLIT;
	if (dim % (2 * VEC) || ev > BLOCK_SIZE)
		return cudaErrorInvalidValue;
	const int hg = (per + HPT - 1) / HPT < BLOCK_SIZE / ev ? (per + HPT - 1) / HPT : BLOCK_SIZE / ev;
	dim3 grid(tokens, HSPLIT);
	rotary_embedding_kernel<<<grid, hg * ev, 0, stream>>>(positions, query, key, cache,
							       dim, qheads, kheads);
#endif
	return cudaGetLastError();
}
#endif
