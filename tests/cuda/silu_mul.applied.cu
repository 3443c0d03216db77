// ktc apply: the best configuration in results.json (synthetic landscape 'bowl' seed 1 (not a device), T=4096,D=14336): 1.10831 ms
// silu_mul.kt.cu - SGLang's silu_and_mul on bf16: out[t, d] =
// silu(in[t, d]) * in[t, D + d] for T tokens of width D. Memory-bound: one
// read of 2 * D and one write of D elements per token.
//
// Tuned: threads per block, elements per vector load, tokens per block and
// the unroll of the inner loop: 5 * 4 * 4 * 3 = 240 configurations, the
// template of the throughput and repeatability runs (docs/cuda-backend.md).
// The default (256 threads, scalar loads, one token per block) is the
// plain version. Build the stand-alone program with
//   nvcc -arch=sm_90a -DKTC_DEMO_MAIN silu_mul.kt.cu
// which prints a checksum of the output for fixed inputs.
#include <cuda_bf16.h>

#ifndef BLOCK
#define BLOCK 512 // ktc apply
#endif
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef VEC
#define VEC 2 // ktc apply
#endif
#ifndef VEC
#define VEC 1
#endif
#ifndef ROWS
#define ROWS 4 // ktc apply
#endif
#ifndef ROWS
#define ROWS 1
#endif
#ifndef UNROLL
#define UNROLL 2 // ktc apply
#endif
#ifndef UNROLL
#define UNROLL 1
#endif

struct __align__(2 * VEC) pack {
	__nv_bfloat16 v[VEC];
};

__device__ __forceinline__ float silu(float x)
{
	return x / (1.0f + __expf(-x));
}

#pragma kt param BLOCK values(64, 128, 256, 512, 1024) default(512)
#pragma kt param VEC values(1, 2, 4, 8) default(2)
#pragma kt param ROWS values(1, 2, 4, 8) default(4)
#pragma kt param UNROLL values(1, 2, 4) default(2)
#pragma kt problem T values(4096)
#pragma kt problem D values(14336)
#pragma kt constraint D % VEC == 0
#pragma kt launch grid(div_ceil(T, ROWS)) block(BLOCK)
#pragma kt arg out bf16[T * D] out
#pragma kt arg in bf16[T * 2 * D] in
#pragma kt arg tokens int = T
#pragma kt arg d int = D
#pragma kt objective bandwidth(3 * T * D * 2)
__global__ void __launch_bounds__(BLOCK)
silu_mul(__nv_bfloat16 *__restrict__ out, const __nv_bfloat16 *__restrict__ in,
	 int tokens, int d)
{
	constexpr int kt_unroll = UNROLL; /* #pragma unroll needs a constant */
	for (int r = 0; r < ROWS; r++) {
		long t = (long)blockIdx.x * ROWS + r;
		if (t >= tokens)
			return;
		const pack *a = (const pack *)(in + t * 2 * d);
		const pack *b = (const pack *)(in + t * 2 * d + d);
		pack *o = (pack *)(out + t * d);
#pragma unroll kt_unroll
		for (int c = threadIdx.x; c < d / VEC; c += BLOCK) {
			pack x = a[c], y = b[c], z;
#pragma unroll
			for (int k = 0; k < VEC; k++)
				z.v[k] = __float2bfloat16(
					silu(__bfloat162float(x.v[k])) *
					__bfloat162float(y.v[k]));
			o[c] = z;
		}
	}
}

#if !defined(__CUDACC_RTC__) && defined(KTC_DEMO_MAIN)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

int main(int argc, char **argv)
{
	int T = argc > 1 ? atoi(argv[1]) : 4096, D = argc > 2 ? atoi(argv[2]) : 14336;
	std::vector<__nv_bfloat16> in((size_t)T * 2 * D), out((size_t)T * D);
	unsigned s = 12345;
	for (auto &v : in) { /* fixed inputs in [-4, 4) */
		s = s * 1664525u + 1013904223u;
		v = __float2bfloat16((float)(s >> 8) / (1u << 24) * 8.0f - 4.0f);
	}
	__nv_bfloat16 *din, *dout;
	cudaMalloc(&din, in.size() * 2);
	cudaMalloc(&dout, out.size() * 2);
	cudaMemcpy(din, in.data(), in.size() * 2, cudaMemcpyHostToDevice);
	silu_mul<<<(T + ROWS - 1) / ROWS, BLOCK>>>(dout, din, T, D);
	cudaError_t e = cudaDeviceSynchronize();
	cudaMemcpy(out.data(), dout, out.size() * 2, cudaMemcpyDeviceToHost);
	unsigned long long sum = 0;
	for (size_t i = 0; i < out.size(); i++) {
		unsigned short bits;
		memcpy(&bits, &out[i], 2);
		sum = sum * 1099511628211ull + bits;
	}
	printf("BLOCK=%d VEC=%d ROWS=%d UNROLL=%d T=%d D=%d checksum=%016llx %s\n",
	       BLOCK, VEC, ROWS, UNROLL, T, D, sum, cudaGetErrorString(e));
	return e != cudaSuccess;
}
#endif
