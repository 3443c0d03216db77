// A kernel template's integer arguments written, at a call that stays
// unresolved inside another template (ggml's getrows.cu:
// `get_rows_cuda_q<QK4_0, QR4_0, dequantize_q4_0>(...)` in `template
// <typename dst_t>`), as an object-like macro and a literal: libclang
// resolves nothing there, so the call's tokens are read, a macro by its
// one-literal body (`QK4` is 32). The function argument is named the
// same way and the element type follows the deduction through the caller
// (`kernel template(32, 2, "dq4", "float")`; before: left to complete).
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef ITEMS_PER_THREAD
#define ITEMS_PER_THREAD 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#define QK4 32
#define QK8 64

static __device__ float dq4(float x) { return x * 0.25f; }
static __device__ float dq8(float x) { return x * 0.125f; }

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt kernel template(32, 2, "dq4", "float")
#pragma kt launch grid(div_ceil((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, ITEMS_PER_THREAD)) block(BLOCK_SIZE)
#pragma kt arg src float[n] in
#pragma kt arg dst float[n] out
#pragma kt arg n int = n
template <int qk, int qr, float (*dq)(float), typename dst_t>
static __global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
k_rows(const float *src, dst_t *dst, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		const int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			dst[i] = (dst_t)(dq(src[i]) * qr / qk);
	}
}

#ifndef __CUDACC_RTC__
template <int qk, int qr, float (*dq)(float), typename dst_t>
static void rows_cuda(const float *src, dst_t *dst, int n, cudaStream_t s)
{
	k_rows<qk, qr, dq><<<((((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), BLOCK_SIZE, 0, s>>>(src, dst, n);
}

template <typename dst_t>
static void rows(int type, const float *src, dst_t *dst, int n,
                 cudaStream_t s)
{
	switch (type) {
	case 0: rows_cuda<QK4, 2, dq4>(src, dst, n, s); break;
	case 1: rows_cuda<QK8, 1, dq8>(src, dst, n, s); break;
	}
}

void get_rows(int type, const float *src, float *dst, int n, cudaStream_t s)
{
	rows(type, src, dst, n, s);
}
#endif
