// merge_attn_states.cu - merges two partial attention results by their
// log-sum-exp (split KV, cascade or prefix-cached attention): per token and
// head, with lse a and b, out = (e^a va + e^b vb) / (e^a + e^b) and
// out_lse = log(e^a + e^b), computed as SGLang's merge_state_v2 does (the
// larger lse subtracted, +inf read as -inf). In its style: 128 threads per
// block, one 16-byte pack (8 bf16) per thread, every thread loading both
// lse values of its head and computing both exponentials itself.
#include <cuda_bf16.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 128
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
// ktc: complete and uncomment: #pragma kt problem tokens values(?)
// ktc: complete and uncomment: #pragma kt problem heads values(?)
// ktc: complete and uncomment: #pragma kt problem dim values(?)
#pragma kt launch grid(((tokens * heads * (dim / 8)) + (BLOCK_SIZE - 1)) / BLOCK_SIZE) block(BLOCK_SIZE)
// ktc: complete and uncomment: #pragma kt arg out __nv_bfloat16[?] in
// ktc: complete and uncomment: #pragma kt arg out_lse float[?] out
// ktc: complete and uncomment: #pragma kt arg va __nv_bfloat16[?] in
// ktc: complete and uncomment: #pragma kt arg sa float[?] in
// ktc: complete and uncomment: #pragma kt arg vb __nv_bfloat16[?] in
// ktc: complete and uncomment: #pragma kt arg sb float[?] in
#pragma kt arg tokens int = tokens
#pragma kt arg heads int = heads
#pragma kt arg dim int = dim
extern "C" __global__ void merge_attn_states_kernel(
	__nv_bfloat16 *__restrict__ out, float *__restrict__ out_lse,
	const __nv_bfloat16 *__restrict__ va, const float *__restrict__ sa,
	const __nv_bfloat16 *__restrict__ vb, const float *__restrict__ sb,
	int tokens, int heads, int dim)
{
	const int packs = dim / 8;
	const long gid = (long)blockIdx.x * BLOCK_SIZE + threadIdx.x;
	if (gid >= (long)tokens * heads * packs)
		return;
	const long th = gid / packs; // token * heads + head
	const int pack = gid % packs;
	float la = sa[th], lb = sb[th];
	la = isinf(la) ? __int_as_float(0xff800000) : la; // -inf
	lb = isinf(lb) ? __int_as_float(0xff800000) : lb;
	const float m = fmaxf(la, lb);
	const float ea = expf(la - m), eb = expf(lb - m), es = ea + eb;
	const float wa = ea / es, wb = eb / es;
	const long off = th * dim + pack * 8;
	uint4 a = *reinterpret_cast<const uint4 *>(va + off);
	uint4 b = *reinterpret_cast<const uint4 *>(vb + off), o;
	const __nv_bfloat162 *ap = reinterpret_cast<const __nv_bfloat162 *>(&a);
	const __nv_bfloat162 *bp = reinterpret_cast<const __nv_bfloat162 *>(&b);
	__nv_bfloat162 *op = reinterpret_cast<__nv_bfloat162 *>(&o);
#pragma unroll
	for (int k = 0; k < 4; k++) {
		float2 x = __bfloat1622float2(ap[k]), y = __bfloat1622float2(bp[k]);
		op[k] = __floats2bfloat162_rn(x.x * wa + y.x * wb, x.y * wa + y.y * wb);
	}
	*reinterpret_cast<uint4 *>(out + off) = o;
	if (pack == 0)
		out_lse[th] = logf(es) + m;
}

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>

// v* are [tokens, heads, dim], s* [tokens, heads]; dim a multiple of 8.
static cudaError_t merge_attn_states(__nv_bfloat16 *out, float *out_lse,
				     const __nv_bfloat16 *va, const float *sa,
				     const __nv_bfloat16 *vb, const float *sb,
				     int tokens, int heads, int dim,
				     cudaStream_t stream)
{
	if (dim % 8 || tokens <= 0 || heads <= 0)
		return cudaErrorInvalidValue;
	const long threads = (long)tokens * heads * (dim / 8);
	merge_attn_states_kernel<<<(threads + (BLOCK_SIZE - 1)) / BLOCK_SIZE, BLOCK_SIZE, 0, stream>>>(
		out, out_lse, va, sa, vb, sb, tokens, heads, dim);
	return cudaGetLastError();
}
#endif
