// Grids counted in units smaller than the block. A warp per row, 4 warps
// in a block of 128: the grid `(rows + 3) / 4` follows the block as
// BLOCK_SIZE / 32. Half a warp per row, 8 half-warps in 128 threads: the
// grid's step 8 follows nothing, so the block stays (at 64 threads the
// grid would leave half the rows undone).
__global__ void row_sum(float *out, const float *x, int rows, int cols)
{
	int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
	int lane = threadIdx.x % 32;
	if (warp >= rows)
		return;
	float s = 0.0f;
	for (int c = lane; c < cols; c += 32)
		s += x[(size_t)warp * cols + c];
	for (int o = 16; o > 0; o >>= 1)
		s += __shfl_xor_sync(0xffffffff, s, o);
	if (lane == 0)
		out[warp] = s;
}

__global__ void row_max16(float *out, const float *x, int rows, int cols)
{
	int row = (blockIdx.x * blockDim.x + threadIdx.x) / 16;
	int lane = threadIdx.x % 16;
	if (row >= rows)
		return;
	float m = -1e30f;
	for (int c = lane; c < cols; c += 16)
		m = fmaxf(m, x[(size_t)row * cols + c]);
	for (int o = 8; o > 0; o >>= 1)
		m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o, 16));
	if (lane == 0)
		out[row] = m;
}

void run(float *out, float *mx, const float *x, int rows, int cols)
{
	row_sum<<<(rows + 3) / 4, 128>>>(out, x, rows, cols);
	row_max16<<<(rows + 7) / 8, 128>>>(mx, x, rows, cols);
}
