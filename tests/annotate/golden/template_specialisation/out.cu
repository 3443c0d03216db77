// Template arguments that specialise a kernel for a run-time value: the
// switch's case label is the argument itself, and 0 stands for "given at
// run time". Neither is a tuning knob; the block size still is.
#ifndef BLOCK_SIZE
#define BLOCK_SIZE 128
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
#pragma kt kernel template(64)
#pragma kt launch grid(((rows + (BLOCK_SIZE - 1)) / BLOCK_SIZE)) block(BLOCK_SIZE)
#pragma kt arg out float[rows] out
#pragma kt arg in float[64 * rows] in
#pragma kt arg rows int = rows
#pragma kt arg cols_arg int = 0
template <int kCols>
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
row_sum(float *out, const float *in, int rows, int cols_arg)
{
	const int cols = kCols == 0 ? cols_arg : kCols;
	int r = blockIdx.x * BLOCK_SIZE + threadIdx.x;
	if (r >= rows)
		return;
	float s = 0.0f;
	for (int c = 0; c < cols; c++)
		s += in[r * cols + c];
	out[r] = s;
}

#ifndef __CUDACC_RTC__
void row_sum(float *out, const float *in, int rows, int cols)
{
	const int grid = (rows + (BLOCK_SIZE - 1)) / BLOCK_SIZE;
	switch (cols) {
	case 64:
		row_sum<64><<<grid, BLOCK_SIZE>>>(out, in, rows, 0);
		return;
	case 32:
		row_sum<32><<<grid, BLOCK_SIZE>>>(out, in, rows, 0);
		return;
	}
	if (cols == 16)
		row_sum<16><<<grid, BLOCK_SIZE>>>(out, in, rows, 0);
	else
		row_sum<0><<<grid, BLOCK_SIZE>>>(out, in, rows, cols);
}
#endif
