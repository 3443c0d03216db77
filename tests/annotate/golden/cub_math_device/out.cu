// A block-wide maximum with cub's umbrella header (which also brings the
// device-wide algorithms, host code) and math.h's INFINITY.
#ifndef __CUDACC_RTC__
#include <cmath>
#include <cub/cub.cuh>
#elif !defined(KTC_RTC_HEADERS_GIVEN)
#include <cuda/std/cmath>
namespace std { using namespace cuda::std; }
#include <cuda/std/limits>
#ifndef INFINITY
#define INFINITY (::cuda::std::numeric_limits<float>::infinity())
#endif
#ifndef NAN
#define NAN (::cuda::std::numeric_limits<float>::quiet_NaN())
#endif
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#ifndef M_SQRT2
#define M_SQRT2 1.41421356237309504880
#endif
#ifndef M_LN2
#define M_LN2 0.69314718055994530942
#endif
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_merge_sort.cuh>
#include <cub/block/block_histogram.cuh>
#include <cub/block/block_discontinuity.cuh>
#include <cub/block/block_adjacent_difference.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
#include <cub/warp/warp_load.cuh>
#include <cub/warp/warp_store.cuh>
#include <cub/warp/warp_exchange.cuh>
#include <cub/warp/warp_merge_sort.cuh>
#include <cub/thread/thread_reduce.cuh>
#endif

#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif

struct max_op {
	__device__ float operator()(float a, float b) const
	{
		return a > b ? a : b;
	}
};

#pragma kt param MIN_BLOCKS values(0, 1, 2, 4) default(0)
#pragma kt constraint 256 * MIN_BLOCKS <= DEVICE_MAX_THREADS_PER_SM
// ktc: complete and uncomment: #pragma kt problem n values(?)
#pragma kt launch grid((n + 255) / 256) block(256)
#pragma kt arg out float[(n + 255) / 256] out
#pragma kt arg x float[n] in
#pragma kt arg n int = n
__global__ void
#if MIN_BLOCKS > 0
__launch_bounds__(256, MIN_BLOCKS)
#endif
block_max(float *out, const float *x, int n)
{
	typedef cub::BlockReduce<float, 256> reduce;
	__shared__ typename reduce::TempStorage tmp;
	int i = blockIdx.x * 256 + threadIdx.x;
	float v = i < n ? x[i] : -INFINITY;
	float m = reduce(tmp).Reduce(v, max_op());
	if (threadIdx.x == 0)
		out[blockIdx.x] = m;
}

#ifndef __CUDACC_RTC__
void launch(float *out, const float *x, int n)
{
	block_max<<<(n + 255) / 256, 256>>>(out, x, n);
}
#endif
