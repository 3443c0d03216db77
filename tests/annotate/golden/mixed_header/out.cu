// Device code that uses a header's mixed host/device type.
#ifndef __CUDACC_RTC__
#include "mixed_header.h"
#elif !defined(KTC_RTC_HEADERS_GIVEN)
// ktc: the device side of "mixed_header.h"
// A config type with a host-only member function, used by device code of
// the header, and a host launcher template instantiated through a macro.
#pragma once


struct tile_config {
	int rows, cols;
	constexpr __host__ __device__ tile_config(int r, int c)
	    : rows(r), cols(c)
	{
	}
	__device__ int elems() const
	{
		return rows * cols;
	}
	
};

static constexpr __host__ __device__ tile_config default_tile()
{
	return tile_config(4, 8);
}



#define DECL_DISPATCH(kind) template void host_dispatch<kind>(float *y, int n)




/*
 * host_registry: a host type with a nested type, and an alias of that
 * type after it: the alias goes with the type. This comment is longer
 * than the window ktc reads back from a declaration for its start, and
 * it holds a `;` near its end, so read from its middle its words would
 * be taken for code and the start put inside it.
 * Line 00 of filler text that makes this comment long enough to
 * Line 01 of filler text that makes this comment long enough to
 * Line 02 of filler text that makes this comment long enough to
 * Line 03 of filler text that makes this comment long enough to
 * Line 04 of filler text that makes this comment long enough to
 * Line 05 of filler text that makes this comment long enough to
 * Line 06 of filler text that makes this comment long enough to
 * Line 07 of filler text that makes this comment long enough to
 * Line 08 of filler text that makes this comment long enough to
 * Line 09 of filler text that makes this comment long enough to
 * Line 10 of filler text that makes this comment long enough to
 * Line 11 of filler text that makes this comment long enough to
 * Line 12 of filler text that makes this comment long enough to
 * Line 13 of filler text that makes this comment long enough to
 * Line 14 of filler text that makes this comment long enough to
 * Line 15 of filler text that makes this comment long enough to
 * matter: reg.add(name); // registers a name, on the host only.
 * More text after the semicolon, still inside the comment 0.
 * More text after the semicolon, still inside the comment 1.
 * More text after the semicolon, still inside the comment 2.
 */


#endif

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 128
#endif
#ifndef ITEMS_PER_THREAD
#define ITEMS_PER_THREAD 1
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

#pragma kt param BLOCK_SIZE values(32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800, 832, 864, 896, 928, 960, 992, 1024) default(128)
#pragma kt param ITEMS_PER_THREAD values(1, 2, 4, 8) default(1)
#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint BLOCK_SIZE * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid(div_ceil((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE, ITEMS_PER_THREAD)) block(BLOCK_SIZE)
#pragma kt arg y float[n] out
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(BLOCK_SIZE, MIN_BLOCKS)
#endif
fill_tiles(float *y, int n)
{
#pragma unroll
	for (int kt_item = 0; kt_item < ITEMS_PER_THREAD; kt_item++) {
		int i = (blockIdx.x * BLOCK_SIZE + threadIdx.x) + kt_item * gridDim.x * blockDim.x;
		if (i < n)
			y[i] = (float)default_tile().elems();
	}
}

#ifndef __CUDACC_RTC__
void fill(float *y, int n)
{
	fill_tiles<<<((((n + (BLOCK_SIZE - 1)) / BLOCK_SIZE) + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD), BLOCK_SIZE>>>(y, n);
}
#endif
