// A kernel template over a device function template (`template <typename
// scalar_t, scalar_t (*ACT_FN)(const scalar_t &), bool act_first>`),
// launched by a macro as vLLM's activation kernels are:
// `k<scalar_t, KERNEL<scalar_t>, ACT_FIRST>` inside a dispatch lambda
// that names `scalar_t`, the macro given `act::silu_kernel`. libclang
// gives a function argument no value: the macro's text is read with its
// parameters replaced by the expansion's arguments and `scalar_t` by the
// type the launch instantiates, `kernel template("float",
// "act::silu_kernel<float>", "true")` (before: left to complete). The
// second kernel's list ends `KERNEL<scalar_t>>`, one `>>` token that
// closes both lists.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#ifndef __CUDACC_RTC__
#include <algorithm>
#elif !defined(KTC_RTC_HEADERS_GIVEN)
#include <cuda/std/cstdint>
#endif

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 1024
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 1024
#endif
#ifndef ITEMS
#define ITEMS 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef ITEMS_2
#define ITEMS_2 1
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif

namespace act {
#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(1024)
#pragma kt param ITEMS values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem num_tokens values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt kernel template("float", "act::silu_kernel<float>", "true")
#pragma kt launch grid(num_tokens) block((min(d, BLOCK_SIZE)))
#pragma kt arg out float[d * num_tokens] out
#pragma kt arg input float[2 * d * num_tokens] in
#pragma kt arg d int = d
template <typename scalar_t, scalar_t (*ACT_FN)(const scalar_t &),
          bool act_first>
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
act_and_mul_kernel(scalar_t *__restrict__ out,
                                   const scalar_t *__restrict__ input,
                                   const int d)
{
	const int64_t token_idx = blockIdx.x;
#if ITEMS == 1
	for (int64_t idx = threadIdx.x; idx < d; idx += blockDim.x) {
		const scalar_t x = input[token_idx * 2 * d + idx];
		const scalar_t y = input[token_idx * 2 * d + d + idx];
		out[token_idx * d + idx] = act_first ? ACT_FN(x) * y : x * ACT_FN(y);
	}
#else
	for (int64_t kt_i = threadIdx.x; kt_i < (d); kt_i += (blockDim.x) * ITEMS) {
		scalar_t kt_ld0[ITEMS];
		scalar_t kt_ld1[ITEMS];
#pragma unroll
		for (int kt_j = 0; kt_j < ITEMS; kt_j++) {
			const int64_t idx = kt_i + kt_j * (blockDim.x);
			if (idx < (d)) {
				kt_ld0[kt_j] = input[(token_idx * 2 * d) + idx];
				kt_ld1[kt_j] = input[(token_idx * 2 * d + d) + idx];
			}
		}
#pragma unroll
		for (int kt_j = 0; kt_j < ITEMS; kt_j++) {
			const int64_t idx = kt_i + kt_j * (blockDim.x);
			if (idx < (d)) {
				const scalar_t x = kt_ld0[kt_j];
				const scalar_t y = kt_ld1[kt_j];
				out[token_idx * d + idx] = act_first ? ACT_FN(x) * y : x * ACT_FN(y);
			}
		}
	}
#endif
}

#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(1024)
#pragma kt param ITEMS_2 values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem num_tokens values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt kernel template("float", "act::silu_kernel<float>")
#pragma kt launch grid(num_tokens) block((min(d, BLOCK_SIZE_2)))
#pragma kt arg out float[d * num_tokens] out
#pragma kt arg input float[d * num_tokens] in
#pragma kt arg d int = d
template <typename scalar_t, scalar_t (*ACT_FN)(const scalar_t &)>
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif
activation_kernel(scalar_t *__restrict__ out,
                                  const scalar_t *__restrict__ input,
                                  const int d)
{
	const int64_t token_idx = blockIdx.x;
#if ITEMS_2 == 1
	for (int64_t idx = threadIdx.x; idx < d; idx += blockDim.x)
		out[token_idx * d + idx] = ACT_FN(input[token_idx * d + idx]);
#else
	for (int64_t kt_i = threadIdx.x; kt_i < (d); kt_i += (blockDim.x) * ITEMS_2) {
		scalar_t kt_ld0[ITEMS_2];
#pragma unroll
		for (int kt_j = 0; kt_j < ITEMS_2; kt_j++) {
			const int64_t idx = kt_i + kt_j * (blockDim.x);
			if (idx < (d)) {
				kt_ld0[kt_j] = input[(token_idx * d) + idx];
			}
		}
#pragma unroll
		for (int kt_j = 0; kt_j < ITEMS_2; kt_j++) {
			const int64_t idx = kt_i + kt_j * (blockDim.x);
			if (idx < (d))
				out[token_idx * d + idx] = ACT_FN(kt_ld0[kt_j]);
		}
	}
#endif
}

template <typename T> __device__ __forceinline__ T silu_kernel(const T &x)
{
	return (T)(((float)x) / (1.0f + expf((float)-x)));
}
} // namespace act

#define DISPATCH_FLOATING(is_float, NAME, ...)                              \
	[&] {                                                               \
		if (is_float) {                                             \
			using scalar_t = float;                             \
			return __VA_ARGS__();                               \
		} else {                                                    \
			using scalar_t = double;                            \
			return __VA_ARGS__();                               \
		}                                                           \
	}()

#define LAUNCH_GATE(KERNEL, ACT_FIRST)                                      \
	dim3 grid(num_tokens);                                              \
	dim3 block(std::min(d, BLOCK_SIZE));                                      \
	DISPATCH_FLOATING(is_float, "act_and_mul", [&] {                    \
		act::act_and_mul_kernel<scalar_t, KERNEL<scalar_t>,         \
		                        ACT_FIRST><<<grid, block>>>(        \
		    (scalar_t *)out, (const scalar_t *)input, d);           \
	});

#define LAUNCH_ACTIVATION(KERNEL)                                           \
	dim3 grid(num_tokens);                                              \
	dim3 block(std::min(d, BLOCK_SIZE_2));                                      \
	DISPATCH_FLOATING(is_float, "activation", [&] {                     \
		act::activation_kernel<scalar_t, KERNEL<scalar_t>>          \
		    <<<grid, block>>>((scalar_t *)out,                      \
		                      (const scalar_t *)input, d);          \
	});

#ifndef __CUDACC_RTC__
void silu(bool is_float, void *out, const void *input, int num_tokens,
          int d)
{
	LAUNCH_ACTIVATION(act::silu_kernel);
}

void silu_and_mul(bool is_float, void *out, const void *input,
                  int num_tokens, int d)
{
	LAUNCH_GATE(act::silu_kernel, true);
}
#endif
