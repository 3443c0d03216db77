// host_template_constexpr.cu - a kernel template launched from a host
// function template whose geometry is computed by constexpr locals from
// its template argument, instantiated from a switch on a run-time value.
// The launch, the buffer lengths (the kernel's own constexpr locals, an
// offset computed before the guarded access, a view through a struct the
// template declares) and the problem sizes follow from the instantiation
// the first call makes.
#include <cuda_runtime.h>

#ifndef BLOCK_SIZE_Y
#define BLOCK_SIZE_Y 2
#endif

#pragma kt param BLOCK_SIZE_Y values(1, 2, 4, 8, 16, 32, 64) default(2)
#pragma kt constraint (32) * (BLOCK_SIZE_Y) <= DEVICE_MAX_THREADS_PER_BLOCK
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem k values(?)
#pragma kt kernel template(64)
#pragma kt launch grid(((rows + (BLOCK_SIZE_Y * 1) - (BLOCK_SIZE_Y - 1)) / (BLOCK_SIZE_Y * 1))) block(32, BLOCK_SIZE_Y)
#pragma kt arg x float[64 * rows] in
#pragma kt arg y float[rows * k] out
#pragma kt arg rows int = rows
#pragma kt arg k int = k
template <int COLS>
__global__ void row_max(const float *__restrict__ x, float *__restrict__ y,
			int rows, int k)
{
	constexpr int PER = COLS / 32 > 1 ? COLS / 32 : 1; // values per thread
	constexpr int TPR = COLS / PER;                     // threads per row
	constexpr int RPW = 32 / TPR;                       // rows per warp
	constexpr int PAIRS = PER / 2;                      // pairs per thread
	const int row = (blockIdx.x * BLOCK_SIZE_Y + threadIdx.y) * RPW + threadIdx.x / TPR;
	const bool live = row < rows;
	const int lane = threadIdx.x % TPR;
	struct __align__(8) pair_t {
		float f[2];
	};
	const pair_t *src = reinterpret_cast<const pair_t *>(x + (long)row * COLS);
	float v[PER];
	for (int j = 0; j < PAIRS; j++) {
		pair_t p = live ? src[j * TPR + lane] : pair_t{};
		v[j * 2 + 0] = p.f[0];
		v[j * 2 + 1] = p.f[1];
	}
	float m = v[0];
	for (int j = 1; j < PER; j++)
		m = fmaxf(m, v[j]);
	for (int kk = 0; kk < k; kk++)
		if (live && lane == 0)
			y[(long)row * k + kk] = m;
}

#ifndef __CUDACC_RTC__
template <int COLS>
static cudaError_t row_max_launch(const float *x, float *y, int rows, int k)
{
	constexpr int PER = COLS / 32 > 1 ? COLS / 32 : 1;
	constexpr int rows_per_block = BLOCK_SIZE_Y * (32 / (COLS / PER));
	dim3 grid((rows + rows_per_block - (BLOCK_SIZE_Y - 1)) / rows_per_block), block(32, BLOCK_SIZE_Y);
	row_max<COLS><<<grid, block>>>(x, y, rows, k);
	return cudaGetLastError();
}

cudaError_t row_max_any(const float *x, float *y, int rows, int cols, int k)
{
	switch (cols) {
	case 64:
		return row_max_launch<64>(x, y, rows, k);
	case 256:
		return row_max_launch<256>(x, y, rows, k);
	}
	return cudaErrorInvalidValue;
}
#endif
