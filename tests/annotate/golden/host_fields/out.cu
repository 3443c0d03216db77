// host_fields: the launcher reads the sizes from the fields of objects it
// receives (a tensor descriptor's `ne[]` through a pointer, a parameter
// struct by value): each field is a problem variable, named for the
// object and the field. A struct the launcher fills itself is not, nor
// a pointer a local's initialiser tests (`dst ? dst->ne[0] * 2 : 0`:
// the local is the problem variable; up to 6a61988 `dst` was one).
#ifndef __CUDACC_RTC__
#include <cstdint>
#elif !defined(KTC_RTC_HEADERS_GIVEN)
#include <cuda/std/cstdint>
#endif

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef BLOCK_SIZE_2
#define BLOCK_SIZE_2 256
#endif
#ifndef VEC
#define VEC 1
#endif
#ifndef SPLIT
#define SPLIT 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef ITEMS_PER_THREAD
#define ITEMS_PER_THREAD 1
#endif
#ifndef MIN_BLOCKS_2
#define MIN_BLOCKS_2 0
#endif
#ifndef ITEMS_PER_THREAD_2
#define ITEMS_PER_THREAD_2 1
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

struct shape {
	int rows, cols;
};

#ifndef ROW_BLOCK
#define ROW_BLOCK 128
#endif

#pragma kt param ROW_BLOCK values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param VEC values(1, 2, 4) default(1)
#pragma kt constraint src_ne_0 % VEC == 0
#pragma kt param SPLIT values(1, 2, 4, 8, 16, 32) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint ROW_BLOCK * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem src_ne_1 values(?)
// ktc: complete and uncomment: #pragma kt problem src_ne_0 values(?)
#pragma kt launch grid(src_ne_1, SPLIT) block(ROW_BLOCK)
#pragma kt arg x float[src_ne_1 * src_ne_0] in
#pragma kt arg y float[src_ne_1 * src_ne_0] out
#pragma kt arg ncols int64_t = src_ne_0
#pragma kt arg s float = 0.5f
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(ROW_BLOCK, MIN_BLOCKS)
#endif
scale_rows(const float *x, float *y, int64_t ncols, float s)
{
	const int64_t row = blockIdx.x;
	if constexpr (VEC == 1)
		for (int64_t c = threadIdx.x + (SPLIT == 1 ? 0 : blockIdx.y * blockDim.x); c < ncols; c += (blockDim.x) * (SPLIT == 1 ? 1 : gridDim.y))
			y[row * ncols + c] = x[row * ncols + c] * s;
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&y[row * ncols]) | reinterpret_cast<size_t>(&x[row * ncols])) % (VEC * 4)) == 0;
		const int kt_nvec = kt_aligned ? (int)((ncols) / VEC) : 0;
		for (int kt_v = threadIdx.x + (SPLIT == 1 ? 0 : blockIdx.y * blockDim.x); kt_v < kt_nvec; kt_v += (blockDim.x) * (SPLIT == 1 ? 1 : gridDim.y)) {
			float kt_y[VEC];
			float kt_x[VEC];
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_x) = *reinterpret_cast<const typename kt_vec<VEC * 4>::t *>(&x[(row * ncols) + kt_v * VEC]);
#pragma unroll
			for (int kt_e = 0; kt_e < VEC; kt_e++) {
				const int64_t c = kt_v * VEC + kt_e;
				(void)c;
				kt_y[kt_e] = kt_x[kt_e] * s;
			}
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(&y[(row * ncols) + kt_v * VEC]) = *reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_y);
		}
		for (int64_t c = kt_nvec * VEC + (threadIdx.x + (SPLIT == 1 ? 0 : blockIdx.y * blockDim.x)); c < (ncols); c += (blockDim.x) * (SPLIT == 1 ? 1 : gridDim.y))
			y[row * ncols + c] = x[row * ncols + c] * s;
	}
}

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem sh_rows values(?)
// ktc: complete and uncomment: #pragma kt problem sh_cols values(?)
#pragma kt launch grid(div_ceil((sh_rows * sh_cols + (BLOCK_SIZE - 1)) / BLOCK_SIZE, ITEMS_PER_THREAD)) block(BLOCK_SIZE)
#pragma kt arg y float[sh_rows * sh_cols] inout
#pragma kt arg n int = sh_rows * sh_cols
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS_2)
#endif
add_one(float *y, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			y[i] += 1.0f;
	}
}

#ifndef __CUDACC_RTC__
void scale_rows_cuda(const tensor *src, tensor *dst, cudaStream_t st)
{
	scale_rows<<<dim3(src->ne[1], SPLIT), ROW_BLOCK, 0, st>>>(
	    (const float *)src->data, (float *)dst->data, src->ne[0], 0.5f);
}

void add_one_cuda(float *y, shape sh, cudaStream_t st)
{
	add_one<<<((((sh.rows * sh.cols + (BLOCK_SIZE - 1)) / BLOCK_SIZE) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), BLOCK_SIZE, 0, st>>>(
	    y, sh.rows * sh.cols);
}
#endif

#pragma kt param BLOCK_SIZE_2 values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS_PER_THREAD_2 values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS_3 values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE_2 * MIN_BLOCKS_3 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n0 values(?)
#pragma kt launch grid(div_ceil((n0 + (BLOCK_SIZE_2 - 1)) / BLOCK_SIZE_2, ITEMS_PER_THREAD_2)) block(BLOCK_SIZE_2)
#pragma kt arg y float[n0] out
#pragma kt arg n int64_t = n0
__global__ void
#if MIN_BLOCKS_3 > 0
__launch_bounds__(BLOCK_SIZE_2, MIN_BLOCKS_3)
#endif
fill_rows(float *y, int64_t n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD_2; kt_item++) {
		int64_t i = (blockIdx.x * (int64_t)blockDim.x + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			y[i] = 0.0f;
	}
}

/* a local tested against a null pointer first (ggml's
 * GGML_TENSOR_LOCALS): the local is the problem variable, the pointer
 * none */
#ifndef __CUDACC_RTC__
void fill_rows_cuda(tensor *dst, cudaStream_t st)
{
	const int64_t n0 = (dst) ? dst->ne[0] * 2 : 0;
	fill_rows<<<((((n0 + (BLOCK_SIZE_2 - 1)) / BLOCK_SIZE_2) + ITEMS_PER_THREAD_2 - 1) / ITEMS_PER_THREAD_2), BLOCK_SIZE_2, 0, st>>>((float *)dst->data, n0);
}

void add_one_fixed(float *y, cudaStream_t st)
{
	shape own = {64, 32};
	add_one<<<(own.rows * own.cols + (BLOCK_SIZE - 1)) / BLOCK_SIZE, BLOCK_SIZE, 0, st>>>(
	    y, own.rows * own.cols);
}
#endif
