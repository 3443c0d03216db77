// explicit_instantiation: a host function template launches a kernel
// template and is instantiated only explicitly (the way libraries build
// their launchers): the instantiation fixes the kernel's template
// arguments. The one inside a macro's definition names the macro's
// parameter and is not read.
#include <cuda_fp16.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt kernel template("__half", 8)
#pragma kt launch grid(((n + BLOCK_SIZE * 8 - 1) / (BLOCK_SIZE * 8))) block(BLOCK_SIZE)
#pragma kt arg out __half[n] out
#pragma kt arg in __half[n] in
// ktc: complete and uncomment: #pragma kt arg s float = ?
#pragma kt arg n int = n
template <typename T, int VEC>
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
scale_kernel(T *out, const T *in, float s, int n)
{
	int i = (blockIdx.x * blockDim.x + threadIdx.x) * VEC;
#pragma unroll
	for (int k = 0; k < VEC; k++)
		if (i + k < n)
			out[i + k] = (T)((float)in[i + k] * s);
}

#ifndef __CUDACC_RTC__
template <typename T, int VEC>
void invoke_scale(T *out, const T *in, float s, int n, cudaStream_t st)
{
	const int blocks = (n + BLOCK_SIZE * VEC - 1) / (BLOCK_SIZE * VEC);
	scale_kernel<T, VEC><<<blocks, BLOCK_SIZE, 0, st>>>(out, in, s, n);
}
#endif

#define INSTANTIATE_SCALE(T)                                                   \
	template void invoke_scale<T, 4>(T *, const T *, float, int,           \
	                                 cudaStream_t);
#ifndef __CUDACC_RTC__
INSTANTIATE_SCALE(float)
template void invoke_scale<__half, 8>(__half *, const __half *, float, int,
                                      cudaStream_t);
#endif
