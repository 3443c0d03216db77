// row_refactors.cu - a "one block per row" kernel of the serving stacks'
// kind: blockIdx.x is the row, a block-strided elementwise loop walks its
// columns. The built-in planner offers row_split (more blocks per row,
// along y), hoist_loads (several iterations' loads before their stores)
// and launch_bounds here.
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
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem d values(?)
#pragma kt launch grid(rows, SPLIT) block(BLOCK_SIZE)
#pragma kt arg out float[rows * d] out
#pragma kt arg in float[rows * d] in
#pragma kt arg w float[d] in
#pragma kt arg d int = d
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
scale_rows(float *__restrict__ out, const float *__restrict__ in,
			   const float *__restrict__ w, int d)
{
	const int row = blockIdx.x;
#if ITEMS == 1
	for (int i = threadIdx.x + (SPLIT == 1 ? 0 : blockIdx.y * blockDim.x); i < d; i += (blockDim.x) * (SPLIT == 1 ? 1 : gridDim.y)) {
		const float v = in[row * d + i] * w[i];
		out[row * d + i] = v > 0.0f ? v : 0.0f;
	}
#else
	for (int kt_i = threadIdx.x + (SPLIT == 1 ? 0 : blockIdx.y * blockDim.x); kt_i < (d); kt_i += ((blockDim.x) * (SPLIT == 1 ? 1 : gridDim.y)) * ITEMS) {
		float kt_ld0[ITEMS];
		float kt_ld1[ITEMS];
#pragma unroll
		for (int kt_j = 0; kt_j < ITEMS; kt_j++) {
			const int i = kt_i + kt_j * ((blockDim.x) * (SPLIT == 1 ? 1 : gridDim.y));
			if (i < (d)) {
				kt_ld0[kt_j] = in[(row * d) + i];
				kt_ld1[kt_j] = w[i];
			}
		}
#pragma unroll
		for (int kt_j = 0; kt_j < ITEMS; kt_j++) {
			const int i = kt_i + kt_j * ((blockDim.x) * (SPLIT == 1 ? 1 : gridDim.y));
			if (i < (d)) {
				const float v = kt_ld0[kt_j] * kt_ld1[kt_j];
				out[row * d + i] = v > 0.0f ? v : 0.0f;
			}
		}
	}
#endif
}

#ifndef __CUDACC_RTC__
void scale_rows_launch(float *out, const float *in, const float *w, int rows,
		       int d, cudaStream_t stream)
{
	scale_rows<<<dim3(rows, SPLIT), BLOCK_SIZE, 0, stream>>>(out, in, w, d);
}
#endif
