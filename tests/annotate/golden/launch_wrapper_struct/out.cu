// launch_wrapper_struct: objects that store the launch geometry (by
// aggregate initialisation or by a constructor) and whose call operator
// launches the kernel it is given with cudaLaunchKernelEx.
#include <cuda_runtime.h>

#ifndef VEC
#define VEC 4
#endif
#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 128
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

#ifndef __CUDACC_RTC__
struct Launch {
	dim3 grid, block;
	cudaStream_t s;
	template <typename K, typename... A> void operator()(K k, A... a) const
	{
		cudaLaunchConfig_t c = {};
		c.gridDim = grid;
		c.blockDim = block;
		c.stream = s;
		cudaLaunchKernelEx(&c, k, a...);
	}
};

class Launcher {
public:
	Launcher(dim3 g, dim3 b, cudaStream_t s) : grid_(g), block_(b), s_(s)
	{
	}
	template <typename K, typename... A> void operator()(K k, A... a) const
	{
		cudaLaunchConfig_t c = {};
		c.gridDim = grid_;
		c.blockDim = block_;
		c.stream = s_;
		cudaLaunchKernelEx(&c, k, a...);
	}

private:
	dim3 grid_, block_;
	cudaStream_t s_;
};
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil((n + BLOCK_SIZE - 1) / BLOCK_SIZE, ITEMS_PER_THREAD)) block(BLOCK_SIZE)
#pragma kt arg y float[n] out
#pragma kt arg x float[n] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
relu_kernel(float *y, const float *x, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			y[i] = x[i] > 0.f ? x[i] : 0.f;
	}
}

#pragma kt param VEC values(1, 2, 4, 8, 16) default(4)
#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt kernel template("float", VEC)
#pragma kt launch grid(((n + VEC * BLOCK_SIZE_2 - 1) / (VEC * BLOCK_SIZE_2))) block(BLOCK_SIZE_2)
#pragma kt arg y float[n] out
#pragma kt arg x float[n] in
#pragma kt arg n int = n
template <typename T, int kVec> __global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif
copy_kernel(T *y, const T *x, int n)
{
	int i = (blockIdx.x * blockDim.x + threadIdx.x) * kVec;
	for (int j = 0; j < kVec; j++)
		if (i + j < n)
			y[i + j] = x[i + j];
}

#ifndef __CUDACC_RTC__
void relu(float *y, const float *x, int n, cudaStream_t s)
{
	const int kBlock = BLOCK_SIZE;
	Launch{dim3(((((n + kBlock - 1) / kBlock) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD)), dim3(kBlock), s}(relu_kernel, y,
	                                                          x, n);
}

void copy(float *y, const float *x, int n, cudaStream_t s)
{
	dim3 block(BLOCK_SIZE_2);
	dim3 grid((n + VEC * BLOCK_SIZE_2 - 1) / (VEC * BLOCK_SIZE_2));
	Launcher(grid, block, s)(copy_kernel<float, VEC>, y, x, n);
}
#endif
