// A tree reduction over the block whose first step is written as a
// literal, half the block's 256 threads: the loop's start follows the
// block (BLOCK_SIZE / 2), whose values are powers of two; and the
// warp-per-row refactor, which copies the body for a block of 32, is not
// offered while a literal of the body follows the block.
#ifndef ROW_MAX_BLOCK_SIZE
#define ROW_MAX_BLOCK_SIZE 256
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param ROW_MAX_BLOCK_SIZE values(32, 64, 128, 256, 512, 1024) default(256)
#pragma kt constraint 4 * (ROW_MAX_BLOCK_SIZE) <= DEVICE_SMEM_PER_BLOCK
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint ROW_MAX_BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem cols values(?)
#pragma kt launch grid(rows) block(ROW_MAX_BLOCK_SIZE)
#pragma kt arg out float[rows] out
#pragma kt arg x float[rows * cols] in
#pragma kt arg cols int = cols
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(ROW_MAX_BLOCK_SIZE, MIN_BLOCKS)
#endif
row_max(float *out, const float *x, int cols)
{
	__shared__ float s[ROW_MAX_BLOCK_SIZE];
	const float *row = x + (size_t)blockIdx.x * cols;
	float m = -1e30f;
	for (int c = threadIdx.x; c < cols; c += blockDim.x)
		m = fmaxf(m, row[c]);
	s[threadIdx.x] = m;
	__syncthreads();
	for (int h = (ROW_MAX_BLOCK_SIZE / 2); h > 0; h >>= 1) {
		if (threadIdx.x < h)
			s[threadIdx.x] = fmaxf(s[threadIdx.x], s[threadIdx.x + h]);
		__syncthreads();
	}
	if (threadIdx.x == 0)
		out[blockIdx.x] = s[0];
}

#ifndef __CUDACC_RTC__
void run(float *out, const float *x, int rows, int cols)
{
	row_max<<<rows, ROW_MAX_BLOCK_SIZE>>>(out, x, cols);
}
#endif
