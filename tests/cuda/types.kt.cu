// types.kt.cu - every kind of argument the CUDA backend passes: buffers of
// fp8 (e4m3), f16, bf16, f64, i8, u16, i64, u32 and f32, and scalars of
// i64, f64, u8 and i16 (tests/gpu/test_cuda_gpu.c).
//   DROP 0     the reference: the sum of every input, scaled and shifted
//   DROP 1..8  leaves input DROP out: each must be caught (correctness),
//              so every input arrives filled, and filled with non-zeros
//   DROP 9     writes the scalars' values as literals: it passes only if
//              the scalars arrived as declared (0.5, 3, -7)
#pragma kt param DROP range(0, 9) default(0)
#pragma kt param BLOCK values(128, 256) default(128)
#pragma kt problem N values(65536)
#pragma kt launch grid(div_ceil(N, BLOCK)) block(BLOCK)
#pragma kt arg out f32[N] out
#pragma kt arg a fp8e4m3[N] in
#pragma kt arg b f16[N] in
#pragma kt arg c bf16[N] in
#pragma kt arg d f64[N] in
#pragma kt arg e i8[N] in
#pragma kt arg f u16[N] in
#pragma kt arg g i64[N] in
#pragma kt arg h u32[N] in
#pragma kt arg n i64 = N
#pragma kt arg scale f64 = 0.5
#pragma kt arg shift u8 = 3
#pragma kt arg neg i16 = -7
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#ifndef DROP
#define DROP 0
#endif
#ifndef BLOCK
#define BLOCK 128
#endif

__global__ void types(float *out, const __nv_fp8_e4m3 *a, const __half *b,
		      const __nv_bfloat16 *c, const double *d,
		      const signed char *e, const unsigned short *f,
		      const long long *g, const unsigned *h, long long n,
		      double scale, unsigned char shift, short neg)
{
	long long i = blockIdx.x * (long long)BLOCK + threadIdx.x;
	if (i >= n)
		return;
	float s = 0.0f;
	s += DROP == 1 ? 0.0f : (float)a[i];
	s += DROP == 2 ? 0.0f : __half2float(b[i]);
	s += DROP == 3 ? 0.0f : __bfloat162float(c[i]);
	s += DROP == 4 ? 0.0f : (float)d[i];
	s += DROP == 5 ? 0.0f : (float)e[i];
	s += DROP == 6 ? 0.0f : (float)f[i];
	s += DROP == 7 ? 0.0f : (float)g[i];
	s += DROP == 8 ? 0.0f : (float)h[i];
	if (DROP == 9)
		out[i] = s * 0.5f + 3.0f - 7.0f;
	else
		out[i] = s * (float)scale + (float)shift + (float)neg;
}
