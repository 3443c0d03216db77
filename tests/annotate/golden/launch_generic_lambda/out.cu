// A launch through a generic lambda held in a local, inside a function
// template (vLLM's grouped top-k): `launch(kernel_instance)` is then a
// plain call through the closure, not yet its operator(), and the
// kernel reaches `cudaLaunchKernelEx` as the lambda's `auto *`
// parameter, from a local holding `&pair_sum<T, kNone>`. The block, a
// file constant, becomes a parameter that the grid's count of warps per
// block follows.
#include <cuda_runtime.h>
#ifndef __CUDACC_RTC__
#include <cstdint>
#elif !defined(KTC_RTC_HEADERS_GIVEN)
#include <cuda/std/cstdint>
#endif

#ifndef PAIR_SUM_BLOCK_SIZE
#define PAIR_SUM_BLOCK_SIZE 512
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

constexpr int32_t WARP_SIZE = 32;
constexpr int32_t BLOCK_SIZE = PAIR_SUM_BLOCK_SIZE;
constexpr int32_t NUM_WARPS_PER_BLOCK = BLOCK_SIZE / WARP_SIZE;

enum Scoring { kNone, kSigmoid };

#pragma kt param PAIR_SUM_BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(512)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint PAIR_SUM_BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem num_tokens values(?)
// ktc: complete and uncomment: #pragma kt problem n_group values(?)
#pragma kt kernel template("float", "kNone")
#pragma kt launch grid((((num_tokens * n_group) - 1) / (PAIR_SUM_BLOCK_SIZE / 32) + 1)) block(PAIR_SUM_BLOCK_SIZE)
#pragma kt arg out float[(num_tokens * n_group)] out
#pragma kt arg in float[32 * (num_tokens * n_group)] in
#pragma kt arg num_cases int64_t = (num_tokens * n_group)
template <typename T, Scoring S>
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(PAIR_SUM_BLOCK_SIZE, MIN_BLOCKS)
#endif
pair_sum(T *out, const T *in, int64_t num_cases)
{
	const int64_t warp =
	    blockIdx.x * (blockDim.x / WARP_SIZE) + threadIdx.x / WARP_SIZE;
	const int lane = threadIdx.x % WARP_SIZE;
	if (warp >= num_cases)
		return;
	T v = in[warp * WARP_SIZE + lane];
	if (S == kSigmoid)
		v = v / (1 + v);
	for (int o = 16; o > 0; o /= 2)
		v += __shfl_xor_sync(0xffffffffu, v, o);
	if (lane == 0)
		out[warp] = v;
}

#ifndef __CUDACC_RTC__
template <typename T>
void invoke(T *out, const T *in, int64_t num_tokens, int64_t n_group, int sf,
            cudaStream_t stream)
{
	int64_t num_cases = num_tokens * n_group;
	int64_t blocks = (num_cases - 1) / NUM_WARPS_PER_BLOCK + 1;
	cudaLaunchConfig_t config;
	config.gridDim = blocks;
	config.blockDim = BLOCK_SIZE;
	config.dynamicSmemBytes = 0;
	config.stream = stream;
	config.numAttrs = 0;
	config.attrs = nullptr;
	auto launch = [&](auto *kernel_instance) {
		cudaLaunchKernelEx(&config, kernel_instance, out, in,
		                   num_cases);
	};
	switch (sf) {
	case 0: {
		auto *kernel_instance = &pair_sum<T, kNone>;
		launch(kernel_instance);
		break;
	}
	default: {
		auto *kernel_instance = &pair_sum<T, kSigmoid>;
		launch(kernel_instance);
		break;
	}
	}
}

template void invoke<float>(float *, const float *, int64_t, int64_t, int,
                            cudaStream_t);
#endif
