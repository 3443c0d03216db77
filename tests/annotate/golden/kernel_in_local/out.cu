// kernel_in_local: the kernel is launched through a local that holds it
// (`auto kernel = scale<4>;` as sglang's JIT launchers write it), through
// the runtime's cudaLaunchKernel: the launch is found and its geometry
// derived.
#include <cuda_runtime.h>

#ifndef SCALE_VEC
#define SCALE_VEC 4
#endif
#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param SCALE_VEC values(1, 2, 4) default(4)
#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt kernel template(SCALE_VEC)
#pragma kt launch grid((n / SCALE_VEC + (BLOCK_SIZE - 1)) / BLOCK_SIZE) block(BLOCK_SIZE)
#pragma kt arg y float[n] out
#pragma kt arg x float[n] in
#pragma kt arg n int = n
template <int VEC>
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
scale(float *y, const float *x, int n)
{
	int i = (blockIdx.x * blockDim.x + threadIdx.x) * VEC;
#pragma unroll
	for (int v = 0; v < VEC; v++)
		if (i + v < n)
			y[i + v] = 2.0f * x[i + v];
}

#ifndef __CUDACC_RTC__
void scale_all(float *y, const float *x, int n, cudaStream_t stream)
{
	auto kernel = scale<SCALE_VEC>;
	void *args[] = {&y, &x, &n};
	cudaLaunchKernel((const void *)kernel, dim3((n / SCALE_VEC + (BLOCK_SIZE - 1)) / BLOCK_SIZE),
	                 dim3(BLOCK_SIZE), args, 0, stream);
}
#endif
