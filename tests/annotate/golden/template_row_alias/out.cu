// A kernel template reading its row through a local pointer, `const T
// *row = in + row_index * hidden`: inside the template libclang gives the
// sum (over a dependent pointee) no type, so it was not taken for a
// pointer and `in`'s length was left to complete; the sum of a pointer
// and an offset is now followed as one, giving `float[tokens * hidden]`.
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif
#ifndef ITEMS
#define ITEMS 1
#endif
#ifndef SPLIT
#define SPLIT 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt param ITEMS values(1, 2, 4, 8) default(1)
#pragma kt param SPLIT values(1, 2, 4, 8, 16, 32) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem tokens values(?)
// ktc: complete and uncomment: #pragma kt problem hidden values(?)
#pragma kt kernel template("float")
#pragma kt launch grid(tokens, SPLIT) block(BLOCK_SIZE)
#pragma kt arg out float[tokens * hidden] out
#pragma kt arg in float[tokens * hidden] in
#pragma kt arg hidden int = hidden
template <typename T>
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
copy_rows(T *__restrict__ out, const T *__restrict__ in,
                          int hidden)
{
	const T *row = in + (size_t)blockIdx.x * hidden;
#if ITEMS == 1
	for (int i = threadIdx.x + (SPLIT == 1 ? 0 : blockIdx.y * blockDim.x); i < hidden; i += (blockDim.x) * (SPLIT == 1 ? 1 : gridDim.y))
		out[(size_t)blockIdx.x * hidden + i] = row[i];
#else
	for (int kt_i = threadIdx.x + (SPLIT == 1 ? 0 : blockIdx.y * blockDim.x); kt_i < (hidden); kt_i += ((blockDim.x) * (SPLIT == 1 ? 1 : gridDim.y)) * ITEMS) {
		T kt_ld0[ITEMS];
#pragma unroll
		for (int kt_j = 0; kt_j < ITEMS; kt_j++) {
			const int i = kt_i + kt_j * ((blockDim.x) * (SPLIT == 1 ? 1 : gridDim.y));
			if (i < (hidden)) {
				kt_ld0[kt_j] = row[i];
			}
		}
#pragma unroll
		for (int kt_j = 0; kt_j < ITEMS; kt_j++) {
			const int i = kt_i + kt_j * ((blockDim.x) * (SPLIT == 1 ? 1 : gridDim.y));
			if (i < (hidden))
				out[(size_t)blockIdx.x * hidden + i] = kt_ld0[kt_j];
		}
	}
#endif
}
#ifndef __CUDACC_RTC__
void run(float *out, const float *in, int tokens, int hidden)
{
	copy_rows<<<dim3(tokens, SPLIT), BLOCK_SIZE>>>(out, in, hidden);
}
#endif
