// A launch through a generic lambda held in a local, inside a function
// template (vLLM's grouped top-k): `launch(kernel_instance)` is then a
// plain call through the closure, not yet its operator(), and the
// kernel reaches `cudaLaunchKernelEx` as the lambda's `auto *`
// parameter, from a local holding `&pair_sum<T, kNone>`. The block, a
// file constant, becomes a parameter that the grid's count of warps per
// block follows.
#include <cuda_runtime.h>
#include <cstdint>

constexpr int32_t WARP_SIZE = 32;
constexpr int32_t BLOCK_SIZE = 512;
constexpr int32_t NUM_WARPS_PER_BLOCK = BLOCK_SIZE / WARP_SIZE;

enum Scoring { kNone, kSigmoid };

template <typename T, Scoring S>
__global__ void pair_sum(T *out, const T *in, int64_t num_cases)
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
