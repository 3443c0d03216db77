// launch_wrapper_fn: function templates that take the kernel as an
// argument: launch_kernel launches it (cudaLaunchKernelEx), launch_1d
// passes it on with a geometry of its own (a second level, shared by two
// launches: its literal stays as it is).
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 512
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
#ifndef MIN_BLOCKS_3
#define MIN_BLOCKS_3 0
#endif

#ifndef __CUDACC_RTC__
template <typename K, typename... A>
void launch_kernel(K kernel, dim3 grid, dim3 block, cudaStream_t s, A... args)
{
	cudaLaunchConfig_t c = {};
	c.gridDim = grid;
	c.blockDim = block;
	c.stream = s;
	cudaLaunchKernelEx(&c, kernel, args...);
}

template <typename K, typename... A>
void launch_1d(K kernel, int n, cudaStream_t s, A... args)
{
	launch_kernel(kernel, dim3((n + 255) / 256), dim3(256), s, args...);
}
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(512)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, ITEMS_PER_THREAD)) block(BLOCK_SIZE)
#pragma kt arg y float[n] inout
#pragma kt arg x float[n] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
add_kernel(float *y, const float *x, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			y[i] += x[i];
	}
}

#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint 256 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
// ktc: complete and uncomment: #pragma kt launch grid(?) block(?)
#pragma kt arg y float[n] inout
#pragma kt arg x float[n] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(256, MIN_BLOCKS_2)
#endif
sub_kernel(float *y, const float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] -= x[i];
}

#pragma kt param MIN_BLOCKS_3 values(0, 1, 2, 4) default(0)
#pragma kt constraint 256 * MIN_BLOCKS_3 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
// ktc: complete and uncomment: #pragma kt launch grid(?) block(?)
#pragma kt arg y float[n] inout
#pragma kt arg x float[n] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_3 > 0
__launch_bounds__(256, MIN_BLOCKS_3)
#endif
mul_kernel(float *y, const float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] *= x[i];
}

#ifndef __CUDACC_RTC__
void add(float *y, const float *x, int n, cudaStream_t s)
{
	launch_kernel(add_kernel, dim3(((((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD)), dim3(BLOCK_SIZE), s, y, x, n);
}

void sub(float *y, const float *x, int n, cudaStream_t s)
{
	launch_1d(sub_kernel, n, s, y, x, n);
}

void mul(float *y, const float *x, int n, cudaStream_t s)
{
	launch_1d(mul_kernel, n, s, y, x, n);
}
#endif
