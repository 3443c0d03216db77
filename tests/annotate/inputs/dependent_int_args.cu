// A kernel template's integer arguments written, at a call that stays
// unresolved inside another template (ggml's getrows.cu:
// `get_rows_cuda_q<QK4_0, QR4_0, dequantize_q4_0>(...)` in `template
// <typename dst_t>`), as an object-like macro and a literal: libclang
// resolves nothing there, so the call's tokens are read, a macro by its
// one-literal body (`QK4` is 32). The function argument is named the
// same way and the element type follows the deduction through the caller
// (`kernel template(32, 2, "dq4", "float")`; before: left to complete).
#include <cuda_runtime.h>

#define QK4 32
#define QK8 64

static __device__ float dq4(float x) { return x * 0.25f; }
static __device__ float dq8(float x) { return x * 0.125f; }

template <int qk, int qr, float (*dq)(float), typename dst_t>
static __global__ void k_rows(const float *src, dst_t *dst, int n)
{
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		dst[i] = (dst_t)(dq(src[i]) * qr / qk);
}

template <int qk, int qr, float (*dq)(float), typename dst_t>
static void rows_cuda(const float *src, dst_t *dst, int n, cudaStream_t s)
{
	k_rows<qk, qr, dq><<<(n + 255) / 256, 256, 0, s>>>(src, dst, n);
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
