// Grids sized from the device, as persistent and grid-stride launches
// are: an attribute read with cudaDeviceGetAttribute, a cudaDeviceProp
// field (of an object, through a local, through a pointer a host function
// returns), clamped by the problem. The launch line takes the grammar's
// device constant (DEVICE_SM_COUNT), which `ktc tune` fills for the
// device it runs on. A local a call writes through its address is not its
// initialiser: with an unknown call it is a size the host decides.
#ifndef __CUDACC_RTC__
#include <algorithm>
#endif
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef BLOCKS_PER_SM
#define BLOCKS_PER_SM 4
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 128
#endif
#ifndef BLOCKS_PER_SM_2
#define BLOCKS_PER_SM_2 2
#endif
#ifndef BLOCK_SIZE_3
#define BLOCK_SIZE_3 512
#endif
#ifndef BLOCKS_PER_SM_3
#define BLOCKS_PER_SM_3 8
#endif
#ifndef BLOCK_SIZE_4
#define BLOCK_SIZE_4 256
#endif
#ifndef BLOCK_SIZE_5
#define BLOCK_SIZE_5 128
#endif
#ifndef VEC
#define VEC 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif
#ifndef VEC_2
#define VEC_2 1
#endif
#ifndef MIN_BLOCKS_3
#define MIN_BLOCKS_3 0
#endif
#ifndef VEC_3
#define VEC_3 1
#endif
#ifndef MIN_BLOCKS_4
#define MIN_BLOCKS_4 0
#endif
#ifndef VEC_4
#define VEC_4 1
#endif
#ifndef MIN_BLOCKS_5
#define MIN_BLOCKS_5 0
#endif
template <int N> struct kt_vec;
template <> struct kt_vec<1> { typedef unsigned char t; };
template <> struct kt_vec<2> { typedef unsigned short t; };
template <> struct kt_vec<4> { typedef unsigned int t; };
template <> struct kt_vec<8> { typedef uint2 t; };
template <> struct kt_vec<16> { typedef uint4 t; };

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param BLOCKS_PER_SM values(1, 2, 4, 8, 16, 32) default(4)
#pragma kt param VEC values(1, 2, 4) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(DEVICE_SM_COUNT * BLOCKS_PER_SM) block(BLOCK_SIZE)
#pragma kt arg out float[n] out
// ktc: complete and uncomment: #pragma kt arg v float = ?
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
fill_kernel(float *out, float v, int n)
{
	if constexpr (VEC == 1)
		for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
		     i += blockDim.x * gridDim.x)
			out[i] = v;
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&out[0])) % (VEC * 4)) == 0;
		const int kt_nvec = kt_aligned ? (int)((n) / VEC) : 0;
		for (int kt_v = blockIdx.x * blockDim.x + threadIdx.x; kt_v < kt_nvec; kt_v += blockDim.x * gridDim.x) {
			float kt_out[VEC];
#pragma unroll
			for (int kt_e = 0; kt_e < VEC; kt_e++) {
				const int i = kt_v * VEC + kt_e;
				(void)i;
				kt_out[kt_e] = v;
			}
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(&out[(0) + kt_v * VEC]) = *reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_out);
		}
		for (int i = kt_nvec * VEC + (blockIdx.x * blockDim.x + threadIdx.x); i < (n); i += blockDim.x * gridDim.x)
			out[i] = v;
	}
}

#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param BLOCKS_PER_SM_2 values(1, 2, 4, 8, 16, 32) default(2)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((DEVICE_SM_COUNT * BLOCKS_PER_SM_2)) block(BLOCK_SIZE_2)
#pragma kt arg out float[n] inout
#pragma kt arg in float[n] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_2)
#endif
add_kernel(float *out, const float *in, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += blockDim.x * gridDim.x)
		out[i] += in[i];
}

