// dependent_host_call: a host function template calls another with its
// arguments' types left to deduction (`cont_cuda(x + r * ..., ...)` with
// x a `const T *` in `run_cuda<T>`), which clang leaves unresolved inside
// a template: the kernel's type argument follows the chain to the call
// that fixes T (`run_cuda<float>`), through a sum of a pointer and an
// offset that names T (`x + r * (n * sizeof(T) / sizeof(T))`), which
// libclang gives no type inside the template (up to ef0cdd3 such a sum
// was not followed). A generic lambda's `auto d` given as a template
// argument names nothing `ktc tune` can instantiate: the line is left to
// complete (it read `"d"`).
#ifndef __CUDACC_RTC__
#include <type_traits>
#elif !defined(KTC_RTC_HEADERS_GIVEN)
#include <cuda/std/type_traits>
namespace std { using namespace cuda::std; }
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
#ifndef ITEMS_PER_THREAD_2
#define ITEMS_PER_THREAD_2 1
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif
#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt kernel template("float", 0)
#pragma kt launch grid(div_ceil(((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE), ITEMS_PER_THREAD)) block(BLOCK_SIZE)
#pragma kt arg x float[n] in
#pragma kt arg y float[n] out
#pragma kt arg n int = n
template <typename T, int dim>
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
cont(const T *x, T *y, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			y[i] = x[i] + (T)dim;
	}
}

#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param ITEMS_PER_THREAD_2 values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil((n + (BLOCK_SIZE_2 - 1)) / BLOCK_SIZE_2, ITEMS_PER_THREAD_2)) block(BLOCK_SIZE_2)
// ktc: complete and uncomment: #pragma kt kernel template(?)
// ktc: complete and uncomment: #pragma kt arg x char[?] in
// ktc: complete and uncomment: #pragma kt arg y char[?] out
#pragma kt arg n int = n
template <typename T, int dim>
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif
noncont(const char *x, char *y, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD_2; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			((T *)y)[i] = ((const T *)x)[i] + (T)dim;
	}
}

#ifndef __CUDACC_RTC__
template <typename T>
static void cont_cuda(const T *x, T *y, int n, int dim, cudaStream_t st)
{
	const int nb = (n + (BLOCK_SIZE - 1)) / BLOCK_SIZE;
	if (dim == 0) {
		cont<T, 0><<<(((nb) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), BLOCK_SIZE, 0, st>>>(x, y, n);
		return;
	}
	cont<T, 1><<<nb, BLOCK_SIZE, 0, st>>>(x, y, n);
}

template <typename T>
static void run_cuda(const void *xv, void *yv, int n, int dim, cudaStream_t st)
{
	const T *x = (const T *)xv;
	T *y = (T *)yv;
	if (dim < 2) {
		for (int64_t r = 0; r < 1; r++)
			cont_cuda(x + r * (n * sizeof(T) / sizeof(T)), y + r * n,
			          n, dim, st);
		return;
	}
	auto launch = [&](auto d) {
		noncont<T, d><<<((((n + (BLOCK_SIZE_2 - 1)) / BLOCK_SIZE_2) + ITEMS_PER_THREAD_2 - 1) / ITEMS_PER_THREAD_2), BLOCK_SIZE_2, 0, st>>>((const char *)xv, (char *)yv, n);
	};
	if (dim == 2)
		launch(std::integral_constant<int, 2>{});
	else
		launch(std::integral_constant<int, 3>{});
}

void run(const void *x, void *y, int n, int dim, int size, cudaStream_t st)
{
	switch (size) {
	case 4: run_cuda<float>(x, y, n, dim, st); break;
	case 8: run_cuda<double>(x, y, n, dim, st); break;
	}
}
#endif
