// cast_to_dependent_ref: a template kernel that views its shared memory
// through a reference to a type that depends on the template argument
// (libclang has no pointee type for it).
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 128
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

template <typename T> struct scale_traits {
	struct storage {
		T scale;
	};
};

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt kernel template("scale_traits<float>")
#pragma kt launch grid((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) block(BLOCK_SIZE) smem(4)
#pragma kt arg y float[n] out
#pragma kt arg x float[n] in
// ktc: complete and uncomment: #pragma kt arg s float = ?
#pragma kt arg n int = n
template <typename Traits>
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
scale_kernel(float *y, const float *x, float s, int n)
{
	extern __shared__ char smem[];
	typename Traits::storage &st =
	    reinterpret_cast<typename Traits::storage &>(smem);
	if (threadIdx.x == 0)
		st.scale = s;
	__syncthreads();
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = x[i] * st.scale;
}

#ifndef __CUDACC_RTC__
void scale(float *y, const float *x, float s, int n)
{
	scale_kernel<scale_traits<float>>
	    <<<(n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, BLOCK_SIZE, sizeof(float)>>>(y, x, s, n);
}
#endif
