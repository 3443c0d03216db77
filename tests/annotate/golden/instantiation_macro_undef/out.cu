// instantiation_macro_undef: launchers in the style of TensorRT-LLM:
// host templates in namespaces, instantiated only by a macro that is
// `#undef`-ed after use (libclang then calls the macro not function-like:
// up to 61c3ba0 its expansions were neither kept from NVRTC, which
// refused the file, nor read for the template arguments), and once
// directly with written arguments.
#include <cuda_fp16.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 1024
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 256
#endif
#ifndef GRID_SIZE
#define GRID_SIZE 1024
#endif
#ifndef SPLIT
#define SPLIT 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif
namespace tk {
namespace kernels {
#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(1024)
#pragma kt param SPLIT values(1, 2, 4, 8, 16, 32) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem m values(?)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt kernel template("float")
#pragma kt launch grid(m, SPLIT) block((min(n, BLOCK_SIZE)))
#pragma kt arg out float[m * n] inout
#pragma kt arg bias float[n] in
#pragma kt arg residual float[m * n] in
#pragma kt arg m int = m
#pragma kt arg n int = n
template <typename T>
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
addBiasResidual(T *out, const T *bias, const T *residual, int m, int n)
{
	const int row = blockIdx.x;
	for (int col = threadIdx.x + (SPLIT == 1 ? 0 : blockIdx.y * blockDim.x); col < n; col += (blockDim.x) * (SPLIT == 1 ? 1 : gridDim.y))
		out[row * n + col] = out[row * n + col] + bias[col] + residual[row * n + col];
}

#ifndef __CUDACC_RTC__
template <typename T>
void invokeAddBiasResidual(T *out, const T *bias, const T *residual, int m, int n, cudaStream_t stream)
{
	dim3 block(std::min(n, BLOCK_SIZE));
	dim3 grid(dim3(m, SPLIT));
	addBiasResidual<T><<<grid, block, 0, stream>>>(out, bias, residual, m, n);
}
#endif

#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param GRID_SIZE values(64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384) default(1024)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt kernel template("float")
#pragma kt launch grid((min((n + BLOCK_SIZE_2 - 1) / BLOCK_SIZE_2, GRID_SIZE))) block(BLOCK_SIZE_2)
#pragma kt arg x float[n] inout
// ktc: complete and uncomment: #pragma kt arg s float = ?
#pragma kt arg n int = n
template <typename T>
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif
scaleKernel(T *x, float s, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
		x[i] = (T)((float)x[i] * s);
}

#ifndef __CUDACC_RTC__
template <typename T>
void invokeScale(T *x, float s, int n, cudaStream_t stream)
{
	const int threads = BLOCK_SIZE_2;
	const int blocks = std::min((n + threads - 1) / threads, GRID_SIZE);
	scaleKernel<<<blocks, threads, 0, stream>>>(x, s, n);
}
#endif

#define INSTANTIATE_ADD_BIAS_RESIDUAL(T)                                            \
	template void invokeAddBiasResidual(T *out, const T *bias, const T *residual, int m, int n, \
	                                    cudaStream_t stream)
#ifndef __CUDACC_RTC__
INSTANTIATE_ADD_BIAS_RESIDUAL(float);
INSTANTIATE_ADD_BIAS_RESIDUAL(half);
#endif
#undef INSTANTIATE_ADD_BIAS_RESIDUAL

#ifndef __CUDACC_RTC__
template void invokeScale<float>(float *x, float s, int n, cudaStream_t stream);
#endif
} // namespace kernels
} // namespace tk
