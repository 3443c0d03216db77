// grid_per_sm: grids sized as blocks per SM. A grid-stride kernel
// launched with four blocks per SM of cudaGetDeviceProperties; a chunked
// count whose chunk per block comes from the same product as its grid
// (both must move together), the SM count read from a struct of the
// caller; a product of a literal and a count that is not the SM count,
// which stays; and a chunk computed inside a macro of another file
// (grid_per_sm_util.h), where a parameter could not follow: the grid's
// literal stays too.
#include <cuda_runtime.h>

#include "grid_per_sm_util.h"

__global__ void axpy_persistent(float *y, const float *x, float a, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		y[i] += a * x[i];
}

void axpy(float *y, const float *x, float a, int n, cudaStream_t s)
{
	int dev = 0;
	cudaDeviceProp prop;
	cudaGetDevice(&dev);
	cudaGetDeviceProperties(&prop, dev);
	axpy_persistent<<<prop.multiProcessorCount * 4, 256, 0, s>>>(y, x, a,
	                                                             n);
}

__global__ void count_equal(const int *x, const int *y, int *dst, long dk,
                            long k)
{
	const long i0 = (long)blockIdx.x * dk;
	const long i1 = i0 + dk < k ? i0 + dk : k;
	int same = 0;
	for (long i = i0 + threadIdx.x; i < i1; i += blockDim.x)
		same += x[i] == y[i];
	atomicAdd(dst, same);
}

struct device_info {
	int nsm;
	int copies;
};

void count(const int *x, const int *y, int *dst, long ne,
           const device_info &info, cudaStream_t s)
{
	const int nsm = info.nsm;
	const long dne = (ne + 2 * nsm - 1) / (2 * nsm);
	const long blocks = 2 * nsm < ne ? 2 * nsm : ne;
	const int spare = 2 * info.copies; /* not an SM count: stays */
	(void)spare;
	count_equal<<<blocks, 128, 0, s>>>(x, y, dst, dne, ne);
}

void count_padded(const int *x, const int *y, int *dst, long ne,
                  const device_info &info, cudaStream_t s)
{
	const long dne = ROUND_UP((ne + 3 * info.nsm - 1) / (3 * info.nsm), 64);
	const long blocks = (ne + dne - 1) / dne;
	count_equal<<<blocks < 3 * info.nsm ? blocks : 3 * info.nsm, 128, 0,
	              s>>>(x, y, dst, dne, ne);
}
