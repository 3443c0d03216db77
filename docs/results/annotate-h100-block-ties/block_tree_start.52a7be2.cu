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
#ifndef WARP_ROWS
#define WARP_ROWS 0
#endif

#pragma kt param ROW_MAX_BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(256)
#pragma kt constraint 4 * (ROW_MAX_BLOCK_SIZE) <= DEVICE_SMEM_PER_BLOCK
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint ROW_MAX_BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
#pragma kt param WARP_ROWS values(0, 1, 2, 4, 8, 16, 32) default(0)
#pragma kt constraint 32 * WARP_ROWS <= ROW_MAX_BLOCK_SIZE
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem cols values(?)
#pragma kt launch grid(rows) block(WARP_ROWS > 0 ? 32 * WARP_ROWS : (ROW_MAX_BLOCK_SIZE))
#pragma kt arg out float[rows] out
#pragma kt arg x float[rows * cols] in
#pragma kt arg cols int = cols
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(ROW_MAX_BLOCK_SIZE, MIN_BLOCKS)
#endif
row_max(float *out, const float *x, int cols)

#if WARP_ROWS == 0
{
	__shared__ float s[ROW_MAX_BLOCK_SIZE];
	const float *row = x + (size_t)blockIdx.x * cols;
	float m = -1e30f;
	for (int c = threadIdx.x; c < cols; c += blockDim.x)
		m = fmaxf(m, row[c]);
	s[threadIdx.x] = m;
	__syncthreads();
	for (int h = 128; h > 0; h >>= 1) {
		if (threadIdx.x < h)
			s[threadIdx.x] = fmaxf(s[threadIdx.x], s[threadIdx.x + h]);
		__syncthreads();
	}
	if (threadIdx.x == 0)
		out[blockIdx.x] = s[0];
}
#else
{
	const unsigned kt_warp = threadIdx.x / 32u, kt_lane = threadIdx.x % 32u;
	const unsigned kt_row = blockIdx.x * WARP_ROWS + kt_warp;
	if (kt_row >= gridDim.x)
		return;
	__shared__ float s[WARP_ROWS][256];
	const float *row = x + (size_t)kt_row * cols;
	float m = -1e30f;
	for (int c = kt_lane; c < cols; c += 32u)
		m = fmaxf(m, row[c]);
	s[kt_warp][kt_lane] = m;
	__syncwarp();
	for (int h = 128; h > 0; h >>= 1) {
		if (kt_lane < h)
			s[kt_warp][kt_lane] = fmaxf(s[kt_warp][kt_lane], s[kt_warp][kt_lane + h]);
		__syncwarp();
	}
	if (kt_lane == 0)
		out[kt_row] = s[kt_warp][0];
}
#endif


#ifndef __CUDACC_RTC__
void run(float *out, const float *x, int rows, int cols)
{
	row_max<<<rows, (WARP_ROWS > 0 ? 32 * WARP_ROWS : (ROW_MAX_BLOCK_SIZE))>>>(out, x, cols);
}
#endif
