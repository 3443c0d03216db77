// opaque_local: sizes the host computes with functions defined elsewhere
// (a tensor library's element count) are problem variables, as host
// parameters are; one computed from a tuning literal is not (it must
// follow the parameter), nor is an integer an object of the host gives
// with no argument (`s.rows()`: s_rows). The kernel's type argument comes
// from the cast at the launch, not from the void * under it.
#ifndef __CUDACC_RTC__
#include <cstdint>
#elif !defined(KTC_RTC_HEADERS_GIVEN)
#include <cuda/std/cstdint>
#endif

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 128
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
#ifndef VEC
#define VEC 1
#endif
#ifndef SPLIT
#define SPLIT 1
#endif
#ifndef MIN_BLOCKS_3
#define MIN_BLOCKS_3 0
#endif
template <int N> struct kt_vec;
template <> struct kt_vec<1> { typedef unsigned char t; };
template <> struct kt_vec<2> { typedef unsigned short t; };
template <> struct kt_vec<4> { typedef unsigned int t; };
template <> struct kt_vec<8> { typedef uint2 t; };
template <> struct kt_vec<16> { typedef uint4 t; };

struct tensor {
	int64_t ne[4];
	void *data;
};

#ifndef __CUDACC_RTC__
int64_t count_of(const tensor *t)
#endif
; /* in another translation unit */
#ifndef __CUDACC_RTC__
int blocks_for(int64_t n, int block)
#endif
;

#ifndef __CUDACC_RTC__
struct shape {
	int64_t rows() const; /* in another translation unit */
};
#endif

#ifndef FILL_BLOCK
#define FILL_BLOCK 256
#endif

#pragma kt param FILL_BLOCK values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint FILL_BLOCK * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem k values(?)
#pragma kt kernel template("float")
#pragma kt launch grid(div_ceil(((k + FILL_BLOCK - 1) / FILL_BLOCK), ITEMS_PER_THREAD)) block(FILL_BLOCK)
#pragma kt arg dst float[k] out
#pragma kt arg k int64_t = k
// ktc: complete and uncomment: #pragma kt arg value float = ?
template <typename T>
static __global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(FILL_BLOCK, MIN_BLOCKS)
#endif
fill(T *dst, const int64_t k, const T value)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		const int64_t i = ((int64_t)blockDim.x * blockIdx.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i >= k)
			return;
		dst[i] = value;
	}
}

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param ITEMS_PER_THREAD_2 values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
// ktc: complete and uncomment: #pragma kt launch grid(?) block(?)
#pragma kt arg y float[n] out
#pragma kt arg x float[n] in
#pragma kt arg n int = n
static __global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS_2)
#endif
twice(float *y, const float *x, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD_2; kt_item++) {
		const int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			y[i] = 2.0f * x[i];
	}
}

#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param VEC values(1, 2, 4) default(1)
#pragma kt constraint d % VEC == 0
#pragma kt param SPLIT values(1, 2, 4, 8, 16, 32) default(1)
#pragma kt param MIN_BLOCKS_3 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_3 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem s_rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(s_rows, SPLIT) block(BLOCK_SIZE_2)
#pragma kt arg y float[s_rows * d] out
#pragma kt arg d int64_t = d
static __global__ void
#if MIN_BLOCKS_3 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_3)
#endif
zero_rows(float *y, int64_t d)
{
	if constexpr (VEC == 1)
		for (int64_t j = threadIdx.x + (SPLIT == 1 ? 0 : blockIdx.y * blockDim.x); j < d; j += (blockDim.x) * (SPLIT == 1 ? 1 : gridDim.y))
			y[blockIdx.x * d + j] = 0.0f;
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&y[blockIdx.x * d])) % (VEC * 4)) == 0;
		const int kt_nvec = kt_aligned ? (int)((d) / VEC) : 0;
		for (int kt_v = threadIdx.x + (SPLIT == 1 ? 0 : blockIdx.y * blockDim.x); kt_v < kt_nvec; kt_v += (blockDim.x) * (SPLIT == 1 ? 1 : gridDim.y)) {
			float kt_y[VEC];
#pragma unroll
			for (int kt_e = 0; kt_e < VEC; kt_e++) {
				const int64_t j = kt_v * VEC + kt_e;
				(void)j;
				kt_y[kt_e] = 0.0f;
			}
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(&y[(blockIdx.x * d) + kt_v * VEC]) = *reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_y);
		}
		for (int64_t j = kt_nvec * VEC + (threadIdx.x + (SPLIT == 1 ? 0 : blockIdx.y * blockDim.x)); j < (d); j += (blockDim.x) * (SPLIT == 1 ? 1 : gridDim.y))
			y[blockIdx.x * d + j] = 0.0f;
	}
}

#ifndef __CUDACC_RTC__
void fill_tensor(tensor *dst, float value, cudaStream_t stream)
{
	const int64_t k = count_of(dst);
	const int64_t num_blocks = (k + FILL_BLOCK - 1) / FILL_BLOCK;
	fill<<<(((num_blocks) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), FILL_BLOCK, 0, stream>>>((float *)dst->data, k,
	                                            value);
}

void twice_tensor(tensor *y, const tensor *x, cudaStream_t stream)
{
	const int n = (int)x->ne[0];
	const int blocks = blocks_for(n, BLOCK_SIZE);
	twice<<<(((blocks) + ITEMS_PER_THREAD_2 - 1) / ITEMS_PER_THREAD_2), BLOCK_SIZE, 0, stream>>>((float *)y->data,
	                                  (const float *)x->data, n);
}

void zero_all(float *y, const shape &s, int64_t d, cudaStream_t stream)
{
	zero_rows<<<dim3(s.rows(), SPLIT), BLOCK_SIZE_2, 0, stream>>>(y, d);
}
#endif
