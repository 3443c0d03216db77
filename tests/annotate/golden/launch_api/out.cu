// launch_api: kernels launched through the runtime API instead of <<<>>>:
// cudaLaunchKernel with a cast and a template kernel's specialisation, and
// cudaLaunchCooperativeKernel without a cast.
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 128
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef VEC
#define VEC 1
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif
template <int N> struct kt_vec;
template <> struct kt_vec<1> { typedef unsigned char t; };
template <> struct kt_vec<2> { typedef unsigned short t; };
template <> struct kt_vec<4> { typedef unsigned int t; };
template <> struct kt_vec<8> { typedef uint2 t; };
template <> struct kt_vec<16> { typedef uint4 t; };

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt kernel template("float")
#pragma kt launch grid(((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE)) block(BLOCK_SIZE)
#pragma kt arg y float[n] out
#pragma kt arg x float[n] in
// ktc: complete and uncomment: #pragma kt arg a float = ?
#pragma kt arg n int = n
template <typename T> __global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
scale_kernel(T *y, const T *x, T a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i];
}

#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param VEC values(1, 2, 4) default(1)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(132) block(BLOCK_SIZE_2)
#pragma kt arg y float[n] out
#pragma kt arg x float[n] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif
negate_kernel(float *y, const float *x, int n)
{
	if constexpr (VEC == 1)
		for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
		     i += gridDim.x * blockDim.x)
			y[i] = -x[i];
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&y[0]) | reinterpret_cast<size_t>(&x[0])) % (VEC * 4)) == 0;
		const int kt_nvec = kt_aligned ? (int)((n) / VEC) : 0;
		for (int kt_v = blockIdx.x * blockDim.x + threadIdx.x; kt_v < kt_nvec; kt_v += gridDim.x * blockDim.x) {
			float kt_y[VEC];
			float kt_x[VEC];
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_x) = *reinterpret_cast<const typename kt_vec<VEC * 4>::t *>(&x[(0) + kt_v * VEC]);
#pragma unroll
			for (int kt_e = 0; kt_e < VEC; kt_e++) {
				const int i = kt_v * VEC + kt_e;
				(void)i;
				kt_y[kt_e] = -kt_x[kt_e];
			}
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(&y[(0) + kt_v * VEC]) = *reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_y);
		}
		for (int i = kt_nvec * VEC + (blockIdx.x * blockDim.x + threadIdx.x); i < (n); i += gridDim.x * blockDim.x)
			y[i] = -x[i];
	}
}

#ifndef __CUDACC_RTC__
void scale(float *y, const float *x, float a, int n, cudaStream_t s)
{
	dim3 block(BLOCK_SIZE);
	dim3 grid((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE);
	void *args[] = {&y, &x, &a, &n};
	cudaLaunchKernel((const void *)scale_kernel<float>, grid, block, args,
	                 0, s);
}

void negate(float *y, const float *x, int n, cudaStream_t s)
{
	void *args[] = {(void *)&y, (void *)&x, (void *)&n};
	cudaLaunchCooperativeKernel(negate_kernel, dim3(132), dim3(BLOCK_SIZE_2), args, 0,
	                            s);
}
#endif
