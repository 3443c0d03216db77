// Grids counted in units smaller than the block. A warp per row, 4 warps
// in a block of 128: the grid `(rows + 3) / 4` follows the block as
// BLOCK_SIZE / 32. Half a warp per row, 8 half-warps in 128 threads: the
// grid's step 8 follows nothing, so the block stays (at 64 threads the
// grid would leave half the rows undone).
#ifndef ROW_SUM_BLOCK_SIZE
#define ROW_SUM_BLOCK_SIZE 128
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

#pragma kt param ROW_SUM_BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint ROW_SUM_BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem cols values(?)
#pragma kt launch grid((rows + (ROW_SUM_BLOCK_SIZE / 32 - 1)) / (ROW_SUM_BLOCK_SIZE / 32)) block(ROW_SUM_BLOCK_SIZE)
#pragma kt arg out float[rows] out
#pragma kt arg x float[rows * cols] in
#pragma kt arg rows int = rows
#pragma kt arg cols int = cols
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(ROW_SUM_BLOCK_SIZE, MIN_BLOCKS)
#endif
row_sum(float *out, const float *x, int rows, int cols)
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

#pragma kt param VEC values(1, 2, 4) default(1)
#pragma kt constraint cols % VEC == 0
#pragma kt param MIN_BLOCKS_2 values(0, 1, 2, 4) default(0)
#pragma kt constraint 128 * MIN_BLOCKS_2 <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem cols values(?)
#pragma kt launch grid((rows + 7) / 8) block(128)
#pragma kt arg out float[rows] out
#pragma kt arg x float[rows * cols] in
#pragma kt arg rows int = rows
#pragma kt arg cols int = cols
__global__ void
#if MIN_BLOCKS_2 > 0
__launch_bounds__(128, MIN_BLOCKS_2)
#endif
row_max16(float *out, const float *x, int rows, int cols)
{
	int row = (blockIdx.x * blockDim.x + threadIdx.x) / 16;
	int lane = threadIdx.x % 16;
	if (row >= rows)
		return;
	float m = -1e30f;
	if constexpr (VEC == 1)
		for (int c = lane; c < cols; c += 16)
			m = fmaxf(m, x[(size_t)row * cols + c]);
	else {
		const bool kt_aligned = ((reinterpret_cast<size_t>(&x[(size_t)row * cols])) % (VEC * 4)) == 0;
		const int kt_nvec = kt_aligned ? (int)((cols) / VEC) : 0;
		for (int kt_v = lane; kt_v < kt_nvec; kt_v += 16) {
			float kt_x[VEC];
			*reinterpret_cast<typename kt_vec<VEC * 4>::t *>(kt_x) = *reinterpret_cast<const typename kt_vec<VEC * 4>::t *>(&x[((size_t)row * cols) + kt_v * VEC]);
#pragma unroll
			for (int kt_e = 0; kt_e < VEC; kt_e++) {
				const int c = kt_v * VEC + kt_e;
				(void)c;
				m = fmaxf(m, kt_x[kt_e]);
			}
		}
		for (int c = kt_nvec * VEC + (lane); c < (cols); c += 16)
			m = fmaxf(m, x[(size_t)row * cols + c]);
	}
	for (int o = 8; o > 0; o >>= 1)
		m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o, 16));
	if (lane == 0)
		out[row] = m;
}

#ifndef __CUDACC_RTC__
void run(float *out, float *mx, const float *x, int rows, int cols)
{
	row_sum<<<(rows + (ROW_SUM_BLOCK_SIZE / 32 - 1)) / (ROW_SUM_BLOCK_SIZE / 32), ROW_SUM_BLOCK_SIZE>>>(out, x, rows, cols);
	row_max16<<<(rows + 7) / 8, 128>>>(mx, x, rows, cols);
}
#endif
