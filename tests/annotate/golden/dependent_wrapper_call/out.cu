// A kernel passed to a header's launcher from a host function template
// whose template parameter the kernel's arguments name: the call is not
// resolved until the template is instantiated, so it names the launcher's
// overload set, and the launcher is followed through it. The block's
// rows per block (4) and the grid that divides by them are tied.
#ifndef __CUDACC_RTC__
#include "dependent_wrapper_call.h"
#elif !defined(KTC_RTC_HEADERS_GIVEN)
// ktc: the device side of "dependent_wrapper_call.h"
// A launcher the project keeps in a header: it takes the kernel and a
// geometry struct and launches the kernel with that struct's fields.
#include <cuda_runtime.h>
#include <cuda/std/utility>
namespace std { using namespace cuda::std; }


struct geom {
	dim3 grid;
	dim3 block;
	cudaStream_t stream;
	
};


#endif

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 64
#endif
#ifndef PER_BLOCK
#define PER_BLOCK 4
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(64)
#pragma kt param PER_BLOCK values(1, 2, 4, 8, 16, 32, 64) default(4)
#pragma kt constraint (BLOCK_SIZE) * (PER_BLOCK) <= DEVICE_MAX_THREADS_PER_BLOCK
// ktc: complete and uncomment: #pragma kt problem rows values(?)
// ktc: complete and uncomment: #pragma kt problem cols values(?)
#pragma kt kernel template("true")
#pragma kt launch grid(((rows + PER_BLOCK - 1) / PER_BLOCK)) block(BLOCK_SIZE, PER_BLOCK)
#pragma kt arg x float[rows * cols] inout
#pragma kt arg rows int = rows
#pragma kt arg cols int = cols
template <bool add>
__global__ void shift_rows(float *x, int rows, int cols)
{
	int r = blockIdx.x * blockDim.y + threadIdx.y;
	if (r >= rows)
		return;
	for (int c = threadIdx.x; c < cols; c += blockDim.x)
		x[r * cols + c] += add ? 1.0f : -1.0f;
}

#ifndef __CUDACC_RTC__
template <bool add>
static void shift_rows_t(float *x, int rows, int cols, cudaStream_t s)
{
	const int per_block = PER_BLOCK;
	dim3 grid((rows + per_block - 1) / per_block);
	dim3 block(BLOCK_SIZE, per_block);
	const geom g = geom(grid, block, s);
	launch_with(shift_rows<add>, g, x, rows, cols);
}

void shift(float *x, int rows, int cols, bool add, cudaStream_t s)
{
	if (add)
		shift_rows_t<true>(x, rows, cols, s);
	else
		shift_rows_t<false>(x, rows, cols, s);
}
#endif
