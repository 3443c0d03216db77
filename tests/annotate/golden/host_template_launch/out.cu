// A kernel template launched from a host function template, as ggml
// writes them: the kernel's type argument is left to deduction at the
// launch (from `const T *x`), and the host template's parameters are the
// problem sizes; the host template's type comes from its one call.
#include <cuda_runtime.h>
#ifndef __CUDACC_RTC__
#include <cstdint>
#elif !defined(KTC_RTC_HEADERS_GIVEN)
#include <cuda/std/cstdint>
#endif

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 128
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem ne01 values(?)
// ktc: complete and uncomment: #pragma kt problem ne00 values(?)
#pragma kt kernel template("float")
#pragma kt launch grid(ne01, 1, 1) block(BLOCK_SIZE)
#pragma kt arg x float[ne01 * ne00] in
#pragma kt arg dst float[ne01 * ne00] out
#pragma kt arg ne00 int64_t = ne00
#pragma kt arg ne01 int64_t = ne01
#pragma kt arg s float = 0.5f
template <typename T>
static __global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
row_scale(const T *x, T *dst, const int64_t ne00,
                                 const int64_t ne01, const float s)
{
	const int64_t row = blockIdx.x;
	for (int64_t i = threadIdx.x; i < ne00; i += blockDim.x)
		dst[row * ne00 + i] = x[row * ne00 + i] * (T)s;
}

#ifndef __CUDACC_RTC__
template <typename T>
static void row_scale_cuda(const T *x, T *dst, const int64_t ne00,
                           const int64_t ne01, cudaStream_t stream)
{
	const dim3 grid(ne01, 1, 1);
	row_scale<<<grid, BLOCK_SIZE, 0, stream>>>(x, dst, ne00, ne01, 0.5f);
}

void op_row_scale(const float *x, float *dst, int64_t ne00, int64_t ne01,
                  cudaStream_t stream)
{
	row_scale_cuda(x, dst, ne00, ne01, stream);
}
#endif
