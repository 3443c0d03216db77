// Launches inside generic lambdas, as dispatch code writes them: a local
// lambda that takes the kernel (`auto launch = [&](auto kernel) {
// kernel<<<g, b>>>(...); }`, called with each kernel), and one that takes
// a type tag and instantiates the kernel with the tag's type (`[&](auto
// t) { using T = typename decltype(t)::type; k<T><<<...>>>(...); }`,
// called once per type). The launch is derived at the lambda's first call.
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 128
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 256
#endif
#ifndef ITEMS_PER_THREAD
#define ITEMS_PER_THREAD 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt kernel template("double")
#pragma kt launch grid(div_ceil((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, ITEMS_PER_THREAD)) block(BLOCK_SIZE)
#pragma kt arg out double[n] out
#pragma kt arg in double[n] in
// ktc: complete and uncomment: #pragma kt arg a float = ?
#pragma kt arg n int = n
template <typename T>
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
scale_kernel(T *out, const T *in, float a, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			out[i] = (T)(a * (float)in[i]);
	}
}

#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(((n + (BLOCK_SIZE_2 - 1)) / BLOCK_SIZE_2)) block(BLOCK_SIZE_2)
#pragma kt arg out float[n] out
#pragma kt arg in float[n] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif
twice_kernel(float *out, const float *in, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = 2.0f * in[i];
}

#ifndef __CUDACC_RTC__
void twice(float *out, const float *in, int n, cudaStream_t s)
{
	dim3 grid((n + (BLOCK_SIZE_2 - 1)) / BLOCK_SIZE_2), block(BLOCK_SIZE_2);
	auto launch = [&](auto kernel) {
		kernel<<<grid, block, 0, s>>>(out, in, n);
	};
	launch(twice_kernel);
}
#endif

template <typename T> struct type_tag {
	using type = T;
};

#ifndef __CUDACC_RTC__
void scale(void *out, const void *in, float a, int n, bool wide,
           cudaStream_t s)
{
	auto run = [&](auto t) {
		using T = typename decltype(t)::type;
		scale_kernel<T><<<((((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), BLOCK_SIZE, 0, s>>>(
		    (T *)out, (const T *)in, a, n);
	};
	if (wide)
		run(type_tag<double>{});
	else
		run(type_tag<float>{});
}
#endif
