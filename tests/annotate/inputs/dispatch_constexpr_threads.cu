// TensorRT-LLM's style: a kernel template over its block size, launched
// from an if-chain on the row's length, each branch naming its block by a
// `constexpr int kThreads`, the launcher a host template instantiated
// explicitly. The branches give the kernel two block sizes: the tuner
// instantiates the first launch, so the literals stay (a parameter per
// branch, followed by the launch line as a chain over the condition, is
// not built). The template argument `kThreads` is read as its constant's
// literal, which bounds the loops' stride: the buffers' lengths follow
// (before: `out`, `weight` left to complete).
#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace kernels {

template <typename T> struct Vec;
template <> struct Vec<half> { using type = half2; static constexpr int kWidth = 2; };
template <> struct Vec<float> { using type = float2; static constexpr int kWidth = 2; };

__inline__ __device__ float warp_sum(float v)
{
#pragma unroll
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_xor_sync(0xffffffffu, v, o);
	return v;
}

template <typename T, int kThreads>
__global__ void rms_norm_kernel(T *__restrict__ out, const T *__restrict__ in,
                                const T *__restrict__ weight, float eps,
                                int hidden)
{
	__shared__ float partial[kThreads / 32];
	__shared__ float inv_rms;
	const T *row = in + (size_t)blockIdx.x * hidden;
	float acc = 0.f;
	for (int i = threadIdx.x; i < hidden; i += kThreads) {
		float x = (float)row[i];
		acc += x * x;
	}
	acc = warp_sum(acc);
	if (threadIdx.x % 32 == 0)
		partial[threadIdx.x / 32] = acc;
	__syncthreads();
	if (threadIdx.x < 32) {
		float v = threadIdx.x < kThreads / 32 ? partial[threadIdx.x] : 0.f;
		v = warp_sum(v);
		if (threadIdx.x == 0)
			inv_rms = rsqrtf(v / hidden + eps);
	}
	__syncthreads();
	for (int i = threadIdx.x; i < hidden; i += kThreads)
		out[(size_t)blockIdx.x * hidden + i] =
		    (T)((float)row[i] * inv_rms * (float)weight[i]);
}

} // namespace kernels

template <typename T>
void invoke_rms_norm(T *out, const T *in, const T *weight, float eps,
                     int tokens, int hidden, cudaStream_t stream)
{
	dim3 grid(tokens);
	if (hidden <= 2048) {
		constexpr int kThreads = 256;
		kernels::rms_norm_kernel<T, kThreads>
		    <<<grid, kThreads, 0, stream>>>(out, in, weight, eps, hidden);
	} else {
		constexpr int kThreads = 1024;
		kernels::rms_norm_kernel<T, kThreads>
		    <<<grid, kThreads, 0, stream>>>(out, in, weight, eps, hidden);
	}
}

template void invoke_rms_norm<half>(half *, const half *, const half *,
                                    float, int, int, cudaStream_t);
template void invoke_rms_norm<float>(float *, const float *, const float *,
                                     float, int, int, cudaStream_t);