#pragma kt param BLOCK_SIZE_3 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(512)
#pragma kt param BLOCKS_PER_SM_3 values(1, 2, 4, 8, 16, 32) default(8)
#pragma kt param VEC_2 values(1, 2, 4) default(1)
#pragma kt param MIN_BLOCKS_3 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_3 * MIN_BLOCKS_3 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((min(DEVICE_SM_COUNT * BLOCKS_PER_SM_3, (n + (BLOCK_SIZE_3 - 1)) / BLOCK_SIZE_3))) block(BLOCK_SIZE_3)
#pragma kt arg out float[n] out
#pragma kt arg in float[n] in
// ktc: complete and uncomment: #pragma kt arg a float = ?
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_3 > 0
__launch_bounds__(BLOCK_SIZE_3, MIN_BLOCKS_3)
#endif
scale_kernel(float *out, const float *in, float a, int n)
{
	if constexpr (VEC_2 == 1)
		for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
		     i += blockDim.x * gridDim.x)
			out[i] = a * in[i];
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&out[0]) | reinterpret_cast<size_t>(&in[0])) % (VEC_2 * 4)) == 0;
		const int kt_nvec = kt_aligned ? (int)((n) / VEC_2) : 0;
		for (int kt_v = blockIdx.x * blockDim.x + threadIdx.x; kt_v < kt_nvec; kt_v += blockDim.x * gridDim.x) {
			float kt_out[VEC_2];
			float kt_in[VEC_2];
			*reinterpret_cast<typename kt_vec<VEC_2 * 4>::t *>(kt_in) = *reinterpret_cast<const typename kt_vec<VEC_2 * 4>::t *>(&in[(0) + kt_v * VEC_2]);
#pragma unroll
			for (int kt_e = 0; kt_e < VEC_2; kt_e++) {
				const int i = kt_v * VEC_2 + kt_e;
				(void)i;
				kt_out[kt_e] = a * kt_in[kt_e];
			}
			*reinterpret_cast<typename kt_vec<VEC_2 * 4>::t *>(&out[(0) + kt_v * VEC_2]) = *reinterpret_cast<typename kt_vec<VEC_2 * 4>::t *>(kt_out);
		}
		for (int i = kt_nvec * VEC_2 + (blockIdx.x * blockDim.x + threadIdx.x); i < (n); i += blockDim.x * gridDim.x)
			out[i] = a * in[i];
	}
}

#pragma kt param BLOCK_SIZE_4 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param VEC_3 values(1, 2, 4) default(1)
#pragma kt param MIN_BLOCKS_4 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_4 * MIN_BLOCKS_4 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem blocks values(?)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(blocks) block(BLOCK_SIZE_4)
#pragma kt arg out float[n] out
#pragma kt arg in float[n] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_4 > 0
__launch_bounds__(BLOCK_SIZE_4, MIN_BLOCKS_4)
#endif
copy_kernel(float *out, const float *in, int n)
{
	if constexpr (VEC_3 == 1)
		for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
		     i += blockDim.x * gridDim.x)
			out[i] = in[i];
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&out[0]) | reinterpret_cast<size_t>(&in[0])) % (VEC_3 * 4)) == 0;
		const int kt_nvec = kt_aligned ? (int)((n) / VEC_3) : 0;
		for (int kt_v = blockIdx.x * blockDim.x + threadIdx.x; kt_v < kt_nvec; kt_v += blockDim.x * gridDim.x) {
			float kt_out[VEC_3];
			float kt_in[VEC_3];
			*reinterpret_cast<typename kt_vec<VEC_3 * 4>::t *>(kt_in) = *reinterpret_cast<const typename kt_vec<VEC_3 * 4>::t *>(&in[(0) + kt_v * VEC_3]);
#pragma unroll
			for (int kt_e = 0; kt_e < VEC_3; kt_e++) {
				const int i = kt_v * VEC_3 + kt_e;
				(void)i;
				kt_out[kt_e] = kt_in[kt_e];
			}
			*reinterpret_cast<typename kt_vec<VEC_3 * 4>::t *>(&out[(0) + kt_v * VEC_3]) = *reinterpret_cast<typename kt_vec<VEC_3 * 4>::t *>(kt_out);
		}
		for (int i = kt_nvec * VEC_3 + (blockIdx.x * blockDim.x + threadIdx.x); i < (n); i += blockDim.x * gridDim.x)
			out[i] = in[i];
	}
}

