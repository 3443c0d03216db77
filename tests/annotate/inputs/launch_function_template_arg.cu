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
#include <algorithm>

namespace act {
template <typename scalar_t, scalar_t (*ACT_FN)(const scalar_t &),
          bool act_first>
__global__ void act_and_mul_kernel(scalar_t *__restrict__ out,
                                   const scalar_t *__restrict__ input,
                                   const int d)
{
	const int64_t token_idx = blockIdx.x;
	for (int64_t idx = threadIdx.x; idx < d; idx += blockDim.x) {
		const scalar_t x = input[token_idx * 2 * d + idx];
		const scalar_t y = input[token_idx * 2 * d + d + idx];
		out[token_idx * d + idx] = act_first ? ACT_FN(x) * y : x * ACT_FN(y);
	}
}

template <typename scalar_t, scalar_t (*ACT_FN)(const scalar_t &)>
__global__ void activation_kernel(scalar_t *__restrict__ out,
                                  const scalar_t *__restrict__ input,
                                  const int d)
{
	const int64_t token_idx = blockIdx.x;
	for (int64_t idx = threadIdx.x; idx < d; idx += blockDim.x)
		out[token_idx * d + idx] = ACT_FN(input[token_idx * d + idx]);
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
	dim3 block(std::min(d, 1024));                                      \
	DISPATCH_FLOATING(is_float, "act_and_mul", [&] {                    \
		act::act_and_mul_kernel<scalar_t, KERNEL<scalar_t>,         \
		                        ACT_FIRST><<<grid, block>>>(        \
		    (scalar_t *)out, (const scalar_t *)input, d);           \
	});

#define LAUNCH_ACTIVATION(KERNEL)                                           \
	dim3 grid(num_tokens);                                              \
	dim3 block(std::min(d, 1024));                                      \
	DISPATCH_FLOATING(is_float, "activation", [&] {                     \
		act::activation_kernel<scalar_t, KERNEL<scalar_t>>          \
		    <<<grid, block>>>((scalar_t *)out,                      \
		                      (const scalar_t *)input, d);          \
	});

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
