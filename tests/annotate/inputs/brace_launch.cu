// Launch geometry written with braces, as serving code does: a dim3
// temporary `dim3{K}` at the launch (K a local constexpr, a file-scope one
// or a class's static member), `dim3 block{K};`, `dim3 block = {K, 1,
// 1};`, and a grid `dim3 grid{(n + K - 1) / K}` (also `const`). Each
// block-size literal or constexpr becomes the block parameter, with the
// grid arithmetic tied to it, as the parenthesised forms are.
#include <cstdint>
#include <cuda_runtime.h>

constexpr uint32_t kWideBlock = 256;

__global__ void scale_kernel(float *out, const float *in, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = a * in[i];
}

__global__ void shift_kernel(float *out, const float *in, float b, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in[i] + b;
}

__global__ void square_kernel(float *out, const float *in, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in[i] * in[i];
}

__global__ void negate_kernel(float *out, const float *in, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = -in[i];
}

__global__ void twice_kernel(float *out, const float *in, uint32_t n)
{
	uint32_t i = blockIdx.x * kWideBlock + threadIdx.x;
	if (i < n)
		out[i] = 2.0f * in[i];
}

struct HalfCfg {
	static constexpr int kBlock = 128;
};

__global__ void half_kernel(float *out, const float *in, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = 0.5f * in[i];
}

void scale(float *out, const float *in, float a, int n, cudaStream_t s)
{
	constexpr int kThreadsPerBlock = 256;
	scale_kernel<<<(n + kThreadsPerBlock - 1) / kThreadsPerBlock,
	               dim3{kThreadsPerBlock}, 0, s>>>(out, in, a, n);
}

void shift(float *out, const float *in, float b, unsigned n, cudaStream_t s)
{
	dim3 block{128};
	dim3 grid{(n + 127) / 128};
	shift_kernel<<<grid, block, 0, s>>>(out, in, b, n);
}

void square(float *out, const float *in, int n, cudaStream_t s)
{
	dim3 block = {512, 1, 1};
	dim3 grid = {(unsigned)((n + 511) / 512), 1, 1};
	square_kernel<<<grid, block, 0, s>>>(out, in, n);
}

void negate(float *out, const float *in, int n, cudaStream_t s)
{
	constexpr unsigned kBlock = 64;
	const dim3 grid{(n + kBlock - 1) / kBlock};
	negate_kernel<<<grid, dim3{kBlock, 1, 1}, 0, s>>>(out, in, n);
}

void twice(float *out, const float *in, uint32_t n, cudaStream_t s)
{
	const uint32_t blocks = (n + kWideBlock - 1) / kWideBlock;
	twice_kernel<<<dim3{blocks}, dim3{kWideBlock}, 0, s>>>(out, in, n);
}

void half(float *out, const float *in, int n, cudaStream_t s)
{
	dim3 grid{static_cast<unsigned>((n + HalfCfg::kBlock - 1) /
	                                HalfCfg::kBlock)};
	half_kernel<<<grid, dim3{HalfCfg::kBlock}, 0, s>>>(out, in, n);
}