#pragma kt param BLOCK_SIZE_5 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param VEC_4 values(1, 2, 4) default(1)
#pragma kt param MIN_BLOCKS_5 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_5 * MIN_BLOCKS_5 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem waves values(?)
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(waves * 132) block(BLOCK_SIZE_5)
#pragma kt arg out float[n] out
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS_5 > 0
__launch_bounds__(BLOCK_SIZE_5, MIN_BLOCKS_5)
#endif
zero_kernel(float *out, int n)
{
	if constexpr (VEC_4 == 1)
		for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
		     i += blockDim.x * gridDim.x)
			out[i] = 0.0f;
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&out[0])) % (VEC_4 * 4)) == 0;
		const int kt_nvec = kt_aligned ? (int)((n) / VEC_4) : 0;
		for (int kt_v = blockIdx.x * blockDim.x + threadIdx.x; kt_v < kt_nvec; kt_v += blockDim.x * gridDim.x) {
			float kt_out[VEC_4];
#pragma unroll
			for (int kt_e = 0; kt_e < VEC_4; kt_e++) {
				const int i = kt_v * VEC_4 + kt_e;
				(void)i;
				kt_out[kt_e] = 0.0f;
			}
			*reinterpret_cast<typename kt_vec<VEC_4 * 4>::t *>(&out[(0) + kt_v * VEC_4]) = *reinterpret_cast<typename kt_vec<VEC_4 * 4>::t *>(kt_out);
		}
		for (int i = kt_nvec * VEC_4 + (blockIdx.x * blockDim.x + threadIdx.x); i < (n); i += blockDim.x * gridDim.x)
			out[i] = 0.0f;
	}
}

#ifndef __CUDACC_RTC__
const cudaDeviceProp *device_properties()
#endif
;
#ifndef __CUDACC_RTC__
void blocks_for(int *blocks, int n)
#endif
;
#ifndef __CUDACC_RTC__
void waves_for(int &waves, int n)
#endif
;

#ifndef __CUDACC_RTC__
void fill(float *out, float v, int n, cudaStream_t s)
{
	int dev = 0, sms = 0;
	cudaGetDevice(&dev);
	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
	fill_kernel<<<sms * BLOCKS_PER_SM, BLOCK_SIZE, 0, s>>>(out, v, n);
}

void add(float *out, const float *in, int n, cudaStream_t s)
{
	cudaDeviceProp prop;
	cudaGetDeviceProperties(&prop, 0);
	const int blocks = prop.multiProcessorCount * BLOCKS_PER_SM_2;
	add_kernel<<<blocks, BLOCK_SIZE_2, 0, s>>>(out, in, n);
}

void scale(float *out, const float *in, float a, int n, cudaStream_t s)
{
	const cudaDeviceProp *props = device_properties();
	int grid = std::min(props->multiProcessorCount * BLOCKS_PER_SM_3, (n + (BLOCK_SIZE_3 - 1)) / BLOCK_SIZE_3);
	scale_kernel<<<grid, BLOCK_SIZE_3, 0, s>>>(out, in, a, n);
}

void copy(float *out, const float *in, int n, cudaStream_t s)
{
	int blocks = 1;
	blocks_for(&blocks, n);
	copy_kernel<<<blocks, BLOCK_SIZE_4, 0, s>>>(out, in, n);
}

void zero(float *out, int n, cudaStream_t s)
{
	int waves = 2;
	waves_for(waves, n);
	zero_kernel<<<waves * 132, BLOCK_SIZE_5, 0, s>>>(out, n);
}
#endif
